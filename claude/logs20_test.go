package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestNewerSystemSubtypes: the system subtypes Claude Code added from
// 2.1.217 on, in the shapes the CLI's stream-json schemas give them
// (meawoppl/rust-code-agent-sdks, claude-codes: the schema snapshot of
// 2.1.281 and the drift tests of 2.1.266 to 2.1.296; Apache-2.0) and
// hosts' notes of live runs quote (vcs_state_changed on every commit
// and push, code_change_published on every push to a branch with a pull
// request, permission_check_status around each classifier check). Each
// was agent.unparsed. The UI signals are ignored; turn_preempted (the
// CLI stopped the turn for a quick follow-up) is an interrupted status
// item, and file_attachments_missing (files of a prompt that never
// reached the model) a status item naming why.
func TestNewerSystemSubtypes(t *testing.T) {
	init := `{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","model":"claude-opus-5-5","tools":["Bash"],"claude_code_version":"2.1.296","uuid":"u0"}`
	ignored := []string{
		`{"type":"system","subtype":"vcs_state_changed","kind":"push","cwd":"/w","uuid":"u1","session_id":"s1"}`,
		`{"type":"system","subtype":"code_change_published","provider":"github","url":"https://github.com/o/r/pull/12","repo":"o/r","identifier":"12","action":"created","branch":"feat-x","uuid":"u2","session_id":"s1"}`,
		`{"type":"system","subtype":"permission_check_status","tool_use_id":"toolu_01","agent_id":"a1","status":"checking","uuid":"u3","session_id":"s1"}`,
		`{"type":"system","subtype":"dev_intent","kind":"ios_app","trigger":"project_scan","uuid":"u4","session_id":"s1"}`,
		`{"type":"system","subtype":"per_turn_effort_changed","per_turn_effort_active":false,"uuid":"u5","session_id":"s1"}`,
		`{"type":"system","subtype":"turn_handoff_available","v":1,"tools":["Write"],"worker_epoch":7,"carried_writes":true,"uuid":"u6","session_id":"s1"}`,
		`{"type":"system","subtype":"peer_message_hold","state":"held","lane":"bridge","message_uuid":"m1","uuid":"u7","session_id":"s1"}`,
		`{"type":"system","subtype":"cloud_session_delta","seq":3,"changed":["title"],"cloud_session":{},"uuid":"u8","session_id":"s1"}`,
		`{"type":"system","subtype":"feedback_draft_queued","draft_id":"d1","draft_type":"bug","title":"t","uuid":"u9","session_id":"s1"}`,
		`{"type":"system","subtype":"instruction_size_warning","total_chars":52000,"total_limit_chars":40000,"file_count":3,"largest_chars":41000,"uuid":"u10","session_id":"s1"}`,
		`{"type":"system","subtype":"ui_toast","plugin":"deploy-helper","text":"deployed","timeout_ms":4000,"uuid":"u11","session_id":"s1"}`,
		`{"type":"system","subtype":"ui_panes","panes":[],"shown_id":null,"focused_id":null,"focus_requested_id":null,"uuid":"u12","session_id":"s1"}`,
	}
	evs := feed(t, claude.FormatStreamJSON, nil, nil, append([]string{init}, ignored...)...)
	if un := golden.OfType(evs, universal.TypeUnparsed); len(un) != 0 {
		t.Errorf("%d lines unparsed: %+v", len(un), un[0].Data)
	}
	if st := completed(evs, universal.KindStatus, ""); len(st) != 0 {
		t.Errorf("UI signals made status items: %+v", st)
	}

	evs = feed(t, claude.FormatStreamJSON, nil, nil, init,
		`{"type":"system","subtype":"turn_preempted","reason":"rapid_followup","preempted_by_uuid":"u9","preempted_message_uuids":["u3"],"uuid":"u20","session_id":"s1"}`,
		`{"type":"system","subtype":"file_attachments_missing","message_uuid":"m1","sent_count":3,"missing":[{"file_uuid":"f1","reason":"too_large"},{"file_uuid":"f2","reason":"some_future_code"}],"uuid":"u21","session_id":"s1"}`)
	if un := golden.OfType(evs, universal.TypeUnparsed); len(un) != 0 {
		t.Errorf("%d lines unparsed: %+v", len(un), un[0].Data)
	}
	st := completed(evs, universal.KindStatus, "")
	if len(st) != 2 {
		t.Fatalf("%d status items, want 2: %+v", len(st), st)
	}
	if p := st[0].Content[0]; p.Label != "interrupted" || p.Detail != "rapid_followup" || gjson.GetBytes(p.Metadata, "preempted_by_uuid").Str != "u9" {
		t.Errorf("preempted turn: %+v", p)
	}
	if p := st[1].Content[0]; p.Label != "file_attachments_missing" || !strings.Contains(p.Detail, "too_large") || len(gjson.ParseBytes(p.Metadata).Array()) != 2 {
		t.Errorf("missing attachments: %+v (%s)", p, p.Metadata)
	}
}

// TestResultFailureFields: what a failed result of 2.1.266 and later says
// beside its text, in the shapes of the CLI's schemas
// (meawoppl/rust-code-agent-sdks claude-codes, the drift tests of 2.1.266,
// 2.1.274, 2.1.285 and 2.1.293): startup_failure_reason on the zeroed
// error_during_execution result of a run refused at startup, and the
// self-hosted runner's runner_exit {phase, exit_code, signal} on the
// result it synthesizes when the session process fails to start or
// exits abnormally, with no errors text. Both were dropped: the error
// said "the turn failed (error_during_execution)" with no cause. The
// reason is the error's code, runner_exit makes its message, and both,
// with api_error (as api_error_kind: a text "API Error: NNN {…}" gives
// its body as api_error) and api_error_code, are in its details.
func TestResultFailureFields(t *testing.T) {
	errorOf := func(line string) *universal.Error {
		t.Helper()
		evs := feed(t, claude.FormatStreamJSON, nil, nil, line)
		errs := golden.OfType(evs, universal.TypeError)
		if len(errs) != 1 {
			t.Fatalf("%d errors for %s", len(errs), line)
		}
		return errs[0].Data.(*universal.Error)
	}
	e := errorOf(`{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":0,"duration_api_ms":0,"num_turns":0,"stop_reason":null,"session_id":"s1","uuid":"u1","total_cost_usd":0,"usage":{},"modelUsage":{},"permission_denials":[],"errors":["Your organization's settings could not be loaded."],"startup_failure_reason":"org_config_required_unavailable"}`)
	if e.Code != "org_config_required_unavailable" || e.Message != "Your organization's settings could not be loaded." ||
		gjson.GetBytes(e.Details, "startup_failure_reason").Str != "org_config_required_unavailable" {
		t.Errorf("startup failure: %+v %s", e, e.Details)
	}
	e = errorOf(`{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":5,"duration_api_ms":0,"num_turns":0,"session_id":"s1","total_cost_usd":0.0,"runner_exit":{"phase":"setup","exit_code":null,"signal":"SIGKILL"}}`)
	if e.Message != "the session process exited in setup (signal SIGKILL)" || gjson.GetBytes(e.Details, "runner_exit.signal").Str != "SIGKILL" {
		t.Errorf("runner exit: %+v %s", e, e.Details)
	}
	e = errorOf(`{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":5,"duration_api_ms":0,"num_turns":0,"session_id":"s1","total_cost_usd":0.0,"runner_exit":{"phase":"run","exit_code":137}}`)
	if e.Message != "the session process exited in run (exit code 137)" {
		t.Errorf("runner exit code: %+v", e)
	}
	e = errorOf(`{"type":"result","subtype":"success","is_error":true,"duration_ms":1200,"duration_api_ms":900,"num_turns":1,"result":"API Error: overloaded","stop_reason":null,"session_id":"s1","uuid":"u1","total_cost_usd":0.01,"usage":{"input_tokens":10,"output_tokens":38},"modelUsage":{},"permission_denials":[],"api_error_status":529,"api_error":"overloaded","api_error_code":"overloaded_error"}`)
	if gjson.GetBytes(e.Details, "api_error_kind").Str != "overloaded" || gjson.GetBytes(e.Details, "api_error_code").Str != "overloaded_error" {
		t.Errorf("api error kind: %+v %s", e, e.Details)
	}
	// A text with the API's body: its body is api_error, the kind stays
	// apart (one key each).
	e = errorOf(`{"type":"result","subtype":"success","is_error":true,"duration_ms":1200,"duration_api_ms":900,"num_turns":1,"result":"API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}","stop_reason":null,"session_id":"s1","uuid":"u1","total_cost_usd":0.01,"api_error_status":529,"api_error":"overloaded"}`)
	if strings.Count(string(e.Details), `"api_error"`) != 1 || gjson.GetBytes(e.Details, "api_error.error.type").Str != "overloaded_error" ||
		gjson.GetBytes(e.Details, "api_error_kind").Str != "overloaded" || e.Message != "Overloaded" {
		t.Errorf("api error body and kind: %+v %s", e, e.Details)
	}
}

// TestNarrationBlocks: Claude Code 2.1.2xx lists in an assistant line's
// narration_block_indexes the thinking blocks of that line's content that
// are the model's progress updates for the user between tool calls, not
// its reasoning (the API's "progress updates between tool calls"; the
// CLI's stream-json schema describes the indexes for renderers, and its
// terminal renders such blocks as ordinary prose, as public audits of the
// 2.1.263 and 2.1.285 binaries and hosts' parsers record). The indexes
// were ignored: a progress update read as reasoning like any other. It
// stays a reasoning part (it streamed as one) with metadata
// {"narration": true}, streamed or not; an empty one is not marked.
func TestNarrationBlocks(t *testing.T) {
	const init = `{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","model":"claude-opus-5","tools":["Bash"],"claude_code_version":"2.1.285","uuid":"u0"}`
	asst := func(block, extra string) string {
		return `{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5","content":[` + block + `],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1"` + extra + `}`
	}
	const think = `{"type":"thinking","thinking":"Check the build.","signature":"sig1"}`
	const narr = `{"type":"thinking","thinking":"I'm about 40% through.","signature":"sig2"}`
	const tool = `{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test ./..."}}`
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"session_id":"s1"}`
	}
	result := `{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"duration_api_ms":1,"num_turns":1,"result":"","session_id":"s1","total_cost_usd":0}`
	cases := map[string][]string{
		"whole lines": {init,
			asst(think, `,"uuid":"a1"`),
			asst(narr, `,"uuid":"a2","narration_block_indexes":[0]`),
			asst(`{"type":"thinking","thinking":"","signature":"sig3"}`, `,"uuid":"a3","narration_block_indexes":[0]`),
			asst(tool, `,"uuid":"a4"`), result},
		"streamed": {init,
			se(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`),
			se(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`),
			se(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Check the build."}}`),
			asst(think, `,"uuid":"a1"`),
			se(`{"type":"content_block_stop","index":0}`),
			se(`{"type":"content_block_start","index":1,"content_block":{"type":"thinking","thinking":"","signature":""}}`),
			se(`{"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"I'm about "}}`),
			se(`{"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"40% through."}}`),
			asst(narr, `,"uuid":"a2","narration_block_indexes":[0]`),
			se(`{"type":"content_block_stop","index":1}`),
			se(`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t1","name":"Bash","input":{}}}`),
			asst(tool, `,"uuid":"a4"`),
			se(`{"type":"content_block_stop","index":2}`),
			se(`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}`),
			se(`{"type":"message_stop"}`), result},
	}
	for name, lines := range cases {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, lines...)
		msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
		if len(msgs) != 1 {
			t.Fatalf("%s: %d messages", name, len(msgs))
		}
		var got []string
		for _, p := range msgs[0].Content {
			if p.Type == universal.PartReasoning {
				got = append(got, p.Text+"|"+string(p.Metadata))
			}
		}
		want := []string{"Check the build.|", `I'm about 40% through.|{"narration":true}`}
		if name == "whole lines" {
			want = append(want, "|")
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: reasoning parts\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestTaskHandback: a task's lines of 2.1.273 to 2.1.293 say more than
// their state, in the shapes of the CLI's schemas (meawoppl/rust-code-
// agent-sdks claude-codes, the drift tests of 2.1.273, 2.1.292 and
// 2.1.293): task_started's parent_task_id and awaited, task_notification's
// reason (a task that ended because its worker restarted) and a
// sub-agent's hand-back (handback flagged or withheld, handback_report
// {text, warning}: the report and the warning the harness put on it).
// They were dropped; they are the task status item's metadata.
func TestTaskHandback(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","model":"claude-opus-5-5","tools":["Agent"],"claude_code_version":"2.1.293","uuid":"u0"}`,
		`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_01","name":"Agent","input":{"description":"nested agent","prompt":"Look.","subagent_type":"general-purpose"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a1"}`,
		`{"type":"system","subtype":"task_started","task_id":"t2","run_id":"r1","parent_task_id":"t1","tool_use_id":"toolu_01","description":"nested agent","task_type":"local_agent","awaited":true,"uuid":"u1","session_id":"s1"}`,
		`{"type":"system","subtype":"task_notification","task_id":"t2","run_id":"r1","tool_use_id":"toolu_01","status":"completed","output_file":"","summary":"harness notes","handback":"flagged","handback_report":{"text":"the report","warning":"SECURITY WARNING"},"uuid":"u2","session_id":"s1"}`)
	st := completed(evs, universal.KindStatus, "")
	if len(st) != 1 {
		t.Fatalf("%d status items", len(st))
	}
	md := st[0].Content[0].Metadata
	for k, want := range map[string]string{"handback": `"flagged"`, "handback_report.text": `"the report"`, "handback_report.warning": `"SECURITY WARNING"`, "run_id": `"r1"`} {
		if got := gjson.GetBytes(md, k).Raw; got != want {
			t.Errorf("%s = %s, want %s (%s)", k, got, want, md)
		}
	}
	started := golden.OfType(evs, universal.TypeItemStarted)
	var smd []byte
	for _, e := range started {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindStatus {
			smd = it.Content[0].Metadata
		}
	}
	if gjson.GetBytes(smd, "parent_task_id").Str != "t1" || !gjson.GetBytes(smd, "awaited").Bool() {
		t.Errorf("task_started metadata %s", smd)
	}
}

// TestAPIErrorKind: the CLI's synthetic API-error message of 2.1.274 and
// later names the kind of error (api_error, usage_limit_reached …), the
// server's code (api_error_code) and the kind's parameters
// (api_error_params: here the rate limit's record, 2.1.292), in the shapes
// of the CLI's schemas (meawoppl/rust-code-agent-sdks claude-codes, the
// drift tests of 2.1.274, 2.1.288 and 2.1.292). They were dropped; they
// are the error's details, beside error and api_error_status (the kind as
// api_error_kind, api_error being the body of an "API Error: NNN {…}"
// text, which one error can have too).
func TestAPIErrorKind(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","model":"claude-opus-5-5","tools":[],"claude_code_version":"2.1.292","uuid":"u0"}`,
		`{"type":"assistant","message":{"id":"msg_01","type":"message","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"You've hit your limit."}],"stop_reason":"stop_sequence","stop_sequence":"","usage":{"input_tokens":0,"output_tokens":0}},"parent_tool_use_id":null,"agent_id":"a1","error":"rate_limit","is_api_error_message":true,"api_error":"usage_limit_reached","api_error_code":"seven_day_limit","api_error_params":{"rate_limit_info":{"status":"rejected","resetsAt":1760000000,"rateLimitType":"seven_day","isUsingOverage":false,"limitScope":"group_pool"}},"uuid":"u1","session_id":"s1"}`)
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors", len(errs))
	}
	e := errs[0].Data.(*universal.Error)
	if e.Code != "rate_limit" || gjson.GetBytes(e.Details, "api_error_kind").Str != "usage_limit_reached" ||
		gjson.GetBytes(e.Details, "api_error_code").Str != "seven_day_limit" ||
		gjson.GetBytes(e.Details, "api_error_params.rate_limit_info.rateLimitType").Str != "seven_day" {
		t.Errorf("error %+v %s", e, e.Details)
	}
}

// TestDenialReasonCode: system/permission_denied of 2.1.276 and later
// gives decision_reason_code beside decision_reason_type
// (classifier_transcript_too_long, outside_reads_blocked, memory_paused),
// in the shape of the CLI's schemas (meawoppl/rust-code-agent-sdks
// claude-codes, CHANGELOG 2.1.276 and the 2.1.281 schema snapshot). It was
// dropped; it is the resolution's metadata, as the reason and its type are.
func TestDenialReasonCode(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","model":"claude-opus-5-5","tools":["Read"],"claude_code_version":"2.1.281","uuid":"u0"}`,
		`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_01","name":"Read","input":{"file_path":"/etc/hosts"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a1"}`,
		`{"type":"system","subtype":"permission_denied","tool_name":"Read","tool_use_id":"toolu_01","decision_reason_type":"safetyCheck","decision_reason":"Reads outside the workspace are blocked","decision_reason_code":"outside_reads_blocked","message":"Permission to use Read has been denied","uuid":"u1","session_id":"s1"}`)
	res := golden.OfType(evs, universal.TypePermissionResolved)
	if len(res) != 1 {
		t.Fatalf("%d resolutions", len(res))
	}
	md := res[0].Data.(*universal.Permission).Metadata
	if gjson.GetBytes(md, "decision_reason_code").Str != "outside_reads_blocked" {
		t.Errorf("resolution metadata %s", md)
	}
}

// TestSnakeCaseUserFlags: stream-json's user message (the SDK's schema of
// 2.1.2xx: meawoppl/rust-code-agent-sdks claude-codes, the 2.1.281 schema
// snapshot's user fields is_meta, is_compact_summary, isSynthetic) spells
// the hidden-context and compaction-summary flags in snake_case, where a
// transcript writes isMeta and isCompactSummary. Only the camelCase ones
// were read: hidden context and a compaction summary echoed on stdout were
// the user's prompts. They are system items, as in a transcript.
func TestSnakeCaseUserFlags(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","model":"claude-opus-5-5","tools":[],"claude_code_version":"2.1.281","uuid":"u0"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Hello"}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u1"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>ctx</system-reminder>"}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2","is_meta":true}`,
		`{"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation."},"parent_tool_use_id":null,"session_id":"s1","uuid":"u3","is_compact_summary":true}`)
	users := completed(evs, universal.KindMessage, universal.RoleUser)
	if len(users) != 1 || users[0].Content[0].Text != "Hello" {
		t.Errorf("user messages %+v", users)
	}
	if sys := completed(evs, universal.KindSystem, ""); len(sys) != 2 {
		t.Errorf("%d system items, want 2: %+v", len(sys), sys)
	}
}
