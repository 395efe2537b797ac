package acp

import (
	"github.com/agentnorm/agentnorm/universal"
)

// mKiroToolChunk is Kiro CLI's notification of a running call's output
// as it comes: {sessionId, toolCallId, content}, content one
// ToolCallContent ({type: content, content: {type: text, text}}), sent
// between the call's in_progress update and its completed one, whose
// rawOutput and content hold the whole output (Kiro CLI 2.19.1, an ACP
// client's proxy log: a command's lines one a second).
const mKiroToolChunk = "_kiro/tools/content_chunk"

// kiroToolChunk streams a chunk of a running call's output into its
// tool_result item, as terminal output chunks do. A chunk of a call not
// running (unknown, not started, ended, or whose output stopped
// extending what streamed) adds nothing: it is an extension
// notification, which a client that cannot place it ignores.
func (t *Translator) kiroToolChunk(dst []universal.Event, in *input) []universal.Event {
	p := in.params
	tl := t.st.Tools[p.Get("toolCallId").String()]
	if tl == nil || tl.Done || tl.Diverged || tl.Result == "" || !t.w.IsOpen(tl.Result) {
		return dst
	}
	c := p.Sub("content")
	if c.Sub("type").Str() != "content" {
		return dst
	}
	var text string
	switch cc := c.Sub("content"); cc.Sub("type").Str() {
	case "text":
		text = cc.Sub("text").Str()
	default:
		return dst
	}
	tl.streamed = 0
	return t.w.Delta(dst, tl.Result, 0, universal.PartToolResult, text, agent, in.raw)
}
