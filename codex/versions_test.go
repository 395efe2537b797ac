package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestApprovalBeforeItem: in 0.100.0 (before ~0.13x) the command
// approval request comes before the command's item/started, and no
// serverRequest/resolved follows the answer. The request starts the call
// it guards (so the permission names it), the later item/started adds
// nothing, and without the host's answer the item's outcome resolves the
// permission: it ran → approved, declined → denied.
func TestApprovalBeforeItem(t *testing.T) {
	req := func(id, call, cmd string) string {
		return `{"method":"item/commandExecution/requestApproval","id":` + id + `,"params":{"threadId":"th1","turnId":"tu1","itemId":"` + call + `","reason":"ok?","command":"` + cmd + `","cwd":"/w","commandActions":[{"type":"unknown","command":"` + cmd + `"}]}}`
	}
	item := func(ev, call, cmd, status, out string) string {
		return `{"method":"item/` + ev + `","params":{"item":{"type":"commandExecution","id":"` + call + `","command":"` + cmd + `","cwd":"/w","processId":null,"status":"` + status + `","commandActions":[],"aggregatedOutput":` + out + `,"exitCode":null,"durationMs":null},"threadId":"th1","turnId":"tu1"}}`
	}
	lines := []string{thStarted, turnStarted,
		req("0", "c1", "ls"), item("started", "c1", "ls", "inProgress", "null"), item("completed", "c1", "ls", "completed", `"a\n"`),
		req("1", "c2", "rm -f a"), item("completed", "c2", "rm -f a", "declined", "null"),
		agentDone, turnDone}
	for _, withHost := range []bool{false, true} {
		in := lines
		if withHost {
			// The exchange: the host's answers follow the requests.
			in = append([]string{}, lines[:3]...)
			in = append(in, `in {"id":0,"result":{"decision":"accept"}}`)
			in = append(in, lines[3:6]...)
			in = append(in, `in {"id":1,"result":{"decision":"decline"}}`)
			in = append(in, lines[6:]...)
		}
		evs := run(t, codex.FormatAppServer, nil, in)
		calls := map[string]string{} // native id → item id
		starts := map[string]int{}
		for _, e := range golden.OfType(evs, universal.TypeItemStarted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
				calls[it.NativeItemID] = it.ItemID
				starts[it.NativeItemID]++
			}
		}
		if starts["c1"] != 1 || starts["c2"] != 1 {
			t.Errorf("host %v: call starts %v, want one each", withHost, starts)
		}
		want := map[string]universal.PermissionStatus{"0": universal.PermissionApproved, "1": universal.PermissionDenied}
		wantItem := map[string]string{"0": calls["c1"], "1": calls["c2"]}
		requested := 0
		for _, e := range evs {
			p, ok := e.Data.(*universal.Permission)
			if !ok {
				continue
			}
			if p.ItemID == "" || p.ItemID != wantItem[p.PermissionID] {
				t.Errorf("host %v: %s permission %s names item %q, want %q", withHost, e.Type, p.PermissionID, p.ItemID, wantItem[p.PermissionID])
			}
			switch e.Type {
			case universal.TypePermissionRequested:
				requested++
			case universal.TypePermissionResolved:
				if p.Status != want[p.PermissionID] {
					t.Errorf("host %v: permission %s %s, want %s (metadata %s)", withHost, p.PermissionID, p.Status, want[p.PermissionID], p.Metadata)
				}
				if inferred := strings.Contains(string(p.Metadata), `"inferred_from"`); inferred == withHost {
					t.Errorf("host %v: permission %s resolution metadata %s", withHost, p.PermissionID, p.Metadata)
				}
			}
		}
		if requested != 2 {
			t.Errorf("host %v: %d permissions requested, want 2", withHost, requested)
		}
	}
}

// TestFailedToolOutputs: outputs in which Codex says a call did not run
// make an error result in a rollout: "unsupported call: <name>" or
// "unsupported custom tool call: <name>" (no handler; observed 0.100.0,
// the freeform apply_patch of a model it does not know) and, in 0.130–0.145
// (observed), "exec_command failed for `<command>`: …" (a declined
// command), and in 0.171 (observed) "apply_patch verification failed: …"
// (a patch updating a file that does not exist). A patch that did not run
// has no file_ref part. The same words inside a command's output are not
// an error.
func TestFailedToolOutputs(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.100.0"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		rolloutLine("response_item", `{"type":"custom_tool_call","status":"completed","call_id":"p1","name":"apply_patch","input":"*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch"}`),
		rolloutLine("response_item", `{"type":"custom_tool_call_output","call_id":"p1","output":"unsupported custom tool call: apply_patch"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"frobnicate","arguments":"{}","call_id":"f1"}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"f1","output":"unsupported call: frobnicate"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat notes\"}","call_id":"e1"}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"e1","output":"Process exited with code 0\nOutput:\nunsupported call: x\n"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"mkdir b\"}","call_id":"d1"}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"d1","output":"exec_command failed for `+"`/bin/bash -lc 'mkdir b'`"+`: CreateProcess { message: \"Rejected(\\\"rejected by user\\\")\" }"}`),
		rolloutLine("response_item", `{"type":"custom_tool_call","status":"completed","call_id":"p2","name":"apply_patch","input":"*** Begin Patch\n*** Update File: logs/b.log\n@@\n-x\n+y\n*** End Patch"}`),
		rolloutLine("response_item", `{"type":"custom_tool_call_output","call_id":"p2","output":"apply_patch verification failed: Failed to read file to update /w/logs/b.log: No such file or directory (os error 2)"}`),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1","last_agent_message":null}`),
	})
	want := map[string]bool{"p1": true, "f1": true, "e1": false, "d1": true, "p2": true}
	got := results(evs)
	for id, isErr := range want {
		if p, ok := got[id]; !ok || p.IsError != isErr {
			t.Errorf("result of %s: %+v, want is_error %v", id, p, isErr)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d results, want %d", len(got), len(want))
	}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
			for _, p := range it.Content {
				if p.Type == universal.PartFileRef {
					t.Errorf("result of %s names a file it did not touch: %+v", it.Content[0].CallID, p)
				}
			}
		}
	}
}

// results returns the completed tool results' parts by call id.
func results(evs []universal.Event) map[string]universal.Part {
	out := map[string]universal.Part{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
			out[it.Content[0].CallID] = it.Content[0]
		}
	}
	return out
}

// TestOutputHeader: rollouts without item_completed command items (before
// ~0.16x; observed 0.100.0 and 0.145.0) carry a command's output only as
// the text the model saw, behind a header ("Exit code: N\nWall time: S
// seconds\nOutput:\n", or unified exec's "Chunk ID: …\nWall time: …\nProcess
// exited with code N\nOriginal token count: N\nOutput:\n"). The result's
// output is the command's output alone, as in the live formats, with the
// exit code, the wall time and the header in metadata. Text that does not
// start with such a header is kept whole.
func TestOutputHeader(t *testing.T) {
	call := func(id string) string {
		return rolloutLine("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"make\"}","call_id":"`+id+`"}`)
	}
	out := func(id, text string) string {
		return rolloutLine("response_item", `{"type":"function_call_output","call_id":"`+id+`","output":`+text+`}`)
	}
	evs := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.145.0"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		call("u1"), out("u1", `"Chunk ID: ab12cd\nWall time: 0.0514 seconds\nProcess exited with code 2\nOriginal token count: 3\nOutput:\nboom\n"`),
		call("s1"), out("s1", `"Exit code: 0\nWall time: 0.3 seconds\nOutput:\n"`),
		call("r1"), out("r1", `"Chunk ID: 01\nWall time: 10.0000 seconds\nProcess running with session ID 7\nOriginal token count: 1\nOutput:\nwaiting\n"`),
		call("p1"), out("p1", `"Output:\nnot a header\n"`),
		call("p2"), out("p2", `"Build log\nOutput:\nx\n"`),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1","last_agent_message":null}`),
	})
	type want struct {
		output, meta string
		isError      bool
	}
	wants := map[string]want{
		"u1": {"boom\n", `{"exit_code":2,"duration_ms":51,"output_header":"Chunk ID: ab12cd\nWall time: 0.0514 seconds\nProcess exited with code 2\nOriginal token count: 3"}`, true},
		"s1": {"", `{"exit_code":0,"duration_ms":300,"output_header":"Exit code: 0\nWall time: 0.3 seconds"}`, false},
		"r1": {"waiting\n", `{"duration_ms":10000,"output_header":"Chunk ID: 01\nWall time: 10.0000 seconds\nProcess running with session ID 7\nOriginal token count: 1"}`, false},
		"p1": {"Output:\nnot a header\n", ``, false},
		"p2": {"Build log\nOutput:\nx\n", ``, false},
	}
	got := results(evs)
	for id, w := range wants {
		p, ok := got[id]
		if !ok || p.Output != w.output || string(p.Metadata) != w.meta || p.IsError != w.isError {
			t.Errorf("result of %s (seen %v): output %q metadata %s is_error %v; want %q %s %v", id, ok, p.Output, p.Metadata, p.IsError, w.output, w.meta, w.isError)
		}
	}
	if len(got) != len(wants) {
		t.Errorf("%d results, want %d", len(got), len(wants))
	}
}

// TestCollabToolOutputs: rollouts before ~0.16x (observed 0.145.0) have no
// item_completed CollabAgentToolCall, only the multi-agent tools' JSON
// outputs. They read as the items show them: spawn_agent → the agent's
// thread id; wait_agent → what the sub-agents said (a plain-string state
// is only a status), with the states in metadata.
func TestCollabToolOutputs(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.145.0"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"spawn_agent","namespace":"multi_agent_v1","arguments":"{\"message\":\"count\"}","call_id":"s1"}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"s1","output":"{\"agent_id\":\"th2\",\"nickname\":\"Nash\"}"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"wait_agent","namespace":"multi_agent_v1","arguments":"{\"targets\":[\"th2\",\"th3\"]}","call_id":"w1"}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"w1","output":"{\"status\":{\"th2\":{\"completed\":\"3 lines.\"},\"th3\":\"running\"},\"timed_out\":true}"}`),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1","last_agent_message":null}`),
	})
	got := results(evs)
	if p := got["s1"]; p.Output != "th2" || string(p.Metadata) != `{"spawn_result":{"agent_id":"th2","nickname":"Nash"}}` {
		t.Errorf("spawn result %q %s", p.Output, p.Metadata)
	}
	if p := got["w1"]; p.Output != "3 lines." || string(p.Metadata) != `{"agents_states":{"th2":{"completed":"3 lines."},"th3":"running"},"timed_out":true}` {
		t.Errorf("wait result %q %s", p.Output, p.Metadata)
	}
}

// TestCollabWaitEventTimedOut: rollouts of 0.118–0.146 write a
// collab_waiting_end before the wait's function_call_output; a wait that
// timed out has an end with no statuses, and only the output says it timed
// out (entireio/git-sync's 0.118 rollouts: 39 of 103 waits). The result is
// the output's, the event's messages when the output has none. The
// event's agent_statuses and statuses hold the same states: each agent's
// message was shown twice.
func TestCollabWaitEventTimedOut(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.118.0"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"wait_agent","arguments":"{\"targets\":[\"th2\"],\"timeout_ms\":120000}","call_id":"w1"}`),
		rolloutLine("event_msg", `{"type":"collab_waiting_end","sender_thread_id":"th1","call_id":"w1","statuses":{}}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"w1","output":"{\"status\":{},\"timed_out\":true}"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"wait_agent","arguments":"{\"targets\":[\"th2\"]}","call_id":"w2"}`),
		rolloutLine("event_msg", `{"type":"collab_waiting_end","sender_thread_id":"th1","call_id":"w2","agent_statuses":[{"thread_id":"th2","agent_nickname":"Hooke","agent_role":"explorer","status":{"completed":"Two findings."}}],"statuses":{"th2":{"completed":"Two findings."}}}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"w2","output":"{\"status\":{\"th2\":{\"completed\":\"Two findings.\"}},\"timed_out\":false}"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"wait_agent","arguments":"{\"targets\":[\"th2\"]}","call_id":"w3"}`),
		rolloutLine("event_msg", `{"type":"collab_waiting_end","sender_thread_id":"th1","call_id":"w3","agent_statuses":[{"thread_id":"th2","agent_nickname":"Hooke","agent_role":"explorer","status":{"completed":"Done."}}],"statuses":{"th2":{"completed":"Done."}}}`),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1","last_agent_message":null}`),
	})
	got := results(evs)
	if len(got) != 3 {
		t.Errorf("%d results, want 3", len(got))
	}
	if p := got["w1"]; p.Output != "" || string(p.Metadata) != `{"agents_states":{},"timed_out":true}` {
		t.Errorf("timed-out wait %q %s", p.Output, p.Metadata)
	}
	if p := got["w2"]; p.Output != "Two findings." || string(p.Metadata) != `{"agents_states":{"th2":{"completed":"Two findings."}},"timed_out":false}` {
		t.Errorf("wait %q %s", p.Output, p.Metadata)
	}
	// The event alone (its output never written): agent_statuses and
	// statuses are the same states, said once.
	if p := got["w3"]; p.Output != "Done." {
		t.Errorf("wait without output %q %s", p.Output, p.Metadata)
	}
}

// rolloutLine is one rollout line of the {timestamp, type, payload}
// envelope.
func rolloutLine(typ, payload string) string {
	return `{"timestamp":"2026-01-01T00:00:00.000Z","type":"` + typ + `","payload":` + payload + `}`
}
