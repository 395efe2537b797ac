package reduce

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// TestToolCallIsLinear: looking up every call and result of a session of n
// calls takes n steps, not n²/2. Each lookup is one index probe whose item
// has the call (the scan that ToolCall falls back to, for a call_id an item
// lost, never runs), and allocates only the item it returns. Steps, not time: the count
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
		ix := s.index()
		k := ix.callsByID.find(callID, ix.callKey)
		if k < 0 {
			return 1
		}
		c := ix.callList[k]
		i := c.call
		if kind == universal.KindToolResult {
			i = c.result
		}
		if i >= 0 && hasCall(s.ItemAt(int(i)), kind, callID) {
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
		// A completed item is decoded into an Item and its parts: two
		// allocations a lookup, whatever the size of the session.
		if a := testing.AllocsPerRun(100, func() { sess.ToolCall("call_0"); sess.ToolResult("call_0") }); a > 4 {
			t.Errorf("two lookups allocate %.1f times", a)
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

// TestPackedItems: a completed item is packed, its strings shared where
// they are one (the call_id of a call, of its result and their native
// ids), and costs its content and a few bytes; it reads back as it was
// completed.
func TestPackedItems(t *testing.T) {
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
				ToolKind: universal.ToolExecute, ToolInput: &universal.ToolInput{Command: "ls"}, Metadata: []byte(`{"a":1}`)},
				{Type: universal.PartStatus, Label: note}}}
	}
	apply(universal.TypeItemStarted, call(universal.StatusInProgress, "running"))
	if s.open(0) == nil {
		t.Fatal("an open item is packed")
	}
	apply(universal.TypeItemCompleted, call(universal.StatusCompleted, "done"))
	result := universal.Item{ItemID: "r", NativeItemID: "call_1", ParentID: "c", Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{{Type: universal.PartToolResult, CallID: "call_1", Output: "ok"}}}
	apply(universal.TypeItemCompleted, result)
	for i := range s.items {
		if s.open(i) != nil {
			t.Fatalf("completed item %d is not packed", i)
		}
	}
	c, r := s.ItemAt(0), s.ItemAt(1)
	want := call(universal.StatusCompleted, "done")
	result.Status = universal.StatusCompleted
	if diff := cmp.Diff(want, c.Item); diff != "" {
		t.Errorf("call (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(result, r.Item); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if id := unsafe.StringData(c.Item.Content[0].CallID); unsafe.StringData(r.Item.Content[0].CallID) != id ||
		unsafe.StringData(r.Item.NativeItemID) != id || unsafe.StringData(c.Item.NativeItemID) != id {
		t.Error("the call_id is kept more than once")
	}
	if unsafe.StringData(r.Item.ParentID) != unsafe.StringData(c.Item.ItemID) {
		t.Error("the parent id is kept again")
	}
	// The result: its id (1 + 1 byte), its output (1 + 2), references for
	// the native id, parent and call_id, the sequences, the enumerations,
	// the part's mask and the lengths.
	if n := len(s.data(1)); n > 20 {
		t.Errorf("the result is packed in %d bytes", n)
	}
}
