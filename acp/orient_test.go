package acp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
)

// TestHostSideRecorder: a recorder on the host's side writes "out" for
// what the host sent (Kiro CLI's KIRO_ACP_RECORD_PATH, in
// testdata/acp/kiro-cli/public/kiro-recorder-*). The translator tells
// from the first message only one side sends (here the host's
// initialize) and reads the exchange as the same exchange recorded the
// other way round; before, every update was "a notification from the
// host".
func TestHostSideRecorder(t *testing.T) {
	records := [][2]string{
		{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"method":"_kiro/auth/getAccessToken","params":{}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`},
		{"in", `{"jsonrpc":"2.0","id":0,"result":{"accessToken":"<redacted>"}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`},
		{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello"}}}}`},
		{"out", `{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}],"toolCall":{"toolCallId":"c1","title":"ls","kind":"execute"}}}`},
		{"in", `{"jsonrpc":"2.0","id":7,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`},
	}
	exchange := func(flip bool) string {
		var b strings.Builder
		for i, r := range records {
			dir := r[0]
			if flip {
				dir = map[string]string{"in": "out", "out": "in"}[dir]
			}
			b.WriteString(`{"ts":` + string(rune('1'+i%9)) + `000000000000,"dir":"` + dir + `","msg":` + r[1] + "}\n")
		}
		return b.String()
	}
	ours := translate(t, acp.FormatExchange, exchange(false))
	theirs := translate(t, acp.FormatExchange, exchange(true))
	if u := golden.OfType(theirs, "agent.unparsed"); len(u) != 0 {
		t.Fatalf("host-side recording: agent.unparsed %+v", u[0].Data)
	}
	if !bytes.Equal(golden.Encode(ours), golden.Encode(theirs)) {
		t.Errorf("the host-side recording reads differently:\n%s\nwant\n%s", golden.Encode(theirs), golden.Encode(ours))
	}
	if n := len(golden.NewTranscript(theirs).Items); n < 2 {
		t.Errorf("%d items, want the prompt and the answer at least", n)
	}
}
