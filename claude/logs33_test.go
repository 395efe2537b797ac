package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
)

// TestThinkingDisplayOnStreamEvents: Claude Code 2.1.285 to 2.1.329 write
// thinking_display only on the stream events of a response
// (--include-partial-messages: message_start, and the content_block_start
// and thinking_delta events of a thinking block; not on its
// signature_delta or content_block_stop), and neither it nor
// thinking_duration_ms on the assistant line; 2.1.33x write both on the
// line too (TestThinkingDurationAndDisplay). The display was dropped; the
// reasoning part now has it as its metadata display (no duration_ms: none
// is sent), a text block of the same response none. The lines are written
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
