package codex_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// reverts returns each status item labelled reverted as "detail meta".
func reverts(evs []universal.Event) []string {
	var out []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus && it.Content[0].Label == "reverted" {
			out = append(out, it.Content[0].Detail+" "+string(it.Content[0].Metadata))
		}
	}
	return out
}

// TestReverts: a revert of the conversation is a status item labelled
// reverted, as OpenCode's are, whose metadata turn_id names the first turn
// it removes. A rollout's thread_rolled_back {num_turns} was a status item
// labelled thread_rolled_back that named no turn; the app-server's
// thread/reverted, and an earlier app-server's thread/rollback, were
// ignored.
func TestReverts(t *testing.T) {
	turn := func(id string) string {
		return `{"type":"event_msg","payload":{"type":"task_started","turn_id":"` + id + `"}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"user_message","message":"go on"}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"agent_message","message":"done"}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"` + id + `"}}`
	}
	rollback := func(n int) string {
		return fmt.Sprintf(`{"type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":%d}}`, n)
	}
	// After the first rollback t2 is gone: the second counts t1 and t3.
	evs := run(t, codex.FormatRollout, nil, strings.Split(strings.Join([]string{
		`{"type":"session_meta","payload":{"id":"s1","cwd":"/a","cli_version":"0.171.0"}}`,
		turn("t1"), turn("t2"), rollback(1), turn("t3"), rollback(2), rollback(5),
	}, "\n"), "\n"))
	want := `[reverted the last turn {"num_turns":1,"turn_id":"t2"} reverted the last 2 turns {"num_turns":2,"turn_id":"t1"} reverted the last 5 turns {"num_turns":5}]`
	if got := fmt.Sprint(reverts(evs)); got != want {
		t.Errorf("rollout reverts\n got %s\nwant %s", got, want)
	}

	// Codex 0.16x: thread/revert {beforeTurnId}, then thread/reverted.
	started := `{"method":"thread/started","params":{"thread":{"id":"th1","cliVersion":"0.169.0"}}}`
	evs = run(t, codex.FormatExchange, nil, []string{
		`in {"id":1,"method":"thread/start","params":{}}`, `{"id":1,"result":{"thread":{"id":"th1","cliVersion":"0.169.0"}}}`,
		started, turnStarted, agentDone, turnDone,
		`in {"id":2,"method":"thread/revert","params":{"threadId":"th1","beforeTurnId":"tu1"}}`,
		`{"method":"thread/reverted","params":{"threadId":"th1"}}`,
		`{"id":2,"result":{"thread":{"id":"th1","turns":[]},"itemsBackwardsCursor":null,"turnsBackwardsCursor":null}}`,
	})
	if got, want := fmt.Sprint(reverts(evs)), `[reverted to before turn tu1 {"turn_id":"tu1"}]`; got != want {
		t.Errorf("thread/reverted: got %s, want %s", got, want)
	}
	// Server lines only: the notification names no turn.
	evs = run(t, codex.FormatAppServer, nil, []string{started, turnStarted, agentDone, turnDone,
		`{"method":"thread/reverted","params":{"threadId":"th1"}}`, `{"method":"thread/reverted","params":{"threadId":"th9"}}`})
	if got, want := fmt.Sprint(reverts(evs)), `[reverted ]`; got != want {
		t.Errorf("thread/reverted without its request: got %q, want %q", got, want)
	}

	// Earlier app-servers: thread/rollback {numTurns}, reported when it
	// succeeds; a refused one is not.
	evs = run(t, codex.FormatExchange, nil, []string{
		`in {"id":1,"method":"thread/start","params":{}}`, `{"id":1,"result":{"thread":{"id":"th1","cliVersion":"0.100.0"}}}`,
		started, turnStarted, agentDone, turnDone,
		`in {"id":2,"method":"thread/rollback","params":{"threadId":"th1","numTurns":1}}`,
		`{"id":2,"error":{"code":-32600,"message":"no"}}`,
		`in {"id":3,"method":"thread/rollback","params":{"threadId":"th1","numTurns":1}}`,
		`{"id":3,"result":{"thread":{"id":"th1"}}}`,
	})
	if got, want := fmt.Sprint(reverts(evs)), `[reverted the last turn {"num_turns":1,"turn_id":"tu1"}]`; got != want {
		t.Errorf("thread/rollback: got %s, want %s", got, want)
	}
}
