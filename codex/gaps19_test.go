package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestExecLabelledLines: a host that logs each event of codex exec --json
// behind a label of its own on the same line ("  event: {…}", as a public
// project's smoke test of codex-cli 0.160.0 printed a failed run: found
// by content search, the index does not name the repository; ids and
// texts shortened, the lines are a shape). The lines were taken for
// Codex's stderr and the session lost (no thread, no turn, no error); the
// events are read from their first '{', the label left out. Text of
// another kind, or an object of no exec type, stays stderr.
func TestExecLabelledLines(t *testing.T) {
	lines := []string{
		`  --version => codex-cli 0.160.0`,
		`  event: {"type":"thread.started","thread_id":"01a105f0-b2a5-7db0-ae20-21614d5e6916"}`,
		`  event: {"type":"turn.started"}`,
		`  event: {"type":"error","message":"Reconnecting... 2/5 (unexpected status 401 Unauthorized: Missing bearer or basic authentication in header, url: wss://api.openai.com/v1/responses, ...)"}`,
		`  event: {"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized: Missing bearer or basic authentication in header, url: https://api.openai.com/v1/responses, ..."}}`,
		`  runStreamed threw: Codex Exec exited with code 1: WARNING: proceeding, even though we could not create PATH aliases`,
		`  note: {"kind":"not an exec event"}`,
		`  cut: {"type":"turn.started"`,
	}
	evs := runParsed(t, codex.FormatExec, lines)
	ss := golden.OfType(evs, universal.TypeSessionStarted)
	if len(ss) != 1 || ss[0].NativeSessionID != "01a105f0-b2a5-7db0-ae20-21614d5e6916" {
		t.Fatalf("session.started %+v", ss)
	}
	var errs []string
	for _, e := range golden.OfType(evs, universal.TypeError) {
		errs = append(errs, e.Data.(*universal.Error).Message)
	}
	if len(errs) != 2 || !strings.HasPrefix(errs[0], "Reconnecting... 2/5") || !strings.HasPrefix(errs[1], "unexpected status 401") {
		t.Errorf("errors %q", errs)
	}
	te := golden.OfType(evs, universal.TypeTurnEnded)
	if len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn.ended %+v, want one in error", te)
	}
	// The other lines are the session's stderr.
	end := golden.OfType(evs, universal.TypeSessionEnded)[0].Data.(*universal.SessionEnded)
	stderr := string(end.Stderr)
	for _, want := range []string{"--version => codex-cli 0.160.0", "runStreamed threw", `note: {"kind"`, `cut: {"type":"turn.started"`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if strings.Contains(stderr, "thread.started") {
		t.Errorf("stderr %q holds an event", stderr)
	}
}

// TestRolloutTimerFired: before InjectedMessageEvent, Codex's thread
// timers (pre-release builds) put their prompt into the thread as a user
// message that is one <timer_fired> block {id, trigger, delivery,
// recurring, prompt, instructions} (openai/codex: the core's
// timer_prompt_input_item and its test timer_prompt_input_is_visible_user_input;
// the TUI's replay test thread_timer_fired_renders_prompt_history, whose
// EventMsg::UserMessage this is, and parse_timer_fired_user_message,
// which shows the prompt alone), in the model history and as the
// user_message event. The user message was the whole block, tags and
// scheduler instructions kept; it is the prompt, the timer its source
// ("timer timer-1", as injected_message names it). Lines written in those
// shapes (no public rollout with one was found).
func TestRolloutTimerFired(t *testing.T) {
	const id = "01a30000-0000-7000-8000-000000000002"
	const block = `<timer_fired>\n<id>timer-1</id>\n<trigger>delay 0s</trigger>\n<delivery>after-turn</delivery>\n<recurring>false</recurring>\n<prompt>\nGive me a random animal name.\n</prompt>\n<instructions>\nThis one-shot timer has already been removed from the schedule, so you do not need to call TimerDelete.\nDo not expose scheduler internals unless they matter to the user.\n</instructions>\n</timer_fired>`
	lines := []string{
		`{"timestamp":"2026-11-01T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","timestamp":"2026-11-01T10:00:00.000Z","cwd":"/home/dev/p","originator":"codex-tui","cli_version":"0.170.0-alpha.3","source":"cli","model_provider":"openai"}}`,
		`{"timestamp":"2026-11-01T10:05:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-11-01T10:05:00.010Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/home/dev/p","model":"gpt-5.5"}}`,
		`{"timestamp":"2026-11-01T10:05:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + block + `"}]}}`,
		`{"timestamp":"2026-11-01T10:05:00.110Z","type":"event_msg","payload":{"type":"user_message","message":"` + block + `\n","images":null,"local_images":[],"text_elements":[]}}`,
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
	// A user's message that only quotes the tag stays as typed.
	lines[4] = `{"timestamp":"2026-11-01T10:05:00.110Z","type":"event_msg","payload":{"type":"user_message","message":"what is <timer_fired>?","images":null}}`
	lines[3] = `{"timestamp":"2026-11-01T10:05:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"what is <timer_fired>?"}]}}`
	evs = runParsed(t, codex.FormatRollout, lines)
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindMessage && it.Role == universal.RoleUser && it.Content[0].Text != "what is <timer_fired>?" {
			t.Errorf("user message %q", it.Content[0].Text)
		}
	}
}
