package reduce_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// applyEach folds evs one Apply at a time, as the reference: the change
// and the error of each event.
func applyEach(evs []universal.Event) (*reduce.Session, []reduce.Change, []error) {
	var s reduce.Session
	changes := make([]reduce.Change, len(evs))
	errs := make([]error, len(evs))
	for i := range evs {
		changes[i], errs[i] = s.Apply(&evs[i])
	}
	return &s, changes, errs
}

// applyBatches folds evs with ApplyAll, size events a call (the last
// call fewer), each batch's memory overwritten once its call returns. A
// batch that stops at a rejected event goes on after it, as a host that
// logs the error would. It fails t where a change or an error differs
// from want's.
func applyBatches(t interface {
	Helper()
	Fatalf(string, ...any)
}, name string, evs []universal.Event, size int, want []reduce.Change, wantErrs []error) *reduce.Session {
	t.Helper()
	var s reduce.Session
	var changes []reduce.Change
	for start := 0; start < len(evs); {
		end := min(start+size, len(evs))
		batch, wipe := wiped(evs[start:end])
		var err error
		changes, err = s.ApplyAll(changes[:0], batch)
		n := len(changes)
		// Changes name the event's item: compare before the wipe.
		if diff := cmp.Diff(want[start:start+n], changes); diff != "" {
			t.Fatalf("%s: batches of %d, events %d to %d: changes differ (-Apply +ApplyAll):\n%s", name, size, start, end, diff)
		}
		for k := start; k < start+n; k++ {
			if wantErrs[k] != nil {
				t.Fatalf("%s: batches of %d: event %d: Apply rejects it (%v), ApplyAll applied it", name, size, k, wantErrs[k])
			}
		}
		wipe()
		if err != nil {
			if k := start + n; k >= end || wantErrs[k] == nil || err.Error() != wantErrs[k].Error() {
				t.Fatalf("%s: batches of %d: ApplyAll stopped at event %d with %v; Apply: %v", name, size, start+n, err, wantErrs[min(start+n, len(wantErrs)-1)])
			}
			start += n + 1
			continue
		}
		start = end
	}
	return &s
}

// TestApplyAll: folding every golden stream with ApplyAll, in batches of
// several sizes whose memory is overwritten once each call returns, gives
// the changes and the state of applying each event on its own.
func TestApplyAll(t *testing.T) {
	for k, path := range goldenStreams(t) {
		if (testing.Short() || raceEnabled) && k%8 != 0 {
			continue // the race detector makes the copies slow
		}
		evs := readStream(t, path)
		want, changes, errs := applyEach(evs)
		for _, size := range []int{1, 2, 3, 5, 16, len(evs)} {
			got := applyBatches(t, path, evs, max(size, 1), changes, errs)
			if a, b := stateJSON(t, want), stateJSON(t, got); !bytes.Equal(a, b) {
				t.Fatalf("%s: batches of %d: the state differs:\n%s", path, size, diffState(t, want, got))
			}
		}
	}
}

// TestPropApplyAll: the same for generated logs, hostile ones included
// (events out of sequence, which ApplyAll stops at), cut into batches of
// a drawn size.
func TestPropApplyAll(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := anyLogGen.Draw(t, "log")
		size := rapid.IntRange(1, len(log)+1).Draw(t, "batch")
		want, changes, errs := applyEach(log)
		got := applyBatches(t, "generated", log, size, changes, errs)
		if a, b := stateJSON(t, want), stateJSON(t, got); !bytes.Equal(a, b) {
			t.Fatalf("the state differs:\n%s", diffState(t, want, got))
		}
	})
}

// TestApplyAllParent: an item whose parent started in the same batch, both
// still open when ApplyAll returns, keeps its parent's id once the
// batch's memory is overwritten (the parent's id was the event's too).
func TestApplyAllParent(t *testing.T) {
	child := msg("c", universal.RoleAssistant)
	child.ParentID = "p"
	evs := newLog().begin().start(msg("p", universal.RoleAssistant)).start(child).evs
	batch, wipe := wiped(evs)
	var s reduce.Session
	if _, err := s.ApplyAll(nil, batch); err != nil {
		t.Fatal(err)
	}
	wipe()
	if it := s.Item("c"); it == nil || it.Item.ParentID != "p" {
		t.Fatalf("item c: %+v, want parent p", it)
	}
}

// TestApplyAllStops: ApplyAll stops at the first event Apply rejects,
// with the changes of those before it, applied.
func TestApplyAllStops(t *testing.T) {
	l := newLog().begin().start(msg("m", universal.RoleAssistant)).delta("m", 0, universal.PartText, "hi")
	evs := l.evs
	evs[2].Sequence += 5 // a gap
	var s reduce.Session
	changes, err := s.ApplyAll(nil, evs)
	if !errors.Is(err, reduce.ErrGap) || len(changes) != 2 {
		t.Fatalf("got %d changes and %v, want 2 and ErrGap", len(changes), err)
	}
	if s.Sequence != evs[1].Sequence || s.Item("m") == nil {
		t.Fatalf("state after the stop: sequence %d, item m %v; want the first two events applied", s.Sequence, s.Item("m"))
	}
}

// TestApplyAllCopiesOnce: an item that starts and completes in one batch
// is copied once. Folding a recorded stream with ApplyAll, a message's
// events a call, allocates fewer bytes than Apply does.
func TestApplyAllCopiesOnce(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	evs := readStream(t, goldenStreams(t)[0])
	for _, path := range goldenStreams(t) {
		if e := readStream(t, path); len(e) > len(evs) {
			evs = e
		}
	}
	bytesOf := func(fold func(s *reduce.Session)) uint64 {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range 5 {
			var s reduce.Session
			fold(&s)
		}
		runtime.ReadMemStats(&m1)
		return m1.TotalAlloc - m0.TotalAlloc
	}
	each := bytesOf(func(s *reduce.Session) {
		for i := range evs {
			s.Apply(&evs[i])
		}
	})
	var changes []reduce.Change
	all := bytesOf(func(s *reduce.Session) {
		// Batches of 8, about a translated message's events.
		for i := 0; i < len(evs); i += 8 {
			changes, _ = s.ApplyAll(changes[:0], evs[i:min(i+8, len(evs))])
		}
	})
	t.Logf("%d events: Apply allocates %d bytes, ApplyAll %d", len(evs), each/5, all/5)
	if all >= each {
		t.Errorf("ApplyAll allocates %d bytes, Apply %d: the starts are still copied", all/5, each/5)
	}
}

// ApplyAll folds a batch of events, such as those one Translate call
// returns, and reports the change of each.
func ExampleSession_ApplyAll() {
	var s reduce.Session
	var changes []reduce.Change
	changes, err := s.ApplyAll(changes[:0], session())
	if err != nil {
		panic(err)
	}
	var what reduce.What
	for _, c := range changes {
		what |= c.What
	}
	fmt.Println(len(changes), "events:", what)
	fmt.Printf("%s %q\n", s.Status, s.ItemAt(0).Text())
	// Output:
	// 9 events: status|session|turn|item_added|content|text|item_completed|usage
	// completed "Hello, world."
}

// TestApplyAllDeltaOfNewItem: the text of an item that started in the
// batch stays the event's until the batch ends; a later delta, in the
// batch or the next, goes on from it, and the state keeps its own copy
// once the batch's memory is overwritten.
func TestApplyAllDeltaOfNewItem(t *testing.T) {
	first := newLog().begin().
		start(msg("m", universal.RoleAssistant, universal.Text(""))).
		delta("m", 0, universal.PartText, "hello").
		start(msg("n", universal.RoleAssistant)).
		delta("n", 0, universal.PartText, "one").
		delta("n", 0, universal.PartText, " two")
	evs := first.evs
	batch, wipe := wiped(evs)
	var s reduce.Session
	if _, err := s.ApplyAll(nil, batch); err != nil {
		t.Fatal(err)
	}
	wipe()
	if got := s.Item("m").Text(); got != "hello" {
		t.Fatalf("item m: %q, want hello", got)
	}
	if got := s.Item("n").Text(); got != "one two" {
		t.Fatalf("item n: %q, want \"one two\"", got)
	}
	second := first.delta("m", 0, universal.PartText, " world").evs[len(evs):]
	batch, wipe = wiped(second)
	if _, err := s.ApplyAll(nil, batch); err != nil {
		t.Fatal(err)
	}
	wipe()
	if got := s.Item("m").Text(); got != "hello world" {
		t.Fatalf("item m: %q, want \"hello world\"", got)
	}
}

// TestApplyAllWholeItemCopiedOnce: an item whose start, text (one delta,
// as a translator gives a message that arrives whole) and completion come
// in one batch allocates no more than the same item without the delta:
// the delta's text is not copied before the completion is.
func TestApplyAllWholeItemCopiedOnce(t *testing.T) {
	const n = 50
	text := strings.Repeat("word ", 40)
	withDelta, without := newLog().begin(), newLog().begin()
	for i := range n {
		id := fmt.Sprintf("m%d", i)
		withDelta.start(msg(id, universal.RoleAssistant, universal.Text(""))).
			delta(id, 0, universal.PartText, text).
			complete(msg(id, universal.RoleAssistant, universal.Text(text)))
		without.start(msg(id, universal.RoleAssistant, universal.Text(""))).
			complete(msg(id, universal.RoleAssistant, universal.Text(text)))
	}
	allocs := func(evs []universal.Event) float64 {
		return testing.AllocsPerRun(20, func() {
			var s reduce.Session
			if _, err := s.ApplyAll(nil, evs); err != nil {
				t.Fatal(err)
			}
		})
	}
	a, b := allocs(withDelta.evs), allocs(without.evs)
	if a > b {
		t.Fatalf("%d whole items: %.0f allocations with a delta each, %.0f without", n, a, b)
	}
}

// TestSmallSessionAllocations bounds the allocations of folding a small
// session, as a host folds what a translator returns: most recorded
// sessions have a few dozen events, so what a session allocates once (its
// index, the lists it fills and empties again and again, trimming them at
// its end) counts as much as what each event does. The bound is what the
// fold takes: a new allocation here is one more for every session.
func TestSmallSessionAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	call := func(st universal.ItemStatus) universal.Item {
		return universal.Item{ItemID: "c1", Kind: universal.KindToolCall, Role: universal.RoleAssistant, Status: st,
			Content: []universal.Part{{Type: universal.PartToolCall, Name: "bash", CallID: "call_1", Arguments: `{"command":"ls"}`}}}
	}
	result := func(st universal.ItemStatus) universal.Item {
		return universal.Item{ItemID: "r1", Kind: universal.KindToolResult, Role: universal.RoleTool, Status: st,
			Content: []universal.Part{{Type: universal.PartToolResult, CallID: "call_1", Output: "a.go b.go"}}}
	}
	l := newLog().begin().turn("t1").
		start(msg("u1", universal.RoleUser, universal.Text("list the files"))).
		complete(msg("u1", universal.RoleUser, universal.Text("list the files")))
	batches := []int{len(l.evs)}
	next := func() { batches = append(batches, len(l.evs)) }
	l.start(msg("a1", universal.RoleAssistant)).delta("a1", 0, universal.PartText, "Let me ")
	next()
	l.delta("a1", 0, universal.PartText, "look.")
	next()
	l.complete(msg("a1", universal.RoleAssistant, universal.Text("Let me look."))).start(call(universal.StatusInProgress)).complete(call(""))
	next()
	l.start(result(universal.StatusInProgress)).complete(result(""))
	next()
	l.usage(universal.ScopeCall, "t1", 100, 20).usage(universal.ScopeCall, "t1", 120, 30)
	next()
	l.turnEnd("t1", universal.TurnCompleted).end(universal.EndCompleted)
	next()
	var changes []reduce.Change
	got := testing.AllocsPerRun(50, func() {
		var s reduce.Session
		from := 0
		for _, to := range batches {
			var err error
			if changes, err = s.ApplyAll(changes[:0], l.evs[from:to]); err != nil {
				t.Fatal(err)
			}
			from = to
		}
	})
	const want = 24
	t.Logf("%d events in %d batches: %.0f allocations", len(l.evs), len(batches), got)
	if got > want {
		t.Errorf("folding a small session: %.0f allocations, want at most %d", got, want)
	}
}

// TestOverlappingItemsReused: items that are open two at a time (a call
// and its result, a message beside a call), packed without being handed
// out, lend their memory to the next two items that start: folding ten
// such pairs allocates no more than the first pair's items and what the
// session allocates once.
func TestOverlappingItemsReused(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	item := func(id string, kind universal.Kind, st universal.ItemStatus, p universal.Part) universal.Item {
		return universal.Item{ItemID: id, Kind: kind, Role: universal.RoleAssistant, Status: st, Content: []universal.Part{p}}
	}
	allocs := func(pairs int) float64 {
		l := newLog().begin().turn("t1")
		for i := range pairs {
			call := universal.Part{Type: universal.PartToolCall, Name: "bash", CallID: fmt.Sprintf("call_%d", i), Arguments: "{}"}
			res := universal.Part{Type: universal.PartToolResult, CallID: call.CallID, Output: "ok"}
			c, r := fmt.Sprintf("c%d", i), fmt.Sprintf("r%d", i)
			l.start(item(c, universal.KindToolCall, universal.StatusInProgress, call)).
				start(item(r, universal.KindToolResult, universal.StatusInProgress, res)).
				complete(item(c, universal.KindToolCall, "", call)).
				complete(item(r, universal.KindToolResult, "", res))
		}
		var changes []reduce.Change
		return testing.AllocsPerRun(20, func() {
			var s reduce.Session
			var err error
			if changes, err = s.ApplyAll(changes[:0], l.evs); err != nil {
				t.Fatal(err)
			}
		})
	}
	one, ten := allocs(1), allocs(10)
	t.Logf("one pair: %.0f allocations, ten pairs: %.0f", one, ten)
	// The nine pairs after the first may allocate only for the growth of
	// the session's lists and arena, not for an item each.
	if ten-one > 9 {
		t.Errorf("ten overlapping pairs allocate %.0f more than one: %.1f a pair", ten-one, (ten-one)/9)
	}
}
