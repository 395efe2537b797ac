package codex_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestModeChanges: the settings a Codex thread's turns run with changed
// between turns (plan mode left, /approvals switched to full access, a
// turn/start's overrides), which rollouts (turn_context) and the
// app-server (thread/settings/updated) record, and nothing showed it. A
// change is now a status item labelled "mode", as Claude Code's permission
// mode and ACP's current mode are; the first settings are the session's.
// Lines in the shapes of the public rollouts of testdata/codex/public
// (Irrlicht's plan-mode-approval, 0.130.0; agentcmd's 2025-09 rollout)
// and of orquester's 0.154.0 app-server capture (TestThreadSettings…);
// ids and values ours.
func TestModeChanges(t *testing.T) {
	ctx := func(turn, collab, approval, sandbox string) string {
		p := `{"turn_id":"` + turn + `","cwd":"/w","approval_policy":"` + approval + `","sandbox_policy":` + sandbox + `,"model":"gpt-5.5"`
		if collab != "" {
			p += `,"collaboration_mode":{"mode":"` + collab + `","settings":{"model":"gpt-5.5"}}`
		}
		return rolloutLine("turn_context", p+"}")
	}
	turn := func(id string, lines ...string) []string {
		out := []string{rolloutLine("event_msg", `{"type":"task_started","turn_id":"`+id+`"}`)}
		out = append(out, lines...)
		return append(out, rolloutLine("event_msg", `{"type":"task_complete","turn_id":"`+id+`","last_agent_message":null}`))
	}
	cat := func(parts ...[]string) (out []string) {
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	meta := rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.130.0"}`)
	ws := `{"type":"workspace-write","network_access":false}`
	settings := func(approval, sandbox, collab string) string {
		return `{"method":"thread/settings/updated","params":{"threadId":"th1","threadSettings":{"cwd":"/w","approvalPolicy":"` + approval +
			`","sandboxPolicy":{"type":"` + sandbox + `"},"model":"gpt-5.5","collaborationMode":{"mode":"` + collab + `","settings":{}}}}}`
	}
	start := `{"id":1,"result":{"thread":{"id":"th1","cliVersion":"0.154.0","turns":[]},"model":"gpt-5.5","approvalPolicy":"on-request","sandbox":{"type":"workspaceWrite"}}}`
	type mode struct{ detail, md string }
	for _, tc := range []struct {
		name   string
		format string
		lines  []string
		want   []mode
	}{
		{"plan mode left", codex.FormatRollout, cat([]string{meta}, turn("t1", ctx("t1", "plan", "on-request", ws)), turn("t2", ctx("t2", "default", "on-request", ws))),
			[]mode{{"default", `{"collaboration_mode":"default","approval_policy":"on-request","sandbox":"workspace-write","previous":{"collaboration_mode":"plan"}}`}}},
		{"full access switched on", codex.FormatRollout, cat([]string{meta}, turn("t1", ctx("t1", "", "on-request", `{"mode":"read-only"}`)), turn("t2", ctx("t2", "", "never", `{"mode":"danger-full-access"}`))),
			[]mode{{"never, danger-full-access", `{"approval_policy":"never","sandbox":"danger-full-access","previous":{"approval_policy":"on-request","sandbox":"read-only"}}`}}},
		{"the same settings again", codex.FormatRollout, cat([]string{meta}, turn("t1", ctx("t1", "default", "never", ws)), turn("t2", ctx("t2", "default", "never", ws))), nil},
		{"applied settings name no sandbox", codex.FormatRollout, cat([]string{meta}, turn("t1", ctx("t1", "default", "never", ws),
			rolloutLine("event_msg", `{"type":"thread_settings_applied","thread_settings":{"approval_policy":"never","collaboration_mode":{"mode":"default","settings":{}},"permission_profile":{"type":"managed"}}}`))), nil},
		{"a sub-agent's settings are its own", codex.FormatRollout, cat([]string{meta}, turn("t1", ctx("t1", "default", "never", ws)),
			[]string{rolloutLine("session_meta", `{"id":"th2","cwd":"/w","cli_version":"0.130.0","parent_thread_id":"th1"}`)}, turn("t2", ctx("t2", "plan", "never", ws))), nil},
		{"app-server overrides", codex.FormatAppServer, []string{start, settings("on-request", "workspaceWrite", "default"), settings("never", "workspaceWrite", "plan")},
			[]mode{{"plan, never", `{"collaboration_mode":"plan","approval_policy":"never","sandbox":"workspaceWrite","previous":{"collaboration_mode":"default","approval_policy":"on-request"}}`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := run(t, tc.format, nil, tc.lines)
			var got []mode
			for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := e.Data.(*universal.ItemSnapshot).Item
				if it.Kind == universal.KindStatus && it.Content[0].Label == "mode" {
					got = append(got, mode{it.Content[0].Detail, string(it.Content[0].Metadata)})
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("mode items %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("mode item %d: %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}
