package codex_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// completedTexts returns the text of every completed item of a kind and
// role, in order, and the metadata of their first parts.
func completedTexts(evs []universal.Event, kind universal.Kind, role universal.Role) (texts, metas []string) {
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind != kind || it.Role != role || len(it.Content) == 0 {
			continue
		}
		texts = append(texts, it.Content[0].Text)
		metas = append(metas, string(it.Content[0].Metadata))
	}
	return texts, metas
}

// TestHookPromptAndQuestionReply: what a Codex rollout gives the model as
// a user message without the user typing it at the prompt. A Stop hook's
// block reason is written back as <hook_prompt hook_run_id="…">…
// </hook_prompt> (XML-escaped) and, from 0.155 on, as an item_completed
// HookPrompt of the same id (SantyagoSeaman/sidegraph quotes both, real
// 0.159 lines; "one review rollout held 283 of them"): it was lost (the
// message is tag-shaped, so taken for injected context, and the item was
// ignored); it is a system message, once, as the app-server's hookPrompt.
// The answer to an asynchronous question (request_user_input_async,
// whose call returns {"accepted":true} at once) comes as
// <send_user_message_question_reply>[{questionItemId, question, answer}]
// </send_user_message_question_reply>, mid-turn, and Codex writes an event
// copy of few of them (33 of 116, sidegraph's count): it was lost where
// the other prompts are shown from their event copies; it is the user's
// message, the answers one a line, the list in metadata, once when an
// event copy comes too.
func TestHookPromptAndQuestionReply(t *testing.T) {
	// reply is the text of a reply message, JSON-escaped without its
	// quotes.
	reply := func(answers string) string {
		b, _ := json.Marshal("<send_user_message_question_reply>\n" + answers + "\n</send_user_message_question_reply>")
		return string(b[1 : len(b)-1])
	}
	r1 := reply(`[{"questionItemId":"[\"request_user_input_async\",\"call_a\",0]","question":"Which port?","answer":"8080"}]`)
	r2 := reply(`[{"question":"Which port?","answer":"3000"},{"question":"Any name?","answer":"srv"}]`)
	modern := []string{
		`{"timestamp":"2026-10-01T19:21:00.000Z","type":"session_meta","payload":{"id":"th1","cwd":"/w","originator":"codex-tui","cli_version":"0.159.3","source":"cli"}}`,
		`{"timestamp":"2026-10-01T19:21:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-10-01T19:21:01.100Z","type":"response_item","payload":{"type":"message","id":"msg_u1","role":"user","content":[{"type":"input_text","text":"fix the tests"}]}}`,
		`{"timestamp":"2026-10-01T19:21:01.100Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"th1","turn_id":"t1","item":{"type":"UserMessage","id":"u1","content":[{"type":"text","text":"fix the tests","text_elements":[]}]}}}`,
		`{"timestamp":"2026-10-01T19:21:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}],"phase":"final_answer"}}`,
		`{"timestamp":"2026-10-01T19:22:02.510Z","type":"response_item","payload":{"type":"message","id":"msg_h","role":"user","content":[{"type":"input_text","text":"<hook_prompt hook_run_id=\"stop:2:/w/.codex/hooks.json\">Run &amp; check &lt;all&gt;</hook_prompt>"}],"metadata":{"client_authored":false,"user_input_order":6}}}`,
		`{"timestamp":"2026-10-01T19:22:02.511Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"th1","turn_id":"t1","item":{"type":"HookPrompt","id":"msg_h","fragments":[{"text":"Run & check <all>","hookRunId":"stop:2:/w/.codex/hooks.json"}]}}}`,
		`{"timestamp":"2026-10-01T19:22:03.000Z","type":"response_item","payload":{"type":"function_call","name":"request_user_input_async","arguments":"{\"questions\":[{\"title\":\"Which port?\",\"options\":[\"8080\",\"3000\"]}]}","call_id":"call_a"}}`,
		`{"timestamp":"2026-10-01T19:22:03.100Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_a","output":"{\"accepted\":true}"}}`,
		`{"timestamp":"2026-10-01T19:22:09.000Z","type":"response_item","payload":{"type":"message","id":"msg_r1","role":"user","content":[{"type":"input_text","text":"` + r1 + `"}]}}`,
		`{"timestamp":"2026-10-01T19:22:10.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Using 8080."}],"phase":"final_answer"}}`,
		`{"timestamp":"2026-10-01T19:22:10.100Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}`,
		`{"timestamp":"2026-10-01T19:23:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`,
		`{"timestamp":"2026-10-01T19:23:00.100Z","type":"response_item","payload":{"type":"message","id":"msg_r2","role":"user","content":[{"type":"input_text","text":"` + r2 + `"}]}}`,
		`{"timestamp":"2026-10-01T19:23:00.100Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"th1","turn_id":"t2","item":{"type":"UserMessage","id":"u2","content":[{"type":"text","text":"` + r2 + `","text_elements":[]}]}}}`,
		`{"timestamp":"2026-10-01T19:23:01.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Both noted."}],"phase":"final_answer"}}`,
		`{"timestamp":"2026-10-01T19:23:01.100Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t2"}}`,
	}
	evs := run(t, codex.FormatRollout, nil, modern)
	if sys, _ := completedTexts(evs, universal.KindSystem, universal.RoleSystem); len(sys) != 1 || sys[0] != "Run & check <all>" {
		t.Errorf("hook prompt: system items %q, want one \"Run & check <all>\"", sys)
	}
	users, metas := completedTexts(evs, universal.KindMessage, universal.RoleUser)
	if want := []string{"fix the tests", "8080", "3000\nsrv"}; strings.Join(users, "|") != strings.Join(want, "|") {
		t.Errorf("user messages %q, want %q", users, want)
	} else if !strings.Contains(metas[1], `"question_reply":[{"questionItemId"`) || !strings.Contains(metas[2], `"answer":"srv"`) {
		t.Errorf("reply metadata %q", metas[1:])
	}
	if got := results(evs)["call_a"].Output; got != `{"accepted":true}` {
		t.Errorf("async question call result %q", got)
	}

	// Before 0.155: no ids, no item_completed, the prompt's event copy a
	// user_message; the hook prompt's message is its only record, and a
	// message of two fragments says both.
	legacy := []string{
		`{"type":"session_meta","payload":{"id":"th2","cwd":"/w","cli_version":"0.145.0"}}`,
		`{"type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}`,
		`{"type":"event_msg","payload":{"type":"user_message","message":"go"}}`,
		`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<hook_prompt hook_run_id=\"a\">one</hook_prompt>"},{"type":"input_text","text":" <hook_prompt hook_run_id='b'>two &quot;2&quot;</hook_prompt>\n"}]}}`,
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<hook_prompt hook_run_id=\"\">no run</hook_prompt>"}]}}`,
		`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Again."}]}}`,
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}`,
	}
	evs = run(t, codex.FormatRollout, nil, legacy)
	if sys, _ := completedTexts(evs, universal.KindSystem, universal.RoleSystem); len(sys) != 1 || sys[0] != "one\ntwo \"2\"" {
		t.Errorf("legacy hook prompt: system items %q", sys)
	}
	if users, _ := completedTexts(evs, universal.KindMessage, universal.RoleUser); len(users) != 1 || users[0] != "go" {
		t.Errorf("legacy user messages %q", users)
	}
}

// TestPublicSidegraphLines: the real 0.154–0.159 lines SantyagoSeaman/
// sidegraph quotes (testdata/codex/public/rollout/sidegraph-0.15x-
// quoted-lines.jsonl): the hook prompt is shown once, the reply kept.
func TestPublicSidegraphLines(t *testing.T) {
	b, err := os.ReadFile(public + "/rollout/sidegraph-0.15x-quoted-lines.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	evs := run(t, codex.FormatRollout, nil, strings.Split(strings.TrimSpace(string(b)), "\n"))
	if sys, _ := completedTexts(evs, universal.KindSystem, universal.RoleSystem); len(sys) != 1 {
		t.Errorf("hook prompt: system items %q, want one", sys)
	}
	users, metas := completedTexts(evs, universal.KindMessage, universal.RoleUser)
	if len(users) != 2 || users[0] != "check whether sidegraph works for us" || users[1] != "…" || !strings.Contains(metas[1], "question_reply") {
		t.Errorf("user messages %q %q", users, metas)
	}
}
