package amp

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The format names.
const (
	// FormatStreamJSON is the stdout of amp -x --stream-json (also with
	// --stream-json-thinking and --stream-json-input): one JSON object a
	// line.
	FormatStreamJSON = "stream-json"
	// FormatThread is one Amp thread as a JSON document: a thread file
	// (~/.local/share/amp/threads/T-*.json) or an amp threads export.
	FormatThread = "thread"
	// FormatJSONL is the stdout of amp --format=jsonl, the JSON output of
	// the Amp CLI of 2025 before --stream-json: initial, messages (a
	// thread's messages, sent again while they stream), state and
	// shutdown lines.
	FormatJSONL = "jsonl"
)

// Formats returns the formats the translator reads, a new slice each call
// (a table no caller can change for another).
func Formats() []universal.Format {
	return []universal.Format{
		{Name: FormatStreamJSON, Framing: universal.FrameLines, Doc: "amp -x --stream-json stdout (also --stream-json-thinking, --stream-json-input)"},
		{Name: FormatThread, Framing: universal.FrameDocument, Doc: "thread file or export (~/.local/share/amp/threads/T-*.json)"},
		{Name: FormatJSONL, Framing: universal.FrameLines, Doc: "amp --format=jsonl stdout (2025 builds, before --stream-json)"},
	}
}

// agentName is the agent name in session metadata and unparsed locations.
const agentName = "amp"

type events = []universal.Event

// Translator translates one Amp session (one thread). Build it with New;
// it implements universal.Translator and is not safe for concurrent use.
type Translator struct {
	format string
	w      *universal.Stream
	s      state
	// The native message being translated: its bytes (raw of the events
	// it implies), its line, and inside a thread document the message
	// being read: at is its index plus one (0 outside a thread), for
	// error locations ("messages[3]") made only when one is reported.
	raw  []byte
	line int64
	at   int
	// calls counts the thread messages whose usage was reported, while a
	// thread document is translated (one call of Translate).
	calls int
	// sc is the scratch memory of a call of Translate, taken from
	// scratchPool.
	sc *scratch
	// parts and msgParts are the content of an item being built, reused
	// from item to item (the stream copies an item's parts): parts for a
	// tool call's or result's, msgParts for a message's (answer, blocks,
	// threadInfo), which tool results are read while it is built.
	parts, msgParts []universal.Part
}

// scratch is what a call of Translate works in: the index of the message
// (scan) and of the JSON text a tool result string holds (inner, see
// decodeString), so that the message's values stay valid while it is
// read, and a buffer JSON is compacted into before the stream copies it
// (ownJSON).
type scratch struct {
	scan, inner jsonscan.Scanner
	buf         []byte
}

// scratchPool holds the scratch memory between calls: an index grows to
// the size of the messages it scans (a thread document's to hundreds of
// members), which a translator of its own would pay for anew with each
// session, and most sessions are short.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// New returns a translator for one session in the given format (one of
// Formats).
func New(format string, o universal.Options) (*Translator, error) {
	switch format {
	case FormatStreamJSON, FormatThread, FormatJSONL:
	default:
		return nil, fmt.Errorf("amp: %w: %q", universal.ErrUnknownFormat, format)
	}
	t := &Translator{format: format, w: universal.NewStream(agentName, o)}
	// Every raw JSON value the translator writes is compacted, copied
	// from a clean message or built by a JSON writer.
	t.w.PromiseCleanJSON()
	return t, nil
}

// Format returns the translator's input format.
func (t *Translator) Format() string { return t.format }

// Detect names the format of an input that starts with head: "stream-json"
// when its first JSON object is a stream-json line (type system, user,
// assistant or result), "thread" when it is a thread document (a schema
// version "v" with a T- id, or a messages array), "" otherwise. A thread
// document may be cut anywhere in head: the fields before the cut are
// enough. "jsonl" when the first line is amp --format=jsonl's initial line
// (a T- threadID) or a messages line of [index, message] pairs.
func Detect(head []byte) string {
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(head) == 0 || head[0] != '{' {
		return ""
	}
	r := gjson.Parse(view(head))
	switch r.Get("type").Str {
	case "system", "user", "assistant", "result":
		// Claude Code writes the same shape; Amp's session ids are its
		// thread ids ("T-…"), Claude Code's are UUIDs.
		if strings.HasPrefix(r.Get("session_id").Str, "T-") {
			return FormatStreamJSON
		}
		return ""
	case "initial":
		if strings.HasPrefix(r.Get("threadID").Str, "T-") {
			return FormatJSONL
		}
		return ""
	case "messages":
		if p := r.Get("messages.0"); p.IsArray() && p.Get("0").Type == gjson.Number && p.Get("1").IsObject() {
			return FormatJSONL
		}
		return ""
	}
	// A thread file or export: Amp's thread id, with a schema version or
	// its messages (another agent's export has messages too, not "T-"
	// ids), or a head that is a thread's message list from its first key.
	if strings.HasPrefix(r.Get("id").Str, "T-") && (r.Get("v").Type == gjson.Number || r.Get("messages").IsArray()) ||
		bytes.HasPrefix(head, []byte(`{"messages":`)) {
		return FormatThread
	}
	return ""
}

// DetectEnded is Detect for a whole input, which may tell what a head
// cannot: an input that is one result line without a session id is
// stream-json output of a run the server refused before it began (an
// outdated client: "426 … This version of Amp is no longer supported").
// It returns "" when it cannot tell either.
func DetectEnded(input []byte) string {
	if f := Detect(input); f != "" {
		return f
	}
	line := bytes.TrimSpace(bytes.TrimPrefix(input, []byte("\ufeff")))
	if bytes.IndexByte(line, '\n') >= 0 || !gjson.ValidBytes(line) {
		return ""
	}
	if r := gjson.ParseBytes(line); r.Get("type").Str == "result" && !r.Get("session_id").Exists() {
		return FormatStreamJSON
	}
	return ""
}

// view returns b as a string without copying. gjson results read from it
// alias b: anything kept beyond the call goes through Stream.Copy.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// bytesOf returns s as a byte slice without copying; the slice is only
// read (it is passed on as a raw payload, which the stream copies).
func bytesOf(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

var (
	errNotJSON      = errors.New("not JSON")
	errNotObject    = errors.New("not a JSON object")
	errNoType       = errors.New(`no "type"`)
	errOtherThread  = errors.New("line of another thread")
	errNoContent    = errors.New("message content is neither an array nor a string")
	errRepeated     = errors.New("repeated")
	errSecondThread = errors.New("a second thread document in one session")
	errStatusNotice = errors.New(`system/status without a "status" (a string or null)`)
	errStatusNews   = errors.New("system/status with news beyond progress (a compaction's failure, a permission mode), which Amp's output is not known to carry")
)

// Translate translates one native message. See universal.Translator.
func (t *Translator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst // nothing is emitted after session.ended
	}
	if m.Err != nil {
		t.raw, t.line, t.at = universal.CleanInput(m.Data), m.Line, 0
		return t.unparsed(dst, "", m.Err)
	}
	// The scratch of a call that is translating a message already (none
	// does now) is put back when this one is done.
	outer := t.sc
	t.sc = scratchPool.Get().(*scratch)
	defer func() {
		scratchPool.Put(t.sc)
		t.sc = outer
	}()
	// One pass validates the message (as universal.CleanInput returns it)
	// and indexes its objects: every lookup below walks the index instead
	// of scanning the message.
	var ok bool
	m.Data, ok = t.sc.scan.ScanClean(m.Data)
	t.raw, t.line, t.at = m.Data, m.Line, 0
	if !ok {
		return t.unparsed(dst, "", errNotJSON)
	}
	r := t.sc.scan.Root()
	if !r.IsObject() {
		return t.unparsed(dst, "", errNotObject)
	}
	switch t.format {
	case FormatThread:
		return t.thread(dst, r)
	case FormatJSONL:
		return t.jsonl(dst, r)
	}
	if m.Dir == universal.In {
		return t.input(dst, r)
	}
	return t.output(dst, r)
}

// str returns the string v (its unescaped text, "" for another value) in
// memory of the stream's own: a string without escapes aliases the
// message and is copied; one with escapes was unescaped into memory of its
// own (unescaping shortens it), which is kept instead of copied again.
func (t *Translator) str(v jsonscan.Value) string {
	s := v.Str()
	if len(v.Raw()) == len(s)+2 {
		return t.w.Copy(s)
	}
	return s
}

// ownJSON returns v's JSON text as jsonw writes it (what
// jsonscan.Value.OwnJSON returns) in the stream's memory: v's own bytes
// when they are that already, else compacted into the scratch buffer
// first (a thread document is pretty-printed), where compacting into a
// new slice would grow it again and again. "" when v is absent.
func (t *Translator) ownJSON(v jsonscan.Value) string {
	if raw, ok := v.CleanRaw(); ok {
		return t.w.Copy(raw)
	}
	if v.Raw() == "" {
		return ""
	}
	t.sc.buf = v.AppendCompacted(t.sc.buf[:0])
	return t.w.Copy(view(t.sc.buf))
}

// valuePart is anthropic.ValuePart with its JSON in the stream's memory
// (see ownJSON), which nothing writes, as events are.
func (t *Translator) valuePart(v jsonscan.Value) universal.Part {
	js := t.ownJSON(v)
	if js == "" {
		js = "null"
	}
	return universal.Part{Type: universal.PartJSON, JSON: bytesOf(js)}
}

// typeOf returns the type of a block (or of any object): its "type"
// member's text.
func typeOf(b jsonscan.Value) string { return b.Field("type").Str() }

// unparsed reports the current message as agent.unparsed; path names the
// offending field ("" for the whole message).
func (t *Translator) unparsed(dst events, path string, err error) events {
	loc := "line " + strconv.FormatInt(t.line, 10)
	if t.at > 0 {
		loc += ": messages[" + strconv.Itoa(t.at-1) + "]"
		if path != "" {
			loc += "." + path
		}
	} else if path != "" {
		loc += ": " + path
	}
	return t.w.Unparsed(dst, loc, err, t.raw)
}

// Report translates what the host did. See universal.Translator.
func (t *Translator) Report(dst []universal.Event, r universal.Report) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst // nothing is emitted after session.ended
	}
	t.raw, t.line, t.at = nil, 0, 0
	// Ending the session translates a message --format=jsonl held back
	// (jsonlFlush), which needs the scratch Translate takes.
	outer := t.sc
	t.sc = scratchPool.Get().(*scratch)
	defer func() {
		scratchPool.Put(t.sc)
		t.sc = outer
	}()
	switch r := r.(type) {
	case universal.Prompt:
		return t.reportPrompt(dst, strings.ToValidUTF8(r.Text, "\uFFFD"))
	case universal.Terminate:
		dst = t.finish(dst)
		return t.w.End(dst, r.Ended(), universal.SourceDaemon, nil)
	case universal.Exit:
		dst = t.finish(dst)
		return t.w.End(dst, universal.ExitEnded(t.endReason(), r), universal.SourceDaemon, nil)
	case universal.EndOfInput:
		dst = t.finish(dst)
		return t.w.End(dst, t.endReason(), universal.SourceDaemon, nil)
	}
	// Amp has no permission or question protocol: a reply names a
	// request the translator never emitted as pending.
	return dst
}

// Checkpoint returns the translator's state as JSON.
func (t *Translator) Checkpoint() ([]byte, error) {
	return universal.SaveCheckpoint(t.format, t.w, &t.s)
}

// Restore loads a checkpoint made by a translator of the same format. A
// checkpoint is data read back from disk: besides what
// universal.LoadCheckpoint checks (version, agent, format, the stream's
// state), the translator's own state is checked against the restored
// stream (the calls and items it refers to exist, the message it holds
// open is open); a checkpoint that fails is refused with an error
// wrapping universal.ErrCheckpoint, and the translator is left unchanged.
func (t *Translator) Restore(b []byte) error {
	var s state
	if err := universal.LoadCheckedCheckpoint(b, t.format, t.w, &s, func() error {
		return s.validate(t.w)
	}); err != nil {
		return err
	}
	t.s = s
	return nil
}
