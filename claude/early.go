package claude

import (
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// early is a line held back: a transcript's user line of tool results
// written before the assistant line of their call (Claude Code 2.1.98
// wrote some results before the last lines of the response that called
// them; the result's parentUuid names the call's line, which follows), or
// a stream-json task line written before the init (see holdPreInit).
type early struct {
	// Agent is the agentId of a held sub-agent line (see unclaimed.go).
	Agent  string `json:"agent,omitempty"`
	UUID   string `json:"uuid"`
	Parent string `json:"parent"`
	Data   string `json:"data"`
	Line   int64  `json:"line,omitempty"`
	TimeMS int64  `json:"time_ms,omitempty"`
}

// transcriptLine translates a transcript line, holding a result that came
// before its call until the call's line (its parentUuid) has been
// translated. A held result is released before any line that is not an
// assistant line (or that names it as its parent), and at the end: then
// it goes where it was written, as before.
func (t *Translator) transcriptLine(dst []universal.Event, m universal.Message) []universal.Event {
	if len(t.s.Early) > 0 {
		var typ, uuid, parent string
		if m.Err == nil {
			v := gjson.GetManyBytes(m.Data, "type", "uuid", "parentUuid")
			typ, uuid, parent = v[0].Str, v[1].Str, v[2].Str
		}
		if typ != "assistant" || slices.ContainsFunc(t.s.Early, func(e early) bool { return e.UUID == parent }) {
			dst = t.releaseEarly(dst, "")
		} else {
			dst = t.translate(dst, m)
			return t.releaseEarly(dst, uuid)
		}
	}
	return t.translate(dst, m)
}

// holdEarly holds the line just scanned (m, cleaned) when it is a user
// line whose content is tool results only, none of whose calls is known,
// whose parent entry has not come yet. It reads the scan's index, so the
// common case (the parent was translated) costs a lookup.
func (t *Translator) holdEarly(m universal.Message) bool {
	r := t.scan.Root()
	if p := r.Get("parentUuid").Str; p == "" || t.s.Seen[p] {
		return false
	}
	uuid := r.Get("uuid").Str
	content := r.Sub("message").Sub("content")
	if r.Get("type").Str != "user" || uuid == "" || !content.IsArray() {
		return false
	}
	n := 0
	held := true
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		n++
		held = b.Get("type").Str == "tool_result" && t.s.Tools[b.Get("tool_use_id").Str] == nil
		return held
	})
	if !held || n == 0 {
		return false
	}
	// The index's strings alias the message, whose buffer the reader
	// reuses: the held line keeps copies.
	t.s.Early = append(t.s.Early, early{UUID: strings.Clone(uuid), Parent: strings.Clone(r.Get("parentUuid").Str),
		Data: string(m.Data), Line: m.Line, TimeMS: m.TimeMS})
	return true
}

// releaseEarly translates the held lines whose parent is the entry just
// translated (all of them when parent is ""), in the order written.
func (t *Translator) releaseEarly(dst []universal.Event, parent string) []universal.Event {
	if len(t.s.Early) == 0 {
		return dst
	}
	var keep []early
	for _, e := range t.s.Early {
		if parent != "" && e.Parent != parent {
			keep = append(keep, e)
			continue
		}
		t.releasing = true
		dst = t.translate(dst, universal.Message{Data: []byte(e.Data), Line: e.Line, TimeMS: e.TimeMS})
		t.releasing = false
	}
	t.s.Early = keep
	return dst
}

// holdPreInit holds the stream-json line just scanned (m, cleaned) when
// the session has not begun and it is a task's system line: a skill that
// runs forked as the first input (2.1.277: task_started, task_notification
// of a local_agent without a tool call) runs before the CLI writes its
// init, and translating it first would begin the session without the
// init's metadata (version, model, cwd, tools). It is translated after
// the line that begins the session, the init, or at the end.
func (t *Translator) holdPreInit(m universal.Message) bool {
	r := t.scan.Root()
	if r.Get("type").Str != "system" {
		return false
	}
	switch r.Get("subtype").Str {
	case "task_started", "task_progress", "task_updated", "task_notification":
	default:
		return false
	}
	t.s.Early = append(t.s.Early, early{Data: string(m.Data), Line: m.Line, TimeMS: m.TimeMS})
	return true
}
