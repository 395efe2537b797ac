package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestUnpromptedTurnAtEnd: updates the agent sends after its prompt's
// response (OpenCode 1.2.21 sent a turn's last text and tool results
// after end_turn, anomalyco/opencode#17505; claude-agent-acp's background
// tasks report so) open a turn no prompt of the host waits on. When the
// input ends there, that turn ended with the agent's own work: completed,
// and the session completed — it said "the session ended during a turn"
// and failed. A prompt still waiting for its response, or the agent's
// side alone (where a prompt that opened the turn is not seen), still
// ends the session in error.
func TestUnpromptedTurnAtEnd(t *testing.T) {
	in := func(s string) string { return `{"dir":"in","msg":` + s + `}` }
	out := func(s string) string { return `{"dir":"out","msg":` + s + `}` }
	update := func(u string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
	}
	start := []string{
		in(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`),
		out(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"OpenCode","version":"1.2.21"}}}`),
		in(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
		out(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`),
		in(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"Create a file"}]}}`),
		out(update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"I'll create it."}}`)),
		out(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`),
		out(update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Created t.txt."}}`)),
	}
	ending := func(evs []universal.Event) (universal.EndReason, []universal.TurnStatus) {
		var sts []universal.TurnStatus
		for _, ev := range golden.OfType(evs, universal.TypeTurnEnded) {
			sts = append(sts, ev.Data.(*universal.TurnEnded).Status)
		}
		end := golden.OfType(evs, universal.TypeSessionEnded)
		return end[len(end)-1].Data.(*universal.SessionEnded).Reason, sts
	}
	check := func(name string, evs []universal.Event, reason universal.EndReason, last universal.TurnStatus) {
		t.Helper()
		got, sts := ending(evs)
		if got != reason || len(sts) == 0 || sts[len(sts)-1] != last {
			t.Errorf("%s: session ended %s, turns %v; want %s, the last turn %s", name, got, sts, reason, last)
		}
		if texts := strings.Join(messageTexts(evs), "|"); !strings.Contains(texts, "Created t.txt.") {
			t.Errorf("%s: the late text is lost: %q", name, texts)
		}
	}
	check("exchange", translate(t, acp.FormatExchange, strings.Join(start, "\n")+"\n"), universal.EndCompleted, universal.TurnCompleted)

	// A second prompt waiting for its response: its turn was cut.
	waiting := append(append([]string(nil), start...),
		in(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"And another"}]}}`),
		out(update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Working"}}`)))
	evs := translate(t, acp.FormatExchange, strings.Join(waiting, "\n")+"\n")
	if got, sts := ending(evs); got != universal.EndError || sts[len(sts)-1] != universal.TurnInterrupted {
		t.Errorf("prompt waiting: session ended %s, turns %v; want error, the last turn interrupted", got, sts)
	}

	// The agent's side alone: the turn may be a prompt's not seen.
	var agentSide []string
	for _, l := range start {
		if strings.HasPrefix(l, `{"dir":"out"`) {
			agentSide = append(agentSide, strings.TrimSuffix(strings.TrimPrefix(l, `{"dir":"out","msg":`), `}`))
		}
	}
	check("agent", translate(t, acp.FormatAgent, strings.Join(agentSide, "\n")+"\n"), universal.EndError, universal.TurnInterrupted)
}
