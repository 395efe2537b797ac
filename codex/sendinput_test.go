package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
)

// TestSendInputNotAnAnswer: the receivers' states a send_input (or a
// close) reports are what the call found, not an answer to it: Codex
// 0.118's collab_agent_interaction_end carries the receiver's answer to
// its previous task (entireio/git-sync's rollouts, all 39 of them), which
// was the send_input's output — a reader took the old answer for the
// reply to the new input, and it showed twice. In a rollout the output is
// what the model saw (the function_call_output: the submission id, the
// previous status), in the live formats the receivers' thread ids; the
// states go to metadata. A wait's states stay its output.
func TestSendInputNotAnAnswer(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.118.0"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"send_input","arguments":"{\"target\":\"th2\",\"message\":\"Now the tests.\"}","call_id":"s1"}`),
		rolloutLine("event_msg", `{"type":"collab_agent_interaction_begin","call_id":"s1","sender_thread_id":"th1","receiver_thread_id":"th2","prompt":"Now the tests."}`),
		rolloutLine("event_msg", `{"type":"collab_agent_interaction_end","call_id":"s1","sender_thread_id":"th1","receiver_thread_id":"th2","prompt":"Now the tests.","status":{"completed":"The branch is clean."}}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"s1","output":"{\"submission_id\":\"sub-7\"}"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"close_agent","arguments":"{\"target\":\"th2\"}","call_id":"c1"}`),
		rolloutLine("event_msg", `{"type":"collab_close_end","call_id":"c1","sender_thread_id":"th1","receiver_thread_id":"th2","status":{"completed":"Tests pass."}}`),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1","last_agent_message":null}`),
	})
	got := results(evs)
	if p := got["s1"]; p.Output != `{"submission_id":"sub-7"}` || !strings.Contains(string(p.Metadata), `"agents_states":{"completed":"The branch is clean."}`) {
		t.Errorf("send_input result %q %s", p.Output, p.Metadata)
	}
	// The close's output never written: whom it reached.
	if p := got["c1"]; p.Output != "th2" || !strings.Contains(string(p.Metadata), "Tests pass.") {
		t.Errorf("close_agent result %q %s", p.Output, p.Metadata)
	}

	item := func(ev, tool, status, states string) string {
		return `{"method":"item/` + ev + `","params":{"threadId":"th1","turnId":"tu1","item":{"type":"collabAgentToolCall","id":"call_` + tool + `","tool":"` + tool + `","status":"` + status + `","senderThreadId":"th1","receiverThreadIds":["th2"],"prompt":"Now the tests.","agentsStates":` + states + `}}}`
	}
	old := `{"th2":{"status":"completed","message":"The branch is clean."}}`
	evs = run(t, codex.FormatAppServer, nil, []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
		item("started", "sendInput", "inProgress", "{}"),
		item("completed", "sendInput", "completed", old),
		item("started", "wait", "inProgress", "{}"),
		item("completed", "wait", "completed", `{"th2":{"status":"completed","message":"Tests pass."}}`),
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`,
	})
	got = results(evs)
	if p := got["call_sendInput"]; p.Output != "th2" || !strings.Contains(string(p.Metadata), "The branch is clean.") {
		t.Errorf("app-server send_input result %q %s", p.Output, p.Metadata)
	}
	if p := got["call_wait"]; p.Output != "Tests pass." {
		t.Errorf("app-server wait result %q %s", p.Output, p.Metadata)
	}
}
