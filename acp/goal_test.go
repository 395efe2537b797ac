package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestGoalExtension: the goal extension's snapshots (session_info_update
// _meta.goal, null when cleared; agentclientprotocol/codex-acp
// docs/goal-extension.md, Apache-2.0, whose example snapshot the first
// line is; claude-agent-acp advertises the same extension) were a
// session_info status item each, usage-only snapshots too. As package
// codex reads Codex's goal: a "goal" item when the objective or the status
// changes, detail the objective and status, the snapshot in metadata, and
// "goal_cleared". An update with other members keeps its session_info
// item.
func TestGoalExtension(t *testing.T) {
	info := func(meta string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"session_info_update","_meta":` + meta + `}}}` + "\n"
	}
	in := info(`{"goal":{"objective":"Ship the change","status":"active","createdAt":1710000000000,"updatedAt":1710000012000,"tokenBudget":null,"tokensUsed":42,"timeUsedSeconds":12,"controlMethod":"_session/goal"}}`) +
		info(`{"goal":{"objective":"Ship the change","status":"active","createdAt":1710000000000,"updatedAt":1710000030000,"tokenBudget":null,"tokensUsed":90,"timeUsedSeconds":30,"controlMethod":"_session/goal"}}`) +
		info(`{"goal":{"objective":"Ship the change","status":"complete","createdAt":1710000000000,"updatedAt":1710000040000,"tokenBudget":null,"tokensUsed":95,"timeUsedSeconds":40,"controlMethod":"_session/goal"}}`) +
		info(`{"goal":null}`) + info(`{"goal":null}`) +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"session_info_update","title":"Ship it","_meta":{"goal":{"objective":"Ship it","status":"paused"}}}}}` + "\n"
	var got []string
	for _, ev := range golden.OfType(translateChecked(t, in), universal.TypeItemCompleted) {
		for _, p := range ev.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartStatus {
				got = append(got, p.Label+": "+p.Detail)
			}
		}
	}
	want := []string{"goal: Ship the change (active)", "goal: Ship the change (complete)", "goal_cleared: ", "goal: Ship it (paused)", "title: Ship it"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("status items\n%q\nwant\n%q", got, want)
	}
}
