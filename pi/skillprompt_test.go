package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSkillPrompt: oh-my-pi writes the prompt of a skill the user invoked
// (/skill:NAME ARGS) as a custom message (customType skill-prompt,
// attribution user) and no user message: it is the user's message of its
// turn, the skill's fields in its metadata (hosts of omp treat it as a
// user entry). Before, it was a system item outside the turn and the turn
// opened with an empty user message. An extension's custom message, even
// one attributed to the user, stays a system item. (Lines in the shape of
// real omp session files of October 2026, made up.)
func TestSkillPrompt(t *testing.T) {
	const header = `{"type":"session","version":3,"id":"01a113d2-be76-73c7-986b-d3ac6e3fbb83","timestamp":"2026-10-07T00:45:40.854Z","cwd":"/work"}`
	skill := `{"type":"custom_message","customType":"skill-prompt","content":"[IMPORTANT: User invoked the \"word-report\" skill]\nCount the words.\n\nUser: 'notes.md'","display":true,` +
		`"details":{"name":"word-report","path":"/skills/word-report/SKILL.md","args":"'notes.md'","prompt":"/skill:word-report 'notes.md'"},"attribution":"user","id":"98bd271f","parentId":null,"timestamp":"2026-10-07T00:45:41.000Z"}`
	notice := `{"type":"custom_message","customType":"workflow-notice","content":"hidden notice","display":false,"attribution":"user","id":"98bd2720","parentId":"98bd271f","timestamp":"2026-10-07T00:45:41.500Z"}`
	answer := `{"type":"message","id":"792aad05","parentId":"98bd2720","timestamp":"2026-10-07T00:45:50.000Z","message":{"role":"assistant","content":[{"type":"text","text":"notes.md has 120 words."}],` +
		`"api":"openai-completions","provider":"ollama","model":"gemma-4","usage":{"input":100,"output":10,"cacheRead":0,"cacheWrite":0,"totalTokens":110,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1791333950000}}`
	evs := translateClean(t, pi.FormatSession, lines(header, skill, notice, answer))
	var users, systems []universal.Item
	inTurn := false
	for _, e := range evs {
		switch e.Type {
		case universal.TypeTurnStarted:
			inTurn = true
		case universal.TypeTurnEnded:
			inTurn = false
		case universal.TypeItemCompleted:
			it := e.Data.(*universal.ItemSnapshot).Item
			if !inTurn {
				t.Errorf("%s item outside a turn", it.Kind)
			}
			switch it.Role {
			case universal.RoleUser:
				users = append(users, it)
			case universal.RoleSystem:
				systems = append(systems, it)
			}
		}
	}
	if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1", n)
	}
	if len(users) != 1 || len(users[0].Content) == 0 || users[0].Content[0].Text != "[IMPORTANT: User invoked the \"word-report\" skill]\nCount the words.\n\nUser: 'notes.md'" ||
		!strings.Contains(string(users[0].Content[0].Metadata), `"customType":"skill-prompt"`) ||
		!strings.Contains(string(users[0].Content[0].Metadata), `"prompt":"/skill:word-report 'notes.md'"`) || users[0].NativeItemID != "98bd271f" {
		t.Errorf("user messages %+v, want the skill's prompt with its fields", users)
	}
	if len(systems) != 1 || systems[0].Content[0].Text != "hidden notice" {
		t.Errorf("system items %+v, want the notice alone", systems)
	}
}
