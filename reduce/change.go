package reduce

import (
	"strings"

	"github.com/agentnorm/agentnorm/universal"
)

// Change is what applying one event did to a session.
type Change struct {
	Sequence int64
	Type     universal.Type
	// Duplicate is set when the event's sequence was already applied; the
	// session did not change.
	Duplicate bool
	// What is the set of things that changed.
	What What
	// From and To are the status before and after the event, when What
	// has StatusChanged.
	From, To Status
	// ItemID is the item the event was about ("" for none); TurnID the
	// turn of a turn event or usage report. They may be the event's own
	// strings: a Change kept beyond the life of its event's memory (a
	// translator's with universal.Options.ReuseEvents, which its next
	// call reuses) needs strings.Clone of them.
	ItemID string
	TurnID string
}

// Has reports whether everything in w changed.
func (c Change) Has(w What) bool { return c.What&w == w }

// What is a set of kinds of change.
type What uint32

// The kinds of change.
const (
	// StatusChanged: Session.Status moved from Change.From to Change.To.
	StatusChanged What = 1 << iota
	// SessionChanged: session identity, metadata, title or end.
	SessionChanged
	// TurnChanged: a turn started or ended (Change.TurnID).
	TurnChanged
	// ItemAdded: a new item (Change.ItemID).
	ItemAdded
	// ContentChanged: the item's content changed.
	ContentChanged
	// TextChanged: the concatenated text of the item's text parts is not
	// what it was before the event. A completion that only confirms what
	// the deltas streamed does not set it.
	TextChanged
	// ItemCompleted: the item completed; its content is final.
	ItemCompleted
	// PermissionChanged: a permission was requested or resolved.
	PermissionChanged
	// QuestionChanged: a question was asked or answered.
	QuestionChanged
	// ErrorAdded: an error event was recorded.
	ErrorAdded
	// UsageChanged: a usage report was folded.
	UsageChanged
	// UnparsedAdded: an agent.unparsed event was recorded.
	UnparsedAdded
	// AnomalyAdded: the event broke the stream contract (Session.Anomalies).
	AnomalyAdded
)

var whatNames = [...]string{
	"status", "session", "turn", "item_added", "content", "text", "item_completed",
	"permission", "question", "error", "usage", "unparsed", "anomaly",
}

// String returns the names of the changes joined by "|", "none" for none.
func (w What) String() string {
	if w == 0 {
		return "none"
	}
	var b strings.Builder
	for i, name := range whatNames {
		if w&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte('|')
			}
			b.WriteString(name)
		}
	}
	return b.String()
}
