package claude_test

import (
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// callModels returns the metadata "model" of each call-scoped usage.updated
// ("" when it has none).
func callModels(t *testing.T, evs []universal.Event) []string {
	t.Helper()
	var out []string
	for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
		d := e.Data.(*universal.UsageUpdated)
		if d.Scope != universal.ScopeCall {
			continue
		}
		var md struct {
			Model string `json:"model"`
		}
		if len(d.Metadata) > 0 {
			if err := json.Unmarshal(d.Metadata, &md); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, md.Model)
	}
	return out
}

// TestCallUsageModel: a call's usage names the model of its message —
// message_start's on a partial stream, message.model in a transcript — and
// never Claude Code's "<synthetic>".
func TestCallUsageModel(t *testing.T) {
	t.Run("stream", func(t *testing.T) {
		se := func(ev string) string {
			return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"api_message_id":"m1"}`
		}
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
			se(`{"type":"message_start","message":{"id":"m1","model":"claude-opus-4-7","usage":{"input_tokens":5,"output_tokens":1}}}`),
			se(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
			se(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`),
			se(`{"type":"content_block_stop","index":0}`),
			se(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}`),
			se(`{"type":"message_stop"}`),
			resultLine)
		if got := callModels(t, evs); len(got) != 1 || got[0] != "claude-opus-4-7" {
			t.Errorf("call usage models %q, want [claude-opus-4-7]", got)
		}
	})
	t.Run("transcript", func(t *testing.T) {
		line := func(uuid, parent, id, model, text string) string {
			return `{"type":"assistant","uuid":"` + uuid + `","parentUuid":"` + parent + `","sessionId":"s1","version":"2.1.330","message":{"id":"` + id + `","role":"assistant","model":"` + model +
				`","content":[{"type":"text","text":"` + text + `"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":2}}}`
		}
		evs := feed(t, claude.FormatTranscript, nil, nil,
			`{"type":"user","uuid":"u1","sessionId":"s1","version":"2.1.330","message":{"role":"user","content":"hi"}}`,
			line("a1", "u1", "msg_1", "claude-sonnet-4-6", "Hello"),
			`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","version":"2.1.330","message":{"role":"user","content":"again"}}`,
			line("a2", "u2", "msg_2", "<synthetic>", "API Error: 500"))
		if got := callModels(t, evs); len(got) != 2 || got[0] != "claude-sonnet-4-6" || got[1] != "" {
			t.Errorf("call usage models %q, want [claude-sonnet-4-6 \"\"]", got)
		}
	})
}
