package acp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestBothSidesWithoutDirections: a host's transcript of the connection,
// both sides one message a line and no direction (as a client's probe
// writes it: testdata/acp/oh-my-pi/public and opencode-acp/public, from
// yorch/pi-harness-delegate), read in the agent format. The host's
// requests are told by their methods (the schema's agentMethods: the host
// calls them on the agent) and the responses by the request of the other
// side they answer; it reads as the same exchange with directions. Before,
// initialize, session/new, session/prompt and session/load were
// agent.unparsed ("request from the agent") and the prompt was lost.
func TestBothSidesWithoutDirections(t *testing.T) {
	records := [][2]string{
		{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`},
		// The agent asks the host with the id the host used: both wait.
		{"out", `{"jsonrpc":"2.0","id":0,"method":"_kiro/auth/getAccessToken","params":{}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`},
		{"in", `{"jsonrpc":"2.0","id":0,"result":{"accessToken":"<redacted>"}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`},
		{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello"}}}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}],"toolCall":{"toolCallId":"c1","title":"ls","kind":"execute"}}}`},
		// Both wait on id 2 again: the answer with an outcome is the host's.
		{"in", `{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"selected","optionId":"no"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed"}}}`},
		{"in", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"cancelled"}}`},
	}
	want, got := bothWays(t, records)
	if u := golden.OfType(got, "agent.unparsed"); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v", u[0].Data)
	}
	if !bytes.Equal(encodeNoFormat(t, got), encodeNoFormat(t, want)) {
		t.Errorf("the log without directions reads differently:\n%s\nwant\n%s", golden.Encode(got), golden.Encode(want))
	}

	// The public logs: no host request is unparsed, the prompts are the
	// turns' user messages.
	for _, p := range []string{
		"oh-my-pi/public/pi-harness-delegate__amp-acp-17.2.9.agent.jsonl",
		"opencode-acp/public/pi-harness-delegate__opencode-acp-1.18.16.agent.jsonl",
	} {
		b, err := os.ReadFile(filepath.Join(testdata, p))
		if err != nil {
			t.Fatal(err)
		}
		evs := translate(t, acp.FormatAgent, string(b))
		if u := golden.OfType(evs, "agent.unparsed"); len(u) != 0 {
			t.Errorf("%s: agent.unparsed %+v", p, u[0].Data)
		}
		var users []string
		tr := golden.NewTranscript(evs)
		for i := range tr.Items {
			if it := &tr.Items[i]; it.Role == universal.RoleUser {
				users = append(users, golden.TextOf(it))
			}
		}
		// The prompt of the live turn, then the one the load replays.
		const prompt = "List the files in this directory and read README.md. Do not modify anything."
		if len(users) != 2 || users[0] != prompt || users[1] != prompt {
			t.Errorf("%s: user messages %q", p, users)
		}
	}
}

// encodeNoFormat encodes events without session.started's format, the
// one thing a log's format changes.
func encodeNoFormat(t *testing.T, evs []universal.Event) []byte {
	t.Helper()
	out := golden.Encode(evs)
	out = bytes.Replace(out, []byte(`"format":"agent"`), []byte(`"format":"?"`), 1)
	return bytes.Replace(out, []byte(`"format":"exchange"`), []byte(`"format":"?"`), 1)
}

// TestBothSidesIDCollision: the host's session/prompt (id 2) waits for the
// whole turn while the agent numbers its own requests from 0 too, so its
// fs and terminal requests share the prompt's id; the host's answers to
// them (file content, a terminal id, an error) are the host's, and only
// the stopReason answers the prompt. Before, the file content was read as
// the prompt's answer: the turn ended there, and the real answer opened a
// turn of its own (found by review).
func TestBothSidesIDCollision(t *testing.T) {
	records := [][2]string{
		{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"terminal":true}}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`},
		{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"read","kind":"read","status":"in_progress"}}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/w/README.md"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"result":{"content":"hello"}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c2","title":"ls","kind":"execute","status":"in_progress"}}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"method":"terminal/create","params":{"sessionId":"s1","command":"ls"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"result":{"terminalId":"t1"}}`},
		{"out", `{"jsonrpc":"2.0","id":3,"method":"terminal/output","params":{"sessionId":"s1","terminalId":"t1"}}`},
		{"in", `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"gone"}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"failed"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"done"}}}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`},
	}
	want, got := bothWays(t, records)
	if !bytes.Equal(encodeNoFormat(t, got), encodeNoFormat(t, want)) {
		t.Errorf("agent format without directions:\n%s\nwant, as the exchange reads it:\n%s", golden.Encode(got), golden.Encode(want))
	}
	if n := len(golden.OfType(want, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1", n)
	}
}

// bothWays translates records ({direction, message}) as an exchange with
// their directions and as the agent format without them.
func bothWays(t *testing.T, records [][2]string) (exchange, bare []universal.Event) {
	t.Helper()
	var ex, b strings.Builder
	for _, r := range records {
		ex.WriteString(`{"dir":"` + r[0] + `","msg":` + r[1] + "}\n")
		b.WriteString(r[1] + "\n")
	}
	return translate(t, acp.FormatExchange, ex.String()), translate(t, acp.FormatAgent, b.String())
}
