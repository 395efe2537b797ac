package codex_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRolloutInjectedMessage: Codex puts messages into a thread for others
// than the user at the prompt (a thread timer that fires, another
// program's message queued for the thread): the model reads a user
// message wrapped in <codex_message> (source, queued_at, content,
// instructions, meta: render_message_prompt in openai/codex's
// codex-rs/core thread messages, whose own test gives the rendering used
// here) and the thread records InjectedMessageEvent {content, source}
// (the TUI's replay test: content "Give me a random animal name.", source
// "timer timer-1", shown as the user's prompt), which rollouts persist
// (codex-rs/rollout/src/policy.rs, event_msg_persistence_mode: Limited,
// as UserMessage). The event was agent.unparsed ("unknown event") and the
// model-history copy is skipped as injected context (a message of tags),
// so the prompt was lost; it is now the turn's user message, its source
// in the text's metadata. Lines written in those shapes (no public
// rollout with one was found).
func TestRolloutInjectedMessage(t *testing.T) {
	const id = "01a30000-0000-7000-8000-000000000001"
	lines := []string{
		`{"timestamp":"2026-11-01T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","timestamp":"2026-11-01T10:00:00.000Z","cwd":"/home/dev/p","originator":"codex-tui","cli_version":"0.171.0","source":"cli","model_provider":"openai"}}`,
		`{"timestamp":"2026-11-01T10:05:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-11-01T10:05:00.010Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/home/dev/p","model":"gpt-5.5"}}`,
		`{"timestamp":"2026-11-01T10:05:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<codex_message>\n<source>timer timer-1</source>\n<queued_at>1793527500</queued_at>\n<content>\nGive me a random animal name.\n</content>\n<meta />\n</codex_message>"}]}}`,
		`{"timestamp":"2026-11-01T10:05:00.110Z","type":"event_msg","payload":{"type":"injected_message","content":"Give me a random animal name.","source":"timer timer-1"}}`,
		`{"timestamp":"2026-11-01T10:05:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Okapi."}]}}`,
		`{"timestamp":"2026-11-01T10:05:02.010Z","type":"event_msg","payload":{"type":"agent_message","message":"Okapi."}}`,
		`{"timestamp":"2026-11-01T10:05:02.100Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Okapi."}}`,
	}
	evs := runParsed(t, codex.FormatRollout, lines)
	users := userMessages(evs)
	want := `Give me a random animal name. {"source":"timer timer-1"}`
	if len(users) != 1 || users[0] != want {
		t.Errorf("user messages %q, want [%q]", users, want)
	}

	// The event before the model-history copy: one message all the same.
	swapped := append([]string{}, lines...)
	swapped[3], swapped[4] = swapped[4], swapped[3]
	evs = runParsed(t, codex.FormatRollout, swapped)
	n := 0
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindMessage && it.Role == universal.RoleUser {
			n++
			if !strings.HasPrefix(it.Content[0].Text, "Give me") {
				t.Errorf("user message %q", it.Content[0].Text)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d user messages, want 1", n)
	}
}

// TestInjectedMessageEdges: an injected message after the user's own
// messages were shown from their model-history copies (an earlier one had
// no user_message event) was dropped with that lock, and its own copy is
// injected context: the prompt was lost. One whose content is not a
// string was an empty user message; it is reported.
func TestInjectedMessageEdges(t *testing.T) {
	const id = "01a30000-0000-7000-8000-000000000002"
	head := []string{
		`{"timestamp":"2026-11-01T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","timestamp":"2026-11-01T10:00:00.000Z","cwd":"/home/dev/p","originator":"codex-tui","cli_version":"0.171.0","source":"cli","model_provider":"openai"}}`,
		`{"timestamp":"2026-11-01T10:01:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t0"}}`,
		`{"timestamp":"2026-11-01T10:01:00.010Z","type":"turn_context","payload":{"turn_id":"t0","cwd":"/home/dev/p","model":"gpt-5.5"}}`,
		`{"timestamp":"2026-11-01T10:01:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Say hi."}]}}`,
		`{"timestamp":"2026-11-01T10:01:01.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi."}]}}`,
		`{"timestamp":"2026-11-01T10:01:01.100Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t0","last_agent_message":"Hi."}}`,
		`{"timestamp":"2026-11-01T10:05:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-11-01T10:05:00.010Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/home/dev/p","model":"gpt-5.5"}}`,
		`{"timestamp":"2026-11-01T10:05:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<codex_message>\n<source>timer timer-1</source>\n<content>\nGive me a random animal name.\n</content>\n</codex_message>"}]}}`,
	}
	tail := []string{
		`{"timestamp":"2026-11-01T10:05:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Okapi."}]}}`,
		`{"timestamp":"2026-11-01T10:05:02.100Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Okapi."}}`,
	}
	users := func(evs []universal.Event) []string {
		var out []string
		for _, it := range golden.NewTranscript(evs).Items {
			if it.Kind == universal.KindMessage && it.Role == universal.RoleUser {
				out = append(out, it.Content[0].Text)
			}
		}
		return out
	}
	injected := `{"timestamp":"2026-11-01T10:05:00.110Z","type":"event_msg","payload":{"type":"injected_message","content":"Give me a random animal name.","source":"timer timer-1"}}`
	evs := runParsed(t, codex.FormatRollout, append(append(append([]string{}, head...), injected), tail...))
	if got := users(evs); !slices.Equal(got, []string{"Say hi.", "Give me a random animal name."}) {
		t.Errorf("user messages %q, want the model-history copy's and the injected one", got)
	}

	odd := `{"timestamp":"2026-11-01T10:05:00.110Z","type":"event_msg","payload":{"type":"injected_message","content":[{"type":"text","text":"Give me a random animal name."}],"source":"timer timer-1"}}`
	evs = run(t, codex.FormatRollout, nil, append(append(append([]string{}, head...), odd), tail...))
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 1 {
		t.Errorf("content not a string: %d agent.unparsed, want 1", len(u))
	}
}

// userMessages returns each user message's text and metadata, joined by a
// space.
func userMessages(evs []universal.Event) []string {
	var users []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindMessage && it.Role == universal.RoleUser {
			users = append(users, it.Content[0].Text+" "+string(it.Content[0].Metadata))
		}
	}
	return users
}
