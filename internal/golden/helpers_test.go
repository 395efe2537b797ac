package golden_test

import (
	"os"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

const scriptLog = "../../testdata/universal/handwritten.script.jsonl"

// TestFuzzProperty runs the shared fuzz property on the hand-written log
// (with a prompt reported first) and returns its events.
func TestFuzzProperty(t *testing.T) {
	data, err := os.ReadFile(scriptLog)
	if err != nil {
		t.Fatal(err)
	}
	evs := golden.FuzzProperty(t, golden.Fuzz{New: newScript, Framing: golden.Lines, Reports: []universal.Report{universal.Prompt{Text: "hi"}}}, data)
	if len(evs) == 0 || evs[len(evs)-1].Type != universal.TypeSessionEnded {
		t.Errorf("%d events, want a whole session", len(evs))
	}
}

func scriptInputs(tb testing.TB) []golden.BenchInput {
	data, err := os.ReadFile(scriptLog)
	if err != nil {
		tb.Fatal(err)
	}
	return []golden.BenchInput{{Name: "handwritten", New: newScript, Framing: golden.Lines, Data: data}}
}

// TestCheckInputs runs the shared benchmark body once.
func TestCheckInputs(t *testing.T) { golden.CheckInputs(t, scriptInputs(t)) }

// BenchmarkScript is the shared benchmark recipe on the hand-written log.
func BenchmarkScript(b *testing.B) {
	golden.BenchmarkInputs(b, scriptInputs(b))
	b.Run("read", func(b *testing.B) { golden.BenchmarkRead(b, scriptInputs(b)[0]) })
}
