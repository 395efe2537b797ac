package acp_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

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
