package amp_test

import (
	"bytes"
	"os"
	"runtime"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/universal"
)

// prepared is one sample framed into messages, ready to translate.
type prepared struct {
	name, format string
	size         int64
	msgs         []universal.Message
}

func prepare(tb testing.TB) []prepared {
	var ps []prepared
	for _, s := range samples {
		b, err := os.ReadFile(s.path())
		if err != nil {
			tb.Fatal(err)
		}
		p := prepared{name: s.name(), format: s.format, size: int64(len(b))}
		for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(b), framing(s.format), 0)) {
			if err != nil {
				tb.Fatal(err)
			}
			m.Data = bytes.Clone(m.Data)
			p.msgs = append(p.msgs, m)
		}
		ps = append(ps, p)
	}
	return ps
}

// translatePrepared translates a prepared sample once with a fresh
// translator and returns the number of events.
func translatePrepared(tb testing.TB, p *prepared, out []universal.Event) int {
	tr, err := amp.New(p.format, universal.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, m := range p.msgs {
		out = tr.Translate(out[:0], m)
		n += len(out)
	}
	out = tr.Report(out[:0], universal.EndOfInput{})
	return n + len(out)
}

// BenchmarkTranslate translates each sample (framing excluded): MB/s of
// native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) {
	for _, p := range prepare(b) {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(p.size)
			b.ReportAllocs()
			out := make([]universal.Event, 0, 64)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			events := 0
			for b.Loop() {
				events += translatePrepared(b, &p, out)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events), "allocs/event")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

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
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	events := 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		out = tr.Translate(out[:0], universal.Message{Data: line, Line: 3})
		events += len(out)
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events), "allocs/event")
}

// TestBenchmarks runs the benchmark bodies once, so plain go test covers
// them.
func TestBenchmarks(t *testing.T) {
	for _, p := range prepare(t) {
		if n := translatePrepared(t, &p, nil); n == 0 {
			t.Errorf("%s: no events", p.name)
		}
	}
}
