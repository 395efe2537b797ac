package acp

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// copilotAgent is the agentInfo name of GitHub Copilot CLI's ACP server
// (copilot --acp).
const copilotAgent = "Copilot"

// copilotMeta is the member of an update's _meta in which Copilot CLI
// names the sub-agent that sent it (agentId).
const copilotMeta = "github.com/copilot"

// copilotLevels are the prefixes by which Copilot CLI's ACP server marks
// its session's own notices, which it sends as an agent_message_chunk of
// their own (its runtime's session info, warning and error events): "Info:
// " (a retry: "Request failed due to a transient API error.
// Retrying...", a cancel or a refused permission: "Operation cancelled by
// user", a file it wrote), "Warning: ", and "Error: " (the failure that
// ends the turn: "Error: 400 <the API's message>", after which the prompt
// is answered end_turn, with no usage). Seen in Copilot CLI 1.0.63's
// public transcripts and 1.0.102's recordings (testdata/acp/copilot-cli).
var copilotLevels = [...]struct{ prefix, level string }{
	{"Info: ", "info"},
	{"Warning: ", "warning"},
	{"Error: ", "error"},
}

// copilotNotice translates a chunk of Copilot CLI's main session whose
// text is one of its notices (copilotLevels), and reports whether it was
// one: not the model's text but a status item labelled notice (as the
// unstable notice update is), detail the text, {"level", "source":
// "copilot"} its metadata; an error is also the turn's error (an error
// event, its message the text after the prefix, the API's status in
// details when it starts with one), and the turn ends failed when the
// prompt's response ends it end_turn.
func (t *Translator) copilotNotice(dst []universal.Event, in *input, text string) ([]universal.Event, bool) {
	if t.st.Agent != copilotAgent || t.sub != nil || t.st.Turn.Replay {
		return dst, false
	}
	level, msg := "", ""
	for _, l := range copilotLevels {
		if strings.HasPrefix(text, l.prefix) {
			level, msg = l.level, text[len(l.prefix):]
			break
		}
	}
	if level == "" || strings.TrimSpace(msg) == "" {
		return dst, false
	}
	dst = t.work(dst, in.raw)
	dst = t.closeUser(dst, in.raw)
	if level == "error" {
		dst = t.closeMessages(dst, in.raw)
	}
	var md jsonw.Object
	md.String("level", level).String("source", "copilot")
	dst = t.status(dst, "notice", text, md.Bytes(), "", in.raw)
	if level == "error" {
		var details jsonw.Object
		details.String("source", "copilot")
		m := apiError(msg, &details)
		t.st.Turn.Failed = true
		dst = t.error(dst, m, "", details.Bytes(), in.raw)
	}
	return dst, true
}

// copilotParent returns the toolCallId of the task call a Copilot CLI
// sub-agent's update goes under, "" for none. Copilot names the sub-agent
// that made a call only by _meta["github.com/copilot"].agentId (its
// runtime's agent id, no parent call; Copilot CLI 1.0.102's s10-subagent
// recordings): the first update of an agentId goes under the running call
// that delegates (its task tool's rawInput {name, description, prompt,
// agent_type, mode}, see copilotSpawner), and the agent's later updates
// under the same call. The sub-agent's text chunks carry no agentId: they
// stay the session's.
//
// meta is the update's _meta["github.com/copilot"].
func (t *Translator) copilotParent(u, meta jsonscan.Value) string {
	aid := meta.Get("agentId")
	if aid.Type != gjson.String || aid.Str == "" {
		return ""
	}
	if id, ok := t.st.CopilotAgents[aid.Str]; ok {
		return id
	}
	p := t.copilotSpawner()
	if p == nil || p.ID == u.Get("toolCallId").Str {
		return ""
	}
	if t.st.CopilotAgents == nil {
		t.st.CopilotAgents = map[string]string{}
	}
	t.st.CopilotAgents[t.copy(aid.Str)] = p.ID
	p.CopilotAgent = true
	return p.ID
}

// copilotSpawner returns the call a new Copilot sub-agent goes under: the
// earliest running call of the session that delegates and holds no
// sub-agent yet, else spawner's. The model may delegate to several
// sub-agents in one response, their task calls running at once; nothing
// names the call an agentId belongs to, so sub-agents are matched to the
// calls in the order both came (spawner alone, the latest call, put
// every one of them under the last task call).
func (t *Translator) copilotSpawner() *tool {
	for _, id := range t.st.Order {
		p := t.st.Tools[id]
		if p == nil || p.Scope != "" || p.Done || p.CopilotAgent {
			continue
		}
		if p.UKind == universal.ToolTask || delegates(p.Input) {
			return p
		}
	}
	return t.spawner()
}
