package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRolloutSpawnResult: a rollout (0.125, entireio/skills' Entire
// checkpoints) records a spawn_agent call, then collab_agent_spawn_end,
// then the function_call_output the model saw. The spawn event made the
// result and the output added nothing: a spawn the thread limit refused
// (status "not_found", new_thread_id null) was a completed result "not_found"
// without the error text, a spawn that worked a result "pending_init"
// with neither the agent's nickname, role and model nor what the model
// saw. The spawn event's result now waits for the output: the refusal is
// a failed result with Codex's text, a spawn the agent's thread id (as the
// output alone reads) with the model's output and the event's fields in
// metadata. Lines of the real log, prompts shortened.
func TestRolloutSpawnResult(t *testing.T) {
	const (
		meta   = `{"timestamp":"2026-04-29T22:56:57.014Z","type":"session_meta","payload":{"id":"019ddb75-a272-7d50-b41d-90017f500b5a","timestamp":"2026-04-29T22:56:52.854Z","cwd":"/Users/alisha/.marvin/worktrees/project-overview","originator":"codex-tui","cli_version":"0.125.0","source":"cli","model_provider":"openai"}}`
		start  = `{"timestamp":"2026-04-29T23:26:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"019ddb90-0000-7000-8000-000000000001","model_context_window":258400}}`
		user   = `{"timestamp":"2026-04-29T23:26:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Implement the plan with sub-agents."}]}}`
		call   = `{"timestamp":"2026-04-29T23:26:19.952Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","arguments":"{\"agent_type\":\"worker\",\"reasoning_effort\":\"high\",\"message\":\"Implement Task 1.\"}","call_id":"call_lFL584fJXyfoRlTHfeIhgL2V"}}`
		usage  = `{"timestamp":"2026-04-29T23:26:19.968Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":2634132,"cached_input_tokens":2488704,"output_tokens":23419,"reasoning_output_tokens":6643,"total_tokens":2657551},"last_token_usage":{"input_tokens":71468,"cached_input_tokens":70528,"output_tokens":590,"reasoning_output_tokens":118,"total_tokens":72058},"model_context_window":258400},"rate_limits":null}}`
		end    = `{"timestamp":"2026-04-29T23:26:19.977Z","type":"event_msg","payload":{"type":"collab_agent_spawn_end","call_id":"call_lFL584fJXyfoRlTHfeIhgL2V","sender_thread_id":"019ddb75-a272-7d50-b41d-90017f500b5a","new_thread_id":"019ddb90-9933-7461-ad38-875618e21ac6","new_agent_nickname":"Socrates","new_agent_role":"worker","prompt":"Implement Task 1.","model":"gpt-5.4","reasoning_effort":"high","status":"pending_init"}}`
		output = `{"timestamp":"2026-04-29T23:26:19.978Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_lFL584fJXyfoRlTHfeIhgL2V","output":"{\"agent_id\":\"019ddb90-9933-7461-ad38-875618e21ac6\",\"nickname\":\"Socrates\"}"}}`
		fcall  = `{"timestamp":"2026-04-29T23:32:40.575Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","arguments":"{\"agent_type\":\"worker\",\"reasoning_effort\":\"high\",\"message\":\"Review Task 2 for spec compliance only. Do not edit files.\"}","call_id":"call_5sDZA8Xl7YqVrLPDONicfNFq"}}`
		fend   = `{"timestamp":"2026-04-29T23:32:40.576Z","type":"event_msg","payload":{"type":"collab_agent_spawn_end","call_id":"call_5sDZA8Xl7YqVrLPDONicfNFq","sender_thread_id":"019ddb75-a272-7d50-b41d-90017f500b5a","new_thread_id":null,"prompt":"Review Task 2 for spec compliance only. Do not edit files.","model":"","reasoning_effort":"high","status":"not_found"}}`
		fout   = `{"timestamp":"2026-04-29T23:32:40.600Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_5sDZA8Xl7YqVrLPDONicfNFq","output":"collab spawn failed: agent thread limit reached (max 6)"}}`
		done   = `{"timestamp":"2026-04-29T23:40:00.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"019ddb90-0000-7000-8000-000000000001","last_agent_message":"done"}}`
	)
	const (
		spawned = `{"spawn_result":{"agent_id":"019ddb90-9933-7461-ad38-875618e21ac6","nickname":"Socrates"},"new_thread_id":"019ddb90-9933-7461-ad38-875618e21ac6","new_agent_nickname":"Socrates","new_agent_role":"worker","model":"gpt-5.4","reasoning_effort":"high","status":"pending_init"}`
		event   = `{"new_thread_id":"019ddb90-9933-7461-ad38-875618e21ac6","new_agent_nickname":"Socrates","new_agent_role":"worker","model":"gpt-5.4","reasoning_effort":"high","status":"pending_init"}`
		refused = `{"reasoning_effort":"high","status":"not_found"}`
		limit   = "collab spawn failed: agent thread limit reached (max 6)"
		agentID = "019ddb90-9933-7461-ad38-875618e21ac6"
	)
	for _, tc := range []struct {
		name   string
		lines  []string
		output string
		failed bool
		meta   string
	}{
		{"spawned", []string{meta, start, user, call, usage, end, output, done}, agentID, false, spawned},
		{"spawned, output first", []string{meta, start, user, call, output, end, done}, agentID, false, `{"spawn_result":{"agent_id":"019ddb90-9933-7461-ad38-875618e21ac6","nickname":"Socrates"}}`},
		{"spawned, no output line", []string{meta, start, user, call, end, done}, agentID, false, event},
		{"refused", []string{meta, start, user, fcall, fend, usage, fout, done}, limit, true, refused},
		{"refused, no output line", []string{meta, start, user, fcall, fend, done}, "", true, refused},
		{"refused, output alone", []string{meta, start, user, fcall, fout, done}, limit, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := runParsed(t, codex.FormatRollout, tc.lines)
			result := oneToolResult(t, evs)
			r := result
			p := r.Content[0]
			if p.Output != tc.output || p.IsError != tc.failed || (r.Status == universal.StatusFailed) != tc.failed {
				t.Errorf("result output %q is_error %v status %s, want %q failed %v", p.Output, p.IsError, r.Status, tc.output, tc.failed)
			}
			if string(p.Metadata) != tc.meta {
				t.Errorf("result metadata %s\nwant %s", p.Metadata, tc.meta)
			}
			c := golden.HostileCase{Name: tc.name, Format: codex.FormatRollout, Framing: framing(codex.FormatRollout),
				New: newFor(codex.FormatRollout), Data: []byte(strings.Join(tc.lines, "\n") + "\n")}
			golden.CheckRestoreAnywhere(t, c)
		})
	}
}
