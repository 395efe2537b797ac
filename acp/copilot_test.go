package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCopilotNotices: GitHub Copilot CLI sends its session's notices as
// agent_message_chunks of their own, the level as the prefix ("Info: "
// a retry, "Error: " the failure that ends the turn, then end_turn with
// no usage: its s05-error recording, testdata/acp/copilot-cli/1.0.102).
// They are status items and the turn's error, not the model's text; the
// turn ended completed with "Info: …Error: 400 …" as the answer. The same
// text from another agent stays text.
func TestCopilotNotices(t *testing.T) {
	session := func(agent string) string {
		return `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"` + agent + `","version":"1.0.102"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"Summarize."}]}}` + "\n" +
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Info: Request failed due to a transient API error. Retrying..."}}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Error: 400 Invalid request: the mock rejects this prompt"}}}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}` + "\n"
	}
	evs := translate(t, acp.FormatAgent, session("Copilot"))
	for _, it := range completedItems(t, evs) {
		if it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant {
			t.Errorf("assistant message %+v, want none (the notices are no model text)", it.Content)
		}
	}
	var notices []string
	for _, it := range completedItems(t, evs) {
		if it.Kind == universal.KindStatus && it.Content[0].Label == "notice" {
			notices = append(notices, it.Content[0].Detail+" "+string(it.Content[0].Metadata))
		}
	}
	want := []string{
		`Info: Request failed due to a transient API error. Retrying... {"level":"info","source":"copilot"}`,
		`Error: 400 Invalid request: the mock rejects this prompt {"level":"error","source":"copilot"}`,
	}
	if strings.Join(notices, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices %q\nwant %q", notices, want)
	}
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 || errs[0].Data.(*universal.Error).Message != "400 Invalid request: the mock rejects this prompt" {
		t.Fatalf("errors %v, want the notice's", errs)
	}
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn ends %v, want one, error", ends)
	}

	evs = translate(t, acp.FormatAgent, session("other"))
	if n := len(golden.OfType(evs, universal.TypeError)); n != 0 {
		t.Errorf("another agent: %d errors, want none (its text is the model's)", n)
	}
}

// TestCopilotSubagentCalls: Copilot CLI names the sub-agent that makes a
// call only by _meta["github.com/copilot"].agentId, no parent call (its
// s10-subagent recording): the call goes under the running task call
// (rawInput {name, description, prompt, agent_type, mode}), which is a
// task, in the sub-agent's message; it was a call of the session's own,
// the task call kind other.
func TestCopilotSubagentCalls(t *testing.T) {
	const meta = `,"_meta":{"github.com/copilot":{"agentId":"f62e4114"}}`
	in := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"Copilot","version":"1.0.102"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"Delegate."}]}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"main_0","title":"Count lines","kind":"other","status":"pending","rawInput":{"name":"mockhelper","description":"Count lines","prompt":"Task: count.","agent_type":"mockhelper","mode":"sync"}}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"sub_1","title":"Count lines","kind":"execute","status":"pending","rawInput":{"command":"wc -l notes.txt"}` + meta + `}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"sub_1","status":"completed","rawOutput":{"content":"3 notes.txt"}` + meta + `}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"main_0","status":"completed","rawOutput":{"content":"3 lines."}}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}` + "\n"
	evs := translate(t, acp.FormatAgent, in)
	calls, byID := callsAndItems(t, evs)
	task, sub := calls["main_0"], calls["sub_1"]
	if task.Content == nil || sub.Content == nil {
		t.Fatalf("calls %v, want main_0 and sub_1", calls)
	}
	if task.Content[0].ToolKind != universal.ToolTask {
		t.Errorf("task call kind %q, want task", task.Content[0].ToolKind)
	}
	// The sub-agent's calls go in its message, under the task call.
	if m := byID[sub.ParentID]; m.Kind != universal.KindMessage || m.ParentID != task.ItemID {
		t.Errorf("sub-agent call's parent %+v, want a message under the task call %q", m, task.ItemID)
	}
}

// TestCopilotParallelSubagents: the model may delegate to two sub-agents
// in one response (two task calls running at once); each agentId goes
// under a task call of its own, in the order the calls came, not both
// under the latest call.
func TestCopilotParallelSubagents(t *testing.T) {
	meta := func(aid string) string { return `,"_meta":{"github.com/copilot":{"agentId":"` + aid + `"}}` }
	task := func(id string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"Count","kind":"other","status":"pending","rawInput":{"name":"mockhelper","description":"Count","prompt":"Task: count.","agent_type":"mockhelper","mode":"sync"}}}}` + "\n"
	}
	call := func(id, aid string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"Count lines","kind":"execute","status":"pending","rawInput":{"command":"wc -l notes.txt"}` + meta(aid) + `}}}` + "\n"
	}
	done := func(id, aid string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `","status":"completed","rawOutput":{"content":"3"}` + aid + `}}}` + "\n"
	}
	in := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"Copilot","version":"1.0.102"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"Delegate twice."}]}}` + "\n" +
		task("main_0") + task("main_1") +
		call("sub_a1", "agent-a") + call("sub_b1", "agent-b") + call("sub_a2", "agent-a") +
		done("sub_a1", meta("agent-a")) + done("sub_b1", meta("agent-b")) + done("sub_a2", meta("agent-a")) +
		done("main_0", "") + done("main_1", "") +
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}` + "\n"
	evs := translate(t, acp.FormatAgent, in)
	calls, byID := callsAndItems(t, evs)
	under := func(call string) string {
		for id := calls[call].ParentID; id != ""; id = byID[id].ParentID {
			if it := byID[id]; it.Kind == universal.KindToolCall {
				return it.Content[0].CallID
			}
		}
		return ""
	}
	for call, want := range map[string]string{"sub_a1": "main_0", "sub_a2": "main_0", "sub_b1": "main_1"} {
		if got := under(call); got != want {
			t.Errorf("%s under task call %q, want %q", call, got, want)
		}
	}
}

// callsAndItems returns the completed tool calls of evs by call id, and
// every completed item by item id.
func callsAndItems(t *testing.T, evs []universal.Event) (calls, byID map[string]universal.Item) {
	t.Helper()
	calls, byID = map[string]universal.Item{}, map[string]universal.Item{}
	for _, it := range completedItems(t, evs) {
		byID[it.ItemID] = it
		if it.Kind == universal.KindToolCall {
			calls[it.Content[0].CallID] = it
		}
	}
	return calls, byID
}
