package opencode_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestUnknownFinishContinuesTurn: a step whose finish reason is "unknown"
// (the provider's stream gave none, as Ollama's OpenAI-compatible one may)
// does not end OpenCode's prompt loop: it exits only on a finish other
// than tool-calls and unknown, and runs the next step. One opencode run
// of steps unknown, unknown, stop (a real 1.2-era Ollama run) is one
// turn, completed; before, each unknown step ended a turn of its own.
// A message list whose last step finished unknown shows the turn
// unfinished, as one that ends on tool-calls does.
func TestUnknownFinishContinuesTurn(t *testing.T) {
	step := func(n, reason, tokens string) string {
		return `{"type":"step_start","timestamp":1771725667820,"sessionID":"ses_1","part":{"id":"prt_s` + n + `","sessionID":"ses_1","messageID":"msg_` + n + `","type":"step-start"}}` + "\n" +
			`{"type":"step_finish","timestamp":1771725698323,"sessionID":"ses_1","part":{"id":"prt_f` + n + `","sessionID":"ses_1","messageID":"msg_` + n + `","type":"step-finish","reason":"` + reason + `","cost":0,"tokens":` + tokens + `}}` + "\n"
	}
	zero := `{"input":0,"output":0,"reasoning":0,"cache":{"read":0,"write":0}}`
	in := step("1", "unknown", zero) + step("2", "unknown", zero) +
		step("3", "stop", `{"total":11591,"input":10858,"output":733,"reasoning":0,"cache":{"read":0,"write":0}}`)
	evs := run(t, opencode.FormatRunJSON, in)
	noUnparsed(t, evs)
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 || len(ends) != 1 {
		t.Errorf("run: %d turns started, %d ended, want one", n, len(ends))
	} else if st := ends[0].Data.(*universal.TurnEnded).Status; st != universal.TurnCompleted {
		t.Errorf("run: turn %s, want completed", st)
	}

	const (
		prompt  = `{"info":{"id":"msg_u","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[{"id":"prt_u","type":"text","text":"build it"}]}`
		unknown = `{"info":{"id":"msg_a","sessionID":"ses_1","role":"assistant","parentID":"msg_u","finish":"unknown","time":{"created":2,"completed":3}},"parts":[{"id":"prt_a","type":"text","text":"Let me look."}]}`
		stop    = `{"info":{"id":"msg_b","sessionID":"ses_1","role":"assistant","parentID":"msg_u","finish":"stop","time":{"created":4,"completed":5}},"parts":[{"id":"prt_b","type":"text","text":"Built."}]}`
	)
	for _, c := range []struct {
		name, msgs string
		want       universal.TurnStatus
	}{
		{"unknown then stop", prompt + "," + unknown + "," + stop, universal.TurnCompleted},
		{"ends on unknown", prompt + "," + unknown, universal.TurnInterrupted},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := `{"info":{"id":"ses_1","version":"1.2.10","directory":"/w","time":{"created":1}},"messages":[` + c.msgs + `]}`
			evs := run(t, opencode.FormatMessages, in)
			noUnparsed(t, evs)
			ends := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ends) != 1 {
				t.Fatalf("%d turns ended, want one", len(ends))
			}
			if st := ends[0].Data.(*universal.TurnEnded).Status; st != c.want {
				t.Errorf("turn %s, want %s", st, c.want)
			}
		})
	}
}
