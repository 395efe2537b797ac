package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

const gaps24Init = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["TaskCreate","TaskUpdate"],"mcp_servers":[],"model":"m","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.332","uuid":"i1"}`

// statusParts returns the status parts of the completed status items.
func statusParts(evs []universal.Event) []universal.Part {
	var ps []universal.Part
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus && len(it.Content) == 1 {
			ps = append(ps, it.Content[0])
		}
	}
	return ps
}

// checkStatus checks the events of one line that should give one status
// item (label "": none), or with unparsed set one agent.unparsed.
func checkStatus(t *testing.T, evs []universal.Event, unparsed bool, label, detail, md string) {
	t.Helper()
	checkShape(t, evs)
	u := golden.OfType(evs, universal.TypeUnparsed)
	if unparsed {
		if len(u) != 1 {
			t.Errorf("%d agent.unparsed, want 1", len(u))
		}
		return
	}
	if len(u) != 0 {
		t.Fatalf("agent.unparsed: %v", u[0].Data)
	}
	ps := statusParts(evs)
	if label == "" {
		if len(ps) != 0 {
			t.Errorf("status parts %+v, want none", ps)
		}
		return
	}
	if len(ps) != 1 || ps[0].Label != label || ps[0].Detail != detail || string(ps[0].Metadata) != md {
		t.Errorf("status parts %+v, want %s %q %s", ps, label, detail, md)
	}
}

// TestGaps24SystemSubtypes: the system subtypes task_list_statuses
// {statuses: [{id, status}]} (the statuses of tasks Claude Code set
// itself, no TaskUpdate call showing the change) and session_metadata
// {metadata: {artifacts: [{url, title, favicon, kind, updated_at}] |
// null}} (the session's published artifacts), in the shapes of the
// CLI's stream-json schemas (@anthropic-ai/claude-code 2.1.332), were
// agent.unparsed. They are status items now; bad shapes stay
// agent.unparsed. So were the other subtypes of the same schemas:
// model_fallback and model_consent_fallback (the turn or the session
// moved to another model), memory_saved, agents_killed,
// scheduled_task_fire, permission_retry and late_allow_not_run, now
// status items labelled by their subtype (memory_saved and
// scheduled_task_fire also as a transcript writes them, with the CLI's
// own member names), and bridge_state (stream-json) and
// cloud_session_status (transcripts), which are not in the schemas but
// which the CLI writes as bridge_status; file_snapshot,
// shell_cwd, rewind_stand_in and the plugin pushes ui_notify,
// ui_notify_cancel and ui_placed are on the ignore list;
// inherited_asks_settled with no ask pending gives nothing (the asks it
// does not keep are withdrawn: TestInheritedAsksSettled).
func TestGaps24SystemSubtypes(t *testing.T) {
	for _, tc := range []struct {
		name, line        string
		label, detail, md string
		unparsed          bool
	}{
		{name: "task statuses",
			line:  `{"type":"system","subtype":"task_list_statuses","statuses":[{"id":"1","status":"completed"},{"id":"2","status":"in_progress"},{"id":"3","status":"pending"}],"uuid":"t1","session_id":"s1"}`,
			label: "task_list_statuses", detail: "[x] 1\n[~] 2\n[ ] 3",
			md: `{"statuses":[{"id":"1","status":"completed"},{"id":"2","status":"in_progress"},{"id":"3","status":"pending"}]}`},
		{name: "task statuses not an array", unparsed: true,
			line: `{"type":"system","subtype":"task_list_statuses","statuses":{"id":"1"},"uuid":"t1","session_id":"s1"}`},
		{name: "artifacts",
			line:  `{"type":"system","subtype":"session_metadata","metadata":{"artifacts":[{"url":"https://claude.ai/code/artifact/a1","title":"Hero Directions","kind":"frame","updated_at":"2026-11-24T10:00:00Z"},{"url":"https://claude.ai/code/artifact/a2","kind":"frame","updated_at":"2026-11-24T10:01:00Z"}]},"uuid":"m1","session_id":"s1"}`,
			label: "session_metadata", detail: "Hero Directions https://claude.ai/code/artifact/a1\nhttps://claude.ai/code/artifact/a2",
			md: `{"artifacts":[{"url":"https://claude.ai/code/artifact/a1","title":"Hero Directions","kind":"frame","updated_at":"2026-11-24T10:00:00Z"},{"url":"https://claude.ai/code/artifact/a2","kind":"frame","updated_at":"2026-11-24T10:01:00Z"}]}`},
		{name: "artifacts cleared",
			line:  `{"type":"system","subtype":"session_metadata","metadata":{"artifacts":null},"uuid":"m2","session_id":"s1"}`,
			label: "session_metadata", detail: "no artifacts", md: `{"artifacts":null}`},
		{name: "metadata not an object", unparsed: true,
			line: `{"type":"system","subtype":"session_metadata","metadata":[1],"uuid":"m3","session_id":"s1"}`},
		{name: "model fallback",
			line:  `{"type":"system","subtype":"model_fallback","trigger":"overloaded","original_model":"claude-opus-4-7","fallback_model":"claude-sonnet-4-6","content":"Opus is overloaded: this turn uses Sonnet","uuid":"f1","session_id":"s1"}`,
			label: "model_fallback", detail: "Opus is overloaded: this turn uses Sonnet",
			md: `{"trigger":"overloaded","original_model":"claude-opus-4-7","fallback_model":"claude-sonnet-4-6"}`},
		{name: "model consent fallback",
			line:  `{"type":"system","subtype":"model_consent_fallback","choice":"switch_default","original_model":"fable-5","original_model_name":"Fable 5","fallback_model":"claude-opus-4-7","persisted_as_default":true,"content":"Switched to Opus","uuid":"f2","session_id":"s1"}`,
			label: "model_consent_fallback", detail: "Switched to Opus",
			md: `{"choice":"switch_default","original_model":"fable-5","original_model_name":"Fable 5","fallback_model":"claude-opus-4-7","persisted_as_default":true}`},
		{name: "memory saved",
			line:  `{"type":"system","subtype":"memory_saved","written_paths":["/h/.claude/memory/a.md","/h/.claude/memory/b.md"],"team_count":1,"uuid":"ms1","session_id":"s1"}`,
			label: "memory_saved", detail: "Saved 2 memories",
			md: `{"written_paths":["/h/.claude/memory/a.md","/h/.claude/memory/b.md"],"team_count":1}`},
		{name: "memory saved, transcript",
			line:  `{"type":"system","subtype":"memory_saved","writtenPaths":["/h/.claude/memory/a.md"],"timestamp":"2026-11-29T10:00:00.000Z","uuid":"ms3","isMeta":false,"sessionId":"s1"}`,
			label: "memory_saved", detail: "Saved 1 memories", md: `{"written_paths":["/h/.claude/memory/a.md"]}`},
		{name: "scheduled task, transcript",
			line:  `{"type":"system","subtype":"scheduled_task_fire","content":"Running scheduled task","taskId":"t-1","cron":"0 9 * * *","prompt":"report","isMeta":false,"timestamp":"2026-11-29T10:00:00.000Z","uuid":"c2","sessionId":"s1"}`,
			label: "scheduled_task_fire", detail: "Running scheduled task", md: `{"taskId":"t-1","cron":"0 9 * * *","prompt":"report"}`},
		{name: "cloud session status",
			line:  `{"type":"system","subtype":"cloud_session_status","content":"Continuing in the cloud","entry":"shown","url":"https://claude.ai/code/session_1","level":"notice","isMeta":false,"timestamp":"2026-11-29T10:00:00.000Z","uuid":"cs1","sessionId":"s1"}`,
			label: "cloud_session", detail: "Continuing in the cloud", md: `{"url":"https://claude.ai/code/session_1","entry":"shown"}`},
		{name: "bridge state",
			line:  `{"type":"system","subtype":"bridge_state","state":"failed","detail":"login changed","failure_kind":"terminal","bridge_epoch":2,"uuid":"b1","session_id":"s1"}`,
			label: "remote_control", detail: "failed: login changed", md: `{"state":"failed","detail":"login changed","failure_kind":"terminal","bridge_epoch":2}`},
		{name: "rewind stand-in (ignored)",
			line: `{"type":"system","subtype":"rewind_stand_in","source_uuid":"u9","content":"","level":"info","timestamp":"2026-11-29T10:00:00.000Z","uuid":"rs1","sessionId":"s1"}`},
		{name: "memory saved without paths", unparsed: true,
			line: `{"type":"system","subtype":"memory_saved","uuid":"ms2","session_id":"s1"}`},
		{name: "agents killed",
			line:  `{"type":"system","subtype":"agents_killed","uuid":"k1","session_id":"s1"}`,
			label: "agents_killed", detail: "background agents stopped"},
		{name: "scheduled task",
			line:  `{"type":"system","subtype":"scheduled_task_fire","content":"Scheduled task fired: nightly report","uuid":"c1","session_id":"s1"}`,
			label: "scheduled_task_fire", detail: "Scheduled task fired: nightly report"},
		{name: "permission retry",
			line:  `{"type":"system","subtype":"permission_retry","content":"Retrying with npm test","commands":["npm test"],"uuid":"p1","session_id":"s1"}`,
			label: "permission_retry", detail: "Retrying with npm test", md: `{"commands":["npm test"]}`},
		{name: "late allow not run",
			line:  `{"type":"system","subtype":"late_allow_not_run","request_id":"req-1","tool_use_id":"toolu_9","reason":"expired","uuid":"l1","session_id":"s1"}`,
			label: "late_allow_not_run", detail: "expired", md: `{"request_id":"req-1","tool_use_id":"toolu_9","reason":"expired"}`},
		{name: "file snapshot (ignored)",
			line: `{"type":"system","subtype":"file_snapshot","content":"","snapshot_files":[{"key":"plan","path":"/w/plan.md","content":"x"}],"uuid":"fs1","session_id":"s1"}`},
		{name: "shell cwd (ignored)",
			line: `{"type":"system","subtype":"shell_cwd","cwd":"/w/sub","uuid":"sc1","session_id":"s1"}`},
		{name: "inherited asks (ignored)",
			line: `{"type":"system","subtype":"inherited_asks_settled","kept_request_ids":[],"uuid":"ia1","session_id":"s1"}`},
		{name: "ui notify (ignored)",
			line: `{"type":"system","subtype":"ui_notify","plugin":"p","source":"p@m","title":"t","text":"x","rewritten":false,"uuid":"un1","session_id":"s1"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatStreamJSON, nil, nil, gaps24Init, tc.line)
			checkStatus(t, evs, tc.unparsed, tc.label, tc.detail, tc.md)
		})
	}
}

// TestElicitationComplete: a URL-mode elicitation (SDKControlElicitationRequest
// {mode: url, url, elicitation_id}) is answered, when the host's answer
// is not on the wire (stream-json alone), by the MCP server's
// system/elicitation_complete {mcp_server_name, elicitation_id} (the
// CLI's schema: "Emitted when an MCP server confirms that a URL-mode
// elicitation is complete", 2.1.332). It was ignored and the question
// stayed pending; it now answers the question (response "complete"). A
// question the host answered first stays as answered; a completion of an
// elicitation never seen, or seen twice, resolves nothing.
func TestElicitationComplete(t *testing.T) {
	const (
		ask      = `{"type":"control_request","request_id":"r-url","request":{"subtype":"elicitation","mcp_server_name":"github","message":"Authorize GitHub","mode":"url","url":"https://github.com/login/oauth/authorize?x=1","elicitation_id":"el-7"}}`
		complete = `{"type":"system","subtype":"elicitation_complete","mcp_server_name":"github","elicitation_id":"el-7","uuid":"c1","session_id":"s1"}`
		other    = `{"type":"system","subtype":"elicitation_complete","mcp_server_name":"github","elicitation_id":"el-unknown","uuid":"c2","session_id":"s1"}`
		answer   = `in:{"type":"control_response","response":{"subtype":"success","request_id":"r-url","response":{"action":"accept"}}}`
	)
	for _, tc := range []struct {
		name   string
		format string
		lines  []string
		want   []string
	}{
		{"stream only", claude.FormatStreamJSON, []string{gaps24Init, ask, other, complete, complete},
			[]string{"question.requested r-url requested ", `question.resolved r-url answered complete {"action":"complete","elicitation_id":"el-7","server_name":"github"}`}},
		{"host answered first", claude.FormatExchange, []string{gaps24Init, ask, answer, complete},
			[]string{"question.requested r-url requested ", `question.resolved r-url answered  {"action":"accept"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, tc.format, nil, nil, tc.lines...)
			checkShape(t, evs)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("agent.unparsed: %v", u[0].Data)
			}
			var got []string
			for _, e := range evs {
				if e.Type != universal.TypeQuestionRequested && e.Type != universal.TypeQuestionResolved {
					continue
				}
				q := e.Data.(*universal.Question)
				s := string(e.Type) + " " + q.QuestionID + " " + string(q.Status) + " " + q.Response
				if e.Type == universal.TypeQuestionResolved {
					s += " " + gjson.ParseBytes(q.Metadata).Raw
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("questions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestRanByRows: the rows a tool's script ran, as Claude Code 2.1.332
// writes them into a transcript (the REPL tool's inner calls: a virtual
// assistant entry with the call's tool_use block and ranByToolUseId, the
// model's call the script ran under, and a virtual user entry with its
// result; hostContent, the blocks a host shows instead; for a call no
// host can show, hostHiddenToolUseIds on the assistant entry, which the
// Agent SDK 0.3.332's session reader then leaves out). ranByToolUseId,
// hostContent and hostHiddenToolUseIds were not read: the script's calls
// were shown as calls of a response of the model's own with nothing to
// say which call ran them. They are kept in the parts' metadata:
// ran_by_tool_use_id on the script's calls, host_content on the call and
// result a hostContent block shows, host_hidden on a hidden call. The
// items stay where a message's calls and results go (a call a script ran
// under is no task, whose items alone go under a call).
func TestRanByRows(t *testing.T) {
	const env = `"sessionId":"s5","version":"2.1.332","cwd":"/w"`
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"Read a."},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z",`+env+`}`,
		`{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_R","name":"REPL","input":{"code":"await Read({file_path: 'a'}); await Bash({command: 'wc a'})"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a1","timestamp":"2026-11-29T10:00:01.000Z",`+env+`}`,
		`{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_R","content":"script done"}]},"uuid":"u2","timestamp":"2026-11-29T10:00:04.000Z",`+env+`}`,
		`{"parentUuid":"u2","isSidechain":false,"type":"assistant","isVirtual":true,"ranByToolUseId":"toolu_R","hostContent":[{"type":"tool_use","id":"toolu_i1","name":"mcp__host__open","input":{"path":"a"}}],"message":{"id":"v-m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_i1","name":"Read","input":{"file_path":"/w/a"}}]},"uuid":"v1","timestamp":"2026-11-29T10:00:02.000Z",`+env+`}`,
		`{"parentUuid":"v1","isSidechain":false,"type":"user","isVirtual":true,"hostContent":[{"type":"tool_result","tool_use_id":"toolu_i1","content":"opened a"}],"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_i1","content":"1\tfile a"}]},"uuid":"v2","timestamp":"2026-11-29T10:00:02.500Z",`+env+`}`,
		`{"parentUuid":"v2","isSidechain":false,"type":"assistant","isVirtual":true,"hostHiddenToolUseIds":["toolu_i2"],"message":{"id":"v-m2","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_i2","name":"Bash","input":{"command":"wc a"}}]},"uuid":"v3","timestamp":"2026-11-29T10:00:03.000Z",`+env+`}`,
		`{"parentUuid":"v3","isSidechain":false,"type":"user","isVirtual":true,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_i2","content":"1 a"}]},"uuid":"v4","timestamp":"2026-11-29T10:00:03.500Z",`+env+`}`,
		`{"parentUuid":"v4","isSidechain":false,"type":"assistant","message":{"id":"m2","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"a has one line."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a2","timestamp":"2026-11-29T10:00:05.000Z",`+env+`}`)
	checkShape(t, evs)
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed: %+v", e.Data)
	}
	calls := map[string]universal.Item{}
	for _, it := range completed(evs, universal.KindToolCall, "") {
		calls[it.Content[0].CallID] = it
	}
	results := map[string]universal.Item{}
	for _, it := range completed(evs, universal.KindToolResult, "") {
		results[it.Content[0].CallID] = it
	}
	repl, inner, hidden := calls["toolu_R"], calls["toolu_i1"], calls["toolu_i2"]
	if inner.ParentID == "" || gjson.GetBytes(inner.Content[0].Metadata, "ran_by_tool_use_id").Str != "toolu_R" ||
		gjson.GetBytes(inner.Content[0].Metadata, "host_content.0.name").Str != "mcp__host__open" {
		t.Errorf("the script's call %+v (metadata %s), want ran_by_tool_use_id and host_content", inner, inner.Content[0].Metadata)
	}
	if r := results["toolu_i1"]; r.ParentID != inner.ParentID || r.Content[0].Output != "1\tfile a" ||
		gjson.GetBytes(r.Content[0].Metadata, "host_content.0.content").Str != "opened a" {
		t.Errorf("the script's result %+v (metadata %s), want it beside its call with host_content", r, r.Content[0].Metadata)
	}
	if !gjson.GetBytes(hidden.Content[0].Metadata, "host_hidden").Bool() {
		t.Errorf("hidden call's metadata %s, want host_hidden", hidden.Content[0].Metadata)
	}
	if gjson.GetBytes(repl.Content[0].Metadata, "host_hidden").Exists() {
		t.Errorf("the REPL call's metadata %s", repl.Content[0].Metadata)
	}
}

// TestToolHostResult: system/tool_host_result {tool_use_id, host: {name,
// working_dir}, disposition, label, unverified, lines} (2.1.332: the
// CLI's note that a call ran on a tool host, which stream-json prints
// after the call's result; the CLI's sdk output converter builds it from
// a tool_host_result_lines attachment) was agent.unparsed. It is a status
// item under the call.
func TestToolHostResult(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil, gaps24Init,
		`{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"make"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":2}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a1"}`,
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"built"}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"r1"}`,
		`{"type":"system","subtype":"tool_host_result","tool_use_id":"toolu_1","host":{"name":"build-box","working_dir":"/src"},"label":"Ran on build-box","lines":["Ran on build-box in /src"],"uuid":"h1","session_id":"s1"}`,
		`{"type":"system","subtype":"tool_host_result","host":{"name":"x"},"lines":[],"uuid":"h2","session_id":"s1"}`)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 1 {
		t.Errorf("%d agent.unparsed, want the one without a tool_use_id", len(u))
	}
	call := ""
	for _, it := range completed(evs, universal.KindToolCall, "") {
		call = it.ItemID
	}
	st := completed(evs, universal.KindStatus, "")
	if len(st) != 1 || st[0].ParentID != call || st[0].Content[0].Label != "tool_host_result" ||
		st[0].Content[0].Detail != "Ran on build-box in /src" || gjson.GetBytes(st[0].Content[0].Metadata, "host.working_dir").Str != "/src" {
		t.Errorf("status items %+v, want one under the call %s", st, call)
	}
}

// TestTranscriptRecords332: the session records Claude Code 2.1.332
// writes into a transcript beside the conversation (its native binary:
// api-request-resumed {messageId, pausedRequestId, resumedRequestId},
// dev-mods {folder}, repl-mode {replMode, typedEvents}, resume-head-vouch
// {sum}) were agent.unparsed. They are on the ignore list: bookkeeping,
// no conversation.
func TestTranscriptRecords332(t *testing.T) {
	const env = `"sessionId":"s6","version":"2.1.332","cwd":"/w"`
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z",`+env+`}`,
		`{"type":"api-request-resumed","sessionId":"s6","timestamp":"2026-11-29T10:00:01.000Z","version":1,"messageId":"m1","pausedRequestId":"req_1","resumedRequestId":"req_2"}`,
		`{"type":"dev-mods","folder":"/w/.claude/mods","sessionId":"s6"}`,
		`{"type":"repl-mode","replMode":"on","typedEvents":true,"sessionId":"s6"}`,
		`{"type":"resume-head-vouch","sessionId":"s6","sum":"3f2a"}`)
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed: %+v", e.Data)
	}
	if n := len(completed(evs, universal.KindStatus, "")); n != 0 {
		t.Errorf("%d status items, want none", n)
	}
}

// TestToolHostLinesTranscript: a transcript keeps what stream-json prints
// as tool_host_result as the attachment it is made from,
// tool_host_result_lines {toolUseID, host, workingDir, disposition,
// label, unverified, lines} (2.1.332), which was ignored with the other
// attachments: the session read at rest lost where the call ran. It is
// the same status item under the call.
func TestToolHostLinesTranscript(t *testing.T) {
	const env = `"sessionId":"s7","version":"2.1.332","cwd":"/w"`
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"Build it."},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z",`+env+`}`,
		`{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"make"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":2}},"uuid":"a1","timestamp":"2026-11-29T10:00:01.000Z",`+env+`}`,
		`{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"built"}]},"uuid":"u2","timestamp":"2026-11-29T10:00:02.000Z",`+env+`}`,
		`{"parentUuid":"u2","isSidechain":false,"type":"attachment","attachment":{"type":"tool_host_result_lines","toolUseID":"toolu_1","host":"build-box","workingDir":"/src","lines":["Ran on build-box in /src"],"label":"Ran on build-box"},"uuid":"t1","timestamp":"2026-11-29T10:00:02.100Z",`+env+`}`)
	checkShape(t, evs)
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed: %+v", e.Data)
	}
	call := ""
	for _, it := range completed(evs, universal.KindToolCall, "") {
		call = it.ItemID
	}
	st := completed(evs, universal.KindStatus, "")
	if len(st) != 1 || st[0].ParentID != call || st[0].Content[0].Label != "tool_host_result" ||
		st[0].Content[0].Detail != "Ran on build-box in /src" ||
		string(st[0].Content[0].Metadata) != `{"host":{"name":"build-box","working_dir":"/src"},"label":"Ran on build-box","lines":["Ran on build-box in /src"]}` {
		t.Errorf("status items %+v, want one under the call %s", st, call)
	}
}

// TestFallbackTranscriptFields: a transcript's model_fallback,
// model_consent_fallback and model_refusal_fallback entries are the CLI's
// own system messages, whose members are camelCase (originalModel,
// fallbackModel, apiRefusalCategory, retractedMessageUuids, …: the
// converters of Claude Code 2.1.332 between its messages and
// stream-json's); only the snake_case names of stream-json were read, so
// at rest the models and the refusal's category were lost. They are
// read under either spelling and kept under stream-json's.
func TestFallbackTranscriptFields(t *testing.T) {
	for _, tc := range []struct {
		line, md string
	}{
		{`{"type":"system","subtype":"model_fallback","content":"Opus is overloaded","level":"warning","trigger":"overloaded","originalModel":"claude-opus-4-7","fallbackModel":"claude-sonnet-4-6","isMeta":false,"uuid":"f1","timestamp":"2026-11-29T10:00:00.000Z","sessionId":"s1"}`,
			`{"trigger":"overloaded","original_model":"claude-opus-4-7","fallback_model":"claude-sonnet-4-6"}`},
		{`{"type":"system","subtype":"model_consent_fallback","content":"Switched to Opus","level":"warning","choice":"cancelled","originalModel":"fable-5","originalModelName":"Fable 5","fallbackModel":"claude-opus-4-7","persistedAsDefault":false,"isMeta":false,"uuid":"f2","timestamp":"2026-11-29T10:00:00.000Z","sessionId":"s1"}`,
			`{"choice":"cancelled","original_model":"fable-5","original_model_name":"Fable 5","fallback_model":"claude-opus-4-7","persisted_as_default":false}`},
		{`{"type":"system","subtype":"model_refusal_fallback","content":"Retried on Sonnet","level":"warning","trigger":"refusal","originalModel":"claude-opus-4-7","fallbackModel":"claude-sonnet-4-6","apiRefusalCategory":"cyber","retractedMessageUuids":["a1"],"isMeta":false,"uuid":"f3","timestamp":"2026-11-29T10:00:00.000Z","sessionId":"s1"}`,
			`{"original_model":"claude-opus-4-7","fallback_model":"claude-sonnet-4-6","api_refusal_category":"cyber","retracted_message_uuids":["a1"]}`},
	} {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, gaps24Init, tc.line)
		ps := statusParts(evs)
		if len(ps) != 1 || string(ps[0].Metadata) != tc.md {
			t.Errorf("%.60s: status parts %+v, want metadata %s", tc.line, ps, tc.md)
		}
	}
}
