package golden

import (
	"strconv"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// ACP (the Agent Client Protocol schema, testdata/acp/schema). What is
// kept:
//
//   - the text blocks of the host's session/prompt requests (exchange);
//   - session/update agent_message_chunk, agent_thought_chunk and
//     user_message_chunk text, assembled: a run of chunks of one kind
//     that follow each other (no other message between them, the same
//     messageId) is one text;
//   - a tool call's content (tool_call, tool_call_update): the text of its
//     content blocks (type content with a text block, or an embedded
//     resource's text), as the last update that carried content left it
//     (ACP: content given in an update replaces the call's content); a
//     call that ends with no content, its rawOutput when that is a
//     string.
//
// Rules:
//
//   - a tool call's content is required only when the call reached a
//     final status (completed or failed): content an update replaced, or
//     of a call that never finished (a cancel), is not the call's output;
//   - diff and terminal content are not text (file references, a
//     terminal's output the host itself holds): not required.
func init() {
	extractors["acp/exchange"] = acpUpdates
	extractors["acp/agent"] = acpUpdates
}

func acpUpdates(x *extraction, msgs func(func(universal.Message, string) bool)) {
	type call struct {
		content gjson.Result
		raw     gjson.Result
		final   bool
		line    int64
		rawLine int64
	}
	calls := map[string]*call{}
	var order []string
	run := 0      // the number of the current run of chunks
	runKind := "" // its kind and message id
	for m, v := range msgs {
		method := gjson.Get(v, "method").Str
		if m.Dir == universal.In {
			runKind = ""
			if method == "session/prompt" {
				gjson.Get(v, "params.prompt").ForEach(func(_, b gjson.Result) bool {
					if b.Get("type").Str == "text" {
						x.add(KeptPrompt, b.Get("text").Str, m.Line)
					}
					return true
				})
			}
			continue
		}
		u := gjson.Get(v, "params.update")
		su := u.Get("sessionUpdate").Str
		if method != "session/update" {
			runKind = ""
			continue
		}
		switch su {
		case "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
			kind := map[string]string{"agent_message_chunk": KeptAssistant, "agent_thought_chunk": KeptReasoning, "user_message_chunk": KeptUser}[su]
			if k := su + "\x00" + u.Get("messageId").Str; k != runKind {
				run++
				runKind = k
			}
			if c := u.Get("content"); c.Get("type").Str == "text" {
				x.grow("run:"+strconv.Itoa(run), kind, c.Get("text").Str, m.Line)
			}
		case "tool_call", "tool_call_update":
			runKind = ""
			id := u.Get("toolCallId").Str
			c, ok := calls[id]
			if !ok {
				c = &call{}
				calls[id] = c
				order = append(order, id)
			}
			if ct := u.Get("content"); ct.Exists() {
				c.content, c.line = ct, m.Line
			}
			if ro := u.Get("rawOutput"); ro.Exists() {
				c.raw, c.rawLine = ro, m.Line
			}
			switch u.Get("status").Str {
			case "completed", "failed":
				c.final = true
			}
		default:
			runKind = ""
		}
	}
	for _, id := range order {
		c := calls[id]
		if !c.final {
			continue
		}
		if !c.content.IsArray() || len(c.content.Array()) == 0 {
			// No content: the raw output is what there is to show.
			if c.raw.Type == gjson.String {
				x.add(KeptTool, c.raw.Str, c.rawLine)
			}
			continue
		}
		c.content.ForEach(func(_, b gjson.Result) bool {
			if b.Get("type").Str != "content" {
				return true
			}
			in := b.Get("content")
			switch in.Get("type").Str {
			case "text":
				x.add(KeptTool, in.Get("text").Str, c.line)
			case "resource":
				x.add(KeptTool, in.Get("resource.text").Str, c.line)
			}
			return true
		})
	}
}
