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
// used here as a shape, with the init line's long tools, slash_commands
// and skills lists shortened and its Windows paths kept). New to our
// testdata: no sample had the error authentication_failed nor a result of
// subtype "success" with is_error true and terminal_reason api_error
// (2.1.2xx result keys subagent_stats, queued_turn_count, api_error_status,
// fast_mode_disabled_reason). Already handled: the synthetic assistant
// line's text is kept as a failed message, the error carries its code,
// the turn ends in error and the session says why.
func TestStreamAuthFailure2258(t *testing.T) {
	const msg = "Failed to authenticate: OAuth session expired and could not be refreshed"
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","cwd":"C:\\Users\\me\\work\\promptbook-experiments-and-landing-pages\\aldaron","session_id":"f48b319e-933e-45d6-8762-95e561e31476","tools":["Task","Bash","PowerShell","Read","Write"],"mcp_servers":[],"model":"claude-opus-5","permissionMode":"default","slash_commands":["verify","debug","code-review"],"terminal_slash_commands":["doctor","color"],"apiKeySource":"none","claude_code_version":"2.1.258","output_style":"default","agents":["claude","Explore","general-purpose","Plan","statusline-setup"],"skills":["verify","debug","code-review"],"plugins":[],"capabilities":["interrupt_receipt_v1","interrupt_cancel_queued_v1","msg_lifecycle_v1"],"analytics_disabled":false,"product_feedback_disabled":false,"uuid":"cfe8b38f-e90c-49e5-a952-dd5e79d9f615","memory_paths":{"auto":"C:\\Users\\me\\.claude\\projects\\C--Users-me-work-promptbook-experiments-and-landing-pages-aldaron\\memory\\"},"messaging_socket_path":"\\\\.\\pipe\\LOCAL\\cc-msg-0a1d902eac61353fc76ca36596688c1a","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required","powershell_path":"C:\\Program Files\\PowerShell\\7\\pwsh.exe"}`,
		`{"type":"system","subtype":"status","status":"requesting","session_id":"f48b319e-933e-45d6-8762-95e561e31476","uuid":"ac7bfbd8-0006-44c1-bc2e-530b6d26423f"}`,
		`{"type":"assistant","message":{"diagnostics":null,"id":"fb946d03-5c77-4830-8896-19d1d5be148c","container":null,"model":"<synthetic>","role":"assistant","stop_details":null,"stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":{"output_tokens_details":null,"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":null,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":null,"iterations":null,"speed":null},"content":[{"type":"text","text":"`+msg+`"}],"context_management":null},"parent_tool_use_id":null,"session_id":"f48b319e-933e-45d6-8762-95e561e31476","uuid":"be433680-21a2-42a5-9389-855520099d4d","timestamp":"2026-09-09T15:32:19.742Z","error":"authentication_failed","is_api_error_message":true}`,
		`{"duration_api_ms":0,"stop_reason":"stop_sequence","session_id":"f48b319e-933e-45d6-8762-95e561e31476","total_cost_usd":0,"usage":{"output_tokens_details":{"thinking_tokens":0},"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard"},"modelUsage":{},"permission_denials":[],"terminal_reason":"api_error","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required","subagent_stats":{"spawned":0,"requested":{"background":0,"foreground":0,"unset":0},"started_in_background":0,"max_depth":0,"spawned_by_subagents":0,"completed":0,"failed":0,"killed":{"parent":0,"user":0,"system":0},"refused":{"depth_limit":0,"concurrency_limit":0,"budget":0},"by_type":{}},"is_error":true,"num_turns":1,"subtype":"success","api_error_status":null,"result":"`+msg+`","type":"result","duration_ms":347,"uuid":"2ea58f5c-82f9-4ac5-a2de-fc0e97a9e7bd","queued_turn_count":0}`,
	)
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
