package opencode_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestPartTypeChanged: a part snapshot that gives a part another kind of
// type than it came with (a "patch" part, then "reasoning") is
// agent.unparsed and changes nothing: the part had no place among the
// message's text parts, and taking the second snapshot gave it one, a
// state a checkpoint of it could not restore ("has a text index"). Found
// by FuzzTranslate (seed bb5ba1f30487ec14). Text then reasoning, one kind,
// is read as before.
func TestPartTypeChanged(t *testing.T) {
	const sess = `"sessionID":"ses_1"`
	msg := `{"type":"message.updated","properties":{"info":{"id":"msg_1","role":"assistant",` + sess + `,"time":{"created":1}}}}`
	part := func(typ, end string) string {
		return `{"type":"message.part.updated","properties":{"part":{"id":"prt_1","messageID":"msg_1",` + sess + `,"type":"` + typ + `","text":"","time":{"start":1` + end + `},"metadata":{"openai":{"itemId":"rs_1"}}}}}`
	}
	in := lines(msg, part("patch", ""), part("reasoning", `,"end":2`))
	evs := run(t, opencode.FormatEventLines, in)
	var unparsed []string
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		unparsed = append(unparsed, e.Data.(*universal.Unparsed).Error)
	}
	if len(unparsed) != 1 || !strings.Contains(unparsed[0], `part "prt_1" of type "patch" sent again as type "reasoning"`) {
		t.Errorf("unparsed %q, want the type change", unparsed)
	}
	// A checkpoint after each line restores, and the output is the same.
	golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "type changed", Format: opencode.FormatEventLines,
		Framing: framing(opencode.FormatEventLines), New: newFor(opencode.FormatEventLines), Data: []byte(in)})
	// One kind: a part taken for text, then reasoning, is no change of kind.
	evs = run(t, opencode.FormatEventLines, lines(msg, part("text", ""), part("reasoning", `,"end":2`)))
	noUnparsed(t, evs)
}
