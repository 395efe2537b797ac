package acp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCallIDReused: an ACP agent that passes the model's call ids through
// as toolCallId (OpenCode's acp, Qwen Code, Goose) with a provider that
// numbers each response's calls from 0 (Kimi K2: functions.bash:0) sends
// the same toolCallId for a call of every response. A tool_call with the
// id of a call that completed in the same turn was dropped as a repeat,
// its result with it; one in a later turn was a call of its own but with
// the same call_id, so a reader linking results by call_id showed one
// result under both. The session's n-th call with an id has call_id id#n,
// its result and permission the same, across checkpoints too; updates of
// a call are still the call's.
func TestCallIDReused(t *testing.T) {
	call := func(cmd, out string) []string {
		return []string{
			fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"functions.bash:0","status":"pending","title":%q,"kind":"execute","rawInput":{"command":%q}}}}`, cmd, cmd),
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"functions.bash:0","status":"in_progress"}}}`,
			fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"functions.bash:0","status":"completed","content":[{"type":"content","content":{"type":"text","text":%q}}]}}}`, out),
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"functions.bash:0","status":"completed"}}}`,
		}
	}
	lines := []string{`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`}
	lines = append(lines, call("ls", "FIRST")...)
	lines = append(lines, call("pwd", "SECOND")...)
	lines = append(lines, `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
	third := call("id", "THIRD")
	lines = append(lines, third[0],
		`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"functions.bash:0"},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"}]}}`)
	lines = append(lines, third[1:]...)
	lines = append(lines, `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`)
	input := []byte(strings.Join(lines, "\n") + "\n")
	c := golden.Case{Format: acp.FormatAgent, Framing: framing(acp.FormatAgent), New: newTranslator(acp.FormatAgent)}
	for _, every := range []int{0, 1} {
		evs, err := c.Translate(input, golden.Options(), nil, every)
		if err != nil {
			t.Fatal(err)
		}
		got, shared, _ := golden.CallResults(evs)
		if len(shared) > 0 {
			t.Errorf("checkpoint every %d: call_ids of two calls: %q", every, shared)
		}
		want := []string{"ls→FIRST (functions.bash:0)", "pwd→SECOND (functions.bash:0#2)", "id→THIRD (functions.bash:0#3)"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("checkpoint every %d: results\n got %q\nwant %q", every, got, want)
		}
		var perms []string
		for _, e := range golden.OfType(evs, universal.TypePermissionRequested) {
			perms = append(perms, e.Data.(*universal.Permission).CallID)
		}
		if want := "functions.bash:0#3"; strings.Join(perms, " ") != want {
			t.Errorf("checkpoint every %d: permissions for %q, want %q", every, perms, want)
		}
	}
}
