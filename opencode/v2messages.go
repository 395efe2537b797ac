package opencode

import (
	"errors"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// OpenCode 2.x saved messages. 2.x has no parts: a message is one object
// discriminated by type (user, assistant, synthetic, system, skill,
// shell, agent-switched, model-switched, location-switched, compaction),
// an assistant message holding its content ({type: text | reasoning |
// tool}), as GET /api/session/{id}/message ({data: [Message…], cursor})
// and GET /api/session/{id}/export ({data: {info, messages}}) return them
// (the SessionMessage types of the SDK generated from OpenCode's server,
// anomalyco/opencode packages/sdk/js/src/v2/gen/types.gen.ts, and a
// public project's notes of a live 2.x beta). Each is read as the 1.x
// record it stands for ({info, parts}, replayMessage), or the 2.x event
// its kind's live event is (a shell command, a compaction, text given to
// the model), as the 2.x events are (v2.go).

// isV2Message reports whether a saved message is 2.x's: an object with a
// type and no info.
func isV2Message(x jsonscan.Value) bool {
	return x.IsObject() && x.Get("type").Type == gjson.String && !x.Get("info").Exists()
}

// v2Document finds a 2.x saved document: its session info (absent in a
// message list) and its messages; ok is false for any other document.
func v2Document(r jsonscan.Value) (info, msgs jsonscan.Value, ok bool) {
	if r.IsObject() && !r.Get("info").Exists() && !r.Get("messages").Exists() {
		if d := r.Sub("data"); d.IsArray() || d.IsObject() {
			r = d // the 2.x API's envelope
		}
	}
	switch {
	case r.IsArray():
		msgs = r
	case r.IsObject() && r.Sub("messages").IsArray():
		info, msgs = r.Sub("info"), r.Sub("messages")
	default:
		return info, msgs, false
	}
	return info, msgs, isV2Message(first(msgs))
}

// first returns the first element of an array.
func first(list jsonscan.Value) jsonscan.Value {
	var v jsonscan.Value
	list.Each(func(_ gjson.Result, x jsonscan.Value) bool {
		v = x
		return false
	})
	return v
}

// translateV2Messages replays a 2.x saved document: the export's session
// info is the session.started metadata (its location's directory the
// working directory), as a 1.x export's is; a message list names no
// session, so its messages are the followed session's (or their own
// sessionID's, which some versions give a synthetic message).
func (t *Translator) translateV2Messages(dst []universal.Event, info, msgs jsonscan.Value, sv saved) []universal.Event {
	e := event{typ: "export", props: info, raw: sv.doc, line: sv.line, index: -1}
	sid := ""
	if info.Exists() {
		sid = info.Get("id").Str
		if !info.IsObject() || sid == "" {
			dst = t.unparsed(dst, &e, errors.New("export without info.id"))
		} else {
			if t.st.Session == "" {
				t.follow(sid)
			}
			dir := info.Get("location.directory").Str
			if sid == t.st.Session && !t.w.Begun() {
				dst = t.w.BeginClean(dst, sessionMetadata(info, dir), universal.SourceAgent, bytesOf(info.Raw()))
			}
			if sid == t.st.Session && t.st.Cwd == "" {
				t.st.Cwd = t.w.Copy(dir)
			}
		}
	}
	dst = t.around(dst, sv)
	if sid == "" {
		// A message list names no session (its URL does): its messages
		// are one session's, named by their sessionID when they carry
		// one, else not known: the session is then followed without a
		// native id.
		t.follow(first(msgs).Get("sessionID").Str)
		if t.st.Session == "" {
			t.st.Session = v2Unnamed
		}
		sid = t.st.Session
	}
	i := 0
	var last []byte
	msgs.Each(func(_ gjson.Result, x jsonscan.Value) bool {
		dst = t.replayV2Message(dst, x, sv.line, i, sid)
		last = bytesOf(x.Raw())
		i++
		return true
	})
	return t.settleRecord(dst, last)
}

// v2Unnamed stands for the session of a 2.x message list whose
// session is not known (no native session id is set for it).
const v2Unnamed = "(unnamed 2.x session)"

// v2ToolStatus maps a 2.x tool state's status to 1.x's.
var v2ToolStatus = map[string]string{"streaming": "pending", "running": "running", "completed": "completed", "error": "error"}

// replayV2Message replays one 2.x message of the session sid (the
// message's own sessionID first).
func (t *Translator) replayV2Message(dst []universal.Event, x jsonscan.Value, line int64, index int, sid string) []universal.Event {
	e := event{typ: "message", props: x, raw: bytesOf(x.Raw()), line: line, index: index}
	if !isV2Message(x) {
		return t.unparsed(dst, &e, errors.New("not a 2.x message ({id, type, …})"))
	}
	if s := x.Get("sessionID").Str; s != "" {
		sid = s
	}
	id := x.Get("id").Str
	if id == "" || sid == "" {
		return t.unparsed(dst, &e, errors.New("2.x message without an id"))
	}
	typ := x.Get("type").Str
	switch typ {
	case "user", "assistant":
		rec, unknown := v2Record(x, id, sid, typ)
		dst = t.replayRecord(dst, rec, e.raw, line, index, "")
		if len(unknown) > 0 {
			// Content of a type this package does not know is reported,
			// not left out.
			dst = t.unparsed(dst, &e, errors.New("2.x "+typ+" message content of unknown type "+strings.Join(unknown, ", ")))
		}
		return dst
	case "synthetic", "system", "skill":
		var o jsonw.Object
		o.String("sessionID", sid).String("text", x.Get("text").Str)
		et := "session.synthetic"
		switch typ {
		case "synthetic":
			o.OptString("description", x.Get("description").Str).Raw("metadata", x.Get("metadata").Raw)
		case "system":
			et = "session.context.updated"
		case "skill":
			et = "session.skill.activated"
			o.OptString("id", x.Get("skill").Str).OptString("name", x.Get("name").Str)
		}
		return t.onV2System(dst, v2As(&e, et, o.Bytes()))
	case "shell":
		status := x.Get("status").Str
		var sh, o jsonw.Object
		sh.String("id", x.Get("shellID").Str).String("command", x.Get("command").Str).OptString("status", status)
		sh.Raw("exit", x.Get("exit").Raw)
		o.String("sessionID", sid).RawBytes("shell", sh.Bytes()).Raw("output", x.Get("output").Raw)
		et := "session.shell.ended"
		if status == "running" {
			et = "session.shell.started"
		}
		if x.Get("shellID").Str == "" {
			return t.unparsed(dst, &e, errors.New("2.x shell message without shellID"))
		}
		return t.onShell(dst, v2As(&e, et, o.Bytes()))
	case "compaction":
		status := x.Get("status").Str
		if status == "running" {
			return dst // reported when it ends, as the live events are
		}
		var o jsonw.Object
		o.String("sessionID", sid).OptString("reason", x.Get("reason").Str)
		et := "session.compaction.ended"
		if status == "failed" {
			et = "session.compaction.failed"
			o.Raw("error", x.Get("error").Raw)
		} else {
			o.String("text", x.Get("summary").Str).OptString("recent", x.Get("recent").Str)
		}
		return t.onCompaction(dst, v2As(&e, et, o.Bytes()))
	case "agent-switched", "model-switched", "location-switched", "idle":
		// The agent and model are each assistant message's, and its
		// tools' own input says what they touch, as with the live
		// events (session.agent.selected …); idle is the end of a run,
		// which the last assistant message's finish tells.
		return dst
	}
	return t.unparsed(dst, &e, errors.New("unknown 2.x message type "+typ))
}

// v2Record returns the 1.x record {info, parts} a 2.x user or assistant
// message stands for: a user's text, files (data: URLs of their inline
// data, else their URI) and agent mentions; an assistant's agent, model, finish,
// cost, tokens (v2Tokens), error and times, its content as text,
// reasoning and tool parts (the tool's 1.x state: status, input, its
// content's text as the output or the error's message, metadata and
// files). unknown lists the content blocks of other types, which it
// leaves out.
func v2Record(x jsonscan.Value, id, sid, typ string) (rec jsonscan.Value, unknown []string) {
	var info jsonw.Object
	info.String("id", id).String("sessionID", sid).String("role", typ)
	var tm jsonw.Object
	tm.Raw("created", x.Get("time.created").Raw)
	tm.Raw("completed", x.Get("time.completed").Raw)
	var parts []byte
	add := func(o *jsonw.Object) {
		if parts == nil {
			parts = append(parts, '[')
		} else {
			parts = append(parts, ',')
		}
		parts = append(parts, o.Bytes()...)
	}
	if typ == "user" {
		info.RawBytes("time", tm.Bytes())
		if text := x.Get("text"); text.Type == gjson.String {
			var p jsonw.Object
			p.String("type", "text").String("text", text.Str)
			add(&p)
		}
		x.Get("files").ForEach(func(_, f gjson.Result) bool {
			var p jsonw.Object
			url := v2FileURL(f)
			p.String("type", "file").OptString("mime", f.Get("mime").Str).OptString("filename", f.Get("name").Str).OptString("url", url)
			add(&p)
			return true
		})
		x.Get("agents").ForEach(func(_, a gjson.Result) bool {
			// An @agent mention, as the live prompt's (v2Prompt).
			var p jsonw.Object
			p.String("type", "agent").String("name", a.Get("name").Str).Raw("source", a.Get("mention").Raw)
			add(&p)
			return true
		})
	} else {
		info.OptString("mode", x.Get("agent").Str)
		info.OptString("modelID", x.Get("model.id").Str).OptString("providerID", x.Get("model.providerID").Str)
		info.OptString("variant", x.Get("model.variant").Str)
		info.OptString("finish", x.Get("finish").Str)
		info.Raw("cost", x.Get("cost").Raw)
		info.Raw("tokens", v2Tokens(x.Get("tokens")))
		if errv := x.Get("error"); errv.IsObject() {
			info.Raw("error", errv.Raw)
		}
		info.RawBytes("time", tm.Bytes())
		x.Get("content").ForEach(func(_, c gjson.Result) bool {
			var p jsonw.Object
			switch c.Get("type").Str {
			case "text", "reasoning":
				p.String("type", c.Get("type").Str).String("text", c.Get("text").Str)
			case "tool":
				st := c.Get("state")
				status := v2ToolStatus[st.Get("status").Str]
				if status == "" {
					status = "pending"
				}
				var s jsonw.Object
				s.String("status", status)
				if in := st.Get("input"); in.IsObject() {
					s.Raw("input", in.Raw)
				} else {
					s.Raw("input", "{}") // still streaming: partial text
				}
				out, atts := v2ToolContent(st.Get("content"))
				if status == "error" {
					msg := st.Get("error.message").Str
					if msg == "" {
						msg = st.Get("error.type").Str
					}
					s.String("error", msg)
				} else if status == "completed" {
					s.String("output", out)
				}
				if md := st.Get("metadata"); md.IsObject() {
					s.Raw("metadata", md.Raw)
				}
				s.RawBytes("attachments", atts)
				p.String("type", "tool").String("tool", c.Get("name").Str).String("callID", c.Get("id").Str).RawBytes("state", s.Bytes())
			default:
				unknown = append(unknown, strconv.Quote(c.Get("type").String()))
				return true
			}
			add(&p)
			return true
		})
	}
	if parts == nil {
		parts = []byte("[]")
	} else {
		parts = append(parts, ']')
	}
	var o jsonw.Object
	o.RawBytes("info", info.Bytes()).RawBytes("parts", parts)
	return jsonscan.Wrap(gjson.ParseBytes(o.Bytes())), unknown
}
