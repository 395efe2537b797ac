package codex_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// activityItems returns the sub-agent status items of evs as
// "label detail metadata" and the item id of each.
func activityItems(evs []universal.Event) (labels, ids []string) {
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus && strings.HasPrefix(it.Content[0].Label, "sub_agent_") {
			labels = append(labels, it.Content[0].Label+" "+it.Content[0].Detail+" "+string(it.Content[0].Metadata))
			ids = append(ids, it.ItemID)
		}
	}
	return labels, ids
}

// TestRolloutSubAgentActivityItems: a multi-agent v2 rollout of Codex
// 0.157.1 (a public capture, parent then child) names its sub-agent only
// in item_completed SubAgentActivity items (the started one's id is the
// spawn_agent call id; no sub_agent_activity event, which 0.14x wrote, and
// the spawn's output is {task_name}). They were ignored as copies of that
// event: the sub-agent's start and end were lost, and the child's items,
// read after the parent's, were top-level items of the session instead of
// the spawn call's. A file with both forms shows each activity once. The
// wait's result is its function_call_output ({message, timed_out}), which
// followed the item that completed it empty.
func TestRolloutSubAgentActivityItems(t *testing.T) {
	b, err := os.ReadFile(public + "/rollout/shipyard-0.157.1-subagent-v2.parent-then-child.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	evs := run(t, codex.FormatRollout, nil, strings.Split(strings.TrimSpace(string(b)), "\n"))
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	labels, _ := activityItems(evs)
	want := []string{
		`sub_agent_started /root/gsd_task {"agent_thread_id":"<SESSION-6>"}`,
		`sub_agent_completed /root/gsd_task {"agent_thread_id":"<SESSION-6>"}`,
	}
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Errorf("activity items\n%s\nwant\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
	var spawn, child, wait string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		switch {
		case it.Kind == universal.KindToolResult && it.NativeItemID == "call_jyUuDsgaiKNOSXX3BVzO6Hbk":
			wait = it.Content[0].Output
		case it.Kind == universal.KindToolCall && it.NativeItemID == "call_5dtXLibynV4yT0Sj4Yom1mRh":
			spawn = it.ItemID
		case it.Kind == universal.KindMessage && len(it.Content) > 0 && it.Content[0].Text == "OK":
			child = it.ParentID
		}
	}
	if spawn == "" || child != spawn {
		t.Errorf("the sub-agent's answer under %q, want the spawn call %q", child, spawn)
	}
	// The wait's CollabAgentToolCall (no states, no receivers) came
	// before its function_call_output, which was dropped: the result said
	// nothing.
	if want := `{"message":"Wait completed.","timed_out":false}`; wait != want {
		t.Errorf("wait result %q, want %q", wait, want)
	}

	// Both forms of the same activities: each once, whichever comes first.
	event := `{"timestamp":"2026-09-27T09:13:55.966Z","type":"event_msg","payload":{"type":"sub_agent_activity","event_id":"call_s","occurred_at_ms":1790500435966,"agent_thread_id":"child","agent_path":"/root/task","kind":"started"}}`
	item := `{"timestamp":"2026-09-27T09:13:55.966Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"root","turn_id":"t1","item":{"type":"SubAgentActivity","id":"call_s","kind":"started","agent_thread_id":"child","agent_path":"/root/task"}}}`
	head := []string{
		`{"timestamp":"2026-09-27T09:13:48.049Z","type":"session_meta","payload":{"id":"root","cwd":"/w","cli_version":"0.157.1","source":"exec"}}`,
		`{"timestamp":"2026-09-27T09:13:48.051Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-09-27T09:13:55.688Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","namespace":"collaboration","arguments":"{\"task_name\":\"task\",\"message\":\"go\"}","call_id":"call_s"}}`,
	}
	for name, order := range map[string][]string{"event first": {event, item}, "item first": {item, event}} {
		lines := append(append([]string{}, head...), order...)
		if labels, _ := activityItems(run(t, codex.FormatRollout, nil, lines)); len(labels) != 1 {
			t.Errorf("%s: activity items %q, want one", name, labels)
		}
	}
}
