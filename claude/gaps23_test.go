package claude_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestInitPluginErrorsEffort: system/init's plugin_errors (the plugins
// that did not load, or loaded without a component: the Agent SDK's
// SDKSystemMessage, sdk.d.ts of @anthropic-ai/claude-agent-sdk 0.3.332)
// are session.started metadata beside plugins, and its effort (the
// effort level of the session's next request; null when none is sent) is
// the reasoning_effort of session.started and turn.started, as Codex's
// and Pi's are. Both were dropped.
func TestInitPluginErrorsEffort(t *testing.T) {
	const init = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash"],"mcp_servers":[],"model":"claude-opus-4-7","permissionMode":"default","slash_commands":[],"apiKeySource":"none","claude_code_version":"2.1.332","output_style":"default","skills":[],"plugins":[{"name":"lint","path":"/p/lint","version":"1.0.0"}],"plugin_errors":[{"plugin":"deploy@acme","type":"dependency-unsatisfied","message":"Plugin deploy requires kube@acme, which is not installed"},{"plugin":"inline[0]","type":"path-not-found","message":"Plugin directory not found","path":"/w/plugins/missing"}],"effort":%s,"uuid":"i1"}`
	for _, tc := range []struct {
		effort, want string
	}{
		{`"xhigh"`, "xhigh"},
		{`null`, ""},
	} {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, fmt.Sprintf(init, tc.effort))
		md := golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata
		errs := gjson.GetBytes(md, "plugin_errors")
		if len(errs.Array()) != 2 || errs.Get("0.message").Str != "Plugin deploy requires kube@acme, which is not installed" ||
			errs.Get("1.path").Str != "/w/plugins/missing" {
			t.Errorf("effort %s: plugin_errors %s in %s", tc.effort, errs.Raw, md)
		}
		ts := golden.OfType(evs, universal.TypeTurnStarted)
		if len(ts) != 1 {
			t.Fatalf("%d turn.started", len(ts))
		}
		tmd := ts[0].Data.(*universal.TurnStarted).Metadata
		for what, m := range map[string][]byte{"session.started": md, "turn.started": tmd} {
			got := gjson.GetBytes(m, "reasoning_effort")
			if got.Str != tc.want || (tc.want == "" && got.Exists()) {
				t.Errorf("effort %s: %s reasoning_effort %s, want %q", tc.effort, what, got.Raw, tc.want)
			}
		}
	}
}

// TestStdinNoQueryPrompt: a user message the host writes to stdin with
// shouldQuery false (the Agent SDK's SDKUserMessage: appended to the
// conversation without an assistant turn, merged into the next message
// that queries) starts no turn. It took the next turn's place as its
// prompt, so that each later prompt was shown one turn late and the last
// one after the session's last turn; it now goes with the next message
// into that message's turn, before it.
func TestStdinNoQueryPrompt(t *testing.T) {
	const (
		init   = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"mcp_servers":[],"model":"m","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i%d"}`
		answer = `{"type":"assistant","message":{"id":"m%d","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"answer %d"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a%d"}`
		result = `{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"duration_api_ms":5,"num_turns":1,"result":"answer %d","stop_reason":"end_turn","total_cost_usd":0.01,"usage":{"input_tokens":1,"output_tokens":2},"modelUsage":{},"permission_denials":[],"session_id":"s1","uuid":"r%d"}`
	)
	evs := feed(t, claude.FormatExchange, nil, nil,
		`in:{"type":"user","session_id":"","message":{"role":"user","content":"Background: the build uses Bazel."},"parent_tool_use_id":null,"shouldQuery":false,"uuid":"u0"}`,
		`in:{"type":"user","session_id":"","message":{"role":"user","content":"How do I run the tests?"},"parent_tool_use_id":null,"uuid":"u1"}`,
		fmt.Sprintf(init, 1), fmt.Sprintf(answer, 1, 1, 1), fmt.Sprintf(result, 1, 1),
		`in:{"type":"user","session_id":"","message":{"role":"user","content":"And the linter?"},"parent_tool_use_id":null,"uuid":"u2"}`,
		fmt.Sprintf(init, 2), fmt.Sprintf(answer, 2, 2, 2), fmt.Sprintf(result, 2, 2))
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	// Each message item in the order it completed, with the turn it is in.
	var got []string
	turn := ""
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *universal.TurnStarted:
			turn = d.TurnID
		case *universal.TurnEnded:
			turn = ""
		case *universal.ItemSnapshot:
			if e.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindMessage {
				got = append(got, turn+" "+string(d.Item.Role)+": "+d.Item.Content[0].Text)
			}
		}
	}
	want := []string{
		"turn_1 user: Background: the build uses Bazel.",
		"turn_1 user: How do I run the tests?",
		"turn_1 assistant: answer 1",
		"turn_2 user: And the linter?",
		"turn_2 assistant: answer 2",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages:\n%q\nwant\n%q", got, want)
	}
}

// TestStdinPastedContent: a stdin user message's pasted_content (the
// Agent SDK's SDKUserMessage: what the user pasted rather than typed,
// each entry a string or an array of content blocks, whose text the CLI
// appends after the typed text; other blocks are ignored) was lost: the
// prompt showed only message.content. Each string and text block is now a
// text part after the message's content, metadata {"pasted": true}; a
// list the CLI ignores (more than 1,000 entries and blocks) adds nothing.
func TestStdinPastedContent(t *testing.T) {
	const init = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"mcp_servers":[],"model":"m","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i1"}`
	long := "[" + strings.Repeat(`"x",`, 1000) + `"x"]`
	// want: each part's text, "+" before a pasted one's.
	for _, tc := range []struct {
		name, content, pasted string
		want                  []string
	}{
		{"string prompt", `"Why does this fail?"`, `["panic: runtime error\ngoroutine 1"]`,
			[]string{"Why does this fail?", "+panic: runtime error\ngoroutine 1"}},
		{"blocks", `[{"type":"text","text":"Compare these:"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]`,
			`["first paste",[{"type":"text","text":"second, block 1"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}},{"type":"text","text":"second, block 2"}]]`,
			[]string{"Compare these:", "", "+first paste", "+second, block 1", "+second, block 2"}},
		{"over the limit", `"hi"`, long, []string{"hi"}},
	} {
		evs := feed(t, claude.FormatExchange, nil, nil,
			`in:{"type":"user","session_id":"","message":{"role":"user","content":`+tc.content+`},"parent_tool_use_id":null,"pasted_content":`+tc.pasted+`,"uuid":"u1"}`,
			init)
		users := completed(evs, universal.KindMessage, universal.RoleUser)
		if len(users) != 1 {
			t.Fatalf("%s: %d user messages", tc.name, len(users))
		}
		var got []string
		for _, p := range users[0].Content {
			s := p.Text
			if gjson.GetBytes(p.Metadata, "pasted").Bool() {
				s = "+" + s
			}
			got = append(got, s)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: parts %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSDKPlumbingLines: lines the Agent SDK 0.3.332 reads from the CLI
// (sdk.mjs, its readMessages and handleControlRequest) and sends to it
// (sdk.d.ts SDKControlRequestInner) that carry no conversation were
// agent.unparsed: transcript_mirror (transcript entries for a host's
// SessionStore to copy), the CLI's control requests for credentials
// (oauth_token_refresh, host_auth_token_refresh,
// remote_control_work_secret) and a plugin's UI calls (ui_*), and the
// host's set_has_subscribers. They are ignored, the turn around them
// translated as before.
func TestSDKPlumbingLines(t *testing.T) {
	lines := []string{
		`in:{"type":"control_request","request_id":"h1","request":{"subtype":"set_has_subscribers","has_subscribers":false}}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"h1","response":{}}}`,
		`in:{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null,"uuid":"u1"}`,
		`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"mcp_servers":[],"model":"m","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i1"}`,
		`{"type":"transcript_mirror","filePath":"/home/dev/.claude/projects/-w/s1.jsonl","entries":[{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}]}`,
	}
	for i, sub := range []string{"oauth_token_refresh", "host_auth_token_refresh", "remote_control_work_secret",
		"ui_copy", "ui_prompt_read", "ui_prompt_fill", "ui_prompt_paint", "ui_prompt_suggest", "ui_read_selection"} {
		id := fmt.Sprintf("c%d", i)
		lines = append(lines, `{"type":"control_request","request_id":"`+id+`","request":{"subtype":"`+sub+`","session_id":"s1"}}`,
			`in:{"type":"control_response","response":{"subtype":"success","request_id":"`+id+`","response":{}}}`)
	}
	lines = append(lines,
		`{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a1"}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"duration_api_ms":5,"num_turns":1,"result":"Hello.","stop_reason":"end_turn","total_cost_usd":0.01,"usage":{"input_tokens":1,"output_tokens":2},"modelUsage":{},"permission_denials":[],"session_id":"s1","uuid":"r1"}`)
	evs := feed(t, claude.FormatExchange, nil, nil, lines...)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		for _, e := range u {
			t.Errorf("agent.unparsed: %+v", e.Data)
		}
	}
	if got := completed(evs, universal.KindMessage, ""); len(got) != 2 || got[1].Content[0].Text != "Hello." {
		t.Errorf("messages %+v", got)
	}
}

// TestTaskResourceLinks: a backgrounded MCP task's task_notification
// carries the resource_link blocks of its final result (the files it
// returned by reference; its tool result is only a placeholder), and
// task_started a workflow's script name and skip_transcript (a
// housekeeping task a transcript hides): the Agent SDK's
// SDKTaskNotificationMessage and SDKTaskStartedMessage (sdk.d.ts,
// 0.3.332). They were dropped; they are the task status part's metadata,
// as its other fields are.
func TestTaskResourceLinks(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"mcp_servers":[],"model":"m","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i1"}`,
		`{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"mcp__render__export","input":{"doc":"q3"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":2}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a1"}`,
		`{"type":"system","subtype":"task_started","task_id":"t1","tool_use_id":"toolu_1","description":"export q3","task_type":"mcp_task","is_backgrounded":true,"uuid":"ts1","session_id":"s1"}`,
		`{"type":"system","subtype":"task_started","task_id":"t2","description":"watch","task_type":"local_workflow","workflow_name":"spec","skip_transcript":true,"uuid":"ts2","session_id":"s1"}`,
		`{"type":"system","subtype":"task_notification","task_id":"t1","tool_use_id":"toolu_1","status":"completed","output_file":"","summary":"exported","resource_links":[{"uri":"file:///w/out/q3.pdf","name":"q3.pdf","mimeType":"application/pdf","size":52133}],"uuid":"tn1","session_id":"s1"}`)
	var started, done []byte
	for _, it := range completed(evs, universal.KindStatus, "") {
		if it.NativeItemID == "t1" {
			done = it.Content[0].Metadata
		}
	}
	for _, e := range golden.OfType(evs, universal.TypeItemStarted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.NativeItemID == "t2" {
			started = it.Content[0].Metadata
		}
	}
	if gjson.GetBytes(done, "resource_links.0.uri").Str != "file:///w/out/q3.pdf" || gjson.GetBytes(done, "resource_links.0.size").Int() != 52133 {
		t.Errorf("task_notification metadata %s lacks its resource_links", done)
	}
	if gjson.GetBytes(started, "workflow_name").Str != "spec" || !gjson.GetBytes(started, "skip_transcript").Bool() {
		t.Errorf("task_started metadata %s lacks workflow_name and skip_transcript", started)
	}
}

// TestUserShellExitCode: newer Claude Code ends the output of a shell
// command the user ran with its exit code, <bash-exit-code>N</bash-exit-code>
// after stderr (a tag among the CLI's own that the Agent SDK 0.3.332's
// sdk.mjs lists; a public host's test of the CLI's stream-json echoes
// quotes it so). It was dropped, and a failed command's result looked like
// a success; the code is now "exit_code" in the result part's metadata,
// as a Bash result's is, and a code other than 0 fails the result. Output
// without the tag (older versions) is as before.
func TestUserShellExitCode(t *testing.T) {
	const (
		init = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"mcp_servers":[],"model":"m","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i1"}`
		echo = `{"type":"user","message":{"role":"user","content":%q},"parent_tool_use_id":null,"session_id":"s1","uuid":"%s","isReplay":true}`
	)
	for _, tc := range []struct {
		name, output, want string
		code               int64
		failed             bool
	}{
		{"failed", `<bash-stdout>partial</bash-stdout><bash-stderr>make: *** [all] Error 7</bash-stderr><bash-exit-code>7</bash-exit-code>`, "partial\nmake: *** [all] Error 7", 7, true},
		{"succeeded", `<bash-stdout>ok</bash-stdout><bash-stderr></bash-stderr><bash-exit-code>0</bash-exit-code>`, "ok", 0, false},
		{"no code", `<bash-stdout>ok</bash-stdout><bash-stderr></bash-stderr>`, "ok", -1, false},
	} {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, init,
			fmt.Sprintf(echo, "<bash-input>make</bash-input>", "u1"), fmt.Sprintf(echo, tc.output, "u2"))
		results := completed(evs, universal.KindToolResult, universal.RoleTool)
		if len(results) != 1 {
			t.Fatalf("%s: %d results", tc.name, len(results))
		}
		r := results[0].Content[0]
		code := gjson.GetBytes(r.Metadata, "exit_code")
		if r.Output != tc.want || r.IsError != tc.failed || (results[0].Status == universal.StatusFailed) != tc.failed ||
			(tc.code >= 0 && (!code.Exists() || code.Int() != tc.code)) || (tc.code < 0 && code.Exists()) {
			t.Errorf("%s: result %q is_error %v status %s metadata %s, want %q, failed %v, exit code %d",
				tc.name, r.Output, r.IsError, results[0].Status, r.Metadata, tc.want, tc.failed, tc.code)
		}
	}
}

// TestInvalidConfigFile: the error result a stream-json run writes when a
// config file does not parse (startup_failure_reason config_file_invalid)
// names the file and its backup in invalid_config_file (the Agent SDK's
// SDKResultError, 0.3.332: "Read paths from here, never from the text of
// errors"). It was dropped; it is in the error's details beside the
// startup failure reason.
func TestInvalidConfigFile(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"result","subtype":"error_during_execution","duration_ms":0,"duration_api_ms":0,"is_error":true,"num_turns":0,"stop_reason":null,"total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0},"modelUsage":{},"permission_denials":[],"errors":["Configuration error in /home/dev/.claude.json: Unexpected token } in JSON at position 812"],"startup_failure_reason":"config_file_invalid","invalid_config_file":{"path":"/home/dev/.claude.json","is_global":true,"backup_searched":true,"backup_path":"/home/dev/.claude/backups/.claude.json.backup"},"session_id":"s1","uuid":"r1"}`)
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors", len(errs))
	}
	d := errs[0].Data.(*universal.Error)
	if f := gjson.GetBytes(d.Details, "invalid_config_file"); f.Get("path").Str != "/home/dev/.claude.json" ||
		f.Get("backup_path").Str != "/home/dev/.claude/backups/.claude.json.backup" || !f.Get("is_global").Bool() {
		t.Errorf("error details %s lack invalid_config_file", d.Details)
	}
	if d.Code != "config_file_invalid" {
		t.Errorf("error code %q", d.Code)
	}
}

// TestModelRefusalFallback: model_refusal_fallback says which model
// refused and which one the turn was retried on (for the session or, scope
// local, one sub-agent's response), the refusal's category and the API's
// explanation, and the prompt refused; model_refusal_no_fallback the same
// without a retry (the Agent SDK's SDKModelRefusalFallbackMessage and
// SDKModelRefusalNoFallbackMessage, 0.3.332). Only the retracted
// messages' uuids were kept (as metadata that was a bare array); the
// status part's metadata is now an object with all of them.
func TestModelRefusalFallback(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":[],"mcp_servers":[],"model":"claude-opus-4-7","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i1"}`,
		`{"type":"system","subtype":"model_refusal_fallback","trigger":"refusal","direction":"retry","scope":"session","original_model":"claude-opus-4-7","fallback_model":"claude-sonnet-4-6","request_id":"req_1","api_refusal_category":"cyber","api_refusal_explanation":"The request asks for a working exploit.","retracted_message_uuids":["a1","a2"],"refused_user_message_uuid":"u1","content":"Claude Opus 4.7 declined; retried with Claude Sonnet 4.6.","uuid":"f1","session_id":"s1"}`,
		`{"type":"system","subtype":"model_refusal_no_fallback","original_model":"claude-sonnet-4-6","request_id":null,"api_refusal_category":null,"api_refusal_explanation":null,"refused_user_message_uuid":null,"content":"Claude Sonnet 4.6 declined this request.","uuid":"f2","session_id":"s1"}`)
	st := completed(evs, universal.KindStatus, "")
	if len(st) != 2 {
		t.Fatalf("%d status items", len(st))
	}
	p := st[0].Content[0]
	for k, want := range map[string]string{"original_model": "claude-opus-4-7", "fallback_model": "claude-sonnet-4-6", "scope": "session",
		"api_refusal_category": "cyber", "api_refusal_explanation": "The request asks for a working exploit.", "refused_user_message_uuid": "u1",
		"retracted_message_uuids.1": "a2"} {
		if got := gjson.GetBytes(p.Metadata, k).Str; got != want {
			t.Errorf("fallback %s = %q, want %q (metadata %s)", k, got, want, p.Metadata)
		}
	}
	if p.Label != "model_refusal_fallback" || p.Detail != "Claude Opus 4.7 declined; retried with Claude Sonnet 4.6." {
		t.Errorf("fallback part %+v", p)
	}
	if p := st[1].Content[0]; p.Label != "model_refusal_no_fallback" || gjson.GetBytes(p.Metadata, "original_model").Str != "claude-sonnet-4-6" {
		t.Errorf("no fallback part %+v", p)
	}
}

// TestTranscriptBookkeeping: transcript entries the Agent SDK 0.3.332
// reads from a session file and writes into a fork (sdk.mjs: its session
// reader and forkSession) that hold account and data bookkeeping, no
// conversation — hybrid-organization, session-owner, data-flow-records,
// data-flow-incomplete — were agent.unparsed; they are ignored.
func TestTranscriptBookkeeping(t *testing.T) {
	const env = `"sessionId":"s2","version":"2.1.332","cwd":"/w"`
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z",`+env+`}`,
		`{"type":"hybrid-organization","sessionId":"s2","organizationUuid":"5d0c2f7e-0000-4000-8000-000000000001"}`,
		`{"type":"session-owner","sessionId":"s2","accountUuid":"5d0c2f7e-0000-4000-8000-000000000002","restricted":true}`,
		`{"type":"data-flow-records","v":1,"sessionId":"s2","records":[]}`,
		`{"type":"data-flow-incomplete","sessionId":"s2","codes":["unreadable"]}`,
		`{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a1","timestamp":"2026-11-29T10:00:01.000Z",`+env+`}`)
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed: %+v", e.Data)
	}
	if msgs := completed(evs, universal.KindMessage, ""); len(msgs) != 2 {
		t.Errorf("%d messages, want the prompt and the answer", len(msgs))
	}
}
