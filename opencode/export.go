package opencode

import (
	"bytes"
	"errors"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// exportBanner is the status line opencode export writes before the
// document: to stderr, which callers often capture with stdout, and in
// some builds to stdout (1.1.48 on Windows, without a newline before the
// document).
const exportBanner = "Exporting session:"

// saved is a saved document (an export or a message list) and the text
// around it in the input: the export banner, plugin log lines a wrapper
// captured with it.
type saved struct {
	doc       []byte
	pre, post []byte
	line      int64 // the line the input, and so pre, starts on
}

// document finds the saved document in an input: it starts at a line's
// first { or [ (or right after the export banner), the first such place
// where a valid JSON document follows, and ends at the input's last } or
// ]. ok is false when there is none; when it is true, s holds the
// document's index.
func document(s *jsonscan.Scanner, m universal.Message) (saved, bool) {
	data := m.Data
	end := bytes.LastIndexAny(data, "}]")
	if end < 0 {
		return saved{}, false
	}
	tries := 0 // each try reads the rest of the input: bounded
	for at := 0; at < end && tries < maxDocumentTries; {
		nl := bytes.IndexByte(data[at:], '\n')
		line := data[at:]
		if nl >= 0 {
			line = data[at : at+nl]
		}
		lead := len(line) - len(bytes.TrimLeft(line, " \t\r\ufeff"))
		if s := line[lead:]; bytes.HasPrefix(s, []byte(exportBanner)) {
			if i := bytes.IndexAny(s, "{["); i >= 0 {
				lead += i
			}
		}
		if i := at + lead; i <= end && (data[i] == '{' || data[i] == '[') {
			tries++
			if s.Scan(data[i : end+1]) {
				return saved{
					doc:  data[i : end+1],
					pre:  data[:i],
					post: data[end+1:],
					line: m.Line,
				}, true
			}
		}
		if nl < 0 {
			break
		}
		at += nl + 1
	}
	return saved{}, false
}

// maxDocumentTries bounds the places document tries as the start of the
// document (lines of text before it that start with a bracket).
const maxDocumentTries = 8

// around reports the text around a saved document: the banner is dropped
// (it only names the session the document holds), any other line becomes
// agent.unparsed with its line number.
func (t *Translator) around(dst []universal.Event, s saved) []universal.Event {
	dst = t.noise(dst, s.pre, s.line)
	if len(s.post) == 0 {
		return dst
	}
	// The line post starts on: counted only when there is text after
	// the document, as the count reads all of it.
	tail := s.line + int64(bytes.Count(s.pre, []byte{'\n'})+bytes.Count(s.doc, []byte{'\n'}))
	return t.noise(dst, s.post, tail)
}

// noise reports the lines of text around a document, except blank lines
// and the export banner.
func (t *Translator) noise(dst []universal.Event, text []byte, line int64) []universal.Event {
	for i, l := range bytes.Split(text, []byte{'\n'}) {
		s := bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(l), []byte("\ufeff")))
		if len(s) == 0 || bytes.HasPrefix(s, []byte(exportBanner)) {
			continue
		}
		dst = t.w.Unparsed(dst, lineLoc(line+int64(i), -1), errors.New("text around the saved document"), l)
	}
	return dst
}

// translateExport replays an opencode export document:
//
//	{"info": Session, "messages": [{info, parts}…], "todos"?: [Todo…]}
//
// The session info is the session.started metadata (and names the session
// to follow, its directory the working directory), the messages are read
// as a message list, the todos (newer builds) are the last todo list, and
// a revert point in the info is reported like a live one (onRevert).
func (t *Translator) translateExport(dst []universal.Event, r jsonscan.Value, sv saved) []universal.Event {
	line, raw := sv.line, sv.doc
	info := r.Sub("info")
	msgs := r.Sub("messages")
	e := event{typ: "export", props: r, raw: raw, line: line, index: -1}
	if !info.IsObject() || info.Get("id").Str == "" {
		dst = t.unparsed(dst, &e, errors.New("export without info.id"))
	} else {
		id := info.Get("id").Str
		if t.st.Session == "" {
			t.follow(id)
		}
		if id == t.st.Session {
			if !t.w.Begun() {
				dst = t.w.BeginClean(dst, sessionMetadata(info, info.Get("directory").Str), universal.SourceAgent, bytesOf(info.Raw()))
			}
			dst = t.around(dst, sv)
			sv = saved{}
			if t.st.Cwd == "" {
				t.st.Cwd = t.w.CopyValue(info.Get("directory"))
			}
		}
	}
	dst = t.around(dst, sv)
	if !msgs.IsArray() {
		dst = t.unparsed(dst, &e, errors.New("export without a messages array"))
	}
	i := 0
	var last []byte
	sid := info.Get("id").Str
	msgs.Each(func(_ gjson.Result, x jsonscan.Value) bool {
		dst = t.replayMessage(dst, x, line, i, sid)
		last = bytesOf(x.Raw())
		i++
		return true
	})
	dst = t.settleRecord(dst, last)
	if todos := r.Sub("todos"); todos.IsArray() && todos.Len() > 0 && sid == t.st.Session {
		dst = t.todoItem(dst, todos, "", bytesOf(todos.Raw()))
	}
	if info.IsObject() && sid != "" {
		dst = t.onRevert(dst, sid, info, bytesOf(info.Raw()))
	}
	return dst
}

// todoItem is a completed status item (label plan) holding a todo list
// as a checklist (detail) and the native todos (metadata).
func (t *Translator) todoItem(dst []universal.Event, todos jsonscan.Value, parent string, raw []byte) []universal.Event {
	var list []byte
	todos.Each(func(_ gjson.Result, td jsonscan.Value) bool {
		list = universal.AppendPlanStep(list, universal.StepStateOf(td.Get("status").Str), td.Get("content").Str)
		return true
	})
	var md jsonw.Object
	todos.AddTo(&md, "todos")
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: parent,
		Kind:     universal.KindStatus,
		Content:  []universal.Part{{Type: universal.PartStatus, Label: universal.LabelPlan, Detail: string(list), Metadata: md.Bytes()}},
	}, universal.SourceAgent, raw)
}
