package codex_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/codex"
)

// TestSessionMetaWorkspaceFields: the session_meta of Codex 0.160 and
// later names the thread's workspace roots (runtime_workspace_roots, the
// directories its tools may work in beside cwd), how its history is kept
// (history_mode "paginated"), the multi-agent runtime (multi_agent_version
// "v1"/"v2"), a v2 sub-agent's path in the agent tree (agent_path) and the
// model context window the thread starts in (context_window.window_id, the
// id a compacted line's previous_window_id names). All five were dropped
// from the session's metadata; they are now in it as the other
// session_meta fields are (native names, context_window.window_id as
// context_window_id, as git.branch is git_branch). The first line is the
// 0.169.0 s10-subagent exec capture's sub-agent session_meta
// (testdata/codex/0.169.0, recorded for this project) with its base
// instructions shortened; the second is in the shape of the 0.160.0
// multi-agent v2 child of TestMultiAgentV2Rollout (logs12_test.go).
func TestSessionMetaWorkspaceFields(t *testing.T) {
	cases := []struct {
		name      string
		lines     []string
		want      []string
		forbidden []string
	}{
		{"0.169.0 sub-agent rollout, multi-agent v1", []string{
			`{"timestamp":"2026-11-21T12:09:06.150Z","ordinal":0,"type":"session_meta","payload":{"account_scoped":true,"session_id":"01a1fe02-9ab2-7a01-ac04-f8c770530964","id":"01a1fe02-9b5d-7d13-8e44-26ab73428075","parent_thread_id":"01a1fe02-9ab2-7a01-ac04-f8c770530964","timestamp":"2026-11-21T12:09:06.143Z","cwd":"/home/dev/project","runtime_workspace_roots":["/home/dev/project"],"originator":"codex_exec","cli_version":"0.169.0","source":{"subagent":{"thread_spawn":{"parent_thread_id":"01a1fe02-9ab2-7a01-ac04-f8c770530964","depth":1,"agent_path":null,"agent_nickname":"Epicurus","agent_role":null}}},"thread_source":"subagent","agent_nickname":"Epicurus","model_provider":"mock","base_instructions":{"text":"You are Codex."},"history_mode":"paginated","multi_agent_version":"v1","context_window":{"window_id":"01a1fe02-9b5f-7512-8028-6746f8ddce32"}}}`,
		}, []string{`"agent_nickname":"Epicurus","multi_agent_version":"v1","runtime_workspace_roots":["/home/dev/project"],"history_mode":"paginated","context_window_id":"01a1fe02-9b5f-7512-8028-6746f8ddce32","created_at":"2026-11-21T12:09:06.143Z","system_prompt":"You are Codex."`},
			[]string{`"type":"agent.unparsed"`}},
		{"multi-agent v2 child read alone", []string{
			`{"timestamp":"2026-08-07T13:00:01.300Z","type":"session_meta","payload":{"id":"child","session_id":"root","parent_thread_id":"root","cwd":"/w","cli_version":"0.160.0","source":{"subagent":{"thread_spawn":{"parent_thread_id":"root","depth":1,"agent_path":"/root/review"}}},"thread_source":"subagent","agent_path":"/root/review","multi_agent_version":"v2","runtime_workspace_roots":["/w","/srv/shared"]}}`,
		}, []string{`"parent_thread_id":"root","agent_path":"/root/review","multi_agent_version":"v2","runtime_workspace_roots":["/w","/srv/shared"]}`},
			[]string{`"type":"agent.unparsed"`}},
		{"absent, null, empty and misshapen values", []string{
			`{"timestamp":"2026-08-07T13:00:01.300Z","type":"session_meta","payload":{"id":"s","cwd":"/w","cli_version":"0.160.0","agent_path":null,"multi_agent_version":"","runtime_workspace_roots":[],"context_window":"w-1"}}`,
		}, []string{`{"agent":"codex","agent_version":"0.160.0","cwd":"/w","runtime_workspace_roots":[]}`},
			[]string{`"agent_path"`, `"multi_agent_version"`, `"context_window`, `"type":"agent.unparsed"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := run(t, codex.FormatRollout, nil, c.lines)
			inOrder(t, evs, c.want, c.forbidden)
		})
	}
}
