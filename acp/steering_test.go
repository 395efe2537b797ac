package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSteering: a message the host puts into the turn in flight with the
// steering extension (_session/steering {sessionId, prompt}, answered
// {outcome}: claude-agent-acp advertises _meta.steering.supported, as the
// public agent-shell capture of 0.70.0 shows; codex-acp and pi-acp answer
// it too) was dropped, as every extension request is: the transcript
// showed the agent's answer to a message it did not show. Delivered
// ("injected", or "startedNewTurn" when no turn ran), it is a user message
// where the answer comes; "promptRequired" delivered nothing. The lines
// are in the shape public ACP clients' docs and tests quote (a steered
// haiku answering STEERED_OK: alp82/curia's verification of
// claude-agent-acp 0.61.0), texts made up.
func TestSteering(t *testing.T) {
	in := func(s string) string { return `{"dir":"in","msg":` + s + `}` + "\n" }
	out := func(s string) string { return `{"dir":"out","msg":` + s + `}` + "\n" }
	chunk := func(text, mid string) string {
		return out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"},"messageId":"` + mid + `"}}}`)
	}
	steer := func(id, prompt string) string {
		return in(`{"jsonrpc":"2.0","id":` + id + `,"method":"_session/steering","params":{"sessionId":"s","prompt":` + prompt + `}}`)
	}
	start := in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`) +
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp","version":"0.70.0"},"_meta":{"steering":{"supported":true}}}}`) +
		in(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`) +
		out(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s"}}`) +
		in(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"write a haiku"}]}}`) +
		chunk("Autumn moonlight", "m1")
	tests := []struct {
		name, input string
		users       []string // the user messages' texts, in order
		turns       int
	}{
		{"injected", start + steer("4", `[{"type":"text","text":"stop, reply STEERED_OK"}]`) +
			out(`{"jsonrpc":"2.0","id":4,"result":{"outcome":"injected"}}`) + chunk("STEERED_OK", "m2") +
			out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`),
			[]string{"write a haiku", "stop, reply STEERED_OK"}, 1},
		{"a string prompt", start + steer("4", `"stop"`) + out(`{"jsonrpc":"2.0","id":4,"result":{"outcome":"injected"}}`) +
			out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`),
			[]string{"write a haiku", "stop"}, 1},
		{"started a new turn", start + out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`) +
			steer("4", `[{"type":"text","text":"and one more"}]`) + out(`{"jsonrpc":"2.0","id":4,"result":{"outcome":"startedNewTurn"}}`) +
			chunk("Winter", "m3"),
			[]string{"write a haiku", "and one more"}, 2},
		{"prompt required: not delivered", start + out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`) +
			steer("4", `[{"type":"text","text":"too late"}]`) + out(`{"jsonrpc":"2.0","id":4,"result":{"outcome":"promptRequired","reason":"noRunningTurn"}}`),
			[]string{"write a haiku"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(acp.FormatExchange), Framing: framing(acp.FormatExchange)}, []byte(tc.input))
			evs := translateExchange(t, tc.input)
			if err := universal.CheckStream(evs); err != nil {
				t.Fatal(err)
			}
			if vs := conformance.Check(evs); len(vs) != 0 {
				t.Fatal(vs[0])
			}
			var users []string
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.Kind == universal.KindMessage && it.Role == universal.RoleUser {
					var b strings.Builder
					for _, p := range it.Content {
						b.WriteString(p.Text)
					}
					users = append(users, b.String())
				}
			}
			if strings.Join(users, "|") != strings.Join(tc.users, "|") {
				t.Errorf("user messages %q, want %q", users, tc.users)
			}
			if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != tc.turns {
				t.Errorf("%d turns, want %d", n, tc.turns)
			}
		})
	}
}
