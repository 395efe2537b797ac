package opencode_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAutoCompactionContinuesTurn: when the context overflows, OpenCode
// compacts on its own (1.4–1.17): a user message of one compaction part
// (auto: true), the compaction agent's summary, a synthetic "Continue if
// you have next steps" and the agent goes on. In a message list that is
// one turn, completed, whether the compaction came after a step of the
// turn or right after its prompt; before, the step before it ended its
// turn interrupted, or the prompt's turn ended with no answer.
func TestAutoCompactionContinuesTurn(t *testing.T) {
	const (
		prompt  = `{"info":{"id":"msg_u","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[{"id":"prt_u","type":"text","text":"build it"}]}`
		step    = `{"info":{"id":"msg_a","sessionID":"ses_1","role":"assistant","parentID":"msg_u","finish":"tool-calls","time":{"created":2,"completed":3}},"parts":[{"id":"prt_a","type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"ls"},"output":"a","metadata":{"exit":0},"title":"ls"}}]}`
		compact = `{"info":{"id":"msg_c","sessionID":"ses_1","role":"user","time":{"created":4}},"parts":[{"id":"prt_c","type":"compaction","auto":true,"overflow":false}]},` +
			`{"info":{"id":"msg_s","sessionID":"ses_1","role":"assistant","parentID":"msg_c","mode":"compaction","agent":"compaction","summary":true,"finish":"stop","time":{"created":5,"completed":6}},"parts":[{"id":"prt_s","type":"text","text":"## Goal\nbuild it"}]},` +
			`{"info":{"id":"msg_k","sessionID":"ses_1","role":"user","time":{"created":7}},"parts":[{"id":"prt_k","type":"text","text":"Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.","synthetic":true}]},` +
			`{"info":{"id":"msg_b","sessionID":"ses_1","role":"assistant","parentID":"msg_k","finish":"stop","time":{"created":8,"completed":9}},"parts":[{"id":"prt_b","type":"text","text":"Built."}]}`
	)
	for name, msgs := range map[string]string{
		"after a step":     prompt + "," + step + "," + compact,
		"after the prompt": prompt + "," + compact,
	} {
		t.Run(name, func(t *testing.T) {
			in := `{"info":{"id":"ses_1","version":"1.17.7","directory":"/w","time":{"created":1}},"messages":[` + msgs + `]}`
			evs := run(t, opencode.FormatMessages, in)
			noUnparsed(t, evs)
			ends := golden.OfType(evs, universal.TypeTurnEnded)
			if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 || len(ends) != 1 {
				t.Fatalf("%d turns started, %d ended, want one", n, len(ends))
			}
			if st := ends[0].Data.(*universal.TurnEnded).Status; st != universal.TurnCompleted {
				t.Errorf("turn %s, want completed", st)
			}
		})
	}
}
