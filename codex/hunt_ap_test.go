package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// replyEnvelope is the user message the Codex app sends to answer the
// agent's request_user_input_async questions, JSON-escaped without its
// quotes when quoted is true: each answer names its question
// ["request_user_input_async", <call id>, <index>] (questionItemId), as a
// real rollout of 2026-09-27 and every client that answers them write it.
func replyEnvelope(quoted bool, call string, answers ...[2]string) string {
	type entry struct {
		QuestionItemID string `json:"questionItemId"`
		Question       string `json:"question"`
		Answer         string `json:"answer"`
	}
	var list []entry
	for i, a := range answers {
		id, _ := json.Marshal([]any{"request_user_input_async", call, i})
		list = append(list, entry{string(id), a[0], a[1]})
	}
	b, _ := json.Marshal(list)
	s := "<send_user_message_question_reply>\n" + string(b) + "\n</send_user_message_question_reply>"
	if quoted {
		b, _ = json.Marshal(s)
		s = string(b[1 : len(b)-1])
	}
	return s
}

// asyncQuestions returns the question events of evs as
// "type id prompt→response status item".
func asyncQuestions(evs []universal.Event) []string {
	var out []string
	for _, e := range evs {
		if q, ok := e.Data.(*universal.Question); ok {
			out = append(out, string(e.Type)+" "+q.QuestionID+" "+q.Prompt+"→"+q.Response+" "+string(q.Status)+" "+q.ItemID+" "+string(e.Source))
		}
	}
	return out
}

// TestAsyncQuestionReplyEveryFormat: the answer to the agent's
// asynchronous questions (request_user_input_async, which returns
// {"accepted":true} at once; Codex's handler emits the questions as an
// agentMessage of delivery "async" whose id is the call id) is the same in
// every Codex format: the user's message shows the answers one a line
// with the list in metadata question_reply (app-server userMessage items
// and the host's turn/start or turn/steer input, exec's prompt, showed the
// raw envelope), and each answer is a question asked and answered at once,
// naming the call's item; a question nobody answered gives no question,
// so none is left pending when its turn ends.
func TestAsyncQuestionReplyEveryFormat(t *testing.T) {
	plain := replyEnvelope(false, "call_q", [2]string{"Which dataset?", "YCB-V"}, [2]string{"Any notes?", "none"})
	quoted := replyEnvelope(true, "call_q", [2]string{"Which dataset?", "YCB-V"}, [2]string{"Any notes?", "none"})
	check := func(name string, evs []universal.Event, item bool) {
		t.Helper()
		users, metas := completedTexts(evs, universal.KindMessage, universal.RoleUser)
		found := false
		for i, u := range users {
			if strings.Contains(u, "send_user_message_question_reply") {
				t.Errorf("%s: user message shows the envelope %q", name, u)
			}
			if u == "YCB-V\nnone" && strings.Contains(metas[i], `"question_reply":[{"questionItemId":"[\"request_user_input_async\",\"call_q\",0]"`) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: user messages %q %q, want the answers with question_reply", name, users, metas)
		}
		qs := asyncQuestions(evs)
		if len(qs) != 4 {
			t.Fatalf("%s: questions %q, want two asked and answered", name, qs)
		}
		id0 := `["request_user_input_async","call_q",0]`
		if !strings.HasPrefix(qs[0], "question.requested "+id0+" Which dataset?→ requested ") || !strings.HasPrefix(qs[1], "question.resolved "+id0+" Which dataset?→YCB-V answered ") ||
			!strings.Contains(qs[3], "Any notes?→none answered") {
			t.Errorf("%s: questions %q", name, qs)
		}
		if item && strings.Contains(qs[1], "answered  ") {
			t.Errorf("%s: the answer names no item: %q", name, qs[1])
		}
		s, err := reduce.Replay(evs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(s.Anomalies) > 0 {
			t.Errorf("%s: anomalies %v", name, s.Anomalies)
		}
		if p := s.PendingQuestions(); len(p) != 0 || len(s.Questions) != 2 {
			t.Errorf("%s: pending %v of %d questions", name, p, len(s.Questions))
		}
	}

	// App-server 0.155+: the agentMessage the call gives (id the call id,
	// delivery async, questions), the turn ends, the host answers with
	// turn/start; the server echoes it as a userMessage item.
	asked := `{"type":"agentMessage","id":"call_q","text":"Which dataset?\n- LM-O\n- YCB-V\n\nAny notes?","phase":"final_answer","memoryCitation":null,"delivery":"async","questions":[{"title":"Which dataset?","options":["LM-O","YCB-V"]},{"title":"Any notes?","options":null}]}`
	server := []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
		`{"method":"item/started","params":{"threadId":"th1","turnId":"tu1","item":` + asked + `}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":` + asked + `}}`,
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`,
		`in {"id":7,"method":"turn/start","params":{"threadId":"th1","input":[{"type":"text","text":"` + quoted + `","text_elements":[]}]}}`,
		`{"id":7,"result":{"turn":{"id":"tu2","items":[],"status":"inProgress"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu2","items":[],"status":"inProgress"}}}`,
		`{"method":"item/started","params":{"threadId":"th1","turnId":"tu2","item":{"type":"userMessage","id":"u2","clientId":null,"content":[{"type":"text","text":"` + quoted + `","text_elements":[]}]}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu2","item":{"type":"userMessage","id":"u2","clientId":null,"content":[{"type":"text","text":"` + quoted + `","text_elements":[]}]}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu2","item":{"type":"agentMessage","id":"m2","text":"Using YCB-V.","phase":"final_answer","memoryCitation":null,"delivery":null,"questions":null}}}`,
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu2","items":[],"status":"completed"}}}`,
	}
	check("app-server", run(t, codex.FormatAppServer, nil, server), true)
	// The same without the echo: the host's input is the user message.
	check("app-server input", run(t, codex.FormatAppServer, nil, append(server[:8:8], server[10:]...)), true)

	// exec --json: the prompt is the host's (codex exec resume <reply>).
	exec := []string{
		`{"type":"thread.started","thread_id":"th1"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"Using YCB-V."}}`,
		`{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":2}}`,
	}
	check("exec", run(t, codex.FormatExec, []universal.Report{universal.Prompt{Text: plain}}, exec), false)

	// A rollout: the function_call, then (a later turn) the reply.
	rollout := []string{
		`{"timestamp":"2026-09-27T08:00:00.000Z","type":"session_meta","payload":{"id":"th1","cwd":"/w","originator":"Codex Desktop","cli_version":"0.159.0","source":"vscode"}}`,
		`{"timestamp":"2026-09-27T08:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-09-27T08:00:01.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}`,
		`{"timestamp":"2026-09-27T08:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"request_user_input_async","arguments":"{\"questions\":[{\"title\":\"Which dataset?\",\"options\":[\"LM-O\",\"YCB-V\"]},{\"title\":\"Any notes?\"}]}","call_id":"call_q"}}`,
		`{"timestamp":"2026-09-27T08:00:02.100Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_q","output":"{\"accepted\":true}"}}`,
		`{"timestamp":"2026-09-27T08:00:03.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}`,
		`{"timestamp":"2026-09-27T08:19:45.502Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`,
		`{"timestamp":"2026-09-27T08:19:45.502Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + quoted + `"}]}}`,
		`{"timestamp":"2026-09-27T08:19:59.591Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Using YCB-V."}],"phase":"final_answer"}}`,
		`{"timestamp":"2026-09-27T08:20:00.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t2"}}`,
	}
	check("rollout", run(t, codex.FormatRollout, nil, rollout), true)

	// Unanswered: the call and its message only, no question.
	if qs := asyncQuestions(run(t, codex.FormatAppServer, nil, server[:5])); len(qs) != 0 {
		t.Errorf("unanswered: questions %q", qs)
	}
	if qs := asyncQuestions(run(t, codex.FormatRollout, nil, rollout[:6])); len(qs) != 0 {
		t.Errorf("unanswered rollout: questions %q", qs)
	}
}
