package acp

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
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
// far: those. Not yet: agent_message and agent_thought upserts,
// tool_call_content_chunk, plan_update, the permission request's subject.

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
