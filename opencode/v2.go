package opencode

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// OpenCode 2.x message events on /api/event. Each is read as the 1.x
// event it stands for (a message's info, a part snapshot, a text delta),
// built from its data and handled by the 1.x handlers, so that a 2.x
// message becomes the items its 1.x equivalent does. The native event
// (raw) stays the 2.x one.

// v2Tool is what a 2.x tool call said before its result: its tool's name
// (session.tool.input.started names it; some 2.x versions' tool.called do
// not) and its input, which the result's events do not repeat.
type v2Tool struct {
	Name  string  `json:"name,omitempty"`
	Input rawText `json:"input,omitempty"`
}

// onV2 handles the 2.x message events (see the package doc, OpenCode
// 2.x).
func (t *Translator) onV2(dst []universal.Event, e *event) []universal.Event {
	d := e.props
	sid := d.Get("sessionID").Str
	if sid == "" {
		return t.unparsed(dst, e, errors.New("2.x event without data.sessionID"))
	}
	switch e.typ {
	case "session.input.admitted", "session.prompt.admitted":
		return t.v2Input(dst, sid, e)
	case "session.inbox.enqueued":
		return t.v2Inbox(dst, sid, e)
	case "session.inbox.delivered", "session.inbox.cancelled":
		return t.v2Delivered(dst, e)
	case "session.input.promoted", "session.prompt.promoted",
		"session.tool.input.delta", "session.tool.input.ended":
		// The prompt is reported when admitted; a tool's arguments when
		// it is called (tool.called carries them parsed).
		return dst
	}
	mid := d.Get("assistantMessageID").Str
	if mid == "" {
		return t.unparsed(dst, e, errors.New("2.x event without data.assistantMessageID"))
	}
	switch e.typ {
	case "session.step.started":
		var o jsonw.Object
		o.String("id", mid).String("sessionID", sid).String("role", "assistant")
		o.OptString("mode", d.Get("agent").Str)
		o.OptString("modelID", d.Get("model.id").Str).OptString("providerID", d.Get("model.providerID").Str)
		o.OptString("variant", d.Get("model.variant").Str)
		return t.v2Info(dst, o.Bytes(), false, e)
	case "session.step.ended", "session.step.failed":
		var o jsonw.Object
		o.String("id", mid).String("sessionID", sid).String("role", "assistant")
		o.Raw("time", `{"completed":1}`)
		o.OptString("finish", d.Get("finish").Str)
		o.Raw("cost", d.Get("cost").Raw)
		if e.next {
			// ≤ 1.19: whether reasoning is inside output is not known
			// (see the package doc); taken as is, as 1.x's steps are.
			o.Raw("tokens", d.Get("tokens").Raw)
		} else {
			o.Raw("tokens", v2Tokens(d.Get("tokens")))
		}
		if e.typ == "session.step.failed" {
			errv := d.Get("error")
			if !errv.IsObject() {
				errv = gjson.Parse(`{"type":"unknown","message":"step failed"}`)
			}
			o.Raw("error", errv.Raw)
		}
		if files := d.Get("files"); files.IsArray() && len(files.Array()) > 0 {
			// The files the step changed (≤ 1.19's step.ended {snapshot,
			// files}): what 1.x's patch part {hash, files} says at a
			// step's end, read as one.
			var p jsonw.Object
			p.String("id", mid+"#files").String("sessionID", sid).String("messageID", mid).String("type", "patch")
			p.OptString("hash", d.Get("snapshot").Str)
			p.Raw("files", files.Raw)
			dst = t.v2Part(dst, p.Bytes(), e)
		}
		return t.v2Info(dst, o.Bytes(), true, e)
	case "session.text.started", "session.text.delta", "session.text.ended":
		return t.v2Text(dst, "text", sid, mid, v2Key(d, "textID"), e)
	case "session.reasoning.started", "session.reasoning.delta", "session.reasoning.ended":
		return t.v2Text(dst, "reasoning", sid, mid, v2Key(d, "reasoningID"), e)
	}
	return t.v2ToolEvent(dst, sid, mid, e)
}

// v2Key is what tells a text or reasoning block from the others of its
// message: its id (textID, reasoningID) or, in other 2.x versions, its
// ordinal.
func v2Key(d jsonscan.Value, idField string) string {
	if id := d.Get(idField).Str; id != "" {
		return id
	}
	if o := d.Get("ordinal"); o.Type == gjson.Number {
		return "#" + strconv.FormatInt(o.Int(), 10)
	}
	return "#0"
}

// v2Event returns a copy of e with props the 1.x event built for it.
func v2Event(e *event, props []byte) *event {
	e2 := *e
	e2.props = jsonscan.Wrap(gjson.ParseBytes(props))
	return &e2
}

// v2Info handles a message info built for a 2.x event.
func (t *Translator) v2Info(dst []universal.Event, info []byte, complete bool, e *event) []universal.Event {
	f := readInfo(jsonscan.Wrap(gjson.ParseBytes(info)))
	return t.onMessage(dst, &f, e.raw, complete)
}

// v2Part handles a part snapshot built for a 2.x event.
func (t *Translator) v2Part(dst []universal.Event, part []byte, e *event) []universal.Event {
	f := readPart(jsonscan.Wrap(gjson.ParseBytes(part)))
	return t.onPart(dst, &f, "", v2Event(e, part))
}

// v2Input reports an admitted prompt as the user message (text, files,
// agent mentions) a 1.x prompt gives: session.input.admitted {inputID,
// input: {type: "user", data: {text, files?, agents?}, delivery}} or
// session.prompt.admitted {inputID, prompt: {text, files?, agents?},
// delivery}.
func (t *Translator) v2Input(dst []universal.Event, sid string, e *event) []universal.Event {
	d := e.props
	id := d.Get("inputID").Str
	if id == "" {
		id = d.Get("messageID").Str // session.next.prompt.admitted (≤ 1.19)
	}
	prompt := d.Sub("prompt")
	if in := d.Sub("input"); in.Exists() {
		if typ := in.Get("type").Str; typ != "user" {
			return t.unparsed(dst, e, fmt.Errorf("admitted input of type %q", typ))
		}
		prompt = in.Sub("data")
	}
	if id == "" || !prompt.IsObject() {
		return t.unparsed(dst, e, errors.New("admitted input without inputID and its prompt"))
	}
	return t.v2Prompt(dst, sid, id, prompt, e)
}

// v2Queued is a user prompt or synthetic text in a 2.x session's inbox,
// kept until it is delivered: its session, payload and, for synthetic
// text, Synthetic.
type v2Queued struct {
	Session   string  `json:"session"`
	Payload   rawText `json:"payload"`
	Synthetic bool    `json:"synthetic,omitempty"`
}

// v2Inbox keeps a prompt put in a session's inbox (2.0.x):
// session.inbox.enqueued {inboxID, item: {type, payload, delivery}}. A
// user item (payload {text, files?, agents?, skills?, metadata?}) is the
// prompt's user message when it is delivered (v2Delivered): a prompt
// queued while the model works (delivery queue, or steer within a step)
// joins the conversation then, after what the model did meanwhile. A
// synthetic item (payload {text, description?, metadata?}: what 2.0.19
// tells the model of a shell command the user ran, of a background
// command that ended, of a mode) is, when delivered, the system item a
// session.synthetic gives. A compaction is shown by its compaction's end
// and a move by the session's tools, so they give nothing here.
func (t *Translator) v2Inbox(dst []universal.Event, sid string, e *event) []universal.Event {
	d := e.props
	id := d.Get("inboxID").Str
	item := d.Sub("item")
	typ := item.Get("type").Str
	switch typ {
	case "user", "synthetic":
	case "compaction", "move":
		return dst
	default:
		return t.unparsed(dst, e, fmt.Errorf("inbox item of type %q", typ))
	}
	prompt := item.Sub("payload")
	if id == "" || !prompt.IsObject() {
		return t.unparsed(dst, e, errors.New("inbox item without inboxID and its payload"))
	}
	put(&t.st.V2Inbox, t.w.Copy(id), v2Queued{Session: t.w.Copy(sid), Payload: rawText(prompt.Raw()), Synthetic: typ == "synthetic"})
	return dst
}

// v2Delivered handles session.inbox.delivered {sessionID, inboxID}, which
// gives a kept user prompt its user message and synthetic text its system
// item, and .cancelled, which drops it. Other items' deliveries give
// nothing.
func (t *Translator) v2Delivered(dst []universal.Event, e *event) []universal.Event {
	id := e.props.Get("inboxID").Str
	q, ok := t.st.V2Inbox[id]
	if !ok {
		return dst
	}
	delete(t.st.V2Inbox, id)
	if e.typ == "session.inbox.cancelled" {
		return dst
	}
	payload := gjson.ParseBytes(q.Payload)
	if !q.Synthetic {
		return t.v2Prompt(dst, q.Session, id, jsonscan.Wrap(payload), e)
	}
	text := payload.Get("text").Str
	parent, ok := t.noticeParent(q.Session)
	if text == "" || !ok {
		return dst
	}
	var md jsonw.Object
	syntheticMeta(&md, payload.Get("description").Str, payload.Get("metadata"))
	return t.systemText(dst, parent, text, md.Bytes(), e.raw)
}

// v2Prompt reports a 2.x prompt (text, files, agent mentions) as the user
// message id a 1.x prompt gives.
func (t *Translator) v2Prompt(dst []universal.Event, sid, id string, prompt jsonscan.Value, e *event) []universal.Event {
	var o jsonw.Object
	o.String("id", id).String("sessionID", sid).String("role", "user")
	dst = t.v2Info(dst, o.Bytes(), false, e)
	if text := prompt.Get("text").Str; text != "" {
		var p jsonw.Object
		p.String("id", id+"#text").String("messageID", id).String("sessionID", sid).String("type", "text").String("text", text)
		dst = t.v2Part(dst, p.Bytes(), e)
	}
	i := 0
	prompt.Get("files").ForEach(func(_, f gjson.Result) bool {
		url := v2FileURL(f)
		if url == "" {
			url = "data:"
		}
		var p jsonw.Object
		p.String("id", id+"#file"+strconv.Itoa(i)).String("messageID", id).String("sessionID", sid).String("type", "file")
		p.OptString("mime", f.Get("mime").Str).String("url", url).OptString("filename", f.Get("name").Str)
		dst = t.v2Part(dst, p.Bytes(), e)
		i++
		return true
	})
	i = 0
	prompt.Get("agents").ForEach(func(_, a gjson.Result) bool {
		var p jsonw.Object
		p.String("id", id+"#agent"+strconv.Itoa(i)).String("messageID", id).String("sessionID", sid).String("type", "agent")
		p.String("name", a.Get("name").Str).Raw("source", a.Get("mention").Raw)
		dst = t.v2Part(dst, p.Bytes(), e)
		i++
		return true
	})
	return dst
}

// v2FileURL is the 1.x file part URL of a 2.x file attachment {data,
// mime, source: {type: "uri", uri} | {type: "inline"}, name}: a data: URL
// of its inline data (a picture pasted into the prompt: source inline,
// the base64 in data), else the URI it names ("" if none).
func v2FileURL(f gjson.Result) string {
	if d := f.Get("data").Str; d != "" {
		return "data:" + f.Get("mime").Str + ";base64," + d
	}
	if u := f.Get("uri").Str; u != "" {
		return u
	}
	return f.Get("source.uri").Str
}

// v2Text handles a text or reasoning block: started and ended are
// snapshots of its part (empty, then the final text), delta the 1.x
// message.part.delta.
func (t *Translator) v2Text(dst []universal.Event, typ, sid, mid, key string, e *event) []universal.Event {
	d := e.props
	pid := mid + "#" + typ + ":" + key
	if strings.HasSuffix(e.typ, ".delta") {
		return t.textDelta(dst, e, sid, mid, pid, d.Get("delta").Str)
	}
	if p := t.st.Parts[pid]; p != nil && p.Type != typ {
		return t.unparsed(dst, e, fmt.Errorf("%s block %q of message %q was a %s block", typ, key, mid, p.Type))
	}
	var o jsonw.Object
	o.String("id", pid).String("messageID", mid).String("sessionID", sid).String("type", typ)
	if strings.HasSuffix(e.typ, ".ended") {
		o.String("text", d.Get("text").Str)
		o.Raw("time", `{"start":0,"end":0}`)
		md := d.Get("providerMetadata")
		if !md.IsObject() {
			md = d.Get("state")
		}
		if md.IsObject() {
			o.Raw("metadata", md.Raw)
		}
	}
	return t.v2Part(dst, o.Bytes(), e)
}

// v2ToolEvent handles session.tool.*: a call is a tool part whose state
// goes pending (input.started), running (called, progress), completed
// (success) or error (failed), as a 1.x tool part's does.
func (t *Translator) v2ToolEvent(dst []universal.Event, sid, mid string, e *event) []universal.Event {
	d := e.props
	call := d.Get("callID").Str
	if call == "" {
		call = d.Get("id").Str // 2.0.2x: the call's id is data.id
	}
	if call == "" || !strings.HasPrefix(e.typ, "session.tool.") {
		return t.unparsed(dst, e, fmt.Errorf("unknown event type %q", e.typ))
	}
	pid := mid + "#tool:" + call
	if p := t.st.Parts[pid]; p != nil && p.Type != "tool" {
		return t.unparsed(dst, e, fmt.Errorf("tool call %q of message %q was a %s block", call, mid, p.Type))
	}
	tool := t.st.V2Tools[pid]
	var state jsonw.Object
	switch e.typ {
	case "session.tool.input.started":
		tool.Name = d.Get("name").Str
		state.String("status", "pending").Raw("input", "{}")
	case "session.tool.called":
		if name := d.Get("tool").Str; name != "" {
			tool.Name = name
		}
		if in := d.Get("input"); in.IsObject() {
			tool.Input = rawText(in.Raw)
		}
		state.String("status", "running").RawBytes("input", tool.Input)
	case "session.tool.progress", "session.tool.success", "session.tool.failed":
		status := "running"
		switch e.typ {
		case "session.tool.success":
			status = "completed"
		case "session.tool.failed":
			status = "error"
		}
		state.String("status", status).RawBytes("input", tool.Input)
		out, atts := v2ToolContent(d.Get("content"))
		md := d.Get("structured")
		if !md.IsObject() {
			// 2.0.19: the tool's metadata ({sessionID, status} of a
			// sub-agent, {exit, truncated} of a command).
			md = d.Get("metadata")
		}
		if status == "running" {
			var m jsonw.Object
			if md.IsObject() {
				m.Raw("structured", md.Raw)
			}
			if child := md.Get("sessionID").Str; child != "" {
				m.String("sessionID", child)
			}
			m.String("output", out)
			state.RawBytes("metadata", m.Bytes())
			break
		}
		if md.IsObject() {
			state.Raw("metadata", md.Raw)
		}
		if status == "error" {
			msg := d.Get("error.message").Str
			if msg == "" {
				msg = d.Get("error.type").Str
			}
			state.String("error", msg)
		} else {
			state.String("output", out)
		}
		state.RawBytes("attachments", atts)
	default:
		return t.unparsed(dst, e, fmt.Errorf("unknown event type %q", e.typ))
	}
	if e.typ == "session.tool.success" || e.typ == "session.tool.failed" {
		delete(t.st.V2Tools, pid)
	} else {
		tool.Name = t.w.Copy(tool.Name)
		put(&t.st.V2Tools, pid, tool)
	}
	var o jsonw.Object
	o.String("id", pid).String("messageID", mid).String("sessionID", sid).String("type", "tool")
	o.String("tool", tool.Name).String("callID", call).RawBytes("state", state.Bytes())
	return t.v2Part(dst, o.Bytes(), e)
}

// v2ToolContent returns a 2.x tool output's text (its text contents, in
// order, each on lines of its own: a newline after a block that does not
// end with one) and its files as 1.x attachments ({type: "file", mime, url,
// filename}), nil if none.
func v2ToolContent(content gjson.Result) (string, []byte) {
	var text strings.Builder
	var atts []byte
	n := 0
	content.ForEach(func(_, c gjson.Result) bool {
		switch c.Get("type").Str {
		case "text":
			if n > 0 && !strings.HasSuffix(text.String(), "\n") {
				text.WriteByte('\n') // blocks on lines of their own
			}
			text.WriteString(c.Get("text").Str)
			n++
		case "file":
			var a jsonw.Object
			a.String("type", "file").OptString("mime", c.Get("mime").Str).OptString("url", c.Get("uri").Str).OptString("filename", c.Get("name").Str)
			if atts == nil {
				atts = append(atts, '[')
			} else {
				atts = append(atts, ',')
			}
			atts = append(atts, a.Bytes()...)
		}
		return true
	})
	if atts != nil {
		atts = append(atts, ']')
	}
	return text.String(), atts
}

// v2As returns a copy of e read as the 1.x event typ with props the 1.x
// event's, built for it.
func v2As(e *event, typ string, props []byte) *event {
	e2 := v2Event(e, props)
	e2.typ = typ
	return e2
}

// onForm handles the 2.x forms (questions to the user) as the 1.x
// question events they stand for: form.created {form: {id, sessionID,
// title?, mode?, fields: [{key, title?, description?, type, options?}] |
// url}} is question.asked, one question per field (its description, else
// its title, else its key, with a header: its title when it has a
// description, as the question tool's form gives the header, else its key;
// its options' labels), the form in metadata, linked to the call of the
// question tool that opened it (metadata.tool {messageID, id});
// form.replied {id, sessionID, answer: {key: value}} is question.replied,
// the answer's values in the order of the form's fields (formAnswers);
// form.cancelled {id, sessionID} is
// question.rejected.
func (t *Translator) onForm(dst []universal.Event, e *event) []universal.Event {
	d := e.props
	var o jsonw.Object
	switch e.typ {
	case "form.created":
		f := d.Get("form")
		if !f.IsObject() {
			return t.unparsed(dst, e, errors.New("form.created without form"))
		}
		o.String("id", f.Get("id").Str).String("sessionID", f.Get("sessionID").Str)
		o.OptString("title", f.Get("title").Str)
		if call := f.Get("metadata.tool.id").Str; call != "" {
			// The question tool's form names its call.
			var tool jsonw.Object
			tool.OptString("messageID", f.Get("metadata.tool.messageID").Str).String("callID", call)
			o.RawBytes("tool", tool.Bytes())
		}
		qs := []byte{'['}
		add := func(q *jsonw.Object) {
			if len(qs) > 1 {
				qs = append(qs, ',')
			}
			qs = append(qs, q.Bytes()...)
		}
		f.Get("fields").ForEach(func(_, fd gjson.Result) bool {
			text, header := fd.Get("title").Str, fd.Get("key").Str
			if desc := fd.Get("description").Str; desc != "" {
				if text != "" {
					// A labelled question (the question tool's form:
					// header as title, question as description).
					header = text
				}
				text = desc
			}
			if text == "" {
				text = header
			}
			var q jsonw.Object
			q.String("question", text).String("header", header)
			q.Raw("options", fd.Get("options").Raw)
			if fd.Get("type").Str == "multiselect" {
				q.Raw("multiple", "true")
			}
			add(&q)
			return true
		})
		if url := f.Get("url").Str; url != "" {
			var q jsonw.Object
			q.String("question", url).String("header", "url")
			add(&q)
		}
		qs = append(qs, ']')
		o.RawBytes("questions", qs)
		o.Raw("form", f.Raw)
		return t.onQuestion(dst, v2As(e, "question.asked", o.Bytes()))
	case "form.replied":
		o.String("sessionID", d.Get("sessionID").Str).String("requestID", d.Get("id").Str)
		answers := []byte{'['}
		for _, v := range formAnswers(d.Get("answer"), t.st.Questions[d.Get("id").Str].Keys) {
			if len(answers) > 1 {
				answers = append(answers, ',')
			}
			switch {
			case v.IsArray():
				answers = append(answers, v.Raw...)
			case v.Type == gjson.String:
				answers = append(answers, '[')
				answers = append(answers, v.Raw...)
				answers = append(answers, ']')
			default:
				answers = jsonw.AppendString(append(answers, '['), v.Raw)
				answers = append(answers, ']')
			}
		}
		answers = append(answers, ']')
		o.RawBytes("answers", answers).Raw("answer", d.Get("answer").Raw)
		return t.onQuestionResolved(dst, v2As(e, "question.replied", o.Bytes()))
	default: // form.cancelled
		o.String("sessionID", d.Get("sessionID").Str).String("requestID", d.Get("id").Str)
		return t.onQuestionResolved(dst, v2As(e, "question.rejected", o.Bytes()))
	}
}

// formAnswers returns the values of a form's answer ({key: value}) in
// the order of the form's fields, keys (a form not seen: none), then the
// values of keys the fields do not name, by key: an object's members have
// no order (a log re-serialized with sorted keys reorders them), and the
// answers must line up with the questions. The first of a key given
// twice counts.
func formAnswers(answer gjson.Result, keys []string) []gjson.Result {
	ms := jsonscan.SortedMembers(answer)
	out := make([]gjson.Result, 0, len(ms))
	used := make([]bool, len(ms))
	for _, k := range keys {
		if i, ok := slices.BinarySearchFunc(ms, k, func(m jsonscan.Named, k string) int { return strings.Compare(m.Key, k) }); ok && !used[i] {
			out, used[i] = append(out, ms[i].Val), true
		}
	}
	for i := range ms {
		if !used[i] {
			out = append(out, ms[i].Val)
		}
	}
	return out
}

// v2Shell is a 2.x shell command the user ran, between its start and
// its output: its tool_call and tool_result items.
type v2Shell struct {
	Call   string `json:"call"`
	Result string `json:"result"`
}

// shellTool is the tool name of a command the user ran in 2.x: the type
// of OpenCode's record of it (a session message of type shell).
const shellTool = "shell"

// onShell handles session.shell.started and .ended ({sessionID, shell:
// {id, status, command, cwd, exit?, …}, output?: {output, truncated, …}}),
// a shell command the user ran (the TUI's !), by the user-command
// convention of package universal: a tool_call item (role user, name
// shell, arguments {command}, kind execute) completed when it starts, and
// its tool_result, completed with the output when it ends (exit_code,
// status, truncated in metadata), failed when the exit code is not 0 or
// the command timed out or was killed. The session.next.shell.* records
// of ≤ 1.19 (V2 envelope) say {callID, command} and {callID, output}
// instead: the call id is the shell's id, the output its text, and no
// exit code is given.
func (t *Translator) onShell(dst []universal.Event, e *event) []universal.Event {
	d := e.props
	sid := d.Get("sessionID").Str
	sh := d.Get("shell")
	id, command, output := sh.Get("id").Str, sh.Get("command"), d.Get("output.output")
	if e.next {
		// ≤ 1.19: session.next.shell.started {messageID, callID,
		// command}, .ended {callID, output: the text}.
		id, command, output = d.Get("callID").Str, d.Get("command"), d.Get("output")
	}
	if sid == "" || id == "" {
		return t.unparsed(dst, e, errors.New("2.x shell event without data.sessionID and shell.id"))
	}
	parent, ok := t.noticeParent(sid)
	if !ok {
		return dst
	}
	items, open := t.st.V2Shells[id]
	if !open {
		if e.typ == "session.shell.ended" && t.st.Resolved[id] {
			return dst // a repeat
		}
		var args jsonw.Object
		args.String("command", command.Str)
		argText := string(args.Bytes())
		kind, in := tools.Describe("bash", argText, t.st.Cwd)
		id = t.w.Copy(id)
		items = v2Shell{Call: t.w.NewItemID(), Result: t.w.NewItemID()}
		dst = t.w.Complete(dst, universal.Item{
			ItemID: items.Call, NativeItemID: id, ParentID: parent, Kind: universal.KindToolCall, Role: universal.RoleUser,
			Content: []universal.Part{{Type: universal.PartToolCall, Name: shellTool, Arguments: argText, CallID: id, ToolKind: kind, ToolInput: in}},
		}, universal.SourceAgent, e.raw)
		dst = t.w.StartItem(dst, universal.Item{
			ItemID: items.Result, NativeItemID: id, ParentID: items.Call, Kind: universal.KindToolResult, Role: universal.RoleTool,
			Content: []universal.Part{{Type: universal.PartToolResult, CallID: id}},
		}, universal.SourceAgent, e.raw)
		put(&t.st.V2Shells, id, items)
	}
	if e.typ == "session.shell.started" {
		return dst
	}
	delete(t.st.V2Shells, id)
	put(&t.st.Resolved, t.w.Copy(id), true)
	var md jsonw.Object
	status := sh.Get("status").Str
	failed := status == "timeout" || status == "killed"
	if code := sh.Get("exit"); code.Type == gjson.Number {
		md.Int("exit_code", code.Int())
		failed = failed || code.Int() != 0
	}
	md.OptString("status", status)
	md.Raw("truncated", d.Get("output.truncated").Raw)
	st := universal.StatusCompleted
	if failed {
		st = universal.StatusFailed
	}
	p := universal.Part{Type: universal.PartToolResult, CallID: t.w.Copy(id), Output: t.w.Copy(output.Str), IsError: failed, Metadata: metaOrNil(&md)}
	return t.w.Complete(dst, universal.Item{
		ItemID: items.Result, NativeItemID: p.CallID, ParentID: items.Call, Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{p}, Status: st,
	}, universal.SourceAgent, e.raw)
}

// onCompaction handles session.compaction.ended {sessionID, reason: auto
// | manual, text, recent} and .failed {sessionID, reason, error}: a
// status item labelled compaction, as 1.x's compaction part is, whose
// detail is the summary the compaction wrote (failed: the error's
// message), reason and recent (or the error) in metadata. The session's
// notice: no parent (a sub-agent's is under its task call).
func (t *Translator) onCompaction(dst []universal.Event, e *event) []universal.Event {
	d := e.props
	sid := d.Get("sessionID").Str
	if sid == "" {
		return t.unparsed(dst, e, errors.New("2.x event without data.sessionID"))
	}
	parent, ok := t.noticeParent(sid)
	if !ok {
		return dst
	}
	var md jsonw.Object
	md.OptString("reason", d.Get("reason").Str)
	if d.Get("reason").Str == "auto" {
		md.Raw("auto", "true")
	}
	detail, status := d.Get("text").Str, universal.StatusCompleted
	if e.typ == "session.compaction.failed" {
		status = universal.StatusFailed
		detail = d.Get("error.message").Str
		md.Raw("error", d.Get("error").Raw)
	} else {
		md.OptString("recent", d.Get("recent").Str)
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: parent,
		Kind:     universal.KindStatus,
		Content:  []universal.Part{{Type: universal.PartStatus, Label: universal.LabelCompaction, Detail: t.w.Copy(detail), Metadata: metaOrNil(&md)}},
		Status:   status,
	}, universal.SourceAgent, e.raw)
}

// noticeParent routes a 2.x session event that may choose the followed
// session: the parent of its items (none for the followed session's, the
// task call for a sub-agent's), false for another session's.
func (t *Translator) noticeParent(sid string) (string, bool) {
	switch t.route(sid, true) {
	case routeRoot:
		return "", true
	case routeChild:
		return t.st.Links[sid], true
	}
	return "", false
}

// onV2System handles the 2.x session events that put text before the
// model which the user did not type, as 1.x's synthetic user text parts
// are shown: a completed system item (role system) with the text, its
// kind in metadata (source: synthetic, skill, context or instructions).
// session.synthetic {text, description?, metadata?} keeps its
// description and metadata; session.skill.activated {id?, name, text}
// the skill's name (skill) and id (skill_id); session.instructions.updated
// {delta, text?} its delta (instructions); session.context.updated
// {text} nothing more. An event without text (instructions' first
// baseline, an empty update) gives no item. The session's notice: no
// parent (a sub-agent's is under its task call).
func (t *Translator) onV2System(dst []universal.Event, e *event) []universal.Event {
	d := e.props
	sid := d.Get("sessionID").Str
	if sid == "" {
		return t.unparsed(dst, e, errors.New("2.x event without data.sessionID"))
	}
	text := d.Get("text").Str
	if text == "" {
		return dst
	}
	parent, ok := t.noticeParent(sid)
	if !ok {
		return dst
	}
	var md jsonw.Object
	switch e.typ {
	case "session.synthetic":
		syntheticMeta(&md, d.Get("description").Str, d.Get("metadata"))
	case "session.skill.activated":
		md.String("source", "skill").OptString("skill", d.Get("name").Str).OptString("skill_id", d.Get("id").Str)
	case "session.instructions.updated":
		md.String("source", "instructions")
		if m := d.Get("delta"); m.IsObject() {
			md.Raw("instructions", m.Raw)
		}
	default: // session.context.updated
		md.String("source", "context")
	}
	return t.systemText(dst, parent, text, md.Bytes(), e.raw)
}

// syntheticMeta writes the metadata of text OpenCode gives the model on
// the user's behalf (session.synthetic, a synthetic inbox item).
func syntheticMeta(md *jsonw.Object, description string, meta gjson.Result) {
	md.String("source", "synthetic").OptString("description", description)
	if meta.IsObject() {
		md.Raw("metadata", meta.Raw)
	}
}

// systemText completes a system item (role system) of text the model is
// given, under parent.
func (t *Translator) systemText(dst []universal.Event, parent, text string, md, raw []byte) []universal.Event {
	p := universal.Text(t.w.Copy(text))
	p.Metadata = md
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: parent,
		Kind:     universal.KindSystem,
		Role:     universal.RoleSystem,
		Content:  []universal.Part{p},
	}, universal.SourceAgent, raw)
}

// onV2Revert handles 2.x's revert events as the 1.x revert point they
// stand for (Reverts, in the package doc): session.revert.staged
// {sessionID, revert: {messageID, partID?, snapshot?, diff?}} sets it,
// session.revert.cleared {sessionID} takes it away (the user undid the
// revert: unreverted). session.revert.committed {sessionID, to or
// messageID} makes the revert final, OpenCode deleting the reverted
// messages, which 1.x does when a new prompt comes: the revert point goes
// away unreported, the reverted status item standing.
func (t *Translator) onV2Revert(dst []universal.Event, e *event) []universal.Event {
	sid := e.props.Get("sessionID").Str
	if sid == "" {
		return t.unparsed(dst, e, errors.New("2.x event without data.sessionID"))
	}
	if e.typ == "session.revert.committed" {
		if t.route(sid, false) != routeSkip {
			delete(t.st.Reverts, sid)
		}
		return dst
	}
	if e.typ == "session.revert.staged" && !e.props.Get("revert.messageID").Exists() {
		return t.unparsed(dst, e, errors.New("session.revert.staged without revert.messageID"))
	}
	return t.onRevert(dst, sid, e.props, e.raw)
}

// v2Tokens returns a 2.x step's tokens {input, output, reasoning, cache
// {read, write}} as the 1.x usage reader takes them. 2.x sends no total,
// which the reader takes for a build that counted reasoning inside
// output; 2.x counts it outside, as 1.15 and later do (a probe of
// OpenCode 2.0.25 against a mock whose reply had 7 completion tokens, 2
// of them reasoning, saw output 5, reasoning 2), so the total of every
// count is added, which tells the reader so.
func v2Tokens(tok gjson.Result) string {
	raw := strings.TrimSpace(tok.Raw)
	if !tok.IsObject() || tok.Get("total").Exists() || len(raw) < 3 || strings.TrimSpace(raw[1:len(raw)-1]) == "" {
		return tok.Raw
	}
	total := tok.Get("input").Int() + tok.Get("output").Int() + tok.Get("reasoning").Int() +
		tok.Get("cache.read").Int() + tok.Get("cache.write").Int()
	return raw[:len(raw)-1] + `,"total":` + strconv.FormatInt(total, 10) + "}"
}
