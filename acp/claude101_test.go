package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// callNames returns the tool name of each tool_call item, at its
// completion.
func callNames(evs []universal.Event) []string {
	var out []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
			out = append(out, it.Content[0].Name)
		}
	}
	return out
}

// TestToolCallName: the unstable schema's name of a ToolCall and
// ToolCallUpdate ("programmatic name of the tool being invoked"), which
// claude-agent-acp 0.101.0 sends on its tool_call and in its permission
// requests' toolCall (where it has no _meta), is the call's name, before
// an adapter's _meta and the title; a null name (the schema: no name)
// leaves them.
func TestToolCallName(t *testing.T) {
	agent := unstableSession(
		// a call the agent names, titled by what it does
		`{"sessionUpdate":"tool_call","toolCallId":"c1","name":"Bash","title":"Terminal","kind":"execute","status":"pending","rawInput":{}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","rawInput":{"command":"ls"},"title":"ls"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":"a"}`,
		// name and _meta: the protocol's field counts
		`{"sessionUpdate":"tool_call","toolCallId":"c2","name":"Read","title":"Read a","kind":"read","status":"pending","_meta":{"claudeCode":{"toolName":"ReadFile"}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed","rawOutput":"x"}`,
		// a null name: the adapter's _meta
		`{"sessionUpdate":"tool_call","toolCallId":"c3","name":null,"title":"Write b","kind":"edit","status":"pending","_meta":{"claudeCode":{"toolName":"Write"}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c3","status":"completed","rawOutput":"ok"}`,
	) + strings.Join([]string{
		// a call first seen in its permission request
		`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c4","name":"Edit","status":"pending","title":"Edit c","kind":"edit","rawInput":{"file_path":"/c"}},"options":[{"optionId":"allow-once","name":"Yes","kind":"allow_once"}]}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c4","status":"completed","rawOutput":"done"}}}`,
	}, "\n") + "\n" + endTurn
	evs := translateChecked(t, agent)
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q, want none", u)
	}
	want := []string{"Bash", "Read", "Write", "Edit"}
	if got := callNames(evs); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("call names %q, want %q", got, want)
	}
}
