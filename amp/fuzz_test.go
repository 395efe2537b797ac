package amp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// FuzzTranslate checks golden.FuzzProperty (no panic, a well-formed
// stream, checkpoint and restore change nothing) on any input, also when
// some lines arrive as host input (stdin). mode picks the format (bit 0:
// thread, bit 2: jsonl) and which lines are host input (bit 1: every
// third).
func FuzzTranslate(f *testing.F) {
	for _, s := range samples {
		b, err := os.ReadFile(s.path())
		if err != nil {
			f.Fatal(err)
		}
		mode := uint8(0)
		switch s.format {
		case amp.FormatThread:
			mode = 1
		case amp.FormatJSONL:
			mode = 4
		}
		f.Add(mode, b)
	}
	captures, err := filepath.Glob(filepath.Join(recorded, "*.jsonl")) // the real CLI's output
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range captures {
		b, err := os.ReadFile(c)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 16<<10 { // (not the big output: it would slow every mutation)
			f.Add(uint8(0), b)
		}
	}
	b, err := os.ReadFile(public + "/docs_manual_appendix_subagent_ELIDED.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), b)
	f.Add(uint8(2), []byte(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`+"\n"+initLine+"\n"+echoLine+"\n"))
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		format := amp.FormatStreamJSON
		switch {
		case mode&4 != 0:
			format = amp.FormatJSONL
		case mode&1 == 1:
			format = amp.FormatThread
		}
		var in func(int) bool
		if mode&2 != 0 {
			in = func(n int) bool { return n%3 == 0 }
		}
		golden.FuzzProperty(t, golden.Fuzz{New: newFor(format), Framing: framing(format), Reports: []universal.Report{universal.Prompt{Text: "hi"}}, In: in}, data)
	})
}
