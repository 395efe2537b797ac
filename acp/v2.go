package acp

import (
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// ACP v2 (agentclientprotocol/agent-client-protocol schema/v2, protocol
// version 2; @agentclientprotocol/claude-agent-acp speaks it, its own
// acp-scenarios snapshots show): the initialize response names the agent
// info and its capabilities capabilities; session/prompt's response only
// accepts the prompt ({messageId}: "This response does not indicate that
// the agent has finished processing"), and the turn's end is a
// session/update state_update {state: "idle", stopReason, usage} ("running"
// and "requires_action" while it works or waits); the user's message is a
// user_message upsert {messageId, content: [ContentBlock]}. Read here so
// far: those, the history session/resume replays (resumeReplays), and
// agent_message and agent_thought upserts (agentMessage), and the
// permission request's subject (permissionSubject), and
// tool_call_content_chunk (toolContentChunk). Not yet: plan_update.

// promptAccepted reports whether a session/prompt response only accepts
// the prompt (ACP v2): it has no stopReason, and the agent speaks v2 or
// the response names the prompt's messageId.
func (t *Translator) promptAccepted(result jsonscan.Value) bool {
	if result.Sub("stopReason").Exists() {
		return false
	}
	return t.st.V2 || result.Sub("messageId").Exists()
}

// stateUpdate translates state_update (ACP v2): idle ends the session's
// live turn as a prompt's response would (stopReason, usage, _meta.quota
// read the same). Running and requires_action, and a sub-agent's or a
// replayed session's states, carry nothing for the transcript.
func (t *Translator) stateUpdate(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	if t.sub != nil || u.Sub("state").Str() != "idle" || !t.st.Turn.Open || t.st.Turn.Replay {
		return dst
	}
	if u.Sub("stopReason").Str() == "error" {
		// The schema's ErrorStopReason {error: a JSON-RPC error}: the
		// work failed, as v1 answers a failed prompt with that error
		// (claude-agent-acp's v2Foreground.failed): read as that
		// response is.
		return t.agentError(dst, in, mPrompt, u.Sub("error"))
	}
	return t.promptResult(dst, in, u)
}

// userMessage translates user_message (ACP v2): the user's message, its
// content blocks read as user_message_chunk's are (an echo of the prompt
// the host's request showed is dropped).
func (t *Translator) userMessage(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	c := u.Sub("content")
	if !c.IsArray() {
		return dst
	}
	c.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		dst = t.userContent(dst, in, u, b)
		return true
	})
	return dst
}

// resumeReplays reports whether a session/resume request has the agent
// replay the session's history before its response, as session/load does:
// in ACP v2 (which has no session/load), resume "optionally replays prior
// conversation history according to replayFrom"; the history it replays
// is read as a load's. A v1 resume replays nothing.
func (t *Translator) resumeReplays(params jsonscan.Value) bool {
	return t.st.V2 || params.Sub("replayFrom").Exists()
}

// agentMessage translates agent_message and agent_thought (ACP v2): an
// upsert of the message messageId names, whose content replaces what the
// message has. claude-agent-acp opens each message so, with no content,
// and streams it in chunks of that messageId: an upsert without content
// adds nothing (the chunks that follow start the message); its blocks
// are read as chunks of the message (the content of a new message), and
// an upsert of the message being streamed replaces what it has ("that
// array replaces any content previously accumulated for the message,
// including content from earlier chunks. Later chunks with the same
// messageId append to the current content", schema/v2 AgentMessage):
// the parts so far complete empty (closeMsg), the blocks and later
// chunks are new parts.
func (t *Translator) agentMessage(dst []universal.Event, in *input, u jsonscan.Value, thought bool) []universal.Event {
	c := u.Sub("content")
	if !c.IsArray() || c.Len() == 0 {
		return dst
	}
	ch := chunk{messageID: u.Sub("messageId").Str(), meta: u.Sub("_meta").Exists()}
	if ch.messageID != "" {
		var parent *tool
		if ch.meta || t.sub != nil {
			parent = t.parentCall(u)
		}
		if _, sc := t.scope(parent); sc.Open && sc.NativeID == ch.messageID && t.w.IsOpen(sc.Msg) && len(sc.Parts) > 0 {
			// "that array replaces any content previously accumulated
			// for the message, including content from earlier chunks":
			// the parts so far are replaced, the blocks are the
			// message's content from here on.
			sc.Replaced = len(sc.Parts)
		}
	}
	c.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		ch.content = b
		dst = t.agentChunk(dst, in, u, ch, thought)
		return true
	})
	return dst
}

// permissionSubject returns the call an ACP v2 permission request is for:
// its subject {type: "tool_call", toolCall} (v1 gives toolCall at the top
// of the request), or {type: "command", command, cwd, toolCallId} of a
// known call, as a ToolCallUpdate naming that call. A request with
// another subject, or none, names no call (an absent Value): it is
// subjectPermission's.
func permissionSubject(params jsonscan.Value) jsonscan.Value {
	s := params.Sub("subject")
	switch s.Sub("type").Str() {
	case "tool_call":
		return s.Sub("toolCall")
	case "command":
		if id := s.Sub("toolCallId"); id.Type() == gjson.String {
			var o jsonw.Object
			o.String("toolCallId", id.Str())
			return jsonscan.Wrap(gjson.Parse(string(o.Bytes())))
		}
	}
	return jsonscan.Value{}
}

// toolContentChunk translates tool_call_content_chunk (ACP v2): one
// ToolCallContent item appended to the call's content ("Tool-call content
// chunks append one ToolCallContent item to the current content"), whose
// output streams while the call runs. The item is kept apart (Chunks)
// until the content is read whole, and its text alone is streamed: a
// call whose output comes in many chunks costs the size of each chunk,
// not of all the output again. A chunk of a call not known or ended, or
// without an item, is unparsed: there is no call to add it to.
func (t *Translator) toolContentChunk(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	id := u.Get("toolCallId").String()
	tl := t.st.Tools[id]
	c := u.Sub("content")
	switch {
	case !c.IsObject():
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: tool_call_content_chunk without a content item", errBadParams), in.raw)
	case tl == nil:
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("tool_call_content_chunk of call %q, which is not known", id), in.raw)
	case tl.Done:
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("tool_call_content_chunk of call %q after its final status", id), in.raw)
	}
	item := c.OwnJSON(t.w.Copy)
	tl.Chunks = append(tl.Chunks, item)
	if tl.Status != "in_progress" || tl.Result == "" {
		return dst
	}
	if tl.HasTerminal || c.Sub("type").Str() == "terminal" {
		// A terminal's output is the client's, read with the rest.
		tl.settle()
		return t.streamOutput(dst, tl, jsonscan.Wrap(gjson.Parse(tl.Content)), in.raw)
	}
	if tl.Diverged || !t.w.IsOpen(tl.Result) {
		return dst
	}
	piece := t.output(tl, jsonscan.Wrap(gjson.Parse("["+item+"]")))
	if piece == "" {
		return dst
	}
	if t.w.StreamedText(tl.Result, 0) != "" {
		// Pieces of output are joined by newlines (see output).
		piece = "\n" + piece
	}
	tl.streamed = 0
	return t.w.Delta(dst, tl.Result, 0, universal.PartToolResult, piece, agent, in.raw)
}

// settle joins the content items ACP v2's chunks added (Chunks) into
// Content, once.
func (tl *tool) settle() {
	if len(tl.Chunks) == 0 {
		return
	}
	n := len(tl.Content) + len(tl.Chunks) + 2
	for _, c := range tl.Chunks {
		n += len(c)
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	if len(tl.Content) > 2 {
		b = append(b, tl.Content[1:len(tl.Content)-1]...)
		b = append(b, ',')
	}
	for i, c := range tl.Chunks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c...)
	}
	tl.Content, tl.Chunks = string(append(b, ']')), nil
}

// settled is the call's content collection, its chunks joined (settle).
func (tl *tool) settled() string {
	tl.settle()
	return tl.Content
}
