package pi_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// TestUserWhileAtWork: in a session file every user message starts a
// turn; one that comes while the turn before is unanswered (the agent's
// last message called tools: the user wrote while it worked) ended that
// turn completed, though the agent never answered it. It ends
// interrupted; after a failed message, in error; after an answer the
// turn had ended already. (Lines in the shape of Pi's session files,
// made up.)
func TestUserWhileAtWork(t *testing.T) {
	const header = `{"type":"session","version":3,"id":"s1","timestamp":"2026-10-07T00:45:40.854Z","cwd":"/work"}`
	user := func(id, parent, text string) string {
		return `{"type":"message","id":"` + id + `","parentId":` + parent + `,"timestamp":"2026-10-07T00:45:41.000Z","message":{"role":"user","content":[{"type":"text","text":"` + text + `"}],"timestamp":1791333941000}}`
	}
	assistant := func(id, parent, content, stop string) string {
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-10-07T00:45:42.000Z","message":{"role":"assistant","content":[` + content + `],` +
			`"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"` + stop + `","timestamp":1791333942000}}`
	}
	call := assistant("a1", "u1", `{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"sleep 100"}}`, "toolUse")
	result := `{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-10-07T00:45:43.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"done"}],"isError":false,"timestamp":1791333943000}}`
	failed := `{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-10-07T00:45:42.000Z","message":{"role":"assistant","content":[],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"overloaded","timestamp":1791333942000}}`
	answer := assistant("a2", "u2", `{"type":"text","text":"Done."}`, "stop")
	tests := []struct {
		name  string
		lines []string
		want  []universal.TurnStatus
	}{
		{"a call, then the user", []string{header, user("u1", "null", "run it"), call, user("u2", `"a1"`, "stop that"), answer}, []universal.TurnStatus{universal.TurnInterrupted, universal.TurnCompleted}},
		{"a call and its result, then the user", []string{header, user("u1", "null", "run it"), call, result, user("u2", `"r1"`, "and?"), answer}, []universal.TurnStatus{universal.TurnInterrupted, universal.TurnCompleted}},
		{"a failed message, then the user", []string{header, user("u1", "null", "run it"), failed, user("u2", `"a1"`, "retry"), answer}, []universal.TurnStatus{universal.TurnError, universal.TurnCompleted}},
		{"an answer, then the user", []string{header, user("u1", "null", "hi"), assistant("a0", "u1", `{"type":"text","text":"Hello."}`, "stop"), user("u2", `"a0"`, "again"), answer}, []universal.TurnStatus{universal.TurnCompleted, universal.TurnCompleted}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateClean(t, pi.FormatSession, lines(tc.lines...))
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

// TestStopLength: a response the output token limit cut off (stopReason
// length; a real session file of marcpadz/dexter-v3 has one whose tool
// call's arguments were cut, the call then failing validation) said so
// nowhere when the turn went on; its message has a status part labelled
// length. (Lines in the shape of Pi's session files, made up.)
func TestStopLength(t *testing.T) {
	const header = `{"type":"session","version":3,"id":"s1","timestamp":"2026-10-07T00:45:40.854Z","cwd":"/work"}`
	user := `{"type":"message","id":"u1","parentId":null,"timestamp":"2026-10-07T00:45:41.000Z","message":{"role":"user","content":[{"type":"text","text":"edit it"}],"timestamp":1791333941000}}`
	cut := `{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-10-07T00:45:42.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Editing."},{"type":"toolCall","id":"c1","name":"edit","arguments":{"edits":[{"newText":"x"}]}}],` +
		`"api":"openai-completions","provider":"p","model":"m","usage":{"input":10,"output":29018,"cacheRead":0,"cacheWrite":0,"totalTokens":29028,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"length","timestamp":1791333942000}}`
	evs := translateClean(t, pi.FormatSession, lines(header, user, cut))
	var labels []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindMessage || it.Role != universal.RoleAssistant {
			continue
		}
		if it.Status != universal.StatusCompleted {
			t.Errorf("message %s, want completed", it.Status)
		}
		for _, p := range it.Content {
			if p.Type == universal.PartStatus {
				labels = append(labels, p.Label)
			}
		}
	}
	if diff := cmp.Diff([]string{"length"}, labels); diff != "" {
		t.Errorf("status parts of the message (-want +got):\n%s", diff)
	}
}
