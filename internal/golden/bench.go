package golden

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// BenchInput is one native input of a translator benchmark.
type BenchInput struct {
	// Name names the sub-benchmark.
	Name string
	// New builds a fresh translator for the input's format.
	New func(universal.Options) universal.Translator
	// Framing splits Data into messages.
	Framing universal.Framing
	// Data is the native input.
	Data []byte
}

// messages frames the input, each message with its own copy of the bytes.
func (in *BenchInput) messages(tb testing.TB) []universal.Message {
	var msgs []universal.Message
	for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(in.Data), in.Framing, 0)) {
		if err != nil {
			tb.Fatal(err)
		}
		m.Data = bytes.Clone(m.Data)
		msgs = append(msgs, m)
	}
	return msgs
}

// translate translates msgs with a fresh translator, ends with EndOfInput,
// and returns the number of events (out is reused for each call's events).
func (in *BenchInput) translate(msgs []universal.Message, out []universal.Event) int {
	tr := in.New(universal.Options{})
	n := 0
	for _, m := range msgs {
		out = tr.Translate(out[:0], m)
		n += len(out)
	}
	return n + len(tr.Report(out[:0], universal.EndOfInput{}))
}

// BenchmarkInputs runs one sub-benchmark per input, named after it: each
// operation translates the input with a fresh translator and ends it with
// EndOfInput; the input is framed beforehand, so the translator alone is
// timed. It reports MB/s of native input, allocations per operation, and
// allocs/event and events/s.
func BenchmarkInputs(b *testing.B, inputs []BenchInput) {
	for _, in := range inputs {
		b.Run(in.Name, func(b *testing.B) {
			msgs := in.messages(b)
			out := make([]universal.Event, 0, 64)
			Measure(b, len(in.Data), func() int { return in.translate(msgs, out) })
		})
	}
}

// BenchmarkRead is BenchmarkInputs for one input, framing included: each
// operation reads the input with its framing's reader too, as a host does.
func BenchmarkRead(b *testing.B, in BenchInput) {
	out := make([]universal.Event, 0, 64)
	Measure(b, len(in.Data), func() int {
		tr := in.New(universal.Options{})
		n := 0
		for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(in.Data), in.Framing, 0)) {
			if err != nil {
				b.Fatal(err)
			}
			out = tr.Translate(out[:0], m)
			n += len(out)
		}
		return n + len(tr.Report(out[:0], universal.EndOfInput{}))
	})
}

// Measure runs op, which handles size bytes of native input and returns
// the number of events it made, in the benchmark loop, and reports the
// metrics every translator benchmark shares: MB/s, allocations per
// operation, allocs/event and events/s.
func Measure(b *testing.B, size int, op func() int) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	events := 0
	for b.Loop() {
		events += op()
	}
	runtime.ReadMemStats(&after)
	if events > 0 {
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events), "allocs/event")
		b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	}
}

// CheckInputs translates every input once, as BenchmarkInputs does, and
// fails for an input that gives no events: plain go test covers the
// benchmark bodies.
func CheckInputs(t *testing.T, inputs []BenchInput) {
	t.Helper()
	for _, in := range inputs {
		if n := in.translate(in.messages(t), nil); n == 0 {
			t.Errorf("%s: no events", in.Name)
		}
	}
}

// AllocsPerMessage returns the allocations translating m into tr costs,
// amortized over 1000 runs (the stamper's arena and slabs grow in blocks),
// and the events of the last run. It skips t under -race and coverage,
// which count allocations otherwise.
func AllocsPerMessage(t *testing.T, tr universal.Translator, m universal.Message) (float64, []universal.Event) {
	t.Helper()
	if Race || testing.CoverMode() != "" {
		t.Skip("allocation counts differ under -race and coverage")
	}
	evs := make([]universal.Event, 0, 4)
	allocs := testing.AllocsPerRun(1000, func() { evs = tr.Translate(evs[:0], m) })
	return allocs, evs
}

// BenchmarkDelta measures the text delta m through tr, sent again and
// again into one message (a live stream's hot path). It fails unless m
// translates to one item.delta.
func BenchmarkDelta(b *testing.B, tr universal.Translator, m universal.Message) {
	b.Helper()
	evs := make([]universal.Event, 0, 4)
	Measure(b, len(m.Data), func() int {
		evs = tr.Translate(evs[:0], m)
		return len(evs)
	})
	if len(evs) != 1 || evs[0].Type != universal.TypeItemDelta {
		b.Fatalf("got %d events, first %v; want one item.delta", len(evs), evs)
	}
}

// CheckDeltaAllocs fails unless the text delta m translates through tr to
// one item.delta without an allocation, amortized as AllocsPerMessage
// counts (it skips under -race and coverage).
func CheckDeltaAllocs(t *testing.T, tr universal.Translator, m universal.Message) {
	t.Helper()
	allocs, evs := AllocsPerMessage(t, tr, m)
	if allocs != 0 {
		t.Errorf("%v allocations per text delta, want 0", allocs)
	}
	if len(evs) != 1 || evs[0].Type != universal.TypeItemDelta {
		t.Fatalf("got %d events, want one item.delta", len(evs))
	}
}
