package acp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// startedModel returns session.started's metadata model and whether it has
// one.
func startedModel(t *testing.T, evs []universal.Event) (string, bool) {
	t.Helper()
	started := golden.OfType(evs, universal.TypeSessionStarted)
	if len(started) != 1 {
		t.Fatalf("%d session.started", len(started))
	}
	var md map[string]any
	if err := json.Unmarshal(started[0].Data.(*universal.SessionStarted).Metadata, &md); err != nil {
		t.Fatal(err)
	}
	m, ok := md["model"]
	if !ok {
		return "", false
	}
	s, _ := m.(string)
	return s, true
}

// TestCurrentModelUpdate: current_model_update (in no ACP schema) is how
// agents announce the session's model changed; they name it in one of
// four members, as public ACP clients read it (one reads "modelId or
// currentModelId or currentModel", another currentModelId, flat modelId
// "of some Kiro builds" or currentModel.{modelId,id}; Qwen Code's schema
// has model {modelId, name, description}). Cursor's and Qoder's were
// agent.unparsed, and their model lost. Now it is the session's model as
// session/new's current model is (metadata model) before the start, and
// a status item labelled model after it, as a set_model the agent
// accepted is; an empty id is no model; a shape that names none stays
// agent.unparsed.
func TestCurrentModelUpdate(t *testing.T) {
	const head = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"cursor-agent","version":"2026.09.02"}}}
{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1","models":{"currentModelId":"auto","availableModels":[{"modelId":"auto","name":"Auto"}]}}}
`
	const chunk = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}` + "\n"
	const tail = `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}` + "\n"
	update := func(members string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_model_update",` + members + `}}}` + "\n"
	}
	for _, tc := range []struct {
		name, members string
		model         string // the model named, "" for none
		unparsed      bool
	}{
		{"currentModelId", `"currentModelId":"gpt-5.5[medium]"`, "gpt-5.5[medium]", false},
		{"modelId", `"modelId":"minimax-m2.5"`, "minimax-m2.5", false},
		{"currentModel", `"currentModel":"qwen3-coder-plus"`, "qwen3-coder-plus", false},
		{"currentModel object", `"currentModel":{"modelId":"claude-sonnet-4-5","name":"Sonnet"}`, "claude-sonnet-4-5", false},
		{"currentModel id", `"currentModel":{"id":"claude-opus-4-7"}`, "claude-opus-4-7", false},
		{"model object", `"model":{"modelId":"qwen3-coder-plus","name":"Qwen3 Coder Plus","description":"A coding model"}`, "qwen3-coder-plus", false},
		{"empty", `"currentModelId":""`, "", false},
		{"no model", `"foo":1`, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Before the start: the session's model.
			evs := translateChecked(t, head+update(tc.members)+chunk+tail)
			if u := unparsed(evs); len(u) != 0 != tc.unparsed {
				t.Fatalf("agent.unparsed %q, want any: %v", u, tc.unparsed)
			}
			want := tc.model
			if want == "" {
				want = "auto" // session/new's, unchanged
			}
			if m, _ := startedModel(t, evs); m != want {
				t.Errorf("session.started model %q, want %q", m, want)
			}
			// After it: a status item.
			evs = translateChecked(t, head+chunk+update(tc.members)+tail)
			_, done := statusItems(evs, "model")
			var got []string
			for _, it := range done {
				got = append(got, it.Content[0].Detail)
			}
			if w := []string{tc.model}; tc.model == "" && len(got) != 0 || tc.model != "" && strings.Join(got, "|") != strings.Join(w, "|") {
				t.Errorf("model status items %q, want %q", got, tc.model)
			}
		})
	}
}

// TestEmptyCurrentModel: Auggie 0.32 answers session/new with models
// {currentModelId: ""}: the metadata showed model "". An empty id names
// no model: session.started has none (a configuration option of category
// model with a current value, when there is one, names it instead), and
// neither has it when a set_model the host sent with an empty id is
// accepted before the start.
func TestEmptyCurrentModel(t *testing.T) {
	for _, tc := range []struct {
		name, input, model string
	}{
		{"auggie", `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1","models":{"currentModelId":"","availableModels":[]}}}` + "\n", ""},
		{"option", `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1","models":{"currentModelId":""},"configOptions":[{"id":"model","category":"model","type":"select","currentValue":"sonnet","options":[]}]}}` + "\n", "sonnet"},
		{"empty option", `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1","configOptions":[{"id":"model","category":"model","type":"select","currentValue":"","options":[]}]}}` + "\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"auggie","version":"0.32.0"}}}` + "\n" + tc.input +
				`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}` + "\n"
			evs := translateChecked(t, input)
			m, ok := startedModel(t, evs)
			if m != tc.model || ok != (tc.model != "") {
				t.Errorf("session.started model %q (present %v), want %q", m, ok, tc.model)
			}
		})
	}
	// A set_model with an empty id, accepted before the start.
	exchange := strings.Join([]string{
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}}`,
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":2,"method":"session/set_model","params":{"sessionId":"s1","modelId":""}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":2,"result":{}}}`,
		`{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}}`,
	}, "\n") + "\n"
	evs := translate(t, "exchange", exchange)
	if m, ok := startedModel(t, evs); ok {
		t.Errorf("session.started model %q after set_model \"\", want none", m)
	}
}

// TestKiroMetering: Kiro CLI reports a prompt's spend not as ACP's
// usage_update but in credits, its billing unit (not dollars, not
// tokens): 2.11–2.18 in _kiro.dev/metadata's meteringUsage [{value, unit,
// unitPlural}] with turnDurationMs, sent before the prompt's response
// (these lines: testdata/acp/kiro-cli/public/cyril__v2-tarft-2.18.1,
// whose source and licence SOURCES.md names, the session/new result
// shortened); 2.18–2.19 also in the _meta.kiro of a session_info_update
// of kind turn_completion, promptTurnSummaries [{unit, unitPlural, usage,
// usedTools}] and elapsedTime (cyril-proxy-2.19.1's line). The first was
// ignored with Kiro's other extension notifications, the second kept
// only in a status item's metadata: no usage.updated showed what a turn
// cost. Each is now a usage.updated of scope turn, its credits in
// metadata "credits" as Amp's are, the entries and the duration beside
// them; no token counts, no cost in dollars. A _kiro.dev/metadata
// without meteringUsage is still ignored.
func TestKiroMetering(t *testing.T) {
	const head = `{"jsonrpc":"2.0","result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"authMethods":[],"agentInfo":{"name":"Kiro CLI Agent","title":"Kiro CLI Agent","version":"2.18.1"}},"id":0}
{"jsonrpc":"2.0","result":{"sessionId":"bdcf8876-ae00-4141-b301-a56523a9be68","modes":{"currentModeId":"kiro_default","availableModes":[{"id":"kiro_default","name":"kiro_default","description":"The default agent for Kiro CLI"}]}},"id":1}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"bdcf8876-ae00-4141-b301-a56523a9be68","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello from the cyril tar probe"}}}}
`
	const tail = `{"jsonrpc":"2.0","result":{"stopReason":"end_turn"},"id":3}` + "\n"
	for _, tc := range []struct {
		name, line string
		want       string // the usage.updated's metadata, "" for none
	}{
		{"metering",
			`{"jsonrpc":"2.0","method":"_kiro.dev/metadata","params":{"sessionId":"bdcf8876-ae00-4141-b301-a56523a9be68","contextUsagePercentage":1.2598999738693237,"meteringUsage":[{"value":0.039025923880597016,"unit":"credit","unitPlural":"credits"},{"value":0.029749653565505803,"unit":"credit","unitPlural":"credits"}],"turnDurationMs":5746}}`,
			`{"credits":0.068775577,"metering_usage":[{"value":0.039025923880597016,"unit":"credit","unitPlural":"credits"},{"value":0.029749653565505803,"unit":"credit","unitPlural":"credits"}],"turn_duration_ms":5746}`},
		{"context only",
			`{"jsonrpc":"2.0","method":"_kiro.dev/metadata","params":{"sessionId":"bdcf8876-ae00-4141-b301-a56523a9be68","contextUsagePercentage":1.2598999738693237}}`,
			""},
		{"turn completion",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"bdcf8876-ae00-4141-b301-a56523a9be68","update":{"sessionUpdate":"session_info_update","_meta":{"kiro":{"promptTurnSummaries":[{"unit":"credit","unitPlural":"credits","usage":0.14968605572139307,"usedTools":["execute_bash"]}],"elapsedTime":11092,"status":"success","kind":"turn_completion","requestIds":["bb49969e-544d-4d24-b48f-d22445e4e4e1","f7a39a27-ffea-442b-9030-6586b7a7e321"]}}}}}`,
			`{"credits":0.149686056,"prompt_turn_summaries":[{"unit":"credit","unitPlural":"credits","usage":0.14968605572139307,"usedTools":["execute_bash"]}],"turn_duration_ms":11092}`},
		{"other units",
			`{"jsonrpc":"2.0","method":"_kiro.dev/metadata","params":{"sessionId":"bdcf8876-ae00-4141-b301-a56523a9be68","meteringUsage":[{"value":"x","unit":"credit"},{"value":3,"unit":"request"}]}}`,
			`{"metering_usage":[{"value":"x","unit":"credit"},{"value":3,"unit":"request"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateChecked(t, head+tc.line+"\n"+tail)
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			us := golden.OfType(evs, universal.TypeUsageUpdated)
			if tc.want == "" {
				if len(us) != 0 {
					t.Errorf("%d usage.updated, want none", len(us))
				}
				return
			}
			if len(us) != 1 {
				t.Fatalf("%d usage.updated, want 1", len(us))
			}
			d := us[0].Data.(*universal.UsageUpdated)
			if d.Scope != universal.ScopeTurn || d.TurnID == "" || d.CostUSD != nil || d.Usage.InputTokens != nil || d.Usage.TotalTokens != nil {
				t.Errorf("usage %+v, want scope turn of the open turn, no counts, no cost", d)
			}
			if string(d.Metadata) != tc.want {
				t.Errorf("metadata %s\nwant %s", d.Metadata, tc.want)
			}
		})
	}
}
