package acp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// claudeSession is claude-agent-acp 0.101.0's stdout for one prompt whose
// session updates are the lines given (JSON objects of the update); with
// name "", no initialize response (the agent's side from session/new on).
func claudeSession(name string, updates ...string) string {
	var b strings.Builder
	if name != "" {
		b.WriteString(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"` + name + `","title":"Claude Agent","version":"0.101.0"}}}` + "\n")
	}
	b.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n")
	for _, u := range updates {
		b.WriteString(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}` + "\n")
	}
	b.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}` + "\n")
	return b.String()
}

// partsText returns the text of an item's parts, joined.
func partsText(it universal.Item) string {
	var s strings.Builder
	for _, p := range it.Content {
		s.WriteString(p.Text)
	}
	return s.String()
}

// messageTexts returns the text of the completed message items.
func messageTexts(evs []universal.Event) []string {
	var out []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindMessage {
			continue
		}
		out = append(out, partsText(it))
	}
	return out
}

// TestTranscriptNotices: claude-agent-acp 0.101.0 sends its own notices to
// a client without clientCapabilities.session.notices as agent text
// marked with _meta.claudeCode.kind (dist/session-notices.js
// noticeOrTranscriptUpdate; dist/acp-agent.js: kind "informational"
// {level} for the SDK's informational message, such as why a hook
// blocked the turn, in the bold-label form for levels but info, and
// "mcpServerStatus" {server, status} for an MCP server that failed or
// needs authentication). They were read as the model's reply, glued to
// its text; each is a status item labelled notice, as the notice update
// it stands for is, and the model's text stays its own.
func TestTranscriptNotices(t *testing.T) {
	evs := translateChecked(t, claudeSession("@agentclientprotocol/claude-agent-acp",
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"**MCP server \"docs\" failed:** Its tools are unavailable."},"_meta":{"claudeCode":{"kind":"mcpServerStatus","server":"docs","status":"failed"}}}`,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Working on it."},"messageId":"msg_01"}`,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"**Warning:** Stop hook blocked continuation: tests fail"},"_meta":{"claudeCode":{"kind":"informational","level":"warning"}}}`,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":" Done."},"messageId":"msg_01"}`,
	))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	if got, want := messageTexts(evs), []string{"Working on it. Done."}; !slices.Equal(got, want) {
		t.Errorf("messages %q, want %q", got, want)
	}
	_, notices := statusItems(evs, "notice")
	if len(notices) != 2 {
		t.Fatalf("%d notices, want 2", len(notices))
	}
	if n := notices[0]; n.Content[0].Detail != `**MCP server "docs" failed:** Its tools are unavailable.` ||
		md(n, "kind").Str != "mcpServerStatus" || md(n, "server").Str != "docs" || md(n, "status").Str != "failed" {
		t.Errorf("MCP notice %q %s", n.Content[0].Detail, n.Content[0].Metadata)
	}
	if n := notices[1]; n.Content[0].Detail != "**Warning:** Stop hook blocked continuation: tests fail" ||
		md(n, "kind").Str != "informational" || md(n, "level").Str != "warning" {
		t.Errorf("informational notice %q %s", n.Content[0].Detail, n.Content[0].Metadata)
	}
}

// TestClaudeTerminalOutputReplaces: claude-agent-acp's
// _meta.terminal_output is the terminal's whole output, which replaces
// what it showed ("The client appends _meta.terminal_output_delta instead
// of terminal_output chunks", 0.101.0 dist/tool-calls/client-capabilities.js;
// a background command's output file, read after the Bash result gave the
// terminal its placeholder, comes first as terminal_output, "the first
// output replaces the placeholder", then as terminal_output_delta:
// dist/background-work.js, dist/background-output.js). Read as chunks,
// the placeholder and the output were glued and the output appeared
// twice. Zed's codex-acp sends each chunk of a command's output as
// terminal_output (src/thread.rs exec_command_output_delta): appended, as
// before (TestTerminalOutputChunks). Without the initialize response, the
// adapter is known by the claudeCode namespace of its _meta.
func TestClaudeTerminalOutputReplaces(t *testing.T) {
	updates := []string{
		`{"sessionUpdate":"tool_call","toolCallId":"toolu_01","title":"npm run dev","kind":"execute","status":"in_progress","rawInput":{"command":"npm run dev","run_in_background":true},"content":[{"type":"terminal","terminalId":"toolu_01"}],"_meta":{"claudeCode":{"toolName":"Bash"},"terminal_info":{"terminal_id":"toolu_01"}}}`,
		`{"_meta":{"terminal_output":{"terminal_id":"toolu_01","data":"Command running in background with ID: b1."}},"toolCallId":"toolu_01","sessionUpdate":"tool_call_update"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01","_meta":{"terminal_output":{"terminal_id":"toolu_01","data":"> dev\n"}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01","_meta":{"terminal_output_delta":{"terminal_id":"toolu_01","data":"ready on :3000\n"}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01","_meta":{"terminal_exit":{"terminal_id":"toolu_01","exit_code":null,"signal":null}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01","status":"completed"}`,
	}
	for _, name := range []string{"@agentclientprotocol/claude-agent-acp", "@zed-industries/claude-agent-acp", ""} {
		t.Run(name, func(t *testing.T) {
			evs := translateChecked(t, claudeSession(name, updates...))
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			if got := results(evs); !slices.Equal(got, []string{"> dev\nready on :3000\n|false|"}) {
				t.Errorf("results %q", got)
			}
		})
	}
	// Another agent's terminal_output chunks are appended, even when its
	// updates carry a claudeCode key.
	evs := translate(t, acp.FormatAgent, strings.Replace(claudeSession("codex-acp", updates...), "Claude Agent", "Codex", 1))
	if got := results(evs); !slices.Equal(got, []string{"Command running in background with ID: b1.> dev\nready on :3000\n|false|"}) {
		t.Errorf("codex-acp results %q", got)
	}
}

// TestAsyncTasks: claude-agent-acp 0.101.0's background tasks for a
// JetBrains AIR client declaring asyncTasks (dist/async-tasks.js
// AsyncTaskRuntime: async_task_spawned {asyncTaskId, name, taskType,
// description, showInTranscript, canStop, outputFilePath, toolCallId},
// async_task_progress {asyncTaskId, …changed fields},
// async_task_state_update {asyncTaskId, state, summary}). They were
// agent.unparsed (unknown session update): the task, its output file and
// how it ended were lost. Each is a status item, under the call that
// started the task while its turn runs.
func TestAsyncTasks(t *testing.T) {
	evs := translateChecked(t, claudeSession("@agentclientprotocol/claude-agent-acp",
		`{"sessionUpdate":"tool_call","toolCallId":"toolu_01","title":"npm run dev","kind":"execute","status":"in_progress","rawInput":{"command":"npm run dev","run_in_background":true},"_meta":{"claudeCode":{"toolName":"Bash"}}}`,
		`{"sessionUpdate":"async_task_spawned","asyncTaskId":"b1","name":"npm run dev","taskType":"local_bash","description":"Start the dev server","showInTranscript":true,"canStop":true,"toolCallId":"toolu_01"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01","status":"completed","rawOutput":"Command running in background with ID: b1."}`,
		`{"sessionUpdate":"async_task_progress","asyncTaskId":"b1","outputFilePath":"/tmp/b1.output"}`,
		`{"sessionUpdate":"async_task_state_update","asyncTaskId":"b1","state":"failed","summary":"exited with code 1"}`,
		`{"sessionUpdate":"async_task_state_update","asyncTaskId":"b1","state":"someday"}`,
		`{"sessionUpdate":"async_task_progress","outputFilePath":"/tmp/x"}`,
	))
	if u := unparsed(evs); len(u) != 1 || !strings.Contains(u[0], "without an asyncTaskId") {
		t.Errorf("agent.unparsed %q, want the update without an id", u)
	}
	want := []string{
		`message "" under -1`,
		`tool_call "Bash" under 0`,
		`status "task_started" under 1`,
		`tool_result "Command running in background with ID: b1." under 0`,
		`status "task_progress" under 1`,
		`status "task_failed" under 1`,
		`status "task_updated" under -1`, // after its end: the call is not remembered`,
	}
	got := itemTree(evs)
	if !slices.Equal(got, want) {
		t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, started := statusItems(evs, "task_started")
	if len(started) != 1 || started[0].Content[0].Detail != "Start the dev server" || md(started[0], "async_task_id").Str != "b1" ||
		md(started[0], "task_type").Str != "local_bash" || md(started[0], "tool_call_id").Str != "toolu_01" || !md(started[0], "can_stop").Bool() {
		t.Errorf("task_started %+v", started)
	}
	_, progress := statusItems(evs, "task_progress")
	if len(progress) != 1 || md(progress[0], "output_file_path").Str != "/tmp/b1.output" {
		t.Errorf("task_progress %+v", progress)
	}
	_, failed := statusItems(evs, "task_failed")
	if len(failed) != 1 || failed[0].Content[0].Detail != "exited with code 1" || md(failed[0], "state").Str != "failed" {
		t.Errorf("task_failed %+v", failed)
	}
}

// TestMcpMessageIgnored: MCP over ACP (the unstable mcp/message of
// @agentclientprotocol/sdk 2.4.0's schemas, v1 and v2: MessageMcpRequest
// {serverId, requestId, method, params}, MessageMcpResponse {result} or
// {error}, MessageMcpNotification) carries the inner MCP traffic of a
// server declared with transport "acp", either side its provider; the
// tool call the model makes through it is the agent's own tool_call
// update. Its requests, notifications and responses were agent.unparsed
// (unknown method, a response to a request never seen); they are ignored.
func TestMcpMessageIgnored(t *testing.T) {
	in := func(m string) string { return `{"dir":"in","msg":` + m + "}\n" }
	out := func(m string) string { return `{"dir":"out","msg":` + m + "}\n" }
	exchange := in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`) +
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}`) +
		in(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[{"type":"acp","name":"ide","id":"srv1"}]}}`) +
		out(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`) +
		in(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"open a.go"}]}}`) +
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"open_file","kind":"other","status":"in_progress","rawInput":{"path":"a.go"}}}}`) +
		out(`{"jsonrpc":"2.0","id":0,"method":"mcp/message","params":{"serverId":"srv1","requestId":7,"method":"tools/call","params":{"name":"open_file","arguments":{"path":"a.go"}}}}`) +
		in(`{"jsonrpc":"2.0","method":"mcp/message","params":{"serverId":"srv1","requestId":7,"method":"notifications/progress","params":{"progress":1}}}`) +
		in(`{"jsonrpc":"2.0","id":0,"result":{"result":{"content":[{"type":"text","text":"opened"}]}}}`) +
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"opened"}}]}}}`) +
		in(`{"jsonrpc":"2.0","id":9,"method":"mcp/message","params":{"serverId":"agent-srv","requestId":"r1","method":"tools/list"}}`) +
		out(`{"jsonrpc":"2.0","id":9,"result":{"result":{"tools":[]}}}`) +
		out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`)
	evs := translate(t, acp.FormatExchange, exchange)
	if u := unparsed(evs); len(u) != 0 {
		t.Errorf("agent.unparsed %q", u)
	}
	if got := results(evs); !slices.Equal(got, []string{"opened|false|"}) {
		t.Errorf("results %q", got)
	}
}

// TestMcpConnectIgnored: the agent opens an MCP-over-ACP connection to a
// server the host provides with mcp/connect {serverId} (answered
// {connectionId}) and closes it with mcp/disconnect {connectionId}: the
// schemas' clientMethods (schema/v1/meta.unstable.json and
// schema/v2/meta.unstable.json, ConnectMcpRequest, DisconnectMcpRequest).
// They were agent.unparsed ("unknown ACP method"); like mcp/message they
// carry nothing for the transcript.
func TestMcpConnectIgnored(t *testing.T) {
	in := func(m string) string { return `{"dir":"in","msg":` + m + "}\n" }
	out := func(m string) string { return `{"dir":"out","msg":` + m + "}\n" }
	exchange := in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`) +
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}`) +
		in(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[{"type":"acp","name":"ide","id":"srv1"}]}}`) +
		out(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`) +
		out(`{"jsonrpc":"2.0","id":0,"method":"mcp/connect","params":{"serverId":"srv1"}}`) +
		in(`{"jsonrpc":"2.0","id":0,"result":{"connectionId":"conn-1"}}`) +
		in(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`) +
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello"}}}}`) +
		out(`{"jsonrpc":"2.0","id":1,"method":"mcp/disconnect","params":{"connectionId":"conn-1"}}`) +
		in(`{"jsonrpc":"2.0","id":1,"result":{}}`) +
		out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`)
	for _, f := range []string{acp.FormatExchange, acp.FormatAgent} {
		src := exchange
		if f == acp.FormatAgent {
			// The agent's stdout alone.
			var b strings.Builder
			for _, l := range strings.SplitAfter(exchange, "\n") {
				if strings.HasPrefix(l, `{"dir":"out","msg":`) {
					b.WriteString(strings.TrimSuffix(strings.TrimPrefix(l, `{"dir":"out","msg":`), "}\n") + "\n")
				}
			}
			src = b.String()
		}
		evs := translate(t, f, src)
		if u := unparsed(evs); len(u) != 0 {
			t.Errorf("%s: agent.unparsed %q", f, u)
		}
	}
}

// TestSessionMessageChunks: the subagents RFD's session_message_chunk
// (@agentclientprotocol/sdk 2.4.0 schema/v1/schema.unstable.json and
// schema/v2/schema.unstable.json SessionMessageChunk {messageId, content}:
// "A streamed content block of an inter-session message. A chunk carries
// only content. The message's participants and references come from
// session_message upserts, which can arrive before, between, or after its
// chunks"; claude-agent-acp 0.101.0 passes it through to v2 clients,
// dist/v2/session-update.js). It was agent.unparsed: the streamed
// message was lost. The chunks of one messageId are one message item;
// its upserts give its role and references, and one with content
// replaces what streamed.
func TestSessionMessageChunks(t *testing.T) {
	type msg struct {
		text, native string
		role         universal.Role
		sender       string
	}
	tests := []struct {
		name     string
		lines    []string
		want     []msg
		unparsed int
	}{{
		name: "references first",
		lines: []string{
			`root-1 {"sessionUpdate":"session_message","messageId":"r1","senderSessionId":"child-1","recipientSessionId":"root-1"}`,
			`root-1 {"sessionUpdate":"session_message_chunk","messageId":"r1","content":{"type":"text","text":"Found "}}`,
			`root-1 {"sessionUpdate":"session_message_chunk","messageId":"r1","content":{"type":"text","text":"two files."}}`,
			`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Thanks."}}`,
		},
		want: []msg{{"Found two files.", "r1", universal.RoleUser, "child-1"}, {"Thanks.", "", universal.RoleAssistant, ""}},
	}, {
		name: "references after, content replaces",
		lines: []string{
			`root-1 {"sessionUpdate":"session_message_chunk","messageId":"p1","content":{"type":"text","text":"List the"}}`,
			`root-1 {"sessionUpdate":"session_message","messageId":"p1","senderSessionId":"root-1","recipientSessionId":"child-1","content":[{"type":"text","text":"List the tests."}]}`,
		},
		want: []msg{{"List the tests.", "p1", universal.RoleAssistant, "root-1"}},
	}, {
		name: "two messages, no references",
		lines: []string{
			`root-1 {"sessionUpdate":"session_message_chunk","messageId":"a","content":{"type":"text","text":"one"}}`,
			`root-1 {"sessionUpdate":"session_message","messageId":"a","senderMessageId":"x"}`,
			`root-1 {"sessionUpdate":"session_message_chunk","messageId":"a","content":{"type":"text","text":" more"}}`,
			`root-1 {"sessionUpdate":"session_message_chunk","messageId":"b","content":{"type":"text","text":"two"}}`,
			`root-1 {"sessionUpdate":"session_message_chunk","content":{"type":"text","text":"lost"}}`,
		},
		want:     []msg{{"one more", "a", universal.RoleUser, ""}, {"two", "b", universal.RoleUser, ""}},
		unparsed: 1,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateChecked(t, subagentSession(tc.lines...))
			if u := unparsed(evs); len(u) != tc.unparsed {
				t.Fatalf("agent.unparsed %q, want %d", u, tc.unparsed)
			}
			var got []msg
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.Kind != universal.KindMessage {
					continue
				}
				got = append(got, msg{partsText(it), it.NativeItemID, it.Role, md(it, "session_message.sender_session_id").Str})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("messages %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestCompactionToolCall: claude-agent-acp 0.101.0 reports a context
// compaction to a client without the compaction updates as a "Compact
// conversation" tool call (dist/tool-calls/reporters/compaction.js
// compactionToolCall: toolCallId the compaction's id, kind think, the
// facts {trigger, preTokens, postTokens, durationMs, error} in rawOutput
// and _meta.claudeCode.toolName "compact"; for JetBrains AIR the facts in
// _meta.jetbrains.air.contextCompaction). It was a tool call named
// compact whose output was the facts' JSON; it is the compaction, a
// status item labelled compaction as compaction_update makes (and as the
// claude translator makes of compact_boundary).
func TestCompactionToolCall(t *testing.T) {
	tests := []struct {
		name   string
		lines  []string
		status universal.ItemStatus
		detail string
		facts  string
	}{{
		name: "completed",
		lines: []string{
			`{"sessionUpdate":"tool_call","toolCallId":"cmp-1","title":"Compact conversation","kind":"think","status":"in_progress","_meta":{"claudeCode":{"toolName":"compact"}}}`,
			`{"sessionUpdate":"tool_call_update","toolCallId":"cmp-1","status":"completed","rawOutput":{"trigger":"manual","preTokens":150000,"postTokens":12000},"_meta":{"claudeCode":{"toolName":"compact"}}}`,
			`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Compacted."}}`,
		},
		status: universal.StatusCompleted,
		facts:  `{"trigger":"manual","preTokens":150000,"postTokens":12000}`,
	}, {
		name: "failed, AIR",
		lines: []string{
			`{"sessionUpdate":"tool_call","toolCallId":"cmp-2","title":"Compact conversation","kind":"think","status":"failed","content":[{"type":"content","content":{"type":"text","text":"Compaction failed: Not enough messages to compact."}}],"_meta":{"jetbrains":{"air":{"version":1,"contextCompaction":{"version":1,"trigger":"manual","error":"Not enough messages to compact."}}}}}`,
		},
		status: universal.StatusFailed,
		detail: "Not enough messages to compact.",
		facts:  `{"version":1,"trigger":"manual","error":"Not enough messages to compact."}`,
	}, {
		// @agentclientprotocol/codex-acp (ba5bcc3,
		// src/ContextCompactionMeta.ts and the test data
		// context-compaction-lifecycle.json) puts the facts in the
		// provider-neutral _meta.contextCompaction: it was a think
		// call named "Compact conversation" without output.
		name: "completed, codex-acp",
		lines: []string{
			`{"sessionUpdate":"tool_call","toolCallId":"cmp-4","kind":"think","title":"Compact conversation","status":"in_progress","_meta":{"contextCompaction":{"version":1}}}`,
			`{"sessionUpdate":"tool_call_update","toolCallId":"cmp-4","title":"Compact conversation","status":"completed","_meta":{"contextCompaction":{"version":1,"trigger":"automatic","preTokens":90000,"postTokens":8000}}}`,
		},
		status: universal.StatusCompleted,
		facts:  `{"version":1,"trigger":"automatic","preTokens":90000,"postTokens":8000}`,
	}, {
		name: "left in progress by a cancel",
		lines: []string{
			`{"sessionUpdate":"tool_call","toolCallId":"cmp-3","title":"Compact conversation","kind":"think","status":"in_progress","_meta":{"claudeCode":{"toolName":"compact"}}}`,
		},
		status: universal.StatusFailed,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateChecked(t, claudeSession("@agentclientprotocol/claude-agent-acp", tc.lines...))
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			if calls := callNames(evs); len(calls) != 0 {
				t.Errorf("calls %q, want none", calls)
			}
			_, done := statusItems(evs, universal.LabelCompaction)
			if len(done) != 1 {
				t.Fatalf("%d compactions, want 1", len(done))
			}
			c := done[0]
			if c.Status != tc.status || c.Content[0].Detail != tc.detail || md(c, "facts").Raw != tc.facts {
				t.Errorf("compaction %s %q facts %s, want %s %q %s", c.Status, c.Content[0].Detail, md(c, "facts").Raw, tc.status, tc.detail, tc.facts)
			}
		})
	}
}

// TestCodexV2Extensions: @agentclientprotocol/codex-acp 2.6.0 (the newest)
// sends its sub-agent and background-task updates to an ACP v2 client
// under "_"-prefixed tags (dist/index.js toV2SessionUpdate:
// subagent_spawned and subagent_state_update as _subagent_update
// {subagentSessionId, name, task, capabilities} / {subagentSessionId,
// state}; async_task_spawned and async_task_state_update as
// _async_task_spawned and _async_task_state_update, "same payload as v1
// under a `_`-prefixed tag"). They were agent.unparsed: the sub-agent's
// announcement and end, and the task, were lost. They are read as their
// v1 forms. Any other "_" update is, as ACP v2's SessionUpdate "other"
// says ("implementation-specific extensions … ignore it or display it
// generically"), a status item labelled extension_update, detail the
// kind, the update in its metadata.
func TestCodexV2Extensions(t *testing.T) {
	u := func(sid, s string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":` + s + `}}` + "\n"
	}
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"@agentclientprotocol/codex-acp","version":"2.6.0"},"protocolVersion":2}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"root"}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"root","prompt":[{"type":"text","text":"go"}]}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"result":{"messageId":"m0"}}`+"\n"+
		u("root", `{"sessionUpdate":"user_message","messageId":"m0","content":[{"type":"text","text":"go"}]}`)+
		u("root", `{"sessionUpdate":"_subagent_update","subagentSessionId":"kid","name":"explorer","task":"Find the tests","capabilities":{}}`)+
		u("kid", `{"sessionUpdate":"agent_message_chunk","messageId":"k1","content":{"type":"text","text":"a_test.go"}}`)+
		u("root", `{"sessionUpdate":"_subagent_update","subagentSessionId":"kid","state":"completed"}`)+
		u("root", `{"sessionUpdate":"tool_call_update","toolCallId":"call_1","title":"npm run dev","kind":"execute","status":"in_progress","rawInput":{"command":"npm run dev"}}`)+
		u("root", `{"sessionUpdate":"_async_task_spawned","asyncTaskId":"t1","name":"npm run dev","taskType":"shell","showInTranscript":false,"canStop":true,"toolCallId":"call_1"}`)+
		u("root", `{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed"}`)+
		u("root", `{"sessionUpdate":"_async_task_state_update","asyncTaskId":"t1","state":"stopped","toolCallId":"call_1"}`)+
		u("root", `{"sessionUpdate":"_example.com/ping","n":1}`)+
		u("root", `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	for label, detail := range map[string]string{
		"sub_agent_started": "explorer", "sub_agent_completed": "",
		"task_started": "npm run dev", "task_stopped": "", "extension_update": "_example.com/ping",
	} {
		if _, got := statusItems(evs, label); len(got) != 1 || got[0].Content[0].Detail != detail {
			t.Errorf("%s items %+v, want one, detail %q", label, got, detail)
		}
	}
	if _, ext := statusItems(evs, "extension_update"); len(ext) == 1 && md(ext[0], "update.n").Int() != 1 {
		t.Errorf("extension_update metadata %s", ext[0].Content[0].Metadata)
	}
	if got := messageTexts(evs); !slices.Contains(got, "a_test.go") {
		t.Errorf("messages %q, want the sub-agent's", got)
	}
}

// TestAutonomousTurnEnds: claude-agent-acp 0.101.0 streams a model cycle
// Claude Code starts on its own (a background task's end wakes the
// model) outside any prompt, and its result's usage_update carries the
// origin, _meta["_claude/origin"] {kind: "task-notification"}
// (dist/acp-agent.js: AUTONOMOUS_RESULT_ORIGINS; "a model cycle that
// Claude Code started on its own ends at its result, after its usage").
// The turn opened for its updates never ended until the next prompt,
// which ended it interrupted; it ends completed at that usage_update. A
// prompt of the host still waiting (a turn the adapter holds open for its
// sub-agents' followups) ends at its own response, as before.
func TestAutonomousTurnEnds(t *testing.T) {
	in := func(m string) string { return `{"dir":"in","msg":` + m + "}\n" }
	out := func(m string) string { return `{"dir":"out","msg":` + m + "}\n" }
	upd := func(u string) string {
		return out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`)
	}
	usage := upd(`{"sessionUpdate":"usage_update","used":100,"size":200000,"cost":{"amount":0.01,"currency":"USD"},"_meta":{"_claude/origin":{"kind":"task-notification"}}}`)
	head := in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`) +
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp","version":"0.101.0"}}}`) +
		in(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`) +
		out(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`) +
		in(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"run it in the background"}]}}`) +
		upd(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Started."}}`)
	tests := []struct {
		name, input string
		want        []universal.TurnStatus
	}{{
		name: "autonomous cycle",
		input: head + out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`) +
			upd(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The job finished."}}`) + usage +
			in(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"thanks"}]}}`) +
			out(`{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}`),
		want: []universal.TurnStatus{universal.TurnCompleted, universal.TurnCompleted, universal.TurnCompleted},
	}, {
		name: "held prompt",
		input: head + upd(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":" The job finished."}}`) + usage +
			out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`),
		want: []universal.TurnStatus{universal.TurnCompleted},
	}, {
		// @agentclientprotocol/codex-acp (ba5bcc3, docs/goal-extension.md):
		// a goal's autonomous cycle runs after the prompt that set it
		// completed, and the thread's status, session_info_update
		// _meta.codex.threadStatus, goes active, then idle. The cycle's
		// turn ended interrupted at the next prompt.
		name: "codex-acp goal cycle",
		input: head + out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`) +
			upd(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"active","activeFlags":[]}}}}`) +
			upd(`{"sessionUpdate":"agent_message_chunk","messageId":"m2","content":{"type":"text","text":"Working on the goal."}}`) +
			upd(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"idle"}}}}`) +
			in(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"thanks"}]}}`) +
			out(`{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}`),
		want: []universal.TurnStatus{universal.TurnCompleted, universal.TurnCompleted, universal.TurnCompleted},
	}, {
		name: "codex-acp idle while the prompt waits",
		input: head + upd(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"idle"}}}}`) +
			upd(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":" More."}}`) +
			out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`),
		want: []universal.TurnStatus{universal.TurnCompleted},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translate(t, acp.FormatExchange, tc.input)
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			var got []universal.TurnStatus
			for _, ev := range golden.OfType(evs, universal.TypeTurnEnded) {
				got = append(got, ev.Data.(*universal.TurnEnded).Status)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("turns ended %v, want %v", got, tc.want)
			}
		})
	}
}

// TestBlockPayloadLength: an audio block's data and an embedded
// resource's blob are not copied into the json part that keeps the block:
// data_length gives their size, as the Codex, Pi and Claude translators
// name it (the ACP translator wrote data_bytes and dropped a blob
// without a trace).
func TestBlockPayloadLength(t *testing.T) {
	evs := translateChecked(t, claudeSession("",
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}}`,
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"resource","resource":{"uri":"file:///w/a.bin","blob":"AAECAw==","mimeType":"application/octet-stream"}}}`))
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range ev.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartJSON {
				got = append(got, string(p.JSON))
			}
		}
	}
	want := []string{
		`{"type":"audio","data_length":8,"mimeType":"audio/wav"}`,
		`{"type":"resource","resource":{"uri":"file:///w/a.bin","data_length":8,"mimeType":"application/octet-stream"}}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("json parts %q, want %q", got, want)
	}
}

// TestNextEditSuggestionsIgnored: the unstable next edit suggestions
// (schema/v1/meta.unstable.json and schema/v2/meta.unstable.json
// agentMethods, the NES RFD's examples): the host's nes/start {workspaceUri}
// (answered with the sessionId of an NES session of its own), nes/suggest,
// nes/close, the nes/accept and nes/reject notifications and the
// document/didOpen, didChange, didClose, didSave and didFocus events. They
// were agent.unparsed ("unknown ACP method ... from the host"); they are the
// editor's inline edit predictions, not the conversation, and are ignored:
// the NES session's id is not the session's.
func TestNextEditSuggestionsIgnored(t *testing.T) {
	in := func(m string) string { return `{"dir":"in","msg":` + m + "}\n" }
	out := func(m string) string { return `{"dir":"out","msg":` + m + "}\n" }
	exchange := in(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"nes":{}}}}`) +
		out(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"nes":{"events":{"document":{}}}}}}`) +
		in(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`) +
		out(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`) +
		in(`{"jsonrpc":"2.0","id":2,"method":"nes/start","params":{"workspaceUri":"file:///w"}}`) +
		out(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"nes-1"}}`) +
		in(`{"jsonrpc":"2.0","method":"document/didOpen","params":{"sessionId":"nes-1","uri":"file:///w/a.go","languageId":"go","version":1,"text":"package a\n"}}`) +
		in(`{"jsonrpc":"2.0","method":"document/didChange","params":{"sessionId":"nes-1","uri":"file:///w/a.go","version":2,"contentChanges":[{"text":"package a\n\nfunc F() {}\n"}]}}`) +
		in(`{"jsonrpc":"2.0","method":"document/didFocus","params":{"sessionId":"nes-1","uri":"file:///w/a.go","version":2,"position":{"line":2,"character":0}}}`) +
		in(`{"jsonrpc":"2.0","id":3,"method":"nes/suggest","params":{"sessionId":"nes-1","uri":"file:///w/a.go","version":2,"position":{"line":2,"character":0},"triggerKind":"automatic"}}`) +
		out(`{"jsonrpc":"2.0","id":3,"result":{"suggestions":[{"id":"sugg_001","kind":"edit","uri":"file:///w/a.go","edits":[{"range":{"start":{"line":2,"character":0},"end":{"line":2,"character":0}},"newText":"// F.\n"}]}]}}`) +
		in(`{"jsonrpc":"2.0","method":"nes/accept","params":{"sessionId":"nes-1","id":"sugg_001"}}`) +
		in(`{"jsonrpc":"2.0","method":"nes/reject","params":{"sessionId":"nes-1","id":"sugg_002","reason":"rejected"}}`) +
		in(`{"jsonrpc":"2.0","method":"document/didSave","params":{"sessionId":"nes-1","uri":"file:///w/a.go"}}`) +
		in(`{"jsonrpc":"2.0","method":"document/didClose","params":{"sessionId":"nes-1","uri":"file:///w/a.go"}}`) +
		in(`{"jsonrpc":"2.0","id":4,"method":"nes/close","params":{"sessionId":"nes-1"}}`) +
		out(`{"jsonrpc":"2.0","id":4,"result":{}}`) +
		in(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`) +
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello"}}}}`) +
		out(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn"}}`)
	evs := translate(t, acp.FormatExchange, exchange)
	if u := unparsed(evs); len(u) != 0 {
		t.Errorf("agent.unparsed %q", u)
	}
	for _, e := range evs {
		if e.NativeSessionID != "s1" {
			t.Fatalf("%s: native session id %q, want s1", e.Type, e.NativeSessionID)
		}
	}
}

// TestCommandDescriptionNoOutput: Claude Code's adapter (claude-code-acp,
// October 2025; agentclientprotocol/claude-agent-acp issue #122 quotes
// its lines) shows a Bash call's description (rawInput.description) as the
// call's content and completes the call with no content of its own (its
// result for Bash is empty: the output went to the client's terminal, or
// there was none). The description was read as the command's output
// ("Show current git diff" for git diff); it is the call's description:
// the result has no output ACP carries (no_output). A command's real text
// output, and a text that is not the description, are output as before.
func TestCommandDescriptionNoOutput(t *testing.T) {
	in := func(m string) string { return `{"dir":"in","msg":` + m + "}\n" }
	out := func(m string) string { return `{"dir":"out","msg":` + m + "}\n" }
	up := func(u string) string {
		return out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`)
	}
	session := func(updates ...string) string {
		s := in(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`) +
			out(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`) +
			in(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`) +
			out(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`) +
			in(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"show the diff"}]}}`)
		for _, u := range updates {
			s += up(u)
		}
		return s + out(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
	}
	start := `{"content":[],"kind":"execute","rawInput":{},"sessionUpdate":"tool_call","status":"pending","title":"Terminal","toolCallId":"toolu_1"}`
	described := `{"content":[{"content":{"text":"Show current git diff","type":"text"},"type":"content"}],"kind":"execute","rawInput":{"command":"git diff","description":"Show current git diff"},"sessionUpdate":"tool_call","status":"pending","title":"` + "`git diff`" + `","toolCallId":"toolu_1"}`
	tests := []struct {
		name     string
		updates  []string
		want     string
		noOutput bool
	}{{
		name:     "description only",
		updates:  []string{start, described, `{"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"toolu_1"}`},
		want:     "|false|",
		noOutput: true,
	}, {
		name:    "output replaces it",
		updates: []string{start, described, `{"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"toolu_1","content":[{"type":"content","content":{"type":"text","text":"diff --git a/x b/x"}}]}`},
		want:    "diff --git a/x b/x|false|",
	}, {
		name: "other text is output",
		updates: []string{start,
			`{"content":[{"content":{"text":"On branch main","type":"text"},"type":"content"}],"kind":"execute","rawInput":{"command":"git status","description":"Show status"},"sessionUpdate":"tool_call","status":"pending","title":"git status","toolCallId":"toolu_1"}`,
			`{"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"toolu_1"}`},
		want: "On branch main|false|",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translate(t, acp.FormatExchange, session(tc.updates...))
			if u := unparsed(evs); len(u) != 0 {
				t.Errorf("agent.unparsed %q", u)
			}
			if got := results(evs); !slices.Equal(got, []string{tc.want}) {
				t.Errorf("results %q, want %q", got, tc.want)
			}
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
					if got := strings.Contains(string(it.Content[0].Metadata), `"no_output":true`); got != tc.noOutput {
						t.Errorf("no_output %v, want %v (%s)", got, tc.noOutput, it.Content[0].Metadata)
					}
				}
			}
		})
	}
}

// TestElicitationURLKeepsID: a URL elicitation (unstable v1 and v2
// schemas: ElicitationUrlMode {elicitationId, url}, message; the agent's
// elicitation/complete {elicitationId} says the user is done there) is a
// question whose metadata kept the url but not the elicitationId, which
// was lost: the completion could not be tied to its question. It is kept.
func TestElicitationURLKeepsID(t *testing.T) {
	in := func(m string) string { return `{"dir":"in","msg":` + m + "}\n" }
	out := func(m string) string { return `{"dir":"out","msg":` + m + "}\n" }
	exchange := in(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"url":{}}}}}`) +
		out(`{"jsonrpc":"2.0","id":"e0","method":"elicitation/create","params":{"requestId":0,"mode":"url","elicitationId":"el-0","url":"https://auth.example/login","message":"Sign in"}}`) +
		in(`{"jsonrpc":"2.0","id":"e0","result":{"action":"accept"}}`) +
		out(`{"jsonrpc":"2.0","method":"elicitation/complete","params":{"elicitationId":"el-0"}}`) +
		out(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
	evs := translate(t, acp.FormatExchange, exchange)
	if u := unparsed(evs); len(u) != 0 {
		t.Errorf("agent.unparsed %q", u)
	}
	qs := golden.OfType(evs, universal.TypeQuestionRequested)
	if len(qs) != 1 {
		t.Fatalf("%d questions", len(qs))
	}
	md := string(qs[0].Data.(*universal.Question).Metadata)
	if !strings.Contains(md, `"elicitationId":"el-0"`) || !strings.Contains(md, `"url":"https://auth.example/login"`) {
		t.Errorf("metadata %s", md)
	}
}
