package codex_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// byKind returns the completed items of a kind, in completion order.
func byKind(evs []universal.Event, kind universal.Kind) []universal.Item {
	var out []universal.Item
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == kind {
			out = append(out, it)
		}
	}
	return out
}

func noViolations(t *testing.T, evs []universal.Event) {
	t.Helper()
	for _, v := range conformance.Check(evs) {
		t.Errorf("canonical shape: %v", v)
	}
}

func v2(ev, item string) string {
	return `{"method":"item/` + ev + `","params":{"threadId":"th1","turnId":"tu1","item":` + item + `}}`
}

// TestOneResponseOneMessage: the reasoning and agentMessage items of one
// model response are one assistant message (a reasoning part, a text
// part, deltas addressing them), and the response's command call and its
// result hang under it; the next reasoning after the result starts the
// next response's message.
func TestOneResponseOneMessage(t *testing.T) {
	cmd := `{"type":"commandExecution","id":"c1","command":"/bin/bash -lc 'ls -a'","cwd":"/w","status":"%s","aggregatedOutput":"a\n","exitCode":0,"commandActions":[]}`
	evs := run(t, codex.FormatAppServer, nil, []string{thStarted, turnStarted, userEcho,
		v2("started", `{"type":"reasoning","id":"r1","summary":[],"content":[]}`),
		`{"method":"item/reasoning/summaryTextDelta","params":{"threadId":"th1","turnId":"tu1","itemId":"r1","summaryIndex":0,"delta":"Think."}}`,
		v2("completed", `{"type":"reasoning","id":"r1","summary":["Think."],"content":[]}`),
		v2("started", `{"type":"agentMessage","id":"m0","text":"","phase":"commentary"}`),
		`{"method":"item/agentMessage/delta","params":{"threadId":"th1","turnId":"tu1","itemId":"m0","delta":"Listing"}}`,
		v2("completed", `{"type":"agentMessage","id":"m0","text":"Listing files.","phase":"commentary"}`),
		v2("started", strings.Replace(cmd, "%s", "inProgress", 1)),
		v2("completed", strings.Replace(cmd, "%s", "completed", 1)),
		v2("started", `{"type":"reasoning","id":"r2","summary":[],"content":[]}`),
		v2("completed", `{"type":"reasoning","id":"r2","summary":[],"content":[]}`),
		agentDone, turnDone})
	noViolations(t, evs)
	msgs := byKind(evs, universal.KindMessage)
	if len(msgs) != 3 {
		t.Fatalf("%d messages, want user + 2 assistant", len(msgs))
	}
	first := msgs[1]
	if len(first.Content) != 2 || first.Content[0].Type != universal.PartReasoning || first.Content[0].Text != "Think." ||
		first.Content[1].Type != universal.PartText || first.Content[1].Text != "Listing files." ||
		!strings.Contains(string(first.Content[1].Metadata), `"commentary"`) {
		t.Errorf("first response = %+v, want reasoning \"Think.\" and text \"Listing files.\"", first.Content)
	}
	for _, e := range golden.OfType(evs, universal.TypeItemDelta) {
		d := e.Data.(*universal.ItemDelta)
		if d.ItemID == first.ItemID && (d.PartType == universal.PartText) != (d.PartIndex == 1) {
			t.Errorf("delta %q addresses part %d (%s)", d.Delta, d.PartIndex, d.PartType)
		}
	}
	for _, k := range []universal.Kind{universal.KindToolCall, universal.KindToolResult} {
		if its := byKind(evs, k); len(its) != 1 || its[0].ParentID != first.ItemID {
			t.Errorf("%s items %+v, want one under %s", k, its, first.ItemID)
		}
	}
	if last := msgs[2]; golden.TextOf(&last) != "Done." || last.ParentID != "" {
		t.Errorf("last response = %+v", last)
	}
}

// TestParallelCallsOneResponse: calls that follow each other's results
// with nothing between (Codex runs a response's calls one after the other)
// stay under one message; a response that only calls tools still has its
// (empty) message.
func TestParallelCallsOneResponse(t *testing.T) {
	lines := []string{`{"type":"thread.started","thread_id":"th1"}`, `{"type":"turn.started"}`}
	for _, id := range []string{"item_0", "item_1"} {
		lines = append(lines,
			`{"type":"item.started","item":{"id":"`+id+`","type":"command_execution","command":"pwd","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
			`{"type":"item.completed","item":{"id":"`+id+`","type":"command_execution","command":"pwd","aggregated_output":"/w\n","exit_code":0,"status":"completed"}}`)
	}
	lines = append(lines, `{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"In /w."}}`, `{"type":"turn.completed","usage":{}}`)
	evs := run(t, codex.FormatExec, nil, lines)
	noViolations(t, evs)
	msgs := byKind(evs, universal.KindMessage)
	if len(msgs) != 2 || len(msgs[0].Content) != 0 {
		t.Fatalf("messages %+v, want an empty one for the calls, then the answer", msgs)
	}
	for _, it := range append(byKind(evs, universal.KindToolCall), byKind(evs, universal.KindToolResult)...) {
		if it.ParentID != msgs[0].ItemID {
			t.Errorf("%s %s under %q, want %s", it.Kind, it.ItemID, it.ParentID, msgs[0].ItemID)
		}
	}
}

// TestToolVocabulary: the live names (command_execution, file_change,
// web_search, view_image, spawn_agent) and the rollout's function names
// (exec_command, shell, shell_command, local_shell, apply_patch) read to
// the same tool kinds and inputs; relative paths resolve against the
// session's cwd.
func TestToolVocabulary(t *testing.T) {
	rollout := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.169.0"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"echo 'a b'\"}","call_id":"e1"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"echo 'a b'\"]}","call_id":"e2"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"echo 'a b'\"}","call_id":"e3"}`),
		rolloutLine("response_item", `{"type":"local_shell_call","call_id":"e4","action":{"type":"exec","command":["bash","-lc","echo 'a b'"]}}`),
		rolloutLine("response_item", `{"type":"custom_tool_call","name":"apply_patch","call_id":"p1","input":"*** Begin Patch\n*** Update File: src/a.go\n@@\n-x\n+y\n*** Add File: b.txt\n+b\n*** End Patch"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[]}","call_id":"u1"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"spawn_agent","arguments":"{\"message\":\"Count.\"}","call_id":"s1"}`),
		rolloutLine("response_item", `{"type":"web_search_call","id":"w1","status":"completed","action":{"type":"search","query":"go gjson"}}`),
		rolloutLine("response_item", `{"type":"function_call","name":"mcp__fs__stat","arguments":"{}","call_id":"m1"}`),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1"}`),
	})
	live := run(t, codex.FormatAppServer, nil, []string{
		`{"id":1,"result":{"thread":{"id":"th1"},"cwd":"/w","model":"m"}}`, turnStarted,
		v2("completed", `{"type":"commandExecution","id":"c1","command":"/bin/bash -lc \"echo 'a b'\"","cwd":"/w","status":"completed","aggregatedOutput":"","exitCode":0}`),
		v2("completed", `{"type":"fileChange","id":"f1","status":"completed","changes":[{"path":"/w/src/a.go","kind":{"type":"update","move_path":null},"diff":"@@\n-x\n+y\n"},{"path":"/w/b.txt","kind":{"type":"add"},"diff":"b\n"}]}`),
		v2("completed", `{"type":"collabAgentToolCall","id":"s1","tool":"spawnAgent","status":"completed","receiverThreadIds":["th2"],"prompt":"Count.","agentsStates":{}}`),
		v2("completed", `{"type":"webSearch","id":"w1","query":"go gjson","action":{"type":"search","query":"go gjson"}}`),
		v2("completed", `{"type":"imageView","id":"i1","path":"shot.png"}`),
		turnDone})
	noViolations(t, rollout)
	noViolations(t, live)
	describe := func(evs []universal.Event) []string {
		var out []string
		for _, it := range byKind(evs, universal.KindToolCall) {
			p := it.Content[0]
			b := p.ToolInput.AppendJSON(nil)
			out = append(out, p.Name+" "+string(p.ToolKind)+" "+string(b))
		}
		return out
	}
	wantRollout := []string{
		`exec_command execute {"command":"echo 'a b'"}`,
		`shell execute {"command":"echo 'a b'"}`,
		`shell_command execute {"command":"echo 'a b'"}`,
		`local_shell execute {"command":"echo 'a b'"}`,
		`apply_patch edit {"paths":["/w/src/a.go","/w/b.txt"]}`,
		`update_plan think {}`,
		`spawn_agent task {"prompt":"Count."}`,
		`web_search search {"query":"go gjson"}`,
		`mcp__fs__stat other {}`,
	}
	wantLive := []string{
		`command_execution execute {"command":"echo 'a b'"}`,
		`file_change edit {"paths":["/w/src/a.go","/w/b.txt"]}`,
		`spawn_agent task {"prompt":"Count."}`,
		`web_search search {"query":"go gjson"}`,
		`view_image read {"paths":["/w/shot.png"]}`,
	}
	if got := describe(rollout); !slices.Equal(got, wantRollout) {
		t.Errorf("rollout calls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantRollout, "\n"))
	}
	if got := describe(live); !slices.Equal(got, wantLive) {
		t.Errorf("live calls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantLive, "\n"))
	}
	// The file change's diffs and the image are parts of the results.
	for _, it := range byKind(live, universal.KindToolResult) {
		var types []string
		for _, p := range it.Content {
			types = append(types, string(p.Type)+":"+p.Path+":"+p.Mime)
		}
		switch it.Content[0].CallID {
		case "f1":
			if want := "tool_result:: file_ref:/w/src/a.go: file_ref:/w/b.txt:"; strings.Join(types, " ") != want {
				t.Errorf("file change result parts %v, want %s", types, want)
			}
		case "i1":
			if want := "tool_result:: file_ref:/w/shot.png: image:/w/shot.png:image/png"; strings.Join(types, " ") != want {
				t.Errorf("view_image result parts %v, want %s", types, want)
			}
		}
	}
	for _, it := range byKind(live, universal.KindToolCall) {
		if len(it.Content) != 1 {
			t.Errorf("call %s has %d parts, want the tool_call part only", it.Content[0].Name, len(it.Content))
		}
	}
}

// TestNonZeroExitFails: a command that exits with another code than 0 is
// a failed result (status failed, is_error, exit_code in metadata), live
// and in a rollout.
func TestNonZeroExitFails(t *testing.T) {
	live := run(t, codex.FormatAppServer, nil, []string{thStarted, turnStarted,
		v2("completed", `{"type":"commandExecution","id":"c1","command":"false","cwd":"/w","status":"completed","aggregatedOutput":"","exitCode":1}`),
		turnDone})
	rollout := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"false\"}","call_id":"c1"}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"c1","output":"Exit code: 1\nWall time: 0 seconds\nOutput:\n"}`),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1"}`),
	})
	for name, evs := range map[string][]universal.Event{"live": live, "rollout": rollout} {
		noViolations(t, evs)
		rs := byKind(evs, universal.KindToolResult)
		if len(rs) != 1 || rs[0].Status != universal.StatusFailed || !rs[0].Content[0].IsError ||
			!strings.Contains(string(rs[0].Content[0].Metadata), `"exit_code":1`) {
			t.Errorf("%s: result %+v, want failed with exit_code 1", name, rs)
		}
	}
}

// TestRejectedOutputsFail: a rollout's outputs in which Codex says it
// refused a call are failed results.
func TestRejectedOutputsFail(t *testing.T) {
	var lines []string
	lines = append(lines, rolloutLine("session_meta", `{"id":"th1","cwd":"/w"}`), rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`))
	for i, out := range []string{"patch rejected by user", "exec command rejected by user",
		"approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy is Never"} {
		id := string(rune('a' + i))
		lines = append(lines,
			rolloutLine("response_item", `{"type":"function_call","name":"shell","arguments":"{\"command\":[\"mkdir\",\"b\"]}","call_id":"`+id+`"}`),
			rolloutLine("response_item", `{"type":"function_call_output","call_id":"`+id+`","output":"`+out+`"}`))
	}
	lines = append(lines, rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1"}`))
	evs := run(t, codex.FormatRollout, nil, lines)
	for _, it := range byKind(evs, universal.KindToolResult) {
		if it.Status != universal.StatusFailed || !it.Content[0].IsError {
			t.Errorf("result %q not failed", it.Content[0].Output)
		}
	}
}

// TestInferredTurnEnd: a rollout without task events (≤ ~0.9x) gets one
// turn per user message. A turn the next user message closes is
// completed; the last one is completed when the file shows it answered
// (its last response has text and called no tool), else the file does not
// show it finished and the end of the input ends it (interrupted,
// session_ending, the session in error).
func TestInferredTurnEnd(t *testing.T) {
	head := []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.40.0"}`),
		rolloutLine("event_msg", `{"type":"user_message","message":"One."}`),
		rolloutLine("event_msg", `{"type":"agent_message","message":"First."}`),
		rolloutLine("event_msg", `{"type":"user_message","message":"Two."}`),
		rolloutLine("event_msg", `{"type":"agent_message","message":"Looking."}`),
	}
	ends := func(evs []universal.Event) (string, universal.EndReason) {
		var out []string
		for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
			d := e.Data.(*universal.TurnEnded)
			s := string(d.Status)
			if d.SessionEnding() {
				s += "+session_ending"
			}
			out = append(out, s)
		}
		return strings.Join(out, ","), evs[len(evs)-1].Data.(*universal.SessionEnded).Reason
	}
	answered := run(t, codex.FormatRollout, nil, head)
	noViolations(t, answered)
	if got, reason := ends(answered); got != "completed,completed" || reason != universal.EndCompleted {
		t.Errorf("answered: turn ends %s, session %s", got, reason)
	}
	calling := run(t, codex.FormatRollout, nil, append(head,
		rolloutLine("response_item", `{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}`)))
	noViolations(t, calling)
	if got, reason := ends(calling); got != "completed,interrupted+session_ending" || reason != universal.EndError {
		t.Errorf("still calling tools: turn ends %s, session %s", got, reason)
	}
}

// TestInterruptedResponseFails: a response cut short by its turn's
// interruption is a failed message; the next turn's response is a new one.
func TestInterruptedResponseFails(t *testing.T) {
	evs := run(t, codex.FormatAppServer, nil, []string{thStarted, turnStarted,
		v2("started", `{"type":"agentMessage","id":"m1","text":""}`),
		`{"method":"item/agentMessage/delta","params":{"threadId":"th1","turnId":"tu1","itemId":"m1","delta":"Stop"}}`,
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","status":"interrupted","error":null}}}`})
	noViolations(t, evs)
	msgs := byKind(evs, universal.KindMessage)
	if len(msgs) != 1 || msgs[0].Status != universal.StatusFailed || golden.TextOf(&msgs[0]) != "Stop" {
		t.Errorf("messages %+v, want the cut response failed with its text", msgs)
	}
}

// TestResponseCheckpoint: a checkpoint taken while a response is open
// (its message holding parts, a call under it) restores into a translator
// that continues the same message.
func TestResponseCheckpoint(t *testing.T) {
	lines := []string{thStarted, turnStarted,
		v2("started", `{"type":"agentMessage","id":"m1","text":""}`),
		`{"method":"item/agentMessage/delta","params":{"threadId":"th1","turnId":"tu1","itemId":"m1","delta":"Run"}}`,
		v2("started", `{"type":"commandExecution","id":"c1","command":"ls","cwd":"/w","status":"inProgress"}`),
		v2("completed", `{"type":"agentMessage","id":"m1","text":"Running ls."}`),
		v2("completed", `{"type":"commandExecution","id":"c1","command":"ls","cwd":"/w","status":"completed","aggregatedOutput":"a\n","exitCode":0}`),
		turnDone}
	whole := run(t, codex.FormatAppServer, nil, lines)
	for cut := 1; cut < len(lines); cut++ {
		tr, _ := codex.New(codex.FormatAppServer, universal.Options{})
		var out []universal.Event
		for i, l := range lines {
			if i == cut {
				state, err := tr.Checkpoint()
				if err != nil {
					t.Fatal(err)
				}
				tr, _ = codex.New(codex.FormatAppServer, universal.Options{})
				if err := tr.Restore(state); err != nil {
					t.Fatal(err)
				}
			}
			out = tr.Translate(out, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
		}
		out = tr.Report(out, universal.EndOfInput{})
		if a, b := string(golden.Encode(whole)), string(golden.Encode(out)); a != b {
			t.Errorf("checkpoint after line %d: output differs", cut)
		}
	}
	msgs := byKind(whole, universal.KindMessage)
	if len(msgs) != 1 || golden.TextOf(&msgs[0]) != "Running ls." {
		t.Errorf("messages %+v", msgs)
	}
}
