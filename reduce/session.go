package reduce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Status is what a session is doing, as a consumer shows it:
// idle → running on the first work event, running → idle when its turn
// ends, failed on a terminal error, completed or terminated when the
// session ends.
type Status string

// The session statuses.
const (
	StatusIdle       Status = "idle"
	StatusRunning    Status = "running"
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
	StatusTerminated Status = "terminated"
)

// TurnInProgress is the status of a turn that has started and not ended.
const TurnInProgress universal.TurnStatus = "in_progress"

// Errors that Apply returns. It returns them wrapped, with the sequence
// numbers involved; the session is left untouched.
var (
	// ErrGap: the event's sequence is more than one past the last applied
	// one. Fetch the missing events (Since) and apply them first.
	ErrGap = errors.New("reduce: sequence gap")
	// ErrSequence: the event's sequence is below 1.
	ErrSequence = errors.New("reduce: invalid sequence")
	// ErrOtherSession: the event belongs to another session.
	ErrOtherSession = errors.New("reduce: event of another session")
)

// Session is the state of one session folded from its universal events.
// The zero value is an empty session, ready to use.
//
// Its exported fields are for reading; change a Session only through
// Apply (or by unmarshalling a snapshot), which keeps its indexes. Slices
// are in the order things happened: Turns in the order they started,
// Permissions and Questions in the order they were requested. The items,
// in the order they started, are read through methods (NumItems, ItemAt,
// Items, Item, ToolCall, ToolResult, TurnItems): a session keeps each
// completed item packed in a few bytes beyond its content, and decodes it
// when it is read. A Session shares no memory with the events it applied:
// it copies what it keeps.
//
// A Session marshals to deterministic JSON and unmarshals back to an
// equal state that folds the rest of the log exactly as the original
// would. It is not safe for concurrent use.
type Session struct {
	SessionID       string          `json:"session_id"`
	NativeSessionID string          `json:"native_session_id"`
	Metadata        json.RawMessage `json:"metadata"` // from session.started
	// Title is the session's title: session.started metadata "title",
	// then each title the agent reports later (a completed status item
	// labelled "title" that is not under another item).
	Title       string       `json:"title"`
	Status      Status       `json:"status"`
	Sequence    int64        `json:"sequence"`    // the last applied event
	StartedSeq  int64        `json:"started_seq"` // session.started; 0 if not seen
	End         *End         `json:"end"`         // session.ended; nil while running
	Turns       []Turn       `json:"turns"`
	Permissions []Permission `json:"permissions"`
	Questions   []Question   `json:"questions"`
	Errors      []Error      `json:"errors"`
	Unparsed    []Unparsed   `json:"unparsed"`
	Usage       Usage        `json:"usage"`
	// Anomalies lists events the reducer could not fold as the stream
	// contract says (a delta after its item completed, a kind that
	// changed …). A well-formed stream has none.
	Anomalies []Anomaly `json:"anomalies"`

	// items are the session's items in the order they started (see
	// store.go): read them with NumItems, ItemAt, Items and Item.
	items []stored
	idx   *index
}

// index finds things by id. It is derived from the exported fields and
// rebuilt after unmarshalling.
type index struct {
	itemsByID table          // id → position in items
	turns     map[string]int // id → the latest turn with that id, once there are many (see at)
	open      []int          // open turns, innermost last
	// replays holds the positions of the turns that are replayed
	// history (Turn.Replayed), nil in a session without any.
	replays   map[int]struct{}
	perms     map[string]int
	questions map[string]int
	// callsByID finds the items of a call_id for ToolCall and ToolResult,
	// which notify and the transcript call once per result: a scan from
	// the newest item would make them quadratic in a session's calls. It
	// holds positions in callList, whose ids packed items refer to.
	callsByID table
	callList  []call
	calls     []callRef // pack's list of an item's call_ids, reused
	// byTurn lists, per turn id, the positions in items of the items
	// that started in it, for items[:turned]: kept up lazily by
	// TurnItems (an item's turn is set when it is added and never
	// changes, and items are only added).
	byTurn map[string][]int32
	turned int
	// prefix is the sum of the usage of Turns[:prefixN], which total
	// adds the rest to (see total).
	prefix  sumOf
	prefixN int
	// arena holds the packed items and the call_ids; opened the items
	// still open, and free the number + 1 of a slot of opened that is
	// empty (0 for none), whose next says the one after: the empty slots
	// are chained through themselves, so that none costs memory of its
	// own.
	arena  arena
	opened []openSlot
	free   int32
	// sc is the scratch the lists below started in, which also holds
	// the open items packed without being lent, until items start (see
	// spareItem); nil once the session ended.
	sc *scratch
	// batch: ApplyAll is running; borrowed lists the items it started
	// whose strings are still the events' (see settle).
	batch    bool
	borrowed []borrowed
	// last is the position + 1 of the item found or added last (0 for
	// none): an item's events mostly come one after the other (its start,
	// deltas, completion), and a look at it while it is open spares
	// hashing the id for each (itemPos). lastCall is the number + 1 of the
	// call_id found or added last: a tool item's call_id is looked up when
	// it starts, is indexed, completes and is packed, and its result's
	// next (findCall). (Side by side, they take the room of one pointer.)
	last, lastCall int32
}

// openSlot is an item still open, and what goes with it while it is.
type openSlot struct {
	it *Item
	// lent: the item was handed out (ItemAt, Items …) and is not reused.
	lent bool
	// next is, for an empty slot, the number + 1 of the next empty one
	// (see index.free).
	next int32
	// grow[j] accumulates the streamed string of part j while deltas
	// arrive (empty until the first delta after start or restore, emptied
	// when the item is packed). Kept here rather than in Item: only the
	// few items streaming at a time have builders; the list is reused by
	// the items that take the slot after.
	grow []builder
}

// call is what the index knows of one call_id: the newest tool_call and
// tool_result items (positions in items, -1 for none) that ever had a
// part with it, and the id itself, which the items' parts share (the
// call_id of a call, its result and often their native ids is one string).
type call struct {
	id           string
	call, result int32
}

func (ix *index) callKey(k int32) string { return ix.callList[k].id }

// Item is one item of the session with where it happened.
type Item struct {
	TurnID       string `json:"turn_id"`       // the innermost open turn when it started; "" for none
	StartedSeq   int64  `json:"started_seq"`   // the event that created it
	CompletedSeq int64  `json:"completed_seq"` // its item.completed; 0 while open
	// Item is the item as it stands: its started snapshot grown by deltas,
	// or, once completed, the authoritative completed snapshot.
	Item universal.Item `json:"item"`
}

// Turn is one turn of the session.
type Turn struct {
	TurnID string               `json:"turn_id"`
	Status universal.TurnStatus `json:"status"` // TurnInProgress until it ends
	// StartedSeq is the turn.started event; 0 for a turn only seen ending.
	StartedSeq  int64           `json:"started_seq"`
	EndedSeq    int64           `json:"ended_seq"`
	Metadata    json.RawMessage `json:"metadata"`
	EndMetadata json.RawMessage `json:"end_metadata"`
	Usage       TurnUsage       `json:"usage"`
}

// Replayed reports whether the turn is history an agent replays: its
// turn.started metadata has "replay": true (ACP's session/load and
// session/resume send a session's earlier turns again so).
func (t *Turn) Replayed() bool {
	return contains(t.Metadata, `"replay"`) && gjson.GetBytes(t.Metadata, "replay").Type == gjson.True
}

// End is how the session ended.
type End struct {
	Seq          int64               `json:"seq"`
	Reason       universal.EndReason `json:"reason"`
	TerminatedBy universal.Actor     `json:"terminated_by"`
	Message      string              `json:"message"`
	ExitCode     *int                `json:"exit_code"`
	Stderr       string              `json:"stderr"`
}

// Permission is a permission request and, once resolved, its answer.
type Permission struct {
	PermissionID string                     `json:"permission_id"`
	Action       string                     `json:"action"`
	Status       universal.PermissionStatus `json:"status"`
	ItemID       string                     `json:"item_id"` // the guarded tool item, "" when unknown
	CallID       string                     `json:"call_id"`
	Metadata     json.RawMessage            `json:"metadata"`            // from the request
	Resolution   json.RawMessage            `json:"resolution_metadata"` // from the resolution
	RequestedSeq int64                      `json:"requested_seq"`       // 0 when only the resolution was seen
	ResolvedSeq  int64                      `json:"resolved_seq"`        // 0 while pending
}

// Question is a question to the user and, once resolved, its answer.
type Question struct {
	QuestionID   string                   `json:"question_id"`
	Prompt       string                   `json:"prompt"`
	Options      []string                 `json:"options"`
	Response     string                   `json:"response"`
	Status       universal.QuestionStatus `json:"status"`
	ItemID       string                   `json:"item_id"`
	Metadata     json.RawMessage          `json:"metadata"`
	RequestedSeq int64                    `json:"requested_seq"`
	ResolvedSeq  int64                    `json:"resolved_seq"`
}

// Error is one error event.
type Error struct {
	Seq       int64           `json:"seq"`
	Message   string          `json:"message"`
	Code      string          `json:"code"`
	Details   json.RawMessage `json:"details"`
	WillRetry bool            `json:"will_retry"`
}

// Unparsed is one agent.unparsed event: native input the translator could
// not map.
type Unparsed struct {
	Seq      int64  `json:"seq"`
	Error    string `json:"error"`
	Location string `json:"location"`
	RawHash  string `json:"raw_hash"`
}

// Anomaly is an event that broke the stream contract, and what the
// reducer did about it.
type Anomaly struct {
	Seq     int64          `json:"seq"`
	Type    universal.Type `json:"type"`
	Problem string         `json:"problem"`
}

// Replay folds a whole log into a new session. It stops at the first error
// (a gap, an event of another session) and returns the session folded so
// far with it.
func Replay(log []universal.Event) (*Session, error) {
	s := &Session{}
	for i := range log {
		if _, err := s.Apply(&log[i]); err != nil {
			return s, err
		}
	}
	return s, nil
}

// NumItems returns the number of items of the session.
func (s *Session) NumItems() int { return len(s.items) }

// ItemAt returns the item at position i (0 ≤ i < NumItems), in the order
// the items started. An item still open is the session's own: the Apply
// calls that stream into it change it in place (its text grows) until it
// completes, when it stops changing as it was while open (status in
// progress: call ItemAt again for the completed item). A completed item is
// decoded from the session's compact form into a new Item whose strings
// and raw JSON are the session's memory, and never changes. Either way,
// read it and do not modify it; it stays valid after later Apply calls.
func (s *Session) ItemAt(i int) *Item {
	s.index()
	return s.view(i)
}

// Items returns the items in the order they started, as ItemAt does.
func (s *Session) Items() iter.Seq2[int, *Item] {
	return func(yield func(int, *Item) bool) {
		s.index()
		for i := range s.items {
			if !yield(i, s.view(i)) {
				return
			}
		}
	}
}

// Item returns the item with the given id, nil if there is none, as ItemAt
// does.
func (s *Session) Item(id string) *Item {
	i := s.itemPos(id)
	if i < 0 {
		return nil
	}
	return s.view(i)
}

// itemPos returns the position of the item with the given id, -1 if there
// is none.
func (s *Session) itemPos(id string) int {
	ix := s.index()
	if j := int(ix.last) - 1; j >= 0 {
		if it := s.open(j); it != nil && it.Item.ItemID == id {
			return j
		}
	}
	i := int(ix.itemsByID.find(id, s.itemKey))
	if i >= 0 {
		ix.last = int32(i + 1)
	}
	return i
}

// Turn returns the latest turn with the given id, nil if there is none.
// The pointer is valid until the next Apply.
func (s *Session) Turn(id string) *Turn {
	s.index()
	i, ok := s.turnAt(id)
	if !ok {
		return nil
	}
	return &s.Turns[i]
}

// OpenTurn returns the id of the innermost open turn, "" when none is open.
func (s *Session) OpenTurn() string {
	ix := s.index()
	if len(ix.open) == 0 {
		return ""
	}
	return s.Turns[ix.open[len(ix.open)-1]].TurnID
}

// PendingPermissions returns the permissions still waiting for an answer,
// in request order.
func (s *Session) PendingPermissions() []Permission {
	var out []Permission
	for _, p := range s.Permissions {
		if p.Status == universal.PermissionRequested {
			out = append(out, p)
		}
	}
	return out
}

// PendingQuestions returns the questions still waiting for an answer, in
// the order they were asked.
func (s *Session) PendingQuestions() []Question {
	var out []Question
	for _, q := range s.Questions {
		if q.Status == universal.QuestionRequested {
			out = append(out, q)
		}
	}
	return out
}

// index returns the indexes, made on first use (the zero Session).
func (s *Session) index() *index {
	if s.idx == nil {
		s.idx = &index{}
		s.build()
	}
	return s.idx
}

// build makes the indexes of the session's lists (an unmarshalled
// session's; its items are open).
func (s *Session) build() {
	ix := s.idx
	ix.turns = positionsOf(s.Turns, turnID)
	for i := range s.Turns {
		if s.Turns[i].Status == TurnInProgress {
			ix.open = append(ix.open, i)
		}
		ix.replay(s.Turns, i)
	}
	for i := range s.items {
		ix.itemsByID.put(s.itemKey(int32(i)), int32(i), s.itemKey)
		ix.register(s.peek(i), i)
	}
	ix.perms = positionsOf(s.Permissions, permissionID)
	ix.questions = positionsOf(s.Questions, questionID)
}

// Apply folds the next event of the session into the state and reports
// what changed.
//
// Events must come in sequence order. An event whose sequence was already
// applied is a no-op (Change.Duplicate); one that skips a sequence returns
// an error wrapping ErrGap, one of another session ErrOtherSession, and
// one with a sequence below 1 ErrSequence — in all three cases the state
// is left untouched. Every other event is folded, however malformed: what
// breaks the stream contract is recorded in Anomalies, never a panic.
func (s *Session) Apply(ev *universal.Event) (Change, error) {
	c := Change{Sequence: ev.Sequence, Type: ev.Type}
	switch {
	case ev.Sequence < 1:
		return c, fmt.Errorf("%w: %d", ErrSequence, ev.Sequence)
	case s.SessionID != "" && ev.SessionID != s.SessionID:
		return c, fmt.Errorf("%w: %q, not %q (sequence %d)", ErrOtherSession, ev.SessionID, s.SessionID, ev.Sequence)
	case ev.Sequence <= s.Sequence:
		c.Duplicate = true
		return c, nil
	case ev.Sequence > s.Sequence+1:
		return c, fmt.Errorf("%w: applied up to %d, got %d", ErrGap, s.Sequence, ev.Sequence)
	}
	s.index()
	s.Sequence = ev.Sequence
	if s.Status == "" {
		s.Status = StatusIdle
	}
	if s.SessionID == "" && ev.SessionID != "" {
		// The session's ids are copied into the arena, with the
		// call_ids (never written again, kept as long as the session):
		// an allocation each would cost more than the few bytes they
		// hold. (Turn ids there too moved a chunk's end in the worst
		// session of testdata from 1.90× its content to 1.99×.)
		s.SessionID = s.idx.arena.str(ev.SessionID)
		c.What |= SessionChanged
	}
	if ev.NativeSessionID != "" && ev.NativeSessionID != s.NativeSessionID {
		if s.Usage.Session != nil && s.Usage.SessionRun == "" {
			// The next run's events begin: the running total is the
			// run's before it (see Usage.EarlierRuns).
			s.Usage.SessionRun = s.NativeSessionID
		}
		s.NativeSessionID = s.idx.arena.str(ev.NativeSessionID)
		c.What |= SessionChanged
	}
	if s.End != nil {
		s.anomaly(ev, &c, "event after session.ended")
	}
	if !s.dispatch(ev, &c) {
		if ev.Type.Known() {
			s.anomaly(ev, &c, fmt.Sprintf("data of type %T does not match the event type", ev.Data))
		}
	}
	return c, nil
}

// dispatch folds the event by its type. It reports false when the data
// does not match the type, or the type is unknown. (A type switch with
// static calls, so that the Change stays on the stack.)
func (s *Session) dispatch(ev *universal.Event, c *Change) bool {
	t := ev.Type
	ok := false
	switch d := ev.Data.(type) {
	case *universal.SessionStarted:
		if ok = d != nil && t == universal.TypeSessionStarted; ok {
			s.sessionStarted(ev, d, c)
		}
	case *universal.SessionEnded:
		if ok = d != nil && t == universal.TypeSessionEnded; ok {
			s.sessionEnded(ev, d, c)
		}
	case *universal.TurnStarted:
		if ok = d != nil && t == universal.TypeTurnStarted; ok {
			s.turnStarted(ev, d, c)
		}
	case *universal.TurnEnded:
		if ok = d != nil && t == universal.TypeTurnEnded; ok {
			s.turnEnded(ev, d, c)
		}
	case *universal.ItemSnapshot:
		switch ok = d != nil; {
		case ok && t == universal.TypeItemStarted:
			s.itemStarted(ev, d, c)
		case ok && t == universal.TypeItemCompleted:
			s.itemCompleted(ev, d, c)
		default:
			ok = false
		}
	case *universal.ItemDelta:
		if ok = d != nil && t == universal.TypeItemDelta; ok {
			s.itemDelta(ev, d, c)
		}
	case *universal.Error:
		if ok = d != nil && t == universal.TypeError; ok {
			s.error(ev, d, c)
		}
	case *universal.Permission:
		if ok = d != nil && (t == universal.TypePermissionRequested || t == universal.TypePermissionResolved); ok {
			s.permission(ev, d, c)
		}
	case *universal.Question:
		if ok = d != nil && (t == universal.TypeQuestionRequested || t == universal.TypeQuestionResolved); ok {
			s.question(ev, d, c)
		}
	case *universal.UsageUpdated:
		if ok = d != nil && t == universal.TypeUsageUpdated; ok {
			s.usage(ev, d, c)
		}
	case *universal.Unparsed:
		if ok = d != nil && t == universal.TypeUnparsed; ok {
			s.unparsed(ev, d, c)
		}
	}
	return ok
}

func (s *Session) unparsed(ev *universal.Event, d *universal.Unparsed, c *Change) {
	s.Unparsed = append(s.Unparsed, Unparsed{Seq: ev.Sequence, Error: strings.Clone(d.Error), Location: strings.Clone(d.Location), RawHash: strings.Clone(d.RawHash)})
	c.What |= UnparsedAdded
}

func (s *Session) anomaly(ev *universal.Event, c *Change, problem string) {
	s.Anomalies = append(s.Anomalies, Anomaly{Seq: ev.Sequence, Type: universal.Type(strings.Clone(string(ev.Type))), Problem: problem})
	c.What |= AnomalyAdded
}

// setStatus moves the session to status to, recording the transition in c.
// The status of an ended session no longer changes.
func (s *Session) setStatus(to Status, c *Change) {
	if s.End != nil || s.Status == to {
		return
	}
	if c.What&StatusChanged == 0 {
		c.From = s.Status
	}
	s.Status = to
	c.To = to
	c.What |= StatusChanged
	if c.From == c.To { // changed and changed back within one event
		c.What &^= StatusChanged
	}
}

// work records a work event: an idle session starts running. A failed
// session runs again only when a new turn starts (see turnStarted), so the
// clean-up events that follow a failure do not flicker the status. What
// happens in a replayed turn is history, not work.
func (s *Session) work(c *Change) {
	if s.Status == StatusIdle && !s.replaying() {
		s.setStatus(StatusRunning, c)
	}
}

// replaying reports whether the innermost open turn is replayed history.
func (s *Session) replaying() bool {
	ix := s.idx
	if ix.replays == nil || len(ix.open) == 0 {
		return false
	}
	_, ok := ix.replays[ix.open[len(ix.open)-1]]
	return ok
}

// replay records the turn at position i of turns if it is replayed.
func (ix *index) replay(turns []Turn, i int) {
	if !turns[i].Replayed() {
		return
	}
	if ix.replays == nil {
		ix.replays = map[int]struct{}{}
	}
	ix.replays[i] = struct{}{}
}

func (s *Session) sessionStarted(ev *universal.Event, d *universal.SessionStarted, c *Change) {
	if s.StartedSeq != 0 {
		s.anomaly(ev, c, "session started twice; the first start's metadata is kept")
		return
	}
	s.StartedSeq = ev.Sequence
	// Metadata can hold a whole system prompt (Codex's, ~20 KB): it is
	// searched for escapes once, for its canonical form and its title.
	escapes := bytes.Contains(d.Metadata, []byte(`\u`))
	if ev.CleanJSON && !escapes && len(d.Metadata) > 0 && string(d.Metadata) != "null" {
		s.Metadata = bytes.Clone(d.Metadata)
	} else {
		s.Metadata = ownRaw(d.Metadata, ev.CleanJSON)
	}
	s.Title = metadataTitle(s.Metadata, escapes)
	c.What |= SessionChanged
}

// metadataTitle returns session.started metadata's "title", "" for none;
// escapes says whether the metadata may hold a \u escape (the caller
// searched for one already). It skims the metadata's members: a lookup
// of a key would scan every nested value. Most metadata has no title:
// when its text holds neither the quoted key "title" nor a \u00 escape
// that could spell it, a search (much faster than skimming nested
// values) is the whole work. The quotes matter: a search for the bare
// word stops at every t of a system prompt, since bytes.Index tries each
// occurrence of the first byte while false hits stay rare enough.
func metadataTitle(md []byte, escapes bool) string {
	if !contains(md, `"title"`) && (!escapes || !bytes.Contains(md, []byte(`\u00`))) {
		return ""
	}
	var title string
	jsonscan.Skim(unsafe.String(unsafe.SliceData(md), len(md)), func(k, raw string) bool {
		if k != "title" {
			return true
		}
		if t := gjson.Parse(raw); t.Type == gjson.String {
			title = strings.Clone(t.Str)
		}
		return false
	})
	return title
}

// contains is bytes.Contains(b, sep), a window of 4 KB at a time.
// bytes.Index looks for sep's first byte and checks each occurrence,
// and when too many of them fail (JSON's quotes, where keys are dense)
// tries the whole of sep at every byte for the rest of b, never going
// back: on a Codex rollout's session metadata (keys, then a 21 KB system
// prompt with a quote every 180 bytes) that took 3–4 µs for "title",
// and windows, which each start afresh, take 1.0; on dense JSON (an ACP
// agent's metadata, 3.3 KB) both take 0.45 µs.
func contains(b []byte, sep string) bool { return containsWindows(b, sep, 4<<10) }

func containsWindows(b []byte, sep string, window int) bool {
	for {
		n := min(len(b), window+len(sep)-1)
		if bytes.Contains(b[:n], []byte(sep)) {
			return true
		}
		if n == len(b) {
			return false
		}
		b = b[window:]
	}
}

func (s *Session) sessionEnded(ev *universal.Event, d *universal.SessionEnded, c *Change) {
	if s.End != nil {
		// The anomaly for an event after the end is already recorded.
		return
	}
	to := StatusCompleted
	switch d.Reason {
	case universal.EndError:
		to = StatusFailed
	case universal.EndTerminated:
		to = StatusTerminated
	default:
		if s.Status == StatusFailed {
			// A terminal error that no later turn recovered from: the
			// session failed, even if the agent then exited cleanly.
			to = StatusFailed
		}
	}
	s.setStatus(to, c)
	end := &End{
		Seq:          ev.Sequence,
		Reason:       constant(d.Reason, universal.EndCompleted, universal.EndError, universal.EndTerminated),
		TerminatedBy: constant(d.TerminatedBy, universal.ByAgent, universal.ByDaemon),
		Message:      strings.Clone(d.Message),
		Stderr:       strings.Clone(d.Stderr),
	}
	if d.ExitCode != nil {
		code := *d.ExitCode
		end.ExitCode = &code
	}
	s.End = end
	if sc := s.idx.sc; sc != nil {
		sc.spares = [2]spareItem{} // no item starts any more
	}
	s.trim()
	c.What |= SessionChanged
}

func (s *Session) turnStarted(ev *universal.Event, d *universal.TurnStarted, c *Change) {
	ix := s.idx
	c.TurnID = d.TurnID
	if i, ok := s.turnAt(d.TurnID); ok && s.Turns[i].Status == TurnInProgress {
		s.anomaly(ev, c, "turn "+d.TurnID+" started while open")
		return
	}
	id := strings.Clone(d.TurnID)
	ix.open = append(ix.open, len(s.Turns))
	s.Turns = append(s.Turns, Turn{TurnID: id, Status: TurnInProgress, StartedSeq: ev.Sequence, Metadata: ownRaw(d.Metadata, ev.CleanJSON)})
	s.turnAdded()
	ix.replay(s.Turns, len(s.Turns)-1)
	c.What |= TurnChanged
	if s.replaying() {
		return // history: the status stays as it is
	}
	if s.Status == StatusFailed {
		s.setStatus(StatusRunning, c)
	}
	s.work(c)
}

func (s *Session) turnEnded(ev *universal.Event, d *universal.TurnEnded, c *Change) {
	ix := s.idx
	c.TurnID = d.TurnID
	i, ok := s.turnAt(d.TurnID)
	switch {
	case !ok:
		s.anomaly(ev, c, "turn "+d.TurnID+" ended without starting")
		i = len(s.Turns)
		s.Turns = append(s.Turns, Turn{TurnID: strings.Clone(d.TurnID)})
		s.turnAdded()
	case s.Turns[i].Status != TurnInProgress:
		s.anomaly(ev, c, "turn "+d.TurnID+" ended twice; the first end is kept")
		return
	}
	t := &s.Turns[i]
	_, history := ix.replays[i]
	t.Status = constant(d.Status, universal.TurnCompleted, universal.TurnInterrupted, universal.TurnError)
	t.EndedSeq = ev.Sequence
	t.EndMetadata = ownRaw(d.Metadata, ev.CleanJSON)
	// The innermost open turn is the last of open, always one in progress:
	// an inner turn ending leaves, with it, the turns under it that ended
	// before it. A turn that ends under a turn still open stays in open,
	// ended, until it comes to the top: no search and no shift of open for
	// each turn's end (turns ending oldest first were quadratic).
	if n := len(ix.open); n > 0 && ix.open[n-1] == i {
		ix.open = ix.open[:n-1]
		for n = len(ix.open); n > 0 && s.Turns[ix.open[n-1]].Status != TurnInProgress; n-- {
			ix.open = ix.open[:n-1]
		}
	}
	c.What |= TurnChanged
	if len(ix.open) > 0 || s.Status == StatusFailed || d.SessionEnding() || history {
		// An inner turn ended, the session already failed, or the
		// session is ending under the turn: the session.ended that
		// follows sets the status, so it never flickers through idle. A
		// replayed turn's end is history: the status stays.
		return
	}
	if d.Status == universal.TurnError {
		s.setStatus(StatusFailed, c)
	} else {
		s.setStatus(StatusIdle, c)
	}
}

func (s *Session) error(ev *universal.Event, d *universal.Error, c *Change) {
	s.Errors = append(s.Errors, Error{Seq: ev.Sequence, Message: strings.Clone(d.Message), Code: strings.Clone(d.Code), Details: ownRaw(d.Details, ev.CleanJSON), WillRetry: d.WillRetry})
	c.What |= ErrorAdded
	if !d.WillRetry {
		s.setStatus(StatusFailed, c)
	}
}

func (s *Session) permission(ev *universal.Event, d *universal.Permission, c *Change) {
	p, known := entry(&s.Permissions, &s.idx.perms, permissionID, d.PermissionID, func() Permission {
		return Permission{PermissionID: strings.Clone(d.PermissionID), Status: universal.PermissionRequested}
	})
	c.What |= PermissionChanged
	p.Action = fill(p.Action, d.Action)
	p.ItemID = fill(p.ItemID, d.ItemID)
	p.CallID = fill(p.CallID, d.CallID)
	if ev.Type == universal.TypePermissionRequested && !known {
		p.Metadata = ownRaw(d.Metadata, ev.CleanJSON)
	}
	valid := d.Status == universal.PermissionApproved || d.Status == universal.PermissionDenied
	if s.lifecycle(ev, c, "permission "+d.PermissionID, known, string(d.Status), valid, &p.RequestedSeq, &p.ResolvedSeq) {
		p.Status = constant(d.Status, universal.PermissionApproved, universal.PermissionDenied)
		p.Resolution = ownRaw(d.Metadata, ev.CleanJSON)
	}
}

func (s *Session) question(ev *universal.Event, d *universal.Question, c *Change) {
	q, known := entry(&s.Questions, &s.idx.questions, questionID, d.QuestionID, func() Question {
		return Question{QuestionID: strings.Clone(d.QuestionID), Status: universal.QuestionRequested}
	})
	c.What |= QuestionChanged
	q.Prompt = fill(q.Prompt, d.Prompt)
	q.ItemID = fill(q.ItemID, d.ItemID)
	if q.Options == nil && len(d.Options) > 0 {
		q.Options = make([]string, len(d.Options))
		for i, o := range d.Options {
			q.Options[i] = strings.Clone(o)
		}
	}
	if q.Metadata == nil {
		q.Metadata = ownRaw(d.Metadata, ev.CleanJSON)
	}
	valid := d.Status == universal.QuestionAnswered || d.Status == universal.QuestionRejected
	if s.lifecycle(ev, c, "question "+d.QuestionID, known, string(d.Status), valid, &q.RequestedSeq, &q.ResolvedSeq) {
		q.Status = constant(d.Status, universal.QuestionAnswered, universal.QuestionRejected)
		q.Response = strings.Clone(d.Response)
	}
}

// entry returns the element of list with the given id (index maps ids to
// positions once the list is long, see at), appending add() when there is
// none; known reports whether it was there.
func entry[T any](list *[]T, index *map[string]int, key func(*T) string, id string, add func() T) (e *T, known bool) {
	i, known := at(*list, *index, key, id)
	if !known {
		i = len(*list)
		*list = append(*list, add())
		added(*list, index, key)
	}
	return &(*list)[i], known
}

// smallList is the longest list of turns, permissions or questions whose
// ids are found by a search rather than a map: most sessions have a few
// turns and no permission, and a map of a few entries costs more memory
// than their content (the memory goal is per session, small ones too).
const smallList = 8

// at returns the position of the latest element of list with the given
// id: from index when the list is long enough to have one, else by a
// search from the end.
func at[T any](list []T, index map[string]int, key func(*T) string, id string) (int, bool) {
	if index != nil {
		i, ok := index[id]
		return i, ok
	}
	for i := len(list) - 1; i >= 0; i-- {
		if key(&list[i]) == id {
			return i, true
		}
	}
	return 0, false
}

// added indexes the element just appended to list: the whole list once it
// outgrows smallList.
func added[T any](list []T, index *map[string]int, key func(*T) string) {
	switch n := len(list); {
	case *index != nil:
		(*index)[key(&list[n-1])] = n - 1
	case n > smallList:
		*index = positionsOf(list, key)
	}
}

// positionsOf maps the ids of a long list to their latest positions (nil
// for a small list, see smallList).
func positionsOf[T any](list []T, key func(*T) string) map[string]int {
	if len(list) <= smallList {
		return nil
	}
	m := make(map[string]int, len(list))
	for i := range list {
		m[key(&list[i])] = i
	}
	return m
}

func turnID(t *Turn) string             { return t.TurnID }
func permissionID(p *Permission) string { return p.PermissionID }
func questionID(q *Question) string     { return q.QuestionID }

// turnAt returns the position of the latest turn with the given id.
func (s *Session) turnAt(id string) (int, bool) { return at(s.Turns, s.idx.turns, turnID, id) }

// turnAdded indexes the turn just appended.
func (s *Session) turnAdded() { added(s.Turns, &s.idx.turns, turnID) }

// lifecycle folds a request (permission or question) or its resolution
// into the sequence numbers that track it. It reports whether the event is
// a resolution to record: one with a valid answer status.
func (s *Session) lifecycle(ev *universal.Event, c *Change, name string, known bool, status string, valid bool, requested, resolved *int64) bool {
	if ev.Type == universal.TypePermissionRequested || ev.Type == universal.TypeQuestionRequested {
		if known {
			s.anomaly(ev, c, name+" requested twice")
			return false
		}
		*requested = ev.Sequence
		s.work(c)
		return false
	}
	if !valid {
		s.anomaly(ev, c, fmt.Sprintf("%s resolved with status %q; ignored", name, status))
		return false
	}
	if *resolved != 0 {
		s.anomaly(ev, c, name+" resolved twice; the last answer is kept")
	}
	*resolved = ev.Sequence
	return true
}

// constant returns the constant among known that equals v, or a copy of v:
// a session keeps no string of an event.
func constant[T ~string](v T, known ...T) T {
	for _, k := range known {
		if v == k {
			return k
		}
	}
	return T(strings.Clone(string(v)))
}

// fill returns have, or a copy of want when have is empty.
func fill(have, want string) string {
	if have == "" {
		return strings.Clone(want)
	}
	return have
}

// trim gives back what the session's growing lists hold beyond their
// length once the session has ended: a log analyser keeps many ended
// sessions, which seldom grow again (one that does grows as before), and
// a list grown by doubling holds up to twice what it needs.
func (s *Session) trim() {
	ix := s.idx
	if !slices.ContainsFunc(ix.opened, func(o openSlot) bool { return o.it != nil }) {
		// No item is open: the slots (and their builder lists) are for
		// items to come, which seldom do.
		ix.opened, ix.free = nil, 0
	}
	// The lists packing and batches use again and again (see scratch),
	// unless a batch is running that holds items in them.
	ix.calls, ix.sc = nil, nil
	if len(ix.borrowed) == 0 {
		ix.borrowed = nil
	}
	ix.arena.blocks = clip(ix.arena.blocks)
	ix.callList = clip(ix.callList)
	s.items = clip(s.items)
	s.Turns = clip(s.Turns)
	s.Permissions = clip(s.Permissions)
	s.Questions = clip(s.Questions)
}

// clip returns l in memory of its length when it holds much more: more
// than an eighth of its length beyond it, and more than clipMin bytes.
func clip[T any](l []T) []T {
	var t T
	if n := cap(l) - len(l); n <= len(l)/8 || n*int(unsafe.Sizeof(t)) < clipMin {
		return l
	}
	return slices.Clone(l)
}

// clipMin is the least room clip gives back: a copy costs an allocation,
// rounded up to a size class, and a short list (a small session's items,
// call_ids or arena blocks: most sessions) holds a few words beyond its
// length, which its copy would mostly hold again.
const clipMin = 64
