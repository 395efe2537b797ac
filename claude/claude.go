package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The format names.
const (
	// FormatStreamJSON is the stdout of claude -p --output-format
	// stream-json --verbose, with or without --include-partial-messages and
	// --input-format stream-json; also that of claude -p --output-format
	// json (one JSON array of the same messages, or the result message
	// alone).
	FormatStreamJSON = "stream-json"
	// FormatExchange is a recorded two-way exchange of the stream-json
	// control protocol: what the CLI wrote (out) and what the host wrote to
	// its stdin (in).
	FormatExchange = "exchange"
	// FormatTranscript is an on-disk session transcript
	// (~/.claude/projects/<project>/<session>.jsonl), or several of them in
	// order (the main file, then its subagents/agent-<id>.jsonl files).
	FormatTranscript = "transcript"
)

// Formats returns the formats the translator reads, a new slice each call
// (a table no caller can change for another).
func Formats() []universal.Format {
	return []universal.Format{
		{Name: FormatStreamJSON, Framing: universal.FrameLines, Doc: "claude -p --output-format stream-json --verbose stdout"},
		{Name: FormatExchange, Framing: universal.FrameExchange, Doc: "recorded stdin/stdout of the stream-json control protocol"},
		{Name: FormatTranscript, Framing: universal.FrameLines, Doc: "on-disk session transcript (~/.claude/projects/…/<session>.jsonl)"},
	}
}

// agentName is the agent name in session metadata and unparsed locations.
const agentName = "claude"

// Translator translates one Claude Code session. Build it with New; it
// implements universal.Translator and is not safe for concurrent use.
type Translator struct {
	format     string
	transcript bool
	w          *universal.Stream
	s          state
	// Per-call context: the native message being translated, and the
	// message item made for its results whose calls are unknown.
	raw         []byte
	line        int64
	elem        string            // "[i]": the message is element i of an array line (see elements)
	scan        *jsonscan.Scanner // the index of the message being translated: scanner, or a nested call's
	scanner     jsonscan.Scanner
	scanning    bool             // a call of translate is using scan
	releasing   bool             // translating a held line (see releaseEarly)
	claimed     []string         // agents whose held lines follow the line being translated (see releaseClaimed)
	parts       []universal.Part // the content of the item being completed (see itemParts)
	md          []byte           // the last call usage metadata made (see callMD)
	mdModel     string           // and its model
	mdEffort    string           // and its reasoning effort
	orphanMsg   string
	orphanScope string
	// mainEntry: the line being translated is a main-chain transcript
	// entry, whose items start from dst[itemFrom:] (see entry).
	mainEntry bool
	itemFrom  int
	// rowMeta is the metadata of the host row whose tool_result is
	// being translated (see hostRow).
	rowMeta []byte
	// hidden and hostContent are the hostHiddenToolUseIds and hostContent
	// of the assistant line being translated (see hostMeta), ranBy its
	// ranByToolUseId.
	hidden, hostContent jsonscan.Value
	ranBy               string
	// lineItem is the message item the assistant line being translated
	// adds to (see noteMade).
	lineItem string

	// delta marks where the text of the last text or thinking delta
	// started in its line: the next delta of the block is alike up to
	// there, and its line is scanned from there on.
	delta jsonscan.Mark

	// open finds the open messages (s.Msgs) of a scope, or those without a
	// parent item, without looking at every message open in the session
	// (see msgIndex).
	open msgIndex

	// Room for the first of the state's lists that every session with
	// messages grows (s.Msgs, s.Done, s.Waiting): in the translator's
	// own allocation, where growing each from nothing took two to four.
	msgsRoom    [4]*message
	doneRoom    [4]done
	waitingRoom [4]string
}

// New returns a translator for one session in the given format (one of
// Formats).
func New(format string, o universal.Options) (*Translator, error) {
	switch format {
	case FormatStreamJSON, FormatExchange, FormatTranscript:
	default:
		return nil, fmt.Errorf("claude: %w: %q", universal.ErrUnknownFormat, format)
	}
	t := &Translator{format: format, transcript: format == FormatTranscript, w: universal.NewStream(agentName, o)}
	// Every raw JSON value the translator writes is compacted, copied
	// from a clean message or built by a JSON writer.
	t.w.PromiseCleanJSON()
	return t, nil
}

// Format returns the translator's input format.
func (t *Translator) Format() string { return t.format }

// Detect names the format of an input that starts with head: "exchange"
// for exchange records, "transcript" for on-disk transcript entries,
// "stream-json" for CLI output, "" if no complete line of head tells.
// Lines that are not JSON objects (shell noise) are skipped.
func Detect(head []byte) string {
	var sc jsonscan.Scanner // one validating, indexing pass a line
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil // the last line: used only if it is complete JSON
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] == '[' {
			// claude -p --output-format json --verbose: the messages as
			// one array, which head may cut; its first element tells.
			line = firstElement(line)
		}
		if len(line) == 0 || line[0] != '{' || !sc.Scan(line) {
			continue
		}
		r := sc.Root()
		if replayAside(r) {
			continue // a replay transcript's header: the record after it tells
		}
		if frame, ok := replayFrame(r); ok {
			// A provider replay transcript's record: the Agent SDK's
			// messages and calls are Claude Code's exchange.
			if typ := frame.Get("type").Str; (streamType(typ) || sdkCall(typ)) && !ampSession(frame.Get("session_id").Str) {
				return FormatExchange
			}
			return ""
		}
		if msg, ok := exchangeRecord(r); ok {
			// Only an exchange of Claude Code's stdin protocol: not
			// Codex's JSON-RPC nor Pi's commands.
			if streamType(msg.Get("type").Str) && !ampSession(msg.Get("session_id").Str) {
				return FormatExchange
			}
			return ""
		}
		if !r.Get("direction").Exists() && universal.SessionLogHeader(r.Get("format").Str, r.Get("version").Str, r.Get("client").Exists()) {
			if r.Get("format").Str == "claude" {
				continue // a yoloswe session log's header: the record after it tells
			}
			return ""
		}
		typ := r.Get("type").Str
		switch {
		case transcriptOnly(typ), r.Get("sessionId").Exists() && r.Get("uuid").Exists(), r.Get("parentUuid").Exists():
			return FormatTranscript
		case streamType(typ) && !ampSession(r.Get("session_id").Str):
			return FormatStreamJSON
		case typ != "":
			return "" // another agent's line (Codex, OpenCode, Pi, …)
		}
	}
	return ""
}

// exchangeRecord returns the message of a recorded exchange's record:
// {"dir", "msg"} (the exchange format), or {"direction": "sent" |
// "received", "message"} (the yoloswe project's session logs and trace
// fixtures of its Claude Code wrapper: agent-cli-wrapper/claude
// recorder.go, protocol/trace.go), which universal.ExchangeReader reads.
func exchangeRecord(r jsonscan.Value) (jsonscan.Value, bool) {
	if r.Get("dir").Exists() {
		msg := r.Sub("msg")
		return msg, msg.Exists()
	}
	switch r.Get("direction").Str {
	case "sent", "received":
		msg := r.Sub("message")
		return msg, msg.IsObject()
	}
	return jsonscan.Value{}, false
}

// firstElement returns the first element of the JSON array that line
// starts, nil if line does not hold it whole.
func firstElement(line []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(line))
	if tok, err := d.Token(); err != nil || tok != json.Delim('[') || !d.More() {
		return nil
	}
	var e json.RawMessage
	if d.Decode(&e) != nil {
		return nil
	}
	return e
}

// streamType reports the message types of Claude Code's stream-json
// output and stdin protocol: any of them may be the first line of an
// output (2.1.278 writes conversation_reset before the init when /clear
// is the first input).
func streamType(typ string) bool {
	switch typ {
	case "system", "assistant", "user", "result", "stream_event", "control_request", "control_response",
		"control_cancel_request", "keep_alive", "tool_progress", "auth_status", "rate_limit_event", "command_lifecycle",
		"conversation_reset", "tool_use_summary", "prompt_suggestion", "active_goal", "autocompact_state", "transcript_mirror",
		"streamlined_text", "streamlined_tool_use_summary":
		return true
	}
	return false
}

// ampSession reports a line of Amp's stream-json, which has Claude Code's
// shape but Amp's thread ids ("T-…") as session ids.
func ampSession(sessionID string) bool {
	return strings.HasPrefix(sessionID, "T-")
}

// transcriptOnly reports entry types that only on-disk transcripts have.
func transcriptOnly(typ string) bool {
	switch typ {
	case "summary", "file-history-snapshot", "queue-operation", "last-prompt", "ai-title",
		"custom-title", "agent-name", "worktree-state", "attachment", "progress", "atis-latch", "api-request", "api-request-blob",
		"api-request-shape", "tools-used", "cost-state", "mode", "permission-mode", "file-history-delta", "pr-link",
		"bridge-session", "teleported-from", "agent-setting", "agent-color", "tag", "relocated", "continued-in",
		"ended-by-model", "isolation-latch", "memory-mode", "history-suppression", "frame-link",
		"artifact-comment-monitor", "artifact-autoreact-ledger", "attribution-snapshot", "observer-ref",
		"fork-context-ref", "content-replacement", "started", "launched", "speculation-accept",
		"marble-origami-commit", "marble-origami-snapshot", "marble-origami-reset", "host-row", "derived-from",
		"api-request-resumed", "dev-mods", "repl-mode", "resume-head-vouch":
		return true
	}
	return false
}

// cleanObject returns the object of the members given, their values
// already clean JSON (such as jsonscan's Compacted) and added with
// RawClean (an empty value is left out), in a buffer grown once to its
// size: the metadata of inits and results, whose members are many and
// long.
func cleanObject(members ...[2]string) []byte {
	n := 2
	for _, m := range members {
		n += len(m[0]) + len(m[1]) + 4
	}
	var o jsonw.Object
	o.Grow(n)
	for _, m := range members {
		o.RawClean(m[0], m[1])
	}
	return o.Bytes()
}

var (
	errNotJSON   = errors.New("not JSON")
	errNotObject = errors.New("not a JSON object")
	errNoType    = errors.New(`no "type"`)
	errCutLine   = errors.New("the start of a line another line was written into, whose rest did not follow")
)

// Translate translates one native message. See universal.Translator.
func (t *Translator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst // nothing is emitted after session.ended
	}
	if t.transcript && m.Dir != universal.In {
		dst = t.transcriptLine(dst, m)
		if len(t.claimed) > 0 {
			dst = t.releaseClaimed(dst)
		}
	} else {
		dst = t.translate(dst, m)
		if len(t.s.Early) > 0 && t.w.Begun() {
			dst = t.releaseEarly(dst, "") // task lines held for the init
		}
	}
	if len(t.s.Collapses) > 0 {
		// The session began with no header of its own (an entry without
		// a version, or a stream-json line, started it).
		dst = t.heldCollapses(dst)
	}
	if t.s.Derived != "" {
		dst = t.heldDerived(dst)
	}
	return dst
}

// translate translates one native message in the order given.
func (t *Translator) translate(dst []universal.Event, m universal.Message) []universal.Event {
	if t.scanning {
		// A call that is translating a line already (none does now): it
		// gets a scanner of its own for this one.
		outer := t.scan
		t.scan = new(jsonscan.Scanner)
		defer func() {
			t.scan.Release()
			t.scan = outer
		}()
		return t.translateScanned(dst, m)
	}
	if t.scan == nil {
		t.scan = &t.scanner
	}
	t.scanning = true
	dst = t.translateScanned(dst, m)
	t.scanning = false
	return dst
}

// releaseScanner gives the memory of the scanner's index to the next
// translator once the input has ended (most sessions are short, and an
// index grows to the size of the messages it scans); a message after the
// end takes it again.
func (t *Translator) releaseScanner() {
	if t.scan != nil && !t.scanning {
		t.scan.Release()
	}
}

// translateScanned is translate's work, with t.scan the scanner to use.
func (t *Translator) translateScanned(dst []universal.Event, m universal.Message) []universal.Event {
	if m.Err != nil {
		// A start held for its rest comes first: it was written first.
		dst = t.dropCut(dst)
		m.Data = universal.CleanInput(m.Data)
		t.raw, t.line = m.Data, m.Line
		t.orphanMsg, t.orphanScope = "", ""
		return t.unparsed(dst, "", m.Err)
	}
	// One pass validates the message (as universal.CleanInput returns it)
	// and indexes its objects: every lookup below walks the index instead
	// of scanning the message.
	var ok bool
	native := m.Data // the bytes as written, which a cut line is joined from
	m.Data, ok = t.scan.ScanCleanFrom(m.Data, &t.delta)
	if ok && t.transcript && !t.releasing && m.Dir != universal.In && t.holdEarly(m) {
		return dst // a result before its call's line (see transcriptLine)
	}
	if ok && t.transcript && m.Dir != universal.In && t.holdUnclaimed(m) {
		return dst // a sub-agent's line before the call that spawned it (see unclaimed.go)
	}
	if ok && !t.transcript && !t.releasing && m.Dir != universal.In && !t.w.Begun() && t.holdPreInit(m) {
		return dst // a task's line before the init (see holdPreInit)
	}
	if !t.transcript && m.Dir != universal.In {
		if len(t.s.Cut) > 0 {
			var joined bool
			if dst, joined = t.joinCut(dst, m, native, ok); joined {
				return dst
			}
		}
		if !ok {
			if len(m.Data) > 0 && m.Data[0] == '{' {
				var spliced bool
				if dst, spliced = t.spliced(dst, m, native); spliced {
					return dst
				}
			} else {
				m.Data, ok = t.prefixed(m.Data)
			}
		}
	}
	t.raw, t.line = m.Data, m.Line
	t.orphanMsg, t.orphanScope = "", ""
	if !ok {
		return t.unparsed(dst, "", errNotJSON)
	}
	r := t.scan.Root()
	if r.IsArray() && !t.transcript && m.Dir != universal.In && t.elem == "" && r.Sub("0").IsObject() {
		return t.elements(dst, m, r)
	}
	if !r.IsObject() {
		return t.unparsed(dst, "", errNotObject)
	}
	if m.Dir == universal.In {
		return t.input(dst, r)
	}
	if t.transcript {
		if !t.w.Begun() {
			dst = t.header(dst, r)
		}
		if !r.Get("isSidechain").Bool() && !r.Get("agentId").Exists() {
			t.s.Main = true // an entry of the main file
			return t.entry(dst, r)
		}
	}
	return t.object(dst, r)
}

// prefixed scans the JSON object that line, which is not JSON, holds
// after text of another program: a wrapper that prints what the CLI
// wrote behind a label of its own ("Error: {"type":"system",…}", a
// failed run's stdout in a thrown error's message), or a logger's
// prefix. The object is read when it starts at the line's first '{',
// runs to its end and is a line of Claude Code's output (a known type);
// the text before it is not Claude Code's and is left out. Otherwise it
// returns line, false.
func (t *Translator) prefixed(line []byte) ([]byte, bool) {
	i := bytes.IndexByte(line, '{')
	if i <= 0 {
		return line, false
	}
	obj, ok := t.scan.ScanClean(line[i:])
	if !ok || !t.scan.Root().IsObject() || !streamType(t.scan.Root().Get("type").Str) {
		return line, false
	}
	return obj, true
}

// maxCut bounds the start of a cut line held for its rest (see spliced).
const maxCut = 4 << 20

// spliced reads a stream-json line that another line was written into:
// Claude Code writes some lines (rate_limit_event, as 2.1.74 did) from
// another task while a long line is being written, so the other line
// lands in its middle and its newline cuts the long line in two
// (anthropics/claude-code issue 49640: `{"type":"assistant",…,"text":
// "…partial text{"type":"rate_limit_event",…}` and, on the next line,
// the rest of the assistant line). The line (native, m.Data as it was
// written, which is not JSON) is read as that: when it ends with a whole
// line of a known type that starts at a `{"type":"` inside it, that line
// is translated, and the bytes before it are held as the start of a line
// whose rest the next line is (joinCut) — unless they are a whole line
// themselves (the other line came right before the newline), which is
// translated first. The bytes are held as written, not cleaned: the cut
// may fall inside a character, which the join puts together again. It
// reports whether it read the line so.
func (t *Translator) spliced(dst []universal.Event, m universal.Message, native []byte) ([]universal.Event, bool) {
	line := native
	end := len(line)
	for range 8 {
		i := bytes.LastIndex(line[1:end], []byte(`{"type":"`)) + 1
		if i <= 0 {
			return dst, false
		}
		end = i
		if i > maxCut {
			continue
		}
		if _, ok := t.scan.ScanClean(line[i:]); !ok || !streamType(t.scan.Root().Get("type").Str) {
			continue
		}
		in := m
		if _, ok := t.scan.ScanClean(line[:i]); ok && streamType(t.scan.Root().Get("type").Str) {
			in.Data = line[:i]
			dst = t.translateScanned(dst, in)
			in.Data = line[i:]
			return t.translateScanned(dst, in), true
		}
		cut := bytes.Clone(line[:i])
		in.Data = line[i:]
		dst = t.translateScanned(dst, in)
		if !t.w.Ended() {
			t.s.Cut, t.s.CutLine = cut, m.Line
		}
		return dst, true
	}
	return dst, false
}

// joinCut takes the line after one cut by another (see spliced): the cut
// line's start and this line are the line, when they make a whole line
// of a known type, which is translated (at the line where it started).
// Otherwise the held start is reported as agent.unparsed, and the line
// (m, scanned already when ok) is left to the caller. native is the line
// as it was written, joined to the held bytes. It reports whether it
// translated the line.
func (t *Translator) joinCut(dst []universal.Event, m universal.Message, native []byte, ok bool) ([]universal.Event, bool) {
	if !ok {
		cut, at := t.s.Cut, t.s.CutLine
		joined := make([]byte, 0, len(cut)+len(native))
		joined = append(append(joined, cut...), native...)
		in := m
		in.Data, in.Line = joined, at
		t.s.Cut, t.s.CutLine = nil, 0
		if _, whole := t.scan.ScanClean(joined); whole && streamType(t.scan.Root().Get("type").Str) {
			return t.translateScanned(dst, in), true
		}
		// Another line written into the same long line: the rest ends
		// with it, and what is before it is held again.
		if dst, spliced := t.spliced(dst, in, joined); spliced {
			return dst, true
		}
		t.s.Cut, t.s.CutLine = cut, at
	}
	return t.dropCut(dst), false
}

// dropCut reports the start of a cut line whose rest did not follow (the
// next line, or the end of the input, came instead) as agent.unparsed.
func (t *Translator) dropCut(dst []universal.Event) []universal.Event {
	if len(t.s.Cut) == 0 {
		return dst
	}
	raw, line := t.raw, t.line
	t.raw, t.line = universal.CleanInput(t.s.Cut), t.s.CutLine
	t.s.Cut, t.s.CutLine = nil, 0
	dst = t.unparsed(dst, "", errCutLine)
	t.raw, t.line = raw, line
	return dst
}

// object translates a scanned JSON object (a line, an entry).
func (t *Translator) object(dst []universal.Event, r jsonscan.Value) []universal.Event {
	// One walk over the top-level members finds the type and, for stream
	// events (the hot path), the fields they need; the last of duplicate
	// members counts.
	// The walk also finds what the handlers of other lines would look up
	// again, each lookup a walk of its own: a line's scope members and a
	// system line's subtype (the first of duplicates, as Get finds).
	var tv, ev, scope, id, parent, agentID, sidechain, subtype, uuid, display jsonscan.Value
	r.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type":
			tv = v
		case "event":
			ev = v
		case "thinking_display":
			display = v
		case "parent_tool_use_id":
			scope = v
			jsonscan.KeepFirst(&parent, v)
		case "api_message_id":
			id = v
		case "agent_id":
			jsonscan.KeepFirst(&agentID, v)
		case "isSidechain":
			jsonscan.KeepFirst(&sidechain, v)
		case "subtype":
			jsonscan.KeepFirst(&subtype, v)
		case "uuid":
			jsonscan.KeepFirst(&uuid, v)
		}
		return true
	})
	if tv.Type() != gjson.String {
		return t.unparsed(dst, "", errNoType)
	}
	typ := tv.Str()
	if t.transcript {
		dst = t.settle(dst, r, typ)
		if typ != "user" && typ != "assistant" {
			// Noted for settle (an entry's parent seen or not); user and
			// assistant lines note theirs when translated (see seen).
			t.seenID(uuid.Str())
		}
	}
	switch typ {
	case "stream_event":
		return t.streamEvent(dst, r, ev, sc{scope: scope.Str(), id: id.Str(), display: display})
	case "assistant", "user":
		scope := t.scopeOf(r, parent, agentID, sidechain)
		if t.orphan(scope) {
			return dst // documented: Ignored on purpose
		}
		from := len(dst)
		t.lineItem = ""
		if typ == "user" {
			dst = t.user(dst, r, scope)
		} else {
			dst = t.assistant(dst, r, scope)
		}
		t.noteMade(dst, from, uuid.Str())
		return dst
	case "system":
		return t.system(dst, r, subtype.Str())
	case "tool_progress":
		return t.toolProgress(dst, r)
	case "result":
		if t.transcript && !subtype.Exists() && r.Get("key").Exists() {
			// Not the end of a turn but a background job's cached
			// result ({"key", "agentId", "result": {…}}), the pair of
			// its started entry; the job's output reaches the
			// conversation as a notification.
			return dst
		}
		return t.result(dst, r)
	case "agent-setting":
		// The agent the session runs as (claude --agent, a teammate):
		// session information, which a session's first entry gives
		// before the entry that starts the session.
		if !t.w.Begun() && t.s.AgentSetting == "" {
			t.s.AgentSetting = r.Sub("agentSetting").OwnStr(t.w.Copy)
		}
		return dst
	case "ai-title", "custom-title":
		return t.title(dst, r, typ == "custom-title")
	case "permission-mode":
		return t.permissionMode(dst, r.Get("permissionMode").Str)
	case "queue-operation":
		if t.transcript {
			return t.queueOperation(dst, r)
		}
		return dst
	case "marble-origami-commit":
		return t.collapse(dst, r)
	case "host-row":
		return t.hostRow(dst, r)
	case "derived-from":
		return t.derivedFrom(dst, r)
	case "control_request":
		return t.controlRequest(dst, r)
	case "control_response":
		return t.cliAnswer(dst, r) // answers to the host's own requests (initialize, interrupt, …)
	case "control_cancel_request":
		return t.cancelRequest(dst, r)
	case "progress":
		return t.progress(dst, r)
	case "cost-state":
		return t.costState(dst, r)
	case "attachment":
		if t.transcript {
			switch a := r.Sub("attachment"); a.Get("type").Str {
			case "queued_command":
				return t.queuedCommand(dst, r, a)
			case "goal_status":
				return t.goalStatus(dst, r, a)
			case "tool_host_result_lines":
				return t.toolHostLines(dst, a)
			case "hook_success", "hook_additional_context", "hook_blocking_error",
				"hook_stopped_continuation", "async_hook_response":
				return t.hookAttachment(dst, r, a)
			case "hook_system_message":
				return t.hookNotice(dst, r, a)
			case "relevant_memories":
				return t.memoryRecall(dst, gjson.Result{}, a.Get("memories"))
			}
		}
	case "streamlined_text", "streamlined_tool_use_summary":
		return t.streamlined(dst, r, typ)
	case "conversation_reset":
		if id := r.Get("new_conversation_id").Str; id != "" {
			t.w.SetNativeSessionID(id)
		}
		return dst
	}
	if ignoredType(typ) {
		return dst
	}
	return t.unparsed(dst, "", fmt.Errorf("unknown type %q", typ))
}

// elements translates an array line of the CLI's output: claude -p
// --output-format json (2.x with verbose output) prints the messages
// stream-json prints one a line as one JSON array, on one line, when the
// run ends. Each
// element is read as the line it would have been, in order; an element's
// errors are located as "line N: [i]". An array that does not start with
// an object is not that output: it stays one unparsed line.
func (t *Translator) elements(dst []universal.Event, m universal.Message, r jsonscan.Value) []universal.Event {
	// The scanner's index is the array's until the first element is
	// scanned: the elements are copied out first.
	elems := make([][]byte, 0, r.Len())
	r.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		elems = append(elems, []byte(v.Raw()))
		return true
	})
	for i, e := range elems {
		t.elem = "[" + strconv.Itoa(i) + "]"
		m.Data = e
		dst = t.translateScanned(dst, m)
	}
	t.elem = ""
	return dst
}

// input translates a message the host wrote to the CLI's stdin.
func (t *Translator) input(dst []universal.Event, r jsonscan.Value) []universal.Event {
	switch typ := r.Get("type").Str; typ {
	case "user":
		return t.hostUser(dst, r)
	case "control_response":
		return t.hostAnswer(dst, r)
	case "control_request":
		if sub := r.Get("request.subtype").Str; !hostRequest(sub) {
			return t.unparsed(dst, "request.subtype", fmt.Errorf("unknown host control request %q", sub))
		}
		t.asked(r.Get("request_id").Str)
		return dst
	case "control_cancel_request":
		return t.cancelRequest(dst, r)
	case "keep_alive", "update_environment_variables":
		return dst
	default:
		if dst, ok := t.sdkInput(dst, r, typ); ok {
			return dst // an Agent SDK call a replay transcript records
		}
		return t.unparsed(dst, "", fmt.Errorf("unknown host message type %q", typ))
	}
}

// unparsed reports the current message as agent.unparsed; path names the
// offending field ("" for the whole message).
func (t *Translator) unparsed(dst []universal.Event, path string, err error) []universal.Event {
	loc := "line " + strconv.FormatInt(t.line, 10)
	switch {
	case t.elem != "" && path != "":
		loc += ": " + t.elem + "." + path
	case t.elem != "":
		loc += ": " + t.elem
	case path != "":
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
	t.raw, t.line = nil, 0
	switch r := r.(type) {
	case universal.Prompt:
		return t.reportPrompt(dst, strings.ToValidUTF8(r.Text, "\uFFFD"))
	case universal.PermissionReply:
		return t.reportPermission(dst, r)
	case universal.QuestionReply:
		return t.reportQuestion(dst, r)
	case universal.Terminate:
		dst = t.releaseEarly(dst, "")
		dst = t.releaseUnclaimed(dst, "")
		dst = t.releaseClaimed(dst)
		dst = t.finish(dst)
		t.releaseScanner()
		return t.w.End(dst, r.Ended(), universal.SourceDaemon, nil)
	case universal.Exit:
		dst = t.releaseEarly(dst, "")
		dst = t.releaseUnclaimed(dst, "")
		dst = t.releaseClaimed(dst)
		dst = t.finish(dst)
		t.releaseScanner()
		return t.w.End(dst, universal.ExitEnded(t.endReason(), r), universal.SourceDaemon, nil)
	case universal.EndOfInput:
		dst = t.releaseEarly(dst, "")
		dst = t.releaseUnclaimed(dst, "")
		dst = t.releaseClaimed(dst)
		dst = t.finish(dst)
		t.releaseScanner()
		return t.w.End(dst, t.endReason(), universal.SourceDaemon, nil)
	}
	return dst
}

// Checkpoint returns the translator's state as JSON.
func (t *Translator) Checkpoint() ([]byte, error) {
	return universal.SaveCheckpoint(t.format, t.w, &t.s)
}

// Restore loads a state saved by Checkpoint into a translator built with
// the same format and options. A checkpoint is data read back from disk:
// besides what universal.LoadCheckpoint checks (version, agent, format,
// the stream's state), the translator's own state is checked against the
// restored stream (the messages, tools, turns and items it refers to
// exist and are open where it streams into them, indexes in range); a
// checkpoint that fails is refused with an error wrapping
// universal.ErrCheckpoint, and the translator is left unchanged.
func (t *Translator) Restore(b []byte) error {
	var s state
	if err := universal.LoadCheckedCheckpoint(b, t.format, t.w, &s, func() error { return s.validate(t.w) }); err != nil {
		return err
	}
	t.s = s
	t.open = msgIndex{}
	return nil
}
