package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// answered returns the responses of the question.resolved events.
func answered(evs []universal.Event) []string {
	var out []string
	for _, ev := range evs {
		if q, ok := ev.Data.(*universal.Question); ok && ev.Type == universal.TypeQuestionResolved {
			out = append(out, q.Response)
		}
	}
	return out
}

// TestElicitationFormAnswer: the answer to a form elicitation is what the
// user answered, not the content object's JSON. claude-agent-acp 0.70.0
// asks its AskUserQuestion as a form (a public capture of agent-shell,
// testdata/acp/claude-agent-acp/public): the user picked Red and the
// question read answered {"question_0":"Red"}, where Claude Code's own
// translator gives Red. Several answers are "label: value" lines in the
// form's order, a custom answer under its question's label.
func TestElicitationFormAnswer(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testdata, "claude-agent-acp", "public", "agent-shell__ask-user-question-0.70.0.exchange.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if got := answered(translateExchange(t, string(b))); len(got) != 1 || got[0] != "Red" {
		t.Errorf("public capture: answers %q, want [Red]", got)
	}

	ask := `{"dir":"out","msg":{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"sessionId":"s1","mode":"form","message":"Two questions","requestedSchema":{"type":"object","properties":{` +
		`"question_0":{"type":"string","title":"Colour","oneOf":[{"const":"Red","title":"Red"},{"const":"Blue","title":"Blue"}]},` +
		`"question_0_custom":{"type":"string","title":"Other","_meta":{"_askUserQuestionCustomAnswer":{"questionId":"question_0","isCustomAnswer":true}}},` +
		`"question_1":{"type":"array","title":"Sizes","items":{"enum":["S","M","L"]}},` +
		`"note":{"type":"string"}}}}}}` + "\n"
	tests := []struct{ name, content, want string }{
		{"one field", `{"question_0":"Blue"}`, "Blue"},
		{"form order, labels", `{"question_1":["S","L"],"question_0":"Red"}`, "Colour: Red\nSizes: S, L"},
		{"custom answer under its question", `{"question_0":"","question_0_custom":"Green","note":"x"}`, "Colour: Green\nnote: x"},
		{"a field the form did not ask", `{"question_0":"Red","extra":true}`, "Colour: Red\nextra: true"},
		{"nothing answered", `{"question_0":"","question_1":[]}`, ""},
		{"a string", `"Red"`, "Red"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := ask + `{"dir":"in","msg":{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":` + tc.content + `}}}` + "\n"
			evs := translateExchange(t, in)
			if got := answered(evs); len(got) != 1 || got[0] != tc.want {
				t.Errorf("answers %q, want [%q]", got, tc.want)
			}
			for _, ev := range evs {
				if q, ok := ev.Data.(*universal.Question); ok && ev.Type == universal.TypeQuestionResolved && !strings.Contains(string(q.Metadata), `"content":`) {
					t.Errorf("the content is not kept in metadata: %s", q.Metadata)
				}
			}
		})
	}
}

// TestUnpromptedTurnWaitsForUser: a turn the agent's updates opened with
// no prompt waiting (ended completed at the end of the input, as nothing
// but the agent's word ends it) was cut when the agent still waited for
// the user: a question or a permission it asked that no answer settled.
// It ends interrupted, the session in error, as a turn a prompt waits
// for does. The public agent-shell capture of claude-agent-acp 0.70.0
// (no prompt in it) cut after its elicitation/create ended completed.
func TestUnpromptedTurnWaitsForUser(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testdata, "claude-agent-acp", "public", "agent-shell__ask-user-question-0.70.0.exchange.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	permission := `{"dir":"out","msg":{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"866901fc-f565-4ff7-b3c8-b6c3905fb293","toolCall":{"toolCallId":"toolu_018EPi8fBMWmYGL3cfag3v9c"},"options":[{"optionId":"allow","kind":"allow_once","name":"Allow"}]}}}` + "\n"
	tests := []struct {
		name, in string
		reason   universal.EndReason
		last     universal.TurnStatus
	}{
		{"question unanswered", strings.Join(lines[:5], ""), universal.EndError, universal.TurnInterrupted},
		{"permission unanswered", strings.Join(lines[:4], "") + permission, universal.EndError, universal.TurnInterrupted},
		{"question answered", strings.Join(lines[:6], ""), universal.EndCompleted, universal.TurnCompleted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateExchange(t, tc.in)
			var last universal.TurnStatus
			for _, ev := range evs {
				if d, ok := ev.Data.(*universal.TurnEnded); ok {
					last = d.Status
				}
			}
			end := evs[len(evs)-1].Data.(*universal.SessionEnded)
			if end.Reason != tc.reason || last != tc.last {
				t.Errorf("session ended %s, the turn %s; want %s, %s", end.Reason, last, tc.reason, tc.last)
			}
		})
	}
}
