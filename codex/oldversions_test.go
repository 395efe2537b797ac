package codex_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// TestShellApplyPatch: before the freeform apply_patch tool (Codex before
// ~0.100 with the models it did not know, recorded with 0.50.0, 0.77.0 and
// 0.95.0), the model edits files by running apply_patch through the shell
// tool, and Codex applies it as a patch (exec and app-server show a
// file_change). The rollout holds the shell call: it is an edit of the
// patch's files, with the files in its result as for apply_patch; any
// other command stays an execute.
func TestShellApplyPatch(t *testing.T) {
	// The patch as a JSON string's text, and as the text of a JSON string
	// inside one (a function call's arguments).
	patch := `*** Begin Patch\n*** Add File: hello.py\n+print(1)\n*** End Patch`
	inner := `*** Begin Patch\\n*** Add File: hello.py\\n+print(1)\\n*** End Patch`
	call := func(id, name, args string) string {
		return rolloutLine("response_item", `{"type":"function_call","name":"`+name+`","arguments":`+args+`,"call_id":"`+id+`"}`)
	}
	out := func(id string) string {
		return rolloutLine("response_item", `{"type":"function_call_output","call_id":"`+id+`","output":"{\"output\":\"Success. Updated the following files:\\nA hello.py\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"}`)
	}
	evs := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.50.0"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		call("a1", "shell", `"{\"command\":[\"apply_patch\",\"`+inner+`\"],\"workdir\":\"/w\"}"`), out("a1"),
		call("a2", "shell", `"{\"command\":[\"bash\",\"-lc\",\"cd /w && apply_patch <<'EOF'\\n`+inner+`\\nEOF\\n\"]}"`), out("a2"),
		call("a3", "shell_command", `"{\"command\":\"apply_patch <<'PATCH'\\n`+inner+`\\nPATCH\",\"workdir\":\"/w\"}"`), out("a3"),
		rolloutLine("response_item", `{"type":"local_shell_call","call_id":"a4","status":"completed","action":{"type":"exec","command":["applypatch","`+patch+`"]}}`), out("a4"),
		call("x1", "shell", `"{\"command\":[\"bash\",\"-lc\",\"cat hello.py\"]}"`), out("x1"),
		call("x2", "shell", `"{\"command\":[\"bash\",\"-lc\",\"apply_patch <<'EOF'\\n`+inner+`\"]}"`), out("x2"),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1","last_agent_message":null}`),
	})
	kinds := map[string]string{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		for _, p := range it.Content {
			if p.Type == universal.PartToolCall {
				kinds[p.CallID] = string(p.ToolKind)
				if p.ToolKind == universal.ToolEdit && (p.ToolInput == nil || !slices.Equal(p.ToolInput.Paths, []string{"/w/hello.py"})) {
					t.Errorf("%s: edit input %+v, want the path /w/hello.py", p.CallID, p.ToolInput)
				}
			}
		}
	}
	want := map[string]string{"a1": "edit", "a2": "edit", "a3": "edit", "a4": "edit", "x1": "execute", "x2": "execute"}
	for id, k := range want {
		if kinds[id] != k {
			t.Errorf("%s: tool kind %q, want %q", id, kinds[id], k)
		}
	}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
			id := it.Content[0].CallID
			refs := 0
			for _, p := range it.Content {
				if p.Type == universal.PartFileRef {
					refs++
				}
			}
			if (want[id] == "edit") != (refs > 0) {
				t.Errorf("result of %s: %d file refs", id, refs)
			}
		}
	}
}

// TestNewConversation: the v1 app-server (Codex before ~0.6x, recorded
// with 0.50.0) has no thread/start: the host opens a conversation with
// newConversation {cwd, approvalPolicy, sandbox}, answered
// {conversationId, model, rolloutPath}, and the session's events come as
// codex/event/* notifications. The session starts from that answer, with
// its metadata, in the exchange and (the answer told by its shape) in the
// server's lines alone.
func TestNewConversation(t *testing.T) {
	resp := `{"id":1,"result":{"conversationId":"c1","model":"gpt-5.5","rolloutPath":"/h/.codex/sessions/rollout-c1.jsonl"}}`
	server := []string{
		`{"id":0,"result":{"userAgent":"codex_cli_rs/0.50.0"}}`, resp, `{"id":2,"result":{"subscriptionId":"s1"}}`, `{"id":3,"result":{}}`,
		`{"method":"codex/event/task_started","params":{"id":"0","msg":{"type":"task_started","model_context_window":258400},"conversationId":"c1"}}`,
		`{"method":"codex/event/agent_message","params":{"id":"0","msg":{"type":"agent_message","message":"Hi."},"conversationId":"c1"}}`,
		`{"method":"codex/event/task_complete","params":{"id":"0","msg":{"type":"task_complete","last_agent_message":"Hi."},"conversationId":"c1"}}`,
	}
	host := []string{
		`in {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientInfo":{"name":"cl","version":"1"}}}`,
		`in {"jsonrpc":"2.0","id":1,"method":"newConversation","params":{"cwd":"/w","approvalPolicy":"never","sandbox":"danger-full-access"}}`,
		`in {"jsonrpc":"2.0","id":2,"method":"addConversationListener","params":{"conversationId":"c1"}}`,
		`in {"jsonrpc":"2.0","id":3,"method":"sendUserMessage","params":{"conversationId":"c1","items":[{"type":"text","data":{"text":"Hello"}}]}}`,
	}
	exchange := []string{host[0], server[0], host[1], server[1], host[2], server[2], host[3], server[3]}
	exchange = append(exchange, server[4:]...)
	for _, tc := range []struct {
		format string
		lines  []string
		want   string
	}{
		{codex.FormatExchange, exchange, `{"agent":"codex","model":"gpt-5.5","cwd":"/w","approval_policy":"never","sandbox_mode":"danger-full-access","rollout_path":"/h/.codex/sessions/rollout-c1.jsonl","client":{"name":"cl","version":"1"}}`},
		{codex.FormatAppServer, server, `{"agent":"codex","model":"gpt-5.5","rollout_path":"/h/.codex/sessions/rollout-c1.jsonl"}`},
	} {
		evs := run(t, tc.format, nil, tc.lines)
		s := golden.OfType(evs, universal.TypeSessionStarted)
		if len(s) != 1 {
			t.Fatalf("%s: %d session.started", tc.format, len(s))
		}
		if s[0].Synthetic || s[0].NativeSessionID != "c1" {
			t.Errorf("%s: session.started synthetic %v, native id %q", tc.format, s[0].Synthetic, s[0].NativeSessionID)
		}
		if got := string(s[0].Data.(*universal.SessionStarted).Metadata); got != tc.want {
			t.Errorf("%s: metadata\n %s\nwant\n %s", tc.format, got, tc.want)
		}
	}
}

// TestDeclinedTwice: app-servers before 0.100 (recorded: 0.77.0, 0.95.0)
// complete a declined command twice: status declined with no output, then
// failed with the text the model got ("exec command rejected by user").
// The one result shows that text; where no second completion follows
// (0.100 and later) the result is the declined one, before what comes next.
func TestDeclinedTwice(t *testing.T) {
	item := func(ev, status, out string) string {
		return `{"method":"item/` + ev + `","params":{"item":{"type":"commandExecution","id":"c1","command":"rm -f a","cwd":"/w","status":"` + status + `","aggregatedOutput":` + out + `,"exitCode":null},"threadId":"th1","turnId":"tu1"}}`
	}
	legacyEnd := `{"method":"codex/event/exec_command_end","params":{"id":"0","msg":{"type":"exec_command_end","call_id":"c1","stdout":"","stderr":"exec command rejected by user","exit_code":-1},"conversationId":"th1"}}`
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"twice", []string{thStarted, turnStarted, item("started", "inProgress", "null"), approval, item("completed", "declined", "null"), legacyEnd,
			item("completed", "failed", `"exec command rejected by user"`), agentDone, turnDone}, "exec command rejected by user"},
		{"once", []string{thStarted, turnStarted, item("started", "inProgress", "null"), approval, item("completed", "declined", "null"), agentDone, turnDone}, ""},
		{"at the end", []string{thStarted, turnStarted, item("started", "inProgress", "null"), approval, item("completed", "declined", "null")}, ""},
	} {
		evs := run(t, codex.FormatAppServer, nil, tc.lines)
		n := 0
		for i, e := range evs {
			it, ok := e.Data.(*universal.ItemSnapshot)
			if !ok || e.Type != universal.TypeItemCompleted || it.Item.Kind != universal.KindToolResult {
				continue
			}
			n++
			p := it.Item.Content[0]
			if p.Output != tc.want || !p.IsError || it.Item.Status != universal.StatusFailed {
				t.Errorf("%s: result %q is_error %v status %s; want %q, failed", tc.name, p.Output, p.IsError, it.Item.Status, tc.want)
			}
			for _, later := range evs[:i] {
				if s, ok := later.Data.(*universal.ItemSnapshot); ok && s.Item.Kind == universal.KindMessage && s.Item.Role == universal.RoleAssistant && later.Type == universal.TypeItemCompleted && s.Item.Content[0].Text == "Done." {
					t.Errorf("%s: the result comes after the answer", tc.name)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d results, want 1", tc.name, n)
		}
	}
}

// TestLegacyErrorThenComplete: the v1 app-server (0.50.0) reports a failed
// turn as an error event followed by a task_complete without an error:
// the turn ends in error, as exec's turn.failed shows it.
func TestLegacyErrorThenComplete(t *testing.T) {
	ev := func(typ, fields string) string {
		return `{"method":"codex/event/` + typ + `","params":{"id":"0","msg":{"type":"` + typ + `"` + fields + `},"conversationId":"c1"}}`
	}
	evs := run(t, codex.FormatAppServer, nil, []string{
		`{"id":1,"result":{"conversationId":"c1","model":"gpt-5.5","rolloutPath":"/r.jsonl"}}`,
		ev("task_started", `,"model_context_window":258400`),
		ev("error", `,"message":"unexpected status 400 Bad Request"`),
		ev("task_complete", `,"last_agent_message":null`),
	})
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Fatalf("turn ends %+v, want one in error", ends)
	}
	if s := golden.OfType(evs, universal.TypeSessionEnded); len(s) != 1 || s[0].Data.(*universal.SessionEnded).Reason != "error" {
		t.Errorf("session end %+v, want reason error", s)
	}
}

// TestLegacyExecExit: the pre-0.44 exec output (0.28.0) prints no
// task_complete: the process exits when the task completes. An exit 0
// ends the open turn (in error after an error event, 0.28 exits 0 then
// too); the end of input alone leaves it open, as a cut stream.
func TestLegacyExecExit(t *testing.T) {
	head := []string{`{"model":"gpt-5.5","approval":"never","workdir":"/w"}`, `{"prompt":"Hi"}`,
		`{"id":"0","msg":{"type":"task_started","model_context_window":null}}`}
	answer := append(append([]string{}, head...), `{"id":"0","msg":{"type":"agent_message","message":"Hello."}}`)
	failed := append(append([]string{}, head...), `{"id":"0","msg":{"type":"error","message":"unexpected status 400 Bad Request"}}`)
	for _, tc := range []struct {
		name  string
		lines []string
		end   universal.Report
		turn  universal.TurnStatus
	}{
		{"answer, exit 0", answer, universal.Exit{Code: 0}, universal.TurnCompleted},
		{"error, exit 0", failed, universal.Exit{Code: 0}, universal.TurnError},
		{"answer, end of input", answer, universal.EndOfInput{}, universal.TurnInterrupted},
		{"answer, exit 1", answer, universal.Exit{Code: 1}, universal.TurnInterrupted},
	} {
		evs := run(t, codex.FormatExec, nil, tc.lines, tc.end)
		ends := golden.OfType(evs, universal.TypeTurnEnded)
		if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != tc.turn {
			t.Errorf("%s: turn ends %+v, want %s", tc.name, ends, tc.turn)
		}
	}
}

// TestSandboxDenied: 0.28's rollout output of a command the sandbox
// denied ("failed in sandbox LinuxSeccomp with execution error: …") is a
// failed result, as exec's exit code -1 shows it.
func TestSandboxDenied(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.28.0"}`),
		rolloutLine("response_item", `{"type":"message","role":"user","content":[{"type":"input_text","text":"Delete a."}]}`),
		rolloutLine("response_item", `{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"rm -f a\"]}","call_id":"s1"}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"s1","output":"failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1, stdout: , stderr: rm: cannot remove 'a': Permission denied\n"}`),
	})
	if p, ok := results(evs)["s1"]; !ok || !p.IsError {
		t.Errorf("result %+v, want an error", p)
	}
}

// TestLegacyCallModel: the model the pre-0.44 exec configuration summary
// (0.28.0) and the v1 app-server's newConversation answer (0.50.0) name
// runs the session's calls: their call usage (legacy token_count) names it.
func TestLegacyCallModel(t *testing.T) {
	tc := `{"type":"token_count","input_tokens":10,"cached_input_tokens":0,"output_tokens":2,"reasoning_output_tokens":0,"total_tokens":12}`
	for _, c := range []struct {
		format string
		lines  []string
	}{
		{codex.FormatExec, []string{`{"model":"gpt-5.5","reasoning effort":"medium","workdir":"/w"}`, `{"prompt":"Hi"}`,
			`{"id":"0","msg":{"type":"task_started","model_context_window":null}}`, `{"id":"0","msg":` + tc + `}`}},
		{codex.FormatAppServer, []string{`{"id":1,"result":{"conversationId":"c1","model":"gpt-5.5","rolloutPath":"/r.jsonl"}}`,
			`{"method":"codex/event/task_started","params":{"id":"0","msg":{"type":"task_started"},"conversationId":"c1"}}`,
			`{"method":"codex/event/token_count","params":{"id":"0","msg":{"type":"token_count","info":{"last_token_usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":2,"reasoning_output_tokens":0,"total_tokens":12},"total_token_usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":2,"reasoning_output_tokens":0,"total_tokens":12}}},"conversationId":"c1"}}`}},
	} {
		evs := run(t, c.format, nil, c.lines)
		n := 0
		for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
			if u := e.Data.(*universal.UsageUpdated); u.Scope == universal.ScopeCall {
				n++
				if !strings.Contains(string(u.Metadata), `"model":"gpt-5.5"`) {
					t.Errorf("%s: call usage metadata %s, want the model", c.format, u.Metadata)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no call usage", c.format)
		}
	}
}

// TestLegacyExecResume: `codex exec resume` appends its own configuration
// summary, prompt and events to the pre-0.44 exec output (0.40.0's
// s06-multiturn). That summary starts the next process: the earlier one
// exited, which ends its turn (the output prints no task_complete), and
// the new process's token_count totals count from 0, so the session's
// usage is both processes' (was: "exec line without a type", the first
// turn left open under the second, the session's usage the second's
// alone).
func TestLegacyExecResume(t *testing.T) {
	summary := `{"model":"gpt-5.5","approval":"never","sandbox":"danger-full-access","workdir":"/w"}`
	tokens := func(in, out int) string {
		return fmt.Sprintf(`{"id":"0","msg":{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":0,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d},"last_token_usage":{"input_tokens":%d,"cached_input_tokens":0,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d},"model_context_window":272000}}}`, in, out, in+out, in, out, in+out)
	}
	evs := run(t, codex.FormatExec, nil, []string{
		summary, `{"prompt":"Remember 42."}`,
		`{"id":"0","msg":{"type":"task_started","model_context_window":272000}}`,
		`{"id":"0","msg":{"type":"agent_message","message":"Got it."}}`, tokens(1250, 9),
		summary, `{"prompt":"Which number?"}`,
		`{"id":"0","msg":{"type":"task_started","model_context_window":272000}}`,
		`{"id":"0","msg":{"type":"agent_message","message":"42."}}`, tokens(1300, 9),
	}, universal.Exit{Code: 0})
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Errorf("unparsed %+v", u[0].Data)
	}
	var turns []string
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *universal.TurnStarted:
			turns = append(turns, "start "+d.TurnID)
		case *universal.TurnEnded:
			turns = append(turns, "end "+d.TurnID+" "+string(d.Status))
		}
	}
	if diff := cmp.Diff([]string{"start turn_1", "end turn_1 completed", "start turn_2", "end turn_2 completed"}, turns); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	var session []int64
	for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
		if u := e.Data.(*universal.UsageUpdated); u.Scope == universal.ScopeSession {
			session = append(session, *u.Usage.InputTokens)
		}
	}
	if diff := cmp.Diff([]int64{1250, 2550}, session); diff != "" {
		t.Errorf("session input tokens (-want +got):\n%s", diff)
	}
}

// TestEarlyV2Usage: 0.63's v2 app-server sends no
// thread/tokenUsage/updated; its usage is only in the legacy
// codex/event/token_count it sends alongside (was: skipped as a copy of a
// v2 notification, no usage at all). Servers that send both (0.77 on)
// send the legacy copy first: a call is still reported once.
func TestEarlyV2Usage(t *testing.T) {
	legacy := `{"method":"codex/event/token_count","params":{"id":"0","msg":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1250,"cached_input_tokens":0,"output_tokens":9,"reasoning_output_tokens":0,"total_tokens":1259},"last_token_usage":{"input_tokens":1250,"cached_input_tokens":0,"output_tokens":9,"reasoning_output_tokens":0,"total_tokens":1259},"model_context_window":258400}},"conversationId":"th1"}}`
	v2 := `{"method":"thread/tokenUsage/updated","params":{"threadId":"th1","turnId":"0","tokenUsage":{"total":{"totalTokens":1259,"inputTokens":1250,"cachedInputTokens":0,"outputTokens":9,"reasoningOutputTokens":0},"last":{"totalTokens":1259,"inputTokens":1250,"cachedInputTokens":0,"outputTokens":9,"reasoningOutputTokens":0},"modelContextWindow":258400}}}`
	head := []string{
		`{"id":1,"result":{"thread":{"id":"th1","preview":"","modelProvider":"mock","createdAt":1796292746}}}`,
		`{"method":"turn/started","params":{"turn":{"id":"0","items":[],"status":"inProgress"}}}`,
		`{"method":"item/started","params":{"item":{"type":"agentMessage","id":"m1","text":""}}}`,
		`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"m1","text":"Hi."}}}`,
	}
	end := `{"method":"turn/completed","params":{"turn":{"id":"0","items":[],"status":"completed"}}}`
	for _, c := range []struct {
		name  string
		lines []string
	}{
		{"0.63: legacy only", append(append([]string{}, head...), legacy, end)},
		{"0.77: legacy, then v2", append(append([]string{}, head...), legacy, v2, end)},
	} {
		var calls, sessions int
		for _, e := range golden.OfType(run(t, codex.FormatAppServer, nil, c.lines), universal.TypeUsageUpdated) {
			switch u := e.Data.(*universal.UsageUpdated); u.Scope {
			case universal.ScopeCall:
				calls++
			case universal.ScopeSession:
				sessions++
				if *u.Usage.InputTokens != 1250 {
					t.Errorf("%s: session input tokens %d, want 1250", c.name, *u.Usage.InputTokens)
				}
			}
		}
		if calls != 1 || sessions != 1 {
			t.Errorf("%s: %d call and %d session usages, want one each", c.name, calls, sessions)
		}
	}
}
