package codex_test

import (
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// TestTotalRestarts: a rollout's token_count totals are running totals,
// but a Codex process that resumes the session writes on in the same
// rollout counting from 0 again (entireio/entire-graph's checkpoints, MIT,
// 0.135: 2,662,936 input tokens, then 253,141). The session's usage fell
// with them and lost what the first process counted; it is the totals
// before the restart plus the new ones. (Lines in that rollout's shape,
// counts made up.)
func TestTotalRestarts(t *testing.T) {
	meta := `{"timestamp":"2026-05-31T10:46:34.193Z","type":"session_meta","payload":{"id":"019e7da4-83bc-7dc1-93d3-a435cb5c9100","timestamp":"2026-05-31T10:46:34.193Z","cwd":"/w","originator":"codex-tui","cli_version":"0.135.0","source":"cli","model_provider":"openai"}}`
	turn := func(id, prompt string, counts ...[2]int) []string {
		lines := []string{
			`{"timestamp":"2026-05-31T10:46:36.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"` + id + `","model_context_window":258400}}`,
			`{"timestamp":"2026-05-31T10:46:36.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + prompt + `"}]}}`,
		}
		for _, c := range counts {
			lines = append(lines, fmt.Sprintf(`{"timestamp":"2026-05-31T10:46:37.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":0,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d},"last_token_usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":11},"model_context_window":258400}}}`, c[0], c[1], c[0]+c[1]))
		}
		return append(lines, `{"timestamp":"2026-05-31T10:46:40.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"`+id+`","last_agent_message":"done"}}`)
	}
	lines := append([]string{meta}, turn("t1", "first", [2]int{1000, 10}, [2]int{2000, 20})...)
	lines = append(lines, turn("t2", "again", [2]int{300, 3}, [2]int{500, 5})...)
	lines = append(lines, turn("t3", "once more", [2]int{100, 1})...)
	evs := runParsed(t, codex.FormatRollout, lines)
	var got []int64
	for _, e := range evs {
		if u, ok := e.Data.(*universal.UsageUpdated); ok && u.Scope == universal.ScopeSession {
			got = append(got, *u.Usage.InputTokens)
		}
	}
	if diff := cmp.Diff([]int64{1000, 2000, 2300, 2500, 2600}, got); diff != "" {
		t.Errorf("session input tokens (-want +got):\n%s", diff)
	}
}
