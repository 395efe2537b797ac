package claude_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The canonical shape of package universal's Conventions, rule by rule.

func checkShape(t *testing.T, evs []universal.Event) {
	t.Helper()
	for _, v := range conformance.Check(evs) {
		t.Errorf("canonical shape: %v", v)
	}
}

// TestToolVocabulary: every tool call has its tool kind and normalized
// input; relative paths resolve against the session's cwd.
func TestToolVocabulary(t *testing.T) {
	call := `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[` +
		`{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls -la"}},` +
		`{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"src/a.go"}},` +
		`{"type":"tool_use","id":"t3","name":"Agent","input":{"prompt":"go","subagent_type":"Explore"}},` +
		`{"type":"tool_use","id":"t4","name":"TodoWrite","input":{"todos":[]}},` +
		`{"type":"tool_use","id":"t5","name":"mcp__x__y","input":{}},` +
		`{"type":"tool_use","id":"t6","name":"ToolSearch","input":{"query":"select:mcp__x__y","max_results":1}}]},"session_id":"s1"}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, call, resultLine)
	checkShape(t, evs)
	want := []struct {
		kind universal.ToolKind
		in   string
	}{
		{universal.ToolExecute, `{"command":"ls -la"}`},
		{universal.ToolRead, `{"paths":["/w/src/a.go"]}`},
		{universal.ToolTask, `{"prompt":"go","agent":"Explore"}`},
		{universal.ToolThink, `{}`},
		{universal.ToolOther, `{}`},
		{universal.ToolSearch, `{"query":"select:mcp__x__y"}`}, // as Codex's tool_search
	}
	calls := completed(evs, universal.KindToolCall, "")
	if len(calls) != len(want) {
		t.Fatalf("%d calls, want %d", len(calls), len(want))
	}
	for i, w := range want {
		p := calls[i].Content[0]
		if p.ToolKind != w.kind || string(p.ToolInput.AppendJSON(nil)) != w.in {
			t.Errorf("call %s: %s %s, want %s %s", p.Name, p.ToolKind, p.ToolInput.AppendJSON(nil), w.kind, w.in)
		}
	}
}

// TestStreamedToolInput: a call whose arguments stream gets its input
// from them when its block stops.
func TestStreamedToolInput(t *testing.T) {
	se := func(ev string) string { return `{"type":"stream_event","event":` + ev + `,"session_id":"s1"}` }
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		se(`{"type":"message_start","message":{"id":"m1","usage":{"input_tokens":1}}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"Bash","input":{}}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"command\":"}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"echo hi\"}"}}`),
		se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"message_stop"}`), resultLine)
	checkShape(t, evs)
	calls := completed(evs, universal.KindToolCall, "")
	if len(calls) != 1 || calls[0].Content[0].ToolInput == nil || calls[0].Content[0].ToolInput.Command != "echo hi" {
		t.Fatalf("calls %+v, want Bash with command echo hi", calls)
	}
}

// TestToolResultShape: a failed command is a failed result with its exit
// code; an image a Read returns has the path of the call and a file_ref
// read follows; a result whose call is unknown goes under an (empty)
// assistant message.
func TestToolResultShape(t *testing.T) {
	call := `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[` +
		`{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"false"}},` +
		`{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"/w/p.png"}}]},"session_id":"s1"}`
	res := `{"type":"user","message":{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"t1","content":"Exit code 1\nboom","is_error":true}]},"session_id":"s1"}`
	img := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":[` +
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]}]},` +
		`"tool_use_result":{"type":"image","file":{"base64":"AAAA","type":"image/png"}},"session_id":"s1"}`
	orphan := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":"x"}]},"session_id":"s1"}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, call, res, img, orphan, resultLine)
	checkShape(t, evs)
	results := completed(evs, universal.KindToolResult, "")
	if len(results) != 3 {
		t.Fatalf("%d results, want 3", len(results))
	}
	bash := results[0]
	if bash.Status != universal.StatusFailed || !bash.Content[0].IsError ||
		gjson.GetBytes(bash.Content[0].Metadata, "exit_code").Int() != 1 {
		t.Errorf("failed command: %s %+v", bash.Status, bash.Content[0])
	}
	var image, ref *universal.Part
	for i := range results[1].Content {
		switch p := &results[1].Content[i]; p.Type {
		case universal.PartImage:
			image = p
		case universal.PartFileRef:
			ref = p
		}
	}
	if image == nil || image.Path != "/w/p.png" || image.Mime != "image/png" {
		t.Errorf("image part %+v, want the Read's path", image)
	}
	if ref == nil || ref.Action != universal.FileRead || ref.Path != "/w/p.png" {
		t.Errorf("file_ref %+v, want read /w/p.png", ref)
	}
	under := false
	for _, m := range completed(evs, universal.KindMessage, universal.RoleAssistant) {
		under = under || m.ItemID == results[2].ParentID && len(m.Content) == 0
	}
	if !under {
		t.Errorf("orphan result under %q, want an empty assistant message", results[2].ParentID)
	}
}

// TestEndMidTurn: input that ends before the turn's result leaves the
// turn to Stream.End: interrupted with session_ending, the session in
// error.
func TestEndMidTurn(t *testing.T) {
	for _, end := range []universal.Report{universal.EndOfInput{}, universal.Exit{Code: 137}, universal.Terminate{}} {
		evs := feed(t, claude.FormatStreamJSON, nil, end, initLine,
			`{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"cut"}]},"session_id":"s1"}`)
		checkShape(t, evs)
		te := golden.OfType(evs, universal.TypeTurnEnded)
		if len(te) != 1 || !te[0].Data.(*universal.TurnEnded).SessionEnding() {
			t.Errorf("%T: turn ends %v, want session_ending", end, te)
		}
		if d := evs[len(evs)-1].Data.(*universal.SessionEnded); d.Reason == universal.EndCompleted {
			t.Errorf("%T: session ended completed", end)
		}
	}
}

// TestTranscriptEnding: a transcript's last turn ends completed when its
// last response called no tools, and stays open (session error) when the
// record stops in the middle of the agent's work.
func TestTranscriptEnding(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.330","cwd":"/w",`, 1)
	}
	prompt := line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`)
	call := line(`{"type":"assistant","uuid":"u2","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_use"}}`)
	result := line(`{"type":"user","uuid":"u3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a"}]}}`)
	final := line(`{"type":"assistant","uuid":"u4","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn"}}`)
	end := func(evs []universal.Event) *universal.SessionEnded {
		return evs[len(evs)-1].Data.(*universal.SessionEnded)
	}
	evs := feed(t, claude.FormatTranscript, nil, nil, prompt, call, result, final)
	checkShape(t, evs)
	te := golden.OfType(evs, universal.TypeTurnEnded)
	if d := end(evs); d.Reason != universal.EndCompleted || len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("finished transcript: %+v, %v", d, te)
	}
	evs = feed(t, claude.FormatTranscript, nil, nil, prompt, call, result)
	checkShape(t, evs)
	te = golden.OfType(evs, universal.TypeTurnEnded)
	if d := end(evs); d.Reason != universal.EndError || len(te) != 1 || !te[0].Data.(*universal.TurnEnded).SessionEnding() {
		t.Errorf("unfinished transcript: %+v, %v", d, te)
	}
	// An interruption ends the turn where the record shows it.
	evs = feed(t, claude.FormatTranscript, nil, nil, prompt, call,
		line(`{"type":"user","uuid":"u5","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}`))
	checkShape(t, evs)
	te = golden.OfType(evs, universal.TypeTurnEnded)
	if d := end(evs); d.Reason != universal.EndCompleted || len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
		t.Errorf("interrupted transcript: %+v, %v", d, te)
	}
}

// TestTranscriptResponseChain: the lines of one response are chained by
// parentUuid; a line that continues the open response under another
// message id stays in its message item.
func TestTranscriptResponseChain(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.0.69",`, 1)
	}
	evs := feed(t, claude.FormatTranscript, nil, nil,
		line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`),
		line(`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Writing."}]}}`),
		line(`{"type":"assistant","uuid":"a2","parentUuid":"a1","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/w/x","content":"x"}}]}}`),
		line(`{"type":"user","uuid":"u2","parentUuid":"a2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`),
		line(`{"type":"assistant","uuid":"a3","parentUuid":"u2","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"Done."}]}}`))
	checkShape(t, evs)
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	calls := completed(evs, universal.KindToolCall, "")
	if len(msgs) != 2 || len(calls) != 1 || calls[0].ParentID != msgs[0].ItemID {
		t.Fatalf("%d messages, %d calls, want 2 and 1 under the first", len(msgs), len(calls))
	}
	if d := evs[len(evs)-1].Data.(*universal.SessionEnded); d.Reason != universal.EndCompleted {
		t.Errorf("session ended %s, want completed (the last response is final)", d.Reason)
	}
}

// TestTranscriptBackgroundAgent: a turn whose background sub-agent has
// not reported back is not finished (2.1.120 and later answer the
// notification in the same turn); once it reports and the agent answers,
// it is.
func TestTranscriptBackgroundAgent(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.330",`, 1)
	}
	head := []string{
		line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`),
		line(`{"type":"assistant","uuid":"a1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Agent","input":{"prompt":"go","run_in_background":true}}],"stop_reason":"tool_use"}}`),
		line(`{"type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"launched"}]},"toolUseResult":{"isAsync":true,"status":"async_launched","agentId":"ag1"}}`),
		line(`{"type":"assistant","uuid":"a2","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Working in the background."}],"stop_reason":"end_turn"}}`),
		line(`{"type":"last-prompt","lastPrompt":"hi","sessionId":"s1"}`),
	}
	evs := feed(t, claude.FormatTranscript, nil, nil, head...)
	checkShape(t, evs)
	if d := evs[len(evs)-1].Data.(*universal.SessionEnded); d.Reason != universal.EndError {
		t.Errorf("background agent pending: session ended %s, want error (turn left open)", d.Reason)
	}
	evs = feed(t, claude.FormatTranscript, nil, nil, append(head,
		line(`{"type":"user","uuid":"u3","isMeta":true,"message":{"role":"user","content":"<task-notification>\n<tool-use-id>t1</tool-use-id>\n</task-notification>"}}`),
		line(`{"type":"assistant","uuid":"a3","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"It is done."}],"stop_reason":"end_turn"}}`))...)
	if d := evs[len(evs)-1].Data.(*universal.SessionEnded); d.Reason != universal.EndCompleted {
		t.Errorf("background agent reported: session ended %s, want completed", d.Reason)
	}
	if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1", n)
	}
}

// TestTranscriptBackgroundAgentVersions: Claude Code answers a background
// sub-agent's notification in the turn that launched it from 2.1.41 on
// (2.1.61's and 2.1.90's recordings, whose notification entry has no
// origin); 2.1.40 and older exit after the turn's first result, so their
// transcript ends with the turn finished and the notification, if any,
// still queued.
func TestTranscriptBackgroundAgentVersions(t *testing.T) {
	for _, tc := range []struct {
		version   string
		continues bool
	}{{"2.1.14", false}, {"2.1.40", false}, {"2.1.41", true}, {"2.1.90", true}, {"2.1.120", true}} {
		line := func(s string) string {
			return strings.Replace(s, `{`, `{"sessionId":"s1","version":"`+tc.version+`",`, 1)
		}
		head := []string{
			line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`),
			line(`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"prompt":"go","run_in_background":true}}],"stop_reason":null}}`),
			line(`{"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"Async agent launched successfully."}]}]},"toolUseResult":{"isAsync":true,"status":"async_launched","agentId":"ag1"}}`),
			line(`{"type":"assistant","uuid":"a2","parentUuid":"u2","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Working in the background."}],"stop_reason":null}}`),
		}
		// The CLI exited: the file ends with the notification queued.
		evs := feed(t, claude.FormatTranscript, nil, nil, append(head,
			`{"type":"queue-operation","operation":"enqueue","sessionId":"s1","content":"<task-notification>\n<task-id>ag1</task-id>\n<tool-use-id>t1</tool-use-id>\n<status>completed</status>\n</task-notification>"}`)...)
		checkShape(t, evs)
		want := universal.EndCompleted
		if d := evs[len(evs)-1].Data.(*universal.SessionEnded); d.Reason != want {
			t.Errorf("%s, notification queued at the end: session ended %s, want %s", tc.version, d.Reason, want)
		}
		if !tc.continues {
			continue
		}
		evs = feed(t, claude.FormatTranscript, nil, nil, append(head,
			`{"type":"queue-operation","operation":"enqueue","sessionId":"s1","content":"<task-notification>\n<task-id>ag1</task-id>\n<tool-use-id>t1</tool-use-id>\n<status>completed</status>\n</task-notification>"}`,
			`{"type":"queue-operation","operation":"dequeue","sessionId":"s1"}`,
			line(`{"type":"user","uuid":"u3","parentUuid":"a2","promptId":"p2","message":{"role":"user","content":"<task-notification>\n<task-id>ag1</task-id>\n<tool-use-id>t1</tool-use-id>\n<status>completed</status>\n</task-notification>"}}`),
			line(`{"type":"assistant","uuid":"a3","parentUuid":"u3","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"It printed from-subagent."}],"stop_reason":null}}`))...)
		checkShape(t, evs)
		if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 {
			t.Errorf("%s: %d turns, want 1 (the answer to the notification is in the turn that launched the sub-agent)", tc.version, n)
		}
		if d := evs[len(evs)-1].Data.(*universal.SessionEnded); d.Reason != universal.EndCompleted {
			t.Errorf("%s, notification answered: session ended %s, want completed", tc.version, d.Reason)
		}
	}
}

// TestForegroundTaskHandback: 2.1.61 writes task_started for a foreground
// sub-agent but no task_notification (2.1.90 and later write it before
// the call's result): the call's result ends the task, completed, or
// failed with an error result. Its status item was left running and
// closed as failed at the turn's end. A background sub-agent's result (an
// async launch) does not end its task.
func TestForegroundTaskHandback(t *testing.T) {
	run := func(result string) []universal.Event {
		return feed(t, claude.FormatStreamJSON, nil, nil,
			`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Task"],"model":"m","claude_code_version":"2.1.61","uuid":"i1"}`,
			`{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"Task","input":{"description":"greet","prompt":"go","subagent_type":"general-purpose"}}],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a1"}`,
			`{"type":"system","subtype":"task_started","task_id":"ag1","tool_use_id":"toolu_1","description":"greet","task_type":"local_agent","uuid":"ts1","session_id":"s1"}`,
			`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"go"}]},"parent_tool_use_id":"toolu_1","session_id":"s1","uuid":"u1"}`,
			result,
			`{"type":"assistant","message":{"id":"m2","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Done."}],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"s1","uuid":"a2"}`,
			`{"type":"result","subtype":"success","is_error":false,"result":"Done.","usage":{"input_tokens":2,"output_tokens":2},"session_id":"s1"}`)
	}
	task := func(evs []universal.Event) universal.Item {
		for _, it := range completed(evs, universal.KindStatus, "") {
			if it.NativeItemID == "ag1" {
				return it
			}
		}
		t.Fatal("no task status item completed")
		return universal.Item{}
	}
	for _, tc := range []struct {
		name, result string
		status       universal.ItemStatus
		label        string
	}{
		{"completed", `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":[{"type":"text","text":"hello"}]}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2","tool_use_result":{"status":"completed","prompt":"go","agentId":"ag1","content":[{"type":"text","text":"hello"}]}}`,
			universal.StatusCompleted, "completed"},
		{"failed", `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"the sub-agent failed","is_error":true}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2"}`,
			universal.StatusFailed, "failed"},
	} {
		evs := run(tc.result)
		checkShape(t, evs)
		it := task(evs)
		if it.Status != tc.status || it.Content[0].Label != tc.label || it.Content[0].Detail != "greet" {
			t.Errorf("%s: task item %s, label %q, detail %q; want %s, %q, %q", tc.name, it.Status, it.Content[0].Label, it.Content[0].Detail, tc.status, tc.label, "greet")
		}
		if gjson.GetBytes(it.Content[0].Metadata, "task_type").Str != "local_agent" {
			t.Errorf("%s: task metadata %s lost task_type", tc.name, it.Content[0].Metadata)
		}
	}
	// A background launch leaves the task running until its notification.
	evs := run(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":[{"type":"text","text":"Async agent launched successfully."}]}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u2","tool_use_result":{"isAsync":true,"status":"async_launched","agentId":"ag1"}}`)
	for _, e := range evs {
		if e.Type == universal.TypeItemCompleted && e.Data.(*universal.ItemSnapshot).Item.NativeItemID == "ag1" && !e.Synthetic {
			t.Errorf("background launch: task item ended by the launch: %+v", e.Data.(*universal.ItemSnapshot).Item)
		}
	}
}

// TestTranscriptStopHookContinues: a blocking Stop hook's feedback after a
// final response does not end the turn: Claude Code goes on in the same
// turn (one system/turn_duration after the continuation), as the Irrlicht
// autonomous-loop recording (2.1.143, a /goal prompt hook) shows.
func TestTranscriptStopHookContinues(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.143","cwd":"/w",`, 1)
	}
	for _, feedback := range []string{
		`"Stop hook feedback:\n[condition]: only one command ran"`,
		`[{"type":"text","text":"Stop hook feedback:\n[condition]: only one command ran"}]`,
	} {
		evs := feed(t, claude.FormatTranscript, nil, nil,
			line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"run two commands"}}`),
			line(`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Ran one."}],"stop_reason":"end_turn"}}`),
			line(`{"type":"user","uuid":"u2","parentUuid":"a1","isMeta":true,"message":{"role":"user","content":`+feedback+`}}`),
			line(`{"type":"system","uuid":"s1","subtype":"stop_hook_summary","hookCount":1}`),
			line(`{"type":"assistant","uuid":"a2","parentUuid":"s1","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Ran the second."}],"stop_reason":"end_turn"}}`),
			line(`{"type":"system","uuid":"s2","subtype":"turn_duration","durationMs":1000}`))
		checkShape(t, evs)
		ts, te := golden.OfType(evs, universal.TypeTurnStarted), golden.OfType(evs, universal.TypeTurnEnded)
		if len(ts) != 1 || len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
			t.Errorf("%s: %d turns started, %d ended, want one completed turn", feedback, len(ts), len(te))
		}
		if msgs := completed(evs, universal.KindMessage, universal.RoleAssistant); len(msgs) != 2 {
			t.Errorf("%s: %d assistant messages, want 2", feedback, len(msgs))
		}
	}
}

// TestTranscriptEarlyResult: a result written before the last lines of the
// response that called it (Claude Code 2.1.98, Irrlicht's
// 09-issue-114-stuck-working-b recording) goes under its call's message
// once the call's line has come, not under an empty message of its own;
// a result of a call the file does not have (a resumed session) stays
// where it was written.
func TestTranscriptEarlyResult(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.98","cwd":"/w",`, 1)
	}
	evs := feed(t, claude.FormatTranscript, nil, nil,
		line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"plan it"}}`),
		line(`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"","signature":"x"}]}}`),
		line(`{"type":"user","uuid":"r1","parentUuid":"a3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"written"}]}}`),
		line(`{"type":"assistant","uuid":"a2","parentUuid":"a1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Writing the plan."}]}}`),
		line(`{"type":"assistant","uuid":"a3","parentUuid":"a2","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/w/p.md","content":"x"}}],"stop_reason":"tool_use"}}`),
		line(`{"type":"assistant","uuid":"a4","parentUuid":"r1","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}}`))
	checkShape(t, evs)
	calls, results := completed(evs, universal.KindToolCall, ""), completed(evs, universal.KindToolResult, "")
	if len(calls) != 1 || len(results) != 1 || results[0].ParentID != calls[0].ParentID {
		t.Fatalf("%d calls, %d results, want one result under its call's message", len(calls), len(results))
	}
	if msgs := completed(evs, universal.KindMessage, universal.RoleAssistant); len(msgs) != 2 {
		t.Errorf("%d assistant messages, want 2", len(msgs))
	}
	// A result whose call is in an earlier file, answered by the next line.
	evs = feed(t, claude.FormatTranscript, nil, nil,
		line(`{"type":"user","uuid":"r1","parentUuid":"old","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t0","content":"ok"}]}}`),
		line(`{"type":"assistant","uuid":"a1","parentUuid":"r1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}}`))
	var order []universal.Kind
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		order = append(order, e.Data.(*universal.ItemSnapshot).Item.Kind)
	}
	if len(order) < 2 || order[len(order)-1] != universal.KindMessage || !slices.Contains(order, universal.KindToolResult) {
		t.Errorf("items %v, want the result before the answer", order)
	}
}

// TestTranscriptSessionLabels: agent-name and worktree-state entries
// (2.1.9x transcripts) are session bookkeeping, ignored like custom-title.
func TestTranscriptSessionLabels(t *testing.T) {
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"type":"worktree-state","worktreeSession":{"originalCwd":"/w","worktreePath":"/w/.claude/worktrees/1","worktreeName":"1","worktreeBranch":"worktree-1","originalBranch":"main","sessionId":"s1"},"sessionId":"s1"}`,
		`{"type":"user","uuid":"u1","sessionId":"s1","message":{"role":"user","content":"hi"}}`,
		`{"type":"agent-name","agentName":"fix-it","sessionId":"s1"}`)
	if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != 0 {
		t.Errorf("%d agent.unparsed, want 0", n)
	}
}

// TestTranscriptAwaySummary: the recap Claude Code writes when the user
// comes back to an idle session (system/away_summary, text in content;
// Irrlicht's issue-329 fixture has it in summary) is a system item with
// its text, not agent.unparsed.
func TestTranscriptAwaySummary(t *testing.T) {
	for _, field := range []string{"content", "summary"} {
		evs := feed(t, claude.FormatTranscript, nil, nil,
			`{"type":"user","uuid":"u1","sessionId":"s1","version":"2.1.119","message":{"role":"user","content":"say hi"}}`,
			`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn"}}`,
			`{"type":"system","subtype":"away_summary","uuid":"s2","sessionId":"s1","`+field+`":"Goal: greet. Next: nothing. (disable recaps in /config)"}`)
		if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != 0 {
			t.Errorf("%s: %d agent.unparsed, want 0", field, n)
		}
		sys := completed(evs, universal.KindSystem, universal.RoleSystem)
		if len(sys) != 1 || sys[0].Content[0].Text != "Goal: greet. Next: nothing. (disable recaps in /config)" {
			t.Errorf("%s: system items %+v, want the recap", field, sys)
		}
	}
}

// TestTranscriptQueuedCommand: what reached the model while it worked, as
// a queued_command attachment (2.1.9x–2.1.15x transcripts, Irrlicht's
// recordings), is not lost with the other attachments: a prompt the user
// typed meanwhile is a user message of the running turn, a background
// task's notification a system item.
func TestTranscriptQueuedCommand(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.98","cwd":"/w",`, 1)
	}
	evs := feed(t, claude.FormatTranscript, nil, nil,
		line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"start the daemon"}}`),
		line(`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"d &"}}],"stop_reason":"tool_use"}}`),
		line(`{"type":"user","uuid":"r1","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"started"}]}}`),
		line(`{"type":"attachment","uuid":"q1","parentUuid":"r1","attachment":{"type":"queued_command","prompt":"how to test","commandMode":"prompt"}}`),
		line(`{"type":"attachment","uuid":"q2","parentUuid":"q1","attachment":{"type":"queued_command","prompt":"<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>","commandMode":"task-notification"}}`),
		line(`{"type":"attachment","uuid":"q3","parentUuid":"q2","attachment":{"type":"date","date":"today"}}`),
		line(`{"type":"assistant","uuid":"a2","parentUuid":"q2","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Run make test."}],"stop_reason":"end_turn"}}`),
		line(`{"type":"system","uuid":"s2","subtype":"turn_duration","durationMs":1000}`))
	checkShape(t, evs)
	if ts := golden.OfType(evs, universal.TypeTurnStarted); len(ts) != 1 {
		t.Errorf("%d turns, want the one the queued prompt joined", len(ts))
	}
	users := completed(evs, universal.KindMessage, universal.RoleUser)
	if len(users) != 2 || itemText(users[1]) != "how to test" {
		t.Fatalf("user messages %v, want the prompt and the queued one", users)
	}
	if sys := completed(evs, universal.KindSystem, universal.RoleSystem); len(sys) != 1 || !strings.HasPrefix(itemText(sys[0]), "<task-notification>") {
		t.Errorf("system items %v, want the task notification", sys)
	}
}

func itemText(it universal.Item) string {
	var b strings.Builder
	for _, p := range it.Content {
		b.WriteString(p.Text)
	}
	return b.String()
}
