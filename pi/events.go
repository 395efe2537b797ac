package pi

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/apierror"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

const (
	agent  = universal.SourceAgent
	daemon = universal.SourceDaemon
)

// event translates one event of pi --mode json or --mode rpc.
func (t *Translator) event(dst []universal.Event, in *input) []universal.Event {
	typ := in.typ.Str
	if typ == "rpc_chunk" || t.st.Chunk != nil {
		// A piece of a frame, or what comes while one is incomplete.
		dst, typ = t.chunk(dst, in)
		if typ == "" {
			return dst
		}
	}
	prevToolStart := t.st.LastToolStart
	t.st.LastToolStart = ""
	if (typ == "message_start" || typ == "message_end") && in.get("message.role").Str == "system" {
		// The run's system prompt (1.x), right after agent_start and
		// turn_start: metadata of the turn (message_end carries it).
		if typ == "message_start" {
			return dst
		}
		return t.system(dst, in, in.sub("message"), "")
	}
	if typ != "turn_start" {
		dst = t.flushTurn(dst)
	}
	if typ == "session" {
		return t.header(dst, in)
	}
	if !t.w.Begun() && !eventTypes[typ] && !rpcTypes[typ] && !ompEventTypes[typ] && !ompRPCTypes[typ] {
		// Noise before the session (a wrapper's JSON log line, a type
		// this version does not know) does not start it: the header
		// that may follow is its metadata. Reported once it starts.
		return t.unknown(dst, in, "event")
	}
	dst = t.begin(dst)
	tr := &t.st.Turn
	switch typ {
	case "agent_start":
		if t.inTurn() && tr.RunEnded && !tr.Continuing {
			// The previous prompt ended without agent_settled (Pi before
			// 0.80.4): this run belongs to the next prompt.
			dst = t.settle(dst, false, daemon, in.raw)
		}
		if !t.inTurn() {
			// turn.started waits for the run's system prompt.
			t.deferTurn(agent, in.raw)
		}
		tr.RunEnded, tr.Continuing = false, false
		tr.Runs++
		return dst
	case "agent_end":
		if t.inTurn() {
			tr.RunEnded = true
			tr.EndRaw = t.keepRaw(in.raw)
			// oh-my-pi: isTerminal false (an async delivery, a queued
			// message or a background job's result, resumes the session)
			// or yielded false (the agent goes on with its own work: a
			// retry, a compaction's continuation, a reminder) announce
			// another run for the prompt, as willRetry does.
			if in.get("willRetry").Bool() || isFalse(in.get("isTerminal")) || isFalse(in.get("yielded")) {
				tr.Continuing = true
			}
		}
		return dst
	case "agent_settled":
		return t.settle(dst, in.get("aborted").Bool(), agent, in.raw)
	case "turn_start":
		if t.inTurn() {
			tr.PiTurns++
			tr.StepOpen = true
		}
		return dst
	case "turn_end":
		return t.stepEnd(dst, in)
	case "message_start":
		if in.get("message.role").Str == "assistant" {
			dst = t.beforeAssistant(dst, in.raw)
			return t.startAssistant(dst, in.get("messageId").Str, in.raw)
		}
		// Other roles are complete at message_start; message_end
		// carries the same message and is translated.
		return dst
	case "message_update":
		return t.update(dst, in)
	case "message_end":
		// oh-my-pi's rpc mode names each message (messageId, the same
		// from message_start to message_end): the item's native id. A
		// tool result has its call's.
		native := ""
		switch in.get("message.role").Str {
		case "assistant":
			tr.StepAnswered = true
			native = in.get("messageId").Str
		case "custom":
			if t.ircSeen(in.get("message.customType").Str, in.get("message.timestamp").Raw) {
				// oh-my-pi's irc_message showed it.
				return dst
			}
			native = in.get("messageId").Str
		case "toolResult":
		default:
			native = in.get("messageId").Str
		}
		return t.message(dst, in, in.sub("message"), native)
	case "tool_execution_start":
		dst = t.toolStart(dst, in)
		t.st.LastToolStart = t.copy(in.get("toolCallId").Str)
		return dst
	case "tool_execution_update":
		return t.toolUpdate(dst, in)
	case "tool_execution_end":
		return t.toolEnd(dst, in)
	case "auto_retry_start":
		var md jsonw.Object
		md.Raw("attempt", in.get("attempt").Raw).Raw("maxAttempts", in.get("maxAttempts").Raw).Raw("delayMs", in.get("delayMs").Raw)
		md.Raw("errorId", number(in.get("errorId"))) // oh-my-pi
		tr.dropErr()
		if t.inTurn() {
			tr.Continuing = true
		}
		return t.error(dst, in.get("errorMessage").Str, "auto_retry", md.Bytes(), true, agent, in.raw)
	case "auto_retry_end":
		if in.get("success").Bool() {
			tr.dropErr()
			return dst
		}
		msg := in.get("finalError").Str
		if msg == "" {
			msg = tr.Err
		}
		tr.dropErr()
		tr.Errored = true
		var md jsonw.Object
		md.Raw("attempt", in.get("attempt").Raw)
		t.addValue(&md, "retryErrors", in.sub("retryErrors")) // oh-my-pi
		return t.error(dst, msg, "auto_retry", md.Bytes(), false, agent, in.raw)
	case "compaction_start", "auto_compaction_start":
		return t.compactionStart(dst, in)
	case "compaction_end", "auto_compaction_end":
		return t.compactionEnd(dst, in)
	case "summarization_retry_scheduled":
		var md jsonw.Object
		md.Raw("attempt", in.get("attempt").Raw).Raw("maxAttempts", in.get("maxAttempts").Raw).Raw("delayMs", in.get("delayMs").Raw)
		return t.error(dst, in.get("errorMessage").Str, "summarization_retry", md.Bytes(), true, agent, in.raw)
	case "queue_update":
		steer, follow := in.get("steering"), in.get("followUp")
		var md jsonw.Object
		md.Raw("steering", steer.Raw).Raw("followUp", follow.Raw)
		detail := fmt.Sprintf("%d steering, %d follow-up", count(steer), count(follow))
		return t.status(dst, "queue", detail, md.Bytes(), "", in.raw)
	case "thinking_level_changed":
		// Pi: {level}; oh-my-pi: {thinkingLevel, configured?, resolved?}
		// (the selector the user configured, what auto resolved to).
		level := in.get("level").Str
		var md jsonw.Object
		if level == "" {
			level = in.get("thinkingLevel").Str
			t.addValue(&md, "configured", in.sub("configured"))
			t.addValue(&md, "resolved", in.sub("resolved"))
		}
		return t.status(dst, "thinking_level", level, md.Bytes(), "", in.raw)
	case "session_info_changed":
		return t.title(dst, in.get("name").Str, nil, "", in.raw)
	case "entry_appended":
		return t.appended(dst, in)
	case "extension_ui_request":
		return t.uiRequest(dst, in, prevToolStart)
	case "extension_error", "hook_error":
		var md jsonw.Object
		md.Raw("extensionPath", in.get("extensionPath").Raw).Raw("event", in.get("event").Raw)
		return t.error(dst, in.get("error").Str, typ, md.Bytes(), false, agent, in.raw)
	case "response":
		return t.response(dst, in)
	case "summarization_retry_attempt_start", "summarization_retry_finished",
		"bash_execution_update":
		// On the ignore list (see the package documentation).
		return dst
	}
	if dst, ok := t.ompEvent(dst, in, typ); ok {
		return dst
	}
	return t.unknown(dst, in, "event")
}

// stepEnd translates turn_end, the end of a Pi turn (one model response
// and the tools it called): its message and toolResults (AgentEvent
// turn_end {message, toolResults}) repeat what message_end and
// tool_execution_end carried. A stream that did not carry them (oh-my-pi's
// `--output jsonl` writes no message_start or message_end of the
// assistant, and tool results either as toolResult messages before the
// turn_end or as tool_execution_end alone) has them only here: an
// assistant message no message_end completed since turn_start is
// translated as its message_end (its calls that ran before it keep the
// items they have: a call announced by tool_execution_start is not made
// again, a call only a result showed goes under that result's message),
// and a tool result whose call has no completed result as its toolResult
// message. oh-my-pi also writes two turn_end in a row: the second one's
// message is the next response's.
func (t *Translator) stepEnd(dst []universal.Event, in *input) []universal.Event {
	tr := &t.st.Turn
	answered := tr.StepAnswered
	tr.StepAnswered = false
	if msg := in.sub("message"); !answered && msg.IsObject() && msg.Get("role").Str == "assistant" {
		t.late = true
		dst = t.message(dst, in, msg, "")
		t.late = false
	}
	in.sub("toolResults").Each(func(_ gjson.Result, r jsonscan.Value) bool {
		if r.Get("role").Str != "toolResult" {
			return true
		}
		if tl := t.tool(r.Get("toolCallId").Str); tl != nil && tl.Result != "" && !t.w.IsOpen(tl.Result) {
			return true // completed by tool_execution_end or message_end
		}
		dst = t.message(dst, in, r, "")
		return true
	})
	return dst
}

func count(r gjson.Result) int {
	n := 0
	r.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	return n
}

// begin emits session.started without native metadata for inputs that
// have no header (rpc, exchange, json of Pi before 0.45).
func (t *Translator) begin(dst []universal.Event) []universal.Event {
	return t.beginWith(dst, nil)
}

// beginWith is begin with the system prompt (JSON) in the metadata, when
// it is the first thing the input shows.
func (t *Translator) beginWith(dst []universal.Event, systemPrompt []byte) []universal.Event {
	if t.w.Begun() {
		return dst
	}
	if ss := &t.st.Session; ss.Head != "" {
		// A session file's header, with the settings that followed it.
		// Begin copies the metadata: it is given a view of the held
		// string.
		md, raw := unsafe.Slice(unsafe.StringData(ss.Head), len(ss.Head)), []byte(ss.HeadRaw)
		ss.Head, ss.HeadRaw = "", ""
		if len(raw) == 0 {
			raw = nil
		}
		// Begin, not BeginClean: the held metadata may come from a
		// checkpoint, which Begin checks.
		return t.w.Begin(dst, md, agent, raw)
	}
	var md jsonw.Object
	md.String("agent", agentName).String("format", t.format)
	md.RawBytes("system_prompt", systemPrompt)
	return t.w.BeginClean(dst, md.Bytes(), daemon, nil)
}

// header translates the session header (json mode, session files).
func (t *Translator) header(dst []universal.Event, in *input) []universal.Event {
	id := in.get("id").Str
	if !t.w.Begun() {
		t.st.Header = t.copy(id)
		if id != "" {
			t.w.SetNativeSessionID(id)
		}
		var md jsonw.Object
		md.String("agent", agentName).String("format", t.format)
		md.Raw("session_version", in.get("version").Raw)
		if cwd := in.get("cwd").Str; cwd != "" {
			t.st.Cwd = t.copy(cwd)
		}
		for _, f := range [...][2]string{
			{"cwd", "cwd"}, {"created_at", "timestamp"}, {"parent_session", "parentSession"},
			{"branched_from", "branchedFrom"}, {"provider", "provider"}, {"model", "modelId"},
			{"reasoning_effort", "thinkingLevel"},
		} {
			md.OptString(f[0], in.get(f[1]).Str)
		}
		// oh-my-pi: the title (its title slot's, the current one, else
		// the header's) and the workspace's other roots, with the rest
		// of its header.
		ss := &t.st.Session
		title, source := ss.Title, ss.TitleSource
		if title == "" {
			title, source = in.get("title").Str, in.get("titleSource").Str
		}
		ss.Title, ss.TitleSource = "", ""
		t.st.Title = t.copy(title)
		md.OptString("title", title).OptString("title_source", source)
		for _, f := range [...][2]string{
			{"additional_directories", "additionalDirectories"}, {"previous_session_files", "previousSessionFiles"},
			{"provider_prompt_cache_key", "providerPromptCacheKey"},
		} {
			t.addValue(&md, f[0], in.sub(f[1]))
		}
		if t.format == FormatSession {
			if !t.st.Session.Decided {
				v := in.get("version")
				t.st.Session.Decided = true
				t.st.Session.Tree = v.Exists() && v.Int() >= 2
			}
			ss.Head = view(md.Bytes()) // the object's memory, written no more
			if t.w.Stamper().IncludeRaw() {
				ss.HeadRaw = string(in.raw)
			}
			return dst
		}
		return t.w.BeginClean(dst, md.Bytes(), agent, in.raw)
	}
	// A header again: pi --continue started a new process on the same
	// session. Nothing the previous process left can continue: a run
	// still going was interrupted.
	dst = t.settle(dst, t.inTurn() && !t.st.Turn.RunEnded, daemon, in.raw)
	if id == t.st.Header {
		return dst
	}
	t.st.Header = t.copy(id)
	t.w.SetNativeSessionID(id)
	return t.status(dst, "session", "continued in session "+id, nil, "", in.raw)
}

// inTurn reports whether a universal turn is open (or started and
// waiting for its system prompt).
func (t *Translator) inTurn() bool { return t.w.Turn() != "" || t.st.Pending != nil }

// startTurn starts a universal turn.
func (t *Translator) startTurn(dst []universal.Event, src universal.Source, raw []byte) []universal.Event {
	t.st.Turn = turnState{}
	dst, _ = t.w.StartTurnClean(dst, "", t.turnMetadata(), src, raw)
	return dst
}

// deferTurn starts a universal turn whose turn.started waits (flushTurn)
// for the run's system prompt, which Pi 1.x sends right after agent_start
// and turn_start.
func (t *Translator) deferTurn(src universal.Source, raw []byte) {
	t.st.Turn = turnState{}
	t.st.Pending = &pendingTurn{Source: src, Raw: t.keepRaw(raw)}
}

// flushTurn emits the turn.started of a deferred turn.
func (t *Translator) flushTurn(dst []universal.Event) []universal.Event {
	p := t.st.Pending
	if p == nil {
		return dst
	}
	t.st.Pending = nil
	dst, _ = t.w.StartTurnClean(dst, "", t.turnMetadata(), p.Source, p.Raw)
	return dst
}

// turnMetadata returns the metadata of a turn.started: the system prompt
// that waits for it, if any.
func (t *Translator) turnMetadata() []byte {
	sp := t.st.SystemPrompt
	if len(sp) == 0 {
		return nil
	}
	t.st.SystemPrompt = nil
	t.st.Turn.SystemPrompt = sp
	return t.promptMetadata(sp)
}

// promptMetadata returns {"system_prompt": sp}: the one system built with
// sp when sp is the system prompt it built last, else (a system prompt
// restored from a checkpoint) a new one.
func (t *Translator) promptMetadata(sp []byte) []byte {
	if len(sp) > 0 && len(sp) == len(t.built) && unsafe.SliceData(sp) == unsafe.SliceData(t.built) {
		return t.builtMD
	}
	var md jsonw.Object
	md.RawBytes("system_prompt", sp)
	return md.Bytes()
}

// system translates a system message (Pi 1.x): the run's system prompt
// (its sections, the tools added and removed, and any content). It is
// session information, so metadata: of the session when nothing came
// before it, else of the turn of the run it starts (a session file
// writes it before the run's prompt, so there it waits for the next
// turn). One that arrives during a turn is shown only when it changed
// (a status item labelled system_prompt with it in the metadata).
func (t *Translator) system(dst []universal.Event, in *input, msg jsonscan.Value, nativeID string) []universal.Event {
	// The prompt is built inside its metadata, {"system_prompt":{…}},
	// which turn.started or a status item carries: one buffer, no copy.
	const key = `{"system_prompt":`
	f := fields(msg, "content", "sections", "toolsAdded", "toolsRemoved")
	n := len(key) + 3
	for _, v := range f[:4] {
		n += len(v.Raw()) + 16
	}
	b := append(make([]byte, 0, n), key...)
	sep := byte('{')
	add := func(k string, v jsonscan.Value) {
		if v.Raw() == "" {
			return
		}
		b = append(jsonw.AppendString(append(b, sep), k), ':')
		b = append(b, t.compact(v)...)
		sep = ','
	}
	if c := f[0]; c.Exists() && (c.Type() != gjson.String || c.Str() != "") {
		add("content", c)
	}
	sections := f[1]
	add("sections", sections)
	add("toolsAdded", f[2])
	add("toolsRemoved", f[3])
	if sep == '{' {
		b = append(b, '{') // {}
	}
	b = append(b, '}')
	if t.st.Cwd == "" {
		t.st.Cwd = t.copy(sectionCwd(sections.Get("cwd").Str))
	}
	return t.placeSystem(dst, b, len(key), in.raw)
}

// sessionInit translates oh-my-pi's session_init entry, which opens a
// sub-agent's session file: its system prompt (as content), task, tools,
// agent and the rest are the system prompt information a system message
// gives, placed the same way.
func (t *Translator) sessionInit(dst []universal.Event, in *input, e jsonscan.Value) []universal.Event {
	const key = `{"system_prompt":`
	b := append(make([]byte, 0, len(key)+len(in.raw)+4), key...)
	sep := byte('{')
	e.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type", "id", "parentId", "timestamp":
			return true
		case "systemPrompt":
			k = "content"
		}
		b = append(jsonw.AppendString(append(b, sep), k), ':')
		b = append(b, t.compact(v)...)
		sep = ','
		return true
	})
	if sep == '{' {
		b = append(b, '{') // {}
	}
	return t.placeSystem(dst, append(b, '}'), len(key), in.raw)
}

// placeSystem places a system prompt built as b, {"system_prompt":{…}
// without the closing brace, whose key is n bytes long: in the metadata of
// the session, of the turn of its run, or of a status item (see system).
func (t *Translator) placeSystem(dst []universal.Event, b []byte, n int, raw []byte) []universal.Event {
	sp := b[n:len(b):len(b)]
	t.built, t.builtMD = sp, append(b, '}')
	switch {
	case !t.w.Begun():
		return t.beginWith(dst, sp)
	case t.st.Pending != nil:
		t.st.SystemPrompt = sp
		return t.flushTurn(dst)
	case t.format == FormatSession || !t.inTurn():
		// For the next turn (a session file: before the run's prompt).
		dst = t.heldSystem(dst, raw)
		t.st.SystemPrompt = sp
		return dst
	}
	return t.midTurnSystem(dst, sp, raw)
}

// heldSystem shows a system prompt that waited for a turn and will not
// get one: the work that came next belongs to the turn already open.
func (t *Translator) heldSystem(dst []universal.Event, raw []byte) []universal.Event {
	sp := t.st.SystemPrompt
	if len(sp) == 0 {
		return dst
	}
	t.st.SystemPrompt = nil
	return t.midTurnSystem(dst, sp, raw)
}

// midTurnSystem shows a system prompt that arrived during a turn, unless
// it repeats the turn's.
func (t *Translator) midTurnSystem(dst []universal.Event, sp []byte, raw []byte) []universal.Event {
	if bytes.Equal(sp, t.st.Turn.SystemPrompt) {
		return dst
	}
	if t.inTurn() {
		t.st.Turn.SystemPrompt = sp
	}
	return t.status(dst, "system_prompt", "", t.promptMetadata(sp), "", raw)
}

// sectionCwd returns the working directory of a system prompt's cwd
// section ("<cwd>\n/path\n</cwd>"), "" when it holds no absolute path.
func sectionCwd(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "<cwd>")
	s = strings.TrimSuffix(s, "</cwd>")
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "/") || strings.ContainsAny(s, "\n<>") {
		return ""
	}
	return s
}

// beforeWork makes sure a turn is open before work (a message, a tool)
// is translated, and gives the turn its prompt when Pi did not echo one.
func (t *Translator) beforeWork(dst []universal.Event, raw []byte) []universal.Event {
	dst = t.flushTurn(dst)
	if !t.inTurn() {
		dst = t.startTurn(dst, daemon, raw)
	} else {
		dst = t.heldSystem(dst, raw)
	}
	tr := &t.st.Turn
	if !tr.PromptSeen && len(t.st.Prompts) > 0 {
		tr.PromptSeen = true
		p := t.st.Prompts[0]
		t.st.Prompts = t.st.Prompts[1:]
		dst = t.syntheticPrompt(dst, p)
	}
	return dst
}

// beforeAssistant runs before an assistant message: an earlier failed
// message of the same turn was evidently retried.
func (t *Translator) beforeAssistant(dst []universal.Event, raw []byte) []universal.Event {
	dst = t.beforeWork(dst, raw)
	tr := &t.st.Turn
	if tr.ErrSet {
		msg, details := tr.Err, tr.ErrDetails
		tr.dropErr()
		dst = t.error(dst, msg, "", details, true, daemon, raw)
	}
	return dst
}

// settle ends the universal turn: Pi will do nothing more for the prompt.
func (t *Translator) settle(dst []universal.Event, aborted bool, src universal.Source, raw []byte) []universal.Event {
	dst = t.flushTurn(dst)
	if !t.inTurn() {
		return dst
	}
	tr := &t.st.Turn
	if tr.ErrSet {
		tr.ErrSet = false
		tr.Errored = true
		dst = t.error(dst, tr.Err, "", tr.ErrDetails, false, daemon, raw)
		tr.ErrDetails = nil
	}
	status := universal.TurnCompleted
	switch {
	case aborted || tr.LastStop == "aborted" || tr.LastStop == "deferred":
		// A deferred response (see assistant) ends the run without
		// the answer, which the provider still has to give.
		status = universal.TurnInterrupted
	case tr.Errored:
		status = universal.TurnError
	}
	var md jsonw.Object
	if n := len(tr.LastStop) + len(tr.API) + len(tr.Provider) + len(tr.Model); n > 0 {
		// Room for all of it, keys too: grown, it took two allocations.
		md.Grow(n + 96)
	}
	md.OptString("stop_reason", tr.LastStop)
	md.OptString("api", tr.API).OptString("provider", tr.Provider).OptString("model", tr.Model)
	if tr.Runs > 0 {
		md.Int("agent_runs", int64(tr.Runs))
	}
	if tr.PiTurns > 0 {
		md.Int("pi_turns", int64(tr.PiTurns))
	}
	var mdb []byte
	if md.Len() > 0 {
		mdb = md.Bytes()
	}
	dst = t.w.EndTurn(dst, "", status, mdb, src, raw)
	t.st.Failed = status == universal.TurnError
	t.st.Turn = turnState{}
	t.st.Msg = nil
	t.st.Tools = t.st.Tools[:0]
	t.st.Compactions = slices.DeleteFunc(t.st.Compactions, func(id string) bool { return !t.w.IsOpen(id) })
	return dst
}

// error emits an error event. A msg that is a model API's error response
// as pi-ai passes it on (its anthropic-messages API: the Anthropic SDK's
// message "NNN {body}"; see package internal/apierror) is reported as
// every translator reports one: the body's error.message is the event's
// message, the code given (else the body's error.code or error.type) its
// code, and http_status (unless oh-my-pi's errorStatus gave it) and the
// body, as api_error, are added to the details. A msg in the openai SDK's
// form with a plain message ("529 Overloaded", see sdkStatus) stays the
// message, its status http_status in the details.
func (t *Translator) error(dst []universal.Event, msg, code string, details []byte, retry bool, src universal.Source, raw []byte) []universal.Event {
	if msg == "" {
		msg = "unknown error"
	}
	if b, ok := providerError(msg); ok {
		o, hasStatus := detailMembers(details)
		if hasStatus {
			b.Status = 0
		}
		b.AddTo(&o)
		msg, details = b.Message, o.Bytes()
		if code == "" {
			code = b.Code
		}
	} else if st, ok := sdkStatus(msg); ok {
		// "529 Overloaded": the text stays the message, and the status
		// is kept, as Claude Code's "API Error: 529 Overloaded." is.
		if o, hasStatus := detailMembers(details); !hasStatus {
			details = o.Int("http_status", st).Bytes()
		}
	}
	d := &universal.Error{Message: t.copy(msg), Code: t.copy(code), WillRetry: retry}
	if len(details) > 2 {
		d.Details = details
	}
	return t.w.Emit(dst, universal.TypeError, src, d, raw)
}

// detailMembers starts an object with the members of an error's details
// (when they are an object), to add to them; hasStatus says whether they
// give an http_status already (oh-my-pi's errorStatus).
func detailMembers(details []byte) (o jsonw.Object, hasStatus bool) {
	if d := bytes.TrimSpace(details); len(d) > 2 && d[0] == '{' && d[len(d)-1] == '}' {
		o.RawMembers(string(bytes.TrimSpace(d[1 : len(d)-1])))
		hasStatus = gjson.GetBytes(d, "http_status").Exists()
	}
	return o, hasStatus
}

// providerError reads an error text as a model API's error response: the
// forms of package internal/apierror (pi-ai's anthropic-messages API:
// the Anthropic SDK's "NNN {body}"), and the form pi-ai's
// formatProviderError gives its other APIs' errors (npm
// @earendil-works/pi-ai 1.6.0, MIT: dist/utils/error-body.js)
// when the SDK's message does not carry the body: "NNN: <body>" or
// "<label> (NNN): <body>", whose body is the response's (an object with
// error.message, or the ChatGPT backend's {detail}) or the SDK's parsed
// error object (the openai SDK's error: {message, type, code}). Other
// texts are none. The ChatGPT backend's {detail} body alone is one too
// (detailBody).
func providerError(msg string) (apierror.Body, bool) {
	if b, ok := apierror.Parse(msg); ok {
		return b, true
	}
	if b, ok := detailBody(msg); ok {
		return b, true
	}
	i := strings.IndexByte(msg, '{')
	if i < 5 || !strings.HasPrefix(msg[i-2:], ": ") {
		return apierror.Body{}, false
	}
	head := msg[:i-2]
	if strings.HasSuffix(head, ")") {
		j := strings.LastIndex(head, " (")
		if j < 1 {
			return apierror.Body{}, false
		}
		head = head[j+2 : len(head)-1]
	}
	if len(head) != 3 || head[0] < '1' || head[0] > '5' || head[1] < '0' || head[1] > '9' || head[2] < '0' || head[2] > '9' {
		return apierror.Body{}, false
	}
	body := strings.TrimSpace(msg[i:])
	if !gjson.Valid(body) {
		return apierror.Body{}, false
	}
	var b apierror.Body
	b.Status = int64(head[0]-'0')*100 + int64(head[1]-'0')*10 + int64(head[2]-'0')
	b.JSON = body
	for _, base := range [...]string{"error.", ""} {
		m := gjson.Get(body, base+"message")
		if m.Type != gjson.String || strings.TrimSpace(m.Str) == "" {
			continue
		}
		b.Message = m.Str
		for _, c := range [...]string{"code", "type"} {
			if v := gjson.Get(body, base+c); v.Type == gjson.String && v.Str != "" {
				b.Code = v.Str
				break
			}
		}
		return b, true
	}
	if m := gjson.Get(body, "detail"); m.Type == gjson.String && strings.TrimSpace(m.Str) != "" {
		b.Message = m.Str
		return b, true
	}
	return apierror.Body{}, false
}

// sdkStatus reads the HTTP status of an error text in the form the openai
// SDK gives an API error (npm openai 6.26.0, pi-ai 0.73's: core/error.js
// APIError.makeMessage, "<status> <the body's error.message>", or
// "<status> status code (no body)"), which pi-ai passes on as the
// message's errorMessage for its OpenAI-compatible APIs (recorded 0.73.1:
// "529 Overloaded", "400 Invalid request: …"): a client or server error
// status (400–599), a space and a message. A form with a body is
// providerError's. Any other text gives none.
func sdkStatus(msg string) (int64, bool) {
	s := strings.TrimSpace(msg)
	if len(s) < 5 || s[3] != ' ' || s[0] < '4' || s[0] > '5' || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9' {
		return 0, false
	}
	if strings.TrimSpace(s[4:]) == "" {
		return 0, false
	}
	return int64(s[0]-'0')*100 + int64(s[1]-'0')*10 + int64(s[2]-'0'), true
}

// detailBody reads an error text that is the ChatGPT backend's error
// body alone, {"detail": "<message>"}, as pi-ai's openai-codex-responses
// API passes it on (a model the account may not use: "The 'gpt-5.5'
// model is not supported when using Codex with a ChatGPT account."; a
// version too old for the model): the message is the detail, the body
// kept, no status or code. A detail that is not a non-empty string (a
// FastAPI validation error's list) is none.
func detailBody(msg string) (apierror.Body, bool) {
	s := strings.TrimSpace(msg)
	if len(s) < 2 || s[0] != '{' || !gjson.Valid(s) {
		return apierror.Body{}, false
	}
	m := gjson.Get(s, "detail")
	if m.Type != gjson.String || strings.TrimSpace(m.Str) == "" {
		return apierror.Body{}, false
	}
	return apierror.Body{JSON: s, Message: m.Str}, true
}

// status emits a complete status item.
func (t *Translator) status(dst []universal.Event, label, detail string, md []byte, nativeID string, raw []byte) []universal.Event {
	p := withMetadata(universal.Part{Type: universal.PartStatus, Label: label, Detail: t.copy(detail)}, md)
	return t.newItem(dst, universal.KindStatus, "", nativeID, []universal.Part{p}, raw)
}

// title reports a new name of the session (Pi's session_info and
// session_info_changed, oh-my-pi's title_change) as a status item
// labelled "title" whose detail is the name, when it changes the title
// the session has (the header's, or the last one reported). A name
// cleared is not reported.
func (t *Translator) title(dst []universal.Event, title string, md []byte, nativeID string, raw []byte) []universal.Event {
	if title == "" || title == t.st.Title {
		return dst
	}
	t.st.Title = t.copy(title)
	return t.status(dst, universal.LabelTitle, title, md, nativeID, raw)
}

// syntheticPrompt emits a user message the host sent and Pi did not echo.
func (t *Translator) syntheticPrompt(dst []universal.Event, text string) []universal.Event {
	return t.w.Complete(dst, universal.Item{
		ItemID:  t.w.NewItemID(),
		Kind:    universal.KindMessage,
		Role:    universal.RoleUser,
		Content: []universal.Part{universal.Text(text)},
	}, daemon, nil)
}

// startAssistant starts the item of a streaming assistant message.
func (t *Translator) startAssistant(dst []universal.Event, nativeID string, raw []byte) []universal.Event {
	if t.st.Msg != nil {
		// The previous message never ended.
		if t.w.IsOpen(t.st.Msg.Item) {
			dst = t.w.Close(dst, t.st.Msg.Item, universal.StatusFailed, daemon, raw)
		}
		t.st.Msg = nil
	}
	id := t.w.NewItemID()
	t.st.Msg = &message{Item: id}
	t.st.Turn.LastMsg = id
	t.st.Turn.StepOpen = false
	return t.w.StartItem(dst, universal.Item{ItemID: id, NativeItemID: t.copy(nativeID), Kind: universal.KindMessage, Role: universal.RoleAssistant}, agent, raw)
}

// update translates message_update: one streaming step of the assistant
// message, addressed by contentIndex. Pi before 0.84 also repeats the
// whole partial message on every update; only the delta is read (the
// partial is diffed only when an update carries no delta), so the work
// stays linear in the input.
func (t *Translator) update(dst []universal.Event, in *input) []universal.Event {
	e := in.updateEvent()
	etype := e.typ.Str()
	switch etype {
	case "start", "done", "error":
		// Provider-level events the agent loop turns into
		// message_start/message_end; message_end carries the outcome.
		return dst
	}
	ci, ok := contentIndex(e.index)
	if !ok || !in.scanned() && !gjson.Valid(e.index.Raw()) {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("message_update %q: contentIndex %s", etype, e.index.Raw()), in.raw)
	}
	if t.st.Msg == nil {
		// Picked up mid-message.
		dst = t.beforeAssistant(dst, in.raw)
		dst = t.startAssistant(dst, in.get("messageId").Str, in.raw)
	}
	m := t.st.Msg
	b := m.block(ci)
	switch etype {
	case "text_start", "text_end":
		// An end's content is the block's final text; message_end
		// carries it again, authoritative, and reconciles it.
		b.setKind("text")
		return dst
	case "thinking_start", "thinking_end":
		b.setKind("thinking")
		return dst
	case "image_end":
		// oh-my-pi: an image the model produced ({contentIndex,
		// content: ImageContent}); message_end carries it again, and it
		// is the message's image part from there.
		b.setKind("image")
		return dst
	case "text_delta", "thinking_delta":
		typ, kind := universal.PartText, "text"
		if etype == "thinking_delta" {
			typ, kind = universal.PartReasoning, "thinking"
		}
		b.setKind(kind)
		d := in.eventField(&e, e.delta, "assistantMessageEvent.delta")
		if !d.Exists() {
			return t.diffPartial(dst, in, m, b, ci, typ, kind)
		}
		if !in.validString(d) {
			return t.w.Unparsed(dst, in.where(), errBadDelta, in.raw)
		}
		if !in.read && in.scanned() {
			// A line without the partial message.
			t.scanner().Mark(&t.delta, d)
			t.rememberPlain(in.raw, d.Raw())
		}
		return t.textDelta(dst, in, m, b, typ, d.Str())
	case "toolcall_start":
		b.setKind("toolCall")
		id, name := in.eventField(&e, e.id, "assistantMessageEvent.id"), in.eventField(&e, e.toolName, "assistantMessageEvent.toolName")
		if id.Exists() && !in.validString(id) || name.Exists() && !in.validString(name) {
			return t.w.Unparsed(dst, in.where(), errors.New("toolcall_start: id or toolName is not a JSON string"), in.raw)
		}
		if !id.Exists() && !name.Exists() {
			// Before 0.84.3 only the partial message names the call
			// (once per tool call, so reading it keeps the work linear).
			if !in.scanned() && !gjson.Valid(in.view) {
				// A line cut short: the name is lost with the partial.
				return t.w.Unparsed(dst, in.where(), errNotJSON, in.raw)
			}
			if c := element(in.sub("assistantMessageEvent.partial.content"), ci); c.Get("type").Str == "toolCall" {
				id, name = c.Sub("id"), c.Sub("name")
			}
		}
		return t.toolCallStart(dst, m, b, id.Str(), name.Str(), in.raw)
	case "toolcall_delta":
		b.setKind("toolCall")
		d := in.eventField(&e, e.delta, "assistantMessageEvent.delta")
		if !in.validString(d) {
			return t.w.Unparsed(dst, in.where(), errBadDelta, in.raw)
		}
		dst = t.toolCallStart(dst, m, b, "", "", in.raw)
		if !t.w.IsOpen(b.Tool) {
			// Its toolcall_end (or the message's end) came first.
			return t.w.Unparsed(dst, in.where(), errors.New("toolcall_delta after its tool call ended"), in.raw)
		}
		return t.w.Delta(dst, b.Tool, 0, universal.PartToolCall, d.Str(), agent, in.raw)
	case "toolcall_end":
		b.setKind("toolCall")
		tc := in.sub("assistantMessageEvent.toolCall")
		if !tc.IsObject() || !in.scanned() && !gjson.Valid(tc.Raw()) {
			return t.w.Unparsed(dst, in.where(), errors.New("toolcall_end without a valid toolCall"), in.raw)
		}
		return t.toolCallFinal(dst, m, b, tc, in.raw)
	}
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: assistantMessageEvent %q", errUnknownType, etype), in.raw)
}

var errBadDelta = errors.New("message_update: delta is not a JSON string")

// updateEvent is what update reads of a message_update's
// assistantMessageEvent (the streaming step).
type updateEvent struct {
	typ, index, delta, partial jsonscan.Value
	id, toolName               jsonscan.Value // toolcall_start (Pi 0.84.3 and later)
	// lazy: the fields after typ and index are read only when asked for
	// (eventField). A long line is read one field at a time, and looking
	// for an absent one would read its partial message.
	lazy bool
}

// eventField returns v, a field of e, or when e is lazy the value at path.
func (in *input) eventField(e *updateEvent, v jsonscan.Value, path string) jsonscan.Value {
	if e.lazy {
		return in.sub(path)
	}
	return v
}

// updateEvent reads the assistantMessageEvent of a message_update: in one
// walk over its members when the line was scanned and has one such object
// (what Pi writes), else field by field as gjson paths read them.
func (in *input) updateEvent() (e updateEvent) {
	if in.read {
		return in.update
	}
	ev := in.event
	if in.events != 1 || !ev.IsObject() {
		e.typ, e.index = in.sub("assistantMessageEvent.type"), in.sub("assistantMessageEvent.contentIndex")
		e.lazy = true
		return e
	}
	ev.Members(func(k string, v jsonscan.Value) bool {
		var f *jsonscan.Value
		switch k {
		case "type":
			f = &e.typ
		case "contentIndex":
			f = &e.index
		case "delta":
			f = &e.delta
		case "id":
			f = &e.id
		case "toolName":
			f = &e.toolName
		case "partial":
			f = &e.partial
		}
		if f != nil && !f.Exists() {
			*f = v // the first of duplicates, as a path reads
		}
		return true
	})
	return e
}

// validString reports whether r, read from in, is a well-formed JSON
// string (a line read without validating it as a whole may be cut short).
func (in *input) validString(v jsonscan.Value) bool {
	return v.Type() == gjson.String && (in.scanned() || gjson.Valid(v.Raw()))
}

// contentIndex returns the block index a contentIndex value gives: a
// whole number from 0 to maxContentIndex (1.0 is 1). Plain digits, what Pi
// writes, are read as they are; other numbers as gjson reads them.
func contentIndex(v jsonscan.Value) (int, bool) {
	if v.Type() != gjson.Number {
		return 0, false
	}
	if raw := v.Raw(); len(raw) > 0 && len(raw) <= 4 {
		n := 0
		for i := 0; i < len(raw); i++ {
			c := raw[i]
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + int(c-'0')
		}
		if n >= 0 {
			return n, n <= maxContentIndex
		}
	}
	num := v.Result().Num
	if num < 0 || num > maxContentIndex || num != float64(int(num)) {
		return 0, false
	}
	return int(num), true
}

// element returns element i of a JSON array.
func element(content jsonscan.Value, i int) jsonscan.Value {
	var r jsonscan.Value
	n := 0
	content.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		if n == i {
			r = v
			return false
		}
		n++
		return true
	})
	return r
}

func (m *message) block(ci int) *block {
	if m.Blocks == nil {
		m.Blocks = m.blocks[:0]
	}
	for len(m.Blocks) <= ci {
		m.Blocks = append(m.Blocks, block{})
	}
	return &m.Blocks[ci]
}

func (b *block) setKind(k string) {
	if b.Kind == "" {
		b.Kind = k
	}
}

// textDelta appends text to the part of a text or thinking block.
func (t *Translator) textDelta(dst []universal.Event, in *input, m *message, b *block, typ universal.PartType, text string) []universal.Event {
	if text == "" {
		return dst
	}
	if b.Part == 0 {
		m.Parts = append(m.Parts, typ)
		b.Part = len(m.Parts)
	}
	if m.Parts[b.Part-1] != typ {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("content block changed from %s to %s", m.Parts[b.Part-1], typ), in.raw)
	}
	return t.w.Delta(dst, m.Item, b.Part-1, typ, text, agent, in.raw)
}

// diffPartial handles a delta event without a delta (an accumulated
// partial message only): the new text is what the block's text in the
// partial adds to what streamed so far. A partial that does not extend
// the streamed text emits nothing; message_end settles it.
func (t *Translator) diffPartial(dst []universal.Event, in *input, m *message, b *block, ci int, typ universal.PartType, kind string) []universal.Event {
	if !in.scanned() && !gjson.Valid(in.view) {
		return t.w.Unparsed(dst, in.where(), errNotJSON, in.raw)
	}
	content := in.sub("assistantMessageEvent.partial.content")
	if !content.Exists() {
		content = in.sub("message.content")
	}
	cum := element(content, ci).Get(kind).Str
	streamed := ""
	if b.Part > 0 {
		streamed = t.w.StreamedText(m.Item, b.Part-1)
	}
	if len(cum) <= len(streamed) || !strings.HasPrefix(cum, streamed) {
		return dst
	}
	return t.textDelta(dst, in, m, b, typ, cum[len(streamed):])
}
