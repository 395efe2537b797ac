package golden

import (
	"strings"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Amp (amp.md). Messages are complete in both formats; what is kept:
//
//   - stream-json: user and assistant lines' message.content (of the main
//     thread and of sub-agents): text blocks, thinking blocks' thinking,
//     and tool_result blocks' content;
//   - thread: messages[].content the same way, where a tool_result is
//     {toolUseID, run}: a done run's result, an error run's error; and
//     an info message's text blocks and summary.summary, and the result
//     of a command the user ran (manual_bash_invocation's done toolRun);
//   - jsonl: each message of the messages lines' [index, message] pairs
//     as in a thread, from the last copy of its index (a message is sent
//     again while it streams, each copy with more of its content).
//
// Rules:
//
//   - a tool result that is the JSON text of a structured result (Amp's
//     results are strings; a shell command's {"output","exitCode"}, a
//     file read's {"content"}, …) is compared by the string values in it,
//     as the translator shows the readable part and keeps the rest;
//   - the result line of stream-json repeats the last answer (or is an
//     error the session reports as such): not required as text.
func init() {
	extractors["amp/stream-json"] = ampStream
	extractors["amp/thread"] = ampThread
	extractors["amp/jsonl"] = ampJSONL
}

func ampJSONL(x *extraction, msgs func(func(universal.Message, string) bool)) {
	type copyOf struct {
		msg  gjson.Result
		line int64
	}
	var order []int64
	last := map[int64]copyOf{}
	for m, v := range msgs {
		if gjson.Get(v, "type").Str != "messages" {
			continue
		}
		gjson.Get(v, "messages").ForEach(func(_, pair gjson.Result) bool {
			i := pair.Get("0").Int()
			if _, ok := last[i]; !ok {
				order = append(order, i)
			}
			last[i] = copyOf{pair.Get("1"), m.Line}
			return true
		})
	}
	for _, i := range order {
		c := last[i]
		ampContent(x, c.msg.Get("role").Str, c.msg.Get("content"), c.line)
	}
}

func ampStream(x *extraction, msgs func(func(universal.Message, string) bool)) {
	for m, v := range msgs {
		switch gjson.Get(v, "type").Str {
		case "user", "assistant":
			ampContent(x, gjson.Get(v, "message.role").Str, gjson.Get(v, "message.content"), m.Line)
		}
	}
}

func ampThread(x *extraction, msgs func(func(universal.Message, string) bool)) {
	for m, v := range msgs {
		gjson.Get(v, "messages").ForEach(func(_, msg gjson.Result) bool {
			ampContent(x, msg.Get("role").Str, msg.Get("content"), m.Line)
			return true
		})
	}
}

func ampContent(x *extraction, role string, content gjson.Result, line int64) {
	kind := KeptAssistant
	switch role {
	case "user":
		kind = KeptUser
	case "info":
		kind = KeptUser
	}
	if content.Type == gjson.String {
		x.add(kind, content.Str, line)
		return
	}
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			x.add(kind, b.Get("text").Str, line)
		case "thinking":
			x.add(KeptReasoning, b.Get("thinking").Str, line)
		case "summary":
			x.add(kind, b.Get("summary").Str, line)
		case "manual_bash_invocation":
			if run := b.Get("toolRun"); run.Get("status").Str == "done" {
				jsonLeaves(x, KeptTool, run.Get("result"), line)
			}
		case "tool_result":
			if run := b.Get("run"); run.Exists() {
				switch run.Get("status").Str {
				case "done":
					jsonLeaves(x, KeptTool, run.Get("result"), line)
				case "error":
					jsonLeaves(x, KeptTool, run.Get("error"), line)
				}
				return true
			}
			c := b.Get("content")
			if c.IsArray() {
				blockTexts(c, func(_, t string) { jsonText(x, KeptTool, t, line) }, "text")
			} else {
				jsonText(x, KeptTool, c.Str, line)
			}
		}
		return true
	})
}

// jsonText keeps a text, or the strings in it when it is the JSON text of
// an object or array.
func jsonText(x *extraction, kind, s string, line int64) {
	t := strings.TrimSpace(s)
	if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && gjson.Valid(t) {
		jsonLeaves(x, kind, gjson.Parse(t), line)
		return
	}
	x.add(kind, s, line)
}

// jsonLeaves keeps the string values in a JSON value.
func jsonLeaves(x *extraction, kind string, v gjson.Result, line int64) {
	switch {
	case v.Type == gjson.String:
		x.add(kind, v.Str, line)
	case v.IsObject() || v.IsArray():
		v.ForEach(func(_, e gjson.Result) bool {
			jsonLeaves(x, kind, e, line)
			return true
		})
	}
}
