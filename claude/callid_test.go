package claude_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// callResults is golden.CallResults, a call_id two calls carry an error.
func callResults(t *testing.T, evs []universal.Event) []string {
	t.Helper()
	got, shared, _ := golden.CallResults(evs)
	if len(shared) > 0 {
		t.Errorf("call_ids of two calls: %q", shared)
	}
	return got
}

// TestCallIDReused: Claude Code pointed at a gateway that fronts a model
// numbering each response's calls from 0 (Kimi K2: functions.Bash:0)
// writes the same tool_use id for a call of every response. The later
// call (another API message) was taken for a repeated line of the first
// and dropped, and its result given to the first call. The n-th call with
// an id has call_id id#n (native_item_id stays the id), its result the
// same, across checkpoints too; a line repeated (same message) is still
// the same call.
func TestCallIDReused(t *testing.T) {
	call := func(uuid, parent, msgID, cmd string) string {
		return entryHead("assistant", uuid, parent) + fmt.Sprintf(`,"message":{"id":%q,"type":"message","role":"assistant","model":"kimi-k2","content":[{"type":"tool_use","id":"functions.Bash:0","name":"Bash","input":{"command":%q}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}}`, msgID, cmd)
	}
	result := func(uuid, parent, out string) string {
		return entryHead("user", uuid, parent) + fmt.Sprintf(`,"message":{"role":"user","content":[{"tool_use_id":"functions.Bash:0","type":"tool_result","content":%q,"is_error":false}]},"toolUseResult":{"stdout":%q,"stderr":"","interrupted":false}}`, out, out)
	}
	lines := []string{
		promptEntry("u1", "", "go"),
		call("a1", "u1", "msg_1", "ls"),
		call("a1", "u1", "msg_1", "ls"), // the same line again
		result("r1", "a1", "FIRST"),
		call("a2", "r1", "msg_2", "pwd"),
		result("r2", "a2", "SECOND"),
		call("a3", "r2", "msg_3", "id"),
		result("r3", "a3", "THIRD"),
		answerEntry("a4", "r3", "msg_4", "done"),
	}
	input := []byte(strings.Join(lines, "\n") + "\n")
	c := golden.Case{Format: claude.FormatTranscript, Framing: golden.FramingOf(claude.Formats(), claude.FormatTranscript), New: newFor(claude.FormatTranscript)}
	for _, every := range []int{0, 1} {
		evs, err := c.Translate(input, golden.Options(), nil, every)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall && it.NativeItemID != "functions.Bash:0" {
				t.Errorf("native_item_id %q", it.NativeItemID)
			}
		}
		got := callResults(t, evs)
		want := []string{"ls→FIRST (functions.Bash:0)", "pwd→SECOND (functions.Bash:0#2)", "id→THIRD (functions.Bash:0#3)"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("checkpoint every %d: results\n got %q\nwant %q", every, got, want)
		}
	}
}

// TestCallIDReusedStream: the same on stream-json lines; the later call
// was lost and its result shown under none.
func TestCallIDReusedStream(t *testing.T) {
	call := func(msgID, cmd string) string {
		return fmt.Sprintf(`{"type":"assistant","message":{"id":%q,"type":"message","role":"assistant","model":"kimi-k2","content":[{"type":"tool_use","id":"functions.Bash:0","name":"Bash","input":{"command":%q}}],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1"}`, msgID, cmd)
	}
	result := func(out string) string {
		return fmt.Sprintf(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"functions.Bash:0","type":"tool_result","content":%q,"is_error":false}]},"parent_tool_use_id":null,"session_id":"s1"}`, out)
	}
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","model":"kimi-k2","tools":["Bash"]}`,
		call("msg_1", "ls"), result("FIRST"),
		call("msg_2", "pwd"), result("SECOND"),
		`{"type":"assistant","message":{"id":"msg_3","type":"message","role":"assistant","model":"kimi-k2","content":[{"type":"text","text":"done"}],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1"}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"num_turns":3,"result":"done","session_id":"s1","usage":{"input_tokens":1,"output_tokens":1}}`,
	}
	input := []byte(strings.Join(lines, "\n") + "\n")
	c := golden.Case{Format: claude.FormatStreamJSON, Framing: golden.FramingOf(claude.Formats(), claude.FormatStreamJSON), New: newFor(claude.FormatStreamJSON)}
	for _, every := range []int{0, 1} {
		evs, err := c.Translate(input, golden.Options(), nil, every)
		if err != nil {
			t.Fatal(err)
		}
		got := callResults(t, evs)
		want := []string{"ls→FIRST (functions.Bash:0)", "pwd→SECOND (functions.Bash:0#2)"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("checkpoint every %d: results\n got %q\nwant %q", every, got, want)
		}
	}
}

// TestCallIDReusedPermission: a can_use_tool for the id of a call whose
// result came is about a later call with that id (a call asks before it
// runs), even when it comes before that call's line: it asked for the
// first call, already done, and the later call had no permission.
func TestCallIDReusedPermission(t *testing.T) {
	call := func(msgID, cmd string) string {
		return fmt.Sprintf(`{"type":"assistant","message":{"id":%q,"type":"message","role":"assistant","model":"kimi-k2","content":[{"type":"tool_use","id":"functions.Bash:0","name":"Bash","input":{"command":%q}}],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1"}`, msgID, cmd)
	}
	result := func(out string) string {
		return fmt.Sprintf(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"functions.Bash:0","type":"tool_result","content":%q,"is_error":false}]},"parent_tool_use_id":null,"session_id":"s1"}`, out)
	}
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","model":"kimi-k2","tools":["Bash"]}`,
		call("msg_1", "ls"), result("FIRST"),
		`{"type":"control_request","request_id":"r2","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"pwd"},"tool_use_id":"functions.Bash:0"}}`,
		call("msg_2", "pwd"), result("SECOND"),
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"num_turns":3,"result":"done","session_id":"s1","usage":{"input_tokens":1,"output_tokens":1}}`,
	}
	input := []byte(strings.Join(lines, "\n") + "\n")
	c := golden.Case{Format: claude.FormatStreamJSON, Framing: golden.FramingOf(claude.Formats(), claude.FormatStreamJSON), New: newFor(claude.FormatStreamJSON)}
	for _, every := range []int{0, 1} {
		evs, err := c.Translate(input, golden.Options(), nil, every)
		if err != nil {
			t.Fatal(err)
		}
		got := callResults(t, evs)
		want := []string{"ls→FIRST (functions.Bash:0)", "pwd→SECOND (functions.Bash:0#2)"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("checkpoint every %d: results\n got %q\nwant %q", every, got, want)
		}
		calls := map[string]string{} // item → call_id
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
				calls[it.ItemID] = it.Content[len(it.Content)-1].CallID
			}
		}
		perms := golden.OfType(evs, universal.TypePermissionRequested)
		if len(perms) != 1 {
			t.Fatalf("checkpoint every %d: %d permission requests, want 1", every, len(perms))
		}
		if p := perms[0].Data.(*universal.Permission); p.CallID != "functions.Bash:0#2" || calls[p.ItemID] != p.CallID {
			t.Errorf("checkpoint every %d: permission for item %s (call %q) call_id %q, want the second call's", every, p.ItemID, calls[p.ItemID], p.CallID)
		}
	}
}
