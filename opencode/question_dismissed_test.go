package opencode_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestDismissedQuestionEndsTurn: OpenCode stops the turn when the user
// dismisses a question (its question tool fails with "Error: The user
// dismissed this question", Question.RejectedError), as when a permission
// is refused: a message list (OpenCode 1.2.20) whose last step made that
// call and finished with tool-calls ends its turn completed, not
// interrupted.
func TestDismissedQuestionEndsTurn(t *testing.T) {
	in := `{"info":{"id":"ses_1","version":"1.2.20","directory":"/w","time":{"created":1}},"messages":[` +
		`{"info":{"id":"msg_u","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[{"id":"prt_u","type":"text","text":"make a React component"}]},` +
		`{"info":{"id":"msg_a","sessionID":"ses_1","role":"assistant","parentID":"msg_u","finish":"tool-calls","time":{"created":2,"completed":4}},"parts":[` +
		`{"id":"prt_a","type":"tool","tool":"question","callID":"toolu_1","state":{"status":"error","input":{"questions":[{"question":"What are you trying to do?","header":"Clarify","options":[{"label":"Add React","description":"x"}]}]},"error":"Error: The user dismissed this question","time":{"start":2,"end":3}}}]}]}`
	evs := run(t, opencode.FormatMessages, in)
	noUnparsed(t, evs)
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 1 {
		t.Fatalf("%d turns ended, want 1", len(ends))
	}
	if te := ends[0].Data.(*universal.TurnEnded); te.Status != universal.TurnCompleted || ends[0].Source != universal.SourceAgent {
		t.Errorf("turn ended %s (%s), want completed by the agent", te.Status, ends[0].Source)
	}
	qs := golden.OfType(evs, universal.TypeQuestionResolved)
	if len(qs) != 1 || qs[0].Data.(*universal.Question).Status != universal.QuestionRejected {
		t.Errorf("question resolutions %v, want one, rejected", qs)
	}
}
