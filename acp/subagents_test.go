package acp_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// subagentSession is an agent's stdout for one prompt whose updates are
// the lines given, sessions named by their first word ("root ", "child ",
// "grandchild ").
func subagentSession(lines ...string) string {
	out := []string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"agentInfo":{"name":"@agentclientprotocol/codex-acp","title":"Codex","version":"1.11.0"},"authMethods":[]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"root-1"}}`,
	}
	for _, l := range lines {
		sid, u, _ := strings.Cut(l, " ")
		out = append(out, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"`+sid+`","update":`+u+`}}`)
	}
	out = append(out, `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
	return strings.Join(out, "\n") + "\n"
}

// itemTree lists the completed items: kind, label or text, and the index
// in the list of the item it is under (-1: none).
func itemTree(evs []universal.Event) []string {
	var items []universal.Item
	index := map[string]int{}
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		index[it.ItemID] = len(items)
		items = append(items, it)
	}
	var out []string
	for _, it := range items {
		what := ""
		if len(it.Content) > 0 {
			p := it.Content[0]
			what = p.Text + p.Label + p.Name + p.Output
		}
		parent := -1
		if i, ok := index[it.ParentID]; ok {
			parent = i
		}
		out = append(out, fmt.Sprintf("%s %q under %d", it.Kind, what, parent))
	}
	return out
}

// TestSubagentSessions: the unstable sub-agent updates of the ACP
// subagents RFD (agentclientprotocol/agent-client-protocol
// docs/rfds/subagents.mdx), in the shapes @agentclientprotocol/codex-acp
// sends them to a client declaring clientCapabilities.subagents
// (src/subagents/CodexSubagentEventRouter.ts: subagent_spawned {name,
// task: "Delegated task for <name>", capabilities: {}} on the parent
// session, the child's updates on its own session, subagent_state_update
// {state} on the parent), with no call spawning it (codex-acp drops its
// start and complete calls when it announces the sub-agent;
// claude-agent-acp sends no Agent call). Before, both lifecycle updates
// were agent.unparsed and the child's text and call went into the
// session's own response: the child's "4" and the session's "It is 4."
// one message.
func TestSubagentSessions(t *testing.T) {
	evs := translateChecked(t, subagentSession(
		`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Delegating."}}`,
		`root-1 {"sessionUpdate":"subagent_spawned","subagentSessionId":"child-1","name":"Arithmetic","task":"Delegated task for Arithmetic","capabilities":{}}`,
		`child-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Reading."}}`,
		`child-1 {"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read a.txt","kind":"read","status":"completed","rawInput":{"path":"a.txt"}}`,
		`child-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"4"},"_meta":{"codex":{"phase":"final_answer"}}}`,
		`root-1 {"sessionUpdate":"subagent_state_update","subagentSessionId":"child-1","state":"completed"}`,
		`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"It is 4."}}`,
	))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{
		`message "Delegating." under -1`,
		`status "sub_agent_started" under -1`,
		`message "Reading." under 1`,
		`tool_call "Read a.txt" under 2`, // the response's message
		`tool_result "" under 2`,
		`message "4" under 1`,
		`status "sub_agent_completed" under -1`,
		`message "It is 4." under -1`,
	}
	if got := itemTree(evs); !slices.Equal(got, want) {
		t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, started := statusItems(evs, "sub_agent_started")
	if len(started) != 1 || started[0].Content[0].Detail != "Arithmetic" ||
		gjson.GetBytes(started[0].Content[0].Metadata, "subagent_session_id").Str != "child-1" ||
		gjson.GetBytes(started[0].Content[0].Metadata, "task").Str != "Delegated task for Arithmetic" {
		t.Errorf("sub_agent_started %+v", started)
	}
	if e := golden.OfType(evs, universal.TypeError); len(e) != 0 {
		t.Errorf("errors %+v", e)
	}
}

// TestSubagentNamedCall: an announcement that names the call that
// spawned the sub-agent (Cursor: _meta.cursor.toolCallId, as clients of
// Cursor's ACP read it) goes under that call; a call of no delegating
// kind already running (its item complete) cannot hold the sub-agent's
// items, which go under the announcement; the RFD's later form, subagent_update, announces on its first
// update and reports a failed sub-agent as a status item, not an error of
// the session; a nested sub-agent is announced on its parent's session.
func TestSubagentNamedCall(t *testing.T) {
	evs := translateChecked(t, subagentSession(
		`root-1 {"sessionUpdate":"tool_call","toolCallId":"task-1","title":"Explore the repo","kind":"other","status":"in_progress","rawInput":{"description":"Explore"}}`,
		`root-1 {"sessionUpdate":"subagent_spawned","subagentSessionId":"child-1","name":"Explore","task":"Find tests","_meta":{"cursor":{"toolCallId":"task-1","model":"small"}}}`,
		`child-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Found 3."}}`,
		`root-1 {"sessionUpdate":"subagent_state_update","subagentSessionId":"child-1","state":"completed"}`,
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"task-1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"3 tests"}}]}`,
		`root-1 {"sessionUpdate":"subagent_update","subagentSessionId":"child-2","name":"Fixer","task":"Fix the test"}`,
		`child-2 {"sessionUpdate":"subagent_update","subagentSessionId":"child-3","name":"Helper"}`,
		`child-3 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"helping"}}`,
		`child-2 {"sessionUpdate":"subagent_update","subagentSessionId":"child-3","state":"disconnected"}`,
		`root-1 {"sessionUpdate":"subagent_update","subagentSessionId":"child-2","task":"Fix the flaky test"}`,
		`root-1 {"sessionUpdate":"subagent_update","subagentSessionId":"child-2","state":"failed"}`,
		`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Done."}}`,
	))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{
		`message "" under -1`,
		`tool_call "Explore the repo" under 0`,
		`status "sub_agent_started" under 1`,
		`message "Found 3." under 2`,
		`status "sub_agent_completed" under 1`,
		`tool_result "3 tests" under 0`,
		`status "sub_agent_started" under -1`,
		`status "sub_agent_started" under 6`,
		`message "helping" under 7`,
		`status "sub_agent_disconnected" under 6`,
		`status "sub_agent_updated" under -1`,
		`status "sub_agent_failed" under -1`,
		`message "Done." under -1`,
	}
	if got := itemTree(evs); !slices.Equal(got, want) {
		t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e := golden.OfType(evs, universal.TypeError); len(e) != 0 {
		t.Errorf("errors %+v", e)
	}
	if ended := golden.OfType(evs, universal.TypeTurnEnded); len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("turn.ended %+v", ended)
	}
}

// TestSubagentMalformed: a sub-agent update without a subagentSessionId
// is agent.unparsed; one naming the session itself binds nothing.
func TestSubagentMalformed(t *testing.T) {
	evs := translateChecked(t, subagentSession(
		`root-1 {"sessionUpdate":"subagent_spawned","name":"x"}`,
		`root-1 {"sessionUpdate":"subagent_spawned","subagentSessionId":"root-1","name":"self"}`,
		`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}`,
	))
	if u := unparsed(evs); len(u) != 1 || !strings.Contains(u[0], "without a subagentSessionId") {
		t.Errorf("agent.unparsed %q", u)
	}
	if got := itemTree(evs); !slices.Equal(got, []string{`status "sub_agent_started" under -1`, `message "ok" under -1`}) {
		t.Errorf("items %q", got)
	}
}

// TestSubagentUnderTaskCall: a sub-agent announced as spawned by a task
// call of the session (_meta.parentToolCallId) has its items under that
// call, as an unannounced sub-agent session's.
func TestSubagentUnderTaskCall(t *testing.T) {
	evs := translateChecked(t, subagentSession(
		`root-1 {"sessionUpdate":"tool_call","toolCallId":"toolu_1","title":"Task","kind":"think","status":"pending","rawInput":{"subagent_type":"explore","prompt":"Find tests"}}`,
		`root-1 {"sessionUpdate":"subagent_spawned","subagentSessionId":"child-1","name":"explore","_meta":{"parentToolCallId":"toolu_1"}}`,
		`child-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Found 3."}}`,
		`root-1 {"sessionUpdate":"subagent_state_update","subagentSessionId":"child-1","state":"completed"}`,
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"3 tests"}}]}`,
	))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{
		`message "" under -1`,
		`status "sub_agent_started" under 4`, // the call's item completes last
		`message "Found 3." under 4`,
		`status "sub_agent_completed" under 4`,
		`tool_call "Task" under 0`,
		`tool_result "3 tests" under 0`,
	}
	got := itemTree(evs)
	if !slices.Equal(got, want) {
		t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSubagentAfterItsTurn: a sub-agent announced under a named call and
// left running in the background (the call completes, the turn ends)
// still speaks in a conversation of its own after the turn: under its
// sub_agent_started item, as one announced without a call, never as the
// session's own message.
func TestSubagentAfterItsTurn(t *testing.T) {
	in := subagentSession(
		`root-1 {"sessionUpdate":"tool_call","toolCallId":"toolu_1","title":"Task","kind":"think","status":"pending","rawInput":{"subagent_type":"explore","prompt":"Find tests","run_in_background":true}}`,
		`root-1 {"sessionUpdate":"subagent_spawned","subagentSessionId":"child-1","name":"explore","_meta":{"parentToolCallId":"toolu_1"}}`,
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"toolu_1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"started in background"}}]}`,
	) + `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"child-1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Found 3 late."}}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"root-1","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"child-1","state":"completed"}}}` + "\n"
	evs := translateChecked(t, in)
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	got := itemTree(evs)
	started := slices.IndexFunc(got, func(s string) bool { return strings.HasPrefix(s, `status "sub_agent_started"`) })
	late := slices.IndexFunc(got, func(s string) bool { return strings.HasPrefix(s, `message "Found 3 late."`) })
	if started < 0 || late < 0 || got[late] != fmt.Sprintf(`message "Found 3 late." under %d`, started) {
		t.Errorf("items\n%s\nwant the late message under the sub_agent_started item", strings.Join(got, "\n"))
	}
}
