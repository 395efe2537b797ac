package notify

import (
	"testing"
	"time"
	"unsafe"

	"github.com/agentnorm/agentnorm/universal"
)

// events numbers and stamps events a second apart, as a producer that
// does not hold the stream contract (universal NDJSON from elsewhere) may
// send them: a message that never completes.
type events struct {
	seq int64
	t   time.Time
}

func (e *events) ev(typ universal.Type, d universal.Data) *universal.Event {
	e.seq++
	e.t = e.t.Add(time.Second)
	return &universal.Event{EventID: "e", Sequence: e.seq, Time: e.t, SessionID: "s", Source: universal.SourceAgent, Type: typ, Data: d}
}

func message(id string) *universal.ItemSnapshot {
	return &universal.ItemSnapshot{Item: universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Status: universal.StatusInProgress, Content: []universal.Part{universal.Text("")}}}
}

func apply(t *testing.T, f *Feed, ev *universal.Event) {
	t.Helper()
	if err := f.Apply(ev); err != nil {
		t.Fatal(err)
	}
}

// A message that never gets its item.completed (its stream was cut off,
// or its producer forgot it) was kept in the feed's growing messages for
// the life of the process; it is freed when its turn ends, and every one
// when the session stops running.
func TestGrowFreed(t *testing.T) {
	var e events
	f := NewFeed(Options{Throttle: 2 * time.Second})
	apply(t, f, e.ev(universal.TypeSessionStarted, &universal.SessionStarted{}))
	for turn := range 3 {
		tid := string(rune('a' + turn))
		apply(t, f, e.ev(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: tid}))
		apply(t, f, e.ev(universal.TypeItemStarted, message("m"+tid)))
		for range 3 {
			apply(t, f, e.ev(universal.TypeItemDelta, &universal.ItemDelta{ItemID: "m" + tid, PartType: universal.PartText, Delta: "more "}))
		}
		if len(f.grow) != 1 {
			t.Fatalf("turn %s: %d messages growing, want 1", tid, len(f.grow))
		}
		apply(t, f, e.ev(universal.TypeTurnEnded, &universal.TurnEnded{TurnID: tid, Status: universal.TurnCompleted}))
		if len(f.grow) != 0 {
			t.Errorf("turn %s ended: %d messages still kept as growing: %v", tid, len(f.grow), f.grow)
		}
	}
	// Without turns: the session's end frees them.
	apply(t, f, e.ev(universal.TypeItemStarted, message("loose")))
	apply(t, f, e.ev(universal.TypeItemDelta, &universal.ItemDelta{ItemID: "loose", PartType: universal.PartText, Delta: "x"}))
	if len(f.grow) != 1 {
		t.Fatalf("%d messages growing, want 1", len(f.grow))
	}
	apply(t, f, e.ev(universal.TypeSessionEnded, &universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}))
	if len(f.grow) != 0 {
		t.Errorf("session ended: %d messages still kept as growing", len(f.grow))
	}
}

// A transient delta's item id is memory its translator reuses for its
// next events: the feed kept it as the key of the growing message, which
// then named another item (or garbage), and the message's completion did
// not free it.
func TestGrowKeyOfTransientDelta(t *testing.T) {
	var e events
	f := NewFeed(Options{Throttle: time.Second}) // the delta notifies: the key is stored again
	apply(t, f, e.ev(universal.TypeSessionStarted, &universal.SessionStarted{}))
	apply(t, f, e.ev(universal.TypeItemStarted, message("m1")))
	buf := []byte("m1")
	ev := e.ev(universal.TypeItemDelta, &universal.ItemDelta{ItemID: unsafe.String(&buf[0], len(buf)), PartType: universal.PartText, Delta: "hi"})
	ev.Transient = true
	apply(t, f, ev)
	copy(buf, "zz") // the translator's next event reuses the memory
	done := message("m1")
	done.Item.Status = universal.StatusCompleted
	done.Item.Content = []universal.Part{universal.Text("hi")}
	apply(t, f, e.ev(universal.TypeItemCompleted, done))
	if len(f.grow) != 0 {
		t.Errorf("after the message completed: growing %v", f.grow)
	}
}
