package acp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// callsOf returns each completed tool call as "name kind prompt agent".
func callsOf(evs []universal.Event) []string {
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
			p := it.Content[0]
			s := p.Name + " " + string(p.ToolKind)
			if in := p.ToolInput; in != nil && (in.Prompt != "" || in.Agent != "") {
				s += " " + in.Prompt + " " + in.Agent
			}
			got = append(got, s)
		}
	}
	return got
}

// TestGooseDelegate: Goose's delegate tool (its summon extension, 1.25
// and later) hands a task to a sub-agent; Goose's ACP server names it in
// _meta.goose.toolCall {toolName: "delegate", extensionName: "summon"}
// (block/goose crates/goose/src/acp/server/tool_calls/conversion.rs,
// tool_call_identity_meta), its rawInput {instructions, source?, async?}
// (summon/delegate.rs), and reports the sub-agent's tool requests on the
// call as in-progress updates whose _meta.toolNotification carries
// {type: "message", params: {data: {type: "subagent_tool_request",
// subagent_id, tool_call: {name}}}} (tool_notifications.rs), as public
// ACP clients of Goose read them (their tests quote these shapes). The
// call was an other-kind call without its prompt; it is a task, its
// prompt the instructions and its agent the source. An unrelated tool
// named delegate stays what its kind says.
func TestGooseDelegate(t *testing.T) {
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"delegate-call","title":"delegate · reviewer","status":"pending","rawInput":{"source":"reviewer","instructions":"Review the diff."},"_meta":{"goose":{"toolCall":{"toolName":"delegate","extensionName":"summon"}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"delegate-call","status":"in_progress","_meta":{"toolNotification":{"type":"message","params":{"level":"info","logger":"subagent:g-sub-1","data":{"type":"subagent_tool_request","subagent_id":"g-sub-1","tool_call":{"name":"developer__shell"}}}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"delegate-call","status":"completed","content":[{"type":"content","content":{"type":"text","text":"No defects found."}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"old","title":"summon: delegate","status":"pending","rawInput":{"instructions":"Count the files."},"_meta":{"goose":{"toolCall":{"toolName":"summon__delegate","extensionName":"summon"}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"old","status":"completed"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"other","title":"delegate","kind":"execute","status":"pending","rawInput":{"command":"delegate"},"_meta":{"goose":{"toolCall":{"toolName":"delegate","extensionName":"my_mcp"}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"other","status":"completed"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n"))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{"delegate task Review the diff. reviewer", "summon__delegate task Count the files. ", "delegate execute"}
	if got := callsOf(evs); !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}

// TestMCPToolCallName: @agentclientprotocol/codex-acp sends a Codex
// mcpToolCall item as a tool call titled "mcp.<server>.<tool>" with
// rawInput {server, tool, arguments} and _meta {is_mcp_tool_call: true}
// (its createMcpToolCallUpdate and createMcpRawInput, which public
// clients' tests quote and check the shipped adapter for), the
// permission it asks carrying _meta {is_mcp_tool_approval: true}. The
// call was named by its title; it is named mcp__<server>__<tool>, as the
// codex package names the same item read from Codex's own output. A call
// without the mark, or without both names, keeps its title.
func TestMCPToolCallName(t *testing.T) {
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"mcp-1","kind":"execute","title":"mcp.docs.lookup","status":"pending","rawInput":{"server":"docs","tool":"lookup","arguments":{"q":"ACP"}},"_meta":{"is_mcp_tool_call":true}}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"mcp-1","kind":"execute"},"_meta":{"is_mcp_tool_approval":true},"options":[{"optionId":"allow-once","name":"Allow","kind":"allow_once"}]}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"mcp-1","status":"completed","rawOutput":{"result":{"content":[{"type":"text","text":"found"}]},"error":null},"_meta":{"is_mcp_tool_call":true}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"mcp-2","kind":"execute","title":"mcp.docs.x","status":"completed","rawInput":{"server":"docs","arguments":{}},"_meta":{"is_mcp_tool_call":true}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"plain","kind":"execute","title":"lookup","status":"completed","rawInput":{"server":"docs","tool":"lookup"}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n"))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{"mcp__docs__lookup execute", "mcp.docs.x execute", "lookup execute"}
	if got := callsOf(evs); !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}
