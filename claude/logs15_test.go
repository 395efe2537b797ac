package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// resident2283 is stdout of a resident `claude --print --input-format
// stream-json --output-format stream-json` process of Claude Code 2.1.283
// (2026-09-26) as a public project's probe notes record it ("E9", the
// control protocol inventory; found by content search, the index does not
// name the repository): the task_started line is quoted verbatim (the
// session id shortened), the command_lifecycle lines in the fields the
// notes list for them (state, command_uuid; Claude Code writes
// {type: command_lifecycle, command_uuid, state, session_id, uuid}, as
// other projects' tests and SDK notes write them: "queued|started|
// completed|cancelled|discarded"), the init, user echo, assistant and
// result lines shortened to what the sequence the notes give needs. A
// resident process acknowledges each prompt it takes from stdin before
// anything else, so its output starts with command_lifecycle lines.
var resident2283 = []string{
	`{"type":"command_lifecycle","command_uuid":"2bf94cb6-1b2f-4a0e-9e55-4c2e4f1d3a01","state":"queued","uuid":"c0000000-0000-4000-8000-000000000001","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"command_lifecycle","command_uuid":"2bf94cb6-1b2f-4a0e-9e55-4c2e4f1d3a01","state":"started","uuid":"c0000000-0000-4000-8000-000000000002","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"system","subtype":"init","cwd":"/tmp/resident-e9c","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc","tools":["Task","Bash","Workflow"],"model":"claude-haiku-4-5","permissionMode":"bypassPermissions","claude_code_version":"2.1.283","uuid":"c0000000-0000-4000-8000-000000000003"}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"E9-BUSY-BASH"}]},"session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc","parent_tool_use_id":null,"uuid":"2bf94cb6-1b2f-4a0e-9e55-4c2e4f1d3a01","timestamp":"2026-09-26T00:40:22.600Z","isReplay":true}`,
	`{"type":"assistant","message":{"id":"msg_e9_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"tool_use","id":"toolu_e9_fg","name":"Bash","input":{"command":"sleep 5; echo fg-done"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}},"parent_tool_use_id":null,"session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc","uuid":"c0000000-0000-4000-8000-000000000004"}`,
	`{"type":"system","subtype":"task_started","task_id":"b2k6xdn8u","tool_use_id":"toolu_e9_fg","description":"sleep 5; echo fg-done","is_backgrounded":false,"task_type":"local_bash","uuid":"60adf10f-6bc1-4799-8672-bd8d0d8a2ff7","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"system","subtype":"task_notification","task_id":"b2k6xdn8u","tool_use_id":"toolu_e9_fg","status":"completed","output_file":"","summary":"sleep 5; echo fg-done","uuid":"40e4d246-c26d-460d-8d3f-27f3bf20b698","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_e9_fg","type":"tool_result","content":"fg-done","is_error":false}]},"parent_tool_use_id":null,"session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc","uuid":"c0000000-0000-4000-8000-000000000005"}`,
	`{"type":"assistant","message":{"id":"msg_e9_2","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"fg-done"}],"stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":3}},"parent_tool_use_id":null,"session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc","uuid":"c0000000-0000-4000-8000-000000000006"}`,
	`{"type":"system","subtype":"session_title_changed","title":"Run a foreground sleep","source":"ai","revision":1,"uuid":"c0000000-0000-4000-8000-000000000007","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"system","subtype":"post_turn_summary","summarizes_uuid":"c0000000-0000-4000-8000-000000000006","status_category":"completed","status_detail":"Ran the command; it printed fg-done","is_noteworthy":false,"title":"Foreground sleep","description":"","recent_action":"Ran sleep 5","needs_action":"","artifact_urls":[],"uuid":"c0000000-0000-4000-8000-000000000008","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"result","subtype":"success","is_error":false,"duration_ms":7000,"num_turns":2,"result":"fg-done","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc","total_cost_usd":0.0004,"usage":{"input_tokens":22,"output_tokens":8},"uuid":"c0000000-0000-4000-8000-000000000009"}`,
	`{"type":"command_lifecycle","command_uuid":"2bf94cb6-1b2f-4a0e-9e55-4c2e4f1d3a01","state":"completed","uuid":"c0000000-0000-4000-8000-00000000000a","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"command_lifecycle","command_uuid":"c972d202-0000-4000-8000-000000000000","state":"cancelled","uuid":"c0000000-0000-4000-8000-00000000000b","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"system","subtype":"session_title_changed","title":"Sleep probe","source":"custom","revision":2,"uuid":"c0000000-0000-4000-8000-00000000000c","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	`{"type":"system","subtype":"session_title_changed","title":"Run a foreground sleep, again","source":"ai","revision":3,"uuid":"c0000000-0000-4000-8000-00000000000d","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
}

// TestResidentStreamExtensions: the stream-json lines Claude Code 2.1.28x
// writes beside the Agent SDK's message union: command_lifecycle (the
// state of a prompt queued on stdin), system/session_title_changed
// ({title, source: ai | custom, revision}: the title a transcript's
// ai-title and custom-title entries give; CLI 2.1.288 emits it, a public
// project's test notes), system/post_turn_summary (the SDK's
// SDKPostTurnSummaryMessage, a digest for a host's agent list) and
// task_summary. Each was agent.unparsed, the title lost, and an output
// that starts with command_lifecycle, as a resident process's does, was
// not detected at all.
func TestResidentStreamExtensions(t *testing.T) {
	if f := claude.Detect([]byte(strings.Join(resident2283[:3], "\n") + "\n")); f != claude.FormatStreamJSON {
		t.Errorf("Detect = %q, want %q", f, claude.FormatStreamJSON)
	}
	evs := feed(t, claude.FormatStreamJSON, nil, nil, resident2283...)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	var titles []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus && it.Content[0].Label == universal.LabelTitle {
			titles = append(titles, it.Content[0].Detail+" "+string(it.Content[0].Metadata))
		}
	}
	// The user's title stands against a later generated one.
	want := []string{`Run a foreground sleep {"source":"agent"}`, `Sleep probe {"source":"user"}`}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Errorf("titles %q, want %q", titles, want)
	}

	// The host's side: requests of the SDK's SDKControlRequestInner the
	// exchange reader did not know (cancel_async_message {message_uuid};
	// side_question, which the same 2.1.283 probe sent) were
	// agent.unparsed.
	evs = feed(t, claude.FormatExchange, nil, nil,
		`in:{"type":"control_request","request_id":"cancel:c972d202","request":{"subtype":"cancel_async_message","message_uuid":"c972d202-0000-4000-8000-000000000000"}}`,
		`in:{"type":"control_request","request_id":"9dcd2b33-2683-43ac-ad5a-0c6f738cc0eb","request":{"subtype":"side_question","question":"which file?","history":[]}}`,
		`in:{"type":"control_request","request_id":"r3","request":{"subtype":"rename_session","title":"Sleep probe","source":"host"}}`,
		resident2283[2],
		`{"type":"control_response","response":{"subtype":"success","request_id":"cancel:c972d202","response":{"cancelled":true}}}`,
		`{"type":"system","subtype":"control_request_progress","request_id":"9dcd2b33-2683-43ac-ad5a-0c6f738cc0eb","status":"started","uuid":"20be6910-a892-4360-b696-c74bde70f48b","session_id":"0ad55807-b62b-476d-a321-a13ed744e7dc"}`,
	)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("exchange: agent.unparsed: %v", u)
	}
}

// TestMCPElicitationQuestion: an MCP server's elicitation (its tool asks
// the user for input) reaches an SDK host as the CLI's control_request
// {subtype: elicitation, mcp_server_name, message, mode, requested_schema}
// (SDKControlElicitationRequest of the Agent SDK's sdk.d.ts); the host
// answers with an ElicitResult {action, content}. The request below is the
// one the same 2.1.283 probe quotes verbatim (resident2283); the rest of
// the exchange is written in the shapes it describes (the tool
// mcp__e9eliciting__ask_host, an accepted answer; a second elicitation the
// host declines, a third the CLI withdraws). The question and its answer
// were dropped as plumbing; they are now a question, as codex's
// mcpServer/elicitation/request is.
func TestMCPElicitationQuestion(t *testing.T) {
	const sid = "19886bf4-f939-40ca-ac10-3776df68e580"
	ask := func(id, msg string) string {
		return `{"type":"control_request","request_id":"` + id + `","request":{"subtype":"elicitation","mcp_server_name":"e9eliciting","message":"` + msg + `","mode":"form","requested_schema":{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}}}`
	}
	evs := feed(t, claude.FormatExchange, nil, nil,
		`in:{"type":"user","message":{"role":"user","content":"ask the host"},"uuid":"u-1"}`,
		`{"type":"system","subtype":"init","cwd":"/tmp/x","session_id":"`+sid+`","tools":["mcp__e9eliciting__ask_host"],"model":"claude-haiku-4-5","permissionMode":"bypassPermissions","claude_code_version":"2.1.283","uuid":"i1"}`,
		`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"mcp__e9eliciting__ask_host","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"`+sid+`","uuid":"a1"}`,
		`{"type":"control_request","request_id":"97bacb9a-7e8f-4515-87f7-8126bfc05422","request":{"subtype":"elicitation","mcp_server_name":"e9eliciting","message":"E9 请人回答","mode":"form","requested_schema":{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}}}`,
		`in:{"type":"control_response","response":{"subtype":"success","request_id":"97bacb9a-7e8f-4515-87f7-8126bfc05422","response":{"action":"accept","content":{"answer":"42"}}}}`,
		ask("e2", "Which branch?"),
		`in:{"type":"control_response","response":{"subtype":"success","request_id":"e2","response":{"action":"decline"}}}`,
		ask("e3", "Still there?"),
		`{"type":"control_cancel_request","request_id":"e3"}`,
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"answer: 42"}]},"parent_tool_use_id":null,"session_id":"`+sid+`","uuid":"r1"}`,
		`{"type":"assistant","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"The host said 42."}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"`+sid+`","uuid":"a2"}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":2,"result":"The host said 42.","session_id":"`+sid+`","total_cost_usd":0.001,"usage":{"input_tokens":6,"output_tokens":2},"uuid":"res1"}`,
		// An answer to an elicitation already answered answers nothing.
		`in:{"type":"control_response","response":{"subtype":"success","request_id":"e2","response":{"action":"accept","content":{"answer":"main"}}}}`,
	)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 1 {
		t.Errorf("agent.unparsed %v, want the repeated answer's", u)
	}
	var got []string
	for _, e := range evs {
		if e.Type != universal.TypeQuestionRequested && e.Type != universal.TypeQuestionResolved {
			continue
		}
		q := e.Data.(*universal.Question)
		got = append(got, string(e.Type)+" "+q.QuestionID+" "+q.Prompt+" "+string(q.Status)+" "+q.Response)
	}
	want := []string{
		"question.requested 97bacb9a-7e8f-4515-87f7-8126bfc05422 E9 请人回答 requested ",
		`question.resolved 97bacb9a-7e8f-4515-87f7-8126bfc05422  answered {"answer":"42"}`,
		"question.requested e2 Which branch? requested ",
		"question.resolved e2  rejected ",
		"question.requested e3 Still there? requested ",
		"question.resolved e3  rejected ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("questions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestElicitationAnsweredTwice: a host that reports its answer
// (Report) and whose answer is then read on the wire (an exchange), or
// a cancel that crosses the answer, resolves the question once.
func TestElicitationAnsweredTwice(t *testing.T) {
	const sid = "19886bf4-f939-40ca-ac10-3776df68e580"
	for _, second := range []string{
		`in:{"type":"control_response","response":{"subtype":"success","request_id":"e2","response":{"action":"accept","content":{"answer":"main"}}}}`,
		`{"type":"control_cancel_request","request_id":"e2"}`,
	} {
		tr, err := claude.New(claude.FormatExchange, golden.Options())
		if err != nil {
			t.Fatal(err)
		}
		var evs []universal.Event
		for i, l := range []string{
			`{"type":"system","subtype":"init","cwd":"/tmp/x","session_id":"` + sid + `","tools":[],"model":"claude-haiku-4-5","permissionMode":"default","claude_code_version":"2.1.283","uuid":"i1"}`,
			`{"type":"control_request","request_id":"e2","request":{"subtype":"elicitation","mcp_server_name":"s","message":"Which branch?","mode":"form"}}`,
			"report",
			second,
		} {
			if l == "report" {
				evs = tr.Report(evs, universal.QuestionReply{QuestionID: "e2", Response: "main"})
				continue
			}
			m := universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1}
			if d, ok := strings.CutPrefix(l, "in:"); ok {
				m.Dir, m.Data = universal.In, []byte(d)
			}
			evs = tr.Translate(evs, m)
		}
		evs = tr.Report(evs, universal.EndOfInput{})
		if err := universal.CheckStream(evs); err != nil {
			t.Fatal(err)
		}
		if r, d := len(golden.OfType(evs, universal.TypeQuestionRequested)), len(golden.OfType(evs, universal.TypeQuestionResolved)); r != 1 || d != 1 {
			t.Errorf("after %.40s: %d question.requested, %d question.resolved, want 1 and 1", second, r, d)
		}
	}
}

// TestTranscriptContextCollapse: transcript entries of Claude Code
// 2.1.1xx and later that other parsers list from its own entry table
// ("marble-origami-commit", "marble-origami-snapshot",
// "marble-origami-reset", "speculation-accept": "always" written, as a
// public analysis of the 2.1.145–2.1.181 bundles quotes it) and a Workflow
// journal's failed agent ({"type":"failed","key","agentId"}, beside the
// started and result records already ignored) were agent.unparsed. A
// context-collapse commit ({collapseId, summaryUuid, summaryContent,
// summary, firstArchivedUuid, lastArchivedUuid}, in the shape public
// parsers' tests write it) takes a span of the conversation out of the
// model's context and leaves its summary, as a compaction does: it is now
// a compaction status item (detail "collapse", the commit in metadata);
// the others are bookkeeping.
func TestTranscriptContextCollapse(t *testing.T) {
	l := func(s string) string { return transcriptLine("2.1.181", s) }
	evs := feed(t, claude.FormatTranscript, nil, nil,
		l(`{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"look at the logs"}}`),
		l(`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"The logs show a timeout."}]}}`),
		l(`{"type":"speculation-accept","timestamp":"2026-06-01T10:00:00Z","timeSavedMs":1200}`),
		l(`{"type":"marble-origami-snapshot","staged":[{"startUuid":"u1","endUuid":"a1","summary":"log review","risk":0.3,"stagedAt":1780300000000}],"armed":true,"lastSpawnTokens":900}`),
		l(`{"type":"marble-origami-commit","collapseId":"0000000000000001","summaryUuid":"sum1","summaryContent":"<collapsed id=\"1\">The user asked about the logs; they show a timeout.</collapsed>","summary":"The user asked about the logs; they show a timeout.","firstArchivedUuid":"u1","lastArchivedUuid":"a1"}`),
		l(`{"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":"raise the timeout"}}`),
		l(`{"type":"assistant","uuid":"a2","parentUuid":"u2","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Done."}]}}`),
		l(`{"type":"marble-origami-reset"}`),
		`{"type":"failed","key":"v2:93c42e77","agentId":"abb816eec3dfef829"}`,
	)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus {
			got = append(got, it.Content[0].Label+" "+it.Content[0].Detail+" "+string(it.Content[0].Metadata))
		}
	}
	want := `compaction collapse {"collapse_id":"0000000000000001","summary":"The user asked about the logs; they show a timeout.","summary_content":"<collapsed id=\"1\">The user asked about the logs; they show a timeout.</collapsed>","summary_uuid":"sum1","first_archived_uuid":"u1","last_archived_uuid":"a1"}`
	if len(got) != 1 || got[0] != want {
		t.Errorf("status items %q, want [%q]", got, want)
	}
}

// TestDeferredToolUse: a PreToolUse hook that answers permissionDecision
// "defer" parks the call: the result has stop_reason and terminal_reason
// tool_deferred, an empty result and deferred_tool_use {id, name, input}
// (the shape a public project's notes quote verbatim from 2.1.263, the
// input shortened there; a 2.1.271 smoke of the same round trip, a
// deferred AskUserQuestion resumed with `--resume` and answered by the
// hook the second time, shows the same tool_use_id's result in the
// resumed process). The call read as a completed call without a result,
// nothing waiting; it is now a permission requested for it, which the
// resumed process's successful result approves (inferred, as any request
// the input shows no answer to). A deferred AskUserQuestion is a question
// waiting already: no permission.
func TestDeferredToolUse(t *testing.T) {
	const sid = "2a0f7c1e-5b0e-4d7a-9a52-7c1f0e3b9d11"
	initLine := `{"type":"system","subtype":"init","cwd":"/tmp/x","session_id":"` + sid + `","tools":["Write","AskUserQuestion"],"model":"claude-haiku-4-5","permissionMode":"default","claude_code_version":"2.1.263","uuid":"i1"}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		initLine,
		`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"tool_use","id":"toolu_01Def","name":"Write","input":{"file_path":"/tmp/x/a.txt","content":"hi"}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"`+sid+`","uuid":"a1"}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"","stop_reason":"tool_deferred","terminal_reason":"tool_deferred","session_id":"`+sid+`","total_cost_usd":0.001,"usage":{"input_tokens":3,"output_tokens":1},"permission_denials":[],"deferred_tool_use":{"id":"toolu_01Def","name":"Write","input":{"file_path":"/tmp/x/a.txt","content":"hi"}},"uuid":"r1"}`,
		initLine,
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01Def","type":"tool_result","content":"File created successfully at: /tmp/x/a.txt"}]},"parent_tool_use_id":null,"session_id":"`+sid+`","uuid":"r2"}`,
		`{"type":"assistant","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"tool_use","id":"toolu_01Ask","name":"AskUserQuestion","input":{"questions":[{"question":"Which colour should the banner be?","header":"Colour","options":[{"label":"Red","description":"warm"},{"label":"Blue","description":"cool"}],"multiSelect":false}]}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"`+sid+`","uuid":"a2"}`,
		`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"","stop_reason":"tool_deferred","terminal_reason":"tool_deferred","session_id":"`+sid+`","total_cost_usd":0.002,"usage":{"input_tokens":3,"output_tokens":1},"permission_denials":[],"deferred_tool_use":{"id":"toolu_01Ask","name":"AskUserQuestion"},"uuid":"r3"}`,
	)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	var got []string
	for _, e := range evs {
		if e.Type == universal.TypePermissionRequested || e.Type == universal.TypePermissionResolved {
			p := e.Data.(*universal.Permission)
			got = append(got, string(e.Type)+" "+p.CallID+" "+string(p.Status)+" "+string(p.Metadata))
		}
	}
	want := []string{
		`permission.requested toolu_01Def requested {"source":"result.deferred_tool_use","decision_reason_type":"hook","input":{"file_path":"/tmp/x/a.txt","content":"hi"}}`,
		`permission.resolved toolu_01Def approved {"source":"tool_result","inferred":true}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("permissions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
