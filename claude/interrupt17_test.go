package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// interrupt332 is the first turn of testdata/crosscheck/claude/2.1.332/
// s17-interrupt-nopartial.jsonl (init and result lines shortened): the
// host's control_request interrupt stopped a running Bash call. The CLI
// answers the call with its rejection text, kind user-rejected and no
// permission decision, corrected for the model ("this call was stopped
// while running, not refused before it ran").
var interrupt332 = []string{
	`{"type":"system","subtype":"init","cwd":"/home/dev/project","session_id":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","tools":["Bash","Read"],"model":"claude-sonnet-4-5","permissionMode":"acceptEdits","claude_code_version":"2.1.332","uuid":"b747920c-e4da-4b08-b6db-3ee8056e359c"}`,
	`{"type":"assistant","message":{"id":"msg_mock_000","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Starting the long check."}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":1,"cache_read_input_tokens":0,"cache_creation_input_tokens":0},"context_management":null},"parent_tool_use_id":null,"session_id":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","uuid":"37c204ae-3719-474f-a02a-768837d68396","timestamp":"2026-11-29T21:41:28.233Z","request_id":"req_mock_000"}`,
	`{"type":"assistant","message":{"id":"msg_mock_000","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_mock_0_1","name":"Bash","input":{"command":"echo long-job-started; sleep 30; echo long-job-finished","description":"Long build check"}}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":1,"cache_read_input_tokens":0,"cache_creation_input_tokens":0},"context_management":null},"parent_tool_use_id":null,"session_id":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","uuid":"3a12f2cd-4ae4-4c71-81bb-8af733664852","timestamp":"2026-11-29T21:41:28.261Z","request_id":"req_mock_000"}`,
	`{"type":"control_response","response":{"subtype":"success","request_id":"req_2_interrupt","response":{"still_queued":[]}}}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed. Correction to the text above: this call was stopped while running, not refused before it ran. It may have run in part or in full, and its changes may have been written. No permission prompt was involved. Work it started elsewhere (a remote command, a background process) may still be running, so check before starting the same work again. The instruction to stop and wait still stands.","is_error":true,"tool_use_id":"toolu_mock_0_1"}]},"parent_tool_use_id":null,"session_id":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","uuid":"23064a1f-2066-4362-9c30-fdd59228ebf6","timestamp":"2026-11-29T21:41:30.818Z","tool_use_result":"User rejected tool use","tool_result_meta":[{"id":"toolu_mock_0_1","non_execution_kind":"user-rejected"}]}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]},"parent_tool_use_id":null,"session_id":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","uuid":"1009f66b-eb22-4519-9fc6-43dd3ebb544e","timestamp":"2026-11-29T21:41:30.840Z"}`,
	`{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":2907,"num_turns":3,"stop_reason":"tool_use","terminal_reason":"aborted_tools","session_id":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","errors":["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=tool_use"],"uuid":"f2163b48-11a4-4d6d-834a-6ab7589df521"}`,
}

// interrupt332Transcript is the same turn in the session's transcript
// (s17-interrupt-nopartial.transcript.jsonl: the prompt, the two assistant
// entries, the result with toolDenialKind user-rejected).
var interrupt332Transcript = []string{
	`{"parentUuid":null,"isSidechain":false,"promptId":"05dc40f6-8766-44f6-b8e2-160330c30886","type":"user","message":{"role":"user","content":"Run the long build check: echo long-job-started, then sleep 30."},"uuid":"dd6683e1-9079-48d3-a0d7-14e99bd49b7f","timestamp":"2026-11-29T21:41:28.009Z","permissionMode":"acceptEdits","promptSource":"sdk","sentAtMs":1795988487941,"rowSource":"local","turnOrigin":"sdk","turnPosition":{"promptIndex":0,"turnIndex":1},"userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","version":"2.1.332","gitBranch":"HEAD"}`,
	`{"parentUuid":"3ffa317c-08c7-4667-8741-0145cc97c5e7","isSidechain":false,"message":{"id":"msg_mock_000","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Starting the long check."}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":120,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":20,"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","fallback_credit":null},"stop_details":null},"apiBlockIndex":0,"requestId":"req_mock_000","requestRef":"8f7376b0-c407-4425-8d04-117769eb26f7","requestedModel":"claude-sonnet-4-5","promptCacheRequested":"5m","type":"assistant","uuid":"37c204ae-3719-474f-a02a-768837d68396","timestamp":"2026-11-29T21:41:28.233Z","perTurnEffort":null,"madeBy":"model","userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","version":"2.1.332","gitBranch":"HEAD"}`,
	`{"parentUuid":"37c204ae-3719-474f-a02a-768837d68396","isSidechain":false,"message":{"id":"msg_mock_000","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_mock_0_1","name":"Bash","input":{"command":"echo long-job-started; sleep 30; echo long-job-finished","description":"Long build check"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":120,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":20,"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","fallback_credit":null},"stop_details":null},"toolInputStreamMs":23,"apiBlockIndex":1,"requestId":"req_mock_000","requestRef":"8f7376b0-c407-4425-8d04-117769eb26f7","requestedModel":"claude-sonnet-4-5","promptCacheRequested":"5m","type":"assistant","uuid":"3a12f2cd-4ae4-4c71-81bb-8af733664852","timestamp":"2026-11-29T21:41:28.261Z","perTurnEffort":null,"madeBy":"model","userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","version":"2.1.332","gitBranch":"HEAD"}`,
	`{"parentUuid":"3a12f2cd-4ae4-4c71-81bb-8af733664852","isSidechain":false,"promptId":"05dc40f6-8766-44f6-b8e2-160330c30886","type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed. Correction to the text above: this call was stopped while running, not refused before it ran. It may have run in part or in full, and its changes may have been written. No permission prompt was involved. Work it started elsewhere (a remote command, a background process) may still be running, so check before starting the same work again. The instruction to stop and wait still stands.","is_error":true,"tool_use_id":"toolu_mock_0_1"}]},"uuid":"23064a1f-2066-4362-9c30-fdd59228ebf6","timestamp":"2026-11-29T21:41:30.818Z","toolUseResult":"User rejected tool use","toolDenialKind":"user-rejected","sourceToolAssistantUUID":"3a12f2cd-4ae4-4c71-81bb-8af733664852","userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"42b4ef5a-3ccd-468b-8f92-9133b95e3f28","version":"2.1.332","gitBranch":"HEAD"}`,
}

// TestInterruptedCallIsNoRefusal: a call the user's interrupt stopped
// while it ran is a failed call in an interrupted turn, not a refused
// permission (before, permission.requested and permission.resolved denied
// were made up from its user-rejected kind), and the interrupt is no error.
func TestInterruptedCallIsNoRefusal(t *testing.T) {
	for _, c := range []struct {
		format string
		lines  []string
	}{{claude.FormatStreamJSON, interrupt332}, {claude.FormatTranscript, interrupt332Transcript}} {
		evs := feed(t, c.format, nil, nil, c.lines...)
		checkShape(t, evs)
		for _, typ := range []universal.Type{universal.TypePermissionRequested, universal.TypePermissionResolved, universal.TypeError, universal.TypeUnparsed} {
			if got := golden.OfType(evs, typ); len(got) > 0 {
				t.Errorf("%s: %s: %v, want none", c.format, typ, got)
			}
		}
		var failed bool
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
				if p.Type == universal.PartToolResult && p.CallID == "toolu_mock_0_1" && p.IsError &&
					strings.Contains(string(p.Metadata), `"non_execution_kind":"user-rejected"`) {
					failed = true
				}
			}
		}
		if !failed {
			t.Errorf("%s: the stopped call has no failed result with its kind", c.format)
		}
		if c.format == claude.FormatStreamJSON {
			ends := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
				t.Errorf("turn.ended = %v, want one, interrupted", ends)
			}
		}
	}

	// A rejection without the correction stays a refusal.
	rejected := append([]string(nil), interrupt332[:5]...)
	rejected[4] = strings.Replace(rejected[4], "this call was stopped while running, not refused", "this call was refused", 1)
	if n := len(golden.OfType(feed(t, claude.FormatStreamJSON, nil, nil, rejected...), universal.TypePermissionResolved)); n != 1 {
		t.Errorf("a user-rejected call resolved its permission %d times, want 1", n)
	}
}
