package acp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
)

// TestKimiArgumentStream: Kimi Code (kimi acp 0.26) streams a call's
// arguments as the text of in_progress updates ({"pa, {"path":"out, …)
// before it sends them as rawInput beside the whole text, then the
// result (frames a public project quotes from live captures). The call's
// arguments are the rawInput and its output the result alone; the call
// was completed at the first partial with arguments {}, the rawInput
// dropped and the partial JSON streamed as output.
func TestKimiArgumentStream(t *testing.T) {
	const id = `"toolCallId":"0:tool_lDiS"`
	text := func(s string) string {
		return `"content":[{"type":"content","content":{"type":"text","text":` + s + `}}]`
	}
	// The rawInput as Kimi writes it, and with its members in another
	// order than the streamed text's (a log re-serialized with sorted
	// keys): the same arguments, no output.
	for _, rawInput := range []string{`{"path":"out.txt","content":"papaya"}`, `{"content":"papaya","path":"out.txt"}`} {
		evs := translateChecked(t, subagentSession(
			`root-1 {"sessionUpdate":"tool_call",`+id+`,"title":"Write","kind":"edit","status":"pending",`+text(`""`)+`}`,
			`root-1 {"sessionUpdate":"tool_call_update",`+id+`,"status":"in_progress",`+text(`"{\"pa"`)+`}`,
			`root-1 {"sessionUpdate":"tool_call_update",`+id+`,"status":"in_progress",`+text(`"{\"path\":\"out.txt\",\"content\":\"pap"`)+`}`,
			`root-1 {"sessionUpdate":"tool_call_update",`+id+`,"title":"Writing out.txt","kind":"edit","status":"in_progress","rawInput":`+rawInput+`,`+text(`"{\"path\":\"out.txt\",\"content\":\"papaya\"}"`)+`}`,
			`root-1 {"sessionUpdate":"tool_call_update",`+id+`,"status":"completed",`+text(`"Wrote 6 bytes to out.txt"`)+`,"rawOutput":"Wrote 6 bytes to out.txt"}`,
		))
		var args, output string
		for _, it := range completedItems(t, evs) {
			switch it.Kind {
			case universal.KindToolCall:
				args = it.Content[0].Arguments
			case universal.KindToolResult:
				output = it.Content[0].Output
			}
		}
		if !jsonscan.Same(args, rawInput) || output != "Wrote 6 bytes to out.txt" {
			t.Errorf("rawInput %s: arguments %s, output %q", rawInput, args, output)
		}
		if n := len(golden.OfType(evs, universal.TypeItemDelta)); n != 0 {
			t.Errorf("rawInput %s: %d deltas of output, want none (the arguments are no output)", rawInput, n)
		}
	}
}
