package acp

import (
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// collabNames are the names package codex gives Codex's collab tools
// (the app-server's CollabAgentTool, camelCase, in snake_case), so a
// call reads the same through codex-acp as in Codex's own outputs.
var collabNames = map[string]string{
	"spawnAgent": "spawn_agent", "sendInput": "send_input", "resumeAgent": "resume_agent",
	"wait": "wait", "closeAgent": "close_agent",
}

// collabKeys are the members of a call's input that codexCollab reads.
var collabKeys = [...]string{"senderThreadId", "receiverThreadIds", "agentsStates"}

// codexCollab reports whether a call is a Codex collab tool call (a
// sub-agent's spawn, input, wait, resume or close) as
// @agentclientprotocol/codex-acp forwards it: kind other, the tool as
// title, rawInput {prompt, senderThreadId, receiverThreadIds,
// agentsStates, model, reasoningEffort, status} and, in later versions,
// _meta.codex.collaboration {tool, senderThreadId, receiverThreadIds}
// (src/CodexToolCallMapper.ts createCollabAgentToolCallUpdate). The
// update that completes it carries no content and no rawOutput: what the
// sub-agents said is in its rawInput's agentsStates.
func codexCollab(tl *tool) bool {
	if gjson.Get(tl.Meta, "codex.collaboration").IsObject() {
		return true
	}
	if tl.Input == "" || tl.Input[0] != '{' {
		return false
	}
	var r [3]gjson.Result
	firstMembers(tl.Input, collabKeys[:], r[:])
	return r[0].Type == gjson.String && r[1].IsArray() && r[2].IsObject()
}

// collabName returns the name of a Codex collab call: its tool
// (_meta.codex.collaboration.tool, else the title) in snake_case; ""
// when the tool is not one of the collab tools.
func collabName(tl *tool) string {
	tool := gjson.Get(tl.Meta, "codex.collaboration.tool").Str
	if tool == "" {
		tool = tl.Title
	}
	return collabNames[tool]
}

// collabOutput returns a completed Codex collab call's output, as
// package codex gives it: what the sub-agents said (each state's
// message, in the order agentsStates lists them), else the threads it
// reached (receiverThreadIds, a line each); and the agentsStates object
// for the result's metadata ("" when there is none).
func collabOutput(input string) (out, states string) {
	r := gjson.GetMany(input, "agentsStates", "receiverThreadIds")
	var msgs []string
	r[0].ForEach(func(_, s gjson.Result) bool {
		if m := s.Get("message"); m.Type == gjson.String && m.Str != "" {
			msgs = append(msgs, m.Str)
		}
		return true
	})
	if len(msgs) == 0 {
		r[1].ForEach(func(_, id gjson.Result) bool {
			if id.Type == gjson.String {
				msgs = append(msgs, id.Str)
			}
			return true
		})
	}
	if r[0].IsObject() {
		states = r[0].Raw
	}
	return strings.Join(msgs, "\n"), states
}

// maxActivities bounds the sub-agent activities remembered (see
// subagentActivity): an activity's completion follows its start at once.
const maxActivities = 64

// codexActivity reports whether a call is @agentclientprotocol/codex-acp's
// forwarding of a multi-agent v2 subAgentActivity item of Codex's
// app-server (a sub-agent started, interacted with, interrupted or, in
// 2.x, completed): a tool call of kind other titled "Start subagent
// <name>", rawInput {agentThreadId, agentPath, activityKind} on its every
// update, and in 1.x _meta.codex.subagent {threadId, path, activity}
// (src/CodexToolCallMapper.ts createSubAgentActivityUpdate; 2.6.0's
// SubagentActivityReporter sends a client that is not JetBrains AIR no
// _meta, AIR _meta.jetbrains.air.subagent: true).
func codexActivity(u jsonscan.Value) bool {
	if u.Sub("_meta.codex.subagent").IsObject() {
		return true
	}
	r := u.Sub("rawInput")
	return r.Sub("agentThreadId").Type() == gjson.String && r.Sub("agentPath").Type() == gjson.String &&
		r.Sub("activityKind").Type() == gjson.String
}

// subagentActivity translates codex-acp's sub-agent activity call (see
// codexActivity) as package codex gives the item it forwards: no call the
// model made but a completed status item labelled sub_agent_<activity>
// (sub_agent_started, sub_agent_interacted, sub_agent_interrupted,
// sub_agent_completed), detail the agent's path, agent_thread_id in its
// metadata, native id the toolCallId. It is shown once, at its first
// update (the adapter sends it in progress, then completed with the same
// facts; a loaded session's history, completed only): a later update of
// it that repeats it adds nothing, and one that brings something else
// (output, a failure) is kept whole, as an update after a call's end is.
func (t *Translator) subagentActivity(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	id := u.Get("toolCallId").String()
	if slices.Contains(t.st.Activities, id) {
		switch u.Get("status").Str {
		case "", "pending", "in_progress", "completed":
			if !bringsOutput(u, u.Get("status").Str) { // its status aside
				return dst
			}
		}
		return t.status(dst, "tool_call_update_after_end", id, t.rawObject("update", u), "", in.raw)
	}
	if len(t.st.Activities) >= maxActivities {
		t.st.Activities = slices.Delete(t.st.Activities, 0, 1)
	}
	t.st.Activities = append(t.st.Activities, t.copy(id))
	// It ends the response's text, as a call does.
	dst, _, sc := t.callArrives(dst, in, u)
	sa, in2 := u.Sub("_meta.codex.subagent"), u.Sub("rawInput")
	pick := func(k, raw string) string {
		if v := sa.Sub(k); v.Type() == gjson.String {
			return v.Str()
		}
		return in2.Sub(raw).Str()
	}
	activity := pick("activity", "activityKind")
	if activity == "" {
		activity = "activity"
	}
	var md jsonw.Object
	md.OptString("agent_thread_id", pick("threadId", "agentThreadId"))
	if st := u.Get("status").Str; st == "failed" || st == "cancelled" {
		md.String("status", st)
	}
	p := universal.Part{Type: universal.PartStatus, Label: t.copy("sub_agent_" + activity), Detail: t.copy(pick("path", "agentPath"))}
	if md.Len() > 0 {
		p.Metadata = md.Bytes()
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:       t.w.NewItemID(),
		NativeItemID: t.copy(id),
		ParentID:     sc.Parent,
		Kind:         universal.KindStatus,
		Content:      []universal.Part{p},
	}, agent, in.raw)
}
