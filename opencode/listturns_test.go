package opencode_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// TestListTurnInterrupted: in a message list (an export) each user
// message starts a turn and ended the one before completed, even where
// the agent had not finished it: a step that completed empty (no parts,
// no tokens, no finish reason) or never completed, then the user's
// "retry" (w12z/Cap's export of OpenCode 1.15.6), or a step that asked
// for tools, then a message the user wrote while the agent worked. Such a
// turn ends interrupted; one whose last step finished (stop) completed. A
// user message OpenCode wrote itself (all its parts synthetic) continues
// the turn.
// (Messages in the shape of OpenCode's exports, made up.)
func TestListTurnInterrupted(t *testing.T) {
	n := 0
	user := func(text string) string {
		n++
		return fmt.Sprintf(`{"info":{"id":"msg_%02d","sessionID":"ses_a","role":"user","time":{"created":%d}},"parts":[{"id":"prt_%02d","sessionID":"ses_a","messageID":"msg_%02d","type":"text","text":%q}]}`, n, 1000+n, n, n, text)
	}
	synthetic := func(text string) string {
		n++
		return fmt.Sprintf(`{"info":{"id":"msg_%02d","sessionID":"ses_a","role":"user","time":{"created":%d}},"parts":[{"id":"prt_%02d","sessionID":"ses_a","messageID":"msg_%02d","type":"text","text":%q,"synthetic":true}]}`, n, 1000+n, n, n, text)
	}
	step := func(finish string, completed bool, parts string) string {
		n++
		f, c := "", ""
		if finish != "" {
			f = fmt.Sprintf(`"finish":%q,`, finish)
		}
		if completed {
			c = fmt.Sprintf(`,"completed":%d`, 1000+n)
		}
		return fmt.Sprintf(`{"info":{"id":"msg_%02d","sessionID":"ses_a","role":"assistant","parentID":"msg_01","modelID":"m","providerID":"p",%s"tokens":{"input":0,"output":0,"reasoning":0,"cache":{"read":0,"write":0}},"cost":0,"time":{"created":%d%s}},"parts":[%s]}`, n, f, 1000+n, c, parts)
	}
	text := func(s string) string {
		return fmt.Sprintf(`{"id":"prt_%02d","sessionID":"ses_a","messageID":"msg_%02d","type":"text","text":%q}`, n+1, n+1, s)
	}
	tests := []struct {
		name string
		msgs func() []string
		want []universal.TurnStatus
	}{
		{"a step that completed empty, then retry", func() []string {
			return []string{user("fix it"), step("", true, ""), user("retry"), step("stop", true, text("Fixed."))}
		}, []universal.TurnStatus{universal.TurnInterrupted, universal.TurnCompleted}},
		{"a step that never completed, then retry", func() []string {
			return []string{user("fix it"), step("", false, ""), user("retry"), step("stop", true, text("Fixed."))}
		}, []universal.TurnStatus{universal.TurnInterrupted, universal.TurnCompleted}},
		{"a step that asked for tools, then the user", func() []string {
			return []string{user("fix it"), step("tool-calls", true, text("Looking.")), user("also the docs"), step("stop", true, text("Fixed."))}
		}, []universal.TurnStatus{universal.TurnInterrupted, universal.TurnCompleted}},
		{"an answer, then the user", func() []string {
			return []string{user("hi"), step("stop", true, text("Hello.")), user("again"), step("stop", true, text("Hello again."))}
		}, []universal.TurnStatus{universal.TurnCompleted, universal.TurnCompleted}},
		{"OpenCode's own continuation after a task call", func() []string {
			// A subtask command (dayhaysoos/nimbus's exports of 1.2.26):
			// the task's step, then OpenCode's synthetic "Summarize the
			// task tool output above and continue", then the summary.
			return []string{user("review it"), step("tool-calls", true, text("Reviewing.")), synthetic("Summarize the task tool output above and continue with your task."), step("stop", true, text("Summary."))}
		}, []universal.TurnStatus{universal.TurnCompleted}},
		{"two prompts in a row", func() []string {
			return []string{user("hi"), user("are you there?"), step("stop", true, text("Yes."))}
		}, []universal.TurnStatus{universal.TurnCompleted, universal.TurnCompleted}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n = 0
			doc := `{"info":{"id":"ses_a","title":"t"},"messages":[` + strings.Join(tc.msgs(), ",") + `]}`
			evs := run(t, opencode.FormatMessages, doc)
			noUnparsed(t, evs)
			var got []universal.TurnStatus
			for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
				got = append(got, e.Data.(*universal.TurnEnded).Status)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("turn statuses (-want +got):\n%s", diff)
			}
		})
	}
}

// TestListQuestionTool: a message list (an export) holds no question
// events, only the question tool's call, its questions in the input and
// the answers in the metadata (italo-luz/pfm-categorization's export of
// OpenCode 1.17.18); it made a tool call and result alone. It is a
// question asked and answered (rejected when the call failed). (Messages
// in the export's shape, made up.)
func TestListQuestionTool(t *testing.T) {
	call := func(state string) string {
		return `{"info":{"id":"ses_a","title":"t"},"messages":[` +
			`{"info":{"id":"msg_01","sessionID":"ses_a","role":"user","time":{"created":1}},"parts":[{"id":"prt_01","sessionID":"ses_a","messageID":"msg_01","type":"text","text":"which first?"}]},` +
			`{"info":{"id":"msg_02","sessionID":"ses_a","role":"assistant","parentID":"msg_01","modelID":"m","providerID":"p","finish":"tool-calls","tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}},"cost":0,"time":{"created":2,"completed":3}},` +
			`"parts":[{"id":"prt_02","sessionID":"ses_a","messageID":"msg_02","type":"tool","tool":"question","callID":"toolu_1","state":` + state + `}]}]}`
	}
	input := `{"questions":[{"question":"Which first?","header":"Order","options":[{"label":"F1","description":"d"},{"label":"F2","description":"d"}]},{"question":"Keep the old plan?","header":"Plan","options":[{"label":"No","description":"d"}]}]}`
	tests := []struct {
		name, state string
		want        universal.Question
	}{
		{"answered", `{"status":"completed","input":` + input + `,"output":"User has answered your questions.","title":"Asked 2 questions","metadata":{"answers":[["F1"],["No"]]},"time":{"start":2,"end":3}}`,
			universal.Question{QuestionID: "toolu_1", Status: universal.QuestionAnswered, Prompt: "Which first?\nKeep the old plan?", Options: []string{"F1", "F2", "No"}, Response: "F1; No", Metadata: []byte(`{"answers":[["F1"],["No"]]}`)}},
		{"dismissed", `{"status":"error","input":` + input + `,"error":"The user dismissed this question","time":{"start":2,"end":3}}`,
			universal.Question{QuestionID: "toolu_1", Status: universal.QuestionRejected, Prompt: "Which first?\nKeep the old plan?", Options: []string{"F1", "F2", "No"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := run(t, opencode.FormatMessages, call(tc.state))
			noUnparsed(t, evs)
			asked, resolved := golden.OfType(evs, universal.TypeQuestionRequested), golden.OfType(evs, universal.TypeQuestionResolved)
			if len(asked) != 1 || len(resolved) != 1 {
				t.Fatalf("%d questions asked, %d resolved, want 1 and 1", len(asked), len(resolved))
			}
			got := *resolved[0].Data.(*universal.Question)
			if got.ItemID == "" {
				t.Error("question under no item")
			}
			got.ItemID = ""
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("question.resolved (-want +got):\n%s", diff)
			}
		})
	}
}
