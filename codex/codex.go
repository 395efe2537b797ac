package codex

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/internal/slab"
	"github.com/agentnorm/agentnorm/internal/stderr"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// agentName is the agent name written in metadata and locations.
const agentName = "codex"

// The input formats.
const (
	FormatExchange  = "exchange"
	FormatAppServer = "appserver"
	FormatExec      = "exec"
	FormatRollout   = "rollout"
)

// Formats returns the formats the translator reads, a new slice each call
// (a table no caller can change for another).
func Formats() []universal.Format {
	return []universal.Format{
		{Name: FormatExchange, Framing: universal.FrameExchange, Doc: "recorded two-way app-server JSON-RPC"},
		{Name: FormatAppServer, Framing: universal.FrameLines, Doc: "app-server JSON-RPC, server lines only"},
		{Name: FormatExec, Framing: universal.FrameLines, Doc: "codex exec --json stdout"},
		{Name: FormatRollout, Framing: universal.FrameLines, Doc: "rollout file (~/.codex/sessions/…/rollout-*.jsonl)"},
	}
}

// Detect names the format of an input that starts with head, "" when it
// cannot tell. It looks at the first line that starts with '{' (exec
// output merged with stderr starts with noise lines), and past the
// configuration summary pre-0.44 codex exec prints first (see
// execSummaryLine) at the line after it.
func Detect(head []byte) string {
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte{'\n'})
		head = rest
		line = trimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		if f := detectLine(view(line)); f != "" || !execSummaryLine(view(line)) && !recorderAside(view(line)) {
			return f
		}
	}
	return ""
}

// recorderAside reports whether a line is an exchange record that holds
// no message of either side: a recorder's note or a line of the agent's
// stderr (see universal.ExchangeReader). It says nothing of the format
// alone: the line after it does.
func recorderAside(s string) bool {
	r := gjson.GetMany(s, "dir", "frame", "type", "direction", "format", "version", "client")
	return (r[0].Str == "note" || r[0].Str == "stderr") && r[1].Type == gjson.String ||
		!r[0].Exists() && replayAside(r[2].Str) ||
		!r[0].Exists() && !r[3].Exists() && universal.SessionLogHeader(r[4].Str, r[5].Str, r[6].Exists())
}

// replayAside reports whether a record type of a provider replay
// transcript is the recorder's own (its header, the process's exit).
func replayAside(typ string) bool {
	_, aside, ok := universal.ReplayRecord(typ)
	return ok && aside
}

// replayDir returns the type of a provider replay transcript record that
// holds a message, which stands for its direction; the zero Result for
// any other type.
func replayDir(typ gjson.Result) gjson.Result {
	if _, aside, ok := universal.ReplayRecord(typ.Str); ok && !aside {
		return typ
	}
	return gjson.Result{}
}

// execSummaryLine reports whether a line is the configuration summary
// pre-0.44 codex exec prints before its prompt and events: an object of
// no type with workdir and the approval policy or sandbox (0.28 recorded:
// {"workdir", "model", "provider", "approval", "sandbox", "reasoning
// effort", "reasoning summaries"}, its members in no fixed order). It
// says nothing of the format alone: the line after it does.
func execSummaryLine(s string) bool {
	r := gjson.GetMany(s, "type", "workdir", "approval", "sandbox")
	return !r[0].Exists() && r[1].Type == gjson.String && (r[2].Exists() || r[3].Exists())
}

// detectLine names the format of one JSON line (possibly cut short). It
// says "" for other agents' lines that look alike (Claude Code's and Pi's
// exchanges are not JSON-RPC, an Agent Client Protocol peer's methods are
// session/…, fs/… and terminal/…, OpenCode's run output names its session).
func detectLine(s string) string {
	r := detectMembers(s)
	dir, msg, method, id, result, rpcErr, typ, payload, ts, record, _, prompt, rpc := r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12]
	// An OpenCode event or run line, or a row of its database's event log.
	openCode := r[13].Exists() || r[14].Exists() || r[19].Exists()
	if !dir.Exists() {
		dir = r[15] // other recorders' spelling of an exchange record
	}
	if !dir.Exists() {
		dir = replayDir(typ) // a provider replay transcript's record
	}
	if !msg.Exists() {
		msg = r[16]
	}
	if !msg.Exists() {
		msg = r[17]
	}
	if !msg.Exists() && dir.Exists() {
		msg = r[18] // yoloswe's session log
	}
	switch {
	case dir.Exists() && msg.Exists():
		if msg.IsObject() && !msg.Get("params.protocolVersion").Exists() && codexRPC(msg.Get("method"), msg.Get("id"), msg.Get("result"), msg.Get("error")) {
			return FormatExchange
		}
		return ""
	case method.Exists() || rpc.Exists() || (id.Exists() && (result.Exists() || rpcErr.Exists())):
		// An Agent Client Protocol peer's initialize has a protocolVersion.
		if !gjson.Get(s, "params.protocolVersion").Exists() && codexRPC(method, id, result, rpcErr) {
			return FormatAppServer
		}
		return ""
	case payload.Exists() && ts.Exists():
		switch typ.Str {
		case "session_meta", "response_item", "event_msg", "turn_context", "compacted":
			return FormatRollout
		}
		// A rollout line of a kind added later (0.169's world_state and
		// token_usage_record), first in an excerpt: no other format of
		// Codex's has a payload object beside a timestamp and a type.
		if payload.IsObject() && rolloutKind(typ) {
			return FormatRollout
		}
		return ""
	case typ.Str == "session_meta" && payload.IsObject():
		// A rollout's first line without its timestamp: other programs'
		// copies of a rollout leave it out, and a head cut in the
		// payload (the system prompt, tens of KB) has not reached it when
		// it comes after. The type is Codex's own (RolloutItem).
		return FormatRollout
	case record.Exists():
		return FormatRollout
	case openCode:
		return ""
	case typ.Type == gjson.String && containsByte(typ.Str, '.'):
		return FormatExec
	case typ.Type == gjson.String && typ.Str == "error" && gjson.Get(s, "message").Exists():
		return FormatExec
	case !typ.Exists() && id.Exists() && gjson.Get(s, "msg.type").Exists(), !typ.Exists() && prompt.Exists():
		return FormatExec // the pre-0.44 {"id","msg"} envelope
	case !typ.Exists() && id.Exists() && ts.Exists():
		return FormatRollout // the pre-envelope rollout header
	}
	return ""
}

// rolloutKind reports whether a type can name a rollout line's kind: a
// string of lower-case letters and underscores, as Codex names them.
func rolloutKind(typ gjson.Result) bool {
	if typ.Type != gjson.String || typ.Str == "" {
		return false
	}
	for i := 0; i < len(typ.Str); i++ {
		if c := typ.Str[i]; (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// detectPaths are the members detectLine reads.
var detectPaths = [...]string{"dir", "msg", "method", "id", "result", "error", "type", "payload", "timestamp", "record_type", "thread_id", "prompt", "jsonrpc", "sessionID", "properties", "direction", "parsed", "frame", "message", "aggregate_id"}

// detectMembers returns what jsonscan.GetMany(s, detectPaths...) returns
// for a line (possibly cut short): its first members of those names. It
// skims the line (jsonscan.Skim): detection does not validate, and a
// rollout's first line, its session_meta with the system prompt, is often
// a third of the file; a line Skim cannot read to its end is read with
// gjson, as before.
func detectMembers(s string) (r [len(detectPaths)]gjson.Result) {
	ok := jsonscan.Skim(s, func(k, raw string) bool {
		for i, p := range detectPaths {
			if k == p {
				if !r[i].Exists() {
					r[i] = gjson.Parse(raw)
				}
				break
			}
		}
		return true
	})
	if !ok {
		copy(r[:], gjson.GetMany(s, detectPaths[:]...))
	}
	return r
}

// codexRPC reports whether a JSON-RPC message can be Codex's app-server
// protocol: a response, or a method that is not another protocol's.
func codexRPC(method, id, result, rpcErr gjson.Result) bool {
	if method.Type != gjson.String {
		// A response; an Agent Client Protocol initialize answer has a
		// protocolVersion, and so has the MCP one codex mcp-server
		// gives first, which names the server.
		return id.Exists() && (result.Exists() || rpcErr.Exists()) &&
			(!result.Get("protocolVersion").Exists() || result.Get("serverInfo.name").Str == "codex-mcp-server")
	}
	for _, other := range []string{"session/", "fs/", "terminal/", "authenticate"} {
		if strings.HasPrefix(method.Str, other) {
			return false
		}
	}
	return true
}

// Translator translates one Codex session. Build it with New.
type Translator struct {
	format string
	w      *universal.Stream
	st     state
	scan   jsonscan.Scanner // the index of the message being translated
	// mark is where the text of the last app-server delta started in its
	// line: the next delta of the item is alike up to there, and its line
	// is scanned from there on.
	mark   jsonscan.Mark
	inner  jsonscan.Scanner // the index of JSON text inside a message (a tool's output)
	delta  []byte           // a delta's unescaped text (see deltaText)
	text   []byte           // a tool output's unescaped text (see functionOutput)
	own    []byte           // the message's unescaped texts that finalize copies if it keeps them (see msgStr)
	parts  []part           // the parts of a message read from one line, which the stream copies (see reasoningCopy)
	call   [1]part          // a tool call's part, which the stream copies (see callItem)
	uses   int              // the n of the next call toolCallN makes, see freshCall
	result []part           // a tool result's parts, which the stream copies (see toolResult)
	// first is the memory the state's unsettled items, turn ids and open
	// responses start in: every session has some, and grown from nothing
	// they took an allocation each time they doubled (the state copies
	// them out when they outgrow it; a restored state has its own).
	first struct {
		open  [8]*nitem
		turns [4]string
		resps [2]*resp
	}
	usages   slab.Slab[usageData] // the data of usage events (see usageMD)
	items    slab.Slab[nitem]     // the state's native items (see newItem)
	resps    slab.Slab[resp]      // the state's responses (see response)
	md       []byte               // the last call usage metadata made (see callMD)
	mdFor    string               // and the model it names
	mdEffort string               // and the reasoning effort
	// metaBuf holds the end of the session's metadata object, from the
	// first field only a session_meta sets, until the session starts (see
	// metaTail).
	metaBuf []byte
	loose   nitem // a native item without a key (see nativeIn)
	// ordinal is the rollout ordinal of the line being translated, -1
	// when it has none (every other format).
	ordinal int64
	// restored says the state was loaded by Restore: its session
	// metadata values may be raw JSON as an earlier version kept them
	// (see rolloutBegin).
	restored bool
}

// New returns a translator for one of the Formats.
func New(format string, o universal.Options) (*Translator, error) {
	switch format {
	case FormatExchange, FormatAppServer, FormatExec, FormatRollout:
	default:
		return nil, fmt.Errorf("codex: %w: %q", universal.ErrUnknownFormat, format)
	}
	t := &Translator{format: format, w: universal.NewStream(agentName, o), ordinal: -1}
	// The state's lists that every session fills start in the
	// translator's own memory (see first).
	t.st.open, t.st.Turns, t.st.Resps = t.first.open[:0], t.first.turns[:0], t.first.resps[:0]
	// Every raw JSON value the translator writes is compacted, copied
	// from a clean message or built by a JSON writer.
	t.w.PromiseCleanJSON()
	return t, nil
}

// Format returns the format the translator reads.
func (t *Translator) Format() string { return t.format }

// Translate translates one native message.
func (t *Translator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst // nothing is emitted after session.ended
	}
	c := ctx{line: m.Line, raw: m.Data, in: m.Dir == universal.In}
	t.own = t.own[:0]
	if m.Err != nil {
		return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: %w", m.Err), m.Data)
	}
	// Every string taken from a message (ids above all) is valid UTF-8:
	// what the translator keeps survives a JSON checkpoint unchanged, so a
	// restored translator matches ids and writes bytes as the one that
	// never stopped. The message is read as universal.CleanInput returns
	// it; cleaning never changes ASCII bytes, so the line is trimmed and
	// told noise or JSON on the bytes as they came.
	line := trimLeft(m.Data)
	if t.format == FormatExec && !m.Stderr && len(line) > 0 && line[0] != '{' {
		if obj, ok := t.labelled(line); ok {
			m.Data, line = obj, obj
		}
	}
	if m.Stderr || t.format == FormatExec && (len(line) == 0 || line[0] != '{') {
		// Lines on stdout that are not JSON: Codex's stderr merged into
		// stdout. They are kept as the session's stderr, and so are the
		// stderr lines an exchange's recorder kept.
		m.Data = universal.CleanInput(m.Data)
		if !t.st.Kept.Add(trimSpace(m.Data)) && t.st.Unkept == 1 {
			// Past the bound of the stderr kept: the first line not kept
			// is reported, and how many were on session.ended.
			return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: stderr beyond %d KiB is not kept (from this line on; session.ended counts the lines)", stderr.Max>>10), m.Data)
		}
		return dst
	}
	// One pass validates the line (as universal.CleanInput returns it)
	// and indexes its objects: the handlers read fields through the index
	// instead of scanning the line per field. Cleaning never changes ASCII
	// bytes, so the trimmed line stays the trimmed message.
	cleaned, ok := t.scan.ScanCleanFrom(line, &t.mark)
	if len(line) > 0 && isSpace(line[len(line)-1]) {
		// Trailing whitespace (rare: framing strips the newline) is
		// looked for once the scan has read the line's end: reading it
		// first costs a cache miss a line. The line is scanned again
		// without it, as every handler reads a trimmed line.
		line = trimSpace(line)
		cleaned, ok = t.scan.ScanClean(line)
	}
	if len(cleaned) != len(line) || len(cleaned) > 0 && &cleaned[0] != &line[0] {
		m.Data, line = universal.CleanInput(m.Data), cleaned
	}
	c.raw = m.Data
	if !ok {
		j := -1
		if t.format == FormatRollout {
			j = t.tornRecord(line)
		}
		if j < 0 {
			return t.w.Unparsed(dst, c.loc(), errors.New("codex: not a JSON value"), m.Data)
		}
		// A record cut off (the process ended while writing it), then
		// the next process's first record on the same line.
		dst = t.w.Unparsed(dst, c.loc(), errors.New("codex: not a JSON value (a record cut off; the next record on its line is read)"), line[:j])
		line = line[j:]
		t.scan.ScanClean(line)
		c.raw = line
	}
	r := t.scan.Root()
	switch t.format {
	case FormatExec:
		return t.exec(dst, &c, r, view(line))
	case FormatRollout:
		return t.rollout(dst, &c, r)
	}
	return t.rpc(dst, &c, r)
}

// labelled returns the JSON object a line of codex exec --json holds
// behind another program's text on the same line: a host that logs each
// event behind a label of its own ("event: {"type":"thread.started",…}"),
// a logger's prefix. The object is read when it starts at the line's
// first '{', runs to its end and is an exec event (a known type); the
// text before it is not Codex's and is left out. Otherwise the line is
// stderr, as other text is.
func (t *Translator) labelled(line []byte) ([]byte, bool) {
	i := bytes.IndexByte(line, '{')
	if i <= 0 {
		return nil, false
	}
	obj := trimSpace(line[i:])
	if _, ok := t.scan.ScanClean(obj); !ok || !t.scan.Root().IsObject() || !execType(t.scan.Root().Get("type").Str) {
		return nil, false
	}
	return obj, true
}

// tornRecord returns where a whole rollout record starts on a line that
// is not JSON: a record cut off by the end of the process that wrote it,
// and the next process's first record appended after it without a line
// break between them. A JSON string holds no unescaped quote, so the text
// {"timestamp": starts a record (no payload object starts with that key);
// the last one is read, once, so a line costs one more scan at most. -1
// when no whole record follows.
func (t *Translator) tornRecord(line []byte) int {
	i := bytes.LastIndex(line, []byte(`{"timestamp":`))
	if i <= 0 {
		return -1
	}
	if cl, ok := t.scan.ScanClean(line[i:]); !ok || len(cl) != len(line)-i || !t.scan.Root().IsObject() {
		return -1
	}
	return i
}

// execType reports the types of codex exec --json's events.
func execType(typ string) bool {
	switch typ {
	case "thread.started", "turn.started", "turn.completed", "turn.failed", "error",
		"item.started", "item.updated", "item.completed", "item.plan.delta", "request_user_input":
		return true
	}
	return false
}

// ctx is what every handler needs to know about the message at hand.
type ctx struct {
	line int64  // the message's line (record) number
	raw  []byte // the native message
	in   bool   // written by the host
}

// loc is where the message is, for agent.unparsed.
func (c *ctx) loc() string { return "line " + strconv.FormatInt(c.line, 10) }

// Report handles what the host did.
func (t *Translator) Report(dst []universal.Event, r universal.Report) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst // nothing is emitted after session.ended
	}
	w := t.w
	switch r := r.(type) {
	case universal.Prompt:
		t.st.addPrompt(r.Text)
		if t.format == FormatExec && w.Turn() != "" && t.st.PromptTurn != t.w.Turn() {
			dst = t.flushPrompts(dst, nil)
		}
		return dst
	case universal.PermissionReply:
		return t.replyPermission(dst, r)
	case universal.QuestionReply:
		return t.replyQuestion(dst, r)
	case universal.Terminate:
		dst = t.finish(dst)
		t.releaseScanners()
		return w.End(dst, t.st.Kept.Ended(r.Ended()), universal.SourceDaemon, nil)
	case universal.Exit:
		if r.Code == 0 {
			dst = t.endLegacyExec(dst)
		}
		dst = t.finish(dst)
		t.releaseScanners()
		d := t.st.Kept.Ended(universal.SessionEnded{Reason: t.endReason(), TerminatedBy: universal.ByAgent})
		return w.End(dst, universal.ExitEnded(d, r), universal.SourceDaemon, nil)
	case universal.EndOfInput:
		dst = t.finish(dst)
		t.releaseScanners()
		return w.End(dst, t.st.Kept.Ended(universal.SessionEnded{Reason: t.endReason(), TerminatedBy: universal.ByAgent}), universal.SourceDaemon, nil)
	}
	return dst
}

// releaseScanners gives the memory of the scanners' indexes to the next
// translator once the input has ended (a message after the end takes it
// again).
func (t *Translator) releaseScanners() {
	t.scan.Release()
	t.inner.Release()
}

// endLegacyExec ends the open turn of a pre-0.44 exec output when the
// process exited 0: that output prints no task_complete (0.28 exits once
// the task completes), so the exit is the turn's end, in error after an
// error event (0.28 exits 0 then too). Without the exit code (end of
// input) the turn stays open, as for a stream cut during a turn.
func (t *Translator) endLegacyExec(dst []universal.Event) []universal.Event {
	if t.format != FormatExec || !t.st.LegacyExec || t.w.Turn() == "" {
		return dst
	}
	dst = t.execFlushError(dst, false)
	if t.st.TurnErr {
		return t.endTurn(dst, "", universal.TurnError, []byte(`{"session_ending":true}`), universal.SourceDaemon, nil)
	}
	return t.endTurn(dst, "", universal.TurnCompleted, nil, universal.SourceDaemon, nil)
}

// finish flushes what the translator held back, at the end of the input.
func (t *Translator) finish(dst []universal.Event) []universal.Event {
	if t.st.Declined != "" {
		dst = t.flushDeclined(dst)
	}
	if len(t.st.HeldNotices) > 0 {
		// Notices of a session that never started start it; those held
		// when something else started it are reported now rather than
		// dropped.
		dst = t.flushHeldNotices(t.ensureSession(dst, ""))
	}
	switch t.format {
	case FormatExec:
		dst = t.execFlushError(dst, false)
		if t.w.Begun() && len(t.st.Prompts) > 0 && t.w.Turn() != "" && t.st.PromptTurn != t.w.Turn() {
			dst = t.flushPrompts(dst, nil)
		}
	case FormatRollout:
		// A turn inferred from the user messages (no task events) ends
		// completed when the file shows it answered: its last response
		// has text and called no tool (Codex ends a turn with such a
		// response). Otherwise the file does not show it finished: it
		// stays open for the end of the session.
		if t.st.Fork != nil {
			// The input ended inside a fork's copy of its parent's history.
			dst = t.endReplay(dst)
		}
		// A file that ends before any line needed the session (a header
		// alone, a task_started with no turn_context yet) still starts it
		// with what its session_meta says.
		dst = t.rolloutBegin(dst)
		dst = t.flushHeldUsers(dst)
		dst = t.flushHeld(dst, "")
		if t.st.Inferred != "" && t.w.Turn() == t.st.Inferred && t.answered() {
			dst = t.endTurn(dst, t.st.Inferred, universal.TurnCompleted, nil, universal.SourceDaemon, nil)
			t.st.Inferred = ""
		}
	}
	if len(t.st.Prompts) > 0 && t.w.Begun() {
		// Prompts the agent never echoed.
		dst = t.flushPrompts(dst, nil)
	}
	return t.cancelPending(dst, "")
}

func (t *Translator) endReason() universal.EndReason {
	if t.st.Failed {
		return universal.EndError
	}
	return universal.EndCompleted
}

// Checkpoint returns the translator's state as JSON.
func (t *Translator) Checkpoint() ([]byte, error) {
	return universal.SaveCheckpoint(t.format, t.w, &t.st)
}

// Restore loads a state saved by Checkpoint into a translator built with
// the same format and options. A checkpoint that does not load, or whose
// state refers to what its stream does not hold, is refused with an error
// wrapping universal.ErrCheckpoint, and the translator is left unchanged.
func (t *Translator) Restore(b []byte) error {
	var s state
	if err := universal.LoadCheckedCheckpoint(b, t.format, t.w, &s, func() error { return s.validate(t.w) }); err != nil {
		return err
	}
	t.st = s
	t.st.listUnsettled()
	t.restored = true
	t.metaBuf = nil
	return nil
}

// deltaText returns the text of a delta without allocating: a string with
// escapes (a newline is one) is unescaped into a buffer the translator
// reuses. The text is valid until the next call; Stream.Delta copies what
// it keeps, so it is passed only there.
func (t *Translator) deltaText(v jsonscan.Value) string {
	t.delta = v.AppendStr(t.delta[:0])
	return view(t.delta)
}

// msgStr returns the string v holds, valid while the message is
// translated: it is unescaped into a buffer that only grows during the
// message (a string taken earlier stays as it was), where Str would make
// a string of its own for it. It is for the text of a message's parts:
// the stream copies what a delta sends and finalize what it keeps, so the
// text is copied once, and not at all when it streamed before.
func (t *Translator) msgStr(v jsonscan.Value) string {
	start := len(t.own)
	t.own = v.AppendStr(t.own)
	return view(t.own[start:])
}

// msgTexts is joinTexts for the text of a message's part: the texts are
// unescaped and joined where msgStr unescapes one.
func (t *Translator) msgTexts(r jsonscan.Value, field string) string {
	start := len(t.own)
	r.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		if s := v.Sub(field); s.Type() == gjson.String {
			if len(t.own) > start {
				t.own = append(t.own, '\n')
			}
			t.own = s.AppendStr(t.own)
		}
		return true
	})
	return view(t.own[start:])
}

// bytesOf returns s's bytes without copying them, for a native payload
// kept as a string and passed as an event's raw: the stream only reads
// raw (Stamper.Emit copies what it keeps).
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// view returns b as a string without copying. Results of gjson on it alias
// b: copy what is kept (Stream.Copy).
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func trimSpace(b []byte) []byte {
	b = trimLeft(b)
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// trimLeft is trimSpace for the start of b only.
func trimLeft(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// obj starts a JSON object builder.
func obj() *jsonw.Object { return &jsonw.Object{} }

// str copies bytes into the stream's memory as a string.
func (t *Translator) str(b []byte) string { return t.w.Stamper().CopyBytes(b) }

// callKey returns the key of a model tool call ("c:" and its call id)
// in the stream's memory: the handlers of a rollout's every tool output
// and item_completed keep it (held results, pending requests) or pass it
// on, so "c:" + id was a new string on the heap a line.
func (t *Translator) callKey(id string) string {
	var kb [64]byte
	return t.str(append(append(kb[:0], "c:"...), id...))
}
