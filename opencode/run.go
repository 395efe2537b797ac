package opencode

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// translateRun handles one line of opencode run --format json:
//
//	{"type":"step_start"|"text"|"reasoning"|"tool_use"|"step_finish","timestamp","sessionID","part":{…}}
//	{"type":"error","timestamp","sessionID","error":{name,data}}
//	{"type":"done",…}
//
// Parts are the same objects as in message.part.updated, printed once
// when complete; lines of one step can come out of order (a text part
// ends after the tool that follows it), so a step's message stays open
// until its turn ends. A turn ends when a step finishes for a reason other
// than tool-calls and the next step starts (or the input ends), when a step
// starts while the one before never finished (the output of one run ended,
// another follows), on done, and after an error.
func (t *Translator) translateRun(dst []universal.Event, m universal.Message) []universal.Event {
	e := event{raw: m.Data, line: m.Line, index: -1}
	r := t.scan.Root()
	e.props = r
	var typ, sv, part, errv jsonscan.Value
	r.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type":
			jsonscan.KeepFirst(&typ, v)
		case "sessionID":
			jsonscan.KeepFirst(&sv, v)
		case "part":
			jsonscan.KeepFirst(&part, v)
		case "error":
			jsonscan.KeepFirst(&errv, v)
		}
		return true
	})
	e.typ = typ.Str()
	if !r.IsObject() || e.typ == "" {
		return t.w.Unparsed(dst, e.loc(), errors.New("run line without a type"), m.Data)
	}
	sid := sv.Str()
	switch e.typ {
	case "step_start", "text", "reasoning", "tool_use", "step_finish", "error", "done":
	default:
		return t.unparsed(dst, &e, fmt.Errorf("unknown run line type %q", e.typ))
	}
	rt := t.route(sid, true)
	if rt == routeSkip && sid != "" && !t.st.Named && !t.st.Runs[sid] {
		// opencode run prints only its own session's lines: one of a
		// session not seen yet is the next run's output, joined to the
		// file after the last run's (a log that several runs appended
		// to).
		dst = t.nextRun(dst, sid)
		rt = routeRoot
	}
	if rt != routeRoot {
		// A line of a run whose output ended (runs interleaved) or of a
		// sub-agent's session: it cannot be placed in the run followed,
		// and is reported, not dropped.
		if sid == "" {
			return t.unparsed(dst, &e, errors.New("run line without sessionID"))
		}
		return t.unparsed(dst, &e, fmt.Errorf("run line of another session (%s)", sid))
	}
	switch e.typ {
	case "error":
		// The run reports its turn failed: the turn ends in error.
		dst = t.runTurn(dst)
		dst = t.emitError(dst, errv, "", m.Data)
		t.st.Turn.Failed = true
		return t.endTurn(dst, universal.SourceAgent, m.Data)
	case "done":
		return t.endTurn(dst, universal.SourceAgent, m.Data)
	}
	f := readPart(part)
	if !part.IsObject() || f.id.Str() == "" || f.msg.Str() == "" {
		return t.unparsed(dst, &e, errors.New("run line without part.id and part.messageID"))
	}
	if e.typ == "step_start" && t.st.Turn.StepOpen {
		// One process prints a step's finish before the next step
		// starts; a step that never finished means the run that printed
		// it is over (1.15 prints no line for its last step's finish)
		// and this step is the next run's. A run's process exits only
		// once its session is idle, and the next run starts after it:
		// the turn before ended completed, as with an exit status 0.
		dst = t.endTurnWith(dst, universal.TurnCompleted, universal.SourceDaemon, nil)
	}
	dst = t.runTurn(dst)
	dst = t.onPart(dst, &f, "", &e)
	if e.typ == "step_finish" {
		// A step that finished for a reason other than tool calls (or
		// "unknown") ends the run's turn, and so does one whose tool
		// call was refused a permission (opencode run stops there).
		// Without a reason (builds before it) the output does not say.
		reason := f.reason.Str()
		if reason != "" && !loops(reason) || loops(reason) && t.st.Turn.Denied {
			dst = t.endTurn(dst, universal.SourceAgent, m.Data)
		}
	}
	return dst
}

// loops reports whether a step's finish reason lets OpenCode's prompt loop
// go on to the next step: tool-calls, and unknown (the provider gave no
// reason, as Ollama's OpenAI-compatible stream may), which OpenCode's
// loop treats alike (it exits only on a finish outside the two).
func loops(finish string) bool {
	return finish == "tool-calls" || finish == "unknown"
}

// nextRun follows sid, whose run's output comes after the followed
// session's in one input: the turn the last run left open ends (completed
// when its last step printed no finish, as a run of OpenCode 1.15 leaves
// its last step; interrupted when a step had finished with tool calls, so
// that the run was cut before its answer), and the events that follow
// carry sid as their native session, as a later init does in Claude Code
// and Amp output.
func (t *Translator) nextRun(dst []universal.Event, sid string) []universal.Event {
	if t.st.Turn.Open {
		status := universal.TurnInterrupted
		if t.st.Turn.StepOpen {
			status = universal.TurnCompleted
		}
		dst = t.endTurnWith(dst, status, universal.SourceDaemon, nil)
	}
	put(&t.st.Runs, t.st.Session, true)
	t.st.Session = t.w.Copy(sid)
	t.w.SetNativeSessionID(t.st.Session)
	return dst
}

// runTurn starts a turn when none is open, with the next reported prompt
// as its user message.
func (t *Translator) runTurn(dst []universal.Event) []universal.Event {
	if t.st.Turn.Open {
		return dst
	}
	dst = t.startTurn(dst, universal.SourceDaemon, nil)
	return t.runPrompt(dst)
}

// runPrompt emits the next reported prompt as the turn's user message
// (run output does not echo it).
func (t *Translator) runPrompt(dst []universal.Event) []universal.Event {
	if len(t.st.Prompts) == 0 || t.st.Turn.Prompted {
		return dst
	}
	text := t.st.Prompts[0]
	t.st.Prompts = t.st.Prompts[1:]
	t.st.Turn.Prompted = true
	return t.w.Complete(dst, universal.Item{
		ItemID:  t.w.NewItemID(),
		Kind:    universal.KindMessage,
		Role:    universal.RoleUser,
		Content: []universal.Part{universal.Text(t.w.Copy(text))},
	}, universal.SourceDaemon, nil)
}

// isClean reports whether universal.CleanInput leaves b as it is.
func isClean(b []byte) bool { return same(universal.CleanInput(b), b) }

// same reports whether a and b are the same bytes in memory.
func same(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// translateMessages replays a message list: a JSON array of {info, parts}
// (or one such object), or an opencode export document ({info, messages},
// translateExport). Each user message starts a turn (ending the one
// before); a message's parts are handled before its completion.
func (t *Translator) translateMessages(dst []universal.Event, m universal.Message) []universal.Event {
	sv, ok := document(&t.scan, m)
	// The input is read as universal.CleanInput returns it. The scan of
	// the document tells whether cleaning may change it, and the text
	// around it (a banner, a newline) is checked on its own: the document
	// starts and ends with a bracket, so no escape or UTF-8 sequence
	// spans the seams. Only when some of it would change is the input
	// cleaned whole, and the document found again.
	if !ok || !isClean(sv.pre) || !isClean(sv.post) || t.scan.SurrogateEscapes() || t.scan.NonASCII() && !utf8.Valid(sv.doc) {
		if c := universal.CleanInput(m.Data); !same(c, m.Data) {
			m.Data = c
			sv, ok = document(&t.scan, m)
		}
	}
	if !ok {
		return t.w.Unparsed(dst, lineLoc(m.Line, -1), errNotJSON, m.Data)
	}
	doc := sv.doc
	r := t.scan.Root()
	if info, msgs, ok := v2Document(r); ok {
		return t.translateV2Messages(dst, info, msgs, sv)
	}
	if r.IsObject() && r.Get("messages").Exists() {
		return t.translateExport(dst, r, sv)
	}
	dst = t.around(dst, sv)
	switch {
	case r.IsObject() && r.Get("info").Exists():
		dst = t.replayMessage(dst, r, m.Line, 0, "")
		return t.settleRecord(dst, doc)
	case r.IsArray():
		i := 0
		var last []byte
		r.Each(func(_ gjson.Result, x jsonscan.Value) bool {
			dst = t.replayMessage(dst, x, m.Line, i, "")
			last = bytesOf(x.Raw())
			i++
			return true
		})
		return t.settleRecord(dst, last)
	}
	return t.w.Unparsed(dst, lineLoc(m.Line, -1), errors.New("not a message list ([{info, parts}]) or an export ({info, messages})"), m.Data)
}

// replayMessage replays one {info, parts} entry of a message list or an
// export. Ids the entry implies are filled in where a hand-written record
// leaves them out: a part's messageID (the entry's message) and sessionID
// (the message's), a part's own id (message id#index), and in an export
// (sid, the exported session) the message's sessionID.
func (t *Translator) replayMessage(dst []universal.Event, x jsonscan.Value, line int64, index int, sid string) []universal.Event {
	return t.replayRecord(dst, x, nil, line, index, sid)
}

// replayRecord is replayMessage for a record built from another native
// message (a 2.x one), raw: the events' raw payload is raw.
func (t *Translator) replayRecord(dst []universal.Event, x jsonscan.Value, raw []byte, line int64, index int, sid string) []universal.Event {
	if raw == nil {
		raw = bytesOf(x.Raw())
	}
	e := event{typ: "message", props: x, raw: raw, line: line, index: index}
	var info, parts jsonscan.Value
	x.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "info":
			jsonscan.KeepFirst(&info, v)
		case "parts":
			jsonscan.KeepFirst(&parts, v)
		}
		return true
	})
	f := readInfo(info)
	id := f.id.Str()
	if !info.IsObject() || id == "" {
		return t.unparsed(dst, &e, errors.New("message without info.id"))
	}
	if sid != "" && !f.session.Exists() {
		f = readInfo(withFields(info, "sessionID", sid))
	}
	msid := f.session.Str()
	if msid == "" {
		return t.unparsed(dst, &e, errors.New("message without info.sessionID"))
	}
	rt := t.route(msid, true)
	if rt == routeSkip {
		return dst
	}
	r := f.role.Str()
	if r == "user" && rt == routeRoot && !(t.st.Turn.Open && (t.st.Turn.Answered && notPrompt(parts) || autoCompaction(parts))) {
		// A user message all of whose parts OpenCode wrote (synthetic:
		// the "Summarize the task tool output above and continue" after
		// a subtask command's task call; the compaction it starts on
		// its own when the context overflows, auto: true) or only shows
		// (ignored: a plugin's notice, which the model never sees)
		// continues the turn; any other starts one.
		turn := &t.st.Turn
		switch {
		case turn.Open && turn.Answered && !t.listFinished() && queued(&f, turn.BusyUntil):
			// Written while the agent's last step still ran (created
			// before that step completed, with tool calls): OpenCode's
			// prompt loop took the queued message into the turn it was
			// running, and answered it there, as a message sent to a
			// running session's events joins its turn.
		case turn.Open && turn.Answered && !t.listFinished():
			// The agent was answering and never finished (a step that
			// never completed, or one that completed empty): the user
			// wrote again, as after an interruption ("retry").
			dst = t.endTurnWith(dst, universal.TurnInterrupted, universal.SourceDaemon, nil)
			dst = t.startTurn(dst, universal.SourceDaemon, nil)
		default:
			dst = t.endTurn(dst, universal.SourceDaemon, nil)
			dst = t.startTurn(dst, universal.SourceDaemon, nil)
		}
	}
	dst = t.onMessage(dst, &f, e.raw, false)
	k := 0
	parts.Each(func(_ gjson.Result, part jsonscan.Value) bool {
		pe := event{typ: "part", props: part, raw: bytesOf(part.Raw()), line: line, index: index}
		if x.Raw() != string(raw) {
			pe.raw = raw // a record built from raw
		}
		pf := readPart(part)
		if part.IsObject() && (!pf.id.Exists() || !pf.msg.Exists() || !pf.session.Exists()) {
			pf = readPart(withFields(part, "id", id+"#"+strconv.Itoa(k), "messageID", id, "sessionID", msid))
		}
		k++
		if pf.id.Str() == "" || pf.msg.Str() == "" {
			dst = t.unparsed(dst, &pe, errors.New("part without id and messageID"))
			return true
		}
		dst = t.onPart(dst, &pf, "", &pe)
		return true
	})
	msg := t.st.Msgs[id]
	if msg == nil {
		return dst
	}
	if r == "user" {
		return t.completeMessage(dst, id, msg, universal.StatusCompleted, universal.SourceAgent, e.raw)
	}
	if f.completed() {
		return t.completeInfo(dst, id, msg, &f, rt, e.raw)
	}
	return dst
}

// queued reports whether a user message (f) was created before busy,
// the completion time of the turn's last assistant step: sent while that
// step ran. Without both times it was not.
func queued(f *infoFields, busy int64) bool {
	created := f.stamp("created")
	return created > 0 && busy > 0 && created < busy
}

// notPrompt reports whether a message's parts are all text the user did
// not give the model: synthetic (OpenCode's own) or ignored (shown, never
// sent to the model, as a plugin's notice: DCP's "▣ DCP | -73.2K removed"
// after its compress tool), and there is one at least.
func notPrompt(parts jsonscan.Value) bool {
	n, all := 0, true
	parts.Each(func(_ gjson.Result, p jsonscan.Value) bool {
		n++
		all = p.Get("type").Str == "text" && (p.Get("synthetic").Type == gjson.True || p.Get("ignored").Type == gjson.True)
		return all
	})
	return n > 0 && all
}

// autoCompaction reports whether a message is the compaction OpenCode
// starts on its own when the context overflows: a compaction part with
// auto true, alone. Its summary and the synthetic "Continue if you have
// next steps" that follow it go on with the turn.
func autoCompaction(parts jsonscan.Value) bool {
	n, auto := 0, true
	parts.Each(func(_ gjson.Result, p jsonscan.Value) bool {
		n++
		auto = p.Get("type").Str == "compaction" && p.Get("auto").Type == gjson.True
		return auto
	})
	return n == 1 && auto
}

// withFields returns the JSON object obj with the members of kv (key,
// value pairs) it lacks added in front; empty values are not added. A
// record lacks them only when written by hand: the object made then is
// read with gjson.
func withFields(obj jsonscan.Value, kv ...string) jsonscan.Value {
	var o jsonw.Object
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" && !obj.Get(kv[i]).Exists() {
			o.String(kv[i], kv[i+1])
		}
	}
	raw := strings.TrimSpace(obj.Raw())
	if o.Len() == 0 || !strings.HasPrefix(raw, "{") {
		return obj
	}
	b := o.Bytes()
	b = b[:len(b)-1] // without its closing brace
	if rest := strings.TrimSpace(raw[1:]); rest != "}" {
		b = append(b, ',')
	}
	b = append(b, raw[1:]...)
	return jsonscan.Wrap(gjson.Parse(string(b)))
}

// settleRecord ends the last turn of a message list when the list shows
// the agent finished it: its last assistant message completed with a
// finish reason other than tool-calls, or failed, or was aborted, or a
// permission its tool asked for was refused (OpenCode stops there). A
// turn the list shows unfinished stays open (the session ends during it).
// raw is the last message of the list.
func (t *Translator) settleRecord(dst []universal.Event, raw []byte) []universal.Event {
	if !t.st.Turn.Open || !t.listFinished() {
		return dst
	}
	return t.endTurn(dst, universal.SourceAgent, raw)
}

// settleDurable ends the open turn of a durable event log (state.Durable)
// that the agent finished, as settleRecord ends a message list's: the log
// has no status events, so the turn ends when a prompt follows or the
// input ends. The end's raw payload is the event that showed the agent
// finished (turnState.Settled).
func (t *Translator) settleDurable(dst []universal.Event) []universal.Event {
	if !t.st.Durable || !t.st.Turn.Open || !t.listFinished() {
		return dst
	}
	if t.st.Turn.Settled == nil {
		return t.endTurn(dst, universal.SourceDaemon, nil)
	}
	return t.endTurn(dst, universal.SourceAgent, t.st.Turn.Settled)
}

// listFinished reports whether a message list shows the agent finished
// the open turn (see settleRecord).
func (t *Translator) listFinished() bool {
	turn := &t.st.Turn
	return turn.Finished || turn.Failed || turn.Aborted || turn.Denied
}
