package universal

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"
)

// validStream is a small well-formed stream: a message that streams two
// parts, a tool call and its result, a permission, a turn.
func validStream() []Event {
	msg := Item{ItemID: "m", Kind: KindMessage, Role: RoleAssistant, Status: StatusInProgress}
	msgDone := msg
	msgDone.Status = StatusCompleted
	msgDone.Content = []Part{Reasoning("think", VisibilityPrivate), Text("Hello world")}
	call := Item{ItemID: "c", ParentID: "m", Kind: KindToolCall, Role: RoleAssistant, Status: StatusInProgress,
		Content: []Part{{Type: PartToolCall, Name: "bash", CallID: "k1"}}}
	callDone := call
	callDone.Status = StatusCompleted
	callDone.Content = []Part{{Type: PartToolCall, Name: "bash", Arguments: `{"c":1}`, CallID: "k1"}}
	res := Item{ItemID: "r", ParentID: "m", Kind: KindToolResult, Role: RoleTool, Status: StatusCompleted,
		Content: []Part{{Type: PartToolResult, CallID: "k1", Output: "ok"}}}
	resStart := res
	resStart.Status = StatusInProgress
	resStart.Content = []Part{{Type: PartToolResult, CallID: "k1"}}
	data := []struct {
		typ Type
		d   Data
	}{
		{TypeSessionStarted, &SessionStarted{Metadata: []byte(`{"agent":"x"}`)}},
		{TypeTurnStarted, &TurnStarted{TurnID: "t"}},
		{TypeItemStarted, &ItemSnapshot{Item: msg}},
		{TypeItemDelta, &ItemDelta{ItemID: "m", Delta: "think", PartIndex: 0, PartType: PartReasoning}},
		{TypeItemDelta, &ItemDelta{ItemID: "m", Delta: "Hello ", PartIndex: 1, PartType: PartText}},
		{TypeItemDelta, &ItemDelta{ItemID: "m", Delta: "world", PartIndex: 1, PartType: PartText}},
		{TypeItemCompleted, &ItemSnapshot{Item: msgDone}},
		{TypeItemStarted, &ItemSnapshot{Item: call}},
		{TypeItemDelta, &ItemDelta{ItemID: "c", Delta: `{"c":1}`, PartIndex: 0, PartType: PartToolCall}},
		{TypePermissionRequested, &Permission{PermissionID: "p", Action: "bash", Status: PermissionRequested, ItemID: "c"}},
		{TypePermissionResolved, &Permission{PermissionID: "p", Action: "bash", Status: PermissionApproved, ItemID: "c"}},
		{TypeItemCompleted, &ItemSnapshot{Item: callDone}},
		{TypeItemStarted, &ItemSnapshot{Item: resStart}},
		{TypeItemCompleted, &ItemSnapshot{Item: res}},
		{TypeQuestionRequested, &Question{QuestionID: "q", Prompt: "?", Status: QuestionRequested}},
		{TypeQuestionResolved, &Question{QuestionID: "q", Prompt: "?", Status: QuestionAnswered, Response: "y"}},
		{TypeTurnEnded, &TurnEnded{TurnID: "t", Status: TurnCompleted}},
		{TypeSessionEnded, &SessionEnded{Reason: EndCompleted, TerminatedBy: ByAgent}},
	}
	st := NewStamper(Options{SessionID: "s"})
	var out []Event
	for _, d := range data {
		out = st.Emit(out, d.typ, SourceAgent, d.d, nil)
	}
	return out
}

func TestCheckerAcceptsValidStream(t *testing.T) {
	if err := CheckStream(validStream()); err != nil {
		t.Fatal(err)
	}
}

// find returns the index of the first event of type typ.
func find(evs []Event, typ Type) int {
	return slices.IndexFunc(evs, func(e Event) bool { return e.Type == typ })
}

// renumber restores gap-free sequence numbers and ids after a mutation.
func renumber(evs []Event) []Event {
	for i := range evs {
		evs[i].Sequence = int64(i + 1)
		evs[i].EventID = "e" + string(rune('A'+i))
	}
	return evs
}

func TestCheckerRejectsEachBrokenInvariant(t *testing.T) {
	snapshot := func(evs []Event, i int) *Item {
		s := *evs[i].Data.(*ItemSnapshot)
		s.Item.Content = slices.Clone(s.Item.Content)
		evs[i].Data = &s
		return &s.Item
	}
	cases := []struct {
		name   string
		rule   error
		mutate func([]Event) []Event
	}{
		{"first event not session.started", ErrNotFirst, func(e []Event) []Event { return renumber(e[1:]) }},
		{"session started twice", ErrStartedTwice, func(e []Event) []Event {
			return renumber(slices.Insert(e, 2, e[0]))
		}},
		{"sequence gap", ErrSequence, func(e []Event) []Event { e[4].Sequence = 40; return e }},
		{"sequence not from 1", ErrSequence, func(e []Event) []Event {
			for i := range e {
				e[i].Sequence += 5
			}
			return e
		}},
		{"duplicate event id", ErrDuplicateEventID, func(e []Event) []Event { e[3].EventID = e[2].EventID; return e }},
		{"session id changed", ErrSessionChanged, func(e []Event) []Event { e[5].SessionID = "other"; return e }},
		{"delta for an item never started", ErrItemNotStarted, func(e []Event) []Event {
			e[3].Data = &ItemDelta{ItemID: "ghost", Delta: "x", PartType: PartText}
			return e
		}},
		{"completion for an item never started", ErrItemNotStarted, func(e []Event) []Event {
			return renumber(slices.Delete(e, 2, 3))
		}},
		{"item started twice", ErrItemRestarted, func(e []Event) []Event {
			return renumber(slices.Insert(e, 3, e[2]))
		}},
		{"item completed twice", ErrCompletedTwice, func(e []Event) []Event {
			i := find(e, TypeItemCompleted)
			return renumber(slices.Insert(e, i+1, e[i]))
		}},
		{"delta after completion", ErrDeltaAfterEnd, func(e []Event) []Event {
			i := find(e, TypeItemCompleted)
			return renumber(slices.Insert(e, i+1, e[i-1]))
		}},
		{"parent never started", ErrParent, func(e []Event) []Event {
			i := slices.IndexFunc(e, func(ev Event) bool {
				s, ok := ev.Data.(*ItemSnapshot)
				return ok && ev.Type == TypeItemStarted && s.Item.ItemID == "c"
			})
			snapshot(e, i).ParentID = "nowhere"
			return e
		}},
		{"kind changed", ErrKindChanged, func(e []Event) []Event {
			snapshot(e, find(e, TypeItemCompleted)).Kind = KindSystem
			return e
		}},
		{"role changed", ErrKindChanged, func(e []Event) []Event {
			snapshot(e, find(e, TypeItemCompleted)).Role = RoleUser
			return e
		}},
		{"deltas do not concatenate to the final text", ErrDeltaText, func(e []Event) []Event {
			snapshot(e, find(e, TypeItemCompleted)).Content[1].Text = "Hello world!"
			return e
		}},
		{"streamed part missing from the final item", ErrDeltaPart, func(e []Event) []Event {
			it := snapshot(e, find(e, TypeItemCompleted))
			it.Content = it.Content[:1]
			return e
		}},
		{"delta part type changes", ErrDeltaPart, func(e []Event) []Event {
			e[5].Data = &ItemDelta{ItemID: "m", Delta: "world", PartIndex: 1, PartType: PartReasoning}
			return e
		}},
		{"turn ended without starting", ErrTurn, func(e []Event) []Event {
			return renumber(slices.Delete(e, 1, 2))
		}},
		{"permission resolved without request", ErrUnrequested, func(e []Event) []Event {
			i := find(e, TypePermissionRequested)
			return renumber(slices.Delete(e, i, i+1))
		}},
		{"question resolved without request", ErrUnrequested, func(e []Event) []Event {
			i := find(e, TypeQuestionRequested)
			return renumber(slices.Delete(e, i, i+1))
		}},
		{"event after session.ended", ErrAfterSessionEnd, func(e []Event) []Event {
			return renumber(append(e, e[len(e)-2]))
		}},
		{"item open when the session ends", ErrOpenAtEnd, func(e []Event) []Event {
			i := find(e, TypeItemCompleted)
			return renumber(slices.Delete(e, i, i+1))
		}},
		{"no session.ended", ErrNotEnded, func(e []Event) []Event { return e[:len(e)-1] }},
		{"spaced metadata marked clean", ErrNotClean, func(e []Event) []Event {
			e[0].Data = &SessionStarted{Metadata: json.RawMessage(`{"agent": "x"}`)}
			e[0].CleanJSON = true
			return e
		}},
		{"spaced part metadata marked clean", ErrNotClean, func(e []Event) []Event {
			i := find(e, TypeItemCompleted)
			it := snapshot(e, i)
			it.Content[0].Metadata = json.RawMessage("[1, 2]")
			e[i].Data = &ItemSnapshot{Item: *it}
			e[i].CleanJSON = true
			return e
		}},
		{"invalid UTF-8 marked clean", ErrNotClean, func(e []Event) []Event {
			e[len(e)-1].Extra = []Field{{Name: "x", Value: json.RawMessage("\"\xff\"")}}
			e[len(e)-1].CleanJSON = true
			return e
		}},
		{"invalid event", ErrInvalid, func(e []Event) []Event { e[3].Synthetic = true; return e }},
		{"invalid enum", ErrInvalid, func(e []Event) []Event {
			e[len(e)-1].Data = &SessionEnded{Reason: "bored", TerminatedBy: ByAgent}
			return e
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckStream(c.mutate(validStream()))
			if !errors.Is(err, c.rule) {
				t.Fatalf("want %v, got %v", c.rule, err)
			}
		})
	}
}

func TestCheckerAllowsCleanJSON(t *testing.T) {
	evs := validStream()
	evs[0].Data = &SessionStarted{Metadata: json.RawMessage(`{"agent":"x","n":[1,{"a":null}]}`)}
	for i := range evs {
		evs[i].CleanJSON = true
	}
	if err := CheckStream(evs); err != nil {
		t.Fatal(err)
	}
	// Unmarked, spaced raw JSON is fine: the encoder compacts it.
	evs[0].Data = &SessionStarted{Metadata: json.RawMessage(`{"agent": "x"}`)}
	evs[0].CleanJSON = false
	if err := CheckStream(evs); err != nil {
		t.Fatal(err)
	}
}

func TestCheckerAllowsRewrittenParts(t *testing.T) {
	evs := validStream()
	i := find(evs, TypeItemCompleted)
	s := *evs[i].Data.(*ItemSnapshot)
	s.Item.Content = slices.Clone(s.Item.Content)
	s.Item.Content[1].Text = "Hello world (edited)"
	s.Item.Content[1].Rewritten = true
	evs[i].Data = &s
	if err := CheckStream(evs); err != nil {
		t.Fatal(err)
	}
}

func TestValidateRejectsBadEnvelopes(t *testing.T) {
	good := Event{EventID: "e", Sequence: 1, Time: time.Unix(1, 0), SessionID: "s", Source: SourceAgent,
		Type: TypeError, Data: &Error{Message: "m"}}
	if err := Validate(&good); err != nil {
		t.Fatal(err)
	}
	bad := map[string]func(*Event){
		"no event id":         func(e *Event) { e.EventID = "" },
		"zero sequence":       func(e *Event) { e.Sequence = 0 },
		"zero time":           func(e *Event) { e.Time = time.Time{} },
		"no session":          func(e *Event) { e.SessionID = "" },
		"bad source":          func(e *Event) { e.Source = "user" },
		"synthetic mismatch":  func(e *Event) { e.Source = SourceDaemon },
		"raw not JSON":        func(e *Event) { e.Raw = []byte("{") },
		"data missing":        func(e *Event) { e.Data = nil },
		"data of wrong type":  func(e *Event) { e.Data = &Unparsed{Error: "x", Location: "y"} },
		"empty error message": func(e *Event) { e.Data = &Error{} },
		"unknown type":        func(e *Event) { e.Type = "agent.dreamed" },
	}
	for name, mut := range bad {
		ev := good
		mut(&ev)
		if err := Validate(&ev); !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrUnknownType) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}
