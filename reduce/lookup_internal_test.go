package reduce

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/agentnorm/agentnorm/universal"
)

// TestToolCallIsLinear: looking up every call and result of a session of n
// calls takes n steps, not n²/2. Each lookup is one index probe whose item
// has the call (the scan that ToolCall falls back to, for a call_id an item
// lost, never runs), and allocates nothing. Steps, not time: the count
// holds on any machine.
func TestToolCallIsLinear(t *testing.T) {
	const n = 5000
	st := universal.NewStamper(universal.Options{SessionID: "s"})
	var evs []universal.Event
	emit := func(typ universal.Type, d universal.Data) {
		evs = st.Emit(evs[:0], typ, universal.SourceAgent, d, nil)
	}
	var s Session
	apply := func(typ universal.Type, d universal.Data) {
		emit(typ, d)
		if _, err := s.Apply(&evs[0]); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		id := fmt.Sprintf("call_%d", i)
		apply(universal.TypeItemStarted, &universal.ItemSnapshot{Item: universal.Item{ItemID: "c" + id, Kind: universal.KindToolCall, Role: universal.RoleAssistant,
			Status: universal.StatusInProgress, Content: []universal.Part{{Type: universal.PartToolCall, Name: "bash", CallID: id}}}})
		apply(universal.TypeItemCompleted, &universal.ItemSnapshot{Item: universal.Item{ItemID: "c" + id, Kind: universal.KindToolCall, Role: universal.RoleAssistant,
			Status: universal.StatusCompleted, Content: []universal.Part{{Type: universal.PartToolCall, Name: "bash", CallID: id, Arguments: `{"cmd":"ls"}`}}}})
		apply(universal.TypeItemCompleted, &universal.ItemSnapshot{Item: universal.Item{ItemID: "r" + id, Kind: universal.KindToolResult, Role: universal.RoleTool,
			Status: universal.StatusCompleted, Content: []universal.Part{{Type: universal.PartToolResult, CallID: id, Output: "ok"}}}})
		apply(universal.TypeItemCompleted, &universal.ItemSnapshot{Item: universal.Item{ItemID: "m" + id, Kind: universal.KindMessage, Role: universal.RoleAssistant,
			Status: universal.StatusCompleted, Content: []universal.Part{universal.Text("done")}}})
	}
	// steps is what a lookup costs: 1 for an index hit, else the items
	// the fallback scan would visit.
	steps := func(s *Session, callID string, kind universal.Kind) int {
		c, ok := s.index().calls[callID]
		if !ok {
			return 1
		}
		i := c.call
		if kind == universal.KindToolResult {
			i = c.result
		}
		if i >= 0 && hasCall(&s.Items[i], kind, callID) {
			return 1
		}
		return 1 + int(i)
	}
	for _, sess := range []*Session{&s, roundTrip(t, &s)} {
		total := 0
		for i := range n {
			id := fmt.Sprintf("call_%d", i)
			total += steps(sess, id, universal.KindToolCall) + steps(sess, id, universal.KindToolResult)
			if c, r := sess.ToolCall(id), sess.ToolResult(id); c == nil || r == nil || c.Item.ItemID != "c"+id || r.Item.ItemID != "r"+id {
				t.Fatalf("%s: call %v, result %v", id, c, r)
			}
		}
		if total != 2*n {
			t.Errorf("looking up %d calls and results took %d steps, want %d", n, total, 2*n)
		}
		if a := testing.AllocsPerRun(100, func() { sess.ToolCall("call_0"); sess.ToolResult("call_0") }); a != 0 {
			t.Errorf("a lookup allocates %.1f times", a)
		}
	}
}

// roundTrip restores a session from its JSON: the index is rebuilt.
func roundTrip(t *testing.T, s *Session) *Session {
	t.Helper()
	b, err := s.JSON("")
	if err != nil {
		t.Fatal(err)
	}
	var r Session
	if err := r.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestCompletionKeepsWhatItConfirms: a completion that confirms the
// started snapshot is not copied again (the parts, and their strings, are
// the ones the start made), while one that changes a part copies that part
// only; the tool result shares its call's call_id.
func TestCompletionKeepsWhatItConfirms(t *testing.T) {
	st := universal.NewStamper(universal.Options{SessionID: "s"})
	var s Session
	apply := func(typ universal.Type, it universal.Item) {
		evs := st.Emit(nil, typ, universal.SourceAgent, &universal.ItemSnapshot{Item: it}, nil)
		if _, err := s.Apply(&evs[0]); err != nil {
			t.Fatal(err)
		}
	}
	call := func(status universal.ItemStatus, note string) universal.Item {
		return universal.Item{ItemID: "c", NativeItemID: "call_1", Kind: universal.KindToolCall, Role: universal.RoleAssistant, Status: status,
			Content: []universal.Part{{Type: universal.PartToolCall, Name: "bash", CallID: "call_1", Arguments: `{"cmd":"ls"}`,
				Metadata: []byte(`{"a":1}`)}, {Type: universal.PartStatus, Label: note}}}
	}
	apply(universal.TypeItemStarted, call(universal.StatusInProgress, "running"))
	started := s.Items[0].Item.Content
	apply(universal.TypeItemCompleted, call(universal.StatusCompleted, "done"))
	done := s.Items[0].Item.Content
	if unsafe.StringData(done[0].Arguments) != unsafe.StringData(started[0].Arguments) || &done[0].Metadata[0] != &started[0].Metadata[0] {
		t.Error("the confirmed part was copied again")
	}
	if done[1].Label != "done" || started[1].Label != "running" {
		t.Errorf("labels %q then %q", started[1].Label, done[1].Label)
	}
	apply(universal.TypeItemCompleted, universal.Item{ItemID: "r", NativeItemID: "call_1", Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{{Type: universal.PartToolResult, CallID: "call_1", Output: "ok"}}})
	r := &s.Items[1].Item
	if id := unsafe.StringData(done[0].CallID); unsafe.StringData(r.Content[0].CallID) != id || unsafe.StringData(r.NativeItemID) != id || unsafe.StringData(s.Items[0].Item.NativeItemID) != id {
		t.Error("the call_id is kept more than once")
	}
}
