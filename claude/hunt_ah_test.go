package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

// TestStreamlinedOutput: Claude Code's streamlined stream-json output
// (CLAUDE_CODE_STREAMLINED_OUTPUT with --output-format stream-json; the
// CLI's StdoutMessage schema: SDKStreamlinedTextMessage {type
// "streamlined_text", text, session_id, uuid} "replaces
// SDKAssistantMessage in streamlined output. Text content preserved,
// thinking and tool_use blocks removed", SDKStreamlinedToolUseSummaryMessage
// {type "streamlined_tool_use_summary", tool_summary} "replaces tool_use
// blocks in streamlined output with a cumulative summary string") was
// reported as agent.unparsed, the assistant's text lost and the result
// standing in for it. streamlined_text is an assistant message now, which
// answers the turn (the result repeating it adds nothing), and
// streamlined_tool_use_summary a system item with the summary. The lines
// are in the shapes public parsers test them with (no recording has them).
func TestStreamlinedOutput(t *testing.T) {
	const init = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Read","Edit"],"mcp_servers":[],"model":"m","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.200","uuid":"i1"}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil, init,
		`{"type":"streamlined_tool_use_summary","tool_summary":"Read 2 files","session_id":"s1","uuid":"sts0"}`,
		`{"type":"streamlined_text","text":"I'll help with that.","session_id":"s1","uuid":"stt1"}`,
		`{"type":"streamlined_tool_use_summary","tool_summary":"Edited 3 files","session_id":"s1","uuid":"sts1"}`,
		`{"type":"streamlined_text","text":"Done.","session_id":"s1","uuid":"stt2"}`,
		`{"type":"streamlined_text","text":"","session_id":"s1","uuid":"stt3"}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":50,"num_turns":3,"result":"Done.","stop_reason":"end_turn","session_id":"s1","uuid":"r1"}`)
	for _, e := range evs {
		if e.Type == universal.TypeUnparsed {
			t.Fatalf("unparsed: %s", e.Data)
		}
	}
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 2 || msgs[0].Content[0].Text != "I'll help with that." || msgs[1].Content[0].Text != "Done." ||
		msgs[0].NativeItemID != "stt1" {
		t.Fatalf("assistant messages = %+v, want the two streamlined texts (the result adds none)", msgs)
	}
	sys := completed(evs, universal.KindSystem, universal.RoleSystem)
	if len(sys) != 2 || sys[0].Content[0].Text != "Read 2 files" || sys[1].Content[0].Text != "Edited 3 files" ||
		string(sys[1].Content[0].Metadata) != `{"streamlined":"tool_use_summary"}` {
		t.Fatalf("system items = %+v, want the two tool summaries", sys)
	}

	// A text that is not a string is agent.unparsed.
	evs = feed(t, claude.FormatStreamJSON, nil, nil, init,
		`{"type":"streamlined_text","text":{"a":1},"session_id":"s1","uuid":"stt4"}`)
	n := 0
	for _, e := range evs {
		if e.Type == universal.TypeUnparsed {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("unparsed = %d, want 1", n)
	}
}
