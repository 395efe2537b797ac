package codex_test

import (
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
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
		var md struct{ Model string }
		if d.Metadata != nil {
			if err := json.Unmarshal(d.Metadata, &md); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, md.Model)
	}
	return out
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

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
		if got, want := callModels(t, evs), []string{"gpt-5.5", "gpt-5.4", "gpt-5.6-sol"}; !sameStrings(got, want) {
			t.Errorf("call usage models %q, want %q", got, want)
		}
	})
}
