package codex_test

import (
	"slices"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
)

// TestCallUsageModel: Codex's usage lines name no model; a rollout's call
// usage names the model the root thread runs with at that point — its
// turn_context (per turn, so a model changed between turns is followed)
// or thread_settings_applied.
func TestCallUsageModel(t *testing.T) {
	t.Run("rollout", func(t *testing.T) {
		tc := func(turn, model string) string {
			return `{"type":"turn_context","payload":{"turn_id":"` + turn + `","cwd":"/w","model":"` + model + `"}}`
		}
		tokens := func(n string) string {
			return `{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":` + n + `,"output_tokens":1,"total_tokens":` + n +
				`},"last_token_usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}}}`
		}
		evs := run(t, codex.FormatRollout, nil, []string{
			`{"type":"session_meta","payload":{"id":"s1","cli_version":"0.130.0"}}`,
			`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
			tc("t1", "gpt-5.5"),
			tokens("10"),
			`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}`,
			`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`,
			tc("t2", "gpt-5.4"),
			tokens("20"),
			`{"type":"event_msg","payload":{"type":"thread_settings_applied","thread_settings":{"model":"gpt-5.6-sol"}}}`,
			tokens("30"),
			`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t2"}}`,
		})
		got, err := golden.CallModels(evs)
		if want := []string{"gpt-5.5 ", "gpt-5.4 ", "gpt-5.6-sol "}; err != nil || !slices.Equal(got, want) {
			t.Errorf("call usage models %q (%v), want %q", got, err, want)
		}
	})
}
