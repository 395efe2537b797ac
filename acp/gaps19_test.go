package acp_test

import (
	"slices"
	"strings"
	"testing"
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
