package universal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// Stream writes the events of one session so that they are well-formed by
// construction, whatever order the native input arrives in. Translators
// emit through it instead of stamping events directly. It guarantees:
//
//   - session.started comes first, exactly once (a synthetic one, with
//     {"agent": …} as metadata, if anything is emitted before Begin);
//   - agent.unparsed for native input before the session started is held
//     and emitted right after session.started (see [Stream.Unparsed]), so
//     that noise before an agent's first message (a warning a wrapper
//     printed, a line cut at the start of an excerpt) does not start the
//     session without the metadata that message carries;
//   - every delta and completion refers to a started item, and every item
//     is completed at most once; kind and role never change under one id
//     (a role may be filled in once);
//   - parent ids name items already started;
//   - the text of a part is the text it was started with plus its deltas;
//     a final text that extends it gets the missing suffix as a synthetic
//     delta, one that really differs is kept and the part marked
//     Rewritten, and a message part that never streamed gets one
//     synthetic full-text delta before the completion (so a client of an
//     agent without native deltas reads text the same way);
//   - items left open when their turn or the session ends are completed as
//     failed, turns left open when the session ends are ended;
//   - session.ended comes last; after it, calls emit nothing.
//
// A call the stream cannot honour (a delta for an unknown item, a second
// completion) emits agent.unparsed describing the translator's mistake
// instead of a malformed event, so such bugs are visible in tests.
//
// A Stream is not safe for concurrent use.
type Stream struct {
	agent string
	st    *Stamper
	state streamState
	// open indexes the open items by id once more than openLinear are
	// open; until then (most sessions, always) they are looked for in
	// state.Open, which costs a translator no map and an item no hashing.
	open map[string]*openItem
	// perms and quests index state.Permissions and state.Questions (see
	// openIDs): their lists have holes while these are in use.
	perms, quests openIDs
	// last is the open item the last delta went to: a message's deltas
	// come one after another, and comparing its id is cheaper than
	// hashing it.
	last *openItem
	// parts is scratch memory for the parts of an item Close completes.
	parts []Part
	// With Options.ReuseEvents, the item snapshots of a call's events and
	// their parts, which the next call hands out again: only the events
	// refer to them (an open item's own parts are its own memory).
	snaps     recycled[ItemSnapshot]
	snapParts recycled[Part]
}

type streamState struct {
	Begun       bool                `json:"begun,omitempty"`
	Ended       bool                `json:"ended,omitempty"`
	Open        []*openItem         `json:"open,omitempty"` // in start order
	Seen        map[string]struct{} `json:"seen,omitempty"`
	Turns       []string            `json:"turns,omitempty"` // open turns, innermost last
	Permissions []string            `json:"permissions,omitempty"`
	Questions   []string            `json:"questions,omitempty"`
	// Held is agent.unparsed data of native input before the session
	// started, in input order (see Unparsed).
	Held []heldUnparsed `json:"held,omitempty"`
}

// heldUnparsed is an agent.unparsed event not yet emitted: its data and,
// when events carry raw payloads, the payload (saved in base64, so that
// bytes that are not UTF-8 come back as they were).
type heldUnparsed struct {
	Error    string `json:"error"`
	Location string `json:"location"`
	RawHash  string `json:"raw_hash,omitempty"`
	Raw      []byte `json:"raw,omitempty"`
}

// The most agent.unparsed events held before the session starts, and the
// most bytes they keep (errors, locations and payloads, which may all
// quote native input): past either, the session starts without its
// metadata, as it would without holding (a file of garbage must not be
// held whole). Detection skips up to 8 lines of noise before
// a format's first line, so 16 covers what it accepts.
const (
	maxHeld      = 16
	maxHeldBytes = 1 << 20
)

type openItem struct {
	Item     Item      `json:"item"`
	Turn     string    `json:"turn,omitempty"`
	Streamed []string  `json:"streamed"` // per part, the text so far
	Deltas   []bool    `json:"deltas"`   // per part, whether a delta was emitted
	text     []textBuf // per part, the text behind Streamed
	// done, when not nil, is memory for the completion's snapshot,
	// allocated with the open item (see StartItem).
	done *ItemSnapshot
}

// Sentinel errors that Stream reports in agent.unparsed events.
var (
	ErrUnknownItem = errors.New("unknown item")
	ErrItemClosed  = errors.New("item already completed")
	ErrItemExists  = errors.New("item already started")
	ErrPartIndex   = errors.New("part index out of range")
	ErrPartType    = errors.New("part type does not match")
	ErrReserved    = errors.New("event type must go through its Stream method")
)

// NewStream returns a stream for one session of the named agent.
func NewStream(agent string, o Options) *Stream {
	// The stream and its stamper in one allocation: a translator is made
	// for every session, and a short one's fixed cost counts. The index
	// of open items is made when the first item opens (track): items
	// that arrive whole never do.
	both := new(struct {
		Stream
		Stamper
	})
	both.Stamper = newStamper(o)
	both.Stream = Stream{agent: agent, st: &both.Stamper}
	return &both.Stream
}

// Agent returns the agent name given to NewStream.
func (w *Stream) Agent() string { return w.agent }

// PromiseCleanJSON makes the stream's events carry CleanJSON: see
// [Stamper.PromiseCleanJSON]. The promise covers the metadata given to
// Begin, StartTurn and EndTurn too, which the stream then copies without
// cleaning it again.
func (w *Stream) PromiseCleanJSON() { w.st.PromiseCleanJSON() }

// Stamper returns the stream's stamper, for ids and copies. Events must not
// be emitted through it directly.
func (w *Stream) Stamper() *Stamper { return w.st }

// Recycle marks the start of a translator's call; see [Stamper.Recycle].
func (w *Stream) Recycle() {
	w.st.Recycle()
	if w.st.reuse {
		w.snaps.reset()
		w.snapParts.reset()
	}
}

// NewItemID returns the id of the next item.
func (w *Stream) NewItemID() string { return w.st.NewItemID() }

// Copy copies a string that aliases native input into stable memory.
func (w *Stream) Copy(s string) string { return w.st.Copy(s) }

// CopyValue returns the string value of r (r.Str) in stable memory: a
// copy when it aliases the native input, r.Str itself when gjson
// unescaped it into memory of its own. A long output full of escapes (a
// command's lines) is then held once, not twice.
func (w *Stream) CopyValue(r gjson.Result) string {
	if r.Type != gjson.String || len(r.Str) == 0 {
		return w.st.Copy(r.Str)
	}
	if len(r.Raw) > 1 && unsafe.StringData(r.Str) == unsafe.StringData(r.Raw[1:]) {
		return w.st.Copy(r.Str) // no escape: r.Str is a slice of the input
	}
	if len(r.Raw) >= len(r.Str)+2 && r.Raw[0] == '"' {
		return r.Str // unescaped by gjson into a string of its own
	}
	return w.st.Copy(r.Str)
}

// SetNativeSessionID sets the provider's session id for later events.
func (w *Stream) SetNativeSessionID(id string) { w.st.SetNativeSessionID(id) }

// Begun reports whether session.started was emitted.
func (w *Stream) Begun() bool { return w.state.Begun }

// Ended reports whether session.ended was emitted.
func (w *Stream) Ended() bool { return w.state.Ended }

// Begin emits session.started with the given metadata (a raw JSON object,
// nil for {"agent": …}); metadata without "agent" gets it first, as the
// Conventions want, and metadata that is no JSON object is a mistake
// (session.started gets {"agent": …}, and an agent.unparsed follows). It
// does nothing once the session has started.
func (w *Stream) Begin(dst []Event, metadata []byte, src Source, raw []byte) []Event {
	if w.state.Begun || w.state.Ended {
		return dst
	}
	w.state.Begun = true
	if len(metadata) == 0 {
		dst = w.st.Emit(dst, TypeSessionStarted, src, &SessionStarted{Metadata: w.agentMetadata()}, raw)
		return w.flushHeld(dst)
	}
	// ownRaw's copy is compact, valid JSON (the clean promise, or
	// compacted, a JSON string for what is not JSON): an object starts
	// with its brace.
	md := w.ownRaw(metadata)
	if md[0] != '{' {
		dst = w.st.Emit(dst, TypeSessionStarted, src, &SessionStarted{Metadata: w.agentMetadata()}, raw)
		dst = w.flushHeld(dst)
		return w.mistake(dst, errors.New("session metadata is not a JSON object"), metadata)
	}
	// Get on a view, not GetBytes, which copies the string it finds.
	if !gjson.Get(bytesString(md), "agent").Exists() {
		// {"agent":"x", then the members, or } for none.
		b := w.agentMetadata()
		if md[1] != '}' {
			b = append(b[:len(b)-1], ',')
			md = append(b, md[1:]...)
		} else {
			md = b
		}
	}
	dst = w.st.Emit(dst, TypeSessionStarted, src, &SessionStarted{Metadata: md}, raw)
	return w.flushHeld(dst)
}

// agentMetadata returns {"agent": …} in memory of its own, made only
// when the metadata has no agent (most translators write it first).
func (w *Stream) agentMetadata() []byte {
	var agent jsonw.Object
	return agent.String("agent", w.agent).Bytes()
}

// BeginClean is Begin for metadata that is already what the encoder
// writes (valid, compact JSON with valid UTF-8, as jsonw's builders
// write it) in memory of its own: it becomes the event's as it is,
// neither scanned nor copied, so it must not change afterwards. Begin
// scans and copies what it is given, which for a long system prompt in
// the metadata (Codex sends one of about 24 KB) is a pass the translator
// that built the metadata need not pay. The encoder cleans raw JSON as it
// writes it, so metadata that breaks the promise still encodes valid JSON.
func (w *Stream) BeginClean(dst []Event, metadata []byte, src Source, raw []byte) []Event {
	if len(metadata) == 0 || w.state.Begun || w.state.Ended {
		return w.Begin(dst, metadata, src, raw)
	}
	w.state.Begun = true
	dst = w.st.Emit(dst, TypeSessionStarted, src, &SessionStarted{Metadata: metadata}, raw)
	return w.flushHeld(dst)
}

// heldBytes is what held events keep.
func heldBytes(held []heldUnparsed) int {
	n := 0
	for _, h := range held {
		n += len(h.Error) + len(h.Location) + len(h.Raw)
	}
	return n
}

// flushHeld emits the agent.unparsed events held before the session
// started, right after its session.started.
func (w *Stream) flushHeld(dst []Event) []Event {
	for _, h := range w.state.Held {
		d := &Unparsed{Error: h.Error, Location: h.Location, RawHash: h.RawHash}
		dst = w.st.Emit(dst, TypeUnparsed, SourceDaemon, d, h.Raw)
	}
	w.state.Held = nil
	return dst
}

func (w *Stream) begin(dst []Event) []Event {
	if !w.state.Begun {
		dst = w.Begin(dst, nil, SourceDaemon, nil)
	}
	return dst
}

// Emit emits an event that needs no bookkeeping: error, usage.updated,
// agent.unparsed or an unknown type. Item, turn, session, permission and
// question events have their own methods; Emit refuses them.
func (w *Stream) Emit(dst []Event, typ Type, src Source, data Data, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	switch typ {
	case TypeSessionStarted, TypeSessionEnded, TypeTurnStarted, TypeTurnEnded,
		TypeItemStarted, TypeItemDelta, TypeItemCompleted,
		TypePermissionRequested, TypePermissionResolved,
		TypeQuestionRequested, TypeQuestionResolved:
		return w.mistake(dst, fmt.Errorf("%w: %s", ErrReserved, typ), raw)
	}
	if u, ok := data.(*UsageUpdated); ok && u != nil {
		u.dropNegative()
	}
	return w.st.Emit(dst, typ, src, data, raw)
}

// dropNegative makes counts that are negative unknown (nil): a native
// report that says -5 tokens, or a sum that overflowed, says nothing true
// about usage, and the event stays valid.
func (d *UsageUpdated) dropNegative() {
	for _, n := range []**int64{&d.Usage.InputTokens, &d.Usage.CachedInputTokens, &d.Usage.CacheWriteTokens,
		&d.Usage.OutputTokens, &d.Usage.ReasoningTokens, &d.Usage.TotalTokens, &d.ContextWindow} {
		if *n != nil && **n < 0 {
			*n = nil
		}
	}
	if d.CostUSD != nil && (*d.CostUSD < 0 || math.IsNaN(*d.CostUSD) || math.IsInf(*d.CostUSD, 0)) {
		d.CostUSD = nil
	}
}

// AddCounts returns a + b for token counts, saturating at the largest
// int64 instead of overflowing into a negative number; nil (unknown) when
// both are nil.
func AddCounts(a, b *int64) *int64 {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		v := *b
		return &v
	case b == nil:
		v := *a
		return &v
	}
	v := *a + *b
	if (*a > 0 && *b > 0 && v < 0) || (*a < 0 && *b < 0 && v >= 0) {
		v = math.MaxInt64
		if *a < 0 {
			v = math.MinInt64
		}
	}
	return &v
}

// Unparsed emits agent.unparsed for a native payload: err says what is
// wrong, location where ("line 12", "$.message.content[3]"); the agent's
// name is prefixed to the location.
//
// Before the session has started, the event is held and emitted right
// after session.started, when the translator begins the session with the
// metadata of the agent's first message (or anything else starts it): a
// session whose input starts with noise still starts with its metadata.
// At most 16 events and 1 MiB (their errors, locations and payloads) are
// held; past that the session starts at once, with {"agent": …} as
// metadata, and the held events follow it. A translator that reports the
// end of input ends the session, so nothing held is lost.
func (w *Stream) Unparsed(dst []Event, location string, err error, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	loc := w.agent
	if location != "" {
		loc += ": " + location
	}
	if !w.state.Begun {
		if w.hold(loc, err, raw) {
			return dst
		}
		dst = w.begin(dst)
	}
	return w.st.Unparsed(dst, loc, err, raw)
}

// hold keeps an agent.unparsed event until the session starts, if the
// bounds allow.
func (w *Stream) hold(loc string, err error, raw []byte) bool {
	msg := err.Error()
	size := len(msg) + len(loc)
	keep := w.st.IncludeRaw() && len(raw) > 0
	if keep {
		size += len(raw)
	}
	if len(w.state.Held) == maxHeld || heldBytes(w.state.Held)+size > maxHeldBytes {
		return false
	}
	h := heldUnparsed{Error: msg, Location: strings.Clone(loc)}
	if len(raw) > 0 {
		h.RawHash = RawHash(raw)
	}
	if keep {
		h.Raw = append([]byte(nil), raw...)
	}
	w.state.Held = append(w.state.Held, h)
	return true
}

// mistake reports a call the stream refused.
func (w *Stream) mistake(dst []Event, err error, raw []byte) []Event {
	return w.st.Unparsed(dst, w.agent+": translator", err, raw)
}

// Turn returns the id of the innermost open turn, "" when none is open.
func (w *Stream) Turn() string {
	if n := len(w.state.Turns); n > 0 {
		return w.state.Turns[n-1]
	}
	return ""
}

// StartTurn emits turn.started. An empty id gets a generated one ("turn_1",
// …); starting a turn that is open does nothing. The id is returned.
func (w *Stream) StartTurn(dst []Event, turnID string, metadata []byte, src Source, raw []byte) ([]Event, string) {
	return w.startTurn(dst, turnID, metadata, false, src, raw)
}

// StartTurnClean is StartTurn for metadata that is already what the
// encoder writes, in memory of its own, as [Stream.BeginClean] takes it:
// it becomes the event's as it is, not copied, so it must not change
// afterwards. StartTurn copies what it is given, which for a system prompt
// that comes with every run (Pi's, several KB) is a second copy of memory
// the translator built for the turn.
func (w *Stream) StartTurnClean(dst []Event, turnID string, metadata []byte, src Source, raw []byte) ([]Event, string) {
	return w.startTurn(dst, turnID, metadata, true, src, raw)
}

func (w *Stream) startTurn(dst []Event, turnID string, metadata []byte, clean bool, src Source, raw []byte) ([]Event, string) {
	if w.state.Ended {
		return dst, turnID
	}
	dst = w.begin(dst)
	if turnID == "" {
		turnID = w.st.NewTurnID()
	} else {
		turnID = w.st.Copy(turnID)
	}
	for _, t := range w.state.Turns {
		if t == turnID {
			return dst, turnID
		}
	}
	w.state.Turns = append(w.state.Turns, turnID)
	if !clean || len(metadata) == 0 {
		metadata = w.ownRaw(metadata)
	}
	return w.st.Emit(dst, TypeTurnStarted, src, &TurnStarted{TurnID: turnID, Metadata: metadata}, raw), turnID
}

// EndTurn completes, as failed, the items still open in the turn, then
// emits turn.ended. An empty id means the innermost open turn; ending a
// turn that was never started starts it first (synthetic), so a stream
// picked up mid-turn stays well-formed.
func (w *Stream) EndTurn(dst []Event, turnID string, status TurnStatus, metadata []byte, src Source, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	if turnID == "" {
		turnID = w.Turn()
	}
	idx := -1
	for i, t := range w.state.Turns {
		if t == turnID {
			idx = i
		}
	}
	if idx < 0 {
		dst, turnID = w.StartTurn(dst, turnID, nil, SourceDaemon, nil)
		idx = len(w.state.Turns) - 1
	}
	dst = w.closeOpen(dst, func(o *openItem) bool { return o.Turn == turnID })
	w.state.Turns = append(w.state.Turns[:idx], w.state.Turns[idx+1:]...)
	return w.st.Emit(dst, TypeTurnEnded, src, &TurnEnded{TurnID: turnID, Status: status, Metadata: w.ownRaw(metadata)}, raw)
}

// End closes everything still open and emits session.ended. A session
// that ends while a turn is open ends that turn as the Conventions of the
// package documentation say: each open turn ends interrupted, with
// metadata {"session_ending": true} (see [TurnEnded.SessionEnding]), and
// a session that would have ended completed ends in error instead, with
// the message "the session ended during a turn" unless d has one: the
// agent never finished the turn. Open items complete as failed.
func (w *Stream) End(dst []Event, d SessionEnded, src Source, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	if len(w.state.Turns) > 0 && d.Reason == EndCompleted {
		d.Reason = EndError
		if d.Message == "" {
			d.Message = MessageEndedDuringTurn
		}
	}
	for len(w.state.Turns) > 0 {
		dst = w.EndTurn(dst, "", TurnInterrupted, []byte(sessionEndingMetadata), SourceDaemon, nil)
	}
	dst = w.closeOpen(dst, func(*openItem) bool { return true })
	w.state.Ended = true
	return w.st.Emit(dst, TypeSessionEnded, src, &d, raw)
}

// MessageEndedDuringTurn is the session.ended message of a session whose
// input or process ended while a turn was open and nothing else said why.
const MessageEndedDuringTurn = "the session ended during a turn"

const sessionEndingMetadata = `{"session_ending":true}`

// SessionEnding reports whether the turn ended only because its session
// ended under it (metadata "session_ending": true): a consumer leaves the
// session's status to the session.ended that follows, instead of showing
// the turn as done.
func (d *TurnEnded) SessionEnding() bool {
	return d != nil && gjson.GetBytes(d.Metadata, "session_ending").Type == gjson.True
}

// IsOpen reports whether the item was started and not yet completed.
func (w *Stream) IsOpen(itemID string) bool {
	if w.last != nil && w.last.Item.ItemID == itemID {
		return true // the item the last delta went to, open still (untrack forgets it)
	}
	_, ok := w.find(itemID)
	return ok
}

// Known reports whether the item was ever started.
func (w *Stream) Known(itemID string) bool { _, ok := w.state.Seen[itemID]; return ok }

// Tracked returns a copy of an open item as the stream knows it: the
// started snapshot with every streamed part's text so far.
func (w *Stream) Tracked(itemID string) (Item, bool) {
	o, ok := w.find(itemID)
	if !ok {
		return Item{}, false
	}
	return o.snapshot(), true
}

// StreamedText returns the text streamed so far into part i of an open
// item (the started text plus deltas), "" when there is none. The string
// stays valid; it does not change as more text arrives.
func (w *Stream) StreamedText(itemID string, i int) string {
	o, ok := w.find(itemID)
	if !ok || i < 0 || i >= len(o.text) {
		return ""
	}
	return o.text[i].String()
}

// StartItem emits item.started for it, which must have an ItemID (from
// NewItemID) and a Kind; its status is set to in_progress. The item
// belongs to the innermost open turn. Strings in it must not alias native
// input (use Copy). The parts are copied: the caller may reuse the memory
// of it.Content once StartItem returns.
func (w *Stream) StartItem(dst []Event, it Item, src Source, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	if it.ItemID == "" {
		return w.mistake(dst, errors.New("item without an id"), raw)
	}
	if _, ok := w.state.Seen[it.ItemID]; ok {
		return w.mistake(dst, fmt.Errorf("%w: %s", ErrItemExists, it.ItemID), raw)
	}
	if it.ParentID != "" {
		if _, ok := w.state.Seen[it.ParentID]; !ok {
			dst = w.mistake(dst, fmt.Errorf("%w: parent %s of %s", ErrUnknownItem, it.ParentID, it.ItemID), raw)
			it.ParentID = ""
		}
	}
	if it.Kind == "" {
		it.Kind = KindUnknown
	}
	it.Status = StatusInProgress
	it.Content = validContent(it.Content)
	var o *openItem
	var snap *ItemSnapshot
	var content, started []Part
	if n := len(it.Content); n <= 1 && w.st.reuse {
		// The open item in one allocation; the started snapshot, which
		// only its event refers to, in memory of the last call's events
		// (Complete takes the completed one so too).
		one := new(oneOpen)
		o, content = one.open(n)
		snap, started = &w.snaps.take(1)[0], w.snapParts.take(n)
	} else if n <= 1 {
		// Most items start with one part or none: the open item, the
		// started snapshot and the completed one come in one allocation.
		// (Complete writes the final part in the open item's, which
		// nothing reads once it is complete.)
		one := new(struct {
			oneOpen
			snap    ItemSnapshot
			started [1]Part
			done    ItemSnapshot
		})
		o, content = one.open(n)
		snap, started, o.done = &one.snap, one.started[:n], &one.done
	} else {
		parts := make([]Part, 2*n)
		o, content, snap, started = &openItem{}, parts[:n:n], &ItemSnapshot{}, parts[n:]
		o.text, o.Deltas = make([]textBuf, n), make([]bool, n)
	}
	o.Item, o.Turn = it, w.Turn()
	o.Item.Content = content
	copy(content, it.Content)
	for i := range it.Content {
		if s := it.Content[i].Streamed(); s != "" {
			// The started text is the part's string itself, which does
			// not change (it must not alias native input), viewed full
			// to capacity: a delta's append moves it, as Delta's first
			// copy is moved, and never writes on it.
			o.text[i] = textBuf{b: unsafe.Slice(unsafe.StringData(s), len(s)), n: len(s)}
		}
	}
	w.track(o)
	copy(started, it.Content)
	snap.Item = it
	snap.Item.Content = started
	return w.st.Emit(dst, TypeItemStarted, src, snap, raw)
}

// oneOpen is an open item of one part or none with its lists for that
// part, in one allocation.
type oneOpen struct {
	openItem
	part   [1]Part
	text   [1]textBuf
	deltas [1]bool
}

// open returns the open item, its n (0 or 1) parts and lists set.
func (one *oneOpen) open(n int) (*openItem, []Part) {
	o := &one.openItem
	o.text, o.Deltas = one.text[:n], one.deltas[:n]
	return o, one.part[:n]
}

func (w *Stream) track(o *openItem) {
	if w.state.Seen == nil {
		w.state.Seen = map[string]struct{}{}
	}
	w.state.Seen[o.Item.ItemID] = struct{}{}
	w.state.Open = append(w.state.Open, o)
	w.index(o)
}

// openLinear is the most open items looked for without the map: a few
// string comparisons cost less than hashing the id.
const openLinear = 8

// index adds o, just appended to state.Open, to the map of open items,
// made once more than openLinear are open (and kept: a session that
// opened many at once may again).
func (w *Stream) index(o *openItem) {
	switch {
	case w.open != nil:
		w.open[o.Item.ItemID] = o
	case len(w.state.Open) > openLinear:
		w.indexAll()
	}
}

// indexAll makes the map of the open items.
func (w *Stream) indexAll() {
	w.open = make(map[string]*openItem, 2*len(w.state.Open))
	for _, o := range w.state.Open {
		w.open[o.Item.ItemID] = o
	}
}

// find returns the open item of that id.
func (w *Stream) find(itemID string) (*openItem, bool) {
	if w.open != nil {
		o, ok := w.open[itemID]
		return o, ok
	}
	// The newest first: most calls are for the item started last.
	for i := len(w.state.Open) - 1; i >= 0; i-- {
		if o := w.state.Open[i]; o.Item.ItemID == itemID {
			return o, true
		}
	}
	return nil, false
}

// Delta emits item.delta appending text to part i of an open item. The
// part is created when i is the next index; its type must match
// otherwise. Empty text emits nothing. The text is copied, so it may alias
// native input.
func (w *Stream) Delta(dst []Event, itemID string, i int, typ PartType, text string, src Source, raw []byte) []Event {
	if w.state.Ended || text == "" {
		return dst
	}
	dst = w.begin(dst)
	o, ok := w.last, w.last != nil && w.last.Item.ItemID == itemID
	if !ok {
		if o, ok = w.find(itemID); ok {
			w.last = o
		}
	}
	switch {
	case !ok && w.Known(itemID):
		return w.mistake(dst, fmt.Errorf("%w: delta for %s", ErrItemClosed, itemID), raw)
	case !ok:
		return w.mistake(dst, fmt.Errorf("%w: delta for %s", ErrUnknownItem, itemID), raw)
	case !typ.Streams():
		return w.mistake(dst, fmt.Errorf("%w: %q does not stream", ErrPartType, typ), raw)
	case i < 0 || i > len(o.Item.Content):
		return w.mistake(dst, fmt.Errorf("%w: part %d of %s, which has %d", ErrPartIndex, i, itemID, len(o.Item.Content)), raw)
	case i == len(o.Item.Content):
		p := Part{Type: typ}
		if typ == PartReasoning {
			p.Visibility = VisibilityPublic
		}
		o.Item.Content = append(o.Item.Content, p)
		o.text = append(o.text, textBuf{})
		o.Deltas = append(o.Deltas, false)
	case o.Item.Content[i].Type != typ:
		return w.mistake(dst, fmt.Errorf("%w: part %d of %s is %s, not %s", ErrPartType, i, itemID, o.Item.Content[i].Type, typ), raw)
	}
	text = validUTF8(text)
	delta := o.text[i].add(w.st, text)
	o.Deltas[i] = true
	d := w.st.newDelta()
	d.ItemID, d.NativeItemID, d.Delta, d.PartIndex, d.PartType = itemID, o.Item.NativeItemID, delta, i, typ
	return w.st.Emit(dst, TypeItemDelta, src, d, raw)
}

// Complete emits item.completed with it as the final snapshot (status
// completed unless it says failed). If the item was never started it is
// started first (same source, streamed strings emptied). Before the
// completion, the stream reconciles every streamed part as described on
// Stream; parts that streamed but are missing from it are kept. Strings in
// it must not alias native input. The parts are copied: the caller may
// reuse the memory of it.Content once Complete returns.
func (w *Stream) Complete(dst []Event, it Item, src Source, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	it.Content = validContent(it.Content)
	o, ok := w.find(it.ItemID)
	if !ok {
		if w.Known(it.ItemID) {
			return w.mistake(dst, fmt.Errorf("%w: %s", ErrItemClosed, it.ItemID), raw)
		}
		if it.ItemID != "" && it.Kind != "" && (it.ParentID == "" || w.Known(it.ParentID)) {
			return w.startAndComplete(dst, it, src, raw)
		}
		dst = w.StartItem(dst, startOf(it, nil), src, raw)
		if o, ok = w.find(it.ItemID); !ok {
			return dst
		}
	}
	if it.Status != StatusFailed {
		it.Status = StatusCompleted
	}
	if it.Kind != o.Item.Kind {
		dst = w.mistake(dst, fmt.Errorf("item %s: kind %s changed to %s", it.ItemID, o.Item.Kind, it.Kind), raw)
		it.Kind = o.Item.Kind
	}
	if o.Item.Role != "" && it.Role != o.Item.Role {
		if it.Role != "" {
			dst = w.mistake(dst, fmt.Errorf("item %s: role %s changed to %s", it.ItemID, o.Item.Role, it.Role), raw)
		}
		it.Role = o.Item.Role
	}
	if it.ParentID != o.Item.ParentID && it.ParentID != "" {
		// A parent named only at completion must be another known item.
		if _, ok := w.state.Seen[it.ParentID]; !ok || it.ParentID == it.ItemID {
			it.ParentID = o.Item.ParentID
		}
	}
	it.NativeItemID = firstNonEmpty(it.NativeItemID, o.Item.NativeItemID)
	var snap *ItemSnapshot
	var content []Part
	// was0 is the type part 0 started with, read before the final part
	// may take its place.
	var was0 PartType
	if len(o.Item.Content) > 0 {
		was0 = o.Item.Content[0].Type
	}
	switch n := max(len(it.Content), len(o.Item.Content)); {
	case w.st.reuse:
		// Memory of the last call's events (see StartItem); the final
		// part in the open item's when it has room.
		snap = &w.snaps.take(1)[0]
		if n <= 1 && cap(o.Item.Content) >= 1 {
			content = o.Item.Content[:len(it.Content):1]
		} else {
			content = w.snapParts.take(n)[:len(it.Content)]
		}
	case n <= 1 && o.done != nil && cap(o.Item.Content) >= 1:
		// The memory StartItem set aside: the snapshot, and the open
		// item's part, which is read no more once it is complete.
		snap, content = o.done, o.Item.Content[:len(it.Content):1]
	case n <= 1:
		// The snapshot and its part in one allocation.
		one := new(struct {
			ItemSnapshot
			part [1]Part
		})
		snap, content = &one.ItemSnapshot, one.part[:len(it.Content):n]
	default:
		snap, content = new(ItemSnapshot), make([]Part, len(it.Content), n)
	}
	copy(content, it.Content)
	for i := len(content); i < len(o.Item.Content); i++ {
		p := o.Item.Content[i]
		if p.Type.Streams() {
			p.SetStreamed(o.text[i].String())
		}
		content = append(content, p)
	}
	it.Content = content
	for i := range it.Content {
		was := was0
		if i > 0 && i < len(o.Item.Content) {
			was = o.Item.Content[i].Type // n > 1: not written over
		}
		dst = w.reconcile(dst, o, &it, i, was, raw)
	}
	w.untrack(o)
	// The open item lives as long as its events do: it lets go of the
	// text it streamed, which the completion has as its own.
	clear(o.text)
	snap.Item = it
	return w.st.Emit(dst, TypeItemCompleted, src, snap, raw)
}

// startAndComplete is Complete for an item never started whose start
// needs no repair (it has an id, a kind and a known parent or none), in
// one step: the same item.started (streamed strings empty, except tool
// arguments), the synthetic deltas of message text and the completion,
// without tracking the item in between. Items that arrive whole (a
// transcript's, a stored session's) are most items; tracking each would
// cost several allocations and copies that nothing reads.
func (w *Stream) startAndComplete(dst []Event, it Item, src Source, raw []byte) []Event {
	// The completion's parts are a copy of the caller's (which it may
	// reuse). The start's are the same slice when every part starts as it
	// ends (tool calls keep their arguments; JSON, status, file and image
	// parts never stream), a second copy otherwise: events are read-only
	// for their consumers (see Event), so two may share parts. The
	// snapshots and the parts come in one allocation when the item has
	// one part or none (most have), in one allocation each otherwise.
	n := len(it.Content)
	shared := startsAsItEnds(it.Content)
	var snaps *[2]ItemSnapshot
	var content, started []Part
	switch {
	case w.st.reuse:
		// Only the events refer to them: the last call's memory.
		snaps = (*[2]ItemSnapshot)(w.snaps.take(2))
		if shared {
			content = w.snapParts.take(n)
		} else {
			parts := w.snapParts.take(2 * n)
			content, started = parts[:n:n], parts[n:]
		}
	case n <= 1 && shared:
		one := new(struct {
			snaps [2]ItemSnapshot
			part  [1]Part
		})
		snaps, content = &one.snaps, one.part[:n]
	case n <= 1:
		one := new(struct {
			snaps [2]ItemSnapshot
			parts [2]Part
		})
		snaps, content, started = &one.snaps, one.parts[:n:n], one.parts[n:2*n]
	case shared:
		snaps, content = new([2]ItemSnapshot), make([]Part, n)
	default:
		parts := make([]Part, 2*n)
		snaps, content, started = new([2]ItemSnapshot), parts[:n:n], parts[n:]
	}
	copy(content, it.Content)
	var start Item
	if shared {
		start = it
		start.Content = content
	} else {
		start = startOf(it, started)
	}
	start.Status = StatusInProgress
	if w.state.Seen == nil {
		w.state.Seen = map[string]struct{}{}
	}
	w.state.Seen[it.ItemID] = struct{}{}
	snaps[0].Item = start
	dst = w.st.Emit(dst, TypeItemStarted, src, &snaps[0], raw)
	if it.Status != StatusFailed {
		it.Status = StatusCompleted
	}
	it.Content = content
	// What reconcile does when nothing streamed: message text gets one
	// synthetic delta with all of it; other parts keep their content.
	if it.Kind == KindMessage {
		for i := range it.Content {
			if p := &it.Content[i]; (p.Type == PartText || p.Type == PartReasoning) && p.Text != "" {
				dst = w.syntheticDelta(dst, &it, i, p.Type, p.Text, raw)
			}
		}
	}
	snaps[1].Item = it
	return w.st.Emit(dst, TypeItemCompleted, src, &snaps[1], raw)
}

// startsAsItEnds reports whether startOf would leave every part as it is:
// none has a streamed string to empty (tool arguments are kept) or the
// Rewritten mark.
func startsAsItEnds(ps []Part) bool {
	for i := range ps {
		p := &ps[i]
		if p.Rewritten || (p.Type != PartToolCall && p.Streamed() != "") {
			return false
		}
	}
	return true
}

// startOf returns the started snapshot of an item that arrives complete:
// its streamed strings empty (message text then gets its synthetic
// delta), except tool arguments, known up front. Its parts are written
// to parts (len(it.Content) of them), or to a new slice when parts is nil.
func startOf(it Item, parts []Part) Item {
	start := it
	if parts == nil {
		parts = make([]Part, len(it.Content))
	}
	start.Content = parts
	for i, p := range it.Content {
		if p.Type.Streams() && p.Type != PartToolCall {
			p.SetStreamed("")
		}
		p.Rewritten = false
		start.Content[i] = p
	}
	return start
}

// reconcile makes part i of the final item agree with what was streamed;
// was is the type part i started with (when it did).
func (w *Stream) reconcile(dst []Event, o *openItem, it *Item, i int, was PartType, raw []byte) []Event {
	p := &it.Content[i]
	if i < len(o.text) && was != p.Type {
		// The final part replaces a part of another type.
		if o.text[i].n > 0 {
			p.Rewritten = true
		}
		return dst
	}
	if !p.Type.Streams() {
		return dst
	}
	for len(o.text) <= i {
		// A part only the final snapshot has: track it as empty so the
		// rules below apply to it too. (The open item's parts are read
		// no more: its memory may hold the final parts.)
		o.text = append(o.text, textBuf{})
		o.Deltas = append(o.Deltas, false)
	}
	final := p.Streamed()
	streamed := &o.text[i]
	switch {
	case streamed.equal(final):
	case streamed.n == 0 && !o.Deltas[i]:
		// Nothing streamed. Message text gets one synthetic delta with
		// all of it; other parts simply take the snapshot's content.
		if it.Kind == KindMessage && (p.Type == PartText || p.Type == PartReasoning) {
			dst = w.syntheticDelta(dst, it, i, p.Type, final, raw)
		}
	case streamed.prefixOf(final):
		dst = w.syntheticDelta(dst, it, i, p.Type, final[streamed.n:], raw)
	default:
		p.Rewritten = true
	}
	return dst
}

// syntheticDelta emits a delta the daemon adds for text the final snapshot
// has and no delta streamed. It is called only while the item completes
// (it is untracked right after), so the open item's streamed text is not extended: a copy of a long text
// that nothing reads again would double the memory a big message costs.
func (w *Stream) syntheticDelta(dst []Event, it *Item, i int, typ PartType, text string, raw []byte) []Event {
	return w.st.Delta(dst, ItemDelta{
		ItemID:       it.ItemID,
		NativeItemID: it.NativeItemID,
		Delta:        text,
		PartIndex:    i,
		PartType:     typ,
	}, SourceDaemon, raw)
}

func (w *Stream) untrack(o *openItem) {
	if w.open != nil {
		delete(w.open, o.Item.ItemID)
	}
	if w.last == o {
		w.last = nil
	}
	for i, x := range w.state.Open {
		if x == o {
			w.state.Open = append(w.state.Open[:i], w.state.Open[i+1:]...)
			break
		}
	}
}

// AddPart appends a part to an open item without an event, so that a
// part that does not stream (a file reference, a status, JSON) keeps its
// place among the parts that do: later deltas address the parts after it,
// and the item's completion (Close, or a Complete whose snapshot lacks it)
// carries it. A part that streams is added empty, and its text, if any,
// goes out as its first delta (synthetic), so that what consumers fold
// from the deltas has it. It returns the part's index, or -1 (and the
// refusal, as agent.unparsed in dst) when the item is not open.
func (w *Stream) AddPart(dst []Event, itemID string, p Part) ([]Event, int) {
	o, ok := w.find(itemID)
	if !ok {
		if w.state.Ended {
			return dst, -1
		}
		return w.mistake(w.begin(dst), fmt.Errorf("%w: add a part to %s", ErrUnknownItem, itemID), nil), -1
	}
	p = validContent([]Part{p})[0]
	// A streaming part's text is not kept with the part, which no event
	// shows, but sent as its first delta (synthetic): otherwise a
	// consumer folding the deltas would never see it.
	text := ""
	if p.Type.Streams() {
		text = p.Streamed()
		p.SetStreamed("")
	}
	o.Item.Content = append(o.Item.Content, p)
	o.text = append(o.text, textBuf{})
	o.Deltas = append(o.Deltas, false)
	i := len(o.Item.Content) - 1
	if text != "" {
		dst = w.Delta(dst, itemID, i, p.Type, text, SourceDaemon, nil)
	}
	return dst, i
}

// Close completes an open item with the content the stream tracked (its
// started snapshot plus deltas) and the given status.
func (w *Stream) Close(dst []Event, itemID string, status ItemStatus, src Source, raw []byte) []Event {
	o, ok := w.find(itemID)
	if !ok {
		if w.state.Ended {
			return dst
		}
		return w.mistake(w.begin(dst), fmt.Errorf("%w: close %s", ErrUnknownItem, itemID), raw)
	}
	// The snapshot's parts in the stream's scratch memory (Complete
	// copies them), which keeps no text once it returns.
	it := o.snapshotTo(w.parts[:0])
	it.Status = status
	dst = w.Complete(dst, it, src, raw)
	clear(it.Content)
	w.parts = it.Content[:0]
	return dst
}

// CloseAll completes every open item as failed (synthetic), in start order.
func (w *Stream) CloseAll(dst []Event) []Event {
	return w.closeOpen(dst, func(*openItem) bool { return true })
}

func (w *Stream) closeOpen(dst []Event, match func(*openItem) bool) []Event {
	var todo []string
	for _, o := range w.state.Open {
		if match(o) {
			todo = append(todo, o.Item.ItemID)
		}
	}
	for _, id := range todo {
		dst = w.Close(dst, id, StatusFailed, SourceDaemon, nil)
	}
	return dst
}

func (o *openItem) snapshot() Item { return o.snapshotTo(nil) }

// snapshotTo is snapshot with the parts appended to parts.
func (o *openItem) snapshotTo(parts []Part) Item {
	it := o.Item
	it.Content = append(parts, o.Item.Content...)
	for i := range it.Content {
		if it.Content[i].Type.Streams() {
			it.Content[i].SetStreamed(o.text[i].String())
		}
	}
	return it
}

// RequestPermission emits permission.requested (status requested).
func (w *Stream) RequestPermission(dst []Event, p Permission, src Source, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	p.Status = PermissionRequested
	p.ItemID = w.knownOrEmpty(p.ItemID)
	w.perms.add(&w.state.Permissions, p.PermissionID)
	return w.st.Emit(dst, TypePermissionRequested, src, &p, raw)
}

// ResolvePermission emits permission.resolved; p.Status must be approved
// or denied. A permission never requested is requested first (synthetic).
func (w *Stream) ResolvePermission(dst []Event, p Permission, src Source, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	i := w.perms.find(w.state.Permissions, p.PermissionID)
	if i < 0 {
		dst = w.RequestPermission(dst, p, SourceDaemon, nil)
		i = w.perms.find(w.state.Permissions, p.PermissionID)
	}
	w.perms.remove(&w.state.Permissions, i)
	p.ItemID = w.knownOrEmpty(p.ItemID)
	return w.st.Emit(dst, TypePermissionResolved, src, &p, raw)
}

// PermissionPending reports whether a permission was requested and not resolved.
func (w *Stream) PermissionPending(id string) bool {
	return w.perms.find(w.state.Permissions, id) >= 0
}

// AskQuestion emits question.requested (status requested).
func (w *Stream) AskQuestion(dst []Event, q Question, src Source, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	q.Status = QuestionRequested
	q.ItemID = w.knownOrEmpty(q.ItemID)
	if q.Options == nil {
		q.Options = []string{}
	}
	w.quests.add(&w.state.Questions, q.QuestionID)
	return w.st.Emit(dst, TypeQuestionRequested, src, &q, raw)
}

// ResolveQuestion emits question.resolved; q.Status must be answered or
// rejected. A question never asked is asked first (synthetic).
func (w *Stream) ResolveQuestion(dst []Event, q Question, src Source, raw []byte) []Event {
	if w.state.Ended {
		return dst
	}
	dst = w.begin(dst)
	i := w.quests.find(w.state.Questions, q.QuestionID)
	if i < 0 {
		dst = w.AskQuestion(dst, q, SourceDaemon, nil)
		i = w.quests.find(w.state.Questions, q.QuestionID)
	}
	w.quests.remove(&w.state.Questions, i)
	q.ItemID = w.knownOrEmpty(q.ItemID)
	if q.Options == nil {
		q.Options = []string{}
	}
	return w.st.Emit(dst, TypeQuestionResolved, src, &q, raw)
}

// QuestionPending reports whether a question was asked and not resolved.
func (w *Stream) QuestionPending(id string) bool {
	return w.quests.find(w.state.Questions, id) >= 0
}

func (w *Stream) knownOrEmpty(id string) string {
	if id == "" || w.Known(id) {
		return id
	}
	return ""
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ownRaw returns a copy of raw JSON the translator gave, cleaned as the
// encoder writes it; a translator that promised clean JSON
// (PromiseCleanJSON) gives it clean already, and it is only copied, into
// the stamper's memory as the strings of events are: turn metadata is
// short, and an allocation of its own for each turn's start and end cost
// more than the copy.
func (w *Stream) ownRaw(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	if w.st.clean {
		return w.st.mem.bytes(b)
	}
	return jsonw.AppendRaw(nil, b)
}

// textDoubling is the length of a part's streamed text up to which the
// memory it grows into doubles (see textBuf).
const textDoubling = 256 << 10

// textBuf is the text streamed into a part: the started text plus the
// deltas. It only ever grows at its end, and bytes it has handed out
// (deltas, views of the whole text) are never written over: the next
// delta goes into the room after the last, or into memory of its own.
//
// The whole text is rarely read while it streams (a translator that
// receives deltas passes them on): a delta that does not fit starts a
// new chunk, as large as the text so far up to textDoubling, and the
// text so far is not copied. Reading it whole (String) joins the chunks
// into one buffer with room to grow, and from then on the text grows as
// that one buffer, doubled when full, as a translator that compares the
// cumulative text an agent sends with what streamed reads it for every
// delta.
type textBuf struct {
	b     []byte   // the text, or its start when more has the rest
	more  [][]byte // the rest, in chunks; the last takes the next delta
	n     int      // the length of the whole text
	whole bool     // read whole: grown as b alone
}

// add appends text and returns the buffer's copy of it, which stays as
// it is. A part's first text is copied into the stamper's memory, full to
// capacity: the next delta goes elsewhere, and a part of one delta costs
// no buffer of its own.
func (t *textBuf) add(st *Stamper, text string) string {
	if t.n == 0 && len(t.more) == 0 {
		s := st.Copy(text)
		t.b, t.n = unsafe.Slice(unsafe.StringData(s), len(s)), len(s)
		return s
	}
	last := &t.b
	if len(t.more) > 0 {
		last = &t.more[len(t.more)-1]
	}
	b := *last
	if cap(b)-len(b) < len(text) {
		if !t.whole {
			c := append(make([]byte, 0, max(64, len(text)+min(t.n, textDoubling))), text...)
			t.more = append(t.more, c)
			t.n += len(text)
			return bytesString(c)
		}
		// Read whole: one buffer, doubled, where append grows a slice of
		// some kilobytes by a quarter to a half, so that the text is
		// copied about once more in all. Beyond textDoubling, steps of a
		// quarter keep the copy of a huge text (and a memory twice its
		// size) from stalling a stream.
		b = append(make([]byte, 0, grown(len(b)+len(text))), b...)
	}
	n := len(b)
	b = append(b, text...)
	*last = b
	t.n += len(text)
	return bytesString(b[n:])
}

// grown returns the capacity of a buffer that a text of n bytes read
// whole grows into: twice n up to textDoubling, a quarter more beyond.
func grown(n int) int {
	if n < textDoubling {
		return max(64, 2*n)
	}
	return n + n/4
}

// String returns the whole text. The string stays valid as the text
// grows.
func (t *textBuf) String() string {
	if len(t.more) > 0 {
		b := make([]byte, 0, grown(t.n))
		b = append(b, t.b...)
		for _, c := range t.more {
			b = append(b, c...)
		}
		clear(t.more)
		t.b, t.more = b, t.more[:0]
	}
	t.whole = true
	return bytesString(t.b)
}

// prefixOf reports whether the text is a prefix of s, chunk by chunk.
func (t *textBuf) prefixOf(s string) bool {
	if len(s) < t.n || !strings.HasPrefix(s, bytesString(t.b)) {
		return false
	}
	s = s[len(t.b):]
	for _, c := range t.more {
		if !strings.HasPrefix(s, bytesString(c)) {
			return false
		}
		s = s[len(c):]
	}
	return true
}

// equal reports whether the text is s.
func (t *textBuf) equal(s string) bool { return len(s) == t.n && t.prefixOf(s) }

// validUTF8 replaces invalid UTF-8 with U+FFFD. The stream keeps all text
// valid so that what it tracks survives a JSON checkpoint unchanged and
// compares equal to what the encoder writes.
func validUTF8(s string) string {
	if ascii(s) || utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// ascii reports whether s is ASCII only: a word at a time, the last word
// read overlapping the one before, so that a short text (a delta is
// often a few words) costs two loads and no loop over its tail bytes, as
// utf8.ValidString's would.
func ascii(s string) bool {
	n := len(s)
	if n < 8 {
		for i := 0; i < n; i++ {
			if s[i] >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	b := unsafe.Slice(unsafe.StringData(s), n)
	acc := binary.LittleEndian.Uint64(b[n-8:])
	for i := 0; i+8 <= n; i += 8 {
		acc |= binary.LittleEndian.Uint64(b[i : i+8])
	}
	return acc&0x8080808080808080 == 0
}

// validContent returns parts whose strings are valid UTF-8, copying the
// slice only when something must change.
func validContent(ps []Part) []Part {
	for i := range ps {
		if !validPart(&ps[i]) {
			return fixContent(ps, i)
		}
	}
	return ps
}

// validPart reports whether every string of p is valid UTF-8: each field
// checked in turn, with no list of them built for each part (every item
// started or completed is checked, and nearly all are valid).
func validPart(p *Part) bool {
	return utf8.ValidString(p.Text) && utf8.ValidString(p.Signature) && utf8.ValidString(p.Name) &&
		utf8.ValidString(p.Arguments) && utf8.ValidString(p.CallID) && utf8.ValidString(p.Output) &&
		utf8.ValidString(p.Path) && utf8.ValidString(p.Diff) && utf8.ValidString(p.Mime) &&
		utf8.ValidString(p.Label) && utf8.ValidString(p.Detail)
}

// fixContent is validContent for parts of which part i is the first not
// valid: a copy with the bad bytes of every string replaced.
func fixContent(ps []Part, i int) []Part {
	ps = append([]Part(nil), ps...)
	for ; i < len(ps); i++ {
		p := &ps[i]
		for _, f := range [...]*string{&p.Text, &p.Signature, &p.Name, &p.Arguments, &p.CallID, &p.Output,
			&p.Path, &p.Diff, &p.Mime, &p.Label, &p.Detail} {
			*f = validUTF8(*f)
		}
	}
	return ps
}

// bytesString views b as a string. The stream only ever appends to its
// builders, so bytes already viewed are never overwritten.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// StreamState is what a Stream saves in a checkpoint. It marshals to JSON;
// its content is private to this package and may change between versions.
type StreamState struct {
	Stamper StamperState `json:"stamper"`
	Stream  streamState  `json:"stream"`
}

// State returns the stream's state for a checkpoint. It shares nothing
// with the stream.
func (w *Stream) State() StreamState {
	s := w.state
	s.Open = make([]*openItem, len(w.state.Open))
	for i, o := range w.state.Open {
		c := *o
		c.Item = o.snapshot()
		c.Streamed = make([]string, len(o.text))
		for j := range o.text {
			c.Streamed[j] = strings.Clone(o.text[j].String())
		}
		c.Deltas = append([]bool(nil), o.Deltas...)
		c.text, c.done = nil, nil
		s.Open[i] = &c
	}
	if w.state.Seen != nil {
		s.Seen = make(map[string]struct{}, len(w.state.Seen))
		for k := range w.state.Seen {
			s.Seen[k] = struct{}{}
		}
	}
	s.Turns = append([]string(nil), w.state.Turns...)
	s.Permissions = w.perms.ids(w.state.Permissions)
	s.Questions = w.quests.ids(w.state.Questions)
	s.Held = slices.Clone(w.state.Held)
	for i := range s.Held {
		s.Held[i].Raw = slices.Clone(s.Held[i].Raw)
	}
	return StreamState{Stamper: w.st.State(), Stream: s}
}

// Restore replaces the stream's state with one saved by State.
func (w *Stream) Restore(s StreamState) {
	w.st.Restore(s.Stamper)
	w.state = s.Stream
	w.open = nil
	w.last = nil
	w.perms.reset(w.state.Permissions)
	w.quests.reset(w.state.Questions)
	for _, o := range w.state.Open {
		o.text = make([]textBuf, len(o.Item.Content))
		for j := range o.text {
			if j < len(o.Streamed) && o.Streamed[j] != "" {
				o.text[j] = textBuf{b: []byte(o.Streamed[j]), n: len(o.Streamed[j])}
			}
		}
		for len(o.Deltas) < len(o.text) {
			o.Deltas = append(o.Deltas, false)
		}
		o.Streamed = nil
	}
	if len(w.state.Open) > openLinear {
		w.indexAll()
	}
}
