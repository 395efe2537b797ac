package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestThinkingDurationAndDisplay: Claude Code 2.1.33x writes beside an
// assistant line that carries a thinking block how long the model thought
// (thinking_duration_ms; a transcript's thinkingDurationMs) and how the
// thinking was asked to be shown (thinking_display; thinkingDisplay:
// "summarized" is a summary of the thinking, not the thinking itself,
// as the CLI's setting showThinkingSummaries asks; the capture lab's
// 2.1.330 and 2.1.332 recordings write "updates"). Both were dropped. They
// are now the reasoning part's metadata (duration_ms, display), beside
// narration; a line without them adds none, and a text block of the same
// line gets none. The lines are written in the shape of the 2.1.330
// recordings (testdata/claude/2.1.330) with ids and texts of ours.
func TestThinkingDurationAndDisplay(t *testing.T) {
	const (
		init   = `{"type":"system","subtype":"init","session_id":"5e55e55e-0000-4000-8000-000000000001","model":"claude-sonnet-5","cwd":"/home/dev/project","tools":["Bash"],"claude_code_version":"2.1.332","uuid":"0a000000-0000-4000-8000-000000000001"}`
		think  = `{"type":"assistant","message":{"id":"msg_think_1","type":"message","role":"assistant","model":"claude-sonnet-5","content":[{"type":"thinking","thinking":"Listing the folder first.","signature":"c2lnbmF0dXJl"}],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"5e55e55e-0000-4000-8000-000000000001","uuid":"0a000000-0000-4000-8000-000000000002","timestamp":"2026-11-21T12:01:47.092Z","thinking_duration_ms":1834,"thinking_display":"summarized"}`
		answer = `{"type":"assistant","message":{"id":"msg_think_1","type":"message","role":"assistant","model":"claude-sonnet-5","content":[{"type":"text","text":"Nothing to list."}],"stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":9}},"parent_tool_use_id":null,"session_id":"5e55e55e-0000-4000-8000-000000000001","uuid":"0a000000-0000-4000-8000-000000000003","timestamp":"2026-11-21T12:01:48.000Z"}`
		result = `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"Nothing to list.","session_id":"5e55e55e-0000-4000-8000-000000000001","usage":{"input_tokens":12,"output_tokens":9},"uuid":"0a000000-0000-4000-8000-000000000004"}`

		// The same response streamed (--include-partial-messages): the
		// stream events carry thinking_display too, the assistant line
		// both fields.
		start   = `{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_think_1","type":"message","role":"assistant","model":"claude-sonnet-5","content":[],"usage":{"input_tokens":12,"output_tokens":1}}},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000001","thinking_display":"summarized"}`
		bstart  = `{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000002","thinking_display":"summarized"}`
		bdelta  = `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Listing the folder first."}},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000003","thinking_display":"summarized"}`
		bstop   = `{"type":"stream_event","event":{"type":"content_block_stop","index":0},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000004"}`
		tstart  = `{"type":"stream_event","event":{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000005"}`
		tdelta  = `{"type":"stream_event","event":{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Nothing to list."}},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000006"}`
		tstop   = `{"type":"stream_event","event":{"type":"content_block_stop","index":1},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000007"}`
		mdelta  = `{"type":"stream_event","event":{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000008"}`
		mstop   = `{"type":"stream_event","event":{"type":"message_stop"},"session_id":"5e55e55e-0000-4000-8000-000000000001","parent_tool_use_id":null,"uuid":"0b000000-0000-4000-8000-000000000009"}`
		plain   = `{"type":"assistant","message":{"id":"msg_think_2","type":"message","role":"assistant","model":"claude-sonnet-5","content":[{"type":"thinking","thinking":"Older shape.","signature":"c2ln"}],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"5e55e55e-0000-4000-8000-000000000001","uuid":"0a000000-0000-4000-8000-000000000005"}`
		narrate = `{"type":"assistant","message":{"id":"msg_think_3","type":"message","role":"assistant","model":"claude-sonnet-5","content":[{"type":"thinking","thinking":"Now running the tests.","signature":"c2ln"}],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"5e55e55e-0000-4000-8000-000000000001","uuid":"0a000000-0000-4000-8000-000000000006","narration_block_indexes":[0],"thinking_duration_ms":0,"thinking_display":"updates"}`

		// A transcript's entries (camelCase, as 2.1.332 writes them).
		tprompt = `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"List the folder."},"uuid":"0c000000-0000-4000-8000-000000000001","timestamp":"2026-11-21T12:01:45.000Z","userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"5e55e55e-0000-4000-8000-000000000001","version":"2.1.332","gitBranch":"main"}`
		tthink  = `{"parentUuid":"0c000000-0000-4000-8000-000000000001","isSidechain":false,"message":{"model":"claude-sonnet-5","id":"msg_think_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Listing the folder first.","signature":"c2lnbmF0dXJl"}],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}},"requestId":"req_think_1","type":"assistant","uuid":"0c000000-0000-4000-8000-000000000002","timestamp":"2026-11-21T12:01:47.092Z","thinkingDurationMs":1834,"thinkingDisplay":"summarized","userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"5e55e55e-0000-4000-8000-000000000001","version":"2.1.332","gitBranch":"main"}`
		tanswer = `{"parentUuid":"0c000000-0000-4000-8000-000000000002","isSidechain":false,"message":{"model":"claude-sonnet-5","id":"msg_think_1","type":"message","role":"assistant","content":[{"type":"text","text":"Nothing to list."}],"stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":9}},"requestId":"req_think_1","type":"assistant","uuid":"0c000000-0000-4000-8000-000000000003","timestamp":"2026-11-21T12:01:48.000Z","userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"5e55e55e-0000-4000-8000-000000000001","version":"2.1.332","gitBranch":"main"}`
	)
	const want = `{"display":"summarized","duration_ms":1834}`
	for _, tc := range []struct {
		name   string
		format string
		lines  []string
		metas  []string // the reasoning parts' metadata, in order ("" none)
	}{
		{"stream-json", claude.FormatStreamJSON, []string{init, think, answer, result}, []string{want}},
		{"partial messages", claude.FormatStreamJSON,
			[]string{init, start, bstart, bdelta, think, bstop, tstart, tdelta, answer, tstop, mdelta, mstop, result}, []string{want}},
		{"transcript", claude.FormatTranscript, []string{tprompt, tthink, tanswer}, []string{want}},
		{"without the fields", claude.FormatStreamJSON, []string{init, plain, result}, []string{""}},
		{"beside narration", claude.FormatStreamJSON, []string{init, narrate, result},
			[]string{`{"narration":true,"display":"updates","duration_ms":0}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkReasoningMeta(t, feed(t, tc.format, nil, nil, tc.lines...), tc.metas)
		})
	}
}

// checkReasoningMeta checks a session's shape, that nothing in it is
// agent.unparsed, and the metadata of its assistant messages' reasoning
// parts, in order (metas: "" for none); their text parts have none.
func checkReasoningMeta(t *testing.T, evs []universal.Event, metas []string) {
	t.Helper()
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Errorf("agent.unparsed: %+v", u[0].Data)
	}
	var got []string
	for _, it := range completed(evs, universal.KindMessage, universal.RoleAssistant) {
		for _, p := range it.Content {
			switch p.Type {
			case universal.PartReasoning:
				got = append(got, string(p.Metadata))
			case universal.PartText:
				if len(p.Metadata) > 0 {
					t.Errorf("text part metadata %s, want none", p.Metadata)
				}
			}
		}
	}
	if len(got) != len(metas) {
		t.Fatalf("reasoning parts' metadata %q, want %q", got, metas)
	}
	for i := range got {
		if got[i] != metas[i] {
			t.Errorf("reasoning part %d metadata %s, want %s", i, got[i], metas[i])
		}
	}
}
