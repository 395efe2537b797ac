package acp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestV1PromptStopReasonError: an ACP v1 agent that answers a failed
// session/prompt with stopReason "error" (beyond v1's enum; the stop
// reason ACP v2 names ErrorStopReason), as DeepSeek Reasonix does when
// its run fails (an API error, a prompt too long, a SIGTERM:
// esengine/DeepSeek-Reasonix#8241 quotes the response
// {"stopReason":"error","transcriptPath":…}). The turn ended completed
// and the failure was lost; it fails now, with an error event, as a v2
// idle state of that stop reason does. After a session/cancel it is
// still an interruption.
func TestV1PromptStopReasonError(t *testing.T) {
	head := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"test","version":"1.0.0"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"reasonix","version":"dev"},"agentCapabilities":{}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"Say hello"}]}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hel"}}}}` + "\n"
	answer := `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"error","transcriptPath":"/w/t.jsonl"}}` + "\n"
	cancel := `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}` + "\n"
	for _, tc := range []struct {
		name   string
		in     string
		status universal.TurnStatus
		errs   int
	}{
		{"failed", head + answer, universal.TurnError, 1},
		{"after cancel", head + cancel + answer, universal.TurnInterrupted, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateChecked(t, tc.in)
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			ended := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != tc.status {
				t.Errorf("turn.ended %+v, want one, %s", ended, tc.status)
			}
			if errs := golden.OfType(evs, universal.TypeError); len(errs) != tc.errs {
				t.Errorf("%d errors, want %d", len(errs), tc.errs)
			}
		})
	}
}
