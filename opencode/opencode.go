package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// agentName is the agent's name in session metadata and error locations.
const agentName = "opencode"

// The input formats.
const (
	// FormatSSE is the server's event stream (/event, /global/event or
	// /api/event) as recorded: raw text/event-stream.
	FormatSSE = "sse"
	// FormatEvents is a JSON array of /event payloads, as clients such as
	// opencode.nvim and sandbox-agent record them.
	FormatEvents = "events"
	// FormatEventLines is /event, /global/event or /api/event payloads
	// one a line (NDJSON), as clients and wrappers log the stream.
	FormatEventLines = "event-lines"
	// FormatRunJSON is the stdout of opencode run --format json.
	FormatRunJSON = "run-json"
	// FormatMessages is the GET /session/{id}/message response: a JSON
	// array of {info, parts} (a single {info, parts} object is accepted
	// too), and the document opencode export prints: {"info": session,
	// "messages": [{info, parts}…], "todos"?: […]}.
	FormatMessages = "messages"
)

// Formats returns the formats the translator reads, a new slice each call
// (a table no caller can change for another).
func Formats() []universal.Format {
	return []universal.Format{
		{Name: FormatSSE, Framing: universal.FrameSSE, Doc: "server events from /event, /global/event or /api/event"},
		{Name: FormatRunJSON, Framing: universal.FrameLines, Doc: "opencode run --format json stdout"},
		{Name: FormatMessages, Framing: universal.FrameDocument, Doc: "GET /session/{id}/message response, or opencode export output"},
		{Name: FormatEvents, Framing: universal.FrameDocument, Doc: "a JSON array of /event payloads, as clients record them, or of the rows of OpenCode's event table (sqlite3 -json)"},
		{Name: FormatEventLines, Framing: universal.FrameLines, Doc: "/event payloads one a line (NDJSON), as clients log them, or the rows of OpenCode's event table"},
	}
}

// Detect names the format of an input that starts with head, "" when it
// cannot tell.
func Detect(head []byte) string {
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(head) == 0 {
		return ""
	}
	for _, p := range []string{"data:", ":", "event:", "id:", "retry:"} {
		if bytes.HasPrefix(head, []byte(p)) {
			return FormatSSE
		}
	}
	if i := bytes.Index(head, []byte(exportBanner)); i >= 0 && (i == 0 || head[i-1] == '\n') && bytes.IndexByte(head[:i], '{') < 0 {
		// The banner of opencode export, maybe after a plugin's log lines.
		return FormatMessages
	}
	v := view(head)
	switch head[0] {
	case '[':
		first := gjson.Get(v, "0")
		switch {
		case first.Get("info").Exists() || v2Head(first):
			return FormatMessages
		case first.Get("properties").Exists() || strings.Contains(first.Get("type").Str, "."):
			// /event payloads ({"type": "server.connected", "properties"}),
			// not another agent's messages as an array (claude -p
			// --output-format json: {"type": "system", …}).
			return FormatEvents
		}
	case '{':
		if isExport(v) {
			return FormatMessages
		}
		if d := gjson.Get(v, "data"); v2Head(d.Get("0")) || isExport(d.Raw) && v2Head(d.Get("messages.0")) {
			// 2.x's message list or export in its API envelope.
			return FormatMessages
		}
		line := v
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line = v[:i]
		}
		for l := range strings.Lines(v) {
			// A replay transcript's header and records come first.
			if aside, ok := replayFormat(l); ok {
				return FormatEventLines
			} else if !aside {
				break
			}
		}
		if gjson.Get(line, "info").Exists() && gjson.Get(line, "parts").Exists() {
			return FormatMessages
		}
		switch gjson.Get(line, "type").Str {
		case "step_start", "step_finish", "text", "reasoning", "tool_use", "error", "done":
			if gjson.Get(line, "sessionID").Exists() {
				return FormatRunJSON
			}
		}
		if isEvent(gjson.Get(line, "@this")) {
			return FormatEventLines
		}
		if gjson.Get(v, "info").Exists() && gjson.Get(v, "parts").Exists() {
			return FormatMessages
		}
	}
	return ""
}

// v2Head reports whether a JSON value is the start of a 2.x saved
// message: {id: "msg_…", type, time: {created}} (see v2messages.go), not
// another agent's message of the same type (claude -p --output-format
// json's {type: "user", message, session_id}).
func v2Head(v gjson.Result) bool {
	switch v.Get("type").Str {
	case "user", "assistant", "synthetic", "system", "skill", "shell", "agent-switched", "model-switched", "location-switched", "compaction":
		return strings.HasPrefix(v.Get("id").Str, "msg_") && v.Get("time.created").Exists() && !v.Get("info").Exists()
	}
	return false
}

// isEvent reports whether a JSON value is a payload of one of the server's
// event streams: {type: "a.b", properties: {…}} (/event), the same as
// /global/event's payload ({directory, payload}, or a sync wrapper), or
// {type, data: {…}} (/api/event, 2.x). Codex exec's lines also have
// dotted types (thread.started), but neither properties nor data.
func isEvent(v gjson.Result) bool {
	if p := v.Get("payload"); p.IsObject() {
		v = p
	}
	typ := v.Get("type").Str
	if typ == "sync" {
		return v.Get("syncEvent").IsObject()
	}
	return strings.Contains(typ, ".") && (v.Get("properties").IsObject() || v.Get("data").IsObject() && v.Get("id").Exists())
}

// isExport reports whether the start of a JSON object is an opencode
// export: session info with messages (or, when the head ends before them,
// a session id ses_…), and no parts of its own (a message list's single
// {info, parts}). The members of an object have no order: a program that
// writes the document again may put the messages first, and when the
// head ends in them, before the info, the first message tells (a 1.x
// {info: {id: msg_…, role}, parts} or a 2.x message).
func isExport(v string) bool {
	if gjson.Get(v, "parts").Exists() {
		return false
	}
	if strings.HasPrefix(gjson.Get(v, "info").Raw, "{") {
		return gjson.Get(v, "messages").Exists() || strings.HasPrefix(gjson.Get(v, "info.id").Str, "ses_")
	}
	first := gjson.Get(v, "messages.0")
	return strings.HasPrefix(first.Get("info.id").Str, "msg_") && first.Get("info.role").Exists() || v2Head(first)
}

// Translator translates one OpenCode session. Build it with [New]; it
// implements [universal.Translator]. It is not safe for concurrent use.
type Translator struct {
	format string
	w      *universal.Stream
	st     state
	scan   jsonscan.Scanner // the index of the message being translated
	// delta marks where the text of the last event stream delta began:
	// the next delta of the part is alike up to there, and is scanned
	// from there on (most of a delta line is before its text).
	delta jsonscan.Mark
	// last is the text part the last delta went to, and its message: a
	// part streams many deltas in a row, and each finds them here
	// instead of in the state's tables (which only ever grow, so the
	// pointers stay theirs until Restore replaces the state).
	last struct {
		p *partState
		m *msgState
	}
	// out holds the unescaped text of a running tool's output: each
	// update repeats all of it, and only what is new is kept (copied).
	out []byte
	// parts holds the content of the item being started or completed:
	// the stream copies an item's parts, so one slice serves every item.
	parts []universal.Part
	// usageMD is the last call usage metadata made (see usageMetadata),
	// and the model, provider and variant it names.
	usageMD struct {
		md                       []byte
		model, provider, variant string
	}
	// system is the last system prompt hashed (its raw array, a copy)
	// and its hash: every assistant message repeats the prompt, about
	// 10 KB, and comparing it costs a tenth of hashing it again.
	system struct {
		raw, sum string
	}
	// row holds the data of a row of OpenCode's event table whose data
	// column came as a JSON string (sqlite3 -json prints a TEXT column
	// so): its text, unescaped, and the index of its scan.
	row struct {
		buf  []byte
		scan jsonscan.Scanner
	}
}

var _ universal.Translator = (*Translator)(nil)

// New returns a translator for one session in the named format.
func New(format string, o universal.Options) (*Translator, error) {
	switch format {
	case FormatSSE, FormatEvents, FormatEventLines, FormatRunJSON, FormatMessages:
	default:
		return nil, fmt.Errorf("opencode: %w: %q", universal.ErrUnknownFormat, format)
	}
	t := &Translator{format: format, w: universal.NewStream(agentName, o)}
	// Every raw JSON value the translator writes is compacted, copied
	// from a clean message or built by a JSON writer.
	t.w.PromiseCleanJSON()
	return t, nil
}

// record reports whether the input is a saved record of messages (a
// message list, an export) rather than a stream.
func (t *Translator) record() bool {
	return t.format == FormatMessages
}

// Follow names the native session (ses_…) to translate. Without it the
// translator follows the first root session that shows activity in the
// input (see the package documentation). Call it before the first
// Translate; later calls are ignored once a session was chosen. In run
// output, where a line of another session is otherwise the next run's,
// lines of other sessions are then agent.unparsed.
func (t *Translator) Follow(nativeSessionID string) {
	if t.follow(nativeSessionID) {
		t.st.Named = true
	}
}

// follow follows the native session when none is yet, and reports
// whether it did.
func (t *Translator) follow(nativeSessionID string) bool {
	if t.st.Session != "" || nativeSessionID == "" {
		return false
	}
	t.st.Session = t.w.Copy(nativeSessionID)
	t.w.SetNativeSessionID(t.st.Session)
	return true
}

// Translate implements [universal.Translator].
func (t *Translator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst // nothing is emitted after session.ended
	}
	if m.Err != nil {
		m.Data = universal.CleanInput(m.Data)
		return t.w.Unparsed(dst, lineLoc(m.Line, -1), m.Err, m.Data)
	}
	if t.format == FormatMessages || t.format == FormatEvents {
		// A document comes whole in one message: the index of its
		// scan, as large as the document, is borrowed for the call
		// instead of grown anew by each translator. No Value outlives
		// the call.
		s := documentScanners.Get().(*jsonscan.Scanner)
		t.scan, *s = *s, jsonscan.Scanner{}
		defer func() {
			*s, t.scan = t.scan, jsonscan.Scanner{}
			documentScanners.Put(s)
		}()
	}
	if t.format == FormatMessages {
		// The document may have text around it: it cleans and scans
		// the input itself.
		return t.translateMessages(dst, m)
	}
	// One pass validates the message (as universal.CleanInput returns it)
	// and indexes its objects: every lookup below walks the index instead
	// of scanning the message.
	var ok bool
	if t.format == FormatSSE || t.format == FormatEventLines {
		m.Data, ok = t.scan.ScanCleanFrom(m.Data, &t.delta)
	} else {
		m.Data, ok = t.scan.ScanClean(m.Data)
	}
	if !ok {
		return t.w.Unparsed(dst, lineLoc(m.Line, -1), errNotJSON, m.Data)
	}
	switch t.format {
	case FormatSSE, FormatEventLines:
		return t.translateEvent(dst, t.scan.Root(), m.Data, m.Line, -1)
	case FormatEvents:
		return t.translateArray(dst, m)
	default:
		return t.translateRun(dst, m)
	}
}

// documentScanners are the scanners of documents (see Translate).
var documentScanners = sync.Pool{New: func() any { return new(jsonscan.Scanner) }}

// translateArray reads a JSON array of events, scanned.
func (t *Translator) translateArray(dst []universal.Event, m universal.Message) []universal.Event {
	r := t.scan.Root()
	if !r.IsArray() {
		return t.w.Unparsed(dst, lineLoc(m.Line, -1), errors.New("not a JSON array of events"), m.Data)
	}
	i := 0
	r.Each(func(_ gjson.Result, e jsonscan.Value) bool {
		dst = t.translateEvent(dst, e, bytesOf(e.Raw()), m.Line, i)
		i++
		return true
	})
	return dst
}

// Report implements [universal.Translator].
func (t *Translator) Report(dst []universal.Event, r universal.Report) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst // nothing is emitted after session.ended
	}
	w := t.w
	switch r := r.(type) {
	case universal.Prompt:
		// OpenCode echoes user messages on its event stream and in its
		// message lists; only run --format json lacks them.
		if t.format == FormatRunJSON {
			t.st.Prompts = append(t.st.Prompts, strings.ToValidUTF8(r.Text, "\uFFFD"))
			if t.st.Turn.Open && !t.st.Turn.Prompted {
				dst = t.runPrompt(dst)
			}
		}
	case universal.PermissionReply:
		if !w.PermissionPending(r.PermissionID) {
			return dst
		}
		p := universal.Permission{PermissionID: r.PermissionID, Status: universal.PermissionDenied}
		if r.Approved {
			p.Status = universal.PermissionApproved
		}
		p.Action, p.ItemID, p.CallID = t.st.permissionInfo(r.PermissionID)
		p.Metadata = decisionMetadata(r.Decision, r.Message)
		put(&t.st.Resolved, r.PermissionID, true)
		dst = w.ResolvePermission(dst, p, universal.SourceDaemon, nil)
	case universal.QuestionReply:
		if !w.QuestionPending(r.QuestionID) {
			return dst
		}
		q := universal.Question{QuestionID: r.QuestionID, Response: r.Response, Status: universal.QuestionAnswered}
		if r.Rejected {
			q.Status = universal.QuestionRejected
		}
		asked := t.st.Questions[r.QuestionID]
		q.ItemID, q.Prompt, q.Options = asked.Item, asked.Prompt, asked.Options
		put(&t.st.Resolved, r.QuestionID, true)
		dst = w.ResolveQuestion(dst, q, universal.SourceDaemon, nil)
	case universal.Terminate:
		dst = t.finish(dst)
		t.scan.Release()
		dst = w.End(dst, r.Ended(), universal.SourceDaemon, nil)
	case universal.Exit:
		if r.Code == 0 && t.format == FormatRunJSON && t.st.Turn.Open && !w.Ended() {
			// opencode run exits only once its session is idle: status 0
			// says the run finished, even where its output stops before
			// the last step's finish (1.15).
			dst = t.endTurnWith(dst, universal.TurnCompleted, universal.SourceDaemon, nil)
		}
		dst = t.finish(dst)
		t.scan.Release()
		dst = w.End(dst, universal.ExitEnded(t.ended(), r), universal.SourceDaemon, nil)
	case universal.EndOfInput:
		dst = t.settleDurable(dst)
		dst = t.finish(dst)
		t.scan.Release()
		dst = w.End(dst, t.ended(), universal.SourceDaemon, nil)
	}
	return dst
}

// ended is how the session ends at the end of its input: in error after
// a failed last turn, else completed (the Stream's End makes it an error
// when a turn is still open).
func (t *Translator) ended() universal.SessionEnded {
	end := universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}
	if t.st.LastTurnFailed && !t.st.Turn.Open {
		end.Reason = universal.EndError
	}
	return end
}

// Checkpoint implements [universal.Translator].
func (t *Translator) Checkpoint() ([]byte, error) {
	return universal.SaveCheckpoint(t.format, t.w, &t.st)
}

// Restore implements [universal.Translator]. A checkpoint is data read
// back from disk: besides what universal.LoadCheckpoint checks (version,
// agent, format, the stream's state), the translator's own state is
// checked against the restored stream (every message, part and item it
// refers to exists, open messages are in its table, indexes in range); a
// checkpoint that fails is refused with an error wrapping
// universal.ErrCheckpoint, and the translator is left unchanged.
func (t *Translator) Restore(b []byte) error {
	var s state
	if err := universal.LoadCheckedCheckpoint(b, t.format, t.w, &s, func() error { return s.validate(t.w) }); err != nil {
		return err
	}
	t.st = s
	t.last.p, t.last.m = nil, nil
	return nil
}

var errNotJSON = errors.New("not valid JSON")

// view returns b as a string without copying; the string is valid as long
// as b is.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// bytesOf returns the bytes of s without copying; they must not be
// modified.
func bytesOf(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// lineLoc names where a native message was: its line, and its position in
// an array of events when index >= 0.
func lineLoc(line int64, index int) string {
	switch {
	case index >= 0 && line > 0:
		return fmt.Sprintf("line %d, event %d", line, index)
	case index >= 0:
		return fmt.Sprintf("event %d", index)
	default:
		return fmt.Sprintf("line %d", line)
	}
}
