package conformance

import (
	"errors"
	"fmt"
	"slices"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The rules of the canonical shape, one sentinel each, so a test can show
// every rule failing on a stream that breaks it.
var (
	// ErrToolParent: a tool call or result whose parent is not an
	// assistant message item.
	ErrToolParent = errors.New("tool call or result is not under an assistant message")
	// ErrResultParent: a tool result under another message than its call.
	ErrResultParent = errors.New("tool result is not under its call's message")
	// ErrUnderCall: an item under a tool call that does not start a
	// sub-agent (only a task call has items under it, status items aside).
	ErrUnderCall = errors.New("item under a tool call that is not a task")
	// ErrToolKind: a completed tool call without tool_kind or tool_input.
	ErrToolKind = errors.New("tool call without tool_kind or tool_input")
	// ErrSplitResponse: two assistant message items of one model response
	// (nothing at all between them).
	ErrSplitResponse = errors.New("one model response split into several message items")
	// ErrExitCode: an execute result with a non-zero exit code that is not
	// failed.
	ErrExitCode = errors.New("command with a non-zero exit code is not a failed result")
	// ErrSessionEnding: a turn.ended marked session_ending that is not
	// followed by session.ended (only failed clean-ups between), or a
	// session that ends right after an unmarked turn end it caused.
	ErrSessionEnding = errors.New("turn ended by the session's end is not marked so, or the session goes on")
	// ErrEndedCompleted: a session that ends completed while a turn was
	// open.
	ErrEndedCompleted = errors.New("session ended completed during a turn")
	// ErrSessionInfo: session information as an item (a system item
	// holding only JSON) instead of metadata.
	ErrSessionInfo = errors.New("session information as an item instead of metadata")
	// ErrSharedCallID: two tool calls of the session's live work with the
	// same call_id (a replayed history shows its calls again, with theirs).
	ErrSharedCallID = errors.New("two tool calls share a call_id")
)

// Violation is one place where a stream breaks a rule.
type Violation struct {
	Rule     error
	Sequence int64
	Detail   string
}

func (v Violation) Error() string {
	return fmt.Sprintf("seq %d: %v: %s", v.Sequence, v.Rule, v.Detail)
}

func (v Violation) Unwrap() error { return v.Rule }

// item is what the checks need of one item: its final state and when it
// started.
type item struct {
	it       universal.Item // the completed snapshot, else the started one
	startSeq int64
	endSeq   int64
	replayed bool // started in a turn an agent replays (metadata "replay": true)
}

// Check returns every place where a well-formed stream (one that passes
// universal.CheckStream) breaks the canonical shape of the universal
// package's Conventions.
func Check(events []universal.Event) []Violation {
	var out []Violation
	fail := func(rule error, seq int64, format string, args ...any) {
		out = append(out, Violation{rule, seq, fmt.Sprintf(format, args...)})
	}
	items := map[string]*item{}
	var order []*item
	var turns []bool // open turns, innermost last: whether each is replayed
	for i := range events {
		ev := &events[i]
		switch d := ev.Data.(type) {
		case *universal.TurnStarted:
			turns = append(turns, gjson.GetBytes(d.Metadata, "replay").Type == gjson.True)
		case *universal.ItemSnapshot:
			x := items[d.Item.ItemID]
			if x == nil {
				x = &item{startSeq: ev.Sequence, replayed: len(turns) > 0 && turns[len(turns)-1]}
				items[d.Item.ItemID] = x
				order = append(order, x)
			}
			if ev.Type == universal.TypeItemCompleted || x.endSeq == 0 {
				x.it = d.Item
			}
			if ev.Type == universal.TypeItemCompleted {
				x.endSeq = ev.Sequence
			}
		case *universal.TurnEnded:
			if len(turns) > 0 {
				turns = turns[:len(turns)-1]
			}
			next := nextNonCleanup(events[i+1:])
			if d.SessionEnding() {
				if next == nil || next.Type != universal.TypeSessionEnded && !isSessionEndingTurn(next) {
					fail(ErrSessionEnding, ev.Sequence, "turn %s ended session_ending, then %s", d.TurnID, typeOf(next))
				}
				if next != nil && next.Type == universal.TypeSessionEnded {
					if se, ok := next.Data.(*universal.SessionEnded); ok && se.Reason == universal.EndCompleted {
						fail(ErrEndedCompleted, next.Sequence, "turn %s was open", d.TurnID)
					}
				}
			} else if next != nil && next.Type == universal.TypeSessionEnded && ev.Source == universal.SourceDaemon &&
				d.Status != universal.TurnCompleted {
				fail(ErrSessionEnding, ev.Sequence, "synthetic %s end of turn %s right before session.ended is not marked session_ending", d.Status, d.TurnID)
			}
		}
	}

	// call_id → the call item: the first one, and while walking the items
	// the latest started (a replayed history, such as an ACP session/load
	// after a live turn, shows the same calls again with their ids).
	callOf := map[string]*item{}
	latest := map[string]*item{}
	live := map[string]*item{} // call_id → the live call that has it
	for _, x := range order {
		if x.it.Kind == universal.KindToolCall {
			if id := callID(&x.it); id != "" {
				if _, dup := callOf[id]; !dup {
					callOf[id] = x
				}
				if prev := live[id]; prev != nil && !x.replayed {
					fail(ErrSharedCallID, x.startSeq, "calls %s and %s have call_id %q", prev.it.ItemID, x.it.ItemID, id)
				} else if !x.replayed {
					live[id] = x
				}
			}
		}
	}
	isAssistantMessage := func(id string) bool {
		p := items[id]
		return p != nil && p.it.Kind == universal.KindMessage && p.it.Role == universal.RoleAssistant
	}
	lastMessage := map[string]string{} // per parent: the last item started, when an assistant message
	var marks []int64                  // every item and turn event's sequence, in order
	for i := range events {
		if events[i].Type == universal.TypeTurnStarted || events[i].Type == universal.TypeTurnEnded {
			marks = append(marks, events[i].Sequence)
		}
	}
	for _, x := range order {
		marks = append(marks, x.startSeq)
		if x.endSeq != 0 {
			marks = append(marks, x.endSeq)
		}
	}
	slices.Sort(marks)
	for _, x := range order {
		it := &x.it
		userTool := it.Role == universal.RoleUser // a user's own shell command: no model response
		switch it.Kind {
		case universal.KindToolCall:
			if id := callID(it); id != "" {
				latest[id] = x
			}
			if !userTool && !isAssistantMessage(it.ParentID) {
				fail(ErrToolParent, x.startSeq, "call %s has parent %q", it.ItemID, it.ParentID)
			}
			for _, p := range it.Content {
				if p.Type == universal.PartToolCall && (p.ToolKind == "" || p.ToolInput == nil) {
					fail(ErrToolKind, x.endSeq, "call %s (%s)", it.ItemID, p.Name)
				}
			}
		case universal.KindToolResult:
			call := latest[callID(it)]
			if call == nil {
				call = callOf[callID(it)] // a result written before its call
			}
			switch {
			case userTool || call != nil && call.it.Role == universal.RoleUser:
			case !isAssistantMessage(it.ParentID):
				fail(ErrToolParent, x.startSeq, "result %s has parent %q", it.ItemID, it.ParentID)
			case call != nil && call.it.ParentID != it.ParentID:
				fail(ErrResultParent, x.startSeq, "result %s under %q, its call %s under %q", it.ItemID, it.ParentID, call.it.ItemID, call.it.ParentID)
			}
			for _, p := range it.Content {
				if p.Type != universal.PartToolResult {
					continue
				}
				code := gjson.GetBytes(p.Metadata, "exit_code")
				if code.Type == gjson.Number && code.Int() != 0 && (!p.IsError || it.Status != universal.StatusFailed) {
					fail(ErrExitCode, x.endSeq, "result %s: exit code %d, is_error %v, status %s", it.ItemID, code.Int(), p.IsError, it.Status)
				}
			}
		case universal.KindSystem:
			onlyJSON := len(it.Content) > 0
			for _, p := range it.Content {
				onlyJSON = onlyJSON && p.Type == universal.PartJSON
			}
			if onlyJSON {
				fail(ErrSessionInfo, x.startSeq, "system item %s holds only JSON", it.ItemID)
			}
		}
		// (Calls and results under a call break ErrToolParent already.)
		if p := items[it.ParentID]; p != nil && p.it.Kind == universal.KindToolCall &&
			(it.Kind == universal.KindMessage || it.Kind == universal.KindSystem || it.Kind == universal.KindUnknown) {
			if k := toolKind(&p.it); k != universal.ToolTask {
				fail(ErrUnderCall, x.startSeq, "%s %s under call %s of kind %q", it.Kind, it.ItemID, p.it.ItemID, k)
			}
		}
		// One model response, one message: two assistant messages in a
		// row in one scope, with nothing at all happening between the end
		// of the first and the start of the second (any item started or
		// completed in between — a call, a result, a prompt, a sub-agent's
		// work, a notice the agent feeds the model — or a turn boundary
		// separates them).
		switch {
		case it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant:
			if prev := items[lastMessage[it.ParentID]]; prev != nil && !happened(marks, prev, x) {
				fail(ErrSplitResponse, x.startSeq, "assistant message %s right after assistant message %s", it.ItemID, prev.it.ItemID)
			}
			lastMessage[it.ParentID] = it.ItemID
			if it.Status == universal.StatusFailed {
				// A response cut short (an error, a retry) is not
				// continued by the next one.
				lastMessage[it.ParentID] = ""
			}
		default:
			lastMessage[it.ParentID] = ""
			// A call or result inside a response ends the response in
			// the scope of that response's message too.
			if p := items[it.ParentID]; p != nil {
				lastMessage[p.it.ParentID] = ""
			}
		}
	}
	return out
}

// happened reports whether an item or turn event other than a's and b's
// own falls
// between the end of a (its start, if it never ended) and the start of b.
func happened(marks []int64, a, b *item) bool {
	from := a.endSeq
	if from == 0 {
		from = a.startSeq
	}
	i, _ := slices.BinarySearch(marks, from+1)
	return i < len(marks) && marks[i] < b.startSeq
}

func callID(it *universal.Item) string {
	for _, p := range it.Content {
		if (p.Type == universal.PartToolCall || p.Type == universal.PartToolResult) && p.CallID != "" {
			return p.CallID
		}
	}
	return ""
}

func toolKind(it *universal.Item) universal.ToolKind {
	for _, p := range it.Content {
		if p.Type == universal.PartToolCall {
			return p.ToolKind
		}
	}
	return ""
}

func typeOf(ev *universal.Event) string {
	if ev == nil {
		return "nothing"
	}
	return string(ev.Type)
}

func isSessionEndingTurn(ev *universal.Event) bool {
	d, ok := ev.Data.(*universal.TurnEnded)
	return ok && d.SessionEnding()
}

// nextNonCleanup returns the first event that is not the failed completion
// of an item left open, nil at the end.
func nextNonCleanup(rest []universal.Event) *universal.Event {
	for i := range rest {
		if d, ok := rest[i].Data.(*universal.ItemSnapshot); ok && rest[i].Type == universal.TypeItemCompleted &&
			rest[i].Source == universal.SourceDaemon && d.Item.Status == universal.StatusFailed {
			continue
		}
		return &rest[i]
	}
	return nil
}
