package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// update is a session/update of session sid on the agent's side.
func update(sid, u string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":` + u + `}}`
}

const agentSetup = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n"

// TestLoadedSessionIsNotSubAgent: on the agent's side alone, a session
// the host loads after opening another (the load's response names no
// session) replays its history: it is the session's own, not a
// sub-agent's under one of its own calls. Its first update comes while
// no call runs, and that decides.
func TestLoadedSessionIsNotSubAgent(t *testing.T) {
	evs := translate(t, acp.FormatAgent, agentSetup+strings.Join([]string{
		update("s0", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"old prompt"}}`),
		update("s0", `{"sessionUpdate":"tool_call","toolCallId":"c1","title":"ls","status":"pending","rawInput":{}}`),
		update("s0", `{"sessionUpdate":"tool_call","toolCallId":"c2","title":"cat","kind":"read","status":"pending","rawInput":{}}`),
		update("s0", `{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`),
		update("s0", `{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed"}`),
		update("s0", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"old answer"}}`),
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
	}, "\n")+"\n")
	calls := map[string]string{}
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindToolCall {
			calls[it.Content[0].CallID] = it.ItemID
			if it.Content[0].ToolKind == universal.ToolTask {
				t.Errorf("call %s became a task", it.Content[0].CallID)
			}
		}
	}
	for _, it := range golden.NewTranscript(evs).Items {
		for c, id := range calls {
			if it.ParentID == id && it.Kind != universal.KindToolResult {
				t.Errorf("%s %s is under call %s", it.Kind, it.ItemID, c)
			}
		}
	}
}

// TestSubAgentUnderSpawner: a sub-agent's session goes under the running
// call that spawns it, not the latest call: a read started after the
// spawning call keeps its kind and holds nothing.
func TestSubAgentUnderSpawner(t *testing.T) {
	evs := translate(t, acp.FormatAgent, agentSetup+strings.Join([]string{
		update("s1", `{"sessionUpdate":"tool_call","toolCallId":"A","title":"Spawning agent crew","rawInput":{"stages":[]}}`),
		update("s1", `{"sessionUpdate":"tool_call","toolCallId":"B","title":"Reading notes.md","kind":"read","rawInput":{"path":"notes.md"}}`),
		update("sub", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"sub-agent says hi"}}`),
		update("s1", `{"sessionUpdate":"tool_call_update","toolCallId":"B","status":"completed","rawOutput":{"items":[{"Text":"3 lines"}]}}`),
		update("s1", `{"sessionUpdate":"tool_call_update","toolCallId":"A","status":"completed"}`),
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n")+"\n")
	items := golden.NewTranscript(evs).Items
	ids := map[string]*universal.Item{}
	for i := range items {
		if it := &items[i]; it.Kind == universal.KindToolCall {
			ids[it.Content[0].CallID] = it
		}
	}
	if a, b := ids["A"], ids["B"]; a == nil || b == nil {
		t.Fatalf("calls %v", ids)
	} else {
		if b.Content[0].ToolKind != universal.ToolRead || a.Content[0].ToolKind != universal.ToolTask {
			t.Errorf("kinds: A %s, B %s; want task and read", a.Content[0].ToolKind, b.Content[0].ToolKind)
		}
		for _, it := range items {
			if golden.TextOf(&it) == "sub-agent says hi" && it.ParentID != a.ItemID {
				t.Errorf("the sub-agent's message is under %q, want A's %q", it.ParentID, a.ItemID)
			}
		}
	}
}
