package reduce_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// An op is one step of a generated session. Its fields are interpreted
// against the session built so far (which open item, which part …), so
// that rapid can shrink a log by dropping ops.
type op struct {
	Kind int
	N    int
	Text string
	Flag bool
}

var textGen = rapid.OneOf(
	rapid.SampledFrom([]string{"", "a", "bc", " ", "é", "✅", "\n", "<&>", `"q"`, "\\", "Hello, world. "}),
	rapid.StringN(1, 8, -1),
)

// opKinds weighs the ops: deltas are the most common events of a real
// session, so they are the most common ops.
var opKinds = []int{0, 1, 2, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10, 11, 12, 13, 14, 15}

var opGen = rapid.Custom(func(t *rapid.T) op {
	return op{
		Kind: rapid.SampledFrom(opKinds).Draw(t, "kind"),
		N:    rapid.IntRange(0, 7).Draw(t, "n"),
		Text: textGen.Draw(t, "text"),
		Flag: rapid.Bool().Draw(t, "flag"),
	}
})

var streamTypes = []universal.PartType{universal.PartText, universal.PartReasoning, universal.PartToolCall, universal.PartToolResult}

// wellFormed builds a well-formed log from ops through universal.Stream,
// which is what every translator emits through.
func wellFormed(ops []op, end bool) []universal.Event {
	const src = universal.SourceAgent
	w := universal.NewStream("gen", universal.Options{SessionID: "s"})
	evs := w.Begin(nil, []byte(`{"agent":"gen","model":"m"}`), src, nil)
	var items []string // every item id, in start order
	perms, questions := 0, 0
	pick := func(n int) (string, bool) {
		var open []string
		for _, id := range items {
			if w.IsOpen(id) {
				open = append(open, id)
			}
		}
		if len(open) == 0 {
			return "", false
		}
		return open[n%len(open)], true
	}
	for _, o := range ops {
		switch o.Kind {
		case 0:
			evs, _ = w.StartTurn(evs, "", nil, src, nil)
		case 1:
			st := []universal.TurnStatus{universal.TurnCompleted, universal.TurnInterrupted, universal.TurnError}[o.N%3]
			evs = w.EndTurn(evs, "", st, nil, src, nil)
		case 2, 3:
			it := genItem(w.NewItemID(), o)
			items = append(items, it.ItemID)
			evs = w.StartItem(evs, it, src, nil)
		case 4, 5, 6, 7:
			id, ok := pick(o.N)
			if !ok {
				continue
			}
			it, _ := w.Tracked(id)
			i := len(it.Content)
			typ := streamTypes[o.N%len(streamTypes)]
			if !o.Flag && i > 0 && it.Content[o.N%i].Type.Streams() {
				i = o.N % i
				typ = it.Content[i].Type
			}
			evs = w.Delta(evs, id, i, typ, o.Text, src, nil)
		case 8, 9:
			id, ok := pick(o.N)
			if !ok {
				continue
			}
			it, _ := w.Tracked(id)
			finalize(&it, o)
			evs = w.Complete(evs, it, src, nil)
		case 10:
			it := genItem(w.NewItemID(), o)
			items = append(items, it.ItemID)
			evs = w.Complete(evs, it, src, nil)
		case 11:
			evs = w.Emit(evs, universal.TypeError, src, &universal.Error{Message: "e" + o.Text, WillRetry: o.Flag}, nil)
		case 12:
			scope := []universal.UsageScope{universal.ScopeCall, universal.ScopeTurn, universal.ScopeSession}[o.N%3]
			in, out := int64(o.N*10+len(o.Text)), int64(o.N)
			d := &universal.UsageUpdated{Scope: scope, Usage: universal.Usage{InputTokens: &in, OutputTokens: &out}}
			if o.Flag {
				c := float64(o.N) / 4
				d.CostUSD = &c
			}
			evs = w.Emit(evs, universal.TypeUsageUpdated, src, d, nil)
		case 13:
			id := "p" + strconv.Itoa(o.N%3)
			switch {
			case w.PermissionPending(id):
				st := universal.PermissionApproved
				if o.Flag {
					st = universal.PermissionDenied
				}
				evs = w.ResolvePermission(evs, universal.Permission{PermissionID: id, Status: st}, src, nil)
			case perms < 3:
				perms++
				evs = w.RequestPermission(evs, universal.Permission{PermissionID: "p" + strconv.Itoa(perms-1), Action: o.Text}, src, nil)
			}
		case 14:
			id := "q" + strconv.Itoa(o.N%3)
			switch {
			case w.QuestionPending(id):
				evs = w.ResolveQuestion(evs, universal.Question{QuestionID: id, Response: o.Text, Status: universal.QuestionAnswered}, src, nil)
			case questions < 3:
				questions++
				evs = w.AskQuestion(evs, universal.Question{QuestionID: "q" + strconv.Itoa(questions-1), Prompt: o.Text, Options: []string{"y", "n"}}, src, nil)
			}
		case 15:
			if o.Flag {
				w.SetNativeSessionID("native-" + strconv.Itoa(o.N))
			}
		}
	}
	if end {
		evs = w.End(evs, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, src, nil)
	}
	return evs
}

// genItem makes an item of a kind the op chooses, possibly with content.
func genItem(id string, o op) universal.Item {
	it := universal.Item{ItemID: id}
	switch o.N % 4 {
	case 0:
		it.Kind, it.Role = universal.KindMessage, universal.RoleAssistant
	case 1:
		it.Kind, it.Role = universal.KindMessage, universal.RoleUser
	case 2:
		it.Kind, it.Role = universal.KindToolCall, universal.RoleAssistant
		it.Content = []universal.Part{{Type: universal.PartToolCall, Name: "bash", CallID: "k" + id}}
	case 3:
		it.Kind, it.Role = universal.KindToolResult, universal.RoleTool
		it.Content = []universal.Part{{Type: universal.PartToolResult, CallID: "k" + id}}
	}
	if o.Flag && o.Text != "" {
		it.Content = append(it.Content, universal.Text(o.Text))
	}
	return it
}

// finalize turns a tracked item into the final snapshot the op chooses: as
// streamed, extended, rewritten, failed, or with a part more.
func finalize(it *universal.Item, o op) {
	i := -1
	for j := range it.Content {
		if it.Content[j].Type == universal.PartText {
			i = j
		}
	}
	switch o.N % 5 {
	case 1:
		if i >= 0 {
			it.Content[i].Text += o.Text
		}
	case 2:
		if i >= 0 {
			it.Content[i].Text = o.Text
		}
	case 3:
		it.Status = universal.StatusFailed
	case 4:
		it.Content = append(it.Content, universal.Part{Type: universal.PartStatus, Label: "done", Detail: o.Text})
	}
}

// opsGen makes short op lists (which shrink well) and long ones (which
// rapid's default lengths, about five, would rarely reach).
var opsGen = rapid.OneOf(rapid.SliceOfN(opGen, 0, 150), rapid.SliceOfN(opGen, 40, 300))

var wellFormedGen = rapid.Custom(func(t *rapid.T) []universal.Event {
	ops := opsGen.Draw(t, "ops")
	return wellFormed(ops, rapid.Bool().Draw(t, "end"))
})

// hostileGen makes logs that break every rule a stream may break while its
// sequence stays gap-free: events for unknown items, impossible parts,
// mismatched data, unknown types, second starts and completions …
var hostileGen = rapid.Custom(func(t *rapid.T) []universal.Event {
	st := universal.NewStamper(universal.Options{SessionID: "s"})
	var evs []universal.Event
	n := rapid.IntRange(0, 80).Draw(t, "events")
	ids := rapid.SampledFrom([]string{"a", "b", "c", ""})
	turns := rapid.SampledFrom([]string{"t1", "t2", ""})
	parts := rapid.SampledFrom([]universal.PartType{"text", "reasoning", "tool_call", "tool_result", "image", "json", "bogus"})
	item := func(t *rapid.T) universal.Item {
		it := universal.Item{
			ItemID:   ids.Draw(t, "id"),
			ParentID: ids.Draw(t, "parent"),
			Kind:     rapid.SampledFrom([]universal.Kind{"message", "tool_call", "tool_result", "unknown", "", "weird"}).Draw(t, "kind"),
			Role:     rapid.SampledFrom([]universal.Role{"assistant", "user", "", "alien"}).Draw(t, "role"),
			Status:   rapid.SampledFrom([]universal.ItemStatus{"in_progress", "completed", "failed", ""}).Draw(t, "status"),
		}
		for range rapid.IntRange(0, 3).Draw(t, "parts") {
			p := universal.Part{Type: parts.Draw(t, "part type"), CallID: rapid.SampledFrom([]string{"", "k1", "k2"}).Draw(t, "call id")}
			p.SetStreamed(textGen.Draw(t, "part text"))
			if rapid.Bool().Draw(t, "metadata") {
				p.Metadata = json.RawMessage(rapid.SampledFrom([]string{`{"x": 1}`, `not json`, `null`, `[1,2]`}).Draw(t, "raw"))
			}
			it.Content = append(it.Content, p)
		}
		return it
	}
	for range n {
		var typ universal.Type
		var d universal.Data
		switch k := rapid.IntRange(0, 17).Draw(t, "type"); k {
		case 0:
			typ, d = universal.TypeSessionStarted, &universal.SessionStarted{Metadata: json.RawMessage(`{"agent": "x"}`)}
		case 1:
			typ, d = universal.TypeSessionEnded, &universal.SessionEnded{Reason: rapid.SampledFrom([]universal.EndReason{"completed", "error", "terminated", "odd"}).Draw(t, "reason")}
		case 2:
			typ, d = universal.TypeTurnStarted, &universal.TurnStarted{TurnID: turns.Draw(t, "turn")}
		case 3:
			typ, d = universal.TypeTurnEnded, &universal.TurnEnded{TurnID: turns.Draw(t, "turn"), Status: rapid.SampledFrom([]universal.TurnStatus{"completed", "error", "interrupted", "odd"}).Draw(t, "turn status")}
		case 4, 5:
			typ, d = universal.TypeItemStarted, &universal.ItemSnapshot{Item: item(t)}
		case 6, 7, 8:
			typ, d = universal.TypeItemDelta, &universal.ItemDelta{ItemID: ids.Draw(t, "id"), PartIndex: rapid.IntRange(-1, 3).Draw(t, "index"), PartType: parts.Draw(t, "delta type"), Delta: textGen.Draw(t, "delta")}
		case 9, 10:
			typ, d = universal.TypeItemCompleted, &universal.ItemSnapshot{Item: item(t)}
		case 11:
			typ, d = universal.TypeError, &universal.Error{Message: "x", WillRetry: rapid.Bool().Draw(t, "retry"), Details: json.RawMessage(`{"a" : [1]}`)}
		case 12:
			typ = rapid.SampledFrom([]universal.Type{universal.TypePermissionRequested, universal.TypePermissionResolved}).Draw(t, "permission")
			d = &universal.Permission{PermissionID: ids.Draw(t, "pid"), Status: rapid.SampledFrom([]universal.PermissionStatus{"requested", "approved", "denied", "odd"}).Draw(t, "pstatus")}
		case 13:
			typ = rapid.SampledFrom([]universal.Type{universal.TypeQuestionRequested, universal.TypeQuestionResolved}).Draw(t, "question")
			d = &universal.Question{QuestionID: ids.Draw(t, "qid"), Status: rapid.SampledFrom([]universal.QuestionStatus{"requested", "answered", "rejected", "odd"}).Draw(t, "qstatus")}
		case 14:
			in := rapid.Int64Range(-5, 100).Draw(t, "tokens")
			d = &universal.UsageUpdated{TurnID: turns.Draw(t, "turn"), Scope: rapid.SampledFrom([]universal.UsageScope{"call", "turn", "session", "odd"}).Draw(t, "scope"), Usage: universal.Usage{InputTokens: &in}}
			typ = universal.TypeUsageUpdated
		case 15:
			typ, d = universal.TypeUnparsed, &universal.Unparsed{Error: "bad", Location: "line 1"}
		case 16:
			typ, d = "vendor.custom", &universal.Unknown{JSON: json.RawMessage(`{"a":1}`)}
		case 17: // data that does not match the type, or none
			typ = rapid.SampledFrom([]universal.Type{universal.TypeItemDelta, universal.TypeItemStarted, universal.TypeTurnEnded, universal.TypeError}).Draw(t, "mismatched")
			d = rapid.SampledFrom([]universal.Data{nil, &universal.Unparsed{}, (*universal.ItemSnapshot)(nil), &universal.SessionStarted{}}).Draw(t, "data")
		}
		evs = st.Emit(evs, typ, universal.SourceAgent, d, nil)
	}
	return evs
})

var anyLogGen = rapid.OneOf(wellFormedGen, hostileGen)

// TestPropReplayIsDeterministic: the same log folds to the same state, and
// a well-formed log folds without anomalies to the items the golden
// harness's transcript computes independently.
func TestPropReplayIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hostile := rapid.Bool().Draw(t, "hostile")
		var log []universal.Event
		if hostile {
			log = hostileGen.Draw(t, "log")
		} else {
			log = wellFormedGen.Draw(t, "log")
		}
		a, b := replay(t, log), replay(t, log)
		if ja, jb := stateJSON(t, a), stateJSON(t, b); !bytes.Equal(ja, jb) {
			t.Fatalf("two replays differ:\n%s", diffState(t, a, b))
		}
		if hostile {
			return
		}
		c := universal.NewChecker()
		for i := range log {
			if err := c.Check(&log[i]); err != nil {
				t.Fatalf("the well-formed generator made a broken log: %v", err)
			}
		}
		if len(a.Anomalies) != 0 {
			t.Fatalf("well-formed log, anomalies: %v", a.Anomalies)
		}
		if c.Finish() != nil {
			return // items still open: the transcript only knows snapshots
		}
		var items []universal.Item
		for _, it := range a.Items() {
			items = append(items, it.Item)
		}
		if diff := cmp.Diff(transcriptItems(log), items); diff != "" {
			t.Fatalf("items differ from the transcript (-want +got):\n%s", diff)
		}
	})
}

// TestPropWellFormedGenerator: the generator of well-formed logs does make
// well-formed logs (else the properties above prove less than they say).
func TestPropWellFormedGenerator(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ops := opsGen.Draw(t, "ops")
		if err := universal.CheckStream(wellFormed(ops, true)); err != nil {
			t.Fatalf("generated log is not well-formed: %v", err)
		}
	})
}

// TestPropReapplyChangesNothing: re-applying any event already applied is
// a no-op, at any point of any log.
func TestPropReapplyChangesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := anyLogGen.Draw(t, "log")
		if len(log) == 0 {
			return
		}
		k := rapid.IntRange(1, len(log)).Draw(t, "applied")
		s := replay(t, log[:k])
		before := stateJSON(t, s)
		for _, j := range rapid.SliceOfN(rapid.IntRange(0, k-1), 1, 5).Draw(t, "again") {
			c, err := s.Apply(&log[j])
			if err != nil || !c.Duplicate || c.What != 0 {
				t.Fatalf("re-applying %d after %d: %+v, %v", log[j].Sequence, k, c, err)
			}
		}
		if after := stateJSON(t, s); !bytes.Equal(before, after) {
			t.Fatalf("re-applying changed the state:\n%s\n%s", before, after)
		}
	})
}

// TestPropSnapshotRestore: the state at version V, through JSON, plus the
// events after V equals the state of the whole log — for generated logs and
// the recorded golden streams.
func TestPropSnapshotRestore(t *testing.T) {
	var recorded [][]universal.Event
	for _, path := range goldenStreams(t) {
		recorded = append(recorded, readStream(t, path))
	}
	logs := rapid.OneOf(anyLogGen, rapid.SampledFrom(recorded))
	rapid.Check(t, func(t *rapid.T) {
		log := logs.Draw(t, "log")
		v := rapid.IntRange(0, len(log)).Draw(t, "version")
		full := replay(t, log)
		s := restore(t, replay(t, log[:v]))
		if s.Sequence != int64(v) {
			t.Fatalf("restored version %d, want %d", s.Sequence, v)
		}
		for _, ev := range reduce.Since(log, s.Sequence) {
			if _, err := s.Apply(&ev); err != nil {
				t.Fatalf("applying %d after the snapshot: %v", ev.Sequence, err)
			}
		}
		if !bytes.Equal(stateJSON(t, full), stateJSON(t, s)) {
			t.Fatalf("snapshot at %d + rest differs from the full replay (-full +restored):\n%s", v, diffState(t, full, s))
		}
		checkLookups(t, s)
	})
}

// renumber gives a log that lost events gap-free sequences again, as a
// daemon's log would have had.
func renumber(log []universal.Event) []universal.Event {
	out := make([]universal.Event, len(log))
	for i, ev := range log {
		ev.Sequence = int64(i + 1)
		ev.EventID = "evt_" + strconv.Itoa(i+1)
		out[i] = ev
	}
	return out
}

// TestPropMissedDeltas: dropping any deltas of items that complete does not
// change the final items; dropping their starts too still reconstructs
// every item from its completion alone (seed 004 §8.6).
func TestPropMissedDeltas(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log := wellFormedGen.Draw(t, "log")
		completed := map[string]bool{}
		for _, ev := range log {
			if ev.Type == universal.TypeItemCompleted {
				completed[ev.Data.(*universal.ItemSnapshot).Item.ItemID] = true
			}
		}
		dropStarts := rapid.Bool().Draw(t, "drop starts")
		var kept []universal.Event
		for i, ev := range log {
			var id string
			switch d := ev.Data.(type) {
			case *universal.ItemDelta:
				id = d.ItemID
			case *universal.ItemSnapshot:
				if ev.Type == universal.TypeItemStarted && dropStarts {
					id = d.Item.ItemID
				}
			}
			if id != "" && completed[id] && rapid.Bool().Draw(t, "drop "+strconv.Itoa(i)) {
				continue
			}
			kept = append(kept, ev)
		}
		want, got := replay(t, log), replay(t, renumber(kept))
		finals := func(s *reduce.Session) map[string]universal.Item {
			m := map[string]universal.Item{}
			for _, it := range s.Items() {
				if completed[it.Item.ItemID] {
					m[it.Item.ItemID] = it.Item
				}
			}
			return m
		}
		if diff := cmp.Diff(finals(want), finals(got)); diff != "" {
			t.Fatalf("completed items differ (-all events +missed deltas):\n%s", diff)
		}
		if dropStarts {
			return
		}
		// With every start kept, the order and turns of items are kept too.
		type place struct{ ID, Turn string }
		places := func(s *reduce.Session) []place {
			var p []place
			for _, it := range s.Items() {
				p = append(p, place{it.Item.ItemID, it.TurnID})
			}
			return p
		}
		if diff := cmp.Diff(places(want), places(got)); diff != "" {
			t.Fatalf("item order differs (-all events +missed deltas):\n%s", diff)
		}
	})
}

// TestPropNoPanic: any event sequence — hostile data, duplicated,
// skipped or invalid sequences, other sessions — folds without a panic;
// refused events are refused with one of the documented errors and leave
// the state untouched; the state always survives a JSON round trip.
func TestPropNoPanic(t *testing.T) {
	rapid.Check(t, propNoPanic)
}

// FuzzNoPanic runs the same property under go test -fuzz, with the fuzzer
// choosing rapid's draws.
func FuzzNoPanic(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propNoPanic))
}

func propNoPanic(t *rapid.T) {
	log := anyLogGen.Draw(t, "log")
	var s reduce.Session
	for i := range log {
		ev := log[i]
		switch rapid.IntRange(0, 9).Draw(t, "envelope") {
		case 0:
			ev.Sequence = rapid.Int64Range(-2, int64(len(log))+2).Draw(t, "sequence")
		case 1:
			ev.SessionID = rapid.SampledFrom([]string{"", "other"}).Draw(t, "session")
		case 2:
			ev.NativeSessionID = rapid.SampledFrom([]string{"n1", "n2"}).Draw(t, "native")
		}
		before := stateJSON(t, &s)
		_, err := s.Apply(&ev)
		if err != nil {
			if !errors.Is(err, reduce.ErrGap) && !errors.Is(err, reduce.ErrOtherSession) && !errors.Is(err, reduce.ErrSequence) {
				t.Fatalf("undocumented error: %v", err)
			}
			if after := stateJSON(t, &s); !bytes.Equal(before, after) {
				t.Fatalf("a refused event (%v) changed the state", err)
			}
		}
	}
	r := restore(t, &s)
	if !bytes.Equal(stateJSON(t, &s), stateJSON(t, r)) {
		t.Fatalf("JSON round trip differs:\n%s", diffState(t, &s, r))
	}
	checkLookups(t, &s)
	checkLookups(t, r)
}
