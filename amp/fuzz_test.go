package amp_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/universal"
)

// FuzzTranslate: whatever the input, the translator does not panic and its
// output, ended with EndOfInput, is a well-formed stream — also when the
// translator is checkpointed and restored after the first message, and
// when some lines arrive as host input (stdin). mode picks the format
// (bit 0) and which lines are host input (bit 1: every third).
func FuzzTranslate(f *testing.F) {
	for _, s := range samples {
		b, err := os.ReadFile(s.path())
		if err != nil {
			f.Fatal(err)
		}
		mode := uint8(0)
		if s.format == amp.FormatThread {
			mode = 1
		}
		f.Add(mode, b)
	}
	b, err := os.ReadFile(public + "/docs_manual_appendix_subagent_ELIDED.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), b)
	f.Add(uint8(2), []byte(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`+"\n"+initLine+"\n"+echoLine+"\n"))
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		format := amp.FormatStreamJSON
		if mode&1 == 1 {
			format = amp.FormatThread
		}
		var framing universal.Framing
		for _, fm := range amp.Formats {
			if fm.Name == format {
				framing = fm.Framing
			}
		}
		for _, restoreAt := range []int{-1, 1} {
			tr, err := amp.New(format, universal.Options{IncludeRaw: true})
			if err != nil {
				t.Fatal(err)
			}
			var out []universal.Event
			out = tr.Report(out, universal.Prompt{Text: "hi"})
			n := 0
			for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(data), framing, 1<<20)) {
				if err != nil {
					break
				}
				if mode&2 != 0 && n%3 == 0 {
					m.Dir = universal.In
				}
				out = tr.Translate(out, m)
				if n++; n == restoreAt {
					state, err := tr.Checkpoint()
					if err != nil {
						t.Fatal(err)
					}
					tr, _ = amp.New(format, universal.Options{IncludeRaw: true})
					if err := tr.Restore(state); err != nil {
						t.Fatal(err)
					}
				}
			}
			out = tr.Report(out, universal.EndOfInput{})
			if err := universal.CheckStream(out); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}
	})
}
