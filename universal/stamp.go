package universal

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"time"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/internal/slab"
)

// A Clock gives the time of the event with the given sequence number. The
// library never reads the wall clock itself: the caller injects one. A
// Clock must be a pure function of its argument for output to be
// reproducible (as [StepClock] is); a host that wants real time passes
// func(int64) time.Time { return time.Now() }.
type Clock func(seq int64) time.Time

// StepClock returns a deterministic clock: event 1 is at start, and each
// later event step after the one before. Because it depends only on the
// sequence number, it survives checkpoint and restore.
func StepClock(start time.Time, step time.Duration) Clock {
	return func(seq int64) time.Time { return start.Add(time.Duration(seq-1) * step) }
}

// DefaultEpoch returns where the default clock starts: a fixed,
// recognisably artificial time (2026-01-01T00:00:00Z). It is a function,
// not a variable, so that no assignment anywhere can change every
// translator's output.
func DefaultEpoch() time.Time { return defaultEpoch }

var defaultEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// WallClock is the clock for a live host that wants the real time of each
// event: the current time in UTC. Nothing uses it unless the caller sets
// it in Options; output stamped with it is not reproducible.
func WallClock(int64) time.Time { return time.Now().UTC() }

// Options configure how a translator stamps its events. The zero value is
// deterministic: session id "sess", the step clock from DefaultEpoch() with
// one millisecond per event, no raw payloads, item ids "itm_1", "itm_2", …
type Options struct {
	// SessionID is the daemon's id of the session ("sess" when empty).
	SessionID string
	// Clock stamps event times (StepClock(DefaultEpoch(), time.Millisecond)
	// when nil).
	Clock Clock
	// IncludeRaw attaches the native payload to every event derived from
	// one. Off, raw is null.
	IncludeRaw bool
	// ItemID names the n-th item of the session (n from 1). It must be a
	// pure function; nil gives "itm_<n>".
	ItemID func(n int64) string
	// ReuseEvents lets a translator reuse the memory behind the events of
	// one call of Translate or Report in its next call, as a
	// bufio.Scanner reuses the bytes Bytes returned: event ids, the data
	// of item.delta events, the item snapshots of item.started and
	// item.completed (the structs and their parts; the strings in them
	// stay valid) and raw payloads are then valid only until the
	// translator is called again. A host that encodes, stores or applies
	// each batch of events before it translates the next message sets it
	// (reduce.Session copies what it keeps), and a stream of text deltas
	// then allocates only as the streamed message's own text outgrows its
	// buffer (a number of allocations that grows with the logarithm of
	// the text, not with the deltas), while an item that arrives whole (a
	// stored session's, a transcript's) allocates nothing of its own.
	// Without it, a delta costs no allocation of its own, but the memory
	// that keeps every event valid grows in blocks, one for every few
	// thousand deltas, and every snapshot is new memory. Other event data
	// (permissions, questions, usage, …) is new memory either way.
	ReuseEvents bool
}

// StamperState is the part of a stamper that changes as events are
// stamped; it is what a translator checkpoint saves.
type StamperState struct {
	Sequence        int64  `json:"sequence"`
	Items           int64  `json:"items"`
	Turns           int64  `json:"turns"`
	NativeSessionID string `json:"native_session_id,omitempty"`
}

// Stamper fills the envelope of events: the gap-free sequence from 1, the
// event id, the time from the injected clock, the session ids, source and
// synthetic flag, and raw when the caller opted in. It also names items.
//
// Strings a Stamper returns and stores in events (ids, copies made with
// Copy, raw payloads) live in append-only memory that is never
// overwritten, so events stay valid after the native input buffer is
// reused, and stamping a text delta allocates nothing in the common case.
// With Options.ReuseEvents, the memory only events refer to is reused
// after each Recycle instead.
//
// A Stamper is not safe for concurrent use.
type Stamper struct {
	sessionID string
	clock     Clock // nil for the default clock, which Emit computes inline
	raw       bool
	clean     bool
	itemID    func(int64) string
	st        StamperState
	id        []byte // the last event id made (see eventID)
	idSeq     int64  // its sequence number
	idOwn     []byte // with ReuseEvents, the last id kept over a Recycle
	mem       arena
	scratch   []byte
	deltas    slab.Slab[ItemDelta]

	// With ReuseEvents, what only events refer to (event ids, raw
	// payloads, delta data) lives in memory that Recycle hands out again.
	reuse   bool
	recent  arena
	recentD recycled[ItemDelta]
}

// NewStamper returns a stamper for one session.
func NewStamper(o Options) *Stamper {
	s := newStamper(o)
	return &s
}

func newStamper(o Options) Stamper {
	s := Stamper{sessionID: o.SessionID, clock: o.Clock, raw: o.IncludeRaw, itemID: o.ItemID, reuse: o.ReuseEvents}
	if s.sessionID == "" {
		s.sessionID = "sess"
	}
	return s
}

// PromiseCleanJSON marks every event the stamper stamps from now on with
// CleanJSON (see [Event]). A translator calls it when every raw JSON value
// it puts in event data is empty or valid, compact JSON with valid UTF-8,
// as the encoder writes it (for example copied from a compact native
// message that was valid UTF-8, or built with a JSON writer); the events'
// consumers then copy those values instead of checking them.
func (s *Stamper) PromiseCleanJSON() { s.clean = true }

// Recycle marks the start of a translator's call (Translate or Report):
// with Options.ReuseEvents, the memory of the events stamped before it is
// handed out again. Without that option it does nothing. Translators
// call it first thing in every call that stamps events.
func (s *Stamper) Recycle() {
	if s.reuse {
		// The last event id, which the next is copied from, is in the
		// memory handed out again: it is kept aside first.
		s.idOwn = append(s.idOwn[:0], s.id...)
		s.id = s.idOwn
		s.recent.buf = s.recent.buf[:0]
		s.recentD.reset()
	}
}

// SessionID returns the daemon's session id.
func (s *Stamper) SessionID() string { return s.sessionID }

// IncludeRaw reports whether events carry native payloads.
func (s *Stamper) IncludeRaw() bool { return s.raw }

// State returns the stamper's mutable state for a checkpoint.
func (s *Stamper) State() StamperState { return s.st }

// Restore sets the state saved by State.
func (s *Stamper) Restore(st StamperState) { s.st = st }

// Sequence returns the sequence number of the last stamped event (0 before
// the first).
func (s *Stamper) Sequence() int64 { return s.st.Sequence }

// SetNativeSessionID sets the provider's session id, written on every
// later event. Invalid UTF-8 in it becomes U+FFFD, as everywhere else, so
// that the id survives a JSON checkpoint unchanged.
func (s *Stamper) SetNativeSessionID(id string) {
	id = validUTF8(id)
	if id != s.st.NativeSessionID {
		s.st.NativeSessionID = s.Copy(id)
	}
}

// NativeSessionID returns the provider's session id, "" while unknown.
func (s *Stamper) NativeSessionID() string { return s.st.NativeSessionID }

// NewItemID returns the id of the next item.
func (s *Stamper) NewItemID() string {
	s.st.Items++
	if s.itemID != nil {
		return s.itemID(s.st.Items)
	}
	b := append(s.scratch[:0], "itm_"...)
	b = strconv.AppendInt(b, s.st.Items, 10)
	s.scratch = b
	return s.mem.str(b)
}

// NewTurnID returns a turn id for agents that have none: "turn_1", "turn_2", …
func (s *Stamper) NewTurnID() string {
	s.st.Turns++
	b := append(s.scratch[:0], "turn_"...)
	b = strconv.AppendInt(b, s.st.Turns, 10)
	s.scratch = b
	return s.mem.str(b)
}

// Copy returns a copy of str in the stamper's memory. Translators use it
// for strings that alias the native input (for example gjson results read
// from an unsafe view of the line).
func (s *Stamper) Copy(str string) string {
	return s.mem.str(unsafe.Slice(unsafe.StringData(str), len(str)))
}

// CopyBytes is Copy for a byte slice.
func (s *Stamper) CopyBytes(b []byte) string { return s.mem.str(b) }

// Emit stamps one event and appends it to dst. raw is the native payload
// the event derives from (nil for none); it is copied, cleaned to strict
// JSON, only when the caller opted in to raw payloads.
func (s *Stamper) Emit(dst []Event, typ Type, src Source, data Data, raw []byte) []Event {
	s.st.Sequence++
	seq := s.st.Sequence
	mem := &s.mem
	if s.reuse {
		mem = &s.recent
	}
	// The event is built in place, field by field: an Event is large,
	// and one built first (a composite literal assigned through a
	// pointer is built aside) would be copied again into dst.
	id := s.eventID(mem, seq)
	var t time.Time
	if s.clock == nil {
		// StepClock(DefaultEpoch(), time.Millisecond), without the call
		// through a func value.
		t = defaultEpoch.Add(time.Duration(seq-1) * time.Millisecond)
	} else {
		t = s.clock(seq)
	}
	if len(dst) == cap(dst) {
		// Doubled, where append grows a slice of more than 256 events
		// by a quarter: a stored session's events, stamped in one call
		// (its replay at the end of input), are copied about once in
		// all instead of four or five times.
		dst = slices.Grow(dst, max(len(dst), 8))
	}
	// Every field is written, once (TestEmitWritesEveryField): the
	// slot may hold an event of an earlier call, and zeroing it first
	// writes it twice.
	dst = dst[:len(dst)+1]
	ev := &dst[len(dst)-1]
	ev.EventID, ev.Sequence, ev.Time = id, seq, t
	ev.SessionID, ev.NativeSessionID = s.sessionID, s.st.NativeSessionID
	ev.Synthetic, ev.Source, ev.Type, ev.Data = src == SourceDaemon, src, typ, data
	ev.Raw, ev.Extra = nil, nil
	ev.CleanJSON, ev.Transient = s.clean, s.reuse
	if s.raw && len(raw) > 0 {
		s.scratch = jsonw.AppendRaw(s.scratch[:0], raw)
		ev.Raw = mem.bytes(s.scratch)
	}
	return dst
}

// eventID returns the id of event seq, "evt_<session>_<seq>", in mem.
// Events are stamped in sequence, so the id is usually the last one
// copied and its number counted up in the copy: the bytes are written
// once, where the event keeps them.
func (s *Stamper) eventID(mem *arena, seq int64) string {
	if prev := s.id; s.idSeq == seq-1 && len(prev) > 0 && cap(mem.buf)-len(mem.buf) >= len(prev) {
		start := len(mem.buf)
		b := append(mem.buf, prev...)
		id := b[start:len(b):len(b)]
		i := len(id) - 1
		for ; id[i] == '9'; i-- {
			id[i] = '0'
		}
		if id[i] >= '0' && id[i] < '9' {
			id[i]++
			mem.buf = b
			s.id, s.idSeq = id, seq
			return unsafe.String(unsafe.SliceData(id), len(id))
		}
		// A carry past the first digit (the copy, not handed out, is
		// written over): written anew below.
	}
	b := append(s.scratch[:0], "evt_"...)
	b = append(b, s.sessionID...)
	b = append(b, '_')
	b = strconv.AppendInt(b, seq, 10)
	s.scratch = b
	id := mem.bytes(b)
	s.id, s.idSeq = id, seq
	return unsafe.String(unsafe.SliceData(id), len(id))
}

// Delta stamps an item.delta without allocating its data separately.
func (s *Stamper) Delta(dst []Event, d ItemDelta, src Source, raw []byte) []Event {
	p := s.newDelta()
	*p = d
	return s.Emit(dst, TypeItemDelta, src, p, raw)
}

// newDelta returns zeroed memory for the data of an item.delta, which the
// caller fills in place (an ItemDelta built first and then copied in is
// written twice).
func (s *Stamper) newDelta() *ItemDelta {
	if s.reuse {
		return &s.recentD.take(1)[0]
	}
	return s.deltas.Alloc(slabFirst, slabMax)
}

// Unparsed stamps an agent.unparsed event (source daemon) for a native
// payload that could not be mapped: err says why, location where (parser
// and position). raw_hash is the SHA-256 of the payload.
func (s *Stamper) Unparsed(dst []Event, location string, err error, raw []byte) []Event {
	d := &Unparsed{Error: err.Error(), Location: location}
	if len(raw) > 0 {
		d.RawHash = RawHash(raw)
	}
	return s.Emit(dst, TypeUnparsed, SourceDaemon, d, raw)
}

// RawHash returns "sha256:" and the hex SHA-256 of b.
func RawHash(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// arena hands out strings and byte slices from large append-only chunks.
// A chunk is never written after its bytes are handed out: when it is
// full a new one is started and the old one lives as long as something
// refers to it. Chunks start small and double up to arenaChunk, so that
// a short session does not pay for a big block it never fills.
type arena struct {
	buf []byte
}

const (
	arenaFirst = 512
	arenaChunk = 64 << 10
)

func (a *arena) bytes(b []byte) []byte {
	n := len(b)
	if n == 0 {
		return nil
	}
	if n > arenaChunk/4 {
		return append([]byte(nil), b...)
	}
	if cap(a.buf)-len(a.buf) < n {
		size := min(max(2*cap(a.buf), arenaFirst), arenaChunk)
		for size < 4*n && size < arenaChunk {
			size *= 2
		}
		a.buf = make([]byte, 0, size)
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	return a.buf[start:len(a.buf):len(a.buf)]
}

func (a *arena) str(b []byte) string {
	c := a.bytes(b)
	if len(c) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(c), len(c))
}

// Blocks of delta data (see slab.Slab) start small and double up to
// slabMax values: a short session does not pay for a big block (one that
// arrives whole has a synthetic delta per message), and a long stream of
// deltas costs one allocation per slabMax of them.
const (
	slabFirst = 4
	slabMax   = 1024
)

// recycled is memory handed out in pieces during one call of a
// translator and handed out again in its next call (Options.ReuseEvents).
type recycled[T any] struct {
	buf []T
}

// recycledMax is the most elements a recycled buffer keeps over a call: a
// call that took more (a stored session replayed at once) does not make
// the translator hold that much for good.
const recycledMax = 256

// take returns n zeroed elements (not nil, even for 0).
func (r *recycled[T]) take(n int) []T {
	if len(r.buf)+n > cap(r.buf) || r.buf == nil {
		// A new buffer: the old one stays with the events that use it.
		r.buf = make([]T, 0, min(max(2*cap(r.buf), 8, n), max(recycledMax, n)))
	}
	s := r.buf[len(r.buf) : len(r.buf)+n : len(r.buf)+n]
	r.buf = r.buf[:len(r.buf)+n]
	clear(s)
	return s
}

// reset hands the buffer out again from its start.
func (r *recycled[T]) reset() {
	if cap(r.buf) > recycledMax {
		r.buf = nil
	}
	r.buf = r.buf[:0]
}
