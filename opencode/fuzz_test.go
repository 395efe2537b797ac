package opencode_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// fuzzFormats are the formats FuzzTranslate picks from.
var fuzzFormats = []string{opencode.FormatSSE, opencode.FormatRunJSON, opencode.FormatMessages, opencode.FormatEvents}

// FuzzTranslate: whatever the input, the translator does not panic and its
// output, ended with EndOfInput, is a well-formed stream (also when the
// translator is checkpointed and restored half-way).
func FuzzTranslate(f *testing.F) {
	for _, pattern := range []string{"1.18.33/*.sse", "1.18.33/*.run.jsonl", "1.18.33/*.messages.json", "public/*.json", "public/*.jsonl", "public/synthetic/*"} {
		files, err := filepath.Glob(filepath.Join("../testdata/opencode", pattern))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, ".golden.ndjson") || strings.HasSuffix(file, ".state.json") || strings.HasSuffix(file, ".meta.json") {
				continue
			}
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if len(b) > 24<<10 {
				continue // large seeds slow the fuzzer (and minimization) down without adding shapes
			}
			format := opencode.Detect(b)
			for i, name := range fuzzFormats {
				if name == format {
					f.Add(uint8(i), b)
				}
			}
		}
	}
	f.Add(uint8(0), []byte("data: {\"type\":\"message.part.delta\",\"properties\":{\"sessionID\":\"s\",\"messageID\":\"m\",\"partID\":\"p\",\"field\":\"text\",\"delta\":\"x\"}}\n\n"))
	f.Fuzz(func(t *testing.T, format uint8, data []byte) {
		if len(data) > 64<<10 {
			t.Skip()
		}
		name := fuzzFormats[int(format)%len(fuzzFormats)]
		framing := universal.FrameSSE
		for _, fm := range opencode.Formats {
			if fm.Name == name {
				framing = fm.Framing
			}
		}
		for _, restoreAt := range []int{-1, 1} {
			tr, err := opencode.New(name, universal.Options{IncludeRaw: true})
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
				out = tr.Translate(out, m)
				if n++; n == restoreAt {
					state, err := tr.Checkpoint()
					if err != nil {
						t.Fatal(err)
					}
					tr, _ = opencode.New(name, universal.Options{IncludeRaw: true})
					if err := tr.Restore(state); err != nil {
						t.Fatal(err)
					}
				}
			}
			out = tr.Report(out, universal.EndOfInput{})
			if err := universal.CheckStream(out); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}

// benchCase is one capture prepared for benchmarking: its messages,
// already framed.
type benchCase struct {
	name, format string
	size         int64
	msgs         []universal.Message
}

func benchCases(tb testing.TB) []benchCase {
	var cases []benchCase
	for _, c := range captures(tb) {
		b, err := os.ReadFile(filepath.Join(recorded, c.file))
		if err != nil {
			tb.Fatal(err)
		}
		bc := benchCase{name: c.file, format: c.format, size: int64(len(b))}
		for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(b), framing(c.format), 0)) {
			if err != nil {
				tb.Fatal(err)
			}
			m.Data = bytes.Clone(m.Data)
			bc.msgs = append(bc.msgs, m)
		}
		cases = append(cases, bc)
	}
	return cases
}

// translateAll translates a prepared capture once and returns the number
// of events.
func translateAll(tb testing.TB, c *benchCase, out []universal.Event) int {
	tr, err := opencode.New(c.format, universal.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, m := range c.msgs {
		out = tr.Translate(out[:0], m)
		n += len(out)
	}
	out = tr.Report(out[:0], universal.EndOfInput{})
	return n + len(out)
}

// BenchmarkTranslate translates each recorded capture (framing excluded):
// MB/s of native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(c.size)
			b.ReportAllocs()
			out := make([]universal.Event, 0, 64)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			events := 0
			for b.Loop() {
				events += translateAll(b, &c, out)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events), "allocs/event")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkDelta is the hot path: one message.part.delta of an open text
// part.
func BenchmarkDelta(b *testing.B) {
	tr, out, delta := deltaSetup(b)
	b.SetBytes(int64(len(delta.Data)))
	b.ReportAllocs()
	for b.Loop() {
		out = tr.Translate(out[:0], delta)
	}
}

func deltaSetup(tb testing.TB) (*opencode.Translator, []universal.Event, universal.Message) {
	tr, err := opencode.New(opencode.FormatSSE, universal.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	var out []universal.Event
	for m := range universal.Messages(universal.NewSSEReader(strings.NewReader(sse(
		msgUpdated("msg_a", "assistant", false),
		textPart("msg_a", "prt_1", "text", "", "", false),
	)), 0)) {
		out = tr.Translate(out, m)
	}
	d := `{"id":"evt_1fe0951b400175QcuAnjGflBpG","type":"message.part.delta","properties":{"sessionID":"ses_a","messageID":"msg_a","partID":"prt_1","field":"text","delta":"Hello, this is a typical text delta. "}}`
	return tr, make([]universal.Event, 0, 4), universal.Message{Data: []byte(d), Line: 9}
}

// TestDeltaAllocations: a plain text delta event allocates nothing once
// the stream's memory is warm (deltas without an event id; the id ring
// holds each id, and its copy is not an allocation either).
func TestDeltaAllocations(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts differ under -race and coverage")
	}
	tr, out, delta := deltaSetup(t)
	allocs := testing.AllocsPerRun(1000, func() { out = tr.Translate(out[:0], delta) })
	if allocs > 0 {
		t.Errorf("%.1f allocations per delta event, want 0", allocs)
	}
}

// TestBenchmarks runs the benchmark bodies once, so plain go test covers
// them.
func TestBenchmarks(t *testing.T) {
	for _, c := range benchCases(t) {
		if n := translateAll(t, &c, nil); n == 0 {
			t.Errorf("%s: no events", c.name)
		}
	}
}
