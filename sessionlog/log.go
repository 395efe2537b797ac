// Package sessionlog keeps sessions as append-only logs of universal
// events and serves them the way a sync client wants them: the whole log or
// the patch since a version, as NDJSON, and a live server-sent event stream
// that starts with the backlog since a version and goes on with new events
// without a seam.
//
// A session's version is the sequence of its last event. Events are never
// changed or reordered and sequences have no gaps, so a client that holds
// the log at version V and appends the patch since V holds exactly the log
// at the new version.
//
// Example (runnable) appends a session's events and serves the patch since
// a version over HTTP; Example_stream keeps a translated agent's events and
// follows the live stream, resuming with Last-Event-ID.
//
// Handler serves GET /sessions/{id}/log[?since=V][&include_raw=true] (NDJSON, header
// X-Session-Version, gzip when the client accepts it) and GET
// /sessions/{id}/stream[?since=V][&include_raw=true] (SSE: each event with id = its sequence,
// Last-Event-ID honoured on reconnect, a heartbeat data event
// {"type":"heartbeat","seq":V,"ts":MS} with id V, the log's version, every
// Heartbeat while nothing happens — not an event: a client skips it,
// universal.ErrHeartbeat — and a retry hint). A stream ends once it has sent
// session.ended, after which nothing follows; a client that reconnects
// holding it gets 204 No Content, which stops a browser's EventSource.
//
// # Raw payloads
//
// An event's raw member is the native payload it came from (a translator
// made with universal.Options.IncludeRaw fills it). A log keeps what it is
// given, payloads included, but serves them only to a request that asks:
// ?include_raw=true (or 1) on the log, the patch and the stream; without
// it (or with false or 0) raw is null and the answer is otherwise byte for
// byte the same (versions, sequences, ids, gzip, Last-Event-ID). A value
// that is none of those is 400.
//
// The log keeps one line per event, with its payload, and where the
// payload is in it: universal.Event.AppendJSON writes raw after every
// member of the envelope but unknown ones (Event.Extra), so RawSpan finds
// it at Append from the lengths of the payload and of what follows it,
// without reading the line, and a line is served without its payload by
// writing the bytes before it, null and the bytes after it: no event is
// encoded again and nothing is copied per request. The event the log
// keeps (Since) holds the line's copy of the payload, not one of its own,
// so a payload is in memory once; a log given no payloads costs 8 bytes
// an event more than the lines. The payloads themselves are what keeping
// them costs: a translator attaches the whole native message to each
// event made from it, so a message that gives three events is kept three
// times (the recorded Claude session of the benchmarks, 26 events: 31.6
// kB of lines with payloads, 12.8 kB without; the whole log 87 kB against
// 51 kB). A server that nobody asks payloads of translates without
// IncludeRaw.
//
// A Log and a Store are safe for concurrent use: any number of readers and
// streams while one ingest appends.
package sessionlog

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/agentnorm/agentnorm/universal"
)

// Errors of Append that callers branch on.
var (
	// ErrGap: an event's sequence is past the next one; append the
	// missing events first. The error is a *GapError with the version.
	ErrGap = errors.New("sessionlog: sequence gap")
	// ErrOtherSession: an event of another session: its session_id
	// is not the log's (a translator stamps universal.Options.SessionID).
	ErrOtherSession = errors.New("sessionlog: event of another session")
	// ErrConflict: an event whose sequence the log already holds, with
	// other content: the log never changes what it acknowledged.
	ErrConflict = errors.New("sessionlog: another event at that sequence")
	// ErrEnded: an event after session.ended, which ends the log:
	// nothing follows it (a stream that sent it ends, and a client
	// holding it is told there is nothing more), so nothing may.
	ErrEnded = errors.New("sessionlog: event after session.ended")
)

// ErrDeleted is Wait's error for a log deleted from its Store while it
// waited: nothing more will come to it there.
var ErrDeleted = errors.New("sessionlog: log deleted")

// GapError reports where a gap is: the log's version and the sequence
// that did not follow it.
type GapError struct {
	Version int64
	Got     int64
}

func (e *GapError) Error() string {
	return fmt.Sprintf("sessionlog: sequence %d does not follow version %d", e.Got, e.Version)
}

func (e *GapError) Unwrap() error { return ErrGap }

// Log is the append-only log of one session.
type Log struct {
	id string

	mu     sync.RWMutex
	events []universal.Event
	lines  [][]byte      // each event's JSON, encoded once
	raws   []span        // where each line's raw payload is
	grown  chan struct{} // closed when the log grows, then replaced

	deleted    chan struct{} // closed by Store.Delete
	deleteOnce sync.Once
}

// NewLog returns an empty log of the session.
func NewLog(sessionID string) *Log {
	return &Log{id: sessionID, grown: make(chan struct{}), deleted: make(chan struct{})}
}

// SessionID returns the session's id.
func (l *Log) SessionID() string { return l.id }

// Version returns the sequence of the last event, 0 for an empty log.
func (l *Log) Version() int64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return int64(len(l.events))
}

// Ended reports whether the log's last event is session.ended: the
// session is over, and by the stream contract nothing follows.
func (l *Log) Ended() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.endsAt(int64(len(l.events)))
}

// endsAt reports whether the event at version v is session.ended (events
// never change, so the answer for a version holds). l.mu is held.
func (l *Log) endsAt(v int64) bool {
	return v >= 1 && v <= int64(len(l.events)) && l.events[v-1].Type == universal.TypeSessionEnded
}

// Append adds events in sequence order. An event whose sequence the log
// already holds is a duplicate and skipped when it is the same event (so a
// producer that re-sends after a lost acknowledgement does no harm); with
// other content it is an ErrConflict. An event past the next sequence is a
// *GapError, and one after session.ended an ErrEnded. Append stops at the
// first error; the events before it stay appended. It keeps copies of the
// event values: the caller may reuse evs (the data they point to is never
// written, as for every event; of a transient event, whose translator
// reuses that data, it keeps a copy).
func (l *Log) Append(evs ...universal.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.events)
	defer func() {
		// Wake the waiters and streams for what was appended, also when
		// an error stopped the rest.
		if len(l.events) > n {
			close(l.grown)
			l.grown = make(chan struct{})
		}
	}()
	for i := range evs {
		ev := &evs[i]
		if ev.SessionID != l.id {
			return fmt.Errorf("%w: %q in the log of %q", ErrOtherSession, ev.SessionID, l.id)
		}
		v := int64(len(l.events))
		switch {
		case ev.Sequence >= 1 && ev.Sequence <= v:
			if line := ev.AppendJSON(nil); !slices.Equal(line, l.lines[ev.Sequence-1]) {
				return fmt.Errorf("%w: sequence %d", ErrConflict, ev.Sequence)
			}
		case ev.Sequence == v+1 && l.endsAt(v):
			return fmt.Errorf("%w: sequence %d", ErrEnded, ev.Sequence)
		case ev.Sequence == v+1:
			// Events are values nobody writes after they are made
			// (package universal, "Concurrency"): the log keeps the value
			// and its JSON, encoded once, without decoding it again. A
			// transient event's memory is its translator's to reuse: the
			// log keeps the event decoded from its JSON instead.
			line := ev.AppendJSON(nil)
			sp := rawSpanOf(ev, line)
			e := *ev
			if ev.Transient {
				if err := e.UnmarshalJSON(line); err != nil {
					return fmt.Errorf("sessionlog: sequence %d: %w", ev.Sequence, err)
				}
			} else if cut, encode := sp.cut(); cut && !encode {
				// The payload is in the line already: the event holds
				// that copy, not a second one.
				e.Raw = line[sp.start:sp.end:sp.end]
			}
			l.events = append(l.events, e)
			l.lines = append(l.lines, line)
			l.raws = append(l.raws, sp)
		default:
			return &GapError{Version: v, Got: ev.Sequence}
		}
	}
	return nil
}

// Since returns the events after version v, in order (all of them for
// v <= 0). The slice and its events must not be changed; they stay valid
// while the log grows.
func (l *Log) Since(v int64) []universal.Event {
	l.mu.RLock()
	defer l.mu.RUnlock()
	v = max(v, 0)
	if v >= int64(len(l.events)) {
		return nil
	}
	return l.events[v:len(l.events):len(l.events)]
}

// Lines returns the JSON of the events after version v, one line each
// without its newline (with its raw payload), and the log's version. The
// bytes must not be changed.
func (l *Log) Lines(v int64) ([][]byte, int64) {
	lines, n, _ := l.linesEnded(v)
	return lines, n
}

// linesEnded is Lines, and whether the last line is session.ended.
func (l *Log) linesEnded(v int64) ([][]byte, int64, bool) {
	e, n, ended := l.entries(v)
	return e.lines, n, ended
}

// entries holds the lines of events from a log, with their events and the
// spans of their payloads.
type entries struct {
	lines  [][]byte
	raws   []span
	events []universal.Event
}

// write writes the i-th line to w, with its payload when raw is set.
func (e *entries) write(w *bufio.Writer, i int, raw bool) {
	writeLine(w, e.lines[i], e.raws[i], &e.events[i], raw)
}

// entries is linesEnded with the events and the spans of their payloads.
func (l *Log) entries(v int64) (entries, int64, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	n := int64(len(l.lines))
	v = max(v, 0)
	if v >= n {
		return entries{}, n, l.endsAt(n)
	}
	return entries{l.lines[v:n:n], l.raws[v:n:n], l.events[v:n:n]}, n, l.endsAt(n)
}

// AppendLine appends the JSON of the event at sequence seq to dst (dst
// unchanged when the log has no such event): as Lines holds it with raw
// set, else with its raw payload written as null, which is the line cut
// around the payload, not encoded again.
func (l *Log) AppendLine(dst []byte, seq int64, raw bool) []byte {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if seq < 1 || seq > int64(len(l.lines)) {
		return dst
	}
	if raw {
		return append(dst, l.lines[seq-1]...)
	}
	return appendWithoutRaw(dst, l.lines[seq-1], l.raws[seq-1], &l.events[seq-1])
}

// Wait blocks until the log's version is past v, ctx is done or the log
// is deleted from its Store, and returns the version (with ctx's error,
// or ErrDeleted, in the other cases).
func (l *Log) Wait(ctx context.Context, v int64) (int64, error) {
	for {
		l.mu.RLock()
		n, grown := int64(len(l.events)), l.grown
		l.mu.RUnlock()
		if n > v {
			return n, nil
		}
		select {
		case <-grown:
		case <-ctx.Done():
			return n, ctx.Err()
		case <-l.deleted:
			return n, ErrDeleted
		}
	}
}

// Store holds the logs of many sessions by id.
type Store struct {
	mu   sync.RWMutex
	logs map[string]*Log
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{logs: map[string]*Log{}} }

// Open returns the session's log, creating an empty one if there is none.
func (s *Store) Open(sessionID string) *Log {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.logs[sessionID]
	if !ok {
		l = NewLog(sessionID)
		s.logs[sessionID] = l
	}
	return l
}

// Get returns the session's log, nil if there is none.
func (s *Store) Get(sessionID string) *Log {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.logs[sessionID]
}

// Delete forgets the session's log (a server evicting a session it keeps
// elsewhere, e.g. in a database). Readers that hold the log keep it, but
// its Wait returns ErrDeleted and its live streams end once they have
// sent what it holds.
func (s *Store) Delete(sessionID string) {
	s.mu.Lock()
	l := s.logs[sessionID]
	delete(s.logs, sessionID)
	s.mu.Unlock()
	if l != nil {
		l.deleteOnce.Do(func() { close(l.deleted) }) // its waiters and streams end
	}
}

// IDs returns the ids of the sessions, sorted.
func (s *Store) IDs() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ids := make([]string, 0, len(s.logs))
	for id := range s.logs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
