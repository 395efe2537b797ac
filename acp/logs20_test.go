package acp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// TestGrokSubagentCallUsage: Grok Build sends response_completed {usage}
// after each model call of a sub-agent too, on the sub-agent's own
// session (the shapes TestGrokSubagentLifecycle and TestGrokCallUsage
// cite from public notes of live grok 1.0.x runs). The sub-agent's calls
// were dropped, so its tokens showed nowhere; they are call usage of the
// sub-agent's own turn (named by its session id, a turn the session never
// started, as a Codex sub-agent thread's calls are of its turns), which
// reduce keeps apart from the session's turns (Usage.Other) and adds to
// the sum over turns. A session nobody announced stays ignored.
func TestGrokSubagentCallUsage(t *testing.T) {
	const spawn = `{"sessionUpdate":"subagent_spawned","subagent_id":"01a0-c1","parent_session_id":"root-1","child_session_id":"01a0-c1","subagent_type":"general-purpose","description":"echo check","model":"grok-4.7"}`
	evs := translateChecked(t, grokSession(
		`root-1 {"sessionUpdate":"tool_call","toolCallId":"call-1","title":"spawn_subagent","rawInput":{"description":"echo check","prompt":"Run echo sub-ok","subagent_type":"general-purpose","background":false},"_meta":{"x.ai/tool":{"name":"spawn_subagent","kind":"task"}}}`,
		`x root-1 `+spawn,
		`01a0-c1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"sub-ok"}}`,
		`x 01a0-c1 {"sessionUpdate":"response_completed","usage":{"input_tokens":100,"output_tokens":7,"cache_read_input_tokens":900,"cache_creation_input_tokens":0}}`,
		`x 01a0-c1 {"sessionUpdate":"turn_completed","prompt_id":"p9","stop_reason":"end_turn","usage":{"input_tokens":100,"output_tokens":7,"cache_read_input_tokens":900}}`,
		`x root-1 {"sessionUpdate":"subagent_finished","subagent_id":"01a0-c1","child_session_id":"01a0-c1","status":"completed","output":"sub-ok","will_wake":false}`,
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"call-1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"sub-ok"}}]}`,
		`x root-1 {"sessionUpdate":"response_completed","usage":{"input_tokens":50,"output_tokens":5}}`,
		`x ghost-7 {"sessionUpdate":"response_completed","usage":{"input_tokens":5,"output_tokens":5}}`,
	))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	type call struct {
		turn    string
		in, out int64
	}
	var got []call
	for _, ev := range golden.OfType(evs, universal.TypeUsageUpdated) {
		d := ev.Data.(*universal.UsageUpdated)
		if d.Scope == universal.ScopeCall {
			got = append(got, call{d.TurnID, *d.Usage.InputTokens, *d.Usage.OutputTokens})
		}
	}
	want := []call{{"01a0-c1", 1000, 7}, {"turn_1", 50, 5}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("call usage %+v, want %+v", got, want)
	}
	s, err := reduce.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	u := s.Usage
	if len(u.Other) != 1 || u.Other[0].TurnID != "01a0-c1" {
		t.Fatalf("other usage %+v", u.Other)
	}
	if n := u.Total.OutputTokens; n == nil || *n != 12 {
		t.Errorf("total output %v, want 12 (the session's call and the sub-agent's)", n)
	}
}

// TestCursorToolName: Cursor's ACP server (cursor-agent acp, 2026.09.23)
// names its tool in the call's rawInput, _toolName ("task", "createPlan",
// "updateTodos"), and its Task tool's rawInput gives the sub-agent's type
// as subagentType {"unspecified": {}} or {"custom": {"name"}}, as a
// public project's notes of live runs record ("cursor-subagents: what the
// Go server can see of Cursor subagents"; the index does not name the
// repository) and several public clients' tests quote. The Task call was
// named by its title and was an other-kind call without its prompt; it
// is a task call named task, its prompt its tool_input. The title stays in
// the metadata. Lines in those shapes, values shortened.
func TestCursorToolName(t *testing.T) {
	call := "call_7Mg\\nfc_02e"
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"agentInfo":{"name":"cursor-agent","version":"2026.09.23-86fc751"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + call + `","title":"Task: count files","kind":"other","status":"pending","rawInput":{"_toolName":"task","prompt":"Count the files.","description":"count files","subagentType":{"unspecified":{}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"` + call + `","status":"completed","rawOutput":{"durationMs":7627,"isBackground":false}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"todo1","title":"Update TODOs: a, b","kind":"other","status":"pending","rawInput":{"_toolName":"updateTodos","todos":[]}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t3","title":"Task: read","kind":"other","status":"pending","rawInput":{"description":"read","prompt":"Read a.txt.","subagentType":{"custom":{"name":"file-counter"}}}}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`,
	}, "\n")+"\n")
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindToolCall {
			continue
		}
		p := it.Content[0]
		prompt := ""
		if p.ToolInput != nil {
			prompt = p.ToolInput.Prompt
		}
		got = append(got, p.Name+" "+string(p.ToolKind)+" "+prompt)
	}
	want := []string{"task task Count the files.", "updateTodos other ", "Task: read task Read a.txt."}
	if !slices.Equal(got, want) {
		t.Errorf("calls\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCommandStderr: a command's rawOutput {exitCode, stdout, stderr}
// (Cursor's execute calls, as the notes TestCursorToolName cites quote
// them) gave the result its stdout alone: a failed command's stderr, often
// its only output, was left out of the result's text. The output is stdout
// then stderr.
func TestCommandStderr(t *testing.T) {
	call := func(id, out string) []string {
		return []string{
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"run","kind":"execute","status":"pending","rawInput":{"command":"make"}}}}`,
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `","status":"completed","rawOutput":` + out + `}}}`,
		}
	}
	lines := []string{`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`}
	lines = append(lines, call("c1", `{"exitCode":0,"stdout":"a.txt\nb.txt\n","stderr":""}`)...)
	lines = append(lines, call("c2", `{"exitCode":1,"stdout":"","stderr":"boom"}`)...)
	lines = append(lines, call("c3", `{"exitCode":2,"stdout":"partial","stderr":"make: *** [all] Error 2"}`)...)
	lines = append(lines, call("c4", `{"exitCode":2,"stdout":"line\n","stderr":"err"}`)...)
	lines = append(lines, `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`)
	evs := translateChecked(t, strings.Join(lines, "\n")+"\n")
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
			got = append(got, it.Content[0].Output)
		}
	}
	want := []string{"a.txt\nb.txt\n", "boom", "partial\nmake: *** [all] Error 2", "line\nerr"}
	if !slices.Equal(got, want) {
		t.Errorf("outputs %q, want %q", got, want)
	}
}
