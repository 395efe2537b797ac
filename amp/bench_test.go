package amp_test

import (
	"os"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// benchInputs are the samples as benchmark inputs.
func benchInputs(tb testing.TB) []golden.BenchInput {
	var ins []golden.BenchInput
	for _, s := range samples {
		b, err := os.ReadFile(s.path())
		if err != nil {
			tb.Fatal(err)
		}
		ins = append(ins, golden.BenchInput{Name: s.name(), New: newFor(s.format), Framing: framing(s.format), Data: b})
	}
	return ins
}

// BenchmarkTranslate translates each sample (framing excluded): MB/s of
// native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) { golden.BenchmarkInputs(b, benchInputs(b)) }

// BenchmarkAssistantLine is the common line: one assistant message with
// text and usage, in a session that is already running.
func BenchmarkAssistantLine(b *testing.B) {
	line := []byte(`{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"text","text":"For step 3, no dedicated read-file tool is available, so I will use cat to verify the file contents verbatim."}],"stop_reason":"end_turn","usage":{"input_tokens":0,"cache_creation_input_tokens":468,"cache_read_input_tokens":18316,"output_tokens":119,"max_tokens":272000,"service_tier":"standard"}},"parent_tool_use_id":null,"session_id":"T-1"}`)
	tr, err := amp.New(amp.FormatStreamJSON, universal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	out := tr.Translate(nil, universal.Message{Data: []byte(initLine), Line: 1})
	out = tr.Translate(out, universal.Message{Data: []byte(echoLine), Line: 2})
	golden.Measure(b, len(line), func() int {
		out = tr.Translate(out[:0], universal.Message{Data: line, Line: 3})
		return len(out)
	})
}

// BenchmarkNew is the fixed cost of a session: a translator made and
// ended, which dominates short inputs.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	var evs []universal.Event
	for b.Loop() {
		tr, err := amp.New(amp.FormatStreamJSON, universal.Options{})
		if err != nil {
			b.Fatal(err)
		}
		evs = tr.Report(evs[:0], universal.EndOfInput{})
	}
}

// TestReadAllocs: reading a line allocates nothing (amortized: the index
// of the scan is reused from line to line), so that what a line costs is
// the events it makes. The line is an assistant message without content,
// which makes none.
func TestReadAllocs(t *testing.T) {
	tr, err := amp.New(amp.FormatStreamJSON, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Translate(nil, universal.Message{Data: []byte(initLine), Line: 1})
	tr.Translate(nil, universal.Message{Data: []byte(echoLine), Line: 2})
	m := universal.Message{Line: 3, Data: []byte(`{"type":"assistant","message":{"type":"message","role":"assistant","content":[],"stop_reason":"end_turn"},"parent_tool_use_id":null,"session_id":"T-1"}`)}
	allocs, evs := golden.AllocsPerMessage(t, tr, m)
	if allocs != 0 {
		t.Errorf("%v allocations per line, want 0", allocs)
	}
	if len(evs) != 0 {
		t.Fatalf("got %d events, want none", len(evs))
	}
}

// TestBenchmarks runs the benchmark bodies once, so plain go test covers
// them.
func TestBenchmarks(t *testing.T) { golden.CheckInputs(t, benchInputs(t)) }
