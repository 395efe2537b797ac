package codex_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// callResults is golden.CallResults, a call_id two calls carry an error and
// every call's native_item_id the model's id, call_0.
func callResults(t *testing.T, evs []universal.Event) []string {
	t.Helper()
	got, shared, natives := golden.CallResults(evs)
	if len(shared) > 0 {
		t.Errorf("call_ids of two calls: %q", shared)
	}
	for _, n := range natives {
		if n != "call_0" {
			t.Errorf("a call's native_item_id %q", n)
		}
	}
	return got
}

// TestCallIDReusedRollout: Codex with a chat-completions or OSS provider
// whose server numbers each response's calls from 0 (call_0) records the
// same call_id for a call of every response. The later call was taken for
// a copy of the first, whose result had come: it and its output were
// lost. A model call record (function_call) with the id of a call whose
// result came is another call: the n-th has call_id id#n, and the events
// and output that name the id are its own, also across checkpoints. The
// event_msg records of each call (exec_command_begin/end) are still the
// same call as its function_call.
func TestCallIDReusedRollout(t *testing.T) {
	lines := []string{
		`{"timestamp":"2025-09-01T00:00:00.000Z","type":"session_meta","payload":{"id":"s1","timestamp":"2025-09-01T00:00:00.000Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.30.0","model_provider":"ollama"}}`,
		`{"timestamp":"2025-09-01T00:00:01.000Z","type":"turn_context","payload":{"cwd":"/w","approval_policy":"never","sandbox_policy":{"mode":"danger-full-access"},"model":"qwen3-coder","summary":"auto"}}`,
		`{"timestamp":"2025-09-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}`,
		`{"timestamp":"2025-09-01T00:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"go","kind":"plain"}}`,
	}
	for _, c := range []struct{ cmd, out string }{{"ls", "FIRST"}, {"pwd", "SECOND"}, {"id", "THIRD"}} {
		lines = append(lines,
			fmt.Sprintf(`{"timestamp":"2025-09-01T00:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"%s\"]}","call_id":"call_0"}}`, c.cmd),
			fmt.Sprintf(`{"timestamp":"2025-09-01T00:00:02.000Z","type":"event_msg","payload":{"type":"exec_command_begin","call_id":"call_0","command":["bash","-lc","%s"],"cwd":"/w","parsed_cmd":[]}}`, c.cmd),
			fmt.Sprintf(`{"timestamp":"2025-09-01T00:00:02.000Z","type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_0","stdout":"%s","stderr":"","aggregated_output":"%s","exit_code":0,"duration":{"secs":0,"nanos":1},"formatted_output":"%s"}}`, c.out, c.out, c.out),
			fmt.Sprintf(`{"timestamp":"2025-09-01T00:00:02.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_0","output":"{\"output\":\"%s\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"}}`, c.out))
	}
	lines = append(lines,
		`{"timestamp":"2025-09-01T00:00:04.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}}`,
		`{"timestamp":"2025-09-01T00:00:04.000Z","type":"event_msg","payload":{"type":"agent_message","message":"done"}}`,
		`{"timestamp":"2025-09-01T00:00:04.000Z","type":"event_msg","payload":{"type":"task_complete","last_agent_message":"done"}}`)
	input := []byte(strings.Join(lines, "\n") + "\n")
	c := golden.Case{Format: codex.FormatRollout, Framing: framing(codex.FormatRollout), New: newFor(codex.FormatRollout)}
	for _, every := range []int{0, 1} {
		evs, err := c.Translate(input, golden.Options(), nil, every)
		if err != nil {
			t.Fatal(err)
		}
		got := callResults(t, evs)
		want := []string{"ls→FIRST (call_0)", "pwd→SECOND (call_0#2)", "id→THIRD (call_0#3)"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("checkpoint every %d: results\n got %q\nwant %q", every, got, want)
		}
	}
}

// TestCallIDReusedAppServer: the same on the app-server, whose tool items
// have the model's call id as their id: a later item/started with the id
// of an item that completed is another call (it was lost, its output
// with it), and a permission asked for it names its call_id.
func TestCallIDReusedAppServer(t *testing.T) {
	var lines []string
	for i, c := range []struct{ cmd, out string }{{"ls", "FIRST"}, {"pwd", "SECOND"}, {"id", "THIRD"}} {
		item := func(status, out string) string {
			return fmt.Sprintf(`{"type":"commandExecution","id":"call_0","command":%q,"cwd":"/w","status":%q,"aggregatedOutput":%s,"exitCode":%s}`, c.cmd, status, out, map[bool]string{true: "null", false: "0"}[out == "null"])
		}
		lines = append(lines,
			`{"method":"item/started","params":{"threadId":"th","turnId":"tu","item":`+item("inProgress", "null")+`}}`,
			fmt.Sprintf(`{"method":"item/commandExecution/requestApproval","id":%d,"params":{"threadId":"th","turnId":"tu","itemId":"call_0","command":%q}}`, i, c.cmd),
			`{"method":"item/completed","params":{"threadId":"th","turnId":"tu","item":`+item("completed", `"`+c.out+`"`)+`}}`)
	}
	input := []byte(strings.Join(lines, "\n") + "\n")
	c := golden.Case{Format: codex.FormatAppServer, Framing: framing(codex.FormatAppServer), New: newFor(codex.FormatAppServer)}
	for _, every := range []int{0, 1} {
		evs, err := c.Translate(input, golden.Options(), nil, every)
		if err != nil {
			t.Fatal(err)
		}
		got := callResults(t, evs)
		want := []string{"ls→FIRST (call_0)", "pwd→SECOND (call_0#2)", "id→THIRD (call_0#3)"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("checkpoint every %d: results\n got %q\nwant %q", every, got, want)
		}
		var perms []string
		for _, e := range golden.OfType(evs, universal.TypePermissionRequested) {
			perms = append(perms, e.Data.(*universal.Permission).CallID)
		}
		if want := "call_0 call_0#2 call_0#3"; strings.Join(perms, " ") != want {
			t.Errorf("checkpoint every %d: permissions for %q, want %q", every, perms, want)
		}
	}
}

// TestCallIDReusedLegacyExec: the same on the exec stream before 0.44,
// whose events carry the model's call id: a later exec_command_begin with
// the id of a command that ended is another call (it was lost, its output
// with it).
func TestCallIDReusedLegacyExec(t *testing.T) {
	lines := []string{
		`{"model":"qwen3-coder","provider":"ollama","approval":"never","sandbox":"read-only","workdir":"/w"}`,
		`{"prompt":"go"}`,
		`{"id":"0","msg":{"type":"session_configured","session_id":"0199aaaa-0000-7000-8000-000000000001","model":"qwen3-coder","history_log_id":0,"history_entry_count":0,"rollout_path":"/h/r.jsonl"}}`,
		`{"id":"1","msg":{"type":"task_started","model_context_window":32000}}`,
	}
	for _, c := range []struct{ cmd, out string }{{"ls", "FIRST"}, {"pwd", "SECOND"}, {"id", "THIRD"}} {
		lines = append(lines,
			fmt.Sprintf(`{"id":"1","msg":{"type":"exec_command_begin","call_id":"call_0","command":["bash","-lc","%s"],"cwd":"/w","parsed_cmd":[]}}`, c.cmd),
			fmt.Sprintf(`{"id":"1","msg":{"type":"exec_command_end","call_id":"call_0","stdout":"%s","stderr":"","aggregated_output":"%s","exit_code":0,"duration":{"secs":0,"nanos":1},"formatted_output":"%s"}}`, c.out, c.out, c.out))
	}
	lines = append(lines, `{"id":"1","msg":{"type":"agent_message","message":"done"}}`, `{"id":"1","msg":{"type":"task_complete","last_agent_message":"done"}}`)
	input := []byte(strings.Join(lines, "\n") + "\n")
	c := golden.Case{Format: codex.FormatExec, Framing: framing(codex.FormatExec), New: newFor(codex.FormatExec)}
	for _, every := range []int{0, 1} {
		evs, err := c.Translate(input, golden.Options(), nil, every)
		if err != nil {
			t.Fatal(err)
		}
		got := callResults(t, evs)
		want := []string{"ls→FIRST (call_0)", "pwd→SECOND (call_0#2)", "id→THIRD (call_0#3)"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("checkpoint every %d: results\n got %q\nwant %q", every, got, want)
		}
	}
}
