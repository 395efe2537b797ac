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
