package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// event is one server event, unwrapped from its envelope.
type event struct {
	typ   string         // the type without a schema-version suffix
	id    string         // the event id, "" when the envelope has none
	idv   jsonscan.Value // the id's value, absent for none
	props jsonscan.Value // properties (classic), data (V2, sync wrapper)
	dir   string         // the directory of a 2.x envelope's location, "" for none
	next  bool           // a ≤ 1.19 session.next.* event read as its 2.x name
	raw   []byte         // the native message the event came in
	line  int64
	index int // position in an array of events, -1 for a stream
}

func (e *event) loc() string { return lineLoc(e.line, e.index) }

// unparsed reports the event as agent.unparsed.
func (t *Translator) unparsed(dst []universal.Event, e *event, err error) []universal.Event {
	return t.w.Unparsed(dst, e.loc()+": "+e.typ, err, e.raw)
}

// translateEvent unwraps one event of any of the three envelopes and
// handles it:
//
//	{"id","type","properties"}                          /event
//	{"directory","project"?,"payload":{…}}              /global/event
//	{"payload":{"type":"sync","syncEvent":{"type":"x.y.1","id","seq","aggregateID","data"}}}
//	{"id","type","data","durable"?,"location"?}         /api/event (V2)
//
// root is the event, scanned; raw its bytes.
func (t *Translator) translateEvent(dst []universal.Event, root jsonscan.Value, raw []byte, line int64, index int) []universal.Event {
	e := event{raw: raw, line: line, index: index}
	if !root.IsObject() {
		return t.w.Unparsed(dst, e.loc(), errors.New("event is not a JSON object"), raw)
	}
	env := readEnvelope(root)
	if env.payload.Exists() {
		env = readEnvelope(env.payload)
	}
	e.typ, e.id, e.idv, e.props = env.typ.Str(), strOf(env.id), env.id, env.props
	if !e.props.Exists() {
		e.props = env.data
	}
	if env.aggregate.Exists() && !env.props.Exists() {
		// A row of the durable event log OpenCode keeps in its database
		// (the event table: {id, aggregate_id, seq, type, data}).
		t.st.Durable = true
		if e.props.Type() == gjson.String {
			// Its data column as sqlite3 -json prints it: JSON text in
			// a string.
			t.row.buf = e.props.AppendStr(t.row.buf[:0])
			var ok bool
			if t.row.buf, ok = t.row.scan.ScanClean(t.row.buf); !ok {
				return t.w.Unparsed(dst, e.loc()+": "+e.typ, errors.New("event data is a string that holds no valid JSON"), raw)
			}
			e.props = t.row.scan.Root()
		}
	}
	if n := len(e.typ); n > 0 && e.typ[n-1] >= '0' && e.typ[n-1] <= '9' {
		// The schema version of a durable event's type (x.y.1), as
		// in the event log and the sync wrapper.
		e.typ = stripVersion(e.typ)
	}
	if env.location.Exists() {
		// Only 2.x envelopes have a location: a lookup in an absent
		// value would go to gjson.
		e.dir = env.location.Sub("directory").Str()
	}
	if e.typ == "sync" {
		se := readEnvelope(env.sync)
		e.typ, e.id, e.idv, e.props = stripVersion(se.typ.Str()), se.id.Str(), se.id, se.data
	}
	if e.typ == "" {
		return t.w.Unparsed(dst, e.loc(), errors.New("event without a type"), raw)
	}
	if !env.props.Exists() && !env.data.Exists() && t.format == FormatEventLines && index < 0 {
		switch e.typ {
		case "emit_inbound", "expect_outbound", "transcript_start", "runtime_exit":
			// A record of a provider replay transcript (replay.go).
			return t.replayTranscriptRecord(dst, root, raw, line)
		}
	}
	if !env.props.Exists() && env.data.Exists() {
		// The V2 envelope ({id, type, durable, data}) of /api/event and
		// the per-session /api/session/{id}/event of OpenCode ≤ 1.19:
		// there the durable session.next.* message events are the
		// session's only record (no message.updated follows), read as
		// the 2.x events they became. On /event and in sync wrappers
		// they come with the classic events and stay ignored.
		if v2, ok := nextAsV2[e.typ]; ok {
			e.typ, e.next = v2, true
		}
	}
	if t.format == FormatEvents && strings.HasPrefix(e.typ, "custom.") {
		// Markers that the opencode.nvim recorder writes between the
		// server's events (custom.emit_events.*, custom.server_*,
		// custom.command.*): not OpenCode output.
		return dst
	}
	if t.st.Recent.seen(e.id) {
		// The sync wrapper on /global/event repeats the classic event
		// with the same id (or the other way round).
		return dst
	}
	dst = t.dispatch(dst, &e)
	if t.st.Durable && t.st.Turn.Open {
		// The event that showed the agent finished, until an answer
		// after it (a prompt queued while the agent worked) shows it
		// working again: then the next one that shows it finished.
		switch finished := t.listFinished(); {
		case finished && t.st.Turn.Settled == nil:
			t.st.Turn.Settled = rawText(bytes.Clone(raw))
		case !finished:
			t.st.Turn.Settled = nil
		}
	}
	return dst
}

// nextAsV2 maps the ≤ 1.19 spelling session.next.* of 2.x message
// events, read in the V2 envelope, to the 2.x name (same data; a
// prompt's id is messageID there, inputID in 2.x). Looked up by the
// whole type, so that no name is built per event.
var nextAsV2 = func() map[string]string {
	m := map[string]string{}
	for _, v2 := range []string{
		"session.prompt.admitted", "session.prompt.promoted",
		"session.step.started", "session.step.ended", "session.step.failed",
		"session.text.started", "session.text.delta", "session.text.ended",
		"session.reasoning.started", "session.reasoning.delta", "session.reasoning.ended",
		"session.tool.input.started", "session.tool.input.delta", "session.tool.input.ended",
		"session.tool.called", "session.tool.progress", "session.tool.success", "session.tool.failed",
		// The session's other durable records (SDK 1.19.3's
		// SessionNext* types, the same data as the 2.x events but for
		// the shell's, see onShell): a shell command the user ran and
		// its output, text given to the model, a compaction's summary,
		// a retried call, a revert point.
		"session.shell.started", "session.shell.ended",
		"session.synthetic", "session.context.updated",
		"session.compaction.ended", "session.retried",
		"session.revert.staged", "session.revert.cleared", "session.revert.committed",
	} {
		m["session.next."+strings.TrimPrefix(v2, "session.")] = v2
	}
	// The prompt as the session took it, {messageID, prompt, delivery}:
	// what prompt.admitted says (builds that send both give one prompt).
	m["session.next.prompted"] = "session.prompt.admitted"
	return m
}()

// envelope holds the members of an event object that say what it is.
type envelope struct {
	typ, id, props, data, payload, sync, location, aggregate jsonscan.Value
}

// readEnvelope reads an event object's members in one pass (the first of
// duplicate keys wins, as with gjson paths).
func readEnvelope(obj jsonscan.Value) envelope {
	var env envelope
	obj.Members(func(k string, v jsonscan.Value) bool {
		var dst *jsonscan.Value
		switch k {
		case "type":
			dst = &env.typ
		case "id":
			dst = &env.id
		case "properties":
			dst = &env.props
		case "data":
			dst = &env.data
		case "payload":
			dst = &env.payload
		case "syncEvent":
			dst = &env.sync
		case "location":
			dst = &env.location
		case "aggregate_id":
			dst = &env.aggregate
		default:
			return true
		}
		if !dst.Exists() {
			*dst = v
		}
		return true
	})
	return env
}

// strOf returns v.Str() without making a gjson.Result of an absent
// value, as Str does (most events have no id).
func strOf(v jsonscan.Value) string {
	if !v.Exists() {
		return ""
	}
	return v.Str()
}

// stripVersion removes a schema-version suffix: "message.updated.1" →
// "message.updated".
func stripVersion(typ string) string {
	i := strings.LastIndexByte(typ, '.')
	if i < 0 || i == len(typ)-1 {
		return typ
	}
	for _, c := range typ[i+1:] {
		if c < '0' || c > '9' {
			return typ
		}
	}
	return typ[:i]
}

// ignoredPrefixes and ignored are the explicit ignore list: native event
// types that carry nothing for the transcript (see the package doc).
var ignoredPrefixes = []string{
	"installation.", "lsp.", "file.", "pty.", "tui.", "mcp.", "project.", "workspace.", "worktree.",
	"integration.", "vcs.", "session.next.",
}

var ignored = map[string]bool{
	"server.connected":         true,
	"server.heartbeat":         true,
	"server.instance.disposed": true,
	"global.disposed":          true,
	"plugin.added":             true,
	"catalog.updated":          true,
	"reference.updated":        true,
	"models-dev.refreshed":     true,
	// 2.x: a registry changed (data {}): providers, models, agents,
	// commands, web search, plugins.
	"provider.updated":      true,
	"model.updated":         true,
	"agent.updated":         true,
	"command.updated":       true,
	"websearch.updated":     true,
	"plugin.updated":        true,
	"command.executed":      true,
	"session.diff":          true,
	"session.compacted":     true,
	"session.usage.updated": true,
	// 2.x: a compaction is reported when it ends (or fails).
	"session.compaction.admitted": true,
	"session.compaction.started":  true,
	"log.synced":                  true,
	// 2.x: a session's agent and model are each assistant message's
	// (session.step.started's agent and model), not the session's.
	"session.agent.selected": true,
	"session.model.selected": true,
	// 2.x: a session's place (location, subpath) changed; its tools'
	// own events say what they touch.
	"session.moved": true,
	// 2.x: a session made by copying another's messages: a new session
	// with its own events, not a sub-agent (it is not linked).
	"session.forked": true,
	// 2.0.x: a change of a queued prompt's delivery (it is reported
	// when delivered); the first streamed
	// token of a step; a snapshot of a message's content, whose blocks
	// their own started and ended events give; a compaction's summary
	// so far (reported when it ends); the usage of the title and
	// compaction calls; a session's metadata, permission rules and
	// last view.
	"session.inbox.delivery.changed":  true,
	"session.step.streamed":           true,
	"session.message.content.updated": true,
	"session.compaction.delta":        true,
	"session.usage.recorded":          true,
	"session.metadata.updated":        true,
	"session.permissions":             true,
	"session.viewed":                  true,
	// 2.x: the shell service's own record of a process (created, exited,
	// deleted: removed from its registry, as when a call is aborted),
	// which session.shell.started/ended and the shell tool's progress
	// and result report for the session; the skill registry changed.
	"shell.created": true,
	"shell.exited":  true,
	"shell.deleted": true,
	"skill.updated": true,
}

// located takes the directory of a 2.x session event's location as the
// session's when no session.created gave it (a stream joined after the
// session was created): every 2.x envelope has the location of the
// instance that published it, and a session's events are published by
// its own (a worktree session's by the worktree's, while the events of
// the project around it name the project). An event of the followed
// session gives the cwd of the session's tools and, before the session
// started, session.started metadata cwd. While no session is followed,
// the handlers decide which session is (an event that starts work
// selects its session; a rename, deletion, finished run or usage update
// of another session on the server does not): located only notes the
// location of the last session event (WhereSession, WhereDir), which
// route takes as the cwd of that session when it selects it, and
// dispatch puts in the session.started the stream began for it
// (whereThen). Events of other kinds (integration, provider, model
// updates) are not the session's and give nothing.
func (t *Translator) located(dst []universal.Event, e *event) []universal.Event {
	sid := e.props.Get("sessionID").Str
	if e.typ == "session.created" {
		// Its own directory is read with it; a location noted for the
		// session gives way to it.
		if t.st.WhereSession != "" && (sid == t.st.WhereSession || e.props.Get("info.id").Str == t.st.WhereSession) {
			t.st.WhereSession, t.st.WhereDir = "", ""
		}
		return dst
	}
	if e.dir == "" || !strings.HasPrefix(e.typ, "session.") {
		return dst
	}
	if sid == "" {
		return dst
	}
	if t.st.Session == "" {
		if _, child := t.st.Parents[sid]; !child {
			t.st.WhereSession, t.st.WhereDir = t.w.Copy(sid), t.w.Copy(e.dir)
		}
		return dst
	}
	if sid != t.st.Session {
		return dst
	}
	if t.st.Cwd == "" {
		t.st.Cwd = t.w.Copy(e.dir)
	}
	if !t.w.Begun() {
		dst = t.w.BeginClean(dst, startedAt(e.dir), universal.SourceDaemon, nil)
	}
	return dst
}

// startedAt is session.started metadata with the session's directory.
func startedAt(dir string) []byte {
	var o jsonw.Object
	o.String("agent", agentName).String("cwd", dir)
	return o.Bytes()
}

// whereThen gives the session.started among the events that selected the
// session (from on) the directory located noted for the session, when
// the stream began it without one (as the handler's first event needed
// it), and forgets the location: it is the session's cwd now.
func (t *Translator) whereThen(dst []universal.Event, from int) []universal.Event {
	if t.st.Session == "" {
		return dst
	}
	if t.st.Session == t.st.WhereSession {
		for i := from; i < len(dst); i++ {
			if dst[i].Type != universal.TypeSessionStarted {
				continue
			}
			if ss, ok := dst[i].Data.(*universal.SessionStarted); ok && string(ss.Metadata) == `{"agent":"`+agentName+`"}` {
				ss.Metadata = startedAt(t.st.WhereDir)
			}
			break
		}
	}
	t.st.WhereSession, t.st.WhereDir = "", ""
	return dst
}

// isIgnored reports whether a type is on the ignore list.
func isIgnored(typ string) bool {
	if ignored[typ] {
		return true
	}
	for _, p := range ignoredPrefixes {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}

// dispatch handles one unwrapped event.
func (t *Translator) dispatch(dst []universal.Event, e *event) []universal.Event {
	if e.typ == "message.part.delta" {
		// A stream's most frequent event, before the others' cases.
		return t.onDelta(dst, e)
	}
	if t.st.Session != "" {
		if e.dir != "" && (t.st.Cwd == "" || !t.w.Begun()) {
			dst = t.located(dst, e)
		}
		return t.handle(dst, e)
	}
	dst = t.located(dst, e)
	n := len(dst)
	dst = t.handle(dst, e)
	return t.whereThen(dst, n)
}

// handle handles one unwrapped event by its type.
func (t *Translator) handle(dst []universal.Event, e *event) []universal.Event {
	p := e.props
	switch e.typ {
	case "session.created", "session.updated":
		return t.onSessionInfo(dst, e, e.typ == "session.created")
	case "session.renamed":
		if p.Get("sessionID").Str != t.st.Session {
			return dst // a sub-agent's session: its title is not the session's
		}
		return t.title(dst, p.Get("title").Str, 0, e.raw)
	case "session.deleted":
		return t.onSessionDeleted(dst, e)
	case "session.status":
		return t.onStatus(dst, e)
	case "session.idle":
		return t.idle(dst, p.Get("sessionID").Str, e.raw)
	case "session.error":
		return t.onSessionError(dst, e)
	case "session.execution.started", "session.execution.succeeded", "session.execution.failed", "session.execution.interrupted":
		return t.onExecution(dst, e)
	case "session.retry.scheduled", "session.retried":
		return t.onRetryScheduled(dst, e)
	case "session.synthetic", "session.skill.activated", "session.context.updated", "session.instructions.updated":
		return t.onV2System(dst, e)
	case "session.revert.staged", "session.revert.cleared", "session.revert.committed":
		return t.onV2Revert(dst, e)
	case "session.input.admitted", "session.prompt.admitted", "session.input.promoted", "session.prompt.promoted",
		"session.inbox.enqueued", "session.inbox.delivered", "session.inbox.cancelled",
		"session.step.started", "session.step.ended", "session.step.failed",
		"session.text.started", "session.text.delta", "session.text.ended",
		"session.reasoning.started", "session.reasoning.delta", "session.reasoning.ended",
		"session.tool.input.started", "session.tool.input.delta", "session.tool.input.ended",
		"session.tool.called", "session.tool.progress", "session.tool.success", "session.tool.failed":
		return t.onV2(dst, e)
	case "message.updated":
		info := p.Sub("info")
		f := readInfo(info)
		if !info.IsObject() || f.id.Str() == "" {
			return t.unparsed(dst, e, errors.New("message.updated without info.id"))
		}
		return t.onMessage(dst, &f, e.raw, true)
	case "message.part.updated":
		var part, delta jsonscan.Value
		p.Members(func(k string, v jsonscan.Value) bool {
			switch k {
			case "part":
				jsonscan.KeepFirst(&part, v)
			case "delta":
				jsonscan.KeepFirst(&delta, v)
			}
			return true
		})
		f := readPart(part)
		if !part.IsObject() || f.id.Str() == "" || f.msg.Str() == "" {
			return t.unparsed(dst, e, errors.New("message.part.updated without part.id and part.messageID"))
		}
		return t.onPart(dst, &f, delta.Str(), e)
	case "message.part.delta":
		return t.onDelta(dst, e)
	case "message.removed":
		return t.onMessageRemoved(dst, e)
	case "message.part.removed":
		return t.onPartRemoved(dst, e)
	case "permission.updated", "permission.asked", "permission.v2.asked":
		return t.onPermission(dst, e)
	case "permission.replied", "permission.v2.replied":
		return t.onPermissionReplied(dst, e)
	case "question.asked", "question.v2.asked":
		return t.onQuestion(dst, e)
	case "question.replied", "question.rejected", "question.v2.replied", "question.v2.rejected":
		return t.onQuestionResolved(dst, e)
	case "session.compaction.ended", "session.compaction.failed":
		return t.onCompaction(dst, e)
	case "session.shell.started", "session.shell.ended":
		return t.onShell(dst, e)
	case "form.created", "form.replied", "form.cancelled":
		return t.onForm(dst, e)
	case "todo.updated":
		return t.onTodo(dst, e)
	}
	if isIgnored(e.typ) {
		return dst
	}
	return t.unparsed(dst, e, fmt.Errorf("unknown event type %q", e.typ))
}
