package acp_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// translate runs a small input through the translator of one format.
func translate(t *testing.T, format, input string) []universal.Event {
	t.Helper()
	c := golden.Case{Format: format, Framing: framing(format), New: newTranslator(format)}
	evs, err := c.Translate([]byte(input), golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// translateShaped is translate after checking the fuzz property on the
// input (well-formed stream, checkpoint and restore byte for byte), and
// fails when the events break the stream rules or the canonical shape.
func translateShaped(t *testing.T, format, input string) []universal.Event {
	t.Helper()
	golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(format), Framing: framing(format)}, []byte(input))
	evs := translate(t, format, input)
	if err := universal.CheckStream(evs); err != nil {
		t.Fatal(err)
	}
	if vs := conformance.Check(evs); len(vs) != 0 {
		t.Fatal(vs[0])
	}
	return evs
}

// TestDeniedCallWithoutUpdate: a permission request brings a call the
// agent never announced nor updates again (Gemini CLI, after a rejected
// option, only tells the model); the turn ends. The call did not run: its
// tool_call item fails at the turn's end, and on the agent's side alone,
// where the host's answer is not seen, its permission is resolved denied,
// inferred, before the call completes. In the exchange the host's answer
// resolved it already: nothing more.
func TestDeniedCallWithoutUpdate(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"I'll do that."}}}}`,
		`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}],"toolCall":{"toolCallId":"c1","status":"pending","title":"touch x","kind":"execute"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Permission was denied."}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	check := func(t *testing.T, evs []universal.Event, wantInferred bool) {
		t.Helper()
		resolved, completed := -1, -1
		for i, ev := range evs {
			switch d := ev.Data.(type) {
			case *universal.Permission:
				if ev.Type != universal.TypePermissionResolved {
					continue
				}
				if resolved >= 0 {
					t.Fatalf("permission resolved twice")
				}
				resolved = i
				if d.Status != universal.PermissionDenied || d.CallID != "c1" {
					t.Errorf("permission.resolved %+v, want denied for c1", d)
				}
				if got := strings.Contains(string(d.Metadata), `"inferred":true`); got != wantInferred {
					t.Errorf("permission.resolved metadata %s, inferred want %v", d.Metadata, wantInferred)
				}
			case *universal.ItemSnapshot:
				if ev.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindToolCall {
					completed = i
					if d.Item.Status != universal.StatusFailed {
						t.Errorf("tool_call completed %s, want failed", d.Item.Status)
					}
				}
			}
		}
		if resolved < 0 || completed < 0 {
			t.Fatalf("permission resolved at %d, call completed at %d: want both", resolved, completed)
		}
		if wantInferred && resolved > completed {
			t.Errorf("the permission is resolved after its call completed")
		}
	}
	t.Run("agent", func(t *testing.T) {
		check(t, translate(t, acp.FormatAgent, agent), true)
	})
	t.Run("exchange", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"dir":"in","t_ms":0,"msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}` + "\n")
		lines := strings.Split(strings.TrimSpace(agent), "\n")
		out := func(l string) { b.WriteString(`{"dir":"out","t_ms":1,"msg":` + l + "}\n") }
		out(lines[0])
		b.WriteString(`{"dir":"in","t_ms":2,"msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}` + "\n")
		out(lines[1])
		b.WriteString(`{"dir":"in","t_ms":3,"msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"touch x"}]}}}` + "\n")
		out(lines[2])
		out(lines[3])
		b.WriteString(`{"dir":"in","t_ms":4,"msg":{"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"no"}}}}` + "\n")
		out(lines[4])
		out(lines[5])
		check(t, translate(t, acp.FormatExchange, b.String()), false)
	})
}

// TestSubAgentEndsWithItsCall: a sub-agent's last message completes when
// the call that spawned it completes, before the call's result, not when
// the parent's next message or the turn's end comes.
func TestSubAgentEndsWithItsCall(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","status":"in_progress","title":"Task","kind":"think","_meta":{"claudeCode":{"toolName":"Task"}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"sub answer"},"_meta":{"claudeCode":{"parentToolUseId":"t1"}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"sub answer"}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"main answer"}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	evs := translate(t, acp.FormatAgent, agent)
	sub, result := -1, -1
	for i, ev := range evs {
		s, ok := ev.Data.(*universal.ItemSnapshot)
		if !ok || ev.Type != universal.TypeItemCompleted {
			continue
		}
		switch {
		case s.Item.Kind == universal.KindMessage && s.Item.ParentID != "" && golden.TextOf(&s.Item) == "sub answer":
			sub = i
		case s.Item.Kind == universal.KindToolResult:
			result = i
		}
	}
	if sub < 0 || result < 0 || sub > result {
		t.Errorf("sub-agent message completed at %d, the call's result at %d: want the message first", sub, result)
	}
}

// TestTerminalOutputChunks: terminal output reported in chunks (the
// terminal_output _meta of tool_call_update, or terminal_output_delta, as
// @agentclientprotocol/codex-acp 2.6.0 sends it) is the call's output, all
// chunks in order, escapes read.
func TestTerminalOutputChunks(t *testing.T) {
	for _, key := range []string{"terminal_output", "terminal_output_delta"} {
		t.Run(key, func(t *testing.T) { testTerminalOutputChunks(t, key) })
	}
}

func testTerminalOutputChunks(t *testing.T, key string) {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","status":"in_progress","title":"ls","kind":"execute","rawInput":{"command":"ls"}}}}`,
	}
	var want strings.Builder
	for i := range 50 {
		lines = append(lines, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","_meta":{"`+key+`":{"terminal_id":"x","data":"line `+strconv.Itoa(i)+`\n"}}}}}`)
		want.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	lines = append(lines,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","_meta":{"terminal_exit":{"terminal_id":"x","exit_code":0,"signal":null}}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
	evs := translate(t, acp.FormatAgent, strings.Join(lines, "\n")+"\n")
	var outputs []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartToolResult {
				outputs = append(outputs, p.Output)
			}
		}
	}
	if len(outputs) != 1 || outputs[0] != want.String() {
		t.Errorf("tool outputs %.80q, want one %.80q…", outputs, want.String())
	}
}

// TestToolCallAfterPermission: a tool_call notification states the whole
// call, so it replaces what the permission request's ToolCallUpdate said
// of it before: codex-acp asks first, with its question as the content
// ("Do you want me to run …?"), then announces the call without content
// and ends it with its output in rawOutput alone. The question is no
// output of the command, nor is the request's location one of the call's.
func TestToolCallAfterPermission(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"approved","name":"Yes","kind":"allow_once"}],"toolCall":{"toolCallId":"c1","status":"pending","title":"cat x","kind":"read","locations":[{"path":"/w/y"}],"content":[{"type":"content","content":{"type":"text","text":"Do you want me to run cat x?"}}],"rawInput":{"command":["bash","-lc","cat x"]}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","status":"in_progress","title":"cat x","kind":"read","rawInput":{"command":["bash","-lc","cat x"]}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"stdout":"hello\n","exit_code":0}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	evs := translate(t, acp.FormatAgent, agent)
	var outputs, paths []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
			switch {
			case p.Type == universal.PartToolResult:
				outputs = append(outputs, p.Output)
			case p.Type == universal.PartToolCall && p.ToolInput != nil:
				paths = append(paths, p.ToolInput.Paths...)
			}
		}
	}
	if len(outputs) != 1 || outputs[0] != "hello\n" {
		t.Errorf("tool outputs %q, want one \"hello\\n\"", outputs)
	}
	if len(paths) != 0 {
		t.Errorf("the call's paths %q, want none (the tool_call names no location)", paths)
	}
}

// TestRawOutputAggregated: Codex's command events (codex-acp's rawOutput)
// carry stdout, stderr and aggregated_output, both as they interleaved:
// the result shows the aggregate, stderr included, as Codex's own
// translator does.
func TestRawOutputAggregated(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","status":"in_progress","title":"make","kind":"execute","rawInput":{"command":["bash","-lc","make"]}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","rawOutput":{"stdout":"cc main.c\n","stderr":"main.c:1: error\n","aggregated_output":"cc main.c\nmain.c:1: error\n","exit_code":2}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	var outputs []string
	for _, e := range golden.OfType(translate(t, acp.FormatAgent, agent), universal.TypeItemCompleted) {
		for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartToolResult {
				outputs = append(outputs, p.Output)
			}
		}
	}
	if want := "cc main.c\nmain.c:1: error\n"; len(outputs) != 1 || outputs[0] != want {
		t.Errorf("tool outputs %q, want one %q", outputs, want)
	}
}

// TestMessageIDChangeRightAfter: OpenCode's ACP server gives its reasoning
// chunks the reasoning part's id as messageId and its text chunks the
// message's: a messageId change with nothing between is the same model
// response (one message, reasoning then text), not two messages back to
// back, which would split it. After a tool call, a new messageId is the
// next response's message.
func TestMessageIDChangeRightAfter(t *testing.T) {
	chunk := func(kind, id, text string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"` + kind +
			`","messageId":"` + id + `","content":{"type":"text","text":"` + text + `"}}}}`
	}
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		chunk("agent_thought_chunk", "prt_1", "Thinking."),
		chunk("agent_message_chunk", "msg_1", "Running it."),
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","status":"completed","title":"ls","kind":"execute","rawInput":{"command":"ls"},"content":[{"type":"content","content":{"type":"text","text":"a\n"}}]}}}`,
		chunk("agent_message_chunk", "msg_2", "Done."),
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	events := translate(t, acp.FormatAgent, agent)
	var msgs [][]universal.PartType
	for _, e := range golden.OfType(events, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindMessage || it.Role != universal.RoleAssistant {
			continue
		}
		var types []universal.PartType
		for _, p := range it.Content {
			types = append(types, p.Type)
		}
		msgs = append(msgs, types)
	}
	want := [][]universal.PartType{{universal.PartReasoning, universal.PartText}, {universal.PartText}}
	if !slices.EqualFunc(msgs, want, slices.Equal) {
		t.Errorf("assistant messages' parts %v, want %v", msgs, want)
	}
	if vs := conformance.Check(events); len(vs) != 0 {
		t.Errorf("canonical shape: %v", vs)
	}
}

// TestDeniedAfterInProgress: OpenCode's tools ask for permission from
// inside their run, so the call is in_progress before the request; on the
// agent's side alone, a call whose first status after the request is
// failed was denied, not approved.
func TestDeniedAfterInProgress(t *testing.T) {
	update := func(fields string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"toolCallId":"c1",` + fields + `}}}`
	}
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		update(`"sessionUpdate":"tool_call","title":"bash","kind":"execute","status":"pending","rawInput":{}`),
		update(`"sessionUpdate":"tool_call_update","status":"in_progress","title":"rm -rf build","rawInput":{"command":"rm -rf build"}`),
		`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c1","title":"rm -rf build","rawInput":{"command":"rm -rf build"}},"options":[{"optionId":"once","kind":"allow_once","name":"Allow once"},{"optionId":"reject","kind":"reject_once","name":"Reject"}]}}`,
		update(`"sessionUpdate":"tool_call_update","status":"failed","content":[{"type":"content","content":{"type":"text","text":"The user rejected permission to use this specific tool call."}}]`),
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	var got []universal.PermissionStatus
	for _, e := range golden.OfType(translate(t, acp.FormatAgent, agent), universal.TypePermissionResolved) {
		got = append(got, e.Data.(*universal.Permission).Status)
	}
	if len(got) != 1 || got[0] != universal.PermissionDenied {
		t.Errorf("permission resolutions %v, want one denied", got)
	}
}

// TestUpdateAfterCancelledTurn: a tool_call_update that comes after the
// prompt's response (codex-acp 2.6.0 answers cancelled, then sends the
// cancelled command's output and exit) belongs to the ended turn's call:
// no second turn, no second call, the update kept as a status item.
func TestUpdateAfterCancelledTurn(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","status":"in_progress","title":"seq 1 9","kind":"execute","rawInput":{"command":"seq 1 9"}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"cancelled"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","_meta":{"terminal_output_delta":{"terminal_id":"t1","data":"1\n2\n"}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","_meta":{"terminal_exit":{"terminal_id":"t1","exit_code":0,"signal":null}}}}}`,
	}, "\n") + "\n"
	evs := translateChecked(t, agent)
	if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1", n)
	}
	if names := callNames(evs); len(names) != 1 {
		t.Errorf("calls %q, want one", names)
	}
	started, completed := statusItems(evs, "tool_call_update_after_turn")
	if len(started) != 2 || len(completed) != 2 {
		t.Fatalf("%d/%d tool_call_update_after_turn items, want 2", len(started), len(completed))
	}
	if !strings.Contains(string(completed[0].Content[0].Metadata), `1\n2\n`) {
		t.Errorf("late update %s: its output is not kept", completed[0].Content[0].Metadata)
	}
}
