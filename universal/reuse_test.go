package universal

import (
	"reflect"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// With ReuseEvents, a stream of text deltas allocates only as the
// message's text outgrows its buffer: the second 50,000 deltas of a
// message cost a few allocations (the buffer grows by a quarter or more
// each time), not one per block of event ids and delta data as without
// the option.
func TestReuseEventsAllocatesNothing(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, reuse := range []bool{false, true} {
		w := NewStream("bench", Options{ReuseEvents: reuse})
		evs := w.StartItem(make([]Event, 0, 4), Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
		const n = 50000
		deltas := func() uint64 {
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for range n {
				w.Recycle()
				evs = w.Delta(evs[:0], "m", 0, PartText, "a typical delta", SourceAgent, nil)
			}
			runtime.ReadMemStats(&m1)
			return m1.Mallocs - m0.Mallocs
		}
		first := deltas()
		second := deltas()
		switch {
		case reuse && (first > 40 || second > 4):
			t.Errorf("ReuseEvents: %d and %d allocations over two runs of %d deltas, want only the text's growth", first, second, n)
		case !reuse && second < 20:
			// Every event's id and data are kept: their blocks must grow.
			t.Errorf("without ReuseEvents: %d allocations over %d deltas; are events still kept valid?", second, n)
		}
		if d := evs[0].Data.(*ItemDelta); d.Delta != "a typical delta" || evs[0].EventID != "evt_sess_"+strconv.Itoa(2*n+2) {
			t.Errorf("reuse %v: last event %s %q", reuse, evs[0].EventID, d.Delta)
		}
	}
}

// The events of one call stay intact however many the call stamps (the
// reused memory grows while they are still in use), and the events of
// earlier calls do so too unless ReuseEvents is set.
func TestReuseEventsValidity(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		w := NewStream("s", Options{ReuseEvents: reuse, IncludeRaw: true})
		var kept []Event
		for call := range 3 {
			w.Recycle()
			var evs []Event
			if call == 0 {
				evs = w.StartItem(evs, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
			}
			for i := range 5000 { // more than an arena chunk of ids
				text := strconv.Itoa(call) + "." + strconv.Itoa(i)
				evs = w.Delta(evs, "m", 0, PartText, text, SourceAgent, []byte(`{"d":"`+text+`"}`))
			}
			check := func(evs []Event, call int) {
				t.Helper()
				for i, ev := range evs[len(evs)-5000:] {
					text := strconv.Itoa(call) + "." + strconv.Itoa(i)
					d := ev.Data.(*ItemDelta)
					if d.Delta != text || string(ev.Raw) != `{"d":"`+text+`"}` || ev.EventID != "evt_sess_"+strconv.FormatInt(ev.Sequence, 10) {
						t.Fatalf("reuse %v, call %d, delta %d: %s %q %s", reuse, call, i, ev.EventID, d.Delta, ev.Raw)
					}
				}
			}
			check(evs, call)
			if call == 0 {
				kept = evs
			}
		}
		if !reuse {
			check := kept[len(kept)-5000:]
			for i, ev := range check {
				if d := ev.Data.(*ItemDelta); d.Delta != "0."+strconv.Itoa(i) {
					t.Fatalf("an event of the first call changed: %q", d.Delta)
				}
			}
		}
	}
}

// Event ids are counted up in place from the last one: across carries
// (9 to 10, 99 to 100), after a restore, and with a session id that ends
// in digits, each is still "evt_<session>_<sequence>".
func TestEventIDs(t *testing.T) {
	for _, session := range []string{"sess", "s99", "x_9"} {
		st := NewStamper(Options{SessionID: session})
		var evs []Event
		check := func() {
			t.Helper()
			for _, ev := range evs {
				if want := "evt_" + session + "_" + strconv.FormatInt(ev.Sequence, 10); ev.EventID != want {
					t.Fatalf("event %d: id %q, want %q", ev.Sequence, ev.EventID, want)
				}
			}
		}
		for range 1200 {
			evs = st.Emit(evs, TypeError, SourceAgent, &Error{Message: "x"}, nil)
		}
		check()
		// With ReuseEvents, the memory of the last id is handed out
		// again after Recycle, and the next id is still right.
		rt := NewStamper(Options{SessionID: session, ReuseEvents: true, IncludeRaw: true})
		for i := range 1200 {
			if i%7 == 0 {
				rt.Recycle()
				evs = evs[:0]
			}
			evs = rt.Emit(evs, TypeError, SourceAgent, &Error{Message: "x"}, []byte(`{"a":1}`))
			check()
		}
		st.Restore(StamperState{Sequence: 98})
		evs = evs[:0]
		for range 5 {
			evs = st.Emit(evs, TypeError, SourceAgent, &Error{Message: "x"}, nil)
		}
		check()
		if evs[0].Sequence != 99 {
			t.Fatalf("after restore: sequence %d", evs[0].Sequence)
		}
	}
}

// Emit writes every field of the event into the slot it appends, which
// may hold an event of an earlier call: a field it does not write would
// leak that event's value.
func TestEmitWritesEveryField(t *testing.T) {
	if n := reflect.TypeFor[Event]().NumField(); n != 13 {
		t.Fatalf("Event has %d fields; Stamper.Emit writes 13: write the new ones there, and count them here", n)
	}
	st := NewStamper(Options{})
	stale := Event{EventID: "x", Sequence: 9, Time: time.Unix(1, 0), SessionID: "y", NativeSessionID: "z",
		Synthetic: true, Source: "w", Type: "v", Data: &Error{}, Raw: []byte("{}"),
		Extra: []Field{{Name: "a"}}, CleanJSON: true, Transient: true}
	evs := append(make([]Event, 0, 1), stale)[:0]
	evs = st.Emit(evs, TypeError, SourceAgent, &Error{Message: "m"}, []byte(`{"raw":1}`))
	want := Event{EventID: "evt_sess_1", Sequence: 1, Time: DefaultEpoch(), SessionID: "sess",
		Source: SourceAgent, Type: TypeError, Data: &Error{Message: "m"}}
	if diff := cmp.Diff(want, evs[0]); diff != "" {
		t.Errorf("event (-want +got):\n%s", diff)
	}
}

// With ReuseEvents, the item snapshots of a call's events (started and
// completed) are memory the next call hands out again; whatever a
// translator asks of the stream, and wherever its calls end, each call's
// events are the same as without the option while that call's events are
// in use.
func TestPropReuseEventsSnapshots(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ids := []string{"a", "b", "c", "d", "e"}
		id := rapid.SampledFrom(ids)
		ptype := rapid.SampledFrom([]PartType{PartText, PartReasoning, PartToolCall, PartToolResult, PartStatus})
		text := rapid.SampledFrom([]string{"", "x", "héllo ", "a longer text of a message"})
		part := rapid.Custom(func(t *rapid.T) Part {
			p := Part{Type: ptype.Draw(t, "part type")}
			switch p.Type {
			case PartToolCall:
				p.Name, p.Arguments = "n", `{"a":1}`
			case PartStatus:
				p.Label = "l"
			case PartReasoning:
				p.Visibility = VisibilityPublic
			}
			if p.Type != PartToolCall {
				p.SetStreamed(text.Draw(t, "part text"))
			}
			return p
		})
		item := func(t *rapid.T) Item {
			return Item{ItemID: id.Draw(t, "id"), Kind: rapid.SampledFrom([]Kind{KindMessage, KindToolCall, KindStatus}).Draw(t, "kind"),
				Role: RoleAssistant, Content: rapid.SliceOfN(part, 0, 3).Draw(t, "content")}
		}
		// The operations are drawn once and done on both streams.
		type op func(w *Stream, evs []Event) []Event
		var ops []op
		for range rapid.IntRange(1, 40).Draw(t, "steps") {
			switch rapid.IntRange(0, 4).Draw(t, "op") {
			case 0:
				it := item(t)
				ops = append(ops, func(w *Stream, evs []Event) []Event { return w.StartItem(evs, it, SourceAgent, nil) })
			case 1:
				id, i, typ, s := id.Draw(t, "id"), rapid.IntRange(0, 2).Draw(t, "index"), ptype.Draw(t, "type"), text.Draw(t, "text")
				ops = append(ops, func(w *Stream, evs []Event) []Event { return w.Delta(evs, id, i, typ, s, SourceAgent, nil) })
			case 2:
				it := item(t)
				ops = append(ops, func(w *Stream, evs []Event) []Event { return w.Complete(evs, it, SourceAgent, nil) })
			case 3:
				id := id.Draw(t, "id")
				ops = append(ops, func(w *Stream, evs []Event) []Event { return w.Close(evs, id, StatusCompleted, SourceAgent, nil) })
			case 4:
				ops = append(ops, nil) // the end of a translator's call
			}
		}
		kept := NewStream("test", Options{SessionID: "s"})
		reused := NewStream("test", Options{SessionID: "s", ReuseEvents: true})
		var want, got []Event
		var wantJSON, gotJSON []byte
		end := func() {
			for i := range want {
				wantJSON = want[i].AppendJSON(wantJSON)
			}
			for i := range got {
				gotJSON = got[i].AppendJSON(gotJSON)
			}
			want, got = want[:0], got[:0]
			kept.Recycle()
			reused.Recycle()
		}
		for _, o := range ops {
			if o == nil {
				end()
				continue
			}
			want, got = o(kept, want), o(reused, got)
		}
		end()
		if string(gotJSON) != string(wantJSON) {
			t.Fatalf("with ReuseEvents:\n%s\nwithout:\n%s", gotJSON, wantJSON)
		}
	})
}

// With ReuseEvents, an item that arrives whole costs no allocation of
// its own once the stream is warm: its snapshots are the last call's
// memory.
func TestReuseEventsWholeItemsAllocateNothing(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, reuse := range []bool{false, true} {
		w := NewStream("s", Options{ReuseEvents: reuse})
		evs := make([]Event, 0, 16)
		// The ids are made before: their strings are not counted.
		ids := make([]string, 2*1200)
		for i := range ids {
			ids[i] = "i" + strconv.Itoa(i)
		}
		text := []Part{Text("some text")}
		toolCall := []Part{{Type: PartToolCall, Name: "bash", Arguments: `{"command":"ls"}`, ToolKind: ToolExecute}}
		n := 0
		call := func() {
			w.Recycle()
			n++
			evs = w.Complete(evs[:0], Item{ItemID: ids[2*n], Kind: KindMessage, Role: RoleAssistant, Content: text}, SourceAgent, nil)
			evs = w.Complete(evs, Item{ItemID: ids[2*n+1], Kind: KindToolCall, Role: RoleAssistant, Content: toolCall}, SourceAgent, nil)
		}
		for range 100 {
			call()
		}
		// What is left is the map of seen ids growing.
		allocs := testing.AllocsPerRun(1000, call)
		switch {
		case reuse && allocs > 0.5:
			t.Errorf("ReuseEvents: %.2f allocations a call of two whole items, want the snapshots' memory reused", allocs)
		case !reuse && allocs < 2:
			t.Errorf("without ReuseEvents: %.2f allocations a call of two whole items; are events still kept valid?", allocs)
		}
		if s := evs[3].Data.(*ItemSnapshot); s.Item.ItemID != ids[2*n+1] || s.Item.Content[0].Arguments != `{"command":"ls"}` {
			t.Errorf("reuse %v: last completion %+v", reuse, s.Item)
		}
	}
}
