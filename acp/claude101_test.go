package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
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

// TestModelFromConfigOptions: where a session/new response has no
// (unstable) models or modes state, the current values of its
// configuration options of category model and mode are the session's
// model and mode (claude-agent-acp 0.101.0 sends its model only as an
// option; OpenCode's ACP server both); the state, when given, counts.
func TestModelFromConfigOptions(t *testing.T) {
	options := `"configOptions":[` +
		`{"id":"effort","name":"Effort","category":"thought_level","type":"select","currentValue":"high","options":[{"value":"high","name":"High"}]},` +
		`{"id":"mode","name":"Mode","category":"mode","type":"select","currentValue":"default","options":[{"value":"default","name":"Manual"}]},` +
		`{"id":"model","name":"Model","category":"model","type":"select","currentValue":"claude-sonnet-4-5","options":[{"value":"claude-sonnet-4-5","name":"Sonnet 4.5"}]}]`
	for _, c := range []struct {
		name, result, mode, model string
	}{
		{"options", `{"sessionId":"s1",` + options + `}`, "default", "claude-sonnet-4-5"},
		{"state", `{"sessionId":"s1","modes":{"currentModeId":"plan","availableModes":[]},"models":{"currentModelId":"opus","availableModels":[]},` + options + `}`, "plan", "opus"},
		{"none", `{"sessionId":"s1","configOptions":[{"id":"x","name":"X","type":"boolean","currentValue":true}]}`, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			agent := strings.Join([]string{
				`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}`,
				`{"jsonrpc":"2.0","id":1,"result":` + c.result + `}`,
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}`,
			}, "\n") + "\n" + endTurn
			evs := translate(t, acp.FormatAgent, agent)
			started := golden.OfType(evs, universal.TypeSessionStarted)
			if len(started) != 1 {
				t.Fatalf("%d session.started, want 1", len(started))
			}
			md := started[0].Data.(*universal.SessionStarted).Metadata
			if got := gjson.GetBytes(md, "mode").Str; got != c.mode {
				t.Errorf("mode %q, want %q", got, c.mode)
			}
			if got := gjson.GetBytes(md, "model").Str; got != c.model {
				t.Errorf("model %q, want %q", got, c.model)
			}
			if !gjson.GetBytes(md, "config_options").IsArray() {
				t.Errorf("metadata %s: the options are not kept", md)
			}
		})
	}
}
