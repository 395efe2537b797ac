package acp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRFDSubagentSessions: the sub-agents of
// @agentclientprotocol/claude-agent-acp 0.101.0 for a client declaring
// clientCapabilities.subagents (the "rfd" form of dist/native-subagents.js,
// the shapes of the unstable v1 schema of @agentclientprotocol/sdk 2.4.0:
// SubagentUpdate {sessionId, title, description, capabilities, state:
// StateUpdate, cwd} and SessionMessage {messageId, senderSessionId,
// recipientSessionId, senderMessageId, recipientMessageId, content}).
// The adapter hides the Agent call: announceNativeSubagent sends
// subagent_update with state running, linkedSessionMessages the prompt as
// the parent's outgoing view and the child's incoming one, rfdEndState
// idle with a stopReason, launchReply the child's answer as the parent's
// incoming view ("<toolUseId>:reply"). Before, every subagent_update and
// session_message was agent.unparsed ("without a subagentSessionId",
// unknown kind): the prompt and the reply were lost, and the child's
// updates, its session never announced, went into the session's own
// response.
func TestRFDSubagentSessions(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
		check func(t *testing.T, evs []universal.Event)
	}{{
		name: "completed",
		lines: []string{
			`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Delegating."}}`,
			`root-1 {"sessionUpdate":"subagent_update","sessionId":"child-1","title":"Find the tests","description":"Explore","capabilities":{"cancel":{}},"state":{"state":"running"}}`,
			`root-1 {"sessionUpdate":"session_message","messageId":"toolu_01","senderSessionId":"root-1","recipientSessionId":"child-1","content":[{"type":"text","text":"List the test files."}],"recipientMessageId":"toolu_01"}`,
			`child-1 {"sessionUpdate":"session_message","messageId":"toolu_01","senderSessionId":"root-1","recipientSessionId":"child-1","content":[{"type":"text","text":"List the test files."}],"senderMessageId":"toolu_01"}`,
			`child-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a_test.go"}}`,
			`root-1 {"sessionUpdate":"subagent_update","sessionId":"child-1","cwd":"/work/repo"}`,
			`root-1 {"sessionUpdate":"subagent_update","sessionId":"child-1","state":{"state":"idle","stopReason":"end_turn"}}`,
			`root-1 {"sessionUpdate":"session_message","messageId":"toolu_01:reply","senderSessionId":"child-1","recipientSessionId":"root-1","content":[{"type":"text","text":"a_test.go"}]}`,
			`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"One test file."}}`,
		},
		want: []string{
			`message "Delegating." under -1`,
			`status "sub_agent_started" under -1`,
			`message "List the test files." under -1`, // the parent's outgoing view
			`message "List the test files." under 1`,  // the child's prompt
			`status "sub_agent_updated" under -1`,
			`message "a_test.go" under 1`, // completed by idle
			`status "sub_agent_idle" under -1`,
			`message "a_test.go" under -1`, // the reply, the parent's incoming view
			`message "One test file." under -1`,
		},
		check: func(t *testing.T, evs []universal.Event) {
			var roles []universal.Role
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindMessage {
					roles = append(roles, it.Role)
				}
			}
			want := []universal.Role{universal.RoleAssistant, universal.RoleAssistant, universal.RoleUser, universal.RoleAssistant, universal.RoleUser, universal.RoleAssistant}
			if !slices.Equal(roles, want) {
				t.Errorf("roles %v, want %v", roles, want)
			}
			_, started := statusItems(evs, "sub_agent_started")
			if len(started) != 1 || started[0].Content[0].Detail != "Find the tests" || md(started[0], "subagent_session_id").Str != "child-1" ||
				md(started[0], "description").Str != "Explore" || md(started[0], "state.state").Str != "running" {
				t.Errorf("sub_agent_started %+v", started)
			}
			_, upd := statusItems(evs, "sub_agent_updated")
			if len(upd) != 1 || md(upd[0], "cwd").Str != "/work/repo" {
				t.Errorf("sub_agent_updated %+v", upd)
			}
			_, idle := statusItems(evs, "sub_agent_idle")
			if len(idle) != 1 || md(idle[0], "state.stopReason").Str != "end_turn" {
				t.Errorf("sub_agent_idle %+v", idle)
			}
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.NativeItemID == "toolu_01:reply" {
					if md(it, "session_message.sender_session_id").Str != "child-1" || md(it, "session_message.message_id").Str != "toolu_01:reply" {
						t.Errorf("reply metadata %s", it.Content[0].Metadata)
					}
				}
			}
		},
	}, {
		name: "failed",
		lines: []string{
			`root-1 {"sessionUpdate":"subagent_update","sessionId":"child-2","title":"Fix","capabilities":{"cancel":{}},"state":{"state":"running"}}`,
			`child-2 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Trying."}}`,
			`root-1 {"sessionUpdate":"subagent_update","sessionId":"child-2","state":{"state":"requires_action"}}`,
			`root-1 {"sessionUpdate":"subagent_update","sessionId":"child-2","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":"API Error: 529 overloaded"}}}`,
		},
		want: []string{
			`status "sub_agent_started" under -1`,
			`status "sub_agent_requires_action" under -1`,
			`message "Trying." under 0`,
			`status "sub_agent_idle" under -1`,
		},
		check: func(t *testing.T, evs []universal.Event) {
			_, idle := statusItems(evs, "sub_agent_idle")
			if len(idle) != 1 || idle[0].Content[0].Detail != "API Error: 529 overloaded" || md(idle[0], "state.error.code").Int() != -32603 {
				t.Errorf("sub_agent_idle %+v", idle)
			}
			if e := golden.OfType(evs, universal.TypeError); len(e) != 0 {
				t.Errorf("a sub-agent's failure is no error of the session: %+v", e)
			}
		},
	}, {
		name: "reference patch",
		lines: []string{
			`root-1 {"sessionUpdate":"session_message","messageId":"m1","recipientMessageId":"m9"}`,
			`root-1 {"sessionUpdate":"session_message","content":[{"type":"text","text":"x"}]}`,
		},
		want: []string{`status "session_message" under -1`},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateChecked(t, subagentSession(tc.lines...))
			u := unparsed(evs)
			if tc.name == "reference patch" {
				if len(u) != 1 {
					t.Errorf("agent.unparsed %q, want one (no messageId)", u)
				}
			} else if len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			if got := itemTree(evs); !slices.Equal(got, tc.want) {
				t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.check != nil {
				tc.check(t, evs)
			}
		})
	}
}
