package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRolloutTornRecord: a Codex process that ends while writing a rollout
// record leaves it cut off, and the process that resumes the session
// appends its first record right after it, on the same line
// (entireio/git-sync's checkpoints, MIT, 0.118: a token_count cut after 549
// bytes, then the next turn's task_started). The whole line was
// agent.unparsed: the task_started was lost, so the next prompt and its
// answer joined the turn the dead process left open, which then ended
// completed by the next turn's task_complete. The cut-off part is
// agent.unparsed; the record after it is read. (Lines in that rollout's
// shape, texts made up.)
func TestRolloutTornRecord(t *testing.T) {
	line := func(ts, typ, payload string) string {
		return `{"timestamp":"2026-04-08T` + ts + `Z","type":"` + typ + `","payload":` + payload + `}`
	}
	torn := line("18:06:49.514", "event_msg", `{"type":"token_count","info":{"total_token_usage":{"input_tokens":28054386,"cached_input_tokens":26178816,"output_tokens":125916,"reasoning_output_tokens":35528,"total_tokens":28180302},"last_token_usage":{"input_tokens":164773,"ca`)
	torn = torn[:strings.Index(torn, `"ca`)+3]
	evs := run(t, codex.FormatRollout, nil, []string{
		line("18:00:00.000", "session_meta", `{"id":"019d6d29-8cf7-7fe3-adc9-8c3e4d9d5603","timestamp":"2026-04-08T12:56:00.000Z","cwd":"/w","originator":"codex-tui","cli_version":"0.118.0","source":"cli"}`),
		line("18:06:00.000", "event_msg", `{"type":"task_started","turn_id":"019d6e3f-cd8e-75d0-8084-7ddb46934231","model_context_window":258400}`),
		line("18:06:00.100", "event_msg", `{"type":"user_message","message":"add the smoke command","images":[]}`),
		line("18:06:49.469", "event_msg", `{"type":"agent_message","message":"Added the smoke command."}`),
		torn + line("19:41:09.765", "event_msg", `{"type":"task_started","turn_id":"019d6e9c-e701-7293-af0e-0a6264b599aa","model_context_window":258400}`),
		line("19:41:10.177", "event_msg", `{"type":"user_message","message":"what's next","images":[]}`),
		line("19:41:21.312", "event_msg", `{"type":"agent_message","message":"Next, a remote test."}`),
		line("19:41:21.422", "event_msg", `{"type":"task_complete","turn_id":"019d6e9c-e701-7293-af0e-0a6264b599aa","last_agent_message":"Next, a remote test."}`),
	})
	var ends []string
	for _, e := range evs {
		if d, ok := e.Data.(*universal.TurnEnded); ok {
			ends = append(ends, d.TurnID+" "+string(d.Status))
		}
	}
	want := []string{"019d6e3f-cd8e-75d0-8084-7ddb46934231 interrupted", "019d6e9c-e701-7293-af0e-0a6264b599aa completed"}
	if strings.Join(ends, "\n") != strings.Join(want, "\n") {
		t.Errorf("turns ended:\n%s\nwant:\n%s", strings.Join(ends, "\n"), strings.Join(want, "\n"))
	}
	u := golden.OfType(evs, universal.TypeUnparsed)
	if len(u) != 1 || u[0].Data.(*universal.Unparsed).Location != "codex: line 5" {
		t.Errorf("agent.unparsed %+v, want one, of line 5", u)
	}
}
