package golden

import (
	"strings"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// OpenCode (opencode.md). Everything a reader sees is a part of a
// message: text (the user's prompt in a user message, the answer in an
// assistant one), reasoning, and tool parts whose state.output (or
// state.error) is the tool's output. What is kept:
//
//   - messages (a message list, or an export's messages): every part;
//   - run-json: the part of every text, reasoning and tool_use line;
//   - sse and events: the parts of message.part.updated, the newest
//     snapshot of each part id, grown by the message.part.delta events
//     that follow it (field "text"); a global stream's {payload} and
//     sync envelopes are unwrapped.
//
// Rules:
//
//   - a tool's output is required once the tool ended (state.status
//     "completed": its output, "error": its error); a running tool's
//     metadata.output is a preview of it, not required;
//   - a part removed (message.part.removed), or whose message is removed
//     (message.removed), is gone from the session: not required;
//   - a part the agent marks ignored (OpenCode leaves it out of the
//     model's and the user's view) is not required.
func init() {
	extractors["opencode/messages"] = opencodeMessages
	extractors["opencode/run-json"] = opencodeRun
	extractors["opencode/sse"] = opencodeEvents
	extractors["opencode/events"] = opencodeEvents
	extractors["opencode/event-lines"] = opencodeEvents
}

// opencodePart keeps the texts of a complete part.
func opencodePart(x *extraction, p gjson.Result, role string, line int64) {
	if p.Get("ignored").Bool() {
		return
	}
	switch p.Get("type").Str {
	case "text":
		kind := KeptAssistant
		if role == "user" {
			kind = KeptUser
		}
		x.add(kind, p.Get("text").Str, line)
	case "reasoning":
		x.add(KeptReasoning, p.Get("text").Str, line)
	case "tool":
		switch p.Get("state.status").Str {
		case "completed":
			x.add(KeptTool, p.Get("state.output").Str, line)
		case "error":
			x.add(KeptTool, p.Get("state.error").Str, line)
		}
	}
}

func opencodeMessages(x *extraction, msgs func(func(universal.Message, string) bool)) {
	for m, v := range msgs {
		r := gjson.Parse(v)
		list := r
		if !r.IsArray() {
			if ms := r.Get("messages"); ms.IsArray() {
				list = ms
			} else {
				list = gjson.Parse("[" + r.Raw + "]")
			}
		}
		list.ForEach(func(_, msg gjson.Result) bool {
			role := msg.Get("info.role").Str
			msg.Get("parts").ForEach(func(_, p gjson.Result) bool {
				opencodePart(x, p, role, m.Line)
				return true
			})
			return true
		})
	}
}

func opencodeRun(x *extraction, msgs func(func(universal.Message, string) bool)) {
	for m, v := range msgs {
		switch gjson.Get(v, "type").Str {
		case "text", "reasoning", "tool_use":
			opencodePart(x, gjson.Get(v, "part"), "assistant", m.Line)
		}
	}
}

func opencodeEvents(x *extraction, msgs func(func(universal.Message, string) bool)) {
	roles := map[string]string{} // message id → role
	type snap struct {
		part  gjson.Result
		delta strings.Builder
		line  int64
	}
	parts := map[string]*snap{}
	var order []string
	removed := map[string]bool{} // message ids
	each := func(e gjson.Result, line int64) {
		if p := e.Get("payload"); p.IsObject() {
			e = p
		}
		if f := e.Get("frame"); f.Get("type").Str == "sdk.event" {
			// A record of a provider replay transcript: the event the
			// host received.
			e = f.Get("event")
		}
		typ, props := e.Get("type").Str, e.Get("properties")
		if typ == "sync" {
			se := e.Get("syncEvent")
			typ, props = se.Get("type").Str, se.Get("data")
			if i := strings.LastIndexByte(typ, '.'); i > 0 && strings.Trim(typ[i+1:], "0123456789") == "" {
				typ = typ[:i]
			}
		}
		switch typ {
		case "message.updated":
			roles[props.Get("info.id").Str] = props.Get("info.role").Str
		case "message.part.updated":
			p := props.Get("part")
			id := p.Get("id").Str
			s, ok := parts[id]
			if !ok {
				s = &snap{}
				parts[id] = s
				order = append(order, id)
			}
			s.part, s.line = p, line
			s.delta.Reset()
			if d := props.Get("delta"); d.Type == gjson.String && p.Get("text").Type != gjson.String {
				s.delta.WriteString(d.Str)
			}
		case "message.part.removed":
			delete(parts, props.Get("partID").Str)
		case "message.removed":
			removed[props.Get("messageID").Str] = true
		case "message.part.delta":
			if props.Get("field").Str != "text" {
				return
			}
			id := props.Get("partID").Str
			s, ok := parts[id]
			if !ok {
				s = &snap{part: gjson.Parse(`{"type":"text"}`), line: line}
				parts[id] = s
				order = append(order, id)
			}
			s.delta.WriteString(props.Get("delta").Str)
		}
	}
	for m, v := range msgs {
		r := gjson.Parse(v)
		if r.IsArray() {
			r.ForEach(func(_, e gjson.Result) bool {
				each(e, m.Line)
				return true
			})
		} else {
			each(r, m.Line)
		}
	}
	for _, id := range order {
		s, ok := parts[id]
		if !ok || removed[s.part.Get("messageID").Str] {
			continue
		}
		p := s.part
		if s.delta.Len() > 0 {
			x.add(opencodeKind(p, roles), p.Get("text").Str+s.delta.String(), s.line)
			continue
		}
		opencodePart(x, p, roles[p.Get("messageID").Str], s.line)
	}
}

func opencodeKind(p gjson.Result, roles map[string]string) string {
	switch {
	case p.Get("type").Str == "reasoning":
		return KeptReasoning
	case roles[p.Get("messageID").Str] == "user":
		return KeptUser
	}
	return KeptAssistant
}
