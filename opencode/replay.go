package opencode

import (
	"errors"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Provider replay transcripts (T3 Code's, see universal.ReplayRecord)
// are a host's log of the events it received, one a line, each in a
// record of its recorder: {"type": "emit_inbound", "label",
// "frame": {"type": "sdk.event", "event": <payload>}}, between the host's
// own calls ("expect_outbound") and what they returned ("sdk.response"
// frames), after a {"type": "transcript_start", "protocol":
// "opencode-sdk.sse" (1.x) | "opencode2-sdk.sse" (2.x), …} header. They
// are read as event-lines: an event's payload is read as a bare one.

// replayFormat reports whether a line of a provider replay transcript
// tells that it is OpenCode's: ok for OpenCode's, aside for a record
// that says nothing yet (runtime_exit). The header's protocol names the
// client; without one, only the frames of T3 Code's OpenCode client are
// OpenCode's: "sdk.event" (an event of the server's stream, as the SDK
// gave it), "sdk.response" (what an SDK call returned) and the host's
// calls of the SDK (sdkCalls); another agent's frames (JSON-RPC, Pi's
// commands, the Agent SDK's) are not.
func replayFormat(line string) (aside, ok bool) {
	r := gjson.GetMany(line, "dir", "type", "frame.type", "protocol")
	if r[0].Exists() {
		return false, false
	}
	switch _, skip, known := universal.ReplayRecord(r[1].Str); {
	case !known:
		return false, false
	case r[1].Str == "transcript_start":
		return false, strings.HasPrefix(r[3].Str, "opencode")
	case skip:
		return true, false
	}
	switch r[2].Str {
	case "sdk.event", "sdk.response":
		return false, true
	}
	return false, r[1].Str == "expect_outbound" && sdkCalls[r[2].Str]
}

// sdkCalls are the calls of OpenCode's SDK a host's OpenCode client
// records, by T3 Code's names; not the Agent SDK's (session.fork,
// permission.response).
var sdkCalls = map[string]bool{
	"event.subscribe": true, "session.create": true, "session.get": true, "session.update": true,
	"session.prompt": true, "session.promptAsync": true, "session.abort": true, "session.children": true,
	"session.pending.list": true, "shell.list": true, "permission.reply": true, "question.reply": true,
	"question.reject": true,
}

// replayTranscriptRecord reads a record of a provider replay transcript, scanned:
// the frame of an "emit_inbound" record is what the host received; the
// host's own calls ("expect_outbound": the prompt it sent comes back as
// the session's user message, a reply as the server's event) and the
// recorder's records (the header, "runtime_exit") are not OpenCode's
// output, but for a prompt's text (hostPrompt).
func (t *Translator) replayTranscriptRecord(dst []universal.Event, root jsonscan.Value, raw []byte, line int64) []universal.Event {
	d, aside, _ := universal.ReplayRecord(root.Field("type").Str())
	if aside {
		return dst
	}
	frame := root.Field("frame")
	if d == universal.In {
		t.hostPrompt(frame)
		return dst
	}
	if !frame.IsObject() {
		return t.w.Unparsed(dst, lineLoc(line, -1), errors.New("replay record without a frame"), raw)
	}
	switch typ := frame.Field("type").Str(); typ {
	case "sdk.event":
		ev := frame.Field("event")
		if !ev.IsObject() {
			return t.w.Unparsed(dst, lineLoc(line, -1), errors.New("sdk.event frame without an event"), raw)
		}
		return t.translateEvent(dst, ev, bytesOf(ev.Raw()), line, -1)
	case "sdk.response":
		return t.onResponse(dst, frame, bytesOf(frame.Raw()), line)
	default:
		return t.w.Unparsed(dst, lineLoc(line, -1), errors.New("unknown frame type "+strconv.Quote(typ)), raw)
	}
}

// onResponse reads what an SDK call returned. The session the host
// created (session.create) or looked up (session.get) is the Session
// info a session.created or session.updated event carries: the first
// starts the session with its metadata (version, directory, title), a
// sub-agent's links it to its parent. The other calls' results (a
// prompt's, an abort's, lists, a partial update) say nothing the events
// do not.
func (t *Translator) onResponse(dst []universal.Event, frame jsonscan.Value, raw []byte, line int64) []universal.Event {
	data := frame.Field("data")
	if !data.IsObject() || !strings.HasPrefix(data.Get("id").Str, "ses_") {
		return dst
	}
	e := event{props: data, raw: raw, line: line, index: -1}
	switch frame.Field("operation").Str() {
	case "session.create":
		e.typ = "session.created"
	case "session.get":
		e.typ = "session.updated"
	default:
		return dst
	}
	if loc := data.Field("location"); loc.IsObject() {
		e.dir = loc.Field("directory").Str() // 2.x: the session's directory
	}
	return t.dispatch(dst, &e)
}

// hostPrompt keeps the texts of a prompt the host sent with the id of the
// user message it makes (session.promptAsync or session.prompt, {input:
// {sessionID, messageID, parts}}): a recording whose events hold the
// user message but none of its parts (a recorder that keeps some events)
// still has its text (see completeMessage).
func (t *Translator) hostPrompt(frame jsonscan.Value) {
	switch frame.Field("type").Str() {
	case "session.promptAsync", "session.prompt":
	default:
		return
	}
	in := frame.Field("input")
	id := in.Get("messageID").Str
	if id == "" {
		return
	}
	var texts []string
	in.Get("parts").ForEach(func(_, p gjson.Result) bool {
		if p.Get("type").Str == "text" && p.Get("text").Str != "" && !p.Get("synthetic").Bool() {
			texts = append(texts, t.w.Copy(strings.ToValidUTF8(p.Get("text").Str, "\uFFFD")))
		}
		return true
	})
	if len(texts) > 0 {
		put(&t.st.HostPrompts, t.w.Copy(id), texts)
	}
}
