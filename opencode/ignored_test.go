package opencode_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestIgnoredNoticeContinuesTurn: a plugin's notice (the DCP plugin's
// "▣ DCP | … Compression #1" after its compress tool, OpenCode 1.14) is a
// user message whose only text part is ignored: shown, never sent to the
// model, and the agent's next step goes on from it. In a message list it
// continues the turn; it neither ends it interrupted nor starts another.
func TestIgnoredNoticeContinuesTurn(t *testing.T) {
	in := `{"info":{"id":"ses_1","version":"1.14.48","directory":"/w","time":{"created":1}},"messages":[` +
		`{"info":{"id":"msg_u","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[{"id":"prt_u","type":"text","text":"plan it"}]},` +
		`{"info":{"id":"msg_a","sessionID":"ses_1","role":"assistant","parentID":"msg_u","finish":"tool-calls","time":{"created":2,"completed":4}},"parts":[` +
		`{"id":"prt_a","type":"tool","tool":"compress","callID":"call_1","state":{"status":"completed","input":{"topic":"x"},"output":"Compressed 19 messages","title":""}}]},` +
		`{"info":{"id":"msg_n","sessionID":"ses_1","role":"user","time":{"created":3}},"parts":[{"id":"prt_n","type":"text","text":"▣ DCP | -73.2K removed, +10.8K summary — Compression #1","ignored":true}]},` +
		`{"info":{"id":"msg_b","sessionID":"ses_1","role":"assistant","parentID":"msg_n","finish":"stop","time":{"created":5,"completed":6}},"parts":[{"id":"prt_b","type":"text","text":"Here is the plan."}]}]}`
	evs := run(t, opencode.FormatMessages, in)
	noUnparsed(t, evs)
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 || len(ends) != 1 {
		t.Fatalf("%d turns started, %d ended, want one", n, len(ends))
	}
	if st := ends[0].Data.(*universal.TurnEnded).Status; st != universal.TurnCompleted {
		t.Errorf("turn %s, want completed", st)
	}
	var notice bool
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
			notice = notice || strings.Contains(p.Text, "Compression #1")
		}
	}
	if !notice {
		t.Error("the notice's text is lost")
	}
}
