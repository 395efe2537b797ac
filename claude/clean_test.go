package claude_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

// TestReadAsCleaned: the translator reads a message as universal.CleanInput
// returns it, though it only cleans messages its scan finds may need it
// (bytes not ASCII, surrogate escapes, not JSON). Lines of a capture made
// dirty (invalid UTF-8, lone and paired surrogate escapes, valid
// non-ASCII text) translate exactly as their cleaned copies.
func TestReadAsCleaned(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(recorded, "s01-text.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	for _, dirt := range []string{"\xff", "\xed\xa0\x80", `\ud800`, `\udc00\ud83d\ude00`, `\ud83d\ude00`, "é—", "\xc3"} {
		var raw, clean []universal.Event
		a, _ := claude.New(claude.FormatStreamJSON, universal.Options{SessionID: "s"})
		b, _ := claude.New(claude.FormatStreamJSON, universal.Options{SessionID: "s"})
		for i, l := range lines {
			// Into the first string value after the type.
			if j := bytes.Index(l, []byte(`":"`)); j >= 0 && i%2 == 1 {
				l = append(l[:j+3:j+3], append([]byte(dirt), l[j+3:]...)...)
			}
			m := universal.Message{Data: l, Line: int64(i + 1), TimeMS: -1}
			raw = a.Translate(raw, m)
			m.Data = universal.CleanInput(bytes.Clone(l))
			clean = b.Translate(clean, m)
		}
		if len(raw) != len(clean) {
			t.Fatalf("%q: %d events, cleaned %d", dirt, len(raw), len(clean))
		}
		for i := range raw {
			if !reflect.DeepEqual(raw[i].AppendJSON(nil), clean[i].AppendJSON(nil)) {
				t.Fatalf("%q: event %d\n%s\ncleaned\n%s", dirt, i, raw[i].AppendJSON(nil), clean[i].AppendJSON(nil))
			}
		}
	}
}
