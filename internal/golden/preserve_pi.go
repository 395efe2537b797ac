package golden

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Pi (pi.md). Every message is complete in the message_end event of the
// live formats (json, rpc, exchange) and in the "message" entries of a
// session file. What is kept, per message role:
//
//   - user: the content (a string, or its text blocks);
//   - assistant: text blocks, and thinking blocks' thinking;
//   - toolResult: the content's text blocks;
//   - bashExecution (a command the user ran with !): its output;
//   - compactionSummary and branchSummary: the summary;
//   - custom and hookMessage (an extension's message): the content, when
//     displayed (display true; the others are for the model only).
//
// Rules:
//
//   - a message that streamed (message_update text_delta and
//     thinking_delta, assembled per contentIndex) but never ended (a run
//     cut short) is required as it streamed; one that ended, as
//     message_end gives it;
//   - a system message is the system prompt, session information the
//     translator keeps in metadata, not conversation: not required;
//   - a session file is read whole: in a v2/v3 tree the entries of
//     abandoned branches are required too (the translator keeps them,
//     marking where a new branch starts).
func init() {
	extractors["pi/json"] = piLive
	extractors["pi/rpc"] = piLive
	extractors["pi/exchange"] = piLive
	extractors["pi/session"] = piSession
}

func piMessage(x *extraction, msg gjson.Result, line int64) {
	switch msg.Get("role").Str {
	case "user":
		blockTexts(msg.Get("content"), func(_, t string) { x.add(KeptUser, t, line) }, "text")
	case "assistant":
		msg.Get("content").ForEach(func(_, b gjson.Result) bool {
			switch b.Get("type").Str {
			case "text":
				x.add(KeptAssistant, b.Get("text").Str, line)
			case "thinking":
				x.add(KeptReasoning, b.Get("thinking").Str, line)
			}
			return true
		})
		if c := msg.Get("content"); c.Type == gjson.String {
			x.add(KeptAssistant, c.Str, line)
		}
	case "toolResult":
		blockTexts(msg.Get("content"), func(_, t string) { x.add(KeptTool, t, line) }, "text")
	case "bashExecution":
		x.add(KeptTool, msg.Get("output").Str, line)
	case "compactionSummary", "branchSummary":
		x.add(KeptUser, msg.Get("summary").Str, line)
	case "custom", "hookMessage":
		if msg.Get("display").Bool() {
			blockTexts(msg.Get("content"), func(_, t string) { x.add(KeptUser, t, line) }, "text")
		}
	}
}

func piLive(x *extraction, msgs func(func(universal.Message, string) bool)) {
	n := 0            // the number of the streaming message
	var open []string // its streamed blocks' keys
	for m, v := range msgs {
		if m.Dir != universal.Out {
			continue
		}
		switch gjson.Get(v, "type").Str {
		case "message_start":
			n++
			open = open[:0]
		case "message_update":
			e := gjson.Get(v, "assistantMessageEvent")
			kind := ""
			switch e.Get("type").Str {
			case "text_delta":
				kind = KeptAssistant
			case "thinking_delta":
				kind = KeptReasoning
			default:
				continue
			}
			key := "pi:" + strconv.Itoa(n) + ":" + e.Get("contentIndex").Raw
			if _, ok := x.streams[key]; !ok {
				open = append(open, key)
			}
			x.grow(key, kind, e.Get("delta").Str, m.Line)
		case "message_end":
			// The message whole supersedes what streamed of it.
			for _, k := range open {
				x.drop(k)
			}
			open = open[:0]
			piMessage(x, gjson.Get(v, "message"), m.Line)
		}
	}
}

func piSession(x *extraction, msgs func(func(universal.Message, string) bool)) {
	for m, v := range msgs {
		forEachObject(v, func(r gjson.Result) {
			if r.Get("type").Str == "message" {
				piMessage(x, r.Get("message"), m.Line)
			}
		})
	}
}

// forEachObject calls f with each JSON value of a line: real v1 files
// have lines with several objects back to back.
func forEachObject(v string, f func(gjson.Result)) {
	if gjson.Valid(v) {
		f(gjson.Parse(v))
		return
	}
	d := json.NewDecoder(strings.NewReader(v))
	for {
		var raw json.RawMessage
		if d.Decode(&raw) != nil {
			return
		}
		f(gjson.ParseBytes(raw))
	}
}
