package acp_test

import (
	"strings"
	"testing"
)

// TestOutputAfterFinalStatus: an update that brings output after its call's
// final status, within the turn (Cline has been seen to send a command's
// tool_call already completed, its output after), is kept whole as a
// tool_call_update_after_end status item; a repeat of the final status
// that brings nothing is not.
func TestOutputAfterFinalStatus(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","status":"completed","title":"seq 1 3","kind":"execute","rawInput":{"command":"seq 1 3"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","content":[{"type":"content","content":{"type":"text","text":"late-1\nlate-2\n"}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","rawOutput":{"exitCode":3}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"failed"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	evs := translateChecked(t, agent)
	if names := callNames(evs); len(names) != 1 {
		t.Errorf("calls %q, want one", names)
	}
	started, completed := statusItems(evs, "tool_call_update_after_end")
	if len(started) != 3 || len(completed) != 3 {
		t.Fatalf("%d/%d tool_call_update_after_end items, want 3 (content, rawOutput, another status; not the repeat)", len(started), len(completed))
	}
	for i, want := range []string{`late-1\nlate-2\n`, `"exitCode":3`, `"status":"failed"`} {
		p := completed[i].Content[0]
		if p.Detail != "t1" || !strings.Contains(string(p.Metadata), want) {
			t.Errorf("item %d: detail %q metadata %s, want t1 and %s", i, p.Detail, p.Metadata, want)
		}
	}
}
