package acp

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The format names New accepts.
const (
	// FormatExchange is a recorded (or live) two-way ACP connection: the
	// host's JSON-RPC messages ("in") and the agent's ("out"), in order,
	// in the exchange framing.
	FormatExchange = "exchange"
	// FormatAgent is the agent's side alone: its stdout, one JSON-RPC
	// message a line (or both sides without directions, told apart by
	// the methods: see the package documentation).
	FormatAgent = "agent"
)

// Formats returns the formats the translator reads, a new slice each call
// (a table no caller can change for another).
func Formats() []universal.Format {
	return []universal.Format{
		{Name: FormatExchange, Framing: universal.FrameExchange, Doc: "recorded two-way ACP (JSON-RPC over stdio) exchange, both directions"},
		{Name: FormatAgent, Framing: universal.FrameLines, Doc: "the ACP agent's stdout alone (one JSON-RPC message a line)"},
	}
}

// agentName is the agent's name in locations and metadata.
const agentName = "acp"

const (
	agent  = universal.SourceAgent
	daemon = universal.SourceDaemon
)

// maxBatch bounds the messages of one JSON-RPC batch.
const maxBatch = 1024

// Translator translates one ACP session. Build it with New; it implements
// universal.Translator. It is not safe for concurrent use.
type Translator struct {
	format string
	w      *universal.Stream
	st     state
	buf    []byte
	scan   jsonscan.Scanner // the index of the message being translated
	// main is st.Scopes[""], the session's own scope, once looked up:
	// every chunk of the session's response (the hot path) needs it, and
	// a map lookup was a tenth of a chunk's own work. Nil when not known
	// (st.Scopes dropped or restored).
	main *scope
	// delta marks where the text of the last chunk of the session's
	// response started in its line: the next chunk is alike up to there,
	// and its line is scanned from there on.
	delta jsonscan.Mark
	// sub is the call the update being translated goes under because it
	// comes from a sub-agent's session (see subCall); nil otherwise.
	sub *tool
	// subKey is the key of that sub-agent session's scope.
	subKey string
}

// New returns a translator for one session in the named format (one of
// the names in Formats).
func New(format string, o universal.Options) (*Translator, error) {
	switch format {
	case FormatExchange, FormatAgent:
	default:
		return nil, fmt.Errorf("acp: %w: %q", universal.ErrUnknownFormat, format)
	}
	t := &Translator{format: format, w: universal.NewStream(agentName, o)}
	// Every raw JSON value the translator writes is compacted, copied
	// from a clean message or built by a JSON writer.
	t.w.PromiseCleanJSON()
	return t, nil
}

// Format returns the format the translator reads.
func (t *Translator) Format() string { return t.format }

var (
	errNotJSON     = errors.New("not a JSON-RPC message (not JSON)")
	errNotRPC      = errors.New("not a JSON-RPC message")
	errUnknown     = errors.New("unknown ACP method")
	errUnstable    = errors.New("unstable ACP message whose meaning is not settled")
	errNoRequest   = errors.New("response to a request never seen")
	errBadParams   = errors.New("malformed params")
	errUnknownKind = errors.New("unknown session update")
)

// input is one JSON-RPC message being translated.
type input struct {
	raw  []byte
	obj  jsonscan.Value
	line int64
	dir  universal.Direction
	// The members of obj the translation reads (absent when obj has
	// none), found in one walk over them (read).
	method, id, params, result, err jsonscan.Value
}

// read finds the members of in.obj the translation reads, in one walk; of
// duplicate members the first counts, as in a lookup.
func (in *input) read() {
	in.obj.Members(func(k string, v jsonscan.Value) bool {
		var p *jsonscan.Value
		switch k {
		case "method":
			p = &in.method
		case "id":
			p = &in.id
		case "params":
			p = &in.params
		case "result":
			p = &in.result
		case "error":
			p = &in.err
		default:
			return true
		}
		jsonscan.KeepFirst(p, v)
		return true
	})
}

func (in *input) where() string {
	if in.dir == universal.In {
		return "host, line " + strconv.FormatInt(in.line, 10)
	}
	return "line " + strconv.FormatInt(in.line, 10)
}

// Translate implements universal.Translator: it translates one native
// message (a line, or an exchange record).
func (t *Translator) Translate(dst []universal.Event, m universal.Message) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst
	}
	if m.Err != nil {
		return t.w.Unparsed(dst, "line "+strconv.FormatInt(m.Line, 10), m.Err, m.Data)
	}
	if m.Stderr {
		return t.keepStderr(dst, m)
	}
	data := bytes.TrimSpace(m.Data)
	if len(data) == 0 {
		return dst
	}
	// One pass validates the message (as universal.CleanInput returns it)
	// and indexes it: every lookup below walks the index instead of
	// scanning the message, which may hold megabytes (a skill's files in
	// _meta, a tool's output).
	data, ok := t.scan.ScanCleanFrom(data, &t.delta)
	in := input{raw: data, line: m.Line, dir: m.Dir}
	if !ok {
		return t.w.Unparsed(dst, in.where(), errNotJSON, data)
	}
	r := t.scan.Root()
	if r.IsArray() {
		// A JSON-RPC batch.
		n := 0
		r.Each(func(_ gjson.Result, v jsonscan.Value) bool {
			n++
			if n > maxBatch {
				return false
			}
			el := in
			el.obj = v
			el.read()
			dst = t.message(dst, &el)
			return true
		})
		return dst
	}
	in.obj = r
	in.read()
	switch {
	case t.format == FormatExchange:
		in.dir = t.orient(in.dir, &in)
	case in.dir == universal.Out:
		in.dir = t.sideOf(&in)
	}
	return t.message(dst, &in)
}

// hostMethods are the methods the host (client) calls on the agent: the
// schema's agentMethods (schema/v1/meta.json and meta.unstable.json, but
// mcp/message, which either side sends), and session/set_model of the
// unstable schema before them.
var hostMethods = map[string]bool{
	mInitialize: true, mAuthenticate: true, mLogout: true, mNew: true, mLoad: true, mResume: true,
	mFork: true, mList: true, mDelete: true, mClose: true, mSetMode: true, mSetModel: true,
	mSetConfig: true, mPrompt: true, mCancel: true,
	"providers/list": true, "providers/set": true, "providers/disable": true,
	// SDK 2.4.0's schemas (v1 unstable, v2).
	"auth/status": true, "auth/login": true, "auth/logout": true, "session/archive": true,
	"session/unarchive": true, "session/status": true, mSetTitle: true,
	"tool_call/cancel": true, "terminal/cancel": true, mProxyInit: true,
	"nes/start": true, "nes/suggest": true, "nes/accept": true, "nes/reject": true, "nes/close": true,
	"document/didOpen": true, "document/didChange": true, "document/didClose": true,
	"document/didSave": true, "document/didFocus": true,
	// Qwen Code's host requests (qwen.go).
	mQwenCancelPrompt: true, mQwenGuardRelease: true,
}

// sideOf returns the direction of a message in the agent format. A log of
// the connection's two sides without directions (a host's transcript, one
// message a line, as clients' probes write it) is read in this format too:
// a request or notification of a method the host calls on the agent
// (hostMethods) is the host's; from the first one on, the log holds both
// sides, and a response answers the pending request of the other side with
// its id (the agent's request when only it waits: the host's answer). Both
// sides number their requests from 0 and the host's session/prompt waits
// for the whole turn, so the agent's requests often share its id: when both
// wait, a result of the shape the host's request is answered with (a
// stopReason for session/prompt, a sessionId for session/new …) is the
// agent's answer, and anything else (file content, a permission outcome,
// an empty result, an error) the host's answer to the agent's request,
// which comes first as it is nested in the turn. Before the first host
// message every message is the agent's, as the format says.
func (t *Translator) sideOf(in *input) universal.Direction {
	if in.method.Type() == gjson.String {
		if hostMethods[in.method.Str()] {
			t.st.BothSides = true
			return universal.In
		}
		return universal.Out
	}
	if !t.st.BothSides {
		return universal.Out
	}
	id := in.id.Raw()
	host, hostWaits := t.st.Requests[key(universal.In, id)]
	_, agentWaits := t.st.Requests[key(universal.Out, id)]
	if agentWaits && (!hostWaits || !answers(host.Method, in.result)) {
		return universal.In
	}
	return universal.Out
}

// answers reports whether a result has the shape of the agent's answer to
// the host's request of the method: the member the schema requires of it.
func answers(method string, result jsonscan.Value) bool {
	var k string
	switch method {
	case mInitialize:
		k = "protocolVersion"
	case mNew, mFork, mResume:
		k = "sessionId"
	case mPrompt:
		k = "stopReason"
	case mList:
		k = "sessions"
	default:
		return false
	}
	return result.IsObject() && result.Get(k).Exists()
}

// orient returns the direction of an exchange record's message as the
// translator reads it (Out: the agent wrote it). A recorder on the host's
// side may write "out" for what the host sent (Kiro CLI's
// KIRO_ACP_RECORD_PATH does): the first message whose method only one
// side sends (initialize, session/new, load or prompt from the host;
// session/update or request_permission from the agent) tells which
// convention the exchange follows, and the directions of every message
// from then on are read by it.
func (t *Translator) orient(dir universal.Direction, in *input) universal.Direction {
	if !t.st.Oriented {
		from, tells := universal.Out, true
		var method string
		if in.method.Type() == gjson.String {
			method = in.method.Str()
		}
		switch method {
		case mInitialize, mNew, mLoad, mPrompt:
			from = universal.In
		case mUpdate, mRequestPermission:
		default:
			tells = false
		}
		if tells {
			t.st.Oriented = true
			t.st.HostOut = from != dir
		}
	}
	if t.st.HostOut {
		return other(dir)
	}
	return dir
}

// message translates one JSON-RPC message.
func (t *Translator) message(dst []universal.Event, in *input) []universal.Event {
	if !in.obj.IsObject() {
		return t.w.Unparsed(dst, in.where(), errNotRPC, in.raw)
	}
	if dst, ok := t.replayFrame(dst, in); ok {
		return dst // a replay transcript's normalised message
	}
	method, id := in.method, in.id
	isString := method.Type() == gjson.String
	hasID := false
	if id.Exists() { // a notification has none: no Result built for it
		idType := id.Type()
		hasID = idType == gjson.String || idType == gjson.Number
	}
	switch {
	case isString && hasID:
		return t.request(dst, in, method.Str(), id.Raw())
	case isString:
		return t.notification(dst, in, method.Str())
	case id.Exists() && (in.result.Exists() || in.err.Exists()):
		return t.response(dst, in, id.Raw())
	}
	return t.w.Unparsed(dst, in.where(), errNotRPC, in.raw)
}

// key names a request by the direction it came from and its id.
func key(dir universal.Direction, id string) string {
	return dir.String() + ":" + id
}

func other(dir universal.Direction) universal.Direction {
	if dir == universal.In {
		return universal.Out
	}
	return universal.In
}

// maxRequests is the most requests waiting for their response that a
// translator remembers.
const maxRequests = 4096

func (t *Translator) remember(dir universal.Direction, id string, r request) {
	if t.st.Requests == nil {
		t.st.Requests = map[string]request{}
	}
	if len(t.st.Requests) > maxRequests {
		// A peer that never answers: forget the oldest half rather than
		// grow without bound. Which are the oldest is told by their
		// numbers, not the map's order, so that the same input gives the
		// same events (a response to a forgotten request is unparsed).
		ns := make([]int64, 0, len(t.st.Requests))
		for _, q := range t.st.Requests {
			ns = append(ns, q.N)
		}
		slices.Sort(ns)
		keep := ns[len(ns)/2]
		for k, q := range t.st.Requests {
			if q.N < keep {
				delete(t.st.Requests, k)
			}
		}
	}
	t.st.Remembered++
	r.N = t.st.Remembered
	t.st.Requests[key(dir, t.copy(id))] = r
}

// copy copies a string read from native input into the stream's stable
// memory, with invalid UTF-8 replaced by U+FFFD.
func (t *Translator) copy(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return t.w.Copy(s)
}

// copyJSON returns raw JSON in compact form, in stable memory.
func (t *Translator) copyJSON(raw string) string {
	if raw == "" {
		return ""
	}
	t.buf = jsonw.AppendRaw(t.buf[:0], raw)
	return t.w.Stamper().CopyBytes(t.buf)
}

// rawObject returns the object {k: v} for a value of the message.
func (t *Translator) rawObject(k string, v jsonscan.Value) []byte {
	var o jsonw.Object
	return v.AddTo(&o, k).Bytes()
}

// Report implements universal.Translator.
func (t *Translator) Report(dst []universal.Event, r universal.Report) []universal.Event {
	t.w.Recycle()
	if t.w.Ended() {
		return dst
	}
	switch r := r.(type) {
	case universal.Prompt:
		t.st.Prompts = append(t.st.Prompts, t.copy(r.Text))
		return dst
	case universal.PermissionReply:
		if !t.w.PermissionPending(r.PermissionID) {
			return dst
		}
		dst = t.begin(dst)
		status := universal.PermissionDenied
		if r.Approved {
			status = universal.PermissionApproved
		}
		var md jsonw.Object
		md.OptString("decision", r.Decision).OptString("message", r.Message)
		p := universal.Permission{PermissionID: r.PermissionID, Status: status, Metadata: md.Bytes()}
		for k, q := range t.st.Requests {
			if q.ID == r.PermissionID && q.Method == mRequestPermission {
				p.CallID, p.Action = q.Call, q.Action
				if tl := t.st.Tools[q.Call]; tl != nil {
					p.ItemID, p.CallID = tl.Call, tl.link()
				}
				delete(t.st.Requests, k)
				break
			}
		}
		return t.w.ResolvePermission(dst, p, daemon, nil)
	case universal.QuestionReply:
		if !t.w.QuestionPending(r.QuestionID) {
			return dst
		}
		dst = t.begin(dst)
		q := universal.Question{QuestionID: r.QuestionID, Response: r.Response, Status: universal.QuestionAnswered}
		if r.Rejected {
			q.Status = universal.QuestionRejected
		}
		for k, x := range t.st.Requests {
			if x.ID == r.QuestionID && (x.Method == mElicit || x.Method == mCursorAsk || x.Method == mCursorPlan) {
				q.Prompt = x.Action
				delete(t.st.Requests, k)
				break
			}
		}
		return t.w.ResolveQuestion(dst, q, daemon, nil)
	case universal.Terminate:
		dst = t.finish(dst)
		t.scan.Release()
		return t.w.End(dst, t.st.Stderr.Ended(r.Ended()), daemon, nil)
	case universal.Exit:
		dst = t.endUnprompted(dst)
		dst = t.finish(dst)
		t.scan.Release()
		return t.w.End(dst, universal.ExitEnded(t.ended(), r), daemon, nil)
	case universal.EndOfInput:
		dst = t.endUnprompted(dst)
		dst = t.finish(dst)
		t.scan.Release()
		return t.w.End(dst, t.ended(), daemon, nil)
	}
	return dst
}

// ended is how the session ends at the end of its input.
func (t *Translator) ended() universal.SessionEnded {
	d := universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}
	if t.st.Failed {
		d.Reason = universal.EndError
	}
	return t.st.Stderr.Ended(d)
}

// endUnprompted ends, completed, the live turn the translator opened for
// updates the agent sent with no prompt of the host waiting for its
// response (after the last prompt's response: OpenCode 1.2's text and
// tool results after end_turn, claude-agent-acp's background tasks; or
// the agent's own work), when the input or the agent's process ends:
// nothing ends such a turn but the agent's own word, and the session did
// not end during a turn the host asked for. Only where the host's
// requests are seen: on the agent's side alone, a prompt that opened a
// turn is not seen, and the input may have ended in the middle of it.
// Nor while the agent waits for the user's word (a question or a
// permission it asked that no answer settled): the input ended in the
// middle of the turn.
func (t *Translator) endUnprompted(dst []universal.Event) []universal.Event {
	if !t.st.Turn.Open || t.st.Turn.Replay || t.st.Turn.Prompted || t.format != FormatExchange && !t.st.BothSides || t.promptWaits() || t.userAsked() {
		return dst
	}
	return t.endTurn(dst, universal.TurnCompleted, nil, daemon, nil)
}

// userAsked reports whether a question or a permission the agent asked
// waits for its answer.
func (t *Translator) userAsked() bool {
	for _, r := range t.st.Requests {
		switch r.Method {
		case mRequestPermission:
			if r.ID != "" && t.w.PermissionPending(r.ID) {
				return true
			}
		case mElicit, mCursorAsk, mCursorPlan:
			if r.ID != "" && t.w.QuestionPending(r.ID) {
				return true
			}
		}
	}
	return false
}

// finish flushes what waits for the end of input: the session start, and
// the messages of an open turn, which are complete as far as they go.
// The turn itself stays open (a prompt never answered, or a load whose
// response never came): Stream.End ends it, the session ending.
func (t *Translator) finish(dst []universal.Event) []universal.Event {
	dst = t.begin(dst)
	if t.st.Turn.Open {
		dst = t.closeUser(dst, nil)
		dst = t.closeMessages(dst, nil)
		dst = t.closeCalls(dst, nil)
	}
	dst = t.closeCompactions(dst, true, nil)
	for _, p := range t.st.Prompts {
		dst = t.syntheticPrompt(dst, p)
	}
	t.st.Prompts = nil
	return dst
}

// Checkpoint implements universal.Translator.
func (t *Translator) Checkpoint() ([]byte, error) {
	return universal.SaveCheckpoint(t.format, t.w, &t.st)
}

// Restore implements universal.Translator. The state is checked against
// the restored stream (every item it refers to exists and is of its
// kind, the message it streams into has the parts it remembers); a
// checkpoint that fails is refused with an error wrapping
// universal.ErrCheckpoint, and the translator is left unchanged.
func (t *Translator) Restore(b []byte) error {
	var s state
	if err := universal.LoadCheckedCheckpoint(b, t.format, t.w, &s, func() error { return s.validate(t.w) }); err != nil {
		return err
	}
	// The metadata is added to session.started as it is: compact, as
	// meta keeps it, whatever the checkpoint has.
	for i, f := range s.Meta {
		s.Meta[i].V = string(jsonw.AppendRaw(nil, f.V))
	}
	t.st, t.main = s, nil
	return nil
}
