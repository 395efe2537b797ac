package universal

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The stream invariants a [Checker] enforces. Every error it returns wraps
// exactly one of them, so tests can tell which rule broke.
var (
	ErrNotFirst         = errors.New("session.started is not the first event")
	ErrStartedTwice     = errors.New("session started twice")
	ErrSequence         = errors.New("sequence is not gap-free from 1")
	ErrDuplicateEventID = errors.New("duplicate event_id")
	ErrSessionChanged   = errors.New("session_id changed")
	ErrItemNotStarted   = errors.New("delta or completion for an item never started")
	ErrItemRestarted    = errors.New("item started twice")
	ErrCompletedTwice   = errors.New("item completed twice")
	ErrDeltaAfterEnd    = errors.New("delta after the item completed")
	ErrParent           = errors.New("parent_id does not name an earlier item")
	ErrKindChanged      = errors.New("item kind or role changed")
	ErrDeltaPart        = errors.New("delta does not address a matching part of the final item")
	ErrDeltaText        = errors.New("deltas do not concatenate to the part's final text")
	ErrTurn             = errors.New("turn.ended without a matching open turn")
	ErrUnrequested      = errors.New("resolution of a request never made")
	ErrAfterSessionEnd  = errors.New("event after session.ended")
	ErrOpenAtEnd        = errors.New("item still open when the session ended")
	ErrNotEnded         = errors.New("stream does not end with session.ended")
	ErrNotClean         = errors.New("event marked CleanJSON holds raw JSON that is not clean")
)

// StreamError is a broken invariant at one event.
type StreamError struct {
	Sequence int64 // the offending event's sequence (0 for Finish)
	Rule     error // one of the Err… invariants, or the validation error
	Detail   string
}

func (e *StreamError) Error() string {
	s := fmt.Sprintf("event %d: %v", e.Sequence, e.Rule)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *StreamError) Unwrap() error { return e.Rule }

// Checker verifies that a stream of events is well-formed:
//
//   - every event is valid on its own ([Validate]);
//   - exactly one session.started, and it comes first; session.ended comes
//     last, and nothing comes after it;
//   - sequence is gap-free from 1, event ids are unique, session_id
//     does not change;
//   - every delta and completion refers to a started item; each item is
//     started once and completed once; no delta follows its completion;
//     kind never changes and a role, once set, never changes;
//   - parent ids name earlier items;
//   - the text of a part at its start plus its deltas equals the part's
//     text in the completed item, unless the part is marked rewritten,
//     and every delta's part exists in the completed item with its type;
//   - turns end only when open; resolutions follow their requests;
//   - no item is open when the session ends;
//   - an event marked CleanJSON holds only clean raw JSON.
//
// Feed events in order to Check, then call Finish.
type Checker struct {
	n         int64
	session   string
	started   bool
	ended     bool
	eventIDs  map[string]struct{}
	items     map[string]*checkedItem
	turns     map[string]bool
	requests  map[string]bool
	questions map[string]bool
}

type checkedItem struct {
	kind      Kind
	role      Role
	completed bool
	parts     map[int]*checkedPart
}

type checkedPart struct {
	typ  PartType
	text strings.Builder
}

// NewChecker returns a checker for one stream.
func NewChecker() *Checker {
	return &Checker{
		eventIDs:  map[string]struct{}{},
		items:     map[string]*checkedItem{},
		turns:     map[string]bool{},
		requests:  map[string]bool{},
		questions: map[string]bool{},
	}
}

// Check checks the next event of the stream.
func (c *Checker) Check(ev *Event) error {
	c.n++
	fail := func(rule error, format string, args ...any) error {
		return &StreamError{Sequence: ev.Sequence, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	if err := Validate(ev); err != nil {
		c.account(ev)
		return &StreamError{Sequence: ev.Sequence, Rule: err}
	}
	if ev.CleanJSON {
		if n := unclean(ev); n != "" {
			return fail(ErrNotClean, "%s", n)
		}
	}
	if ev.Sequence != c.n {
		return fail(ErrSequence, "want %d, got %d", c.n, ev.Sequence)
	}
	if _, dup := c.eventIDs[ev.EventID]; dup {
		return fail(ErrDuplicateEventID, "%s", ev.EventID)
	}
	c.eventIDs[ev.EventID] = struct{}{}
	if c.ended {
		return fail(ErrAfterSessionEnd, "%s", ev.Type)
	}
	if c.n == 1 {
		if ev.Type != TypeSessionStarted {
			return fail(ErrNotFirst, "first event is %s", ev.Type)
		}
		c.session = ev.SessionID
	}
	if ev.SessionID != c.session {
		return fail(ErrSessionChanged, "%q then %q", c.session, ev.SessionID)
	}
	switch d := ev.Data.(type) {
	case *SessionStarted:
		if c.started {
			return fail(ErrStartedTwice, "")
		}
		c.started = true
	case *SessionEnded:
		for _, id := range slices.Sorted(maps.Keys(c.items)) {
			if !c.items[id].completed {
				return fail(ErrOpenAtEnd, "%s", id)
			}
		}
		c.ended = true
	case *TurnStarted:
		c.turns[d.TurnID] = true
	case *TurnEnded:
		if !c.turns[d.TurnID] {
			return fail(ErrTurn, "%s", d.TurnID)
		}
		delete(c.turns, d.TurnID)
	case *ItemSnapshot:
		if ev.Type == TypeItemStarted {
			return c.start(ev, &d.Item, fail)
		}
		return c.complete(&d.Item, fail)
	case *ItemDelta:
		it, ok := c.items[d.ItemID]
		switch {
		case !ok:
			return fail(ErrItemNotStarted, "%s", d.ItemID)
		case it.completed:
			return fail(ErrDeltaAfterEnd, "%s", d.ItemID)
		}
		p := it.parts[d.PartIndex]
		if p == nil {
			p = &checkedPart{typ: d.PartType}
			it.parts[d.PartIndex] = p
		} else if p.typ != d.PartType {
			return fail(ErrDeltaPart, "%s part %d is %s, delta says %s", d.ItemID, d.PartIndex, p.typ, d.PartType)
		}
		p.text.WriteString(d.Delta)
	case *Permission:
		if ev.Type == TypePermissionRequested {
			c.requests[d.PermissionID] = true
		} else if !c.requests[d.PermissionID] {
			return fail(ErrUnrequested, "permission %s", d.PermissionID)
		} else {
			delete(c.requests, d.PermissionID)
		}
	case *Question:
		if ev.Type == TypeQuestionRequested {
			c.questions[d.QuestionID] = true
		} else if !c.questions[d.QuestionID] {
			return fail(ErrUnrequested, "question %s", d.QuestionID)
		} else {
			delete(c.questions, d.QuestionID)
		}
	}
	return nil
}

// account takes note of what an invalid event starts or ends (its id, the
// session, a turn, an item, a request), so that one invalid event is one
// error, not one for every event after it that refers to it.
func (c *Checker) account(ev *Event) {
	if c.n == 1 {
		c.session = ev.SessionID
	}
	if ev.EventID != "" {
		c.eventIDs[ev.EventID] = struct{}{}
	}
	switch d := ev.Data.(type) {
	case *SessionStarted:
		c.started = true
	case *SessionEnded:
		c.ended = true
	case *TurnStarted:
		if d != nil {
			c.turns[d.TurnID] = true
		}
	case *TurnEnded:
		if d != nil {
			delete(c.turns, d.TurnID)
		}
	case *ItemSnapshot:
		switch {
		case d == nil:
		case ev.Type == TypeItemStarted:
			if _, dup := c.items[d.Item.ItemID]; !dup {
				// Known, with no parts: its deltas and completion are
				// not compared with a start that was broken.
				c.items[d.Item.ItemID] = &checkedItem{kind: d.Item.Kind, role: d.Item.Role, parts: map[int]*checkedPart{}}
			}
		case c.items[d.Item.ItemID] != nil:
			c.items[d.Item.ItemID].completed = true
		}
	case *Permission:
		if d != nil {
			if ev.Type == TypePermissionRequested {
				c.requests[d.PermissionID] = true
			} else {
				delete(c.requests, d.PermissionID)
			}
		}
	case *Question:
		if d != nil {
			if ev.Type == TypeQuestionRequested {
				c.questions[d.QuestionID] = true
			} else {
				delete(c.questions, d.QuestionID)
			}
		}
	}
}

func (c *Checker) start(ev *Event, it *Item, fail func(error, string, ...any) error) error {
	if _, dup := c.items[it.ItemID]; dup {
		return fail(ErrItemRestarted, "%s", it.ItemID)
	}
	if it.ParentID != "" {
		if _, ok := c.items[it.ParentID]; !ok {
			return fail(ErrParent, "%s names %s", it.ItemID, it.ParentID)
		}
	}
	ci := &checkedItem{kind: it.Kind, role: it.Role, parts: map[int]*checkedPart{}}
	for i := range it.Content {
		p := &it.Content[i]
		if p.Type.Streams() {
			cp := &checkedPart{typ: p.Type}
			cp.text.WriteString(p.Streamed())
			ci.parts[i] = cp
		}
	}
	c.items[it.ItemID] = ci
	return nil
}

func (c *Checker) complete(it *Item, fail func(error, string, ...any) error) error {
	ci, ok := c.items[it.ItemID]
	switch {
	case !ok:
		return fail(ErrItemNotStarted, "%s", it.ItemID)
	case ci.completed:
		return fail(ErrCompletedTwice, "%s", it.ItemID)
	case it.Kind != ci.kind:
		return fail(ErrKindChanged, "%s: kind %s then %s", it.ItemID, ci.kind, it.Kind)
	case ci.role != "" && it.Role != ci.role:
		return fail(ErrKindChanged, "%s: role %s then %s", it.ItemID, ci.role, it.Role)
	}
	if it.ParentID != "" {
		if _, ok := c.items[it.ParentID]; !ok || it.ParentID == it.ItemID {
			return fail(ErrParent, "%s names %s", it.ItemID, it.ParentID)
		}
	}
	ci.completed = true
	for _, i := range slices.Sorted(maps.Keys(ci.parts)) {
		p := ci.parts[i]
		if p.text.Len() == 0 {
			continue
		}
		if i < len(it.Content) && it.Content[i].Rewritten {
			// The final part replaces whatever streamed at its index.
			continue
		}
		if i >= len(it.Content) || it.Content[i].Type != p.typ {
			return fail(ErrDeltaPart, "%s part %d (%s) missing from the completed item", it.ItemID, i, p.typ)
		}
		if final := &it.Content[i]; final.Streamed() != p.text.String() {
			return fail(ErrDeltaText, "%s part %d: streamed %q, final %q", it.ItemID, i, clip(p.text.String()), clip(final.Streamed()))
		}
	}
	ci.parts = nil
	return nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:40] + "…" + s[len(s)-40:]
	}
	return s
}

// Finish reports an error if the stream did not end with session.ended.
func (c *Checker) Finish() error {
	if !c.ended {
		return &StreamError{Rule: ErrNotEnded}
	}
	return nil
}

// CheckStream checks a whole stream and returns every broken invariant,
// joined (nil if none).
func CheckStream(events []Event) error {
	c := NewChecker()
	var errs []error
	for i := range events {
		if err := c.Check(&events[i]); err != nil {
			errs = append(errs, err)
		}
	}
	if err := c.Finish(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
