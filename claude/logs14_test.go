package claude_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// resultParts returns the tool_result parts of the completed tool_result
// items, by call id.
func resultParts(evs []universal.Event) map[string]universal.Part {
	out := map[string]universal.Part{}
	for _, it := range completed(evs, universal.KindToolResult, "") {
		for _, p := range it.Content {
			if p.Type == universal.PartToolResult {
				out[p.CallID] = p
			}
		}
	}
	return out
}

// resultStatus returns the status of the completed tool_result item of a
// call.
func resultStatus(evs []universal.Event, call string) universal.ItemStatus {
	for _, it := range completed(evs, universal.KindToolResult, "") {
		for _, p := range it.Content {
			if p.Type == universal.PartToolResult && p.CallID == call {
				return it.Status
			}
		}
	}
	return ""
}

// teamLines is an agent team's clean-up in stream-json (Claude Code of
// early 2026, claude-opus-4-6, the Teammate tool), as a public project's
// notes on the agent-team schema quote its lines ("Agent Teams (Claude
// Code Stream JSON)", found by content search; the index does not name
// the repository, so only the shape is used: the tool_use lines get the
// result lines' ids, the init line is ours): a cleanup refused while two
// teammates were active, whose result says so only in its structured
// result ({success: false, message}, no is_error), then the cleanup that
// worked.
var teamLines = []string{
	`{"type":"system","subtype":"init","session_id":"s1","model":"claude-opus-4-6","tools":["Teammate","SendMessage","Task"],"claude_code_version":"2.1.34"}`,
	`{"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_01TNzA2Stp38wHgy3LGbeWzU","name":"Teammate","input":{"operation":"cleanup"}}]},"session_id":"s1"}`,
	`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01TNzA2Stp38wHgy3LGbeWzU","type":"tool_result","content":"Cleanup failed."}]},"tool_use_result":{"success":false,"message":"Cannot cleanup team with 2 active member(s): swift-expert, rust-expert. Use requestShutdown to gracefully terminate teammates first.","team_name":"codebase-gap-analysis"},"session_id":"s1"}`,
	`{"type":"assistant","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_01GpXR7TktP2J5vxdP7Ym5ck","name":"Teammate","input":{"operation":"cleanup"}}]},"session_id":"s1"}`,
	`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01GpXR7TktP2J5vxdP7Ym5ck","type":"tool_result","content":"Cleanup complete."}]},"tool_use_result":{"success":true,"message":"Cleaned up directories and worktrees for team \"codebase-gap-analysis\"","team_name":"codebase-gap-analysis"},"session_id":"s1"}`,
	`{"type":"result","subtype":"success","is_error":false,"num_turns":2,"result":"Team cleaned up.","session_id":"s1"}`,
}

// TestStructuredSuccessFalse: a tool whose structured result is
// {success: false, …} failed, though its block has no is_error: the
// agent-team tools (Teammate and TeamDelete cleanup refused while
// teammates run, SendMessage not delivered), TaskUpdate of an unknown
// task, a Skill that did not load. Such results were shown as succeeded.
// The same in a transcript (toolUseResult); success true, a structured
// result without success, and an MCP tool's data change nothing.
func TestStructuredSuccessFalse(t *testing.T) {
	const failed, worked = "toolu_01TNzA2Stp38wHgy3LGbeWzU", "toolu_01GpXR7TktP2J5vxdP7Ym5ck"
	evs := feed(t, claude.FormatStreamJSON, nil, nil, teamLines...)
	checkShape(t, evs)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	parts := resultParts(evs)
	if p := parts[failed]; !p.IsError || p.Output != "Cleanup failed." || resultStatus(evs, failed) != universal.StatusFailed {
		t.Errorf("refused cleanup: %+v, status %s; want a failed result", p, resultStatus(evs, failed))
	}
	if p := parts[worked]; p.IsError || resultStatus(evs, worked) != universal.StatusCompleted {
		t.Errorf("cleanup: %+v, status %s; want a completed result", p, resultStatus(evs, worked))
	}

	// A transcript's TaskUpdate of a task that does not exist (2.1.2xx:
	// {success: false, taskId, error}, no is_error).
	l := func(s string) string { return transcriptLine("2.1.220", s) }
	tr := []string{
		l(`{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"close task 9"}}`),
		l(`{"type":"assistant","uuid":"u2","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TaskUpdate","input":{"taskId":"9","status":"completed"}}]}}`),
		l(`{"type":"user","uuid":"u3","parentUuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"Task not found"}]},"toolUseResult":{"success":false,"taskId":"9","updatedFields":[],"error":"Task not found"}}`),
		l(`{"type":"assistant","uuid":"u4","parentUuid":"u3","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Skill","input":{"skill":"review"}}]}}`),
		l(`{"type":"user","uuid":"u5","parentUuid":"u4","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"Launching skill: review"}]},"toolUseResult":{"success":true,"commandName":"review"}}`),
		l(`{"type":"assistant","uuid":"u6","parentUuid":"u5","message":{"id":"m3","role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Read","input":{"file_path":"/a"}}]}}`),
		l(`{"type":"user","uuid":"u7","parentUuid":"u6","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"1\tx"}]},"toolUseResult":{"type":"text","file":{"filePath":"/a","content":"x","numLines":1,"startLine":1,"totalLines":1}}}`),
	}
	// An MCP server's data that says success false is no failure of the
	// tool (the server's isError is the block's is_error).
	tr = append(tr,
		l(`{"type":"assistant","uuid":"u8","parentUuid":"u7","message":{"id":"m4","role":"assistant","content":[{"type":"tool_use","id":"t4","name":"mcp__jobs__lookup","input":{"id":"7"}}]}}`),
		l(`{"type":"user","uuid":"u9","parentUuid":"u8","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t4","content":"{\"success\":false,\"reason\":\"no such job\"}"}]},"toolUseResult":{"success":false,"reason":"no such job"}}`))
	// A result whose call is not in the input (a file read from the
	// middle): it may be an MCP server's, so it stands.
	tr = append(tr,
		l(`{"type":"user","uuid":"u10","parentUuid":"u9","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t5","content":"{\"success\":false}"}]},"toolUseResult":{"success":false}}`))
	evs = feed(t, claude.FormatTranscript, nil, nil, tr...)
	for call, want := range map[string]universal.ItemStatus{"t1": universal.StatusFailed, "t2": universal.StatusCompleted, "t3": universal.StatusCompleted, "t4": universal.StatusCompleted, "t5": universal.StatusCompleted} {
		if got := resultStatus(evs, call); got != want {
			t.Errorf("transcript: %s result %s, want %s", call, got, want)
		}
	}
}

// resultMD decodes a tool_result part's metadata.
func resultMD(t *testing.T, p universal.Part) map[string]any {
	t.Helper()
	var md map[string]any
	if len(p.Metadata) > 0 {
		if err := json.Unmarshal(p.Metadata, &md); err != nil {
			t.Fatal(err)
		}
	}
	return md
}

// TestInlineTruncation: Claude Code 1.0.x and 2.0.x cut a command output
// longer than 30,000 characters and end what they keep with "\n\n...
// [N lines truncated] ..."; 2.1.14 gives the model a <persisted-output>
// preview naming the file it saved the whole output to, without the
// structured result's persistedOutputPath of 2.1.1xx and later. Neither
// was flagged truncated, as persistedOutputPath results are; now both are
// ({"truncated": true} with the lines cut, or with the file's path). Real:
// the crosscheck recordings of the s08-bigoutput scenario (a command
// printing 20,000 lines), stream-json and transcript. A Read whose text
// ends like the marker is not a cut command output.
func TestInlineTruncation(t *testing.T) {
	read := func(path string) []string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	for _, c := range []struct {
		path, format string
		lines        float64
		file         string
	}{
		{"../testdata/crosscheck/claude/1.0.24/s08-bigoutput.jsonl", claude.FormatStreamJSON, 13779, ""},
		{"../testdata/crosscheck/claude/1.0.24/s08-bigoutput.transcript.jsonl", claude.FormatTranscript, 13779, ""},
		{"../testdata/crosscheck/claude/2.0.76/s08-bigoutput.jsonl", claude.FormatStreamJSON, 13779, ""},
		{"../testdata/crosscheck/claude/2.1.14/s08-bigoutput.jsonl", claude.FormatStreamJSON, 0, "/home/dev/.claude/projects/-home-dev-project/e3f7b8e0-800e-4280-8f95-2ef138edc34b/tool-results/toolu_mock_0_0.txt"},
		{"../testdata/crosscheck/claude/2.1.14/s08-bigoutput.transcript.jsonl", claude.FormatTranscript, 0, "/home/dev/.claude/projects/-home-dev-project/e3f7b8e0-800e-4280-8f95-2ef138edc34b/tool-results/toolu_mock_0_0.txt"},
	} {
		t.Run(c.path[len("../testdata/crosscheck/claude/"):], func(t *testing.T) {
			parts := resultParts(feed(t, c.format, nil, nil, read(c.path)...))
			if len(parts) != 1 {
				t.Fatalf("%d results, want 1", len(parts))
			}
			for _, p := range parts {
				md := resultMD(t, p)
				if md["truncated"] != true {
					t.Errorf("metadata %s, want truncated", p.Metadata)
				}
				if c.lines != 0 && md["truncated_lines"] != c.lines {
					t.Errorf("metadata %s, want truncated_lines %v", p.Metadata, c.lines)
				}
				if c.file != "" && md["persisted_output_path"] != c.file {
					t.Errorf("metadata %s, want persisted_output_path %s", p.Metadata, c.file)
				}
			}
		})
	}

	l := func(s string) string { return transcriptLine("1.0.24", s) }
	evs := feed(t, claude.FormatTranscript, nil, nil,
		l(`{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"read it"}}`),
		l(`{"type":"assistant","uuid":"u2","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/notes.txt"}}]}}`),
		l(`{"type":"user","uuid":"u3","parentUuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a\n\n... [3 lines truncated] ..."}]}}`),
		l(`{"type":"assistant","uuid":"u4","parentUuid":"u3","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"cat x"}}]}}`),
		l(`{"type":"user","uuid":"u5","parentUuid":"u4","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"b\n\n... [x lines truncated] ..."}]}}`),
	)
	for call, p := range resultParts(evs) {
		if resultMD(t, p)["truncated"] != nil {
			t.Errorf("%s: metadata %s, want no truncation", call, p.Metadata)
		}
	}
}

// TestAPIErrorPlainStatus: Claude Code prints some API failures as "API
// Error: NNN" and a plain message instead of the response body ("API
// Error: 400 due to tool use concurrency issues. Run /rewind to recover
// the conversation.", 2.0.2 to 2.1.116 in anthropics/claude-code issues
// 8763, 9288, 21088 and 54638; "API Error: 529 Overloaded. …" in the
// 2.1.330 recordings). The error event kept the text but lost the status,
// which the transcripts before api_error_status/apiErrorStatus record
// nowhere else; it is now http_status in the details, as for a body. The
// message stays the text as printed.
func TestAPIErrorPlainStatus(t *testing.T) {
	const text = "API Error: 400 due to tool use concurrency issues. Run /rewind to recover the conversation."
	l := func(s string) string { return transcriptLine("2.1.19", s) }
	evs := feed(t, claude.FormatTranscript, nil, nil,
		l(`{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"go on"}}`),
		l(`{"type":"assistant","uuid":"u2","parentUuid":"u1","isApiErrorMessage":true,"message":{"id":"x","model":"<synthetic>","role":"assistant","type":"message","stop_reason":"stop_sequence","content":[{"type":"text","text":"`+text+`"}],"usage":{"input_tokens":0,"output_tokens":0}}}`),
	)
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1", len(errs))
	}
	e := errs[0].Data.(*universal.Error)
	var d struct {
		Status int `json:"http_status"`
	}
	if err := json.Unmarshal(e.Details, &d); err != nil || e.Message != text || d.Status != 400 {
		t.Errorf("error %q details %s (%v), want the text and http_status 400", e.Message, e.Details, err)
	}

	// A result printed alone; texts without a status keep no status.
	for text, want := range map[string]int{
		"API Error: 529 Overloaded":                                         529,
		`API Error: 500 {"detail":"no message"}`:                            500,
		"API Error: Request timed out.":                                     0,
		"Internal error: API Error: 400 plain":                              400,
		"see API Error: 400 plain":                                          0,
		"API Error: API returned an empty or malformed response (HTTP 200)": 0,
	} {
		b, _ := json.Marshal(text)
		evs := feed(t, claude.FormatStreamJSON, nil, nil,
			`{"type":"result","subtype":"success","is_error":true,"result":`+string(b)+`,"session_id":"s1"}`)
		errs := golden.OfType(evs, universal.TypeError)
		if len(errs) != 1 {
			t.Fatalf("%q: %d errors, want 1", text, len(errs))
		}
		e := errs[0].Data.(*universal.Error)
		d.Status = 0
		_ = json.Unmarshal(e.Details, &d)
		if e.Message != text || d.Status != want {
			t.Errorf("%q: error %q details %s, want the text and http_status %d", text, e.Message, e.Details, want)
		}
	}
}

// handback is a sub-agent's transcript (subagents/agent-<id>.jsonl) of
// Claude Code 2.1.29x and later, which ends on the hand-back: the agent
// calls SubagentHandback (a workflow's agent, StructuredOutput), and the
// harness writes that call's result as a user line marked toolEndsTurn;
// no response follows it, ever. Shapes as public projects' tests quote the
// lines of real files ("SubagentHandback, marked toolEndsTurn", tried on
// Linux 2026-10-09; "most subagent runs end on the agent harness's
// hand-back tool", measured over 257 runs; found by content search, the
// repositories not identified), with our envelope fields.
var handback = []string{
	`{"parentUuid":null,"isSidechain":true,"agentId":"a1","type":"user","uuid":"u1","sessionId":"s1","version":"2.1.295","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"List the files."}}`,
	`{"parentUuid":"u1","isSidechain":true,"agentId":"a1","type":"assistant","uuid":"u2","sessionId":"s1","version":"2.1.295","timestamp":"2026-01-01T00:00:00.200Z","message":{"id":"msg_B","role":"assistant","content":[{"type":"tool_use","id":"toolu_B","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":3}}}`,
	`{"parentUuid":"u2","isSidechain":true,"agentId":"a1","type":"user","uuid":"u3","sessionId":"s1","version":"2.1.295","timestamp":"2026-01-01T00:00:00.500Z","message":{"role":"user","content":[{"tool_use_id":"toolu_B","type":"tool_result","content":"a.txt"}]},"toolUseResult":{"stdout":"a.txt","stderr":"","interrupted":false,"isImage":false}}`,
	`{"parentUuid":"u3","isSidechain":true,"agentId":"a1","type":"assistant","uuid":"u4","sessionId":"s1","version":"2.1.295","timestamp":"2026-01-01T00:00:01.000Z","message":{"id":"msg_X","role":"assistant","content":[{"type":"tool_use","id":"toolu_H","name":"SubagentHandback","input":{"message":"One file: a.txt"}}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":3}}}`,
	`{"parentUuid":"u4","isSidechain":true,"agentId":"a1","type":"user","uuid":"u5","sessionId":"s1","version":"2.1.295","timestamp":"2026-01-01T00:00:01.100Z","message":{"role":"user","content":[{"tool_use_id":"toolu_H","type":"tool_result","content":[{"type":"text","text":"{\"success\":true,\"message\":\"Report delivered to your caller.\"}"}]}]},"toolUseResult":{"success":true,"message":"Report delivered to your caller."},"toolEndsTurn":true,"sourceToolAssistantUUID":"u4"}`,
}

// turnStatuses returns the statuses of the turns that ended.
func turnStatuses(evs []universal.Event) []universal.TurnStatus {
	var out []universal.TurnStatus
	for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
		out = append(out, e.Data.(*universal.TurnEnded).Status)
	}
	return out
}

// TestToolEndsTurn: a transcript whose turn ends on a result marked
// toolEndsTurn (a sub-agent's hand-back) ended completed; it was read as
// cut off (the turn interrupted, "the session ended during a turn"),
// since the last entry is a tool result the agent never answered. A
// prompt after it (the agent resumed) starts a turn of its own; a result
// without the mark is no end; a hand-back under its Agent call in the
// main file ends none of the session's turns.
func TestToolEndsTurn(t *testing.T) {
	evs := feed(t, claude.FormatTranscript, nil, nil, handback...)
	checkShape(t, evs)
	if got := turnStatuses(evs); len(got) != 1 || got[0] != universal.TurnCompleted {
		t.Errorf("turns %v, want one completed", got)
	}
	if e := golden.OfType(evs, universal.TypeSessionEnded); len(e) != 1 || e[0].Data.(*universal.SessionEnded).Reason != universal.EndCompleted {
		t.Errorf("session ended %v, want completed", e)
	}

	resumed := append(append([]string(nil), handback...),
		`{"parentUuid":"u5","isSidechain":true,"agentId":"a1","type":"user","uuid":"u6","sessionId":"s1","version":"2.1.295","message":{"role":"user","content":"And the hidden ones?"}}`,
		`{"parentUuid":"u6","isSidechain":true,"agentId":"a1","type":"assistant","uuid":"u7","sessionId":"s1","version":"2.1.295","message":{"id":"msg_Y","role":"assistant","content":[{"type":"text","text":"None."}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}}}`)
	if got := turnStatuses(feed(t, claude.FormatTranscript, nil, nil, resumed...)); len(got) != 2 || got[0] != universal.TurnCompleted || got[1] != universal.TurnCompleted {
		t.Errorf("resumed: turns %v, want two completed", got)
	}

	// The hand-back called beside another tool, whose result is written
	// after the hand-back's: the turn ends at that result, once.
	parallel := append([]string(nil), handback[:3]...)
	parallel = append(parallel,
		strings.Replace(handback[3], `{"type":"tool_use","id":"toolu_H","name":"SubagentHandback","input":{"message":"One file: a.txt"}}`,
			`{"type":"tool_use","id":"toolu_H","name":"SubagentHandback","input":{"message":"One file: a.txt"}},{"type":"tool_use","id":"toolu_C","name":"Bash","input":{"command":"pwd"}}`, 1),
		handback[4],
		`{"parentUuid":"u5","isSidechain":true,"agentId":"a1","type":"user","uuid":"u6","sessionId":"s1","version":"2.1.295","timestamp":"2026-01-01T00:00:01.200Z","message":{"role":"user","content":[{"tool_use_id":"toolu_C","type":"tool_result","content":"/w"}]},"toolUseResult":{"stdout":"/w","stderr":"","interrupted":false,"isImage":false},"sourceToolAssistantUUID":"u4"}`)
	evs = feed(t, claude.FormatTranscript, nil, nil, parallel...)
	checkShape(t, evs)
	if got := turnStatuses(evs); len(got) != 1 || got[0] != universal.TurnCompleted {
		t.Errorf("parallel call: turns %v, want one completed", got)
	}
	if e := golden.OfType(evs, universal.TypeSessionEnded); len(e) != 1 || e[0].Data.(*universal.SessionEnded).Reason != universal.EndCompleted {
		t.Errorf("parallel call: session ended %v, want completed", e)
	}
	if n := len(completed(evs, universal.KindToolResult, "")); n != 3 {
		t.Errorf("parallel call: %d results, want 3", n)
	}

	unmarked := append([]string(nil), handback...)
	unmarked[4] = strings.Replace(unmarked[4], `"toolEndsTurn":true,`, ``, 1)
	if got := turnStatuses(feed(t, claude.FormatTranscript, nil, nil, unmarked...)); len(got) != 1 || got[0] != universal.TurnInterrupted {
		t.Errorf("without the mark: turns %v, want the turn cut off", got)
	}

	// The main file, then the sub-agent's: the hand-back is the sub-agent's.
	l := func(s string) string { return transcriptLine("2.1.295", s) }
	main := []string{
		l(`{"type":"user","uuid":"m1","parentUuid":null,"message":{"role":"user","content":"what is here?"}}`),
		l(`{"type":"assistant","uuid":"m2","parentUuid":"m1","message":{"id":"mm1","role":"assistant","stop_reason":"tool_use","content":[{"type":"tool_use","id":"toolu_A","name":"Agent","input":{"description":"list","prompt":"List the files.","subagent_type":"Explore"}}]}}`),
		l(`{"type":"user","uuid":"m3","parentUuid":"m2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_A","content":"One file: a.txt"}]},"toolUseResult":{"status":"completed","agentId":"a1","content":[{"type":"text","text":"One file: a.txt"}]}}`),
	}
	evs = feed(t, claude.FormatTranscript, nil, nil, append(main, handback...)...)
	checkShape(t, evs)
	if got := turnStatuses(evs); len(got) != 1 || got[0] != universal.TurnInterrupted {
		t.Errorf("main file: turns %v, want the session's turn left as the main file leaves it (cut off)", got)
	}
	for _, it := range completed(evs, universal.KindToolResult, "") {
		if it.ParentID == "" {
			t.Errorf("result %+v at the top level", it)
		}
	}
}

// TestCLIRefusalTexts: the permission check of Claude Code 2.1.x refuses a
// call without asking anyone with a text of its own: "Permission to use
// Write has been auto-denied (prompts unavailable)." (a background
// sub-agent, which cannot ask; decisionReason asyncAgent), "… has been
// auto-denied in dontAsk mode." (mode) and "… has been denied." (a deny
// rule), as public analyses of its cli.js quote them. Transcripts before
// tool_result_meta record nothing else: the result failed, and no
// permission showed the refusal (the 1.0.x text "Claude requested
// permissions to …, but you haven't granted it yet." did). Each is now a
// permission denied with the CLI's reason. Real: a 2.1.34 sub-agent
// transcript entry (found by content search, repository not identified:
// used as a shape, its call line made up; 2.1.29 files show the same).
func TestCLIRefusalTexts(t *testing.T) {
	l := func(s string) string { return transcriptLine("2.1.34", s) }
	run := func(tool, text string, isErr bool) []universal.Event {
		b, _ := json.Marshal(text)
		e, _ := json.Marshal("Error: " + text)
		return feed(t, claude.FormatTranscript, nil, nil,
			l(`{"parentUuid":null,"isSidechain":true,"agentId":"a2cbc45","type":"user","uuid":"u1","message":{"role":"user","content":"Write the report."}}`),
			l(`{"parentUuid":"u1","isSidechain":true,"agentId":"a2cbc45","type":"assistant","uuid":"a1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_013zGrSsCQ2gxPqBF6xMkFEe","name":"`+tool+`","input":{"file_path":"/r/report.md","content":"x"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}}`),
			l(`{"parentUuid":"a1","isSidechain":true,"agentId":"a2cbc45","type":"user","uuid":"dc8c4120-74b2-42de-85ab-494be76dd3ea","message":{"role":"user","content":[{"type":"tool_result","content":`+string(b)+`,"is_error":`+map[bool]string{true: "true", false: "false"}[isErr]+`,"tool_use_id":"toolu_013zGrSsCQ2gxPqBF6xMkFEe"}]},"toolUseResult":`+string(e)+`,"sourceToolAssistantUUID":"a1"}`),
		)
	}
	for text, reason := range map[string]string{
		"Permission to use Write has been auto-denied (prompts unavailable).": "asyncAgent",
		"Permission to use Write has been auto-denied in dontAsk mode.":       "mode",
		"Permission to use Write has been denied.":                            "rule",
	} {
		evs := run("Write", text, true)
		checkShape(t, evs)
		res := golden.OfType(evs, universal.TypePermissionResolved)
		if len(res) != 1 {
			t.Errorf("%q: %d permission.resolved, want 1", text, len(res))
			continue
		}
		p := res[0].Data.(*universal.Permission)
		var md struct {
			Message string
			Reason  string `json:"decision_reason"`
		}
		_ = json.Unmarshal(p.Metadata, &md)
		if p.Status != universal.PermissionDenied || p.CallID != "toolu_013zGrSsCQ2gxPqBF6xMkFEe" || md.Message != text || md.Reason != reason {
			t.Errorf("%q: %+v %s, want denied with reason %s", text, p, p.Metadata, reason)
		}
	}
	// Not the CLI's refusal: a tool's own text, or a result that did not fail.
	for _, c := range []struct {
		text  string
		isErr bool
	}{
		{"Permission to use the shared drive has been denied.", true},
		{"Permission to use Write has been auto-denied (prompts unavailable).", false},
		{"Error: Permission to use Write has been denied. Retry later", true},
	} {
		if n := len(golden.OfType(run("Write", c.text, c.isErr), universal.TypePermissionResolved)); n != 0 {
			t.Errorf("%q (is_error %v): %d permission.resolved, want none", c.text, c.isErr, n)
		}
	}
}
