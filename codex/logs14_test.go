package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// systemTexts returns the texts of the session's system items, each with
// its part's metadata after a tab.
func systemTexts(evs []universal.Event) []string {
	var out []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindSystem && len(it.Content) > 0 {
			out = append(out, it.Content[0].Text+"\t"+string(it.Content[0].Metadata))
		}
	}
	return out
}

// TestHookCompletedContext: what a hook gives the model (its run's entries
// of kind "context": additionalContext, a SessionStart hook's plain stdout;
// codex-rs/hooks/src/events/session_start.rs, "plain stdout becomes model
// context") is a system item, as Claude Code's hook context is. The
// app-server sends it in hook/completed (HookCompletedNotification of the
// 0.169.0 schema, camelCase), and Codex persists the core event
// hook_completed in rollouts (codex-rs rollout policy
// should_persist_event_msg: "persists completed hook events but not started
// events"), snake_case. hook/completed was ignored and a rollout's
// hook_completed was agent.unparsed; the context was lost either way (the
// rollout's copy for the model is a developer message, which is never
// shown). A failed run with only an error entry adds nothing: the first
// app-server line is a real one (a Stop hook failing on Windows, quoted in
// a public project's notes found by content search; the index does not
// name the repository).
func TestHookCompletedContext(t *testing.T) {
	evs := runParsed(t, codex.FormatAppServer, []string{
		`{"method":"thread/started","params":{"thread":{"id":"01a01817-45c5-7f71-b533-dc1ca2219db3","cwd":"/w"}}}`,
		`{"method":"turn/started","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turn":{"id":"01a01817-4766-7752-97da-e5cb6a178208","items":[],"status":"inProgress"}}}`,
		`{"method":"hook/started","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turnId":"01a01817-4766-7752-97da-e5cb6a178208","run":{"id":"session_start:0:/w/.codex/hooks.json","eventName":"sessionStart","handlerType":"command","executionMode":"sync","scope":"thread","sourcePath":"/w/.codex/hooks.json","displayOrder":0,"status":"running","startedAt":1787110570,"entries":[]}}}`,
		`{"method":"hook/completed","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turnId":"01a01817-4766-7752-97da-e5cb6a178208","run":{"id":"session_start:0:/w/.codex/hooks.json","eventName":"sessionStart","handlerType":"command","executionMode":"sync","scope":"thread","sourcePath":"/w/.codex/hooks.json","source":"project","displayOrder":0,"status":"completed","statusMessage":null,"startedAt":1787110570,"completedAt":1787110571,"durationMs":40,"entries":[{"kind":"warning","text":"shown to the user"},{"kind":"context","text":"Branch: main. Run make check before committing."}]}}}`,
		`{"method":"item/completed","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turnId":"01a01817-4766-7752-97da-e5cb6a178208","item":{"id":"m1","type":"agentMessage","text":"HOOK_DIAGNOSTIC_OK"}}}`,
		`{"method":"hook/completed","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turnId":"01a01817-4766-7752-97da-e5cb6a178208","run":{"id":"stop:1:C:\\SourceCodes\\cae-material-platform\\.codex\\hooks.json","eventName":"stop","handlerType":"command","executionMode":"sync","scope":"turn","sourcePath":"C:\\SourceCodes\\cae-material-platform\\.codex\\hooks.json","source":"project","displayOrder":1,"status":"failed","statusMessage":"Checking unfinished visual documentation","startedAt":1787110579,"completedAt":1787110580,"durationMs":511,"entries":[{"kind":"error","text":"hook exited with code 1"}]}}}`,
		`{"method":"turn/completed","params":{"threadId":"01a01817-45c5-7f71-b533-dc1ca2219db3","turn":{"id":"01a01817-4766-7752-97da-e5cb6a178208","items":[],"status":"completed"}}}`,
	})
	want := "Branch: main. Run make check before committing.\t" + `{"hook_event":"sessionStart","hook_id":"session_start:0:/w/.codex/hooks.json"}`
	if got := systemTexts(evs); len(got) != 1 || got[0] != want {
		t.Errorf("app-server system items %q, want [%q]", got, want)
	}

	evs = runParsed(t, codex.FormatRollout, []string{
		`{"timestamp":"2026-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"/w","cli_version":"0.172.0"}}`,
		`{"timestamp":"2026-11-20T10:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-11-20T10:00:00.200Z","type":"event_msg","payload":{"type":"user_message","message":"hi","images":[]}}`,
		`{"timestamp":"2026-11-20T10:00:00.300Z","type":"event_msg","payload":{"type":"hook_completed","turn_id":"t1","run":{"id":"user_prompt_submit:0:/w/.codex/hooks.json","event_name":"user_prompt_submit","handler_type":"command","execution_mode":"sync","scope":"turn","source_path":"/w/.codex/hooks.json","source":"project","display_order":0,"status":"completed","status_message":null,"started_at":1787110570,"completed_at":1787110571,"duration_ms":12,"entries":[{"kind":"context","text":"The user is on call today."}]}}}`,
		`{"timestamp":"2026-11-20T10:00:00.310Z","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"The user is on call today."}]}}`,
		`{"timestamp":"2026-11-20T10:00:00.400Z","type":"event_msg","payload":{"type":"agent_message","message":"Hello."}}`,
		`{"timestamp":"2026-11-20T10:00:00.500Z","type":"event_msg","payload":{"type":"hook_completed","turn_id":"t1","run":{"id":"stop:0:/w/.codex/hooks.json","event_name":"stop","handler_type":"command","execution_mode":"sync","scope":"turn","source_path":"/w/.codex/hooks.json","display_order":0,"status":"failed","started_at":1787110572,"entries":[{"kind":"error","text":"hook exited with code 1"}]}}}`,
		`{"timestamp":"2026-11-20T10:00:00.600Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Hello."}}`,
	})
	want = "The user is on call today.\t" + `{"hook_event":"user_prompt_submit","hook_id":"user_prompt_submit:0:/w/.codex/hooks.json"}`
	if got := systemTexts(evs); len(got) != 1 || got[0] != want {
		t.Errorf("rollout system items %q, want [%q]", got, want)
	}
	var order []string
	for _, it := range golden.NewTranscript(evs).Items {
		order = append(order, string(it.Role))
	}
	if got := strings.Join(order, ","); got != "user,system,assistant" {
		t.Errorf("rollout item roles %s, want user,system,assistant", got)
	}
}

// imageParts returns the image parts of the session's tool results, each as
// "mime path metadata".
func imageParts(evs []universal.Event) []string {
	var out []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind != universal.KindToolResult {
			continue
		}
		for _, p := range it.Content {
			if p.Type == universal.PartImage {
				out = append(out, p.Mime+" "+p.Path+" "+string(p.Metadata))
			}
		}
	}
	return out
}

// TestImageGenerationWithoutSavedPath: an image generation whose image
// Codex did not save (savedPath null: the image is inline, or in the
// attachment store; ImageGenerationThreadItem of the 0.169.0 schema:
// "Either inline generated-image data or its durable attachment-store
// identity", result or fileId) had a result without any image part; a
// rollout's image_generation_call, whose result is the base64 image, had
// none either. Now the result has an image part with the data's type and
// length (the data stays in raw), or the file id, as package anthropic keeps
// an inline image; a saved file is still the path. In a rollout the
// image_generation_call comes first and Codex writes the
// image_generation_end with the saved_path after it (it saves the image
// after recording the item): the call's result waits for it.
func TestImageGenerationWithoutSavedPath(t *testing.T) {
	evs := runParsed(t, codex.FormatAppServer, []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1","cwd":"/w"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
		`{"method":"item/started","params":{"threadId":"th1","turnId":"tu1","item":{"id":"ig_1","type":"imageGeneration","status":"generating","revisedPrompt":null,"result":""}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"id":"ig_1","type":"imageGeneration","status":"completed","revisedPrompt":"a red square","result":"iVBORw0KGgoAAAANSUhEUg==","savedPath":null}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"id":"ig_2","type":"imageGeneration","status":"completed","revisedPrompt":"a blue square","fileId":"file_abc","savedPath":null}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"id":"ig_3","type":"imageGeneration","status":"completed","revisedPrompt":"a green square","result":"/9j/4AAQ","savedPath":"/w/.codex/generated_images/ig_3.jpg"}}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"id":"ig_4","type":"imageGeneration","status":"failed","result":"","failure":{"type":"usageLimitExceeded","limitId":"image_gen"}}}}`,
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`,
	})
	want := []string{
		`image/png  {"data_length":24}`,
		`image/*  {"file_id":"file_abc"}`,
		`image/jpeg /w/.codex/generated_images/ig_3.jpg `,
	}
	if got := imageParts(evs); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("app-server images %q, want %q", got, want)
	}

	evs = runParsed(t, codex.FormatRollout, []string{
		`{"timestamp":"2026-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"/w","cli_version":"0.160.0"}}`,
		`{"timestamp":"2026-11-20T10:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-11-20T10:00:00.200Z","type":"event_msg","payload":{"type":"user_message","message":"draw","images":[]}}`,
		`{"timestamp":"2026-11-20T10:00:00.300Z","type":"response_item","payload":{"type":"image_generation_call","id":"ig_1","status":"completed","revised_prompt":"a red square","result":"iVBORw0KGgoAAAANSUhEUg=="}}`,
		`{"timestamp":"2026-11-20T10:00:00.400Z","type":"event_msg","payload":{"type":"image_generation_end","call_id":"ig_2","status":"completed","revised_prompt":"a blue square","result":"R0lGODlhAQABAAAAACw="}}`,
		`{"timestamp":"2026-11-20T10:00:00.500Z","type":"event_msg","payload":{"type":"image_generation_end","call_id":"ig_3","status":"failed","revised_prompt":"x","result":"","failure":{"type":"usage_limit_exceeded","limit_id":"image_gen"}}}`,
		`{"timestamp":"2026-11-20T10:00:00.510Z","type":"response_item","payload":{"type":"image_generation_call","id":"ig_4","status":"completed","revised_prompt":"a gray square","result":"iVBORw0KGgoAAAANSUhEUg=="}}`,
		`{"timestamp":"2026-11-20T10:00:00.520Z","type":"event_msg","payload":{"type":"image_generation_end","call_id":"ig_4","status":"completed","revised_prompt":"a gray square","result":"iVBORw0KGgoAAAANSUhEUg==","saved_path":"/w/.codex/generated_images/s1/ig_4.png"}}`,
		`{"timestamp":"2026-11-20T10:00:00.600Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":null}}`,
	})
	// ig_1's result waits for an image_generation_end until the turn
	// ends; ig_4's end names the saved file.
	want = []string{`image/gif  {"data_length":20}`, `image/png /w/.codex/generated_images/s1/ig_4.png `, `image/png  {"data_length":24}`}
	if got := imageParts(evs); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rollout images %q, want %q", got, want)
	}
	var failed int
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindToolResult && it.Content[0].IsError {
			failed++
		}
	}
	if failed != 1 {
		t.Errorf("%d failed results, want 1 (the generation with a failure)", failed)
	}
}

// TestMCPServerToolCallErrors: codex mcp-server ends each tools/call of its
// codex tool with a response (codex-rs/mcp-server codex_tool_runner.rs):
// a CallToolResult with isError when the session failed to start ("Failed
// to start Codex session: …", before any event) or on a runtime error, the
// result {"error": message} after an error event, a JSON-RPC error for bad
// arguments. Those responses were ignored: a session that never started
// showed no error at all, and a turn an error ended was left open (ended
// interrupted at the end of the input). Now the response is an error event
// unless an error event already failed the turn, and it ends the turn in
// error. In a recorded exchange the host's tools/call also gives the
// prompt.
func TestMCPServerToolCallErrors(t *testing.T) {
	init := `{"id":1,"jsonrpc":"2.0","result":{"capabilities":{"tools":{"listChanged":true}},"protocolVersion":"2025-06-18","serverInfo":{"name":"codex-mcp-server","title":"Codex","version":"0.46.0"}}}`
	errs := func(evs []universal.Event) []string {
		var out []string
		for _, e := range golden.OfType(evs, universal.TypeError) {
			out = append(out, e.Data.(*universal.Error).Message)
		}
		return out
	}
	ended := func(evs []universal.Event) string {
		var out []string
		for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
			out = append(out, string(e.Data.(*universal.TurnEnded).Status))
		}
		return strings.Join(out, ",")
	}
	reason := func(evs []universal.Event) universal.EndReason {
		e := golden.OfType(evs, universal.TypeSessionEnded)
		return e[len(e)-1].Data.(*universal.SessionEnded).Reason
	}

	// Server lines: the session never started.
	evs := runParsed(t, codex.FormatAppServer, []string{init,
		`{"id":2,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"Failed to start Codex session: Fatal error: Codex cannot access session files at /home/u/.codex/sessions (permission denied)"}],"isError":true}}`,
	})
	if got := errs(evs); len(got) != 1 || !strings.HasPrefix(got[0], "Failed to start Codex session: ") {
		t.Errorf("errors %q, want the failed start", got)
	}
	if r := reason(evs); r != universal.EndError {
		t.Errorf("session ended %q, want error", r)
	}

	// A recorded exchange: the prompt, an error event, then the answer.
	evs = runParsed(t, codex.FormatExchange, []string{
		`in {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`,
		init,
		`in {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"codex","arguments":{"prompt":"Fix the build"}}}`,
		`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":2},"id":"","msg":{"type":"session_configured","session_id":"s-1","model":"gpt-5","history_log_id":0,"history_entry_count":0}}}`,
		`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":2},"id":"2","msg":{"type":"task_started","model_context_window":272000}}}`,
		`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":2},"id":"2","msg":{"type":"error","message":"stream disconnected before completion"}}}`,
		`{"id":2,"jsonrpc":"2.0","result":{"error":"stream disconnected before completion"}}`,
		`in {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"codex-reply","arguments":{"conversationId":"s-1"}}}`,
		`{"id":3,"jsonrpc":"2.0","error":{"code":-32602,"message":"Failed to parse configuration for Codex tool: missing field ` + "`prompt`" + `"}}`,
	})
	if got := errs(evs); len(got) != 2 || got[0] != "stream disconnected before completion" || !strings.HasPrefix(got[1], "Failed to parse configuration") {
		t.Errorf("errors %q, want the error event's and the refused call's", got)
	}
	if got := ended(evs); got != "error" {
		t.Errorf("turns ended %q, want one in error", got)
	}
	var user string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Role == universal.RoleUser {
			user += golden.TextOf(&it)
		}
	}
	if user != "Fix the build" {
		t.Errorf("user text %q, want the tools/call prompt", user)
	}
}

// TestThreadCompactedLegacy: before the contextCompaction item (openai/codex
// PR 10016, January 2026: "Emit compaction as item started/completed with a
// new Compaction item and keep legacy thread/compacted"), an app-server
// reported a compaction only by thread/compacted {threadId, turnId}, which
// was ignored: the compaction was lost. It is now a compaction status item,
// unless the turn's contextCompaction item reports it (later versions send
// both, the item first), and such an item after it adds nothing.
func TestThreadCompactedLegacy(t *testing.T) {
	start := []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1","cwd":"/w"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
	}
	end := `{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`
	item := func(m string) string {
		return `{"method":"` + m + `","params":{"threadId":"th1","turnId":"tu1","item":{"type":"contextCompaction","id":"cc1"}}}`
	}
	legacy := `{"method":"thread/compacted","params":{"threadId":"th1","turnId":"tu1"}}`
	for _, c := range []struct {
		name  string
		lines []string
	}{
		{"legacy only", []string{legacy}},
		{"item then legacy", []string{item("item/started"), item("item/completed"), legacy}},
		{"legacy then item", []string{legacy, item("item/started"), item("item/completed")}},
	} {
		lines := append(append(append([]string{}, start...), c.lines...), end)
		if n := compactions(runParsed(t, codex.FormatAppServer, lines)); n != 1 {
			t.Errorf("%s: %d compaction items, want 1", c.name, n)
		}
	}
}

// TestMCPServerApprovalElicitation: codex mcp-server asks its client to
// approve a command or a patch with an MCP elicitation/create request
// (codex-rs/mcp-server exec_approval.rs and patch_approval.rs: {message,
// requestedSchema, threadId, codex_elicitation, codex_call_id,
// codex_command, codex_cwd, codex_parsed_cmd | codex_reason,
// codex_grant_root, codex_changes}; the client answers {decision}). The
// request was agent.unparsed ("unknown server request") and the approval
// lost (the exec_approval_request event it follows is left to the server
// request). Now it is a permission like the v1 app-server's
// execCommandApproval and applyPatchApproval; another elicitation is a
// question.
func TestMCPServerApprovalElicitation(t *testing.T) {
	ev := func(id, msg string) string {
		return `{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":2,"threadId":"s-1"},"id":"` + id + `","msg":` + msg + `}}`
	}
	evs := runParsed(t, codex.FormatExchange, []string{
		`in {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"codex","arguments":{"prompt":"Clean up","approval-policy":"untrusted"}}}`,
		ev("", `{"type":"session_configured","session_id":"s-1","model":"gpt-5","history_log_id":0,"history_entry_count":0}`),
		ev("2", `{"type":"task_started","model_context_window":272000}`),
		ev("2", `{"type":"exec_approval_request","call_id":"call_1","command":["rm","-rf","build"],"cwd":"/w","parsed_cmd":[{"type":"unknown","cmd":"rm -rf build"}]}`),
		`{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"Allow Codex to run ` + "`rm -rf build`" + ` in ` + "`/w`" + `?","requestedSchema":{"type":"object","properties":{}},"threadId":"s-1","codex_elicitation":"exec-approval","codex_mcp_tool_call_id":"2","codex_event_id":"2","codex_call_id":"call_1","codex_command":["rm","-rf","build"],"codex_cwd":"/w","codex_parsed_cmd":[{"type":"unknown","cmd":"rm -rf build"}]}}`,
		`in {"jsonrpc":"2.0","id":0,"result":{"decision":"approved"}}`,
		ev("2", `{"type":"exec_command_begin","call_id":"call_1","command":["rm","-rf","build"],"cwd":"/w","parsed_cmd":[]}`),
		ev("2", `{"type":"exec_command_end","call_id":"call_1","stdout":"","stderr":"","aggregated_output":"","exit_code":0,"duration":{"secs":0,"nanos":1000},"formatted_output":""}`),
		ev("2", `{"type":"apply_patch_approval_request","call_id":"call_2","changes":{"/w/a.txt":{"add":{"content":"hi\n"}}},"reason":null,"grant_root":null}`),
		`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Allow Codex to apply proposed code changes?","requestedSchema":{"type":"object","properties":{}},"threadId":"s-1","codex_elicitation":"patch-approval","codex_mcp_tool_call_id":"2","codex_event_id":"2","codex_call_id":"call_2","codex_reason":null,"codex_grant_root":null,"codex_changes":{"/w/a.txt":{"add":{"content":"hi\n"}}}}}`,
		`in {"jsonrpc":"2.0","id":1,"result":{"decision":"denied"}}`,
		ev("2", `{"type":"agent_message","message":"Removed build; left a.txt alone."}`),
		ev("2", `{"type":"task_complete","last_agent_message":"Removed build; left a.txt alone."}`),
		`{"id":2,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"Removed build; left a.txt alone."}]}}`,
	})
	var got []string
	for _, e := range golden.OfType(evs, universal.TypePermissionRequested) {
		got = append(got, "requested "+e.Data.(*universal.Permission).Action)
	}
	for _, e := range golden.OfType(evs, universal.TypePermissionResolved) {
		d := e.Data.(*universal.Permission)
		got = append(got, "resolved "+d.PermissionID+" "+string(d.Status))
	}
	want := "requested rm -rf build|requested edit /w/a.txt|resolved 0 approved|resolved 1 denied"
	if strings.Join(got, "|") != want {
		t.Errorf("permissions %q, want %q", got, want)
	}
}

// TestMCPServerNewerEvents: codex mcp-server sends every core event as a
// codex/event notification, and the core events of later versions were
// agent.unparsed there: model_reroute {from_model, to_model, reason} and
// guardian_warning {message} (codex-rs/protocol protocol.rs) are now the
// status items the app-server's model/rerouted and guardianWarning give;
// model_verification, turn_moderation_metadata, safety_buffering,
// patch_apply_updated, request_permissions and the realtime_conversation_*
// events are ignored as their app-server counterparts are (Codex does not
// write them to rollouts: should_persist_event_msg).
func TestMCPServerNewerEvents(t *testing.T) {
	ev := func(id, msg string) string {
		return `{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":2,"threadId":"s-1"},"id":"` + id + `","msg":` + msg + `}}`
	}
	evs := runParsed(t, codex.FormatAppServer, []string{
		ev("", `{"type":"session_configured","session_id":"s-1","model":"gpt-5.6-sol","history_log_id":0,"history_entry_count":0}`),
		ev("2", `{"type":"task_started","model_context_window":272000}`),
		ev("2", `{"type":"model_verification","verifications":["trusted_access_for_cyber"]}`),
		ev("2", `{"type":"model_reroute","from_model":"gpt-5.6-sol","to_model":"gpt-5.4-mini","reason":"high_risk_cyber_activity"}`),
		ev("2", `{"type":"guardian_warning","message":"The reviewer could not assess this action."}`),
		ev("2", `{"type":"turn_moderation_metadata","metadata":{"flagged":false}}`),
		ev("2", `{"type":"safety_buffering","active":true}`),
		ev("2", `{"type":"patch_apply_updated","call_id":"c1","changes":{}}`),
		ev("2", `{"type":"request_permissions","call_id":"c2","permissions":{}}`),
		ev("2", `{"type":"realtime_conversation_closed","reason":"ended"}`),
		ev("2", `{"type":"agent_message","message":"ok"}`),
		ev("2", `{"type":"task_complete","last_agent_message":"ok"}`),
	})
	var got []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindStatus {
			got = append(got, it.Content[0].Label+": "+it.Content[0].Detail)
		}
	}
	want := "model_rerouted: gpt-5.6-sol → gpt-5.4-mini|guardian_warning: The reviewer could not assess this action."
	if strings.Join(got, "|") != want {
		t.Errorf("status items %q, want %q", got, want)
	}
}

// TestInterAgentEncryptedPayload: multi-agent v2 keeps the task a model
// sends another agent only as ciphertext (openai/codex PR 26210: "Store v2
// inter-agent task text in InterAgentCommunication.encrypted_content with
// empty plaintext content"; PR 28368 puts a plaintext envelope before it in
// the agent_message item). The system item showed an empty text, or the
// envelope ending in "Payload:", with nothing saying a payload was there;
// its metadata now says encrypted. The agent_message line is the child's
// item as a public issue quotes it (MetaFARS/codex-relay issue 60, a relay
// that passed the payload as plaintext), in a rollout line.
func TestInterAgentEncryptedPayload(t *testing.T) {
	evs := runParsed(t, codex.FormatRollout, []string{
		`{"timestamp":"2026-08-16T10:00:00.000Z","type":"session_meta","payload":{"id":"01a00b22-0000-7000-8000-000000000001","cwd":"/home/u","cli_version":"0.150.0"}}`,
		`{"timestamp":"2026-08-16T10:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"2026-08-16T10:00:00.200Z","type":"response_item","payload":{"type":"agent_message","id":"amsg_01a00b22-b341-7cf1-bb87-5ceffa28054b","author":"/root","recipient":"/root/list_files","content":[{"type":"input_text","text":"Message Type: NEW_TASK\nTask name: /root/list_files\nSender: /root\nPayload:\n"},{"type":"encrypted_content","encrypted_content":"gAAAAABpayload"}]}}`,
		`{"timestamp":"2026-08-16T10:00:00.300Z","type":"inter_agent_communication","payload":{"author":"/root","recipient":"/root/list_files","other_recipients":[],"content":"","encrypted_content":"gAAAAABpayload2","trigger_turn":false}}`,
		`{"timestamp":"2026-08-16T10:00:00.400Z","type":"inter_agent_communication","payload":{"author":"/root/list_files","recipient":"/root","other_recipients":[],"content":"3 files","trigger_turn":false}}`,
		`{"timestamp":"2026-08-16T10:00:00.600Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":null}}`,
	})
	want := []string{
		"Message Type: NEW_TASK\nTask name: /root/list_files\nSender: /root\nPayload:\n\t" + `{"author":"/root","recipient":"/root/list_files","encrypted":true}`,
		"\t" + `{"author":"/root","recipient":"/root/list_files","encrypted":true}`,
		"3 files\t" + `{"author":"/root/list_files","recipient":"/root"}`,
	}
	if got := systemTexts(evs); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("system items %q, want %q", got, want)
	}
}

// TestLogs14RestoreAnywhere: a checkpoint taken after any line of the new
// shapes (a held image result, a hook context, the compaction marker, an
// mcp-server approval and failed answer) restores to the same output.
func TestLogs14RestoreAnywhere(t *testing.T) {
	for _, c := range []struct {
		format string
		lines  []string
	}{
		{codex.FormatRollout, []string{
			`{"timestamp":"2026-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"/w","cli_version":"0.160.0"}}`,
			`{"timestamp":"2026-11-20T10:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
			`{"timestamp":"2026-11-20T10:00:00.200Z","type":"event_msg","payload":{"type":"user_message","message":"draw","images":[]}}`,
			`{"timestamp":"2026-11-20T10:00:00.250Z","type":"event_msg","payload":{"type":"hook_completed","turn_id":"t1","run":{"id":"h1","event_name":"user_prompt_submit","status":"completed","entries":[{"kind":"context","text":"ctx"}]}}}`,
			`{"timestamp":"2026-11-20T10:00:00.300Z","type":"response_item","payload":{"type":"image_generation_call","id":"ig_1","status":"completed","revised_prompt":"a red square","result":"iVBORw0KGgoAAAANSUhEUg=="}}`,
			`{"timestamp":"2026-11-20T10:00:00.310Z","type":"response_item","payload":{"type":"image_generation_call","id":"ig_2","status":"completed","revised_prompt":"a blue square","result":"iVBORw0KGgoAAAANSUhEUg=="}}`,
			`{"timestamp":"2026-11-20T10:00:00.400Z","type":"event_msg","payload":{"type":"image_generation_end","call_id":"ig_1","status":"completed","result":"iVBORw0KGgoAAAANSUhEUg==","saved_path":"/w/ig_1.png"}}`,
			`{"timestamp":"2026-11-20T10:00:00.500Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}}`,
			`{"timestamp":"2026-11-20T10:00:00.600Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Done."}}`,
		}},
		{codex.FormatExchange, []string{
			`in {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"codex","arguments":{"prompt":"Clean up"}}}`,
			`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":2,"threadId":"s-1"},"id":"","msg":{"type":"session_configured","session_id":"s-1","model":"gpt-5"}}}`,
			`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":2,"threadId":"s-1"},"id":"2","msg":{"type":"task_started"}}}`,
			`{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"Allow?","requestedSchema":{},"threadId":"s-1","codex_elicitation":"exec-approval","codex_call_id":"call_1","codex_command":["ls"],"codex_cwd":"/w"}}`,
			`in {"jsonrpc":"2.0","id":0,"result":{"decision":"denied"}}`,
			`{"jsonrpc":"2.0","method":"codex/event","params":{"_meta":{"requestId":2,"threadId":"s-1"},"id":"2","msg":{"type":"model_reroute","from_model":"a","to_model":"b","reason":"high_risk_cyber_activity"}}}`,
			`{"id":2,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"Codex runtime error: boom"}],"isError":true}}`,
		}},
		{codex.FormatAppServer, []string{
			`{"method":"thread/started","params":{"thread":{"id":"th1","cwd":"/w"}}}`,
			`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
			`{"method":"thread/compacted","params":{"threadId":"th1","turnId":"tu1"}}`,
			`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"contextCompaction","id":"cc1"}}}`,
			`{"method":"hook/completed","params":{"threadId":"th1","turnId":"tu1","run":{"id":"h1","eventName":"stop","status":"completed","entries":[{"kind":"context","text":"ctx"}]}}}`,
			`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`,
		}},
	} {
		var data []string
		for _, l := range c.lines {
			if rest, ok := strings.CutPrefix(l, "in "); ok {
				l = `{"dir":"in","t_ms":1,"msg":` + rest + `}`
			} else if c.format == codex.FormatExchange {
				l = `{"dir":"out","t_ms":1,"msg":` + l + `}`
			}
			data = append(data, l)
		}
		runParsed(t, c.format, c.lines)
		golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: c.format, Format: c.format, Framing: framing(c.format),
			New: newFor(c.format), Data: []byte(strings.Join(data, "\n") + "\n")})
	}
}

// compactions counts the compaction status items of a stream.
func compactions(evs []universal.Event) int {
	n := 0
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindStatus && it.Content[0].Label == universal.LabelCompaction {
			n++
		}
	}
	return n
}
