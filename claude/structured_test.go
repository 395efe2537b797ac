package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

// TestStructuredOutput: with --json-schema, Claude Code's result carries
// structured_output, the object the model gave its StructuredOutput call.
// Printed alone (--output-format json without --verbose), the result is
// the only copy of it: it was lost (a result with an empty result text
// gave no message at all). The assistant message a lone result becomes
// now carries it as a json part after the text; a turn that showed the
// StructuredOutput call adds nothing; one that showed its text but no such
// call gets a message with the json part alone. Result shapes as other
// projects' tests quote Claude Code's (result "" or a text, and the
// object).
func TestStructuredOutput(t *testing.T) {
	const so = `{"domain":"visa","confidence":0.95}`
	init := `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["StructuredOutput"],"mcp_servers":[],"model":"claude-sonnet-4-5","claude_code_version":"2.1.330"}`
	check := func(t *testing.T, evs []universal.Event, want ...universal.PartType) []universal.Part {
		t.Helper()
		msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
		var parts []universal.Part
		for _, m := range msgs {
			parts = append(parts, m.Content...)
		}
		if len(parts) != len(want) {
			t.Fatalf("assistant parts %+v, want %v", parts, want)
		}
		for i, p := range parts {
			if p.Type != want[i] {
				t.Fatalf("part %d is %s, want %s (%+v)", i, p.Type, want[i], parts)
			}
			if p.Type == universal.PartJSON && string(p.JSON) != so {
				t.Errorf("json part %s, want %s", p.JSON, so)
			}
		}
		return parts
	}
	t.Run("lone result, empty text", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil,
			`{"type":"result","subtype":"success","is_error":false,"duration_ms":3144,"num_turns":2,"result":"","session_id":"s1","structured_output":{"domain": "visa", "confidence": 0.95},"usage":{"input_tokens":120,"output_tokens":18}}`)
		check(t, evs, universal.PartJSON)
	})
	t.Run("lone result with text", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil,
			`{"type":"result","subtype":"success","is_error":false,"result":"The domain is visa.","session_id":"s1","structured_output":`+so+`}`)
		if p := check(t, evs, universal.PartText, universal.PartJSON); p[0].Text != "The domain is visa." {
			t.Errorf("text %q", p[0].Text)
		}
	})
	t.Run("verbose, the call shown", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, init,
			`{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"StructuredOutput","input":`+so+`}],"stop_reason":"tool_use"},"parent_tool_use_id":null,"session_id":"s1"}`,
			`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"Structured output provided successfully"}]},"parent_tool_use_id":null,"session_id":"s1"}`,
			`{"type":"result","subtype":"success","is_error":false,"result":"","session_id":"s1","structured_output":`+so+`}`)
		// The message holds the call only; no message repeats the object.
		if msgs := completed(evs, universal.KindMessage, universal.RoleAssistant); len(msgs) != 1 {
			t.Errorf("%d assistant messages, want 1", len(msgs))
		}
	})
	t.Run("verbose, text but no call", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, init,
			`{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"},"parent_tool_use_id":null,"session_id":"s1"}`,
			`{"type":"result","subtype":"success","is_error":false,"result":"Done.","session_id":"s1","structured_output":`+so+`}`)
		check(t, evs, universal.PartText, universal.PartJSON)
	})
	t.Run("no structured output", func(t *testing.T) {
		for _, v := range []string{``, `,"structured_output":null`} {
			evs := feed(t, claude.FormatStreamJSON, nil, nil,
				`{"type":"result","subtype":"success","is_error":false,"result":"","session_id":"s1"`+v+`}`)
			check(t, evs)
		}
	})
}
