package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// systemTexts returns the texts of the session's system items, each with
// its part's metadata after a tab.
func systemTexts(evs []universal.Event) []string {
	var out []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindSystem && len(it.Content) > 0 {
			out = append(out, it.Content[0].Text+"\t"+string(it.Content[0].Metadata))
		}
	}
	return out
}

// TestHookCompletedContext: what a hook gives the model (its run's entries
// of kind "context": additionalContext, a SessionStart hook's plain stdout;
// codex-rs/hooks/src/events/session_start.rs, "plain stdout becomes model
// context") is a system item, as Claude Code's hook context is. The
// app-server sends it in hook/completed (HookCompletedNotification of the
// 0.169.0 schema, camelCase), and Codex persists the core event
// hook_completed in rollouts (codex-rs rollout policy
// should_persist_event_msg: "persists completed hook events but not started
// events"), snake_case. hook/completed was ignored and a rollout's
// hook_completed was agent.unparsed; the context was lost either way (the
// rollout's copy for the model is a developer message, which is never
// shown). A failed run with only an error entry adds nothing: the first
// app-server line is a real one (a Stop hook failing on Windows, quoted in
// a public project's notes found by content search; the index does not
// name the repository).
func TestHookCompletedContext(t *testing.T) {
	evs := runParsed(t, codex.FormatAppServer, []string{
		`{"method":"thread/started","params":{"thread":{"id":"01a01817-45c5-7f71-b533-dc1ca2219db3","cwd":"/w"}}}`,
		`{"method":"turn/started","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turn":{"id":"01a01817-4766-7752-97da-e5cb6a178208","items":[],"status":"inProgress"}}}`,
		`{"method":"hook/started","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turnId":"01a01817-4766-7752-97da-e5cb6a178208","run":{"id":"session_start:0:/w/.codex/hooks.json","eventName":"sessionStart","handlerType":"command","executionMode":"sync","scope":"thread","sourcePath":"/w/.codex/hooks.json","displayOrder":0,"status":"running","startedAt":1787110570,"entries":[]}}}`,
		`{"method":"hook/completed","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turnId":"01a01817-4766-7752-97da-e5cb6a178208","run":{"id":"session_start:0:/w/.codex/hooks.json","eventName":"sessionStart","handlerType":"command","executionMode":"sync","scope":"thread","sourcePath":"/w/.codex/hooks.json","source":"project","displayOrder":0,"status":"completed","statusMessage":null,"startedAt":1787110570,"completedAt":1787110571,"durationMs":40,"entries":[{"kind":"warning","text":"shown to the user"},{"kind":"context","text":"Branch: main. Run make check before committing."}]}}}`,
		`{"method":"item/completed","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turnId":"01a01817-4766-7752-97da-e5cb6a178208","item":{"id":"m1","type":"agentMessage","text":"HOOK_DIAGNOSTIC_OK"}}}`,
		`{"method":"hook/completed","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turnId":"01a01817-4766-7752-97da-e5cb6a178208","run":{"id":"stop:1:C:\\SourceCodes\\cae-material-platform\\.codex\\hooks.json","eventName":"stop","handlerType":"command","executionMode":"sync","scope":"turn","sourcePath":"C:\\SourceCodes\\cae-material-platform\\.codex\\hooks.json","source":"project","displayOrder":1,"status":"failed","statusMessage":"Checking unfinished visual documentation","startedAt":1787110579,"completedAt":1787110580,"durationMs":511,"entries":[{"kind":"error","text":"hook exited with code 1"}]}}}`,
		`{"method":"turn/completed","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turn":{"id":"01a01817-4766-7752-97da-e5cb6a178208","items":[],"status":"completed"}}}`,
	})
	want := "Branch: main. Run make check before committing.\t" + `{"hook_event":"sessionStart","hook_id":"session_start:0:/w/.codex/hooks.json"}`
	if got := systemTexts(evs); len(got) != 1 || got[0] != want {
		t.Errorf("app-server system items %q, want [%q]", got, want)
	}

	evs = runParsed(t, codex.FormatRollout, []string{
		`{"timestamp":"2026-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"/w","cli_version":"0.172.0"}}`,
		`{"timestamp":"2026-11-20T10:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-11-20T10:00:00.200Z","type":"event_msg","payload":{"type":"user_message","message":"hi","images":[]}}`,
		`{"timestamp":"2026-11-20T10:00:00.300Z","type":"event_msg","payload":{"type":"hook_completed","turn_id":"t1","run":{"id":"user_prompt_submit:0:/w/.codex/hooks.json","event_name":"user_prompt_submit","handler_type":"command","execution_mode":"sync","scope":"turn","source_path":"/w/.codex/hooks.json","source":"project","display_order":0,"status":"completed","status_message":null,"started_at":1787110570,"completed_at":1787110571,"duration_ms":12,"entries":[{"kind":"context","text":"The user is on call today."}]}}}`,
		`{"timestamp":"2026-11-20T10:00:00.310Z","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"The user is on call today."}]}}`,
		`{"timestamp":"2026-11-20T10:00:00.400Z","type":"event_msg","payload":{"type":"agent_message","message":"Hello."}}`,
		`{"timestamp":"2026-11-20T10:00:00.500Z","type":"event_msg","payload":{"type":"hook_completed","turn_id":"t1","run":{"id":"stop:0:/w/.codex/hooks.json","event_name":"stop","handler_type":"command","execution_mode":"sync","scope":"turn","source_path":"/w/.codex/hooks.json","display_order":0,"status":"failed","started_at":1787110572,"entries":[{"kind":"error","text":"hook exited with code 1"}]}}}`,
		`{"timestamp":"2026-11-20T10:00:00.600Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Hello."}}`,
	})
	want = "The user is on call today.\t" + `{"hook_event":"user_prompt_submit","hook_id":"user_prompt_submit:0:/w/.codex/hooks.json"}`
	if got := systemTexts(evs); len(got) != 1 || got[0] != want {
		t.Errorf("rollout system items %q, want [%q]", got, want)
	}
	var order []string
	for _, it := range golden.NewTranscript(evs).Items {
		order = append(order, string(it.Role))
	}
	if got := strings.Join(order, ","); got != "user,system,assistant" {
		t.Errorf("rollout item roles %s, want user,system,assistant", got)
	}
}
