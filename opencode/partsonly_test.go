package opencode_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestPartEventsOnly: a real capture of OpenCode 0.5's message.part.updated
// events alone (no message.updated, no session events; goniz/opencode-ios,
// see testdata/opencode/public/SOURCES.md). The messages with steps are
// the assistant's, complete when their last step finished (they were of
// no role and failed); the sub-agent of a task call, whose session only
// the finished call's summary names in 0.5, is that call's (its prompt and
// its bash call were left out); a message of text alone followed by an
// assistant's message is the prompt, the user's and complete (they were
// of no role and failed).
func TestPartEventsOnly(t *testing.T) {
	in := golden.HostileRead(t, public+"/opencode-ios-v0.5-part-events.jsonl")
	evs := run(t, opencode.FormatEventLines, string(in))
	noUnparsed(t, evs)
	items := map[string]universal.Item{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		items[it.ItemID] = it
	}
	roles := map[universal.Role]int{}
	var bash, prompt *universal.Item
	for id, it := range items {
		switch {
		case it.Kind == universal.KindMessage:
			roles[it.Role]++
			if it.Status != universal.StatusCompleted {
				t.Errorf("%s message %s %s", it.Role, id, it.Status)
			}
			if it.Role == universal.RoleUser && strings.HasPrefix(it.Content[0].Text, "Count the total number of files") {
				prompt = &it
			}
		case it.Kind == universal.KindToolCall && strings.Contains(it.Content[0].Arguments, "find . -type f"):
			bash = &it
		}
	}
	if roles[universal.RoleAssistant] != 5 || roles[universal.RoleUser] != 5 || len(roles) != 2 {
		t.Errorf("messages by role %v, want 5 the assistant's and 5 the user's", roles)
	}
	if prompt == nil || items[prompt.ParentID].Content[0].Name != "task" {
		t.Errorf("the sub-agent's prompt %+v, want it under the task call", prompt)
	}
	if bash == nil {
		t.Fatal("the sub-agent's bash call is missing")
	}
	// bash → the sub-agent's message → the task call.
	msg := items[bash.ParentID]
	task := items[msg.ParentID]
	if task.Kind != universal.KindToolCall || task.Content[0].Name != "task" {
		t.Errorf("the sub-agent's bash call is under %s under %+v, want the task call", msg.ItemID, task)
	}
	golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "parts only", Format: opencode.FormatEventLines,
		Framing: framing(opencode.FormatEventLines), New: newFor(opencode.FormatEventLines), Data: in})
}

// TestPartEventsAdoptOnlyOne: a session of no known origin is taken for a
// task call's sub-agent only when exactly one task call of the followed
// session runs without naming its session, and never when it was created
// as a root session of its own.
func TestPartEventsAdoptOnlyOne(t *testing.T) {
	part := func(sid, mid, pid, body string) string {
		return fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":%q,"messageID":%q,"sessionID":%q,%s}}}`, pid, mid, sid, body)
	}
	task := func(pid, call string) string {
		return part("ses_main", "msg_a", pid, `"type":"tool","tool":"task","callID":"`+call+`","state":{"status":"running","input":{"prompt":"count","subagent_type":"general"}}`)
	}
	child := []string{
		part("ses_kid", "msg_k", "prt_k1", `"type":"text","text":"count the files"`),
		part("ses_kid", "msg_k2", "prt_k2", `"type":"step-start"`),
		part("ses_kid", "msg_k2", "prt_k3", `"type":"text","text":"65293"`),
	}
	head := []string{
		part("ses_main", "msg_u", "prt_u", `"type":"text","text":"spawn a task"`),
		part("ses_main", "msg_a", "prt_s", `"type":"step-start"`),
	}
	texts := func(evs []universal.Event) string {
		var out []string
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
				if p.Text != "" {
					out = append(out, p.Text)
				}
			}
		}
		return strings.Join(out, "|")
	}
	one := append(append(append([]string(nil), head...), task("prt_t1", "c1")), child...)
	if got := texts(run(t, opencode.FormatEventLines, lines(one...))); !strings.Contains(got, "65293") {
		t.Errorf("one task running: %q, want the sub-agent's text", got)
	}
	two := append(append(append([]string(nil), head...), task("prt_t1", "c1"), task("prt_t2", "c2")), child...)
	if got := texts(run(t, opencode.FormatEventLines, lines(two...))); strings.Contains(got, "65293") {
		t.Errorf("two tasks running: %q, want no sub-agent taken for either", got)
	}
	created := `{"type":"session.created","properties":{"info":{"id":"ses_kid","title":"another","time":{"created":1,"updated":1}}}}`
	root := append(append(append(append([]string(nil), head...), created), task("prt_t1", "c1")), child...)
	if got := texts(run(t, opencode.FormatEventLines, lines(root...))); strings.Contains(got, "65293") {
		t.Errorf("a root session of its own: %q, want it not taken for the sub-agent", got)
	}
}
