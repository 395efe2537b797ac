package acp_test

import (
	"slices"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestVendorToolNames: agents that give a call's tool name under their
// own _meta namespace. Grok Build: _meta["x.ai/tool"] {version, name,
// kind, namespace, label, read_only}, the tool_call titled by the name and
// a later update retitling it by what it does ("Execute `…`", the
// sub-agent's description), as public projects' captures of grok 1.0.x
// show; Devin: _meta["cognition.ai/toolName"] with a title "Calling echo
// from mobius", as a public project's tests of Devin's ACP quote it, and
// _meta["cognition.ai/inferenceToolName"], as Devin's real output has it
// (a public project's recording of its stdout). The
// name was the title (the last one, for Grok); it is the agent's name of
// the tool now.
func TestVendorToolNames(t *testing.T) {
	evs := translateChecked(t, subagentSession(
		`root-1 {"sessionUpdate":"tool_call","toolCallId":"call-1","title":"run_terminal_command","rawInput":{"command":"go test ./parser/...","description":"run the parser tests"},"_meta":{"x.ai/tool":{"version":1,"name":"run_terminal_command","kind":"execute","namespace":"grok_build","label":"Run Command","read_only":false}}}`,
		"root-1 {\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call-1\",\"kind\":\"execute\",\"title\":\"Execute `go test ./parser/...`\",\"status\":\"in_progress\",\"rawInput\":{\"variant\":\"Bash\",\"command\":\"go test ./parser/...\"}}",
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"call-1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"ok"}}]}`,
		`root-1 {"sessionUpdate":"tool_call","toolCallId":"call-2","title":"spawn_subagent","rawInput":{"description":"2+2 number only","prompt":"What is 2+2?","subagent_type":"general-purpose","background":true},"_meta":{"x.ai/tool":{"name":"spawn_subagent","kind":"task","label":"Subagent","read_only":false},"subagentBackground":true}}`,
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"call-2","title":"2+2 number only","kind":"other","status":"completed","rawOutput":{"type":"Text","text":"Subagent started in background."}}`,
		`root-1 {"sessionUpdate":"tool_call","toolCallId":"toolu_2","title":"Calling echo from mobius","rawInput":{"text":"probe"},"_meta":{"cognition.ai/toolName":"mcp__mobius__echo","cognition.ai/eventType":"tool_call"}}`,
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"toolu_2","status":"completed"}`,
		"root-1 {\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"chatcmpl-tool-bb5c\",\"title\":\"Find files matching `**/math.js`\",\"kind\":\"search\",\"rawInput\":{\"query\":\"**/math.js\"},\"_meta\":{\"cognition.ai/inferenceToolName\":\"find_file_by_name\"}}",
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"chatcmpl-tool-bb5c","status":"completed"}`,
	))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
			got = append(got, it.Content[0].Name+" "+string(it.Content[0].ToolKind))
		}
	}
	if want := []string{"run_terminal_command execute", "spawn_subagent task", "mcp__mobius__echo other", "find_file_by_name search"}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}
