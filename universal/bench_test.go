package universal

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// benchEvents is a mix like real output: mostly deltas, some snapshots.
func benchEvents(b *testing.B) []Event {
	b.Helper()
	var evs []Event
	for range 20 {
		evs = append(evs, validStream()...)
	}
	return evs
}

func BenchmarkEncode(b *testing.B) {
	evs := benchEvents(b)
	var size int64
	var buf []byte
	for i := range evs {
		size += int64(len(evs[i].AppendJSON(nil)) + 1)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for i := range evs {
			buf = evs[i].AppendJSON(buf[:0])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}

func BenchmarkEncodeDelta(b *testing.B) {
	st := NewStamper(Options{})
	evs := st.Delta(nil, ItemDelta{ItemID: "itm_12", Delta: "Hello, this is a typical text delta of a few words.", PartType: PartText}, SourceAgent, nil)
	b.SetBytes(int64(len(evs[0].AppendJSON(nil))))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = evs[0].AppendJSON(buf[:0])
	}
}

func BenchmarkStamperDelta(b *testing.B) {
	st := NewStamper(Options{})
	evs := make([]Event, 0, 1)
	b.ReportAllocs()
	for b.Loop() {
		evs = st.Delta(evs[:0], ItemDelta{ItemID: "itm_1", Delta: "text", PartType: PartText}, SourceAgent, nil)
	}
}

func BenchmarkStreamDelta(b *testing.B) {
	w := NewStream("bench", Options{})
	evs := w.StartItem(nil, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
	b.ReportAllocs()
	for b.Loop() {
		evs = w.Delta(evs[:0], "m", 0, PartText, "a typical delta", SourceAgent, nil)
	}
}

// Stamping a text delta through a Stream allocates nothing in the common
// case: ids, copies and delta data come from amortized blocks.
func TestStreamDeltaDoesNotAllocate(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	w := NewStream("bench", Options{})
	evs := w.StartItem(make([]Event, 0, 4), Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
	allocs := testing.AllocsPerRun(1000, func() {
		evs = w.Delta(evs[:0], "m", 0, PartText, "a typical delta", SourceAgent, nil)
	})
	if allocs > 0.1 {
		t.Errorf("%.2f allocations per delta, want ~0", allocs)
	}
}

// The blocks the deltas come from grow with the stream: 200,000 deltas
// into one message cost a few hundred allocations in all (their event
// ids, texts and data), not one per block of 64 as they did.
func TestStreamDeltaAllocationsAmortized(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	const n = 200_000
	w := NewStream("bench", Options{})
	evs := w.StartItem(make([]Event, 0, 4), Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range n {
		evs = w.Delta(evs[:0], "m", 0, PartText, "a typical delta", SourceAgent, nil)
	}
	runtime.ReadMemStats(&m1)
	if got := m1.Mallocs - m0.Mallocs; got > n/500 {
		t.Errorf("%d deltas made %d allocations (%.4f a delta), want at most %d", n, got, float64(got)/n, n/500)
	}
}

func benchReader(b *testing.B, in string, f Framing) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var n int
	for b.Loop() {
		r := NewReader(strings.NewReader(in), f, 0)
		n = 0
		for _, err := range Messages(r) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
}

const benchLine = `{"type":"stream_event","event":{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello, this is a delta"}},"session_id":"f6ff0079-7cb1-4c6a-bd08-83e082892bc0"}`

func BenchmarkLineReader(b *testing.B) {
	benchReader(b, strings.Repeat(benchLine+"\n", 2000), FrameLines)
}

func BenchmarkSSEReader(b *testing.B) {
	benchReader(b, strings.Repeat("event: message\ndata: "+benchLine+"\n\n", 2000), FrameSSE)
}

func BenchmarkExchangeReader(b *testing.B) {
	benchReader(b, strings.Repeat(`{"dir":"out","t_ms":12,"msg":`+benchLine+"}\n", 2000), FrameExchange)
}

func BenchmarkDecodeEvent(b *testing.B) {
	var buf bytes.Buffer
	for _, ev := range validStream() {
		buf.Write(ev.AppendJSON(nil))
		buf.WriteByte('\n')
	}
	in := buf.Bytes()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewEventReader(bytes.NewReader(in))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}

// BenchmarkStreamItem is an item's life through a Stream as most
// translators live it: started empty, three deltas, completed with its
// final text.
func BenchmarkStreamItem(b *testing.B) {
	w := NewStream("bench", Options{})
	evs, _ := w.StartTurn(nil, "", nil, SourceAgent, nil)
	ids := make([]string, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		if len(ids) == cap(ids) {
			ids = ids[:0]
		}
		id := w.NewItemID()
		ids = append(ids, id)
		evs = w.StartItem(evs[:0], Item{ItemID: id, Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text("")}}, SourceAgent, nil)
		evs = w.Delta(evs[:0], id, 0, PartText, "a typical ", SourceAgent, nil)
		evs = w.Delta(evs[:0], id, 0, PartText, "delta of ", SourceAgent, nil)
		evs = w.Delta(evs[:0], id, 0, PartText, "a message", SourceAgent, nil)
		evs = w.Complete(evs[:0], Item{ItemID: id, Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text("a typical delta of a message")}}, SourceAgent, nil)
	}
}

// BenchmarkStreamWhole is the items of a transcript or a stored session,
// which arrive whole: each completed without a start (Complete starts
// it), as a message with its text, a tool call with its arguments and
// that call's result. One operation is the three items, in one call of a
// translator; the stream is renewed every 900 items. "kept" keeps every
// event valid, "reused" is Options.ReuseEvents (the snapshots are the
// last call's memory).
func BenchmarkStreamWhole(b *testing.B) {
	for _, reuse := range []bool{false, true} {
		name := "kept"
		if reuse {
			name = "reused"
		}
		b.Run(name, func(b *testing.B) {
			var w *Stream
			var evs []Event
			args := `{"command":"ls -la","timeout":120}`
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if i%300 == 0 {
					// A session of 900 items: the stream's index of items
					// stays the size of a real session's.
					w = NewStream("bench", Options{ReuseEvents: reuse})
					evs, _ = w.StartTurn(evs[:0], "", nil, SourceAgent, nil)
				}
				w.Recycle()
				msg, call, res := w.NewItemID(), w.NewItemID(), w.NewItemID()
				evs = w.Complete(evs[:0], Item{ItemID: msg, Kind: KindMessage, Role: RoleAssistant,
					Content: []Part{Text("I will list the files of the directory first.")}}, SourceAgent, nil)
				evs = w.Complete(evs[:0], Item{ItemID: call, ParentID: msg, Kind: KindToolCall, Role: RoleAssistant,
					Content: []Part{{Type: PartToolCall, Name: "bash", Arguments: args, CallID: "call_1", ToolKind: ToolExecute}}}, SourceAgent, nil)
				evs = w.Complete(evs[:0], Item{ItemID: res, ParentID: msg, Kind: KindToolResult, Role: RoleTool,
					Content: []Part{{Type: PartToolResult, Output: "total 0\n", CallID: "call_1"}}}, SourceAgent, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(3*b.N), "ns/item")
		})
	}
}

// BenchmarkMarkEcho is the echo mark of a prompt's text part without
// metadata, as most prompts are.
func BenchmarkMarkEcho(b *testing.B) {
	parts := []Part{Text("hello")}
	b.ReportAllocs()
	for b.Loop() {
		parts[0].Metadata = nil
		MarkEcho(parts)
	}
}

// TestMarkEchoAllocs: a part without metadata gets the shared one, with
// no allocation.
func TestMarkEchoAllocs(t *testing.T) {
	parts := []Part{Text("hello")}
	if n := testing.AllocsPerRun(100, func() { parts[0].Metadata = nil; MarkEcho(parts) }); n != 0 {
		t.Errorf("%v allocations a part", n)
	}
}

// MarkEcho's metadata for a part without any is what setField builds.
func TestEchoMetadata(t *testing.T) {
	for _, md := range []string{"", "null"} {
		if got := string(setField([]byte(md), "echo", "true")); got != string(echoMetadata) {
			t.Errorf("setField(%q) = %s, want %s", md, got, echoMetadata)
		}
	}
}
