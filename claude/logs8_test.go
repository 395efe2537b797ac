package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestStreamAuthFailure2258: the stdout of `claude -p --output-format
// stream-json` 2.1.258 whose OAuth session had expired, as a public task
// file pasted it (a Windows user's harness log, 2026-09-09, found by
// content search; the repository was not identified, so the lines are
// used here as a shape: authFailed2258, with the init line's long lists
// shortened and its ids and paths replaced by ours). New to our
// testdata: no sample had the error authentication_failed nor a result of
// subtype "success" with is_error true and terminal_reason api_error
// (2.1.2xx result keys subagent_stats, queued_turn_count, api_error_status,
// fast_mode_disabled_reason). Already handled: the synthetic assistant
// line's text is kept as a failed message, the error carries its code,
// the turn ends in error and the session says why.
func TestStreamAuthFailure2258(t *testing.T) {
	const msg = "Failed to authenticate: OAuth session expired and could not be refreshed"
	// The lines TestLabelBeforeLine reads behind the host's label, as the
	// CLI wrote them.
	lines := append([]string{strings.TrimPrefix(authFailed2258[0], "Error: ")}, authFailed2258[1:]...)
	evs := feed(t, claude.FormatStreamJSON, nil, nil, lines...)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	var text string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant {
			text = itemText(it)
			if it.Status != universal.StatusFailed {
				t.Errorf("the synthetic message's status = %q, want failed", it.Status)
			}
		}
	}
	if text != msg {
		t.Errorf("assistant text = %q, want %q", text, msg)
	}
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("errors = %d, want 1", len(errs))
	}
	if d := errs[0].Data.(*universal.Error); d.Code != "authentication_failed" || d.Message != msg || d.WillRetry {
		t.Errorf("error = %+v", d)
	}
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Fatalf("turn.ended = %v, want one with status error", ends)
	}
	if !strings.Contains(string(ends[0].Data.(*universal.TurnEnded).Metadata), `"terminal_reason":"api_error"`) {
		t.Errorf("turn.ended metadata %s lacks the terminal_reason", ends[0].Data.(*universal.TurnEnded).Metadata)
	}
	se := golden.OfType(evs, universal.TypeSessionEnded)
	if len(se) != 1 || se[0].Data.(*universal.SessionEnded).Reason != universal.EndError || se[0].Data.(*universal.SessionEnded).Message != msg {
		t.Errorf("session.ended = %v, want reason error with the message", se)
	}
}

// TestStreamInterruptAbortedTools2273: a stream-json turn interrupted by
// the host's control_request while a Bash call ran, Claude Code 2.1.273,
// as a public bug-report draft quotes it ("Claude Code stream-json
// interrupt result omits the result field entirely", 2026, reduced by its
// author "to the fields relevant to the schema issue"; found by content
// search, repository not identified): the interrupt receipt
// (still_queued, interrupt_receipt_v1) and a result with no result key, is_error
// true, terminal_reason aborted_tools and an errors entry that is Claude
// Code's own diagnostic ("[ede_diagnostic] …"). The quoted user line had
// its message envelope reduced away; it is written here as the CLI writes
// it, beside the tool result the CLI writes for the stopped call (the
// shape of claude/2.1.330 captures). New to our testdata: no sample had
// aborted_tools. Already handled: the turn ends interrupted (not error,
// the diagnostic is not shown as a failure), the stopped call keeps its
// result and nothing is agent.unparsed.
func TestStreamInterruptAbortedTools2273(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash"],"model":"claude-sonnet-4-6","permissionMode":"acceptEdits","claude_code_version":"2.1.273","capabilities":["interrupt_receipt_v1","interrupt_cancel_queued_v1","msg_lifecycle_v1"],"uuid":"u0"}`,
		`{"type":"assistant","message":{"id":"m1","model":"claude-sonnet-4-6","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"sleep 5"}}],"usage":{"input_tokens":3,"output_tokens":5}},"session_id":"s1","parent_tool_use_id":null,"uuid":"u1"}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"wh-int-1","response":{"still_queued":[]}}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."}]},"session_id":"s1","parent_tool_use_id":null,"uuid":"u2"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]},"session_id":"s1","parent_tool_use_id":null,"uuid":"u3"}`,
		`{"type":"result","subtype":"error_during_execution","is_error":true,"terminal_reason":"aborted_tools","stop_reason":"tool_use","num_turns":3,"result_index":4,"errors":["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=tool_use"],"session_id":"s1","uuid":"u4"}`,
	)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
		t.Fatalf("turn.ended = %v, want one, interrupted", ends)
	}
	if errs := golden.OfType(evs, universal.TypeError); len(errs) != 0 {
		t.Errorf("an interrupt reported as %d error(s)", len(errs))
	}
	var result bool
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		for _, part := range it.Content {
			if it.Kind == universal.KindToolResult && part.CallID == "toolu_1" && strings.Contains(part.Output, "doesn't want to proceed") {
				result = true
			}
		}
	}
	if !result {
		t.Error("the stopped call's result was lost")
	}
}
