package acp

import (
	"strings"

	"github.com/tidwall/gjson"
)

// collabNames are the names package codex gives Codex's collab tools
// (the app-server's CollabAgentTool, camelCase, in snake_case), so a
// call reads the same through codex-acp as in Codex's own outputs.
var collabNames = map[string]string{
	"spawnAgent": "spawn_agent", "sendInput": "send_input", "resumeAgent": "resume_agent",
	"wait": "wait", "closeAgent": "close_agent",
}

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
	r := gjson.GetMany(tl.Input, "senderThreadId", "receiverThreadIds", "agentsStates")
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
