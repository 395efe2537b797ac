package acp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestKiroToolContentChunk: Kiro CLI 2.19.1 streams a running command's
// output in _kiro/tools/content_chunk notifications {sessionId,
// toolCallId, content} between the call's in_progress and completed
// updates (an ACP client's proxy log, testdata/acp/kiro-cli/public/
// cyril-proxy-2.19.1). They were ignored as extension notifications, so
// a live reader saw no output until the command ended: each chunk is now
// a delta of the call's tool_result. A chunk of an unknown call, or one
// after the call ended, still adds nothing.
func TestKiroToolContentChunk(t *testing.T) {
	upd := func(u string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
	}
	chunk := func(id, text string) string {
		return `{"jsonrpc":"2.0","method":"_kiro/tools/content_chunk","params":{"sessionId":"s1","toolCallId":"` + id +
			`","content":{"type":"content","content":{"type":"text","text":"` + text + `"}}}}`
	}
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Run Command","kind":"execute","status":"pending","rawInput":{"command":"seq 2"}}`),
		chunk("c1", "early\\n"), // not running yet
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"in_progress"}`),
		chunk("c1", "1\\n"),
		chunk("other", "x\\n"),
		chunk("c1", "2\\n"),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"output":"1\n2\n","exitCode":0}}`),
		chunk("c1", "late\\n"),
	}, "\n"))
	var deltas []string
	for _, e := range golden.OfType(evs, universal.TypeItemDelta) {
		deltas = append(deltas, e.Data.(*universal.ItemDelta).Delta)
	}
	if got, want := fmt.Sprintf("%q", deltas), `["1\n" "2\n"]`; got != want {
		t.Errorf("deltas %s, want %s", got, want)
	}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult && it.Content[0].Output != "1\n2\n" {
			t.Errorf("result output %q, want %q", it.Content[0].Output, "1\n2\n")
		}
	}
}
