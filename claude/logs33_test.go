package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestThinkingDisplayOnStreamEvents: Claude Code 2.1.285 to 2.1.329 write
// thinking_display only on the stream events of a response
// (--include-partial-messages: message_start, and the content_block_start
// and thinking_delta events of a thinking block; not on its
// signature_delta or content_block_stop), and neither it nor
// thinking_duration_ms on the assistant line (2.1.289 to 2.1.292 write
// the duration there, not the display); 2.1.33x write both on the line
// too (TestThinkingDurationAndDisplay). The display was dropped; the
// reasoning part now has it as its metadata display, before the line's
// duration_ms when the line has one, as a 2.1.33x line orders them; a
// text block of the same response has none. The lines are written
// in the shape of a real 2.1.285 recording (pingdotgg/t3code's replay
// fixture claude_nested_subagent_model, MIT; see
// testdata/claude/public/SOURCES.md) with ids and texts of ours.
func TestThinkingDisplayOnStreamEvents(t *testing.T) {
	const (
		sid    = `"session_id":"5e55e55e-0000-4000-8000-000000000033","parent_tool_use_id":null`
		init   = `{"type":"system","subtype":"init","claude_code_version":"2.1.285","cwd":"/home/dev/project","tools":[],"model":"claude-sonnet-4-6","permissionMode":"bypassPermissions","uuid":"0d000000-0000-4000-8000-000000000001","session_id":"5e55e55e-0000-4000-8000-000000000033"}`
		start  = `{"type":"stream_event","event":{"type":"message_start","message":{"model":"claude-sonnet-4-6","id":"msg_disp_1","type":"message","role":"assistant","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":8}}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000002","ttft_ms":2035,"thinking_display":"summarized"}`
		bstart = `{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000003","thinking_display":"summarized"}`
		tokens = `{"type":"system","subtype":"thinking_tokens","estimated_tokens":1,"estimated_tokens_delta":1,"session_id":"5e55e55e-0000-4000-8000-000000000033","uuid":"0d000000-0000-4000-8000-000000000004"}`
		delta1 = `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Checking the","estimated_tokens":null}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000005","thinking_display":"summarized"}`
		delta2 = `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" folder first.","estimated_tokens":null}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000006","thinking_display":"summarized"}`
		sig    = `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2lnbmF0dXJl"}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000007"}`
		think  = `{"type":"assistant","message":{"model":"claude-sonnet-4-6","id":"msg_disp_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Checking the folder first.","signature":"c2lnbmF0dXJl"}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":8}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000008","timestamp":"2026-10-01T10:02:27.181Z"}`
		bstop  = `{"type":"stream_event","event":{"type":"content_block_stop","index":0},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000009"}`
		tstart = `{"type":"stream_event","event":{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}},` + sid + `,"uuid":"0d000000-0000-4000-8000-00000000000a"}`
		tdelta = `{"type":"stream_event","event":{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"The folder is empty."}},` + sid + `,"uuid":"0d000000-0000-4000-8000-00000000000b"}`
		answer = `{"type":"assistant","message":{"model":"claude-sonnet-4-6","id":"msg_disp_1","type":"message","role":"assistant","content":[{"type":"text","text":"The folder is empty."}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":8}},` + sid + `,"uuid":"0d000000-0000-4000-8000-00000000000c","timestamp":"2026-10-01T10:02:28.000Z"}`
		tstop  = `{"type":"stream_event","event":{"type":"content_block_stop","index":1},` + sid + `,"uuid":"0d000000-0000-4000-8000-00000000000d"}`
		mdelta = `{"type":"stream_event","event":{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":30,"output_tokens_details":{"thinking_tokens":12}}},` + sid + `,"uuid":"0d000000-0000-4000-8000-00000000000e"}`
		mstop  = `{"type":"stream_event","event":{"type":"message_stop"},` + sid + `,"uuid":"0d000000-0000-4000-8000-00000000000f"}`
		result = `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"The folder is empty.","stop_reason":"end_turn","session_id":"5e55e55e-0000-4000-8000-000000000033","usage":{"input_tokens":3,"output_tokens":30},"uuid":"0d000000-0000-4000-8000-000000000010"}`

		// The 2.1.33x line after the same stream events: its duration and
		// display, each once.
		think33 = `{"type":"assistant","message":{"model":"claude-sonnet-4-6","id":"msg_disp_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Checking the folder first.","signature":"c2lnbmF0dXJl"}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":8}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000008","timestamp":"2026-10-01T10:02:27.181Z","thinking_duration_ms":920,"thinking_display":"summarized"}`
		// 2.1.292: the display on the stream events, the duration on the
		// line (a real recording of pingdotgg/t3code,
		// claude_background_task_stop_turn).
		think292 = `{"type":"assistant","message":{"model":"claude-sonnet-4-6","id":"msg_disp_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Checking the folder first.","signature":"c2lnbmF0dXJl"}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":8}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000008","timestamp":"2026-10-01T10:02:27.181Z","thinking_duration_ms":693}`
		// A line whose display differs from its stream events': the line's.
		thinkUpd = `{"type":"assistant","message":{"model":"claude-sonnet-4-6","id":"msg_disp_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Checking the folder first.","signature":"c2lnbmF0dXJl"}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":8}},` + sid + `,"uuid":"0d000000-0000-4000-8000-000000000008","thinking_display":"updates"}`
	)
	for _, tc := range []struct {
		name  string
		lines []string
		metas []string // the reasoning parts' metadata, in order ("" none)
	}{
		{"2.1.285", []string{init, start, bstart, tokens, delta1, tokens, delta2, sig, think, bstop, tstart, tdelta, answer, tstop, mdelta, mstop, result}, []string{`{"display":"summarized"}`}},
		// The block's start cut off: its deltas say it.
		{"deltas only", []string{init, start, delta1, delta2, sig, think, bstop, mdelta, mstop, result}, []string{`{"display":"summarized"}`}},
		{"2.1.33x line", []string{init, start, bstart, delta1, delta2, sig, think33, bstop, mdelta, mstop, result},
			[]string{`{"display":"summarized","duration_ms":920}`}},
		{"2.1.292", []string{init, start, bstart, delta1, delta2, sig, think292, bstop, mdelta, mstop, result},
			[]string{`{"display":"summarized","duration_ms":693}`}},
		{"line differs", []string{init, start, bstart, delta1, delta2, sig, thinkUpd, bstop, mdelta, mstop, result},
			[]string{`{"display":"updates"}`}},
		{"without partial messages", []string{init, think, answer, result}, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkReasoningMeta(t, feed(t, claude.FormatStreamJSON, nil, nil, tc.lines...), tc.metas)
		})
	}
}

// TestDetectStreamTypes: an output whose first line is a stream-json
// message type other than the common ones was not detected (Detect said
// "": another agent's line). Claude Code 2.1.278 writes conversation_reset
// before the init when /clear is the first input (a real recording of
// lezli01/vincent, internal/agent/claude/testdata/
// stream_conversation_reset_2.1.278.jsonl, read, not copied; its licence
// is not an open one); the other types are the stream-json types the
// translator knows. The lines are ours, in those shapes.
func TestDetectStreamTypes(t *testing.T) {
	const rest = "\n" + `{"type":"system","subtype":"init","cwd":"/home/dev/project","session_id":"5e55e55e-0000-4000-8000-000000000034","tools":["Bash"],"model":"claude-opus-5","permissionMode":"bypassPermissions","claude_code_version":"2.1.278","uuid":"0e000000-0000-4000-8000-000000000002"}` + "\n"
	for _, first := range []string{
		`{"type":"conversation_reset","new_conversation_id":"5e55e55e-0000-4000-8000-000000000035","uuid":"0e000000-0000-4000-8000-000000000001","session_id":"5e55e55e-0000-4000-8000-000000000034"}`,
		`{"type":"tool_use_summary","summary":"Listed the folder","preceding_tool_use_ids":["toolu_1"],"uuid":"0e000000-0000-4000-8000-000000000001","session_id":"5e55e55e-0000-4000-8000-000000000034"}`,
		`{"type":"prompt_suggestion","suggestion":"Run the tests","uuid":"0e000000-0000-4000-8000-000000000001","session_id":"5e55e55e-0000-4000-8000-000000000034"}`,
		`{"type":"active_goal","uuid":"0e000000-0000-4000-8000-000000000001","session_id":"5e55e55e-0000-4000-8000-000000000034"}`,
		`{"type":"autocompact_state","uuid":"0e000000-0000-4000-8000-000000000001","session_id":"5e55e55e-0000-4000-8000-000000000034"}`,
		`{"type":"transcript_mirror","filePath":"/home/dev/.claude/projects/p/s.jsonl","entries":[],"session_id":"5e55e55e-0000-4000-8000-000000000034"}`,
	} {
		if got := claude.Detect([]byte(first + rest)); got != claude.FormatStreamJSON {
			t.Errorf("Detect(%.40s…) = %q, want %q", first, got, claude.FormatStreamJSON)
		}
	}
}

// TestTaskBeforeInit: a skill that runs forked as the first input of a
// stream-json session (2.1.277, `/<skill> args` with context: fork) runs
// before the CLI writes its init: its task_started and task_notification
// (a local_agent without a tool call, skip_transcript and ambient) come
// first. The first began the session without the init's metadata
// (version, model, cwd, tools, all lost). Task lines before the session
// began are now held until the line that begins it (the init: they run in
// its turn) or the end of the input. The lines are written in the shape
// of a real recording of lezli01/vincent
// (internal/agent/claude/testdata/stream_skill_fork_2.1.277.jsonl, read,
// not copied: its licence is not an open one), ids, paths and texts ours.
func TestTaskBeforeInit(t *testing.T) {
	const (
		sid     = `"session_id":"5e55e55e-0000-4000-8000-000000000036"`
		started = `{"type":"system","subtype":"task_started","task_id":"a0000000000000036","description":"/probe","subagent_type":"general-purpose","is_backgrounded":false,"spawn_depth":1,"task_type":"local_agent","prompt":"Reply with the word PROBE and the arguments: cat\n","skip_transcript":true,"ambient":true,"uuid":"0f000000-0000-4000-8000-000000000001",` + sid + `}`
		limit   = `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","rateLimitType":"five_hour"},"uuid":"0f000000-0000-4000-8000-000000000002",` + sid + `}`
		done    = `{"type":"system","subtype":"task_notification","task_id":"a0000000000000036","status":"completed","output_file":"/tmp/claude/tasks/a0000000000000036.output","summary":"/probe","skip_transcript":true,"ambient":true,"uuid":"0f000000-0000-4000-8000-000000000003",` + sid + `}`
		init    = `{"type":"system","subtype":"init","cwd":"/home/dev/project",` + sid + `,"tools":["Task","Bash","Skill"],"mcp_servers":[],"model":"claude-opus-5[1m]","permissionMode":"bypassPermissions","slash_commands":["probe"],"apiKeySource":"none","claude_code_version":"2.1.277","output_style":"default","agents":["general-purpose"],"skills":["probe"],"plugins":[],"uuid":"0f000000-0000-4000-8000-000000000004"}`
		out     = `{"type":"assistant","message":{"id":"0f000000-0000-4000-8000-000000000005","model":"<synthetic>","role":"assistant","stop_reason":"end_turn","type":"message","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"PROBE cat"}]},"parent_tool_use_id":null,"local_command_source":"<local-command-stdout>PROBE cat</local-command-stdout>",` + sid + `,"uuid":"0f000000-0000-4000-8000-000000000006","timestamp":"2026-09-19T12:57:54.422Z"}`
		result  = `{"is_error":false,"duration_api_ms":0,"num_turns":0,"stop_reason":null,` + sid + `,"total_cost_usd":0.1,"usage":{"input_tokens":0,"output_tokens":0},"permission_denials":[],"subtype":"success","result":"PROBE cat","local_command":"custom","type":"result","duration_ms":2135,"uuid":"0f000000-0000-4000-8000-000000000007"}`
	)
	for _, tc := range []struct {
		name    string
		lines   []string
		version string // the session's agent_version ("" none)
		inTurn  bool   // the task's status item comes inside the turn
	}{
		{"before the init", []string{started, limit, done, init, out, result}, "2.1.277", true},
		{"no init", []string{started, limit, done}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatStreamJSON, nil, nil, tc.lines...)
			checkShape(t, evs)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
				t.Errorf("agent.unparsed: %+v", u[0].Data)
			}
			md := golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata
			if got := gjson.GetBytes(md, "agent_version").Str; got != tc.version {
				t.Errorf("agent_version %q, want %q (metadata %s)", got, tc.version, md)
			}
			if tc.version != "" {
				for _, k := range []string{"model", "cwd", "tools"} {
					if !gjson.GetBytes(md, k).Exists() {
						t.Errorf("session metadata without %s: %s", k, md)
					}
				}
			}
			status, turn := -1, -1
			for i, ev := range evs {
				switch d := ev.Data.(type) {
				case *universal.ItemSnapshot:
					if ev.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindStatus && d.Item.NativeItemID == "a0000000000000036" && d.Item.Status == universal.StatusCompleted {
						status = i
					}
				case *universal.TurnStarted:
					if turn < 0 {
						turn = i
					}
				}
			}
			if status < 0 {
				t.Fatal("no completed status item of the task")
			}
			if got := turn >= 0 && turn < status; got != tc.inTurn {
				t.Errorf("task's status item inside the turn: %v, want %v", got, tc.inTurn)
			}
		})
	}
}

// TestToollessTaskPrompt: a task no tool call started (a skill run forked
// as the user's input, 2.1.277: task_started without tool_use_id) gives
// its prompt, the skill's instructions with the arguments, only on its
// task_started line, which was dropped. Its status part now keeps it as
// metadata prompt; a sub-agent's task (a tool call's, whose input holds
// the prompt) does not repeat it. Lines in the shape of lezli01/vincent's
// stream_skill_fork_2.1.277.jsonl (see TestTaskBeforeInit), ours.
func TestToollessTaskPrompt(t *testing.T) {
	const (
		sid  = `"session_id":"5e55e55e-0000-4000-8000-000000000037"`
		init = `{"type":"system","subtype":"init","cwd":"/home/dev/project",` + sid + `,"tools":["Task","Skill"],"model":"claude-opus-5","permissionMode":"bypassPermissions","claude_code_version":"2.1.277","uuid":"0f100000-0000-4000-8000-000000000001"}`
		fork = `{"type":"system","subtype":"task_started","task_id":"a0000000000000037","description":"/probe","subagent_type":"general-purpose","is_backgrounded":false,"task_type":"local_agent","prompt":"Reply with the word PROBE and the arguments: cat\n","skip_transcript":true,"uuid":"0f100000-0000-4000-8000-000000000002",` + sid + `}`
		call = `{"type":"assistant","message":{"id":"msg_task_1","type":"message","role":"assistant","model":"claude-opus-5","content":[{"type":"tool_use","id":"toolu_task_1","name":"Agent","input":{"description":"Look around","subagent_type":"general-purpose","prompt":"List the files."}}],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,` + sid + `,"uuid":"0f100000-0000-4000-8000-000000000003"}`
		sub  = `{"type":"system","subtype":"task_started","task_id":"a0000000000000038","tool_use_id":"toolu_task_1","description":"Look around","subagent_type":"general-purpose","is_backgrounded":false,"task_type":"local_agent","prompt":"List the files.","uuid":"0f100000-0000-4000-8000-000000000004",` + sid + `}`
	)
	for _, tc := range []struct {
		name, task string
		lines      []string
		prompt     string // the status part's metadata prompt ("" none)
	}{
		{"forked skill", "a0000000000000037", []string{init, fork}, "Reply with the word PROBE and the arguments: cat\n"},
		{"sub-agent", "a0000000000000038", []string{init, call, sub}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatStreamJSON, nil, nil, tc.lines...)
			checkShape(t, evs)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
				t.Errorf("agent.unparsed: %+v", u[0].Data)
			}
			found := false
			for _, ev := range golden.OfType(evs, universal.TypeItemStarted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.Kind != universal.KindStatus || it.NativeItemID != tc.task {
					continue
				}
				found = true
				if got := gjson.GetBytes(it.Content[0].Metadata, "prompt").Str; got != tc.prompt {
					t.Errorf("prompt %q, want %q (metadata %s)", got, tc.prompt, it.Content[0].Metadata)
				}
			}
			if !found {
				t.Fatal("no status item of the task")
			}
		})
	}
}
