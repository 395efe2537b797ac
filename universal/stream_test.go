package universal

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func newTestStream() *Stream { return NewStream("test", Options{SessionID: "s"}) }

func types(evs []Event) []string {
	var out []string
	for _, e := range evs {
		s := string(e.Type)
		if e.Synthetic {
			s += "*"
		}
		out = append(out, s)
	}
	return out
}

func TestStreamCompleteUnknownItemStartsItAndStreamsMessageText(t *testing.T) {
	w := newTestStream()
	evs := w.Complete(nil, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant,
		Content: []Part{Reasoning("hmm", VisibilityPrivate), Text("hi"), {Type: PartJSON, JSON: []byte(`{}`)}}}, SourceAgent, []byte(`{}`))
	evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)
	want := []string{"session.started*", "item.started", "item.delta*", "item.delta*", "item.completed", "session.ended*"}
	if diff := cmp.Diff(want, types(evs)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	start := evs[1].Data.(*ItemSnapshot).Item
	if start.Content[0].Text != "" || start.Content[1].Text != "" || start.Status != StatusInProgress {
		t.Errorf("started snapshot should have empty text: %+v", start)
	}
	if err := CheckStream(evs); err != nil {
		t.Fatal(err)
	}
}

func TestStreamToolItemsKeepArgumentsAtStartAndGetNoSyntheticDeltas(t *testing.T) {
	w := newTestStream()
	var evs []Event
	evs = w.Complete(evs, Item{ItemID: "c", Kind: KindToolCall, Content: []Part{{Type: PartToolCall, Name: "bash", Arguments: `{"a":1}`, CallID: "k"}}}, SourceAgent, nil)
	evs = w.Complete(evs, Item{ItemID: "r", Kind: KindToolResult, Content: []Part{{Type: PartToolResult, CallID: "k", Output: "out"}}}, SourceAgent, nil)
	if diff := cmp.Diff([]string{"session.started*", "item.started", "item.completed", "item.started", "item.completed"}, types(evs)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if got := evs[1].Data.(*ItemSnapshot).Item.Content[0].Arguments; got != `{"a":1}` {
		t.Errorf("tool call started without its arguments: %q", got)
	}
	if got := evs[3].Data.(*ItemSnapshot).Item.Content[0].Output; got != "" {
		t.Errorf("tool result started with its output %q", got)
	}
}

func TestStreamReconcilesFinalText(t *testing.T) {
	for _, c := range []struct {
		name, streamed, final string
		wantDelta             string
		rewritten             bool
	}{
		{"equal", "Hello", "Hello", "", false},
		{"final extends the stream", "Hel", "Hello", "lo", false},
		{"final trims the stream", "Hello  ", "Hello", "", true},
		{"final rewrites the stream", "Hello", "Goodbye", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newTestStream()
			evs := w.StartItem(nil, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
			evs = w.Delta(evs, "m", 0, PartText, c.streamed, SourceAgent, nil)
			n := len(evs)
			evs = w.Complete(evs, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text(c.final)}}, SourceAgent, nil)
			evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)
			var delta string
			if d, ok := evs[n].Data.(*ItemDelta); ok {
				delta = d.Delta
				if !evs[n].Synthetic {
					t.Error("reconciling delta is not synthetic")
				}
			}
			if delta != c.wantDelta {
				t.Errorf("reconciling delta %q, want %q", delta, c.wantDelta)
			}
			final := evs[len(evs)-2].Data.(*ItemSnapshot).Item
			if final.Content[0].Text != c.final || final.Content[0].Rewritten != c.rewritten {
				t.Errorf("final part %+v", final.Content[0])
			}
			if err := CheckStream(evs); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestStreamKeepsStreamedPartsMissingFromTheFinalSnapshot(t *testing.T) {
	w := newTestStream()
	evs := w.StartItem(nil, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
	evs = w.Delta(evs, "m", 0, PartText, "a", SourceAgent, nil)
	evs = w.Delta(evs, "m", 1, PartReasoning, "b", SourceAgent, nil)
	evs = w.Complete(evs, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text("a")}}, SourceAgent, nil)
	final := evs[len(evs)-1].Data.(*ItemSnapshot).Item
	if len(final.Content) != 2 || final.Content[1].Text != "b" {
		t.Errorf("final content %+v", final.Content)
	}
}

func TestStreamRefusesMistakesVisibly(t *testing.T) {
	w := newTestStream()
	var evs []Event
	evs = w.Delta(evs, "ghost", 0, PartText, "x", SourceAgent, nil)
	evs = w.StartItem(evs, Item{ItemID: "m", Kind: KindMessage}, SourceAgent, nil)
	evs = w.Delta(evs, "m", 3, PartText, "x", SourceAgent, nil)
	evs = w.Delta(evs, "m", 0, PartStatus, "x", SourceAgent, nil)
	evs = w.StartItem(evs, Item{ItemID: "m", Kind: KindMessage}, SourceAgent, nil)
	evs = w.Complete(evs, Item{ItemID: "m", Kind: KindToolCall}, SourceAgent, nil)
	evs = w.Complete(evs, Item{ItemID: "m", Kind: KindMessage}, SourceAgent, nil)
	evs = w.StartItem(evs, Item{ItemID: "x", ParentID: "nowhere", Kind: KindStatus}, SourceAgent, nil)
	evs = w.Emit(evs, TypeItemDelta, SourceAgent, &ItemDelta{}, nil)
	var errs []string
	for _, e := range evs {
		if u, ok := e.Data.(*Unparsed); ok {
			errs = append(errs, u.Error)
			if u.Location != "test: translator" {
				t.Errorf("location %q", u.Location)
			}
		}
	}
	want := []string{ErrUnknownItem.Error(), ErrPartIndex.Error(), ErrPartType.Error(), ErrItemExists.Error(),
		"kind message changed", ErrItemClosed.Error(), ErrUnknownItem.Error(), ErrReserved.Error()}
	if len(errs) != len(want) {
		t.Fatalf("got %d refusals %q, want %d", len(errs), errs, len(want))
	}
	for i := range want {
		if !strings.Contains(errs[i], want[i]) {
			t.Errorf("refusal %d: %q does not mention %q", i, errs[i], want[i])
		}
	}
	evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)
	if err := CheckStream(evs); err != nil {
		t.Fatalf("refusals must keep the stream well-formed: %v", err)
	}
}

func TestStreamEndTurnClosesOnlyItsItems(t *testing.T) {
	w := newTestStream()
	evs := w.StartItem(nil, Item{ItemID: "before", Kind: KindStatus}, SourceAgent, nil)
	evs, turn := w.StartTurn(evs, "", nil, SourceDaemon, nil)
	if turn != "turn_1" {
		t.Errorf("generated turn id %q", turn)
	}
	evs = w.StartItem(evs, Item{ItemID: "inside", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
	evs = w.Delta(evs, "inside", 0, PartText, "partial", SourceAgent, nil)
	evs = w.EndTurn(evs, "", TurnInterrupted, nil, SourceAgent, nil)
	if !w.IsOpen("before") || w.IsOpen("inside") {
		t.Fatalf("open after turn end: before=%v inside=%v", w.IsOpen("before"), w.IsOpen("inside"))
	}
	closed := evs[len(evs)-2].Data.(*ItemSnapshot).Item
	if closed.ItemID != "inside" || closed.Status != StatusFailed || closed.Content[0].Text != "partial" || !evs[len(evs)-2].Synthetic {
		t.Errorf("closed item %+v", closed)
	}
	evs = w.End(evs, SessionEnded{Reason: EndTerminated, TerminatedBy: ByDaemon}, SourceDaemon, nil)
	if late := w.Delta(nil, "before", 0, PartText, "late", SourceAgent, nil); len(late) != 0 {
		t.Error("the stream emitted after session.ended")
	}
	if err := CheckStream(evs); err != nil {
		t.Fatal(err)
	}
}

func TestStreamEndTurnOfUnstartedTurnStartsIt(t *testing.T) {
	w := newTestStream()
	evs := w.EndTurn(nil, "native-turn", TurnCompleted, nil, SourceAgent, nil)
	if diff := cmp.Diff([]string{"session.started*", "turn.started*", "turn.ended"}, types(evs)); diff != "" {
		t.Fatal(diff)
	}
}

func TestStreamResolveWithoutRequestRequestsFirst(t *testing.T) {
	w := newTestStream()
	var evs []Event
	evs = w.ResolvePermission(evs, Permission{PermissionID: "p", Action: "a", Status: PermissionDenied}, SourceAgent, nil)
	evs = w.ResolveQuestion(evs, Question{QuestionID: "q", Prompt: "?", Status: QuestionRejected}, SourceAgent, nil)
	want := []string{"session.started*", "permission.requested*", "permission.resolved", "question.requested*", "question.resolved"}
	if diff := cmp.Diff(want, types(evs)); diff != "" {
		t.Fatal(diff)
	}
}

// The central property: whatever a translator asks of a Stream, in any
// order, the output is a well-formed stream once the session ends, and a
// checkpoint/restore anywhere changes nothing.
func TestStreamOutputIsAlwaysWellFormed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ids := []string{"a", "b", "c", "d"}
		id := rapid.SampledFrom(ids)
		ptype := rapid.SampledFrom([]PartType{PartText, PartReasoning, PartToolCall, PartToolResult, PartStatus})
		kind := rapid.SampledFrom([]Kind{KindMessage, KindToolCall, KindToolResult, KindStatus})
		text := rapid.SampledFrom([]string{"", "x", "héllo ", "👋", "\x00\xff"})
		part := rapid.Custom(func(t *rapid.T) Part {
			p := Part{Type: ptype.Draw(t, "part type")}
			switch p.Type {
			case PartToolCall:
				p.Name = "n"
			case PartStatus:
				p.Label = "l"
			case PartReasoning:
				p.Visibility = VisibilityPublic
			}
			p.SetStreamed(text.Draw(t, "part text"))
			return p
		})
		item := func(t *rapid.T) Item {
			return Item{ItemID: id.Draw(t, "id"), ParentID: rapid.SampledFrom(append(ids, "")).Draw(t, "parent"),
				Kind: kind.Draw(t, "kind"), Role: rapid.SampledFrom([]Role{"", RoleAssistant, RoleUser}).Draw(t, "role"),
				Content: rapid.SliceOfN(part, 0, 3).Draw(t, "content"),
				Status:  rapid.SampledFrom([]ItemStatus{StatusCompleted, StatusFailed}).Draw(t, "status")}
		}
		w := newTestStream()
		var evs []Event
		steps := rapid.IntRange(0, 40).Draw(t, "steps")
		for range steps {
			switch rapid.IntRange(0, 12).Draw(t, "op") {
			case 0:
				evs = w.StartItem(evs, item(t), SourceAgent, nil)
			case 1, 2:
				evs = w.Delta(evs, id.Draw(t, "id"), rapid.IntRange(-1, 3).Draw(t, "index"), ptype.Draw(t, "type"), text.Draw(t, "text"), SourceAgent, nil)
			case 3:
				evs = w.Complete(evs, item(t), SourceAgent, nil)
			case 4:
				evs = w.Close(evs, id.Draw(t, "id"), StatusCompleted, SourceAgent, nil)
			case 5:
				evs, _ = w.StartTurn(evs, rapid.SampledFrom([]string{"", "t1", "t2"}).Draw(t, "turn"), nil, SourceAgent, nil)
			case 6:
				evs = w.EndTurn(evs, rapid.SampledFrom([]string{"", "t1", "t2"}).Draw(t, "turn"), TurnCompleted, nil, SourceAgent, nil)
			case 7:
				evs = w.RequestPermission(evs, Permission{PermissionID: id.Draw(t, "perm"), ItemID: id.Draw(t, "guarded")}, SourceAgent, nil)
			case 8:
				evs = w.ResolvePermission(evs, Permission{PermissionID: id.Draw(t, "perm"), Status: PermissionApproved}, SourceAgent, nil)
			case 9:
				evs = w.Emit(evs, TypeError, SourceAgent, &Error{Message: "e", WillRetry: rapid.Bool().Draw(t, "retry")}, nil)
			case 10:
				evs = w.Begin(evs, []byte(`{"agent":"test"}`), SourceAgent, nil)
			case 11:
				b, err := json.Marshal(w.State())
				if err != nil {
					t.Fatal(err)
				}
				var st StreamState
				if err := json.Unmarshal(b, &st); err != nil {
					t.Fatal(err)
				}
				w2 := newTestStream()
				w2.Restore(st)
				if diff := cmp.Diff(w.State(), w2.State(), cmp.AllowUnexported(StreamState{}, streamState{}, openItem{})); diff != "" {
					t.Fatalf("state changed through JSON:\n%s", diff)
				}
				w = w2
			case 12:
				evs = w.Unparsed(evs, "line 1", errors.New("bad"), []byte(text.Draw(t, "raw")))
			}
		}
		evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)
		if err := CheckStream(evs); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStamper(t *testing.T) {
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	st := NewStamper(Options{SessionID: "s1", Clock: StepClock(start, time.Second)})
	var evs []Event
	evs = st.Emit(evs, TypeError, SourceAgent, &Error{Message: "m"}, []byte(`{"x":1}`))
	st.SetNativeSessionID("native")
	evs = st.Unparsed(evs, "here", errors.New("bad"), []byte("raw"))
	if evs[0].Sequence != 1 || evs[1].Sequence != 2 || evs[0].EventID == evs[1].EventID {
		t.Errorf("sequence/ids: %+v", evs)
	}
	if !evs[1].Time.Equal(start.Add(time.Second)) || evs[0].NativeSessionID != "" || evs[1].NativeSessionID != "native" {
		t.Errorf("time/native id: %v %q %q", evs[1].Time, evs[0].NativeSessionID, evs[1].NativeSessionID)
	}
	if evs[0].Raw != nil || evs[1].Raw != nil {
		t.Error("raw attached without opt-in")
	}
	if u := evs[1].Data.(*Unparsed); u.RawHash != RawHash([]byte("raw")) || !evs[1].Synthetic {
		t.Errorf("unparsed: %+v", u)
	}
	if a, b := st.NewItemID(), st.NewItemID(); a != "itm_1" || b != "itm_2" {
		t.Errorf("item ids %q %q", a, b)
	}
	custom := NewStamper(Options{ItemID: func(n int64) string { return "x" + string(rune('0'+n)) }})
	if id := custom.NewItemID(); id != "x1" {
		t.Errorf("custom item id %q", id)
	}
}

// Events must not alias the native input, which readers reuse.
func TestStreamCopiesInput(t *testing.T) {
	w := NewStream("test", Options{IncludeRaw: true})
	input := []byte(`{"text":"hello"}`)
	evs := w.StartItem(nil, Item{ItemID: "m", Kind: KindMessage}, SourceAgent, input)
	evs = w.Delta(evs, "m", 0, PartText, string(input[9:14]), SourceAgent, input)
	for i := range input {
		input[i] = 'Z'
	}
	d := evs[len(evs)-1].Data.(*ItemDelta)
	if d.Delta != "hello" || string(evs[len(evs)-1].Raw) != `{"text":"hello"}` {
		t.Errorf("events alias the input: %q %s", d.Delta, evs[len(evs)-1].Raw)
	}
}

func TestStreamAddPartKeepsContentOrder(t *testing.T) {
	w := newTestStream()
	evs := w.StartItem(nil, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
	evs = w.Delta(evs, "m", 0, PartText, "before ", SourceAgent, nil)
	evs, i := w.AddPart(evs, "m", Part{Type: PartFileRef, Path: "a.go", Action: FileWrite})
	if i != 1 {
		t.Fatalf("index %d", i)
	}
	evs = w.Delta(evs, "m", 2, PartText, "after", SourceAgent, nil)
	evs = w.Close(evs, "m", StatusCompleted, SourceAgent, nil)
	n := len(evs)
	if evs, i = w.AddPart(evs, "m", Text("late")); i != -1 || len(evs) != n+1 || evs[n].Type != TypeUnparsed {
		t.Error("AddPart on a completed item was not refused visibly")
	}
	final := evs[n-1].Data.(*ItemSnapshot).Item
	evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)
	var got []string
	for _, p := range final.Content {
		got = append(got, string(p.Type)+":"+p.Text+p.Path)
	}
	if diff := cmp.Diff([]string{"text:before ", "file_ref:a.go", "text:after"}, got); diff != "" {
		t.Error(diff)
	}
	if err := CheckStream(evs); err != nil {
		t.Fatal(err)
	}
}

// A usage report with a negative count (a native -5, a sum that
// overflowed) keeps the counts that are true and makes the others unknown,
// so the event stays valid.
func TestUsageNegativeCounts(t *testing.T) {
	w := NewStream("x", Options{})
	neg, in, big := int64(-5), int64(10), int64(math.MaxInt64)
	cost := math.NaN()
	evs := w.Emit(nil, TypeUsageUpdated, SourceAgent, &UsageUpdated{Scope: ScopeCall,
		Usage: Usage{InputTokens: &in, OutputTokens: &neg, TotalTokens: AddCounts(&big, &in)}, CostUSD: &cost}, nil)
	d := evs[len(evs)-1].Data.(*UsageUpdated)
	if d.Usage.OutputTokens != nil || d.CostUSD != nil || *d.Usage.InputTokens != 10 || *d.Usage.TotalTokens != math.MaxInt64 {
		t.Errorf("usage %+v", d)
	}
	for i := range evs {
		if err := Validate(&evs[i]); err != nil {
			t.Error(err)
		}
	}
}

// TestCompleteUnstartedAsStartThenComplete: completing an item that was
// never started (the one-step path) emits exactly what starting it with
// its streamed strings emptied and then completing it does, and leaves
// the stream in the same state.
func TestCompleteUnstartedAsStartThenComplete(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		kinds := []Kind{KindMessage, KindToolCall, KindToolResult, KindSystem, KindStatus}
		types := []PartType{PartText, PartReasoning, PartToolCall, PartToolResult, PartJSON, PartStatus, PartFileRef}
		texts := []string{"", "hello", "é\xff", "x\ny"}
		it := Item{
			ItemID:       "itm_9",
			NativeItemID: rapid.SampledFrom([]string{"", "n1"}).Draw(rt, "native"),
			ParentID:     rapid.SampledFrom([]string{"", "itm_1"}).Draw(rt, "parent"),
			Kind:         rapid.SampledFrom(kinds).Draw(rt, "kind"),
			Role:         rapid.SampledFrom([]Role{"", RoleAssistant, RoleTool}).Draw(rt, "role"),
			Status:       rapid.SampledFrom([]ItemStatus{"", StatusCompleted, StatusFailed, StatusInProgress}).Draw(rt, "status"),
		}
		for i := range rapid.IntRange(0, 4).Draw(rt, "parts") {
			p := Part{Type: rapid.SampledFrom(types).Draw(rt, "type"), Rewritten: rapid.Bool().Draw(rt, "rewritten")}
			switch p.Type {
			case PartToolCall:
				p.Name, p.CallID = "Bash", "c"
			case PartJSON:
				p.JSON = json.RawMessage(`{"a": 1}`)
			}
			p.SetStreamed(rapid.SampledFrom(texts).Draw(rt, "text"+string(rune('0'+i))))
			it.Content = append(it.Content, p)
		}
		prefix := func(w *Stream) []Event {
			evs := w.StartItem(nil, Item{ItemID: "itm_1", Kind: KindMessage}, SourceAgent, nil)
			return w.Complete(evs, Item{ItemID: "itm_1", Kind: KindMessage}, SourceAgent, nil)
		}
		fast := newTestStream()
		got := fast.Complete(prefix(fast), it, SourceAgent, nil)

		slow := newTestStream()
		want := prefix(slow)
		start := it
		start.Content = nil
		for _, p := range it.Content {
			if p.Type.Streams() && p.Type != PartToolCall {
				p.SetStreamed("")
			}
			p.Rewritten = false
			start.Content = append(start.Content, p)
		}
		want = slow.StartItem(want, start, SourceAgent, nil)
		want = slow.Complete(want, it, SourceAgent, nil)

		enc := func(evs []Event) []string {
			var out []string
			for i := range evs {
				out = append(out, string(evs[i].AppendJSON(nil)))
			}
			return out
		}
		if diff := cmp.Diff(enc(want), enc(got)); diff != "" {
			rt.Fatalf("events differ (-start then complete +complete):\n%s", diff)
		}
		a, _ := SaveCheckpoint("t", fast, nil)
		b, _ := SaveCheckpoint("t", slow, nil)
		if string(a) != string(b) {
			rt.Fatalf("state differs:\n%s\n%s", a, b)
		}
	})
}

// TestStreamAddPartSendsItsText: a streaming part added with text sends
// the text as a delta, so the deltas of the item add up to its content.
func TestStreamAddPartSendsItsText(t *testing.T) {
	w := newTestStream()
	evs := w.StartItem(nil, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant}, SourceAgent, nil)
	n := len(evs)
	evs, i := w.AddPart(evs, "m", Reasoning("thinking ", VisibilityPublic))
	if i != 0 || len(evs) != n+1 || evs[n].Type != TypeItemDelta || !evs[n].Synthetic {
		t.Fatalf("AddPart with text: index %d, events %v", i, types(evs[n:]))
	}
	if d := evs[n].Data.(*ItemDelta); d.Delta != "thinking " || d.PartIndex != 0 || d.PartType != PartReasoning {
		t.Errorf("delta %+v", d)
	}
	evs = w.Delta(evs, "m", 0, PartReasoning, "more", SourceAgent, nil)
	evs = w.Close(evs, "m", StatusCompleted, SourceAgent, nil)
	final := evs[len(evs)-1].Data.(*ItemSnapshot).Item
	if got := final.Content[0].Text; got != "thinking more" {
		t.Errorf("final text %q", got)
	}
	for _, e := range evs {
		if e.Type == TypeItemDelta && e.Data.(*ItemDelta).Delta == "thinking more" {
			t.Error("a synthetic delta repeated the text at completion")
		}
	}
	evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)
	if err := CheckStream(evs); err != nil {
		t.Fatal(err)
	}
}

// TestASCII checks the word-at-a-time ASCII test behind validUTF8 against
// a byte loop, for every length up to three words and every position of
// one byte that is not ASCII.
func TestASCII(t *testing.T) {
	for n := 0; n <= 24; n++ {
		b := []byte(strings.Repeat("a", n))
		if !ascii(string(b)) {
			t.Errorf("ascii(%q) = false", b)
		}
		for i := range n {
			for _, c := range []byte{0x80, 0xC3, 0xFF} {
				b[i] = c
				if ascii(string(b)) {
					t.Errorf("ascii(%q) = true", b)
				}
				b[i] = 'a'
			}
		}
	}
	if got := validUTF8("caf\xe9 ok"); got != "caf\uFFFD ok" {
		t.Errorf("validUTF8 = %q", got)
	}
}

// A completion written in the memory the open item set aside leaves the
// started snapshot as it was, and still sees the type the part started
// with: a final part of another type over streamed text is Rewritten.
func TestStreamCompletionKeepsTheStartedSnapshot(t *testing.T) {
	w := newTestStream()
	evs := w.StartItem(nil, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text("Hel")}}, SourceAgent, nil)
	started := evs[len(evs)-1].Data.(*ItemSnapshot).Item.Clone()
	evs = w.Delta(evs, "m", 0, PartText, "lo", SourceAgent, nil)
	evs = w.Complete(evs, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant,
		Content: []Part{{Type: PartStatus, Label: "replaced"}}}, SourceAgent, nil)
	if got := evs[1].Data.(*ItemSnapshot).Item; !cmp.Equal(got, started) {
		t.Errorf("started snapshot changed: %s", cmp.Diff(started, got))
	}
	final := evs[len(evs)-1].Data.(*ItemSnapshot).Item
	if p := final.Content[0]; p.Type != PartStatus || p.Label != "replaced" || !p.Rewritten {
		t.Errorf("final part %+v, want the status part, rewritten", p)
	}
	if err := CheckStream(w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)); err != nil {
		t.Fatal(err)
	}
}

// The streamed text of a part grows in chunks that are joined only when
// it is read whole: deltas keep their text, the whole text read at any
// point is the deltas so far, and the completion reconciles against it
// chunk by chunk, whatever deltas came before and whether it was read.
func TestStreamTextInChunks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := newTestStream()
		started := rapid.StringMatching(`[a-c]{0,3}`).Draw(t, "started")
		evs := w.StartItem(nil, Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text(started)}}, SourceAgent, nil)
		want := started
		var deltas []*ItemDelta
		for i, n := 0, rapid.IntRange(0, 40).Draw(t, "deltas"); i < n; i++ {
			text := rapid.StringMatching(`[a-c]{1,90}`).Draw(t, "delta")
			evs = w.Delta(evs[:0], "m", 0, PartText, text, SourceAgent, nil)
			d := evs[0].Data.(*ItemDelta)
			deltas = append(deltas, d)
			want += text
			if d.Delta != text {
				t.Fatalf("delta %q, want %q", d.Delta, text)
			}
			if rapid.IntRange(0, 9).Draw(t, "read") == 0 {
				if got := w.StreamedText("m", 0); got != want {
					t.Fatalf("streamed text %q, want %q", got, want)
				}
			}
		}
		got := started
		for _, d := range deltas {
			got += d.Delta
		}
		if got != want {
			t.Fatalf("deltas joined %q, want %q", got, want)
		}
		final := want + rapid.StringMatching(`[a-c]{0,3}`).Draw(t, "more")
		if rapid.Bool().Draw(t, "rewrite") && len(final) > 0 {
			i := rapid.IntRange(0, len(final)-1).Draw(t, "at")
			final = final[:i] + "x" + final[i+1:]
		}
		evs = w.Complete(evs[:0], Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text(final)}}, SourceAgent, nil)
		p := evs[len(evs)-1].Data.(*ItemSnapshot).Item.Content[0]
		switch {
		case strings.HasPrefix(final, want):
			if p.Rewritten {
				t.Fatalf("final %q extends %q but is marked rewritten", final, want)
			}
			if extra := final[len(want):]; extra != "" || (want == "" && final != "") {
				d := evs[0].Data.(*ItemDelta)
				if d.Delta != extra && !(want == "" && d.Delta == final) {
					t.Fatalf("synthetic delta %q, want %q", d.Delta, extra)
				}
			}
		default:
			if !p.Rewritten {
				t.Fatalf("final %q does not extend %q but is not marked rewritten", final, want)
			}
		}
	})
}

// TestBeginMetadata: session.started metadata is an object that names the
// agent first when the translator did not; metadata that is no object is
// the translator's mistake, reported, and the session still starts well.
func TestBeginMetadata(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, `{"agent":"x"}`},
		{`{}`, `{"agent":"x"}`},
		{` { "model" : "m" } `, `{"agent":"x","model":"m"}`},
		{`{"model":"m","agent":"y"}`, `{"model":"m","agent":"y"}`},
	} {
		w := NewStream("x", Options{})
		evs := w.Begin(nil, []byte(c.in), SourceAgent, nil)
		if len(evs) != 1 || string(evs[0].Data.(*SessionStarted).Metadata) != c.want {
			t.Errorf("Begin(%q): %d events, metadata %s; want %s", c.in, len(evs), evs[0].Data.(*SessionStarted).Metadata, c.want)
		}
	}
	for _, in := range []string{`{"model":,"cwd":}`, `["a"]`, `"text"`} {
		w := NewStream("x", Options{SessionID: "s"})
		evs := w.Begin(nil, []byte(in), SourceAgent, nil)
		evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceAgent, nil)
		if len(evs) != 3 || string(evs[0].Data.(*SessionStarted).Metadata) != `{"agent":"x"}` || evs[1].Type != TypeUnparsed {
			t.Errorf("Begin(%q): %d events, first %s", in, len(evs), evs[0].AppendJSON(nil))
		}
		if err := CheckStream(evs); err != nil {
			t.Errorf("Begin(%q): %v", in, err)
		}
	}
}

// TestCheckerCountsInvalidStart: an invalid session.started is one error,
// not one for every event after it.
func TestCheckerCountsInvalidStart(t *testing.T) {
	w := NewStream("x", Options{SessionID: "s"})
	evs := w.Begin(nil, nil, SourceAgent, nil)
	evs = w.Complete(evs, Item{ItemID: w.NewItemID(), Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text("hi")}}, SourceAgent, nil)
	evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceAgent, nil)
	evs[0].Data.(*SessionStarted).Metadata = []byte(`"not an object"`)
	err := CheckStream(evs)
	if err == nil || strings.Count(err.Error(), "\n")+1 != 1 {
		t.Errorf("CheckStream: %v; want one error", err)
	}
	// An invalid item.started (no event id) is one error too: its deltas
	// and completion find the item.
	w = NewStream("x", Options{SessionID: "s"})
	evs = w.Begin(nil, nil, SourceAgent, nil)
	evs = w.StartItem(evs, Item{ItemID: w.NewItemID(), Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text("")}}, SourceAgent, nil)
	evs = w.Delta(evs, "itm_1", 0, PartText, "hel", SourceAgent, nil)
	evs = w.Delta(evs, "itm_1", 0, PartText, "lo", SourceAgent, nil)
	evs = w.Complete(evs, Item{ItemID: "itm_1", Kind: KindMessage, Role: RoleAssistant, Content: []Part{Text("hello")}}, SourceAgent, nil)
	evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceAgent, nil)
	evs[1].EventID = ""
	if err := CheckStream(evs); err == nil || strings.Count(err.Error(), "\n")+1 != 1 {
		t.Errorf("CheckStream: %v; want one error", err)
	}
}

// TestStreamHoldsUnparsedUntilBegin: agent.unparsed before the session
// started waits for session.started and its metadata, in input order;
// past the bounds, or at the end, the session starts without it.
func TestStreamHoldsUnparsedUntilBegin(t *testing.T) {
	bad := errors.New("not JSON")
	t.Run("begin", func(t *testing.T) {
		w := NewStream("test", Options{SessionID: "s", IncludeRaw: true})
		var evs []Event
		evs = w.Unparsed(evs, "line 1", bad, []byte("npm WARN \xff"))
		evs = w.Unparsed(evs, "line 2", bad, nil)
		if len(evs) != 0 || w.Begun() {
			t.Fatalf("%v emitted before the session started", types(evs))
		}
		w.SetNativeSessionID("native")
		evs = w.Begin(evs, []byte(`{"model":"m"}`), SourceAgent, []byte(`{"init":true}`))
		evs = w.Unparsed(evs, "line 4", bad, nil)
		want := []string{"session.started", "agent.unparsed*", "agent.unparsed*", "agent.unparsed*"}
		if diff := cmp.Diff(want, types(evs)); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
		if md := string(evs[0].Data.(*SessionStarted).Metadata); md != `{"agent":"test","model":"m"}` {
			t.Errorf("metadata %s", md)
		}
		for i, loc := range []string{"test: line 1", "test: line 2", "test: line 4"} {
			e := evs[i+1]
			if d := e.Data.(*Unparsed); d.Location != loc || d.Error != bad.Error() || e.Sequence != int64(i+2) || e.NativeSessionID != "native" {
				t.Errorf("event %d: %+v %+v", i+2, e, d)
			}
		}
		if d := evs[1].Data.(*Unparsed); d.RawHash != RawHash([]byte("npm WARN \xff")) || string(evs[1].Raw) != `"npm WARN \ufffd"` {
			t.Errorf("held payload: %s %s", d.RawHash, evs[1].Raw)
		}
		if evs[2].Data.(*Unparsed).RawHash != "" || evs[2].Raw != nil {
			t.Errorf("no payload, got %+v", evs[2])
		}
		if err := CheckStream(w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("bounds", func(t *testing.T) {
		for _, c := range []struct {
			name string
			raw  []byte
			o    Options
			held int
		}{
			{"count", []byte("x"), Options{}, maxHeld},
			{"count with payloads", []byte("x"), Options{IncludeRaw: true}, maxHeld},
			{"payload bytes", make([]byte, maxHeldBytes/3-64), Options{IncludeRaw: true}, 3},
			{"payloads not kept", make([]byte, maxHeldBytes/3), Options{}, maxHeld},
			{"long locations", nil, Options{}, 3},
		} {
			w := NewStream("test", c.o)
			var evs []Event
			pad := ""
			if c.raw == nil {
				pad = strings.Repeat("x", maxHeldBytes/3-32)
			}
			for i := range c.held {
				evs = w.Unparsed(evs, "line "+string(rune('a'+i))+pad, bad, c.raw)
			}
			if len(evs) != 0 {
				t.Fatalf("%s: %d events after %d held", c.name, len(evs), c.held)
			}
			evs = w.Unparsed(evs, "one more"+pad, bad, c.raw)
			if len(evs) != c.held+2 || evs[0].Type != TypeSessionStarted || !w.Begun() {
				t.Fatalf("%s: %v, want the session started and %d unparsed", c.name, types(evs), c.held+1)
			}
			if d := evs[len(evs)-1].Data.(*Unparsed); d.Location != "test: one more"+pad {
				t.Errorf("%s: last %q", c.name, d.Location)
			}
		}
	})
	t.Run("end", func(t *testing.T) {
		w := newTestStream()
		evs := w.Unparsed(nil, "line 1", bad, []byte("?"))
		evs = w.End(evs, SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}, SourceDaemon, nil)
		if diff := cmp.Diff([]string{"session.started*", "agent.unparsed*", "session.ended*"}, types(evs)); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	})
	t.Run("checkpoint", func(t *testing.T) {
		w := NewStream("test", Options{IncludeRaw: true})
		w.Unparsed(nil, "line 1", bad, []byte("\xff\x00"))
		cp, err := SaveCheckpoint("f", w, struct{}{})
		if err != nil {
			t.Fatal(err)
		}
		w2 := NewStream("test", Options{IncludeRaw: true})
		var st struct{}
		if err := LoadCheckpoint(cp, "f", w2, &st); err != nil {
			t.Fatal(err)
		}
		a := w.Begin(nil, nil, SourceDaemon, nil)
		b := w2.Begin(nil, nil, SourceDaemon, nil)
		if len(a) != 2 || len(b) != 2 || string(a[1].AppendJSON(nil)) != string(b[1].AppendJSON(nil)) {
			t.Errorf("restored %v, want %v", b, a)
		}
		for _, bad := range []string{
			`{"begun":true,"held":[{"error":"e","location":"l"}]}`,
			`{"held":[` + strings.Repeat(`{"error":"e","location":"l"},`, maxHeld) + `{"error":"e","location":"l"}]}`,
		} {
			var ss streamState
			if err := json.Unmarshal([]byte(bad), &ss); err != nil {
				t.Fatal(err)
			}
			s := StreamState{Stream: ss}
			if s.validate() == nil {
				t.Errorf("%s accepted", bad)
			}
		}
	})
}

// TestStartTurnClean: turn metadata given to StartTurnClean is the event's
// as it is (no copy), that given to StartTurn is copied, and both read the
// same.
func TestStartTurnClean(t *testing.T) {
	md := []byte(`{"system_prompt":{"content":"You are a helpful agent."}}`)
	w := newTestStream()
	w.PromiseCleanJSON()
	evs, _ := w.StartTurn(nil, "t1", md, SourceAgent, nil)
	evs, _ = w.StartTurnClean(evs, "t2", md, SourceAgent, nil)
	evs, _ = w.StartTurnClean(evs, "t3", nil, SourceAgent, nil)
	var got [][]byte
	for _, e := range evs {
		if d, ok := e.Data.(*TurnStarted); ok {
			got = append(got, d.Metadata)
		}
	}
	if len(got) != 3 {
		t.Fatalf("%d turn.started events, want 3: %v", len(got), types(evs))
	}
	if string(got[0]) != string(md) || string(got[1]) != string(md) || got[2] != nil {
		t.Errorf("metadata %q, %q, %q; want %q twice, then none", got[0], got[1], got[2], md)
	}
	if &got[0][0] == &md[0] {
		t.Error("StartTurn kept the caller's memory; want a copy")
	}
	if &got[1][0] != &md[0] {
		t.Error("StartTurnClean copied the metadata; want it kept as it is")
	}
}
