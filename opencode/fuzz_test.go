package opencode_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// fuzzFormats are the formats FuzzTranslate picks from.
var fuzzFormats = []string{opencode.FormatSSE, opencode.FormatRunJSON, opencode.FormatMessages, opencode.FormatEvents, opencode.FormatEventLines}

// FuzzTranslate checks golden.FuzzProperty (no panic, a well-formed
// stream after EndOfInput, checkpoint and restore change nothing) whatever
// the input.
func FuzzTranslate(f *testing.F) {
	for _, pattern := range []string{"1.18.33/*.sse", "1.18.33/*.run.jsonl", "1.18.33/*.messages.json", "public/*.json", "public/*.jsonl", "public/synthetic/*", "handmade/*"} {
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
			if format == opencode.FormatSSE {
				// The stream's payloads one a line: event-lines.
				var lines []string
				for _, l := range strings.Split(string(b), "\n") {
					if d, ok := strings.CutPrefix(l, "data: "); ok {
						lines = append(lines, d)
					}
				}
				f.Add(uint8(len(fuzzFormats)-1), []byte(strings.Join(lines, "\n")))
			}
		}
	}
	f.Add(uint8(0), []byte("data: {\"type\":\"message.part.delta\",\"properties\":{\"sessionID\":\"s\",\"messageID\":\"m\",\"partID\":\"p\",\"field\":\"text\",\"delta\":\"x\"}}\n\n"))
	f.Fuzz(func(t *testing.T, format uint8, data []byte) {
		if len(data) > 64<<10 {
			t.Skip()
		}
		name := fuzzFormats[int(format)%len(fuzzFormats)]
		golden.FuzzProperty(t, golden.Fuzz{New: newFor(name), Framing: framing(name), Reports: []universal.Report{universal.Prompt{Text: "hi"}}, Reads: exportBanner}, data)
	})
}

// benchInputs are the recorded captures as benchmark inputs.
func benchInputs(tb testing.TB) []golden.BenchInput {
	var ins []golden.BenchInput
	for _, c := range captures(tb) {
		b, err := os.ReadFile(filepath.Join(recorded, c.file))
		if err != nil {
			tb.Fatal(err)
		}
		ins = append(ins, golden.BenchInput{Name: c.file, New: newFor(c.format), Framing: framing(c.format), Data: b})
	}
	return ins
}

// BenchmarkTranslate translates each recorded capture (framing excluded):
// MB/s of native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) { golden.BenchmarkInputs(b, benchInputs(b)) }

// BenchmarkDelta is the hot path: one message.part.delta of an open text
// part (without an event id: a repeated id would be dropped as a
// duplicate, and the benchmark would time that instead).
func BenchmarkDelta(b *testing.B) {
	tr, _, delta := deltaSetup(b)
	golden.BenchmarkDelta(b, tr, delta)
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
	d := `{"type":"message.part.delta","properties":{"sessionID":"ses_a","messageID":"msg_a","partID":"prt_1","field":"text","delta":"Hello, this is a typical text delta. "}}`
	return tr, make([]universal.Event, 0, 4), universal.Message{Data: []byte(d), Line: 9}
}

// TestDeltaAllocations: a plain text delta event allocates nothing once
// the stream's memory is warm (deltas without an event id; the id ring
// holds each id, and its copy is not an allocation either).
func TestDeltaAllocations(t *testing.T) {
	tr, _, delta := deltaSetup(t)
	golden.CheckDeltaAllocs(t, tr, delta)
}

// TestBenchmarks runs the benchmark bodies once, so plain go test covers
// them.
func TestBenchmarks(t *testing.T) { golden.CheckInputs(t, benchInputs(t)) }

// exportBanner reports whether a message that is not JSON starts with the
// line opencode export writes before its document, which the translator
// reads the document after (and reports any other text around it on its
// own lines).
func exportBanner(msg []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(msg), []byte("Exporting session:"))
}
