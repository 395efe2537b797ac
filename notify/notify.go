// Package notify turns a session's universal events into the notifications
// a client of a coding-agent session wants — status transitions, the
// assistant's consolidated text while it grows, tool calls and results,
// turn completions — in one shape, whether they are pushed as they happen
// (an MCP notifications/message, a WebSocket frame) or polled later since an
// index:
//
//	{"index":3,"type":"message","text":"I'll list the files.","role":"assistant"}
//
// (the keys whose value is empty are left out: see Event).
//
// The types:
//
//	status       Text is the new status: running, idle, completed, failed, terminated
//	message      Text is the consolidated text of the assistant message being written,
//	             when it differs from the last one notified: while it grows (every
//	             Throttle of event time after it started), and when it completes
//	tool_call    ToolName, and the call's key argument (or its arguments) in Text,
//	             when the call's item completes: failed too, when its agent says
//	             so and its arguments are whole (a command that failed or was
//	             cancelled as it ran), not when they were cut off or the daemon
//	             closed the call at its turn's end (it may never have run)
//	tool_result  ToolName of the call it answers, its output in Text
//	completion   a turn finished; Text is its final assistant text
//
// A turn finishes when it ends completed or interrupted (stopped by its
// user, it ends as a completed turn does: the session goes idle). A turn
// that ended in error makes no completion: a failure is reported as the
// status failed, not as a completion (running → failed on an error,
// running → idle on a completion), so a client never shows a failed turn
// as done; the status failed says it
// (with an error notification when the agent gave its error), and the
// turn's text was notified as its messages completed. Nor does a turn
// that ended only because its session ended under it: the session's
// final status says how it ended.
//
// and, beyond those five types, what a client shows while the agent waits
// for its user, and why a session failed:
//
//	permission           the agent waits for a permission: ToolName is the guarded
//	                     tool's (or the request's own name for it), Text the call's
//	                     key argument, as tool_call's
//	permission_resolved  it was answered: Text is approved or denied
//	question             the agent asks its user: Text is the question
//	question_resolved    it was answered: Text is answered or rejected
//	error                an error the agent gave up on: Text is its message (an
//	                     error the agent retries makes none; the final one does);
//	                     or, before the status failed, a session that ended in
//	                     error with no error notified since its last turn
//	                     started (its process exited with a non-zero code, its
//	                     output stopped in the middle of a turn): Text is the
//	                     end's message and the line of its stderr that says
//	                     why (the first that names an error, panic, fatal or
//	                     exception, else the last that is not blank: banners
//	                     come first), joined by ": " (one of them when the other
//	                     is empty or the message holds the line; an end with
//	                     neither makes none)
//
// History an agent replays is not notified: an ACP agent that loads (or
// resumes) a session sends its old turns again, each a turn whose
// turn.started metadata has "replay": true. Nothing of such a turn makes
// a notification — its messages, tool calls and results, permissions,
// questions, its completion — and it changes no status (package reduce
// counts none of it as work), so a reload makes no running/idle flicker;
// the live work after it is notified as any is (a text the history held
// is news when live work writes it). An error is never history (a load
// that fails says why with one), nor is the session's end; both bring
// the status up to date.
//
// A notification about a sub-agent's work has SessionID set to the
// sub-agent's id (the call_id of the call that spawned it); the session's
// own notifications leave it empty. Assistant text is never sent per token,
// and never twice: the same consolidated text makes no second notification.
// The text a model writes before a tool call is notified before the call.
//
// Besides the session's state (package reduce) and the polling ring, a
// feed keeps, for every assistant message being written, when its text was
// last notified: freed when the message completes, when its turn ends, or
// when the session stops running (idle or ended), so that a message that
// never completes (its producer left out its item.completed, its stream was
// cut off) is not kept for the life of the feed; the last text notified of the session and of each sub-agent
// (what keeps a text from being notified twice); the ids of the
// permissions and questions notified; and whether an error was notified
// since the last turn started.
//
// Example (runnable) feeds a recorded session and polls since an index.
package notify

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Event is one notification. Index is its position in the feed, from 0;
// a pushed event carries its index too, so a client that both receives
// pushes and polls drops what it already has and misses nothing.
//
// Its JSON has index and type always; text, tool_name, role and
// session_id are left out when empty (omitempty), so a client reads an
// absent key as "". Which may be absent:
//
//	text        never on status and message; on completion when its turn
//	            wrote no assistant text; on tool_call when the call has
//	            neither a key argument nor arguments; on tool_result when the
//	            output was empty; on error, question and permission when the
//	            agent gave no message, prompt or name
//	tool_name   on every type but tool_call, tool_result and permission; on
//	            those when the tool has no name (a tool_result's call unknown)
//	role        on every type but message and completion (always "assistant")
//	session_id  on the session's own notifications (only a sub-agent's have it)
type Event struct {
	Index     int    `json:"index"`
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	ToolName  string `json:"tool_name,omitempty"`
	Role      string `json:"role,omitempty"`
	SessionID string `json:"session_id,omitempty"`
}

// The notification types.
const (
	TypeStatus     = "status"
	TypeMessage    = "message"
	TypeToolCall   = "tool_call"
	TypeToolResult = "tool_result"
	TypeCompletion = "completion"

	TypePermission         = "permission"
	TypePermissionResolved = "permission_resolved"
	TypeQuestion           = "question"
	TypeQuestionResolved   = "question_resolved"
	TypeError              = "error"
)

// DefaultLimit is the size of the polling buffer when Options.Limit is 0.
const DefaultLimit = 1024

// DefaultThrottle is Options.Throttle when 0.
const DefaultThrottle = time.Second

// Options configure a Feed.
type Options struct {
	// Push receives every notification as it is made, in order; nil
	// pushes nothing (poll only). It is called with the feed locked: it
	// must not call the feed back. An error it returns does not stop the
	// pushes of the notifications after it (see Feed.Apply).
	Push func(Event) error
	// Limit bounds the polling buffer, a ring: the oldest notifications
	// make room for new ones (DefaultLimit when 0).
	Limit int
	// Throttle is the least event time between two notifications of a
	// message that is still growing (DefaultThrottle when 0; negative:
	// only when the message completes). Event time is the events' own
	// time, so a replay notifies exactly as the live run did. A live feed
	// needs events stamped with the real time: translators' default
	// clock steps a millisecond per event (reproducible output), so with
	// it a message's text is notified when it completes, not while it
	// grows. Set universal.Options.Clock to universal.WallClock.
	Throttle time.Duration
}

// Feed makes the notifications of one session. It is safe for concurrent
// use: one goroutine applies events while others poll.
type Feed struct {
	opt Options

	mu    sync.Mutex
	s     reduce.Session
	last  map[string]string    // per scope ("" or a sub-agent id): the text notified last
	grow  map[string]time.Time // per assistant message still growing: when it was last notified
	asked map[string]*request  // the permissions and questions notified, by kind and id
	ring  []Event
	start int // the oldest index in the ring
	next  int
	// shown is the status notified last (idle before any).
	shown reduce.Status
	// errored: an error was notified since the last turn started (the
	// failure a session's end in error follows was told already).
	errored bool
}

// NewFeed returns an empty feed.
func NewFeed(o Options) *Feed {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	if o.Throttle == 0 {
		o.Throttle = DefaultThrottle
	}
	return &Feed{opt: o, shown: reduce.StatusIdle, last: map[string]string{}, grow: map[string]time.Time{}, asked: map[string]*request{}}
}

// ErrPush wraps an error of Options.Push; the notification stays in the
// buffer for polling.
var ErrPush = errors.New("notify: push")

// Apply folds an event into the session and makes the notifications it
// implies. A duplicate event makes none; an event out of sequence is an
// error (reduce.ErrGap) and changes nothing. Every notification is pushed,
// in order, even after a push of the same event failed; the errors of the
// pushes that failed are joined (errors.Join), each wrapping ErrPush
// (errors.Is(err, ErrPush)), and the notifications they were pushing stay
// in the buffer for polling.
func (f *Feed) Apply(ev *universal.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, err := f.s.Apply(ev)
	if err != nil || c.Duplicate {
		return err
	}
	var out []Event
	note := func(e Event) { out = append(out, e) }

	// History an agent replays (an ACP session/load's turns) makes no
	// notification, and the status it gives the session none either: a
	// status is notified when an event that is not history leaves the
	// session in another status than the one notified last.
	history := f.replayed(ev, &c)
	status := !history && f.s.Status != f.shown
	// Leaving running for idle or an end comes after the turn's
	// completion, and failing after the error that says why (an error's,
	// a session's end's); every other transition comes first.
	settling := status && (f.shown == reduce.StatusRunning || ev.Type == universal.TypeSessionEnded || ev.Type == universal.TypeError)
	if status && !settling {
		note(Event{Type: TypeStatus, Text: string(f.s.Status)})
	}
	if status {
		f.shown = f.s.Status
	}
	data := ev.Data
	if history {
		data = nil // nothing of it is notified
	}
	switch d := data.(type) {
	case *universal.ItemDelta:
		if it := f.s.Item(d.ItemID); it != nil && f.isMessage(it) && f.opt.Throttle > 0 && it.CompletedSeq == 0 {
			// The first notification comes a Throttle after the message
			// started, so a short message makes one notification only.
			// The key is the session's copy of the id: a delta's own
			// may be memory its translator reuses (Event.Transient).
			id := it.Item.ItemID
			if t, ok := f.grow[id]; !ok {
				f.grow[id] = ev.Time
			} else if ev.Time.Sub(t) >= f.opt.Throttle {
				f.grow[id] = ev.Time
				f.message(it, note)
			}
		}
	case *universal.ItemSnapshot:
		it := f.s.Item(d.Item.ItemID)
		if it == nil {
			break
		}
		switch {
		case f.isMessage(it):
			if ev.Type == universal.TypeItemCompleted {
				delete(f.grow, it.Item.ItemID)
				f.message(it, note)
			} else if it.CompletedSeq == 0 && f.opt.Throttle > 0 {
				f.grow[it.Item.ItemID] = ev.Time
			}
		case it.Item.Kind == universal.KindToolCall && ev.Type == universal.TypeItemCompleted && invoked(it, ev):
			// The narration before a call comes first.
			if p := f.s.Item(it.Item.ParentID); p != nil && f.isMessage(p) {
				f.message(p, note)
			}
			for _, p := range it.Item.Content {
				if p.Type == universal.PartToolCall {
					note(Event{Type: TypeToolCall, ToolName: p.Name, Text: callText(&p), SessionID: f.scope(it)})
				}
			}
		case it.Item.Kind == universal.KindToolResult && ev.Type == universal.TypeItemCompleted:
			for _, p := range it.Item.Content {
				if p.Type == universal.PartToolResult {
					name := ""
					if call := f.s.ToolCall(p.CallID); call != nil {
						for _, cp := range call.Item.Content {
							if cp.Type == universal.PartToolCall {
								name = cp.Name
							}
						}
					}
					note(Event{Type: TypeToolResult, ToolName: name, Text: p.Output, SessionID: f.scope(it)})
				}
			}
		}
	case *universal.Permission:
		// Asked again (an agent that repeats a request, a replay, ids
		// that restart) is no news; answered is, once, in the scope
		// of the request (an answer rarely names the guarded item).
		switch key := "p" + d.PermissionID; {
		case !c.Has(reduce.PermissionChanged):
		case ev.Type == universal.TypePermissionRequested && f.asked[key] == nil:
			e := f.permission(d)
			f.asked[key] = &request{scope: e.SessionID}
			note(e)
		case ev.Type == universal.TypePermissionResolved && f.asked[key] != nil && !f.asked[key].answered:
			f.asked[key].answered = true
			note(Event{Type: TypePermissionResolved, Text: string(d.Status), SessionID: f.asked[key].scope})
		}
	case *universal.Question:
		switch key := "q" + d.QuestionID; {
		case !c.Has(reduce.QuestionChanged):
		case ev.Type == universal.TypeQuestionRequested && f.asked[key] == nil:
			scope := f.scope(f.s.Item(d.ItemID))
			f.asked[key] = &request{scope: scope}
			note(Event{Type: TypeQuestion, Text: d.Prompt, SessionID: scope})
		case ev.Type == universal.TypeQuestionResolved && f.asked[key] != nil && !f.asked[key].answered:
			f.asked[key].answered = true
			note(Event{Type: TypeQuestionResolved, Text: string(d.Status), SessionID: f.asked[key].scope})
		}
	case *universal.Error:
		if c.Has(reduce.ErrorAdded) && !d.WillRetry {
			note(Event{Type: TypeError, Text: d.Message})
			f.errored = true
		}
	case *universal.TurnStarted:
		if c.Has(reduce.TurnChanged) {
			f.errored = false
		}
	case *universal.SessionEnded:
		// A session that ended in error with no error told since its
		// last turn started (its process died, the daemon gave up on
		// it): the end's message says why, with its stderr's line that does.
		if end := f.s.End; end != nil && end.Seq == ev.Sequence && end.Reason == universal.EndError && !f.errored {
			if text := endText(end); text != "" {
				note(Event{Type: TypeError, Text: text})
				f.errored = true
			}
		}
	case *universal.TurnEnded:
		// A turn that ended only because the session ended under it
		// never finished: no completion (the final status follows). A
		// turn that ended in error did not complete either: its failure
		// is the status failed (running → failed on an error, running →
		// idle on a completion).
		if c.Has(reduce.TurnChanged) && !d.SessionEnding() && d.Status != universal.TurnError {
			note(Event{Type: TypeCompletion, Text: f.finalText(c.TurnID), Role: string(universal.RoleAssistant)})
		}
		if c.Has(reduce.TurnChanged) && len(f.grow) > 0 {
			// Its messages that never completed grow no more.
			for _, it := range f.s.TurnItems(c.TurnID) {
				delete(f.grow, it.Item.ItemID)
			}
		}
	}
	if settling {
		note(Event{Type: TypeStatus, Text: string(f.shown)})
	}
	if c.Has(reduce.StatusChanged) && c.To != reduce.StatusRunning {
		// Nothing is being written any more (the session is idle, or
		// ended): no message grows.
		clear(f.grow)
	}
	var perrs []error
	for _, e := range out {
		e.Index = f.next
		f.next++
		f.keep(e)
		if f.opt.Push != nil {
			// A failed push stops none of the others: a push-only
			// client still gets the status that follows it.
			if err := f.opt.Push(e); err != nil {
				perrs = append(perrs, fmt.Errorf("%w: %w", ErrPush, err))
			}
		}
	}
	return errors.Join(perrs...)
}

// endText is the text of the error notification of a session that ended
// in error: its message and the line of its stderr that says why, joined
// by ": " when it has both. That is the first line naming an error (a Go
// panic's first line, a Node error's before its stack), else the last
// that is not blank: a banner such as Codex's "Reading prompt from
// stdin..." comes first, what a dying process writes last.
func endText(end *reduce.End) string {
	line := ""
	for l := range strings.Lines(end.Stderr) {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		line = l
		if namesError(l) {
			break
		}
	}
	switch {
	case end.Message == "":
		return line
	case line == "" || strings.Contains(end.Message, line):
		return end.Message
	}
	return end.Message + ": " + line
}

// namesError reports whether a line of stderr names an error.
func namesError(l string) bool {
	l = strings.ToLower(l)
	for _, w := range [...]string{"error", "panic", "fatal", "exception"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// replayed reports whether an event is history an agent replays: an event
// of a turn whose turn.started metadata has "replay": true (ACP's
// session/load and session/resume replay the session's turns so), of an
// item that started in such a turn, or that comes while such a turn is
// the innermost open one. An error is not history (a load that failed
// says why with one), nor is the session's end.
func (f *Feed) replayed(ev *universal.Event, c *reduce.Change) bool {
	switch d := ev.Data.(type) {
	case *universal.Error, *universal.SessionEnded:
		return false
	case *universal.TurnStarted:
		return f.replayTurn(cmp.Or(c.TurnID, d.TurnID))
	case *universal.TurnEnded:
		return f.replayTurn(cmp.Or(c.TurnID, d.TurnID))
	}
	if c.ItemID != "" {
		if it := f.s.Item(c.ItemID); it != nil && it.TurnID != "" {
			return f.replayTurn(it.TurnID)
		}
	}
	return f.replayTurn(f.s.OpenTurn())
}

// replayTurn reports whether a turn is a replayed one (see replayed).
func (f *Feed) replayTurn(id string) bool {
	if id == "" {
		return false
	}
	t := f.s.Turn(id)
	return t != nil && t.Replayed()
}

// request is a permission or question notified: its scope, and whether
// its answer was notified too.
type request struct {
	scope    string
	answered bool
}

// invoked reports whether a completed tool call was made: completed, or
// failed as its agent reports it with its arguments whole (it ran and
// failed, or was cancelled while it ran: a call whose item spans its run,
// as ACP's does). A call that failed while its arguments were still being
// written was never made; one the daemon closed when its turn or session
// ended may never have been (a permission denied, a stream cut off).
func invoked(it *reduce.Item, ev *universal.Event) bool {
	if it.Item.Status != universal.StatusFailed {
		return true
	}
	if ev.Synthetic {
		return false
	}
	for _, p := range it.Item.Content {
		if p.Type == universal.PartToolCall && !gjson.Valid(p.Arguments) {
			return false
		}
	}
	return true
}

// isMessage reports whether an item is an assistant message.
func (f *Feed) isMessage(it *reduce.Item) bool {
	return it.Item.Kind == universal.KindMessage && it.Item.Role == universal.RoleAssistant
}

// scope returns the sub-agent an item belongs to: the call_id of the
// nearest task call above it, "" for the session's own items.
func (f *Feed) scope(it *reduce.Item) string {
	for depth := 0; it != nil && depth < 64; depth++ {
		p := f.s.Item(it.Item.ParentID)
		if p == nil {
			return ""
		}
		if p.Item.Kind == universal.KindToolCall && it.Item.Kind != universal.KindToolResult {
			for _, part := range p.Item.Content {
				if part.Type == universal.PartToolCall {
					if part.CallID != "" {
						return part.CallID
					}
					return p.Item.ItemID
				}
			}
		}
		it = p
	}
	return ""
}

// message notifies the consolidated text of an assistant message when it
// differs from the last text notified in its scope.
func (f *Feed) message(it *reduce.Item, note func(Event)) {
	text := it.Text()
	scope := f.scope(it)
	if text == "" || text == f.last[scope] {
		return
	}
	f.last[scope] = text
	note(Event{Type: TypeMessage, Text: text, Role: string(universal.RoleAssistant), SessionID: scope})
}

// permission is the notification of a permission request: the guarded
// call's tool and key argument when the session knows the call, else (or
// while its arguments are still streaming) the request's title, when its
// metadata has one, or its own name for what it asks.
func (f *Feed) permission(d *universal.Permission) Event {
	it := f.s.Item(d.ItemID)
	if it == nil && d.CallID != "" {
		it = f.s.ToolCall(d.CallID)
	}
	e := Event{Type: TypePermission, ToolName: d.Action, SessionID: f.scope(it)}
	if it != nil {
		for _, p := range it.Item.Content {
			if p.Type == universal.PartToolCall {
				e.ToolName, e.Text = p.Name, callText(&p)
				break
			}
		}
	}
	if e.Text == "" {
		if title := gjson.GetBytes(d.Metadata, "title"); title.Type == gjson.String {
			e.Text = title.String()
		}
	}
	if e.Text == "" {
		e.Text = d.Action
	}
	return e
}

// callText is what a tool_call notification shows: the key argument the
// universal tool vocabulary names, else the arguments.
func callText(p *universal.Part) string {
	if in := p.ToolInput; in != nil {
		switch {
		case in.Command != "":
			return in.Command
		case len(in.Paths) > 0:
			return in.Paths[0]
		case in.URL != "":
			return in.URL
		case in.Query != "":
			return in.Query
		case in.Prompt != "":
			return in.Prompt
		}
	}
	return p.Arguments
}

// finalText is the text of the turn's last assistant message of the
// session's own (not a sub-agent's).
func (f *Feed) finalText(turn string) string {
	items := f.s.TurnItems(turn) // indexed by turn: not every item of the session again
	for j := len(items) - 1; j >= 0; j-- {
		if it := items[j]; f.isMessage(it) && f.scope(it) == "" {
			if text := it.Text(); text != "" {
				return text
			}
		}
	}
	return ""
}

// keep stores a notification in the ring: notification i lives at
// ring[i % Limit], and the ring holds the indexes [start, next).
func (f *Feed) keep(e Event) {
	if len(f.ring) < f.opt.Limit {
		f.ring = append(f.ring, e)
	} else {
		f.ring[e.Index%f.opt.Limit] = e
	}
	f.start = max(f.start, e.Index+1-f.opt.Limit)
}

// Since returns the buffered notifications after index (all for -1),
// oldest first: the polling channel. When the oldest wanted ones were
// dropped from the ring already, the result starts at the oldest kept;
// compare its first Index with index+1 to notice.
func (f *Feed) Since(index int) []Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	first := max(index+1, f.start)
	if first >= f.next {
		return nil
	}
	out := make([]Event, 0, f.next-first)
	for i := first; i < f.next; i++ {
		out = append(out, f.ring[i%f.opt.Limit])
	}
	return out
}

// Next returns the index the next notification will have.
func (f *Feed) Next() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.next
}

// Status returns the session's status, as package reduce has it.
func (f *Feed) Status() reduce.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.s.Status
}
