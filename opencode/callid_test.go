package opencode_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCallIDReusedByLaterResponse: some providers number the calls of each
// response from 0 (Kimi K2 through OpenCode 1.14: callID
// "functions.bash:0" in one response and again in a later one, each a tool
// part of its own). Each call keeps its own result: the later calls get a
// call_id made unique (id#n for the session's n-th call with it), so a consumer that links a
// call to its result by call_id (reduce) finds the right one, and a
// permission asked for the newest call names that call.
func TestCallIDReusedByLaterResponse(t *testing.T) {
	tool := func(pid, cmd, out string) string {
		return fmt.Sprintf(`{"id":%q,"type":"tool","tool":"bash","callID":"functions.bash:0","state":{"status":"completed","input":{"command":%q},"output":%q,"metadata":{"exit":0},"title":%q}}`, pid, cmd, out, cmd)
	}
	msg := func(mid, parent, finish string, parts ...string) string {
		s := fmt.Sprintf(`{"info":{"id":%q,"sessionID":"ses_1","role":"assistant","parentID":%q,"modelID":"kimi-k2","providerID":"moonshotai","finish":%q,"time":{"created":2,"completed":3}},"parts":[`, mid, parent, finish)
		for i, p := range parts {
			if i > 0 {
				s += ","
			}
			s += p
		}
		return s + "]}"
	}
	in := `{"info":{"id":"ses_1","version":"1.14.28","directory":"/w","time":{"created":1}},"messages":[` +
		`{"info":{"id":"msg_u","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[{"id":"prt_u","type":"text","text":"update"}]},` +
		msg("msg_a", "msg_u", "tool-calls", tool("prt_a", "ncu -u", "Upgrading package.json")) + "," +
		msg("msg_b", "msg_u", "tool-calls", tool("prt_b", "bun tsc -b", "(no output)")) + "," +
		msg("msg_c", "msg_u", "stop", `{"id":"prt_c","type":"text","text":"done"}`) + `]}`
	evs := run(t, opencode.FormatMessages, in)
	noUnparsed(t, evs)
	var s reduce.Session
	if _, err := s.ApplyAll(nil, evs); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"ncu -u": "Upgrading package.json", "bun tsc -b": "(no output)"}
	ids := map[string]bool{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindToolCall {
			continue
		}
		p := it.Content[0]
		if ids[p.CallID] {
			t.Errorf("call_id %q given to two calls", p.CallID)
		}
		ids[p.CallID] = true
		cmd := p.ToolInput.Command
		r := s.ToolResult(p.CallID)
		if r == nil {
			t.Errorf("call %q (%s): no result", cmd, p.CallID)
			continue
		}
		if got := r.Item.Content[0].Output; got != want[cmd] {
			t.Errorf("call %q (%s): result %q, want %q", cmd, p.CallID, got, want[cmd])
		}
	}
	if len(ids) != 2 || !ids["functions.bash:0"] || !ids["functions.bash:0#2"] {
		t.Errorf("call ids %v, want the native one and the second call's #2 (as every translator)", ids)
	}
}

// TestCallIDReusedPermission: on the event stream, a permission asked for
// a call whose id an earlier response of the session used names the newest
// call and its call_id.
func TestCallIDReusedPermission(t *testing.T) {
	part := func(mid, pid, status string) string {
		return fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":%q,"messageID":%q,"sessionID":"ses_1","type":"tool","tool":"bash","callID":"functions.bash:0","state":{"status":%q,"input":{"command":"ls"}%s}}}}`,
			pid, mid, status, map[bool]string{true: `,"output":"x","metadata":{"exit":0}`}[status == "completed"])
	}
	in := []string{
		`{"type":"message.updated","properties":{"info":{"id":"msg_a","sessionID":"ses_1","role":"assistant","time":{"created":1}}}}`,
		part("msg_a", "prt_a", "completed"),
		`{"type":"message.updated","properties":{"info":{"id":"msg_a","sessionID":"ses_1","role":"assistant","finish":"tool-calls","time":{"created":1,"completed":2}}}}`,
		`{"type":"message.updated","properties":{"info":{"id":"msg_b","sessionID":"ses_1","role":"assistant","time":{"created":3}}}}`,
		part("msg_b", "prt_b", "running"),
		`{"type":"permission.asked","properties":{"id":"per_1","sessionID":"ses_1","permission":"bash","patterns":["ls"],"always":[],"metadata":{},"tool":{"messageID":"msg_b","callID":"functions.bash:0"}}}`,
	}
	evs := run(t, opencode.FormatEventLines, strings.Join(in, "\n")+"\n")
	noUnparsed(t, evs)
	var callB universal.Item
	for _, e := range golden.OfType(evs, universal.TypeItemStarted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall && it.NativeItemID == "prt_b" {
			callB = it
		}
	}
	perms := golden.OfType(evs, universal.TypePermissionRequested)
	if len(perms) != 1 {
		t.Fatalf("%d permission requests, want 1", len(perms))
	}
	p := perms[0].Data.(*universal.Permission)
	if p.ItemID != callB.ItemID || p.CallID != callB.Content[0].CallID || p.CallID == "functions.bash:0" {
		t.Errorf("permission for item %s call %q, want the second call %s %q", p.ItemID, p.CallID, callB.ItemID, callB.Content[0].CallID)
	}
}
