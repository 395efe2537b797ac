package acp

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// mSteering is the steering extension (claude-agent-acp, which advertises
// _meta.steering.supported in its initialize response; codex-acp; pi-acp's
// patch; hosts and agents that follow them): the host puts a message into
// the turn in flight, {sessionId, prompt: [ContentBlock] (a string in some
// hosts), idleBehavior?}, and the agent answers {outcome, reason?}:
// "injected" (the message joined the running turn), "startedNewTurn" (no
// turn ran: the message started one, which no prompt's response ends),
// "promptRequired" (no turn ran and the host asked for no new one:
// nothing was delivered).
const mSteering = "_session/steering"

// steered translates the agent's answer to the host's steering request
// (prompt, the request's prompt as JSON): a delivered message is the
// user's message where the answer comes, in the live turn, else in a turn
// it starts (ended as a turn the agent's updates open with no prompt
// waiting is); its text parts' metadata say "steering": the outcome. A
// message not delivered shows nowhere (a host that still wants it sends
// it as a prompt). It was dropped whole, as every extension request is,
// while the agent's replies to it showed.
func (t *Translator) steered(dst []universal.Event, in *input, prompt string, result jsonscan.Value) []universal.Event {
	outcome := result.Get("outcome").Str
	if outcome != "injected" && outcome != "startedNewTurn" {
		return dst
	}
	var parts []universal.Part
	switch p := gjson.Parse(prompt); p.Type {
	case gjson.String:
		if p.Str != "" {
			parts = append(parts, universal.Text(t.copy(p.Str)))
		}
	default:
		parts = t.blocks(nil, jsonscan.Wrap(p))
	}
	return t.injected(dst, in, parts, outcome)
}

// injected emits a message of the user's the host put into the turn in
// flight (parts; outcome says how, as the steering extension's answer
// does): where it comes, in the live turn, else in a turn it starts; its
// text parts' metadata say "steering": outcome.
func (t *Translator) injected(dst []universal.Event, in *input, parts []universal.Part, outcome string) []universal.Event {
	if len(parts) == 0 {
		return dst
	}
	var md jsonw.Object
	md.String("steering", outcome)
	for i := range parts {
		if parts[i].Type == universal.PartText {
			parts[i].Metadata = md.Bytes()
		}
	}
	if t.st.Turn.Open && !t.st.Turn.Replay {
		dst = t.closeUser(dst, in.raw)
	} else {
		dst = t.startTurn(dst, false, agent, in.raw)
	}
	return t.echoMessage(dst, parts, in.raw)
}
