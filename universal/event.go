package universal

import (
	"encoding/json"
	"time"
)

// Type names an event type. Decoding accepts any type; the constants below
// are the ones this version writes.
type Type string

// The event types.
const (
	TypeSessionStarted      Type = "session.started"
	TypeSessionEnded        Type = "session.ended"
	TypeTurnStarted         Type = "turn.started"
	TypeTurnEnded           Type = "turn.ended"
	TypeItemStarted         Type = "item.started"
	TypeItemDelta           Type = "item.delta"
	TypeItemCompleted       Type = "item.completed"
	TypeError               Type = "error"
	TypePermissionRequested Type = "permission.requested"
	TypePermissionResolved  Type = "permission.resolved"
	TypeQuestionRequested   Type = "question.requested"
	TypeQuestionResolved    Type = "question.resolved"
	TypeUsageUpdated        Type = "usage.updated"
	TypeUnparsed            Type = "agent.unparsed"
)

// Known reports whether t is one of the event types of this version.
func (t Type) Known() bool {
	switch t {
	case TypeSessionStarted, TypeSessionEnded, TypeTurnStarted, TypeTurnEnded,
		TypeItemStarted, TypeItemDelta, TypeItemCompleted, TypeError,
		TypePermissionRequested, TypePermissionResolved,
		TypeQuestionRequested, TypeQuestionResolved, TypeUsageUpdated, TypeUnparsed:
		return true
	}
	return false
}

// Source says who produced an event: the agent (a native payload) or the
// daemon (a synthetic event that fills a gap in the native stream).
type Source string

// The sources.
const (
	SourceAgent  Source = "agent"
	SourceDaemon Source = "daemon"
)

// Event is the universal envelope. Every field is always written; empty
// NativeSessionID and nil Raw are written as null.
//
// Synthetic mirrors Source: it is true exactly when Source is SourceDaemon.
// The stamper sets both; the validator rejects events where they disagree.
//
// Events from a translator are read-only for their consumers: they share
// memory with one another (strings, raw JSON values, tool inputs, and the
// parts of an item's item.started and item.completed when those parts are
// the same), so a consumer that wants to change an event changes a copy
// (see [Item.Clone]).
type Event struct {
	EventID         string
	Sequence        int64
	Time            time.Time
	SessionID       string
	NativeSessionID string
	Synthetic       bool
	Source          Source
	Type            Type
	// Data is the event's payload: a pointer to the data type that matches
	// Type (see the table in the package documentation), or *Unknown for an
	// event type this version does not know.
	Data Data
	// Raw is the native payload the event came from, when the caller opted
	// in; nil otherwise.
	Raw json.RawMessage
	// Extra holds envelope fields this version does not know, in the order
	// they were decoded; they are written back after the known fields.
	Extra []Field
	// CleanJSON says that every raw JSON value the event holds (Raw, the
	// values of Extra fields, and those of Data: metadata, details, JSON
	// parts) is empty or already in the form the encoder writes: valid,
	// compact JSON with valid UTF-8. The encoder and package reduce then
	// copy those values instead of checking and compacting them again.
	//
	// The translators of this module and Decode set it; the event checker
	// ([Checker]) verifies it. It is not part of the wire form. Leave it
	// false on events you build, and clear it when you change a raw value
	// of an event that has it: a value that breaks the promise would be
	// written as it is.
	CleanJSON bool
	// Transient says that the translator that made the event reuses the
	// memory behind its id, delta data, item snapshot and raw payload in
	// its next call (Options.ReuseEvents). A consumer that keeps such an
	// event past that keeps a copy of its own (package sessionlog keeps
	// the event decoded from its JSON). It is not part of the wire form.
	Transient bool
}

// Field is one JSON object member that a decoder did not recognise.
type Field struct {
	Name  string
	Value json.RawMessage
}

// Data is the payload of an event. Every data type in this package
// implements it.
type Data interface {
	// AppendJSON appends the JSON encoding of the data to dst.
	AppendJSON(dst []byte) []byte
}

// TimeLayout is the layout of the envelope's time field: RFC 3339 in UTC
// with milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z"
