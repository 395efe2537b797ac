package amp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestInfoSummaryForms checks that a thread's compaction summary is read
// in both forms: the object Amp's thread files hold ({"type": "summary",
// "summary": {"type": "message", "summary": text}}) and the text itself
// ({"type": "summary", "summary": text}), as an export sanitized from Amp
// 0.0.1787378726 has it (letta-ai/trajectory's orb-thread-export
// fixture, not kept here). The text form was an empty text part.
func TestInfoSummaryForms(t *testing.T) {
	for _, summary := range []string{`{"type":"message","summary":"Earlier work, in short."}`, `"Earlier work, in short."`} {
		doc := `{"v":1,"id":"T-9","messages":[{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}]},{"role":"info","messageId":1,"content":[{"type":"summary","summary":` + summary + `}]}]}`
		out := run(t, amp.FormatThread, lines(doc), nil)
		if n := len(golden.OfType(out, universal.TypeUnparsed)); n != 0 {
			t.Errorf("%s: %d unparsed", summary, n)
		}
		found := false
		for _, e := range golden.OfType(out, universal.TypeItemCompleted) {
			it := e.Data.(*universal.ItemSnapshot).Item
			if it.Role == universal.RoleSystem && len(it.Content) == 1 && it.Content[0].Text == "Earlier work, in short." {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no system item with the summary's text", summary)
		}
	}
}
