package acp

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Grok Build's vendor twins of session/update: the same envelope
// {sessionId, update: {sessionUpdate, …}}, carrying the kinds ACP does
// not define (_x.ai/session_notification; _x.ai/session/update in other
// builds, as public clients of Grok read both).
const (
	mGrokNotification = "_x.ai/session_notification"
	mGrokUpdate       = "_x.ai/session/update"
)

// grokNotification translates Grok Build's vendor session notifications.
// Of their kinds (model_changed, session_summary_generated,
// tool_call_delta_chunk, pending_interaction, interaction_resolved,
// response_completed, turn_completed, retry_state, background_tasks …),
// the sub-agent lifecycle is read: subagent_spawned {subagent_id,
// child_session_id, parent_session_id, subagent_type, description,
// model, …}, which names no tool call (it follows the spawn_subagent
// call), and subagent_finished {subagent_id, child_session_id?, status,
// output, tool_calls, turns, duration_ms, tokens_used, will_wake}, the
// child's id being its subagent_id, as public projects' notes of live
// grok 1.0.x runs and their clients' tests record them. They are the
// subagents RFD's subagent_spawned {subagentSessionId, name, task}
// (named by the session's running task call, when one runs: the child's
// updates go under it, as they do unannounced) and subagent_state_update
// {subagentSessionId, state}, Grok's update kept whole in the status
// item's _meta["x.ai/update"] (see subagentUpdate): a sub-agent spawned in
// the background, whose call has ended, is announced and its updates
// go under the announcement, not into the session's own response. The
// other kinds are ignored, as the protocol says of "_" methods (the
// prompt's answer repeats their usage and stop reason).
func (t *Translator) grokNotification(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	u := params.Sub("update")
	kind := u.Get("sessionUpdate").Str
	if kind != "subagent_spawned" && kind != "subagent_finished" {
		return dst
	}
	child := u.Get("child_session_id").Str
	if child == "" {
		child = u.Get("subagent_id").Str
	}
	if child == "" {
		return dst
	}
	var o jsonw.Object
	if kind == "subagent_spawned" {
		o.String("sessionUpdate", "subagent_spawned").String("subagentSessionId", child)
		for _, f := range [...][2]string{{"name", "subagent_type"}, {"task", "description"}} {
			if v := u.Get(f[1]); v.Type == gjson.String {
				o.String(f[0], v.Str)
			}
		}
		// The session's own running task call spawned it (a sub-agent
		// of a sub-agent is not named by the session's calls).
		if t.subCall(params.Get("sessionId").Str) == nil {
			if p := t.spawner(); p != nil && p.UKind == universal.ToolTask {
				o.String("parentToolCallId", p.ID)
			}
		}
	} else {
		o.String("sessionUpdate", "subagent_state_update").String("subagentSessionId", child)
		if v := u.Get("status"); v.Type == gjson.String {
			o.String("state", v.Str)
		}
	}
	var meta jsonw.Object
	u.AddTo(&meta, "x.ai/update")
	o.RawBytes("_meta", meta.Bytes())
	return t.sessionUpdate(dst, in, params.Get("sessionId").Str, jsonscan.Wrap(gjson.ParseBytes(o.Bytes())))
}
