package claude_test

import (
	"slices"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
)

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
		got, err := golden.CallModels(evs)
		if want := []string{"claude-opus-4-7 "}; err != nil || !slices.Equal(got, want) {
			t.Errorf("call usage models %q (%v), want %q", got, err, want)
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
		got, err := golden.CallModels(evs)
		if want := []string{"claude-sonnet-4-6 ", " "}; err != nil || !slices.Equal(got, want) {
			t.Errorf("call usage models %q (%v), want %q", got, err, want)
		}
	})
}
