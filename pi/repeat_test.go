package pi_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// TestRepeatedMessage: a message_update of Pi before 0.84 (its partial
// message repeated as "message") translates as when it is read whole,
// whether or not the repeat is what it seems: the translator scans such
// a line without the repeat (see withoutRepeat). The reference is the
// same line with a space after its first brace, which is read whole.
func TestRepeatedMessage(t *testing.T) {
	const head = `{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"Hi","partial":`
	msg := `{"role":"assistant","content":[{"type":"text","text":"Hi"}]}`
	cases := map[string]string{
		"repeat":           head + msg + `},"message":` + msg + `}`,
		"other message":    head + msg + `},"message":` + strings.Replace(msg, "Hi", "Ho", 1) + `}`,
		"no message":       head + msg + `}}`,
		"scalar":           head + `1},"message":1}`,
		"not a value":      head + `1,"q":2},"message":1,"q":2}`,
		"closed early":     head + `1},"z":{"w":0},"message":1},"z":{"w":0}`,
		"bad token":        head + `{"a":x}},"message":{"a":x}}`,
		"cut":              head + msg + `},"message":` + msg,
		"invalid UTF-8":    head + strings.Replace(msg, "Hi", "H\xffi", 1) + `},"message":` + strings.Replace(msg, "Hi", "H\xffi", 1) + `}`,
		"surrogate escape": head + strings.Replace(msg, "Hi", `H\ud800i`, 1) + `},"message":` + strings.Replace(msg, "Hi", `H\ud800i`, 1) + `}`,
		"spaced":           head + `{"a": 1}},"message":{"a": 1}}`,
		"deep":             head + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `},"message":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	}
	for name, line := range cases {
		got := translateUpdate(t, []byte(line))
		want := translateUpdate(t, []byte("{ "+line[1:]))
		if len(got) != len(want) {
			t.Errorf("%s: %d events, want %d", name, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: event %d\n got %s\nwant %s", name, i, got[i], want[i])
			}
		}
	}
}

// translateUpdate translates a message_update inside a streaming message
// and returns its events as JSON; an agent.unparsed is reduced to its
// error and location (its raw hash is of the line).
func translateUpdate(t *testing.T, line []byte) []string {
	tr := streaming(t)
	var out []string
	for _, e := range tr.Translate(nil, universal.Message{Data: line, Line: 3}) {
		if d, ok := e.Data.(*universal.Unparsed); ok {
			out = append(out, "unparsed "+d.Location+": "+d.Error)
			continue
		}
		out = append(out, string(bytes.Clone(e.AppendJSON(nil))))
	}
	return out
}
