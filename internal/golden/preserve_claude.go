package golden

import (
	"strconv"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Claude Code (claude.md). Messages are complete in the user and
// assistant lines of every format (stream-json with partial messages
// sends a content block's deltas as stream_event lines, then the block in
// an assistant line). What is kept:
//
//   - user lines (and, in an exchange, the host's own user lines): the
//     content (a string, or its text blocks), and tool_result blocks'
//     content (a string, or its text blocks);
//   - assistant lines: text blocks, thinking blocks' thinking;
//   - a transcript's agent_progress entries: the sub-agent's message
//     (data.message) as above.
//
// Rules:
//
//   - a transcript's sub-agent conversation (sidechain entries of one
//     agentId) is the session's when the input is sub-agent files alone
//     (no line of a main file), or when the main conversation spawned it:
//     a tool result names its agentId (toolUseResult.agentId) or a tool
//     call's prompt is its first prompt. Others are not (2.0.x's cache
//     warmup conversations, "Warmup"; a compaction agent's file): not
//     required;
//   - stream_event deltas (stream-json with partial messages) are
//     assembled per block (the one content_block_start began at its
//     index, in its scope) and required too: a block that streamed was
//     seen even when the run was cut before its assistant line; where the
//     line comes, it holds the same text;
//   - the result line's result repeats the last answer (or is an error
//     the session reports as one): not required as text;
//   - entries that are not the conversation (api-request-blob's copy of
//     what was sent to the model, with its system reminders; attachment,
//     summary, ai-title, last-prompt) are not read.
func init() {
	extractors["claude/stream-json"] = claudeLines
	extractors["claude/exchange"] = claudeLines
	extractors["claude/transcript"] = claudeLines
}

func claudeLines(x *extraction, msgs func(func(universal.Message, string) bool)) {
	// Sidechain (sub-agent) conversations by agentId, decided at the end.
	type side struct {
		first string // the first prompt
		kept  extraction
	}
	sides := map[string]*side{}
	var sideOrder []string
	main := false
	blocks := map[string]string{} // the streaming blocks' keys by scope and index
	spawned := map[string]bool{}  // agent ids named by results, and the prompts of calls
	for m, v := range msgs {
		r := gjson.Parse(v)
		typ := r.Get("type").Str
		if !r.Get("isSidechain").Bool() {
			main = true // a line of the main conversation's file
		}
		if typ == "stream_event" {
			claudeDelta(x, r, blocks, m.Line)
			continue
		}
		if typ == "progress" && r.Get("data.type").Str == "agent_progress" {
			// A sub-agent's message, as the main transcript shows it.
			r = r.Get("data.message")
			typ = r.Get("type").Str
		}
		if typ != "user" && typ != "assistant" {
			continue
		}
		into := x
		if id := r.Get("agentId").Str; r.Get("isSidechain").Bool() && id != "" {
			s, ok := sides[id]
			if !ok {
				s = &side{}
				sides[id] = s
				sideOrder = append(sideOrder, id)
				if c := r.Get("message.content"); typ == "user" {
					if c.Type == gjson.String {
						s.first = c.Str
					} else {
						s.first = c.Get("0.text").Str
					}
				}
			}
			into = &s.kept
		} else {
			if id := r.Get("toolUseResult.agentId").Str; id != "" {
				spawned[id] = true
			}
			r.Get("message.content").ForEach(func(_, b gjson.Result) bool {
				if b.Get("type").Str == "tool_use" {
					if p := b.Get("input.prompt").Str; p != "" {
						spawned[p] = true
					}
				}
				return true
			})
		}
		switch typ {
		case "user":
			claudeUser(into, r.Get("message.content"), m.Line)
		case "assistant":
			r.Get("message.content").ForEach(func(_, b gjson.Result) bool {
				switch b.Get("type").Str {
				case "text":
					into.add(KeptAssistant, b.Get("text").Str, m.Line)
				case "thinking":
					into.add(KeptReasoning, b.Get("thinking").Str, m.Line)
				}
				return true
			})
		}
	}
	for _, id := range sideOrder {
		if s := sides[id]; !main || spawned[id] || spawned[s.first] {
			x.kept = append(x.kept, s.kept.kept...)
		}
	}
}

func claudeUser(x *extraction, content gjson.Result, line int64) {
	if content.Type == gjson.String {
		x.add(KeptUser, content.Str, line)
		return
	}
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			x.add(KeptUser, b.Get("text").Str, line)
		case "tool_result":
			blockTexts(b.Get("content"), func(_, t string) { x.add(KeptTool, t, line) }, "text")
		}
		return true
	})
}

// claudeDelta grows the block a stream_event delta streams. A block is
// the one content_block_start began at its index, in its sub-agent scope
// (parent_tool_use_id): Qwen Code's stream-json, for one, starts every
// block at index 0 of the same message.
func claudeDelta(x *extraction, r gjson.Result, blocks map[string]string, line int64) {
	at := r.Get("parent_tool_use_id").Str + "\x00" + r.Get("event.index").Raw
	e := r.Get("event")
	switch e.Get("type").Str {
	case "content_block_start":
		blocks[at] = "claude:" + strconv.FormatInt(line, 10) + ":" + at
	case "content_block_delta":
		key, ok := blocks[at]
		if !ok {
			key = "claude:" + at
		}
		switch d := e.Get("delta"); d.Get("type").Str {
		case "text_delta":
			x.grow(key, KeptAssistant, d.Get("text").Str, line)
		case "thinking_delta":
			x.grow(key, KeptReasoning, d.Get("thinking").Str, line)
		}
	}
}
