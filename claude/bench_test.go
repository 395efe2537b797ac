package claude_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// loadCorpus returns every recorded capture in every format, and the
// public samples, as benchmark inputs.
func loadCorpus(tb testing.TB) []golden.BenchInput {
	tb.Helper()
	var ins []golden.BenchInput
	add := func(name, path, format string, framing universal.Framing) {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		ins = append(ins, golden.BenchInput{Name: name, New: newFor(format), Framing: framing, Data: data})
	}
	metas, _ := filepath.Glob(filepath.Join(recorded, "*.meta.json"))
	for _, meta := range metas {
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		add(name+"/stream-json", filepath.Join(recorded, name+".jsonl"), claude.FormatStreamJSON, universal.FrameLines)
		if ex := filepath.Join(recorded, name+".exchange.jsonl"); exists(ex) {
			add(name+"/exchange", ex, claude.FormatExchange, universal.FrameExchange)
		}
		mains, _ := filepath.Glob(filepath.Join(recorded, name+".session", "*", "*.jsonl"))
		for _, m := range mains {
			add(name+"/transcript", m, claude.FormatTranscript, universal.FrameLines)
		}
	}
	entries, _ := os.ReadDir(public)
	for _, e := range entries {
		n := e.Name()
		switch {
		case !strings.HasSuffix(n, ".jsonl") && !(strings.HasSuffix(n, ".ndjson") && !strings.HasSuffix(n, ".golden.ndjson")):
		case strings.HasPrefix(n, "stream_"):
			add("public/"+n, filepath.Join(public, n), claude.FormatStreamJSON, universal.FrameLines)
		default:
			add("public/"+n, filepath.Join(public, n), claude.FormatTranscript, universal.FrameLines)
		}
	}
	return ins
}

// BenchmarkTranslate translates each capture of the corpus: MB/s of
// native input, allocations per op and per universal event.
func BenchmarkTranslate(b *testing.B) { golden.BenchmarkInputs(b, loadCorpus(b)) }

// deltaSetup returns a translator in the middle of a streamed text block
// and a text_delta line for it (Claude Code 2.1.330, s01-text).
func deltaSetup(tb testing.TB) (*claude.Translator, universal.Message) {
	tb.Helper()
	t, err := claude.New(claude.FormatStreamJSON, universal.Options{SessionID: "bench"})
	if err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(recorded, "s01-text.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	var evs []universal.Event
	for i := range 15 { // up to and including the first text_delta
		evs = t.Translate(evs[:0], universal.Message{Data: lines[i], Line: int64(i + 1)})
	}
	delta := lines[15]
	if !bytes.Contains(delta, []byte(`"text_delta"`)) {
		tb.Fatalf("line 16 is not a text delta: %s", delta)
	}
	return t, universal.Message{Data: delta, Line: 16}
}

// BenchmarkTextDelta is the hot path: one text_delta stream_event line.
func BenchmarkTextDelta(b *testing.B) {
	t, m := deltaSetup(b)
	golden.BenchmarkDelta(b, t, m)
}

// TestTextDeltaAllocs: a plain text delta line allocates nothing (amortized:
// the stamper's arena and slabs grow in large blocks).
func TestTextDeltaAllocs(t *testing.T) {
	tr, m := deltaSetup(t)
	golden.CheckDeltaAllocs(t, tr, m)
}

// TestBenchmarks runs the benchmark bodies once, so plain go test covers
// them.
func TestBenchmarks(t *testing.T) { golden.CheckInputs(t, loadCorpus(t)) }
