package main

import (
	"fmt"
	"sort"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// Notification is the one shape of every notification, pushed or polled
// (the session event shape of MCP session notifications).
//
// Type is one of:
//
//	status       Text is the new status: running, idle, completed, failed, terminated
//	message      Text is an assistant message's text, when it completes and differs
//	             from the last message notified (Role "assistant")
//	tool_call    ToolName and its arguments in Text, when the call is made
//	tool_result  ToolName (of the call it answers) and its output in Text
//	completion   a turn ended; Text is its final assistant text (Role "assistant")
//
// Index is the notification's position in the session feed, from 0. Some
// notifiers send 0 on the streaming channel; here a pushed notification carries
// its index too, so the two channels yield identical records and a client
// that uses both can drop what it already has.
type Notification struct {
	Index     int    `json:"index"`
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	ToolName  string `json:"tool_name,omitempty"`
	Role      string `json:"role,omitempty"`
	SessionID string `json:"session_id,omitempty"`
}

// Feed turns universal events into notifications. Each one is pushed (Push,
// the streaming channel) and kept in a buffer that Since reads (the polling
// channel). Events of several sessions may be interleaved; each session is
// folded by its own reduce.Session.
type Feed struct {
	// Push receives every notification as it is made; nil pushes nothing.
	Push func(Notification) error
	// Limit bounds the buffer (the oldest notifications are dropped); 0
	// keeps them all.
	Limit int

	sessions map[string]*watch
	buf      []Notification
	next     int
}

// watch is what the feed keeps per session.
type watch struct {
	s     reduce.Session
	last  string            // the assistant text notified last (deduplication)
	tools map[string]string // call id → tool name
}

// Apply folds an event into its session and makes the notifications it
// implies. Duplicate events make none; an event out of sequence is an
// error (reduce.ErrGap) and changes nothing.
func (f *Feed) Apply(ev *universal.Event) error {
	if f.sessions == nil {
		f.sessions = map[string]*watch{}
	}
	w := f.sessions[ev.SessionID]
	if w == nil {
		w = &watch{tools: map[string]string{}}
		f.sessions[ev.SessionID] = w
	}
	c, err := w.s.Apply(ev)
	if err != nil || c.Duplicate {
		return err
	}
	var out []Notification
	note := func(n Notification) {
		n.SessionID = ev.SessionID
		out = append(out, n)
	}
	// A status that leaves running for idle comes after the turn's
	// completion; every other transition comes first.
	ending := c.Has(reduce.StatusChanged) && c.From == reduce.StatusRunning
	if c.Has(reduce.StatusChanged) && !ending {
		note(Notification{Type: "status", Text: string(c.To)})
	}
	if c.Has(reduce.ItemCompleted) {
		w.completed(w.s.Item(c.ItemID), note)
	}
	// A turn that ended only because the session ended under it never
	// finished: no completion for it (the session's final status follows).
	if d, ok := ev.Data.(*universal.TurnEnded); ok && c.Has(reduce.TurnChanged) && !d.SessionEnding() {
		note(Notification{Type: "completion", Text: w.finalText(c.TurnID), Role: string(universal.RoleAssistant)})
	}
	if ending {
		note(Notification{Type: "status", Text: string(c.To)})
	}
	for _, n := range out {
		n.Index = f.next
		f.next++
		f.buf = append(f.buf, n)
		if f.Push != nil {
			if err := f.Push(n); err != nil {
				return fmt.Errorf("push: %w", err)
			}
		}
	}
	if f.Limit > 0 && len(f.buf) > f.Limit {
		f.buf = append(f.buf[:0], f.buf[len(f.buf)-f.Limit:]...)
	}
	return nil
}

// completed makes the notifications of a completed item.
func (w *watch) completed(it *reduce.Item, note func(Notification)) {
	switch it.Item.Kind {
	case universal.KindMessage:
		if it.Item.Role != universal.RoleAssistant {
			return
		}
		// Only text that really changed: an empty message or
		// the same consolidated text again makes no notification.
		if text := it.Text(); text != "" && text != w.last {
			w.last = text
			note(Notification{Type: "message", Text: text, Role: string(universal.RoleAssistant)})
		}
	case universal.KindToolCall:
		for _, p := range it.Item.Content {
			if p.Type != universal.PartToolCall {
				continue
			}
			if p.CallID != "" {
				w.tools[p.CallID] = p.Name
			}
			// A call closed as failed (left open when its turn ended) was
			// never made.
			if it.Item.Status != universal.StatusFailed {
				note(Notification{Type: "tool_call", ToolName: p.Name, Text: p.Arguments})
			}
		}
	case universal.KindToolResult:
		for _, p := range it.Item.Content {
			if p.Type == universal.PartToolResult {
				note(Notification{Type: "tool_result", ToolName: w.tools[p.CallID], Text: p.Output})
			}
		}
	}
}

// finalText is the text of the last assistant message of a turn.
func (w *watch) finalText(turn string) string {
	for i := len(w.s.Items) - 1; i >= 0; i-- {
		it := &w.s.Items[i]
		if it.TurnID == turn && it.Item.Kind == universal.KindMessage && it.Item.Role == universal.RoleAssistant {
			if text := it.Text(); text != "" {
				return text
			}
		}
	}
	return ""
}

// Since returns the buffered notifications after index (all of them for
// -1), oldest first: the polling channel. With a Limit, the oldest may be
// gone.
func (f *Feed) Since(index int) []Notification {
	i := sort.Search(len(f.buf), func(i int) bool { return f.buf[i].Index > index })
	return append([]Notification(nil), f.buf[i:]...)
}
