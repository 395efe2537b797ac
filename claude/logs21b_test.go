package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestQuestionAnswerOrder: an AskUserQuestion of several questions is
// answered by an answers object keyed by question text, and JSON objects
// are unordered (RFC 8259), so its member order is no order of the
// questions; the tool's result gives the questions as an array too
// (toolUseResult {questions, answers}, as Claude Code writes it:
// testdata/claude/public/agentcmd__full-session-askuserquestion.jsonl).
// The response's "question: answer" lines followed the answers' member
// order, and changed when a writer ordered the members otherwise (found
// by feeding every capture with its members reversed); they follow the
// questions array, answers that name no question after them. Lines in
// the transcript's shape, values made up.
func TestQuestionAnswerOrder(t *testing.T) {
	const sid = "5c2b8f0e-1d4a-4e8b-9f3a-2a6d7c9e0b13"
	ask := `{"parentUuid":null,"isSidechain":false,"type":"assistant","sessionId":"` + sid + `","version":"2.1.38","cwd":"/w","uuid":"a1","timestamp":"2026-02-01T00:00:01Z","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_01Q","name":"AskUserQuestion","input":{"questions":[{"question":"Which colour?","header":"Colour","options":[{"label":"Red"},{"label":"Blue"}],"multiSelect":false},{"question":"Which size?","header":"Size","options":[{"label":"S"},{"label":"L"}],"multiSelect":false}]}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":1}}}`
	answer := func(answers string) string {
		return `{"parentUuid":"a1","isSidechain":false,"type":"user","sessionId":"` + sid + `","version":"2.1.38","cwd":"/w","uuid":"u1","timestamp":"2026-02-01T00:00:02Z","message":{"role":"user","content":[{"tool_use_id":"toolu_01Q","type":"tool_result","content":"User has answered your questions."}]},"toolUseResult":{"questions":[{"question":"Which colour?","header":"Colour","options":[{"label":"Red"},{"label":"Blue"}],"multiSelect":false},{"question":"Which size?","header":"Size","options":[{"label":"S"},{"label":"L"}],"multiSelect":false}],"answers":` + answers + `}}`
	}
	response := func(answers string) string {
		evs := feed(t, claude.FormatTranscript, nil, nil, ask, answer(answers))
		if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
			t.Fatalf("agent.unparsed: %v", u)
		}
		qs := golden.OfType(evs, universal.TypeQuestionResolved)
		if len(qs) != 1 {
			t.Fatalf("%d questions resolved, want 1", len(qs))
		}
		return qs[0].Data.(*universal.Question).Response
	}
	want := "Which colour?: Blue\nWhich size?: L"
	for _, answers := range []string{
		`{"Which colour?":"Blue","Which size?":"L"}`,
		`{"Which size?":"L","Which colour?":"Blue"}`,
	} {
		if got := response(answers); got != want {
			t.Errorf("answers %s: response %q, want %q", answers, got, want)
		}
	}
	if got := response(`{"Which size?":"L","Other?":"x","Which colour?":"Blue"}`); got != want+"\nOther?: x" {
		t.Errorf("an answer no question names: response %q", got)
	}
}
