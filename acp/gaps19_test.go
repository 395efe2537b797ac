package acp_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestMCPStartupNotice: @agentclientprotocol/codex-acp reports an MCP
// server that failed to start (or whose start was cancelled) as a failed
// tool_call {toolCallId "mcp_startup.<server>", kind other, title
// "mcp__<server>__startup", status failed, content the text "[codex-acp
// forwarded startup error] MCP server `<server>` failed to start: …"},
// after session/new or load and before any prompt or during one
// (agentclientprotocol/codex-acp at ba5bcc3, src/CodexEventHandler.ts,
// createMcpStartupUpdates; its tests "forwards failed MCP startup as failed
// tool call updates after new session"). No model made that call: it is
// a notice of the session's setup. It was a failed tool call (and, before
// a prompt, a turn of its own); it is a status item labelled notice.
func TestMCPStartupNotice(t *testing.T) {
	startup := func(server, text string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"mcp_startup.` + server + `","kind":"other","title":"mcp__` + server + `__startup","status":"failed","content":[{"type":"content","content":{"type":"text","text":"` + text + `"}}]}}}`
	}
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"codex-acp","version":"2.6.0"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		startup("broken-mcp", "[codex-acp forwarded startup error] MCP server `broken-mcp` failed to start: connection refused"),
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi."}}}}`,
		startup("slow", "[codex-acp forwarded startup error] MCP server `slow` startup was cancelled."),
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n")+"\n")
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	if calls := callsOf(evs); len(calls) != 0 {
		t.Errorf("calls %q, want none", calls)
	}
	_, done := statusItems(evs, "notice")
	var got []string
	for _, it := range done {
		got = append(got, md(it, "mcp_server").Str+": "+it.Content[0].Detail)
	}
	want := []string{
		"broken-mcp: [codex-acp forwarded startup error] MCP server `broken-mcp` failed to start: connection refused",
		"slow: [codex-acp forwarded startup error] MCP server `slow` startup was cancelled.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("notices %q, want %q", got, want)
	}
	// A call of that name the model made is a call.
	evs = translateChecked(t, unstableSession(
		`{"sessionUpdate":"tool_call","toolCallId":"call_1","kind":"other","title":"mcp__srv__startup","status":"failed"}`,
	)+endTurn)
	if calls := callsOf(evs); len(calls) != 1 {
		t.Errorf("calls %q, want the call", calls)
	}
}

// results returns each completed tool_result as "output|is_error|exit_code".
func results(evs []universal.Event) []string {
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
			p := it.Content[0]
			got = append(got, fmt.Sprintf("%s|%v|%s", p.Output, p.IsError, gjson.GetBytes(p.Metadata, "exit_code").Raw))
		}
	}
	return got
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// TestAgentOwnedTerminal: ACP v2's agent-owned terminals (RFD "v2
// Terminal Output", agentclientprotocol/agent-client-protocol at b7f0005,
// docs/rfds/v2/terminal-output.mdx; the updates CodeBuddy's notes list
// as non-standard): a tool call shows a terminal by its content {type:
// terminal, terminalId}; terminal_update {terminalId, command, cwd,
// output: {data}, exitStatus: {exitCode, signal}} upserts it (output a
// replacement snapshot) and terminal_output_chunk {terminalId, data}
// appends bytes (base64; a chunk may split a character); updates and the
// reference come in either order. Both updates were agent.unparsed and
// the command's output and exit code lost; they are the call's output
// and exit code, as a client-owned terminal's are.
func TestAgentOwnedTerminal(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		// Referenced first, streamed, a character split across chunks.
		`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"make","kind":"execute","status":"in_progress","content":[{"type":"terminal","terminalId":"t1"}]}`,
		`{"sessionUpdate":"terminal_update","terminalId":"t1","command":"make","cwd":"/w"}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"`+b64("building\nh\xc3")+`"}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"`+b64("\xa9\n")+`"}`,
		`{"sessionUpdate":"terminal_update","terminalId":"t1","exitStatus":{"exitCode":2,"signal":null}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`,
		// Updates first: the snapshot waits for the call that names it.
		`{"sessionUpdate":"terminal_update","terminalId":"t2","command":"ls","output":{"data":"`+b64("a\n")+`"}}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"t2","data":"`+b64("b\n")+`"}`,
		`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"Run","kind":"execute","status":"in_progress","content":[{"type":"terminal","terminalId":"t2"}]}`,
		`{"sessionUpdate":"terminal_update","terminalId":"t2","output":{"data":"`+b64("a\nb\nc\n")+`"},"exitStatus":{"exitCode":0}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed"}`,
		// A running execute call without a terminal gets one no call names.
		`{"sessionUpdate":"tool_call","toolCallId":"c3","title":"Run pwd","kind":"execute","status":"in_progress","rawInput":{"command":"pwd"}}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"t3","data":"`+b64("/w\n")+`"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c3","status":"completed"}`,
		// No call claims this one.
		`{"sessionUpdate":"terminal_update","terminalId":"t4","command":"sleep 1","exitStatus":{"signal":"SIGTERM"}}`,
		// CodeBuddy's end of the turn.
		`{"sessionUpdate":"session_end","stopReason":"end_turn"}`,
	)+endTurn)
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{"building\nhé\n|true|2", "a\nb\nc\n|false|0", "/w\n|false|"}
	if got := results(evs); !slices.Equal(got, want) {
		t.Errorf("results %q, want %q", got, want)
	}
	if got := callsOf(evs); !slices.Equal(got, []string{"make execute", "Run execute", "Run pwd execute"}) {
		t.Errorf("calls %q", got)
	}
	_, done := statusItems(evs, "terminal")
	if len(done) != 1 || done[0].Content[0].Detail != "sleep 1" || md(done[0], "signal").Str != "SIGTERM" {
		t.Errorf("unclaimed terminal: %+v", done)
	}
	// Malformed updates are reported.
	evs = translateChecked(t, unstableSession(
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"%%%"}`,
		`{"sessionUpdate":"terminal_update","command":"x"}`,
	)+endTurn)
	if u := unparsed(evs); len(u) != 2 {
		t.Errorf("agent.unparsed %q, want 2", u)
	}
}

// TestGrokBackgroundTasks: Grok Build (1.0.x) ends a background task with
// _x.ai/task_completed {update: {sessionUpdate: task_completed,
// task_snapshot {task_id, command, output, exit_code, signal, kind, …},
// will_wake}}, after the call that started it answered
// (BackgroundTaskStarted; _x.ai/task_backgrounded names the call of a
// task id of its own), reports a monitor's lines with _x.ai/monitor_event
// {task_id, description, event_text}, and wakes the agent for a turn it
// starts itself: no session/prompt, a hidden reminder (a
// user_message_chunk with _meta.hideFromScrollback), the answer, and
// turn_completed {prompt_id, stop_reason, usage} on
// _x.ai/session_notification, which also ends the host's prompts before
// their response. Shapes as a public project's wire notes quote them from
// live grok 1.0.x captures ("_x.ai/task_completed, and background_tasks
// per session", "The CLI starts prompts of its own", "Monitors"; other
// projects' tests quote the same task_completed and the hidden reminder;
// the index names none of the repositories), values shortened. The task's
// end and the monitor's line were dropped, and the woken turn was read as
// history, its reminder a replayed user prompt, ended by the next prompt
// without its usage; the end and the line are status items, the reminder
// a system item, and the woken turn ends at its turn_completed with its
// usage.
func TestGrokBackgroundTasks(t *testing.T) {
	const sid = "01a0d911-3033-7000-8000-000000000001"
	in := func(s string) string { return `{"dir":"in","msg":` + s + `}` }
	out := func(s string) string { return `{"dir":"out","msg":` + s + `}` }
	up := func(method, u string) string {
		return out(`{"jsonrpc":"2.0","method":"` + method + `","params":{"sessionId":"` + sid + `","update":` + u + `}}`)
	}
	input := strings.Join([]string{
		in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`),
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"_meta":{"grokShell":true,"agentVersion":"1.0.4"}}}`),
		in(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
		out(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"` + sid + `"}}`),
		in(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[{"type":"text","text":"Start the server in the background."}],"_meta":{"promptId":"p1"}}}`),
		out(`{"jsonrpc":"2.0","method":"_x.ai/queue/changed","params":{"sessionId":"` + sid + `","entries":[],"runningPromptId":"p1"}}`),
		up("session/update", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"Start the server in the background."},"_meta":{"modelId":"grok-4.6","promptIndex":0}}`),
		up("session/update", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Starting it."}}`),
		up("session/update", `{"sessionUpdate":"tool_call","toolCallId":"call-B-1","title":"run_terminal_command","kind":"execute","status":"pending","rawInput":{"command":"uv run main.py","is_background":true},"_meta":{"x.ai/tool":{"name":"run_terminal_command","kind":"execute"}}}`),
		up("session/update", `{"sessionUpdate":"tool_call_update","toolCallId":"call-B-1","status":"completed","title":"[bg] uv run main.py (01a04a87)","content":[{"type":"content","content":{"type":"text","text":"Background task 01a04a87-c84c-7140-9dc2-a14a69970efb started"}}],"rawOutput":{"type":"BackgroundTaskStarted","task_id":"01a04a87-c84c-7140-9dc2-a14a69970efb","task_type":"bash","status":"running","command":"uv run main.py"}}`),
		up("_x.ai/task_backgrounded", `{"sessionUpdate":"task_backgrounded","tool_call_id":"call-B-1","task_id":"01a04a87-c84c-7140-9dc2-a14a69970efb","command":"uv run main.py","description":"Start the server"}`),
		up("session/update", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"It is running."}}`),
		up("_x.ai/session_notification", `{"sessionUpdate":"turn_completed","prompt_id":"p1","stop_reason":"end_turn","usage":{"inputTokens":100,"outputTokens":10}}`),
		out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`),
		up("_x.ai/monitor_event", `{"sessionUpdate":"monitor_event","task_id":"01a0d913-6204-7000-8000-000000000002","description":"tick watch","event_text":"tick 1"}`),
		up("_x.ai/task_completed", `{"sessionUpdate":"task_completed","task_snapshot":{"task_id":"01a04a87-c84c-7140-9dc2-a14a69970efb","command":"uv run main.py","cwd":"/w","output":"serving on :8810\n","truncated":false,"exit_code":0,"signal":null,"completed":true,"kind":"bash","explicitly_killed":false,"description":"Start the server","is_backgrounded":true},"will_wake":true}`),
		out(`{"jsonrpc":"2.0","method":"_x.ai/queue/changed","params":{"sessionId":"` + sid + `","entries":[],"runningPromptId":"task-completed-01a04a87-c84c-7140-9dc2-a14a69970efb","runningKind":"prompt","runningText":"<system-reminder>\nBackground task completed.\n</system-reminder>"}}`),
		up("session/update", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"<system-reminder>\nBackground task completed.\n</system-reminder>"},"_meta":{"hideFromScrollback":true}}`),
		up("session/update", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The server printed: serving on :8810."},"_meta":{"promptId":"task-completed-01a04a87-c84c-7140-9dc2-a14a69970efb"}}`),
		up("_x.ai/session_notification", `{"sessionUpdate":"turn_completed","prompt_id":"task-completed-01a04a87-c84c-7140-9dc2-a14a69970efb","stop_reason":"end_turn","usage":{"inputTokens":200,"outputTokens":12},"elapsed_ms":2400}`),
		in(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[{"type":"text","text":"Thanks."}]}}`),
		up("session/update", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"You're welcome."}}`),
		out(`{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}`),
	}, "\n") + "\n"
	golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(acp.FormatExchange), Framing: framing(acp.FormatExchange)}, []byte(input))
	evs := translate(t, acp.FormatExchange, input)
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	var ends []string
	for _, ev := range golden.OfType(evs, universal.TypeTurnEnded) {
		te := ev.Data.(*universal.TurnEnded)
		ends = append(ends, string(te.Status)+" "+gjson.GetBytes(te.Metadata, "prompt_id").Str)
	}
	want := []string{"completed ", "completed task-completed-01a04a87-c84c-7140-9dc2-a14a69970efb", "completed "}
	if !slices.Equal(ends, want) {
		t.Errorf("turns %q, want %q", ends, want)
	}
	_, done := statusItems(evs, "task_completed")
	if len(done) != 1 || done[0].Content[0].Detail != "serving on :8810\n" || md(done[0], "tool_call_id").Str != "call-B-1" ||
		md(done[0], "exit_code").Raw != "0" || !md(done[0], "will_wake").Bool() {
		t.Errorf("task_completed %+v", done)
	}
	if _, done := statusItems(evs, "monitor_event"); len(done) != 1 || done[0].Content[0].Detail != "tick 1" {
		t.Errorf("monitor_event %+v", done)
	}
	var users, system []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		switch {
		case it.Kind == universal.KindMessage && it.Role == universal.RoleUser:
			users = append(users, it.Content[0].Text)
		case it.Kind == universal.KindSystem:
			system = append(system, it.Content[0].Text)
		}
	}
	if !slices.Equal(users, []string{"Start the server in the background.", "Thanks."}) || len(system) != 1 {
		t.Errorf("user messages %q, system items %q", users, system)
	}
	// The woken turn's usage.
	n := 0
	for _, ev := range golden.OfType(evs, universal.TypeUsageUpdated) {
		if strings.Contains(string(ev.AppendJSON(nil)), `"output_tokens":12`) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d usage events of the woken turn, want 1", n)
	}
}

// TestGrokCallUsage: Grok Build reports each model call's usage on
// _x.ai/session_notification as response_completed {usage {input_tokens,
// output_tokens, cache_read_input_tokens, cache_creation_input_tokens,
// reasoning_tokens}} (a public project's test quotes the line as measured
// 2026-08-16, with no cost; others' notes measure that its input_tokens
// leaves the cache out, 64 + 34688 cached = 34752 in context, and that
// turn_completed's usage sums the turn's calls; the index names none of
// the repositories). It was ignored; it is usage.updated scope call, the
// input the sum. A sub-agent session's calls are not the session's.
func TestGrokCallUsage(t *testing.T) {
	evs := translateChecked(t, grokSession(
		`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}`,
		`x root-1 {"sessionUpdate":"response_completed","usage":{"input_tokens":1048,"output_tokens":22,"cache_read_input_tokens":10240,"cache_creation_input_tokens":0,"reasoning_tokens":0}}`,
		`x child-9 {"sessionUpdate":"response_completed","usage":{"input_tokens":5,"output_tokens":5}}`,
	))
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeUsageUpdated) {
		d := ev.Data.(*universal.UsageUpdated)
		if d.Scope == universal.ScopeCall {
			got = append(got, fmt.Sprintf("%d %d %d", *d.Usage.InputTokens, *d.Usage.OutputTokens, *d.Usage.CachedInputTokens))
		}
	}
	if !slices.Equal(got, []string{"11288 22 10240"}) {
		t.Errorf("call usage %q", got)
	}
}

// TestCodeBuddySubagentParent: CodeBuddy (codebuddy --acp; the CLI in
// @tencent-ai/agent-sdk 0.3.201, cli/dist/codebuddy-headless.js) names
// the call a sub-agent runs under on the sub-agent's streamed and
// history updates as _meta["codebuddy.ai/parentToolCallId"] (its ACP
// agent sets it from the event's parentToolUseId), in its own namespace
// as it names tools ("codebuddy.ai/toolName"). The sub-agent's text and
// calls went into the session's own response; they go under the Task
// call. Lines in the bundle's shapes, values made up.
func TestCodeBuddySubagentParent(t *testing.T) {
	sub := `"_meta":{"codebuddy.ai/parentToolCallId":"call_task","codebuddy.ai/messageId":"m2"}`
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Delegating."}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_task","title":"Task","kind":"other","status":"pending","rawInput":{"description":"count","prompt":"Count the files","subagent_type":"general-purpose"},"_meta":{"codebuddy.ai/toolName":"Task"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_task","status":"in_progress"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Listing."},` + sub + `}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_ls","title":"Bash","kind":"execute","status":"pending","rawInput":{"command":"ls"},` + sub + `}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_ls","status":"completed","content":[{"type":"content","content":{"type":"text","text":"a\nb"}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_task","status":"completed","content":[{"type":"content","content":{"type":"text","text":"2 files."}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"There are 2."}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n")+"\n")
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	got := itemTree(evs)
	want := []string{
		`message "Delegating." under -1`,
		`tool_call "Task" under 0`,
		`message "Listing." under 1`,
		`tool_call "Bash" under 2`,
		`tool_result "a\nb" under 2`,
		`tool_result "2 files." under 0`,
		`message "There are 2." under -1`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
