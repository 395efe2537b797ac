package acp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
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

// TestToolResultWhyNotRun: claude-agent-acp 0.101.0's final update of a
// call whose result is the harness's words, not the tool's output
// (dist/tool-calls/renderer.js result: _meta.claudeCode {toolName,
// nonExecutionKind, userFeedback} from Claude Code's tool_result_meta, see
// dist/tool-result-meta.js), and, to an ACP v2 client, the v2
// ToolCallStatus "cancelled" (renderer.js resultStatus, V2_CANCELLED) of
// an interrupted command, whose output came before it as
// _meta.terminal_output and whose exit as _meta.terminal_exit with a null
// exit code (@agentclientprotocol/sdk 2.4.0 schema/v2 ToolCallStatus:
// "The tool call was cancelled before it completed"). Before, the kind was
// dropped (the claude translator keeps it as non_execution_kind), and a
// cancelled call stayed open until the turn's end, then closed without
// its result: the command's output was lost.
func TestToolResultWhyNotRun(t *testing.T) {
	v1 := func(lines ...string) string {
		out := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp","title":"Claude Agent","version":"0.101.0"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n"
		for _, l := range lines {
			out += `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + l + `}}` + "\n"
		}
		return out + `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}` + "\n"
	}
	v2 := func(lines ...string) string {
		out := `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"@agentclientprotocol/claude-agent-acp","version":"0.101.0"},"protocolVersion":2}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n"
		for _, l := range lines {
			out += `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + l + `}}` + "\n"
		}
		return out + `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"cancelled"}}}` + "\n"
	}
	tests := []struct {
		name, input, output, kind string
		cancelled                 bool
	}{{
		name: "user-rejected",
		input: v1(
			`{"sessionUpdate":"tool_call","toolCallId":"toolu_01","title":"rm -rf build","kind":"execute","status":"pending","rawInput":{"command":"rm -rf build"},"_meta":{"claudeCode":{"toolName":"Bash"}}}`,
			`{"_meta":{"claudeCode":{"toolName":"Bash","nonExecutionKind":"user-rejected","userFeedback":"use make clean"}},"toolCallId":"toolu_01","sessionUpdate":"tool_call_update","status":"failed","content":[{"type":"content","content":{"type":"text","text":"The user doesn't want to proceed with this tool use."}}]}`,
		),
		output: "The user doesn't want to proceed with this tool use.",
		kind:   "user-rejected",
	}, {
		name: "v2 cancelled",
		input: v2(
			`{"sessionUpdate":"user_message","messageId":"m1","content":[{"type":"text","text":"build"}]}`,
			`{"sessionUpdate":"tool_call","toolCallId":"toolu_02","name":"Bash","title":"make","kind":"execute","status":"in_progress","rawInput":{"command":"make"},"content":[{"type":"terminal","terminalId":"toolu_02"}],"_meta":{"claudeCode":{"toolName":"Bash"},"terminal_info":{"terminal_id":"toolu_02"}}}`,
			`{"_meta":{"terminal_output":{"terminal_id":"toolu_02","data":"cc -c a.c\n"}},"toolCallId":"toolu_02","sessionUpdate":"tool_call_update"}`,
			`{"_meta":{"claudeCode":{"toolName":"Bash","nonExecutionKind":"interrupted"},"terminal_exit":{"terminal_id":"toolu_02","exit_code":null,"signal":null}},"toolCallId":"toolu_02","sessionUpdate":"tool_call_update","status":"cancelled"}`,
		),
		output:    "cc -c a.c\n",
		kind:      "interrupted",
		cancelled: true,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateChecked(t, tc.input)
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			var results []universal.Item
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
					results = append(results, it)
				}
			}
			if len(results) != 1 {
				t.Fatalf("%d results, want 1", len(results))
			}
			r := results[0]
			p := r.Content[0]
			if p.Output != tc.output || !p.IsError || r.Status != universal.StatusFailed {
				t.Errorf("result %q is_error %v status %s, want %q failed", p.Output, p.IsError, r.Status, tc.output)
			}
			if k := md(r, "non_execution_kind").Str; k != tc.kind {
				t.Errorf("non_execution_kind %q, want %q (metadata %s)", k, tc.kind, p.Metadata)
			}
			if c := md(r, "cancelled").Bool(); c != tc.cancelled {
				t.Errorf("cancelled %v, want %v", c, tc.cancelled)
			}
		})
	}
}

// TestAuthStatusUpdateIgnored: the unstable auth/status_update
// notification of @agentclientprotocol/sdk 2.4.0's schema
// (AuthStatusUpdateNotification {state, accounts [{label, active, name,
// email, organization}]}, the agent's sign-in state) carries nothing of
// the transcript: ignored, as authenticate and logout are. It was
// agent.unparsed.
func TestAuthStatusUpdateIgnored(t *testing.T) {
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"auth":{"status":{}}},"agentInfo":{"name":"a","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"auth/status_update","params":{"state":"authenticated","accounts":[{"label":"Work","active":true,"email":"dev@example.com"}]}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`+"\n")
	if u := unparsed(evs); len(u) != 0 {
		t.Errorf("agent.unparsed %q", u)
	}
}

// TestNewestHostMethods: the host's requests that the schemas of
// @agentclientprotocol/sdk 2.4.0 add (v1 unstable: auth/status,
// session/archive, session/unarchive, session/status, session/set_title;
// v2: auth/login, auth/logout, tool_call/cancel, terminal/cancel) were
// agent.unparsed in an exchange, and in a log of both sides without
// directions taken for the agent's. They carry nothing for the transcript
// but set_title (SetSessionTitleRequest {sessionId, title}): the title the
// agent accepted is the session's, as a session_info_update's (a status
// item labelled title once the session started; a later update of the
// same title adds nothing).
func TestNewestHostMethods(t *testing.T) {
	in := func(m string) string { return `{"dir":"in","msg":` + m + "}\n" }
	out := func(m string) string { return `{"dir":"out","msg":` + m + "}\n" }
	exchange := in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`) +
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}`) +
		in(`{"jsonrpc":"2.0","id":2,"method":"auth/status","params":{}}`) +
		out(`{"jsonrpc":"2.0","id":2,"result":{"state":"authenticated"}}`) +
		in(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`) +
		out(`{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s1"}}`) +
		in(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`) +
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello."}}}}`) +
		out(`{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}`) +
		in(`{"jsonrpc":"2.0","id":5,"method":"session/set_title","params":{"sessionId":"s1","title":"Greeting"}}`) +
		out(`{"jsonrpc":"2.0","id":5,"result":{}}`) +
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"session_info_update","title":"Greeting"}}}`) +
		in(`{"jsonrpc":"2.0","id":6,"method":"session/status","params":{"sessionId":"s1"}}`) +
		out(`{"jsonrpc":"2.0","id":6,"result":{"status":"open"}}`) +
		in(`{"jsonrpc":"2.0","id":7,"method":"session/archive","params":{"sessionId":"s1"}}`) +
		out(`{"jsonrpc":"2.0","id":7,"result":{}}`) +
		in(`{"jsonrpc":"2.0","id":8,"method":"tool_call/cancel","params":{"sessionId":"s1","toolCallId":"c1"}}`) +
		out(`{"jsonrpc":"2.0","id":8,"result":{}}`)
	var undirected strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(exchange), "\n") {
		m := l[strings.Index(l, `"msg":`)+len(`"msg":`) : len(l)-1]
		undirected.WriteString(m + "\n")
	}
	for format, input := range map[string]string{acp.FormatExchange: exchange, acp.FormatAgent: undirected.String()} {
		evs := translate(t, format, input)
		if u := unparsed(evs); len(u) != 0 {
			t.Errorf("%s: agent.unparsed %q", format, u)
		}
		_, titles := statusItems(evs, universal.LabelTitle)
		if len(titles) != 1 || titles[0].Content[0].Detail != "Greeting" {
			t.Errorf("%s: title items %+v, want one, Greeting", format, titles)
		}
	}
}

// TestV2IdleError: ACP v2's state_update idle with stopReason "error"
// and the schema's ErrorStopReason {error: a JSON-RPC error}
// (@agentclientprotocol/sdk 2.4.0 schema/v2), as claude-agent-acp 0.101.0
// sends it for a failed turn ("idle with the error stop reason and the
// JSON-RPC error that v1 answers the prompt with", dist/v2/prompt.js
// v2Foreground.failed). It ended the turn completed and the error was lost;
// it is read as v1's error response: an error event (the API's message
// unwrapped) and turn.ended error.
func TestV2IdleError(t *testing.T) {
	u := func(s string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}` + "\n"
	}
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"@agentclientprotocol/claude-agent-acp","version":"0.101.0"},"protocolVersion":2}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"result":{"messageId":"m1"}}`+"\n"+
		u(`{"sessionUpdate":"user_message","messageId":"m1","content":[{"type":"text","text":"hi"}]}`)+
		u(`{"sessionUpdate":"state_update","state":"running"}`)+
		u(`{"sessionUpdate":"state_update","state":"idle","stopReason":"error","error":{"code":-32603,"message":"Internal error: API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"}}`))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1", len(errs))
	}
	if d := errs[0].Data.(*universal.Error); d.Message != "Overloaded" || d.Code != "-32603" {
		t.Errorf("error %q code %q, want Overloaded -32603", d.Message, d.Code)
	}
	ended := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn.ended %+v, want one, error", ended)
	}
}
