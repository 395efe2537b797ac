package amp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestStreamRunStatusResults: the stream-json printer of Amp
// 0.0.1790142911 (npm @ampcode/cli-linux-x64, its bundled code) prints a
// user message once, when it reaches the thread (message_added, not
// message_updated), and unlike 0.0.1767830505 it no longer waits until
// every tool run in it has finished. A run in any status but done, error,
// cancelled and rejected-by-user is printed as the result "Tool status:
// <run.status>" with is_error false, and no other result of that call
// follows. It was read as the call's successful output. Now a run that is
// in progress or queued is an open result (run_status in the metadata),
// which the turn's end fails; a run waiting for approval is a pending
// permission, as in a thread, which the approval error denies; a
// cancellation requested fails the result as cancelled. Lines in the
// shapes that code prints (ids and texts made up).
func TestStreamRunStatusResults(t *testing.T) {
	const sid = `"session_id":"T-019fa000-0000-7000-8000-000000000024"`
	head := []string{
		`{"type":"system","subtype":"init","cwd":"/home/dev/project",` + sid + `,"tools":["shell_command"],"mcp_servers":[],"agent_mode":"medium"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"run the tests"}]},"parent_tool_use_id":null,` + sid + `}`,
		`{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"TU-run1","name":"shell_command","input":{"command":"make test"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":4,"service_tier":"standard"}},"parent_tool_use_id":null,` + sid + `}`,
	}
	result := func(text string) string {
		return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"TU-run1","content":"` + text + `","is_error":false}]},"parent_tool_use_id":null,` + sid + `}`
	}
	success := `{"type":"result","subtype":"success","duration_ms":900,"is_error":false,"num_turns":1,"result":"",` + sid + `}`
	approval := `{"type":"result","subtype":"error_during_execution","duration_ms":900,"is_error":true,"num_turns":1,"error":"The following tools require user approval, which is not supported in stream JSON mode: shell_command",` + sid + `}`
	for _, tc := range []struct {
		name, text, end string
		status          universal.ItemStatus // the result item's; "" for none
		closedBy        universal.Source     // who completed it
		runStatus       string
		cancelled       bool
		denied          bool // a permission for the call, denied
	}{
		{name: "in-progress", text: "Tool status: in-progress", end: success,
			status: universal.StatusFailed, closedBy: universal.SourceDaemon, runStatus: "in-progress"},
		{name: "queued", text: "Tool status: queued", end: success,
			status: universal.StatusFailed, closedBy: universal.SourceDaemon, runStatus: "queued"},
		{name: "cancellation-requested", text: "Tool status: cancellation-requested", end: success,
			status: universal.StatusFailed, closedBy: universal.SourceAgent, runStatus: "cancellation-requested", cancelled: true},
		{name: "blocked-on-user", text: "Tool status: blocked-on-user", end: approval, denied: true},
		{name: "tool output", text: "all 12 tests passed", end: success,
			status: universal.StatusCompleted, closedBy: universal.SourceAgent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append(append([]string{}, head...), result(tc.text), tc.end)
			evs := run(t, amp.FormatStreamJSON, lines(in...), nil)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("unparsed %+v", u)
			}
			var res *universal.Item
			var by universal.Source
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := &ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
					res, by = it, ev.Source
				}
			}
			if tc.status == "" {
				if res != nil {
					t.Errorf("result item %+v, want none", res)
				}
			} else {
				if res == nil {
					t.Fatal("no result item")
				}
				p := res.Content[0]
				if res.Status != tc.status || by != tc.closedBy || p.Output != tc.text {
					t.Errorf("result %s by %s, output %q; want %s by %s", res.Status, by, p.Output, tc.status, tc.closedBy)
				}
				md := string(p.Metadata)
				if got := strings.Contains(md, `"run_status":"`+tc.runStatus+`"`); got != (tc.runStatus != "") {
					t.Errorf("metadata %s, want run_status %q", md, tc.runStatus)
				}
				if got := strings.Contains(md, `"cancelled":true`); got != tc.cancelled {
					t.Errorf("metadata %s, cancelled %v", md, tc.cancelled)
				}
			}
			req := golden.OfType(evs, universal.TypePermissionRequested)
			resd := golden.OfType(evs, universal.TypePermissionResolved)
			if !tc.denied {
				if len(req)+len(resd) != 0 {
					t.Errorf("permissions %+v %+v, want none", req, resd)
				}
				return
			}
			if len(req) != 1 || len(resd) != 1 {
				t.Fatalf("permissions %+v %+v, want one requested and resolved", req, resd)
			}
			rq, rs := req[0].Data.(*universal.Permission), resd[0].Data.(*universal.Permission)
			if rq.CallID != "TU-run1" || rq.ItemID == "" || req[0].Source != universal.SourceAgent {
				t.Errorf("requested %+v from %s, want the call's, from the agent", rq, req[0].Source)
			}
			if rs.PermissionID != rq.PermissionID || rs.Status != universal.PermissionDenied {
				t.Errorf("resolved %+v", rs)
			}
		})
	}
}

// TestThreadUserInput: Amp's thread message schema (npm
// @ampcode/cli-linux-x64 0.0.1790142911, its bundled code) gives a
// tool_result block userInput {accepted, askAnswers, denyFeedback}: the
// user's answer to the call's approval request, as the client sends it
// (client_tool_approval_response {toolCallId, accepted, input {askAnswers,
// denyFeedback}}). It was ignored: an approved call showed no approval,
// the answers and the feedback were lost. Now an answer is
// permission.requested and permission.resolved (approved or denied) before
// the result, with ask_answers and reason in the resolution's metadata; a
// run rejected-by-user keeps its one denial. A document in the shapes of
// that schema (ids and texts made up).
func TestThreadUserInput(t *testing.T) {
	doc := func(result string) string {
		return `{"v":300,"id":"T-019fa000-0000-7000-8000-0000000000a4","created":1795471986820,"agentMode":"medium","messages":[` +
			`{"role":"user","messageId":0,"content":[{"type":"text","text":"clean the build"}],"meta":{"sentAt":1795471986900}},` +
			`{"role":"assistant","messageId":1,"content":[{"type":"tool_use","complete":true,"id":"TU-ask1","name":"shell_command","input":{"command":"rm -rf build"}}],"state":{"type":"complete","stopReason":"tool_use"}},` +
			`{"role":"user","messageId":2,"content":[` + result + `]},` +
			`{"role":"assistant","messageId":3,"content":[{"type":"text","text":"Done."}],"state":{"type":"complete","stopReason":"end_turn"}}]}`
	}
	for _, tc := range []struct {
		name, result string
		want         []universal.PermissionStatus // the resolutions, in order
		reason, ask  string                       // in the resolution's metadata
		unparsed     bool
	}{
		{name: "approved with answers",
			result: `{"type":"tool_result","toolUseID":"TU-ask1","run":{"status":"done","result":{"output":"","exitCode":0}},"userInput":{"accepted":true,"askAnswers":{"Delete build/?":"yes"}}}`,
			want:   []universal.PermissionStatus{universal.PermissionApproved}, ask: `"ask_answers":{"Delete build/?":"yes"}`},
		{name: "refused, run cancelled",
			result: `{"type":"tool_result","toolUseID":"TU-ask1","run":{"status":"cancelled","reason":"user denied"},"userInput":{"accepted":false,"denyFeedback":"keep the build"}}`,
			want:   []universal.PermissionStatus{universal.PermissionDenied}, reason: `"reason":"keep the build"`},
		{name: "refused, run rejected-by-user",
			result: `{"type":"tool_result","toolUseID":"TU-ask1","run":{"status":"rejected-by-user","reason":"keep the build"},"userInput":{"accepted":false,"denyFeedback":"keep the build"}}`,
			want:   []universal.PermissionStatus{universal.PermissionDenied}, reason: `Tool execution rejected by user: keep the build`},
		{name: "no userInput",
			result: `{"type":"tool_result","toolUseID":"TU-ask1","run":{"status":"done","result":{"output":"","exitCode":0}}}`},
		{name: "userInput without accepted",
			result:   `{"type":"tool_result","toolUseID":"TU-ask1","run":{"status":"done","result":{"output":"","exitCode":0}},"userInput":{"denyFeedback":"x"}}`,
			unparsed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := run(t, amp.FormatThread, lines(doc(tc.result)), nil)
			if u := golden.OfType(evs, universal.TypeUnparsed); (len(u) != 0) != tc.unparsed {
				t.Fatalf("unparsed %+v, want %v", u, tc.unparsed)
			}
			req := golden.OfType(evs, universal.TypePermissionRequested)
			res := golden.OfType(evs, universal.TypePermissionResolved)
			if len(req) != len(tc.want) || len(res) != len(tc.want) {
				t.Fatalf("%d requested, %d resolved, want %d", len(req), len(res), len(tc.want))
			}
			resultSeq := int64(0)
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				if ev.Data.(*universal.ItemSnapshot).Item.Kind == universal.KindToolResult {
					resultSeq = ev.Sequence
				}
			}
			for i, ev := range res {
				p := ev.Data.(*universal.Permission)
				if p.Status != tc.want[i] || p.CallID != "TU-ask1" || p.ItemID == "" {
					t.Errorf("resolved %+v", p)
				}
				if ev.Sequence > resultSeq {
					t.Errorf("resolved at %d, after the result at %d", ev.Sequence, resultSeq)
				}
				md := string(p.Metadata)
				if !strings.Contains(md, tc.reason) || !strings.Contains(md, tc.ask) {
					t.Errorf("metadata %s, want %s and %s", md, tc.reason, tc.ask)
				}
			}
		})
	}
}
