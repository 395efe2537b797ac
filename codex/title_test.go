package codex_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// titleItems returns the details of the status items labelled title.
func titleItems(evs []universal.Event) []string {
	var out []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus && it.Content[0].Label == "title" {
			out = append(out, it.Content[0].Detail)
		}
	}
	return out
}

// TestTitles: a new name of the session's thread (app-server
// thread/name/updated {threadId, threadName?}; a rollout's event_msg
// thread_name_updated {thread_id, thread_name?}) was ignored. It is a
// status item labelled title when it changes the title the session has;
// the same name again, a name removed (null) and a sub-agent thread's
// name make none.
func TestTitles(t *testing.T) {
	name := func(thread, n string) string {
		return fmt.Sprintf(`{"method":"thread/name/updated","params":{"threadId":%q,"threadName":%s}}`, thread, n)
	}
	started := `{"method":"thread/started","params":{"thread":{"id":"th1","cliVersion":"0.169.0","name":"Start"}}}`
	evs := run(t, codex.FormatAppServer, nil, []string{started, turnStarted, name("th1", `"Start"`), name("th1", `"Fix the parser"`),
		name("th1", `"Fix the parser"`), name("th1", "null"), name("th2", `"A sub-agent"`), agentDone, turnDone})
	if got := fmt.Sprint(titleItems(evs)); got != "[Fix the parser]" {
		t.Errorf("app-server title items %s, want [Fix the parser]", got)
	}

	const meta = `{"timestamp":"2026-02-11T05:53:33.335Z","type":"session_meta","payload":{"id":"019c4b43-1451-7af3-be4c-5576369bf1ba","timestamp":"2026-02-11T05:53:33.266Z","cwd":"/w","cli_version":"0.99.0","model_provider":"openai"}}`
	rename := func(n string) string {
		return fmt.Sprintf(`{"timestamp":"2026-02-11T05:54:00.000Z","type":"event_msg","payload":{"type":"thread_name_updated","thread_id":"019c4b43-1451-7af3-be4c-5576369bf1ba","thread_name":%q}}`, n)
	}
	evs = run(t, codex.FormatRollout, nil, []string{meta, rename("Parser"), rename("Parser"), rename("Dates")})
	if got := fmt.Sprint(titleItems(evs)); got != "[Parser Dates]" {
		t.Errorf("rollout title items %s, want [Parser Dates]", got)
	}
}

// TestTurnDirectory: a turn started in another directory than the
// session's (app-server turn/start with a cwd override; the rollout's
// turn_context has the new cwd, session_meta the old one, as a public
// probe of Codex 0.145.0 shows) runs its tools there: their relative
// paths resolve against the turn's cwd. They resolved against the
// session's first directory.
func TestTurnDirectory(t *testing.T) {
	patch := func(call, file string) string {
		return `{"type":"response_item","payload":{"type":"custom_tool_call","status":"completed","call_id":"` + call + `","name":"apply_patch","input":"*** Begin Patch\n*** Add File: ` + file + `\n+hi\n*** End Patch\n"}}` + "\n" +
			`{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"` + call + `","output":"Success. Updated the following files:\nA ` + file + `\n"}}`
	}
	evs := run(t, codex.FormatRollout, nil, strings.Split(strings.Join([]string{
		`{"type":"session_meta","payload":{"id":"s1","cwd":"/a","cli_version":"0.145.0"}}`,
		`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"type":"turn_context","payload":{"turn_id":"t1","cwd":"/a"}}`,
		patch("c1", "x.txt"),
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}`,
		`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`,
		`{"type":"turn_context","payload":{"turn_id":"t2","cwd":"/b"}}`,
		patch("c2", "y.txt"),
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t2"}}`,
	}, "\n"), "\n"))
	var paths []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartFileRef {
				paths = append(paths, p.Path)
			}
		}
	}
	if fmt.Sprint(paths) != "[/a/x.txt /b/y.txt]" {
		t.Errorf("file paths %v, want [/a/x.txt /b/y.txt]", paths)
	}
}
