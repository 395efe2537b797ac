package codex_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// goalItems returns the session's status items as "label: detail
// tokensUsed".
func goalItems(evs []universal.Event) []string {
	var got []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindStatus {
			p := it.Content[0]
			got = append(got, p.Label+": "+p.Detail+" "+gjson.GetBytes(p.Metadata, "goal.tokensUsed").Raw)
		}
	}
	return got
}

// TestRolloutThreadGoalUpdated: Codex persists thread_goal_updated in
// rollouts (codex-rs/rollout/src/policy.rs, should_persist_event_msg:
// EventMsg::ThreadGoalUpdated), the ThreadGoalUpdatedEvent of
// codex-rs/protocol {threadId, turnId?, goal: ThreadGoal}, camelCase as
// the app-server's thread/goal/updated. A goal set with /goal opens its
// turns with Codex's own prompt (<codex_internal_context source="goal">,
// injected context, rightly no user message), so the goal line is the
// only trace of what the user asked; it was ignored, and a goal session
// read as turns nobody prompted. It is now the goal status item the
// app-server's notification gives (TestThreadGoalNotifications): one when
// the objective or status changes, none for usage updates. The lines are
// in the shapes public projects' tests quote from rollouts (the objective
// one of them, "please see why GitHub action is failing"; a paused goal
// after turn_aborted), openai/codex's own test of the persisted line
// ("the edit result should retain the goal budget and active status").
func TestRolloutThreadGoalUpdated(t *testing.T) {
	const id = "01a0e000-0000-7000-8000-000000000001"
	goal := func(turn, status string, used int) string {
		tu := ""
		if turn != "" {
			tu = `,"turnId":"` + turn + `"`
		}
		return `{"timestamp":"2026-09-26T22:42:01.000Z","type":"event_msg","payload":{"type":"thread_goal_updated","threadId":"` + id + `"` + tu +
			`,"goal":{"threadId":"` + id + `","objective":"please see why GitHub action is failing","status":"` + status +
			`","tokenBudget":20000,"tokensUsed":` + strconv.Itoa(used) + `,"timeUsedSeconds":4,"createdAt":1790462520,"updatedAt":1790462521}}}`
	}
	evs := runParsed(t, codex.FormatRollout, []string{
		`{"timestamp":"2026-09-26T22:41:59.000Z","type":"session_meta","payload":{"id":"` + id + `","cwd":"/w","originator":"codex-tui","cli_version":"0.160.0","source":"cli"}}`,
		goal("", "active", 0),
		`{"timestamp":"2026-09-26T22:42:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-09-26T22:42:00.110Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/w","model":"gpt-5.5"}}`,
		`{"timestamp":"2026-09-26T22:42:00.200Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<codex_internal_context source=\"goal\">\nContinue working toward the active thread goal.\n<objective>\nplease see why GitHub action is failing\n</objective>\n</codex_internal_context>"}]}}`,
		`{"timestamp":"2026-09-26T22:42:01.000Z","type":"event_msg","payload":{"type":"agent_message","message":"Looking."}}`,
		goal("t1", "active", 2573),
		`{"timestamp":"2026-09-26T22:42:02.000Z","type":"event_msg","payload":{"type":"turn_aborted","turn_id":"t1","reason":"interrupted"}}`,
		goal("", "paused", 2573),
		goal("", "active", 2573),
		`{"timestamp":"2026-09-26T22:42:03.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`,
		`{"timestamp":"2026-09-26T22:42:03.200Z","type":"event_msg","payload":{"type":"agent_message","message":"The lockfile is stale."}}`,
		goal("t2", "complete", 4100),
		`{"timestamp":"2026-09-26T22:42:04.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t2","last_agent_message":"The lockfile is stale."}}`,
	})
	want := []string{
		"goal: please see why GitHub action is failing (active) 0",
		"goal: please see why GitHub action is failing (paused) 2573",
		"goal: please see why GitHub action is failing (active) 2573",
		"goal: please see why GitHub action is failing (complete) 4100",
	}
	if got := goalItems(evs); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("status items %q, want %q", got, want)
	}
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Role == universal.RoleUser {
			t.Errorf("user message %q: the goal's continuation prompt is Codex's", it.Content[0].Text)
		}
	}
	// The goal before the first turn_context waits for the session to
	// start with the model that turn_context tells.
	if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); !strings.Contains(md, `"model":"gpt-5.5"`) {
		t.Errorf("session.started metadata %s, want the model", md)
	}
	if evs[1].Type != universal.TypeItemStarted || evs[2].Type != universal.TypeItemCompleted || evs[3].Type != universal.TypeTurnStarted {
		t.Errorf("after session.started: %s, %s, %s; want the goal item, then the turn", evs[1].Type, evs[2].Type, evs[3].Type)
	}
}
