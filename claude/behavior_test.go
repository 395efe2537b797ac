package claude_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// feed translates lines ("in:" marks a line the host wrote) after the
// reports, ends with end (EndOfInput when nil), checks the stream and
// returns the events.
func feed(t *testing.T, format string, reports []universal.Report, end universal.Report, lines ...string) []universal.Event {
	t.Helper()
	tr, err := claude.New(format, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for _, r := range reports {
		evs = tr.Report(evs, r)
	}
	for i, l := range lines {
		m := universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1}
		if s, ok := strings.CutPrefix(l, "in:"); ok {
			m.Dir, m.Data = universal.In, []byte(s)
		}
		evs = tr.Translate(evs, m)
	}
	if end == nil {
		end = universal.EndOfInput{}
	}
	evs = tr.Report(evs, end)
	if err := universal.CheckStream(evs); err != nil {
		t.Fatalf("stream checker: %v", err)
	}
	return evs
}

// completed returns the final snapshots of the items of a kind and role
// ("" matches any role).
func completed(evs []universal.Event, kind universal.Kind, role universal.Role) []universal.Item {
	var out []universal.Item
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == kind && (role == "" || it.Role == role) {
			out = append(out, it)
		}
	}
	return out
}

const (
	initLine   = `{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w","tools":[],"claude_code_version":"2.1.330"}`
	resultLine = `{"type":"result","subtype":"success","is_error":false,"result":"ok","usage":{"input_tokens":1,"output_tokens":1},"session_id":"s1"}`
)

func TestUnparsed(t *testing.T) {
	cases := map[string]string{
		"noise":             "nvm: using node v22",
		"truncated":         `{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"cut`,
		"array":             `[1,2]`,
		"no type":           `{"hello":"world"}`,
		"unknown type":      `{"type":"brand_new_thing"}`,
		"unknown subtype":   `{"type":"system","subtype":"brand_new"}`,
		"unknown event":     `{"type":"stream_event","event":{"type":"brand_new"}}`,
		"unknown delta":     `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"brand_new"}}}`,
		"unknown request":   `{"type":"control_request","request_id":"r","request":{"subtype":"brand_new"}}`,
		"unknown progress":  `{"type":"progress","data":{"type":"brand_new"}}`,
		"content not array": `{"type":"user","message":{"role":"user","content":7}}`,
	}
	for name, line := range cases {
		t.Run(name, func(t *testing.T) {
			evs := feed(t, claude.FormatStreamJSON, nil, nil, line)
			u := golden.OfType(evs, universal.TypeUnparsed)
			if len(u) != 1 {
				t.Fatalf("%d agent.unparsed, want 1", len(u))
			}
			if d := u[0].Data.(*universal.Unparsed); !strings.HasPrefix(d.Location, "claude: line 1") || d.RawHash == "" {
				t.Errorf("unparsed %+v", d)
			}
		})
	}
	t.Run("delta of another block type", func(t *testing.T) {
		// Found by the fuzzer: a delta whose type does not match its
		// block's is reported, not passed on for the Stream to refuse.
		evs := feed(t, claude.FormatStreamJSON, nil, nil,
			`{"type":"stream_event","event":{"type":"content_block_start","index":0},"api_message_id":"m"}`,
			`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"0"}},"api_message_id":"m"}`)
		u := golden.OfType(evs, universal.TypeUnparsed)
		if len(u) != 1 || u[0].Data.(*universal.Unparsed).Location != "claude: line 2: event.delta.type" {
			t.Fatalf("agent.unparsed %+v, want one at line 2", u)
		}
	})
	t.Run("framing error", func(t *testing.T) {
		tr, _ := claude.New(claude.FormatStreamJSON, golden.Options())
		evs := tr.Translate(nil, universal.Message{Data: []byte(`{"type":`), Line: 3, Err: errors.New("too long")})
		if len(evs) != 0 {
			t.Fatalf("%d events before the session started, want the unparsed message held", len(evs))
		}
		evs = tr.Report(evs, universal.EndOfInput{})
		if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 1 || u[0].Data.(*universal.Unparsed).Error != "too long" {
			t.Fatalf("got %v", evs)
		}
	})
	t.Run("host", func(t *testing.T) {
		evs := feed(t, claude.FormatExchange, nil, nil, `in:{"type":"control_request","request_id":"x","request":{"subtype":"brand_new"}}`, `in:{"type":"brand_new"}`)
		if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 2 {
			t.Fatalf("%d agent.unparsed, want 2", len(u))
		}
	})
}

// TestIgnored: every type on the ignore list is consumed without events.
func TestIgnored(t *testing.T) {
	lines := []string{
		`{"type":"keep_alive"}`, `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}}`,
		`{"type":"tool_progress","tool_use_id":"t","elapsed_time_seconds":1}`, `{"type":"tool_use_summary","summary":"x"}`,
		`{"type":"auth_status","isAuthenticating":false}`, `{"type":"prompt_suggestion","suggestion":"x"}`,
		`{"type":"active_goal","value":null}`,
		`{"type":"control_request","request_id":"h","request":{"subtype":"hook_callback","callback_id":"c"}}`,
		`{"type":"stream_event","event":{"type":"ping"}}`,
	}
	for _, sub := range []string{"status", "thinking_tokens", "hook_started", "hook_progress", "hook_response",
		"stop_hook_summary", "task_progress", "task_updated", "background_tasks_changed", "session_state_changed",
		"plugin_install", "files_persisted", "memory_recall",
		"elicitation_complete", "control_request_progress", "commands_changed", "worker_shutting_down", "mirror_error",
		"session_writes_lost"} {
		lines = append(lines, `{"type":"system","subtype":"`+sub+`"}`)
	}
	for _, typ := range []string{"summary", "ai-title", "custom-title", "file-history-snapshot", "queue-operation",
		"last-prompt", "attachment", "atis-latch", "api-request", "api-request-blob", "api-request-shape", "tools-used",
		"mode", "permission-mode", "file-history-delta", "pr-link", "bridge-session", "teleported-from"} {
		lines = append(lines, `{"type":"`+typ+`"}`)
	}
	for _, pt := range []string{"hook_progress", "bash_progress", "mcp_progress", "waiting_for_task", "query_update", "search_results_received"} {
		lines = append(lines, `{"type":"progress","data":{"type":"`+pt+`"}}`)
	}
	lines = append(lines, `in:{"type":"control_request","request_id":"i","request":{"subtype":"initialize"}}`,
		`in:{"type":"control_request","request_id":"j","request":{"subtype":"interrupt"}}`, `in:{"type":"keep_alive"}`,
		`in:{"type":"control_response","response":{"subtype":"success","request_id":"h","response":{}}}`,
		// The CLI's answer to the host's request (after it: an answer to a
		// request never sent is reported).
		`{"type":"control_response","response":{"subtype":"success","request_id":"i"}}`)
	evs := feed(t, claude.FormatExchange, nil, nil, lines...)
	if len(evs) != 2 { // the synthetic session.started and session.ended
		for _, e := range evs {
			t.Log(string(e.AppendJSON(nil)))
		}
		t.Fatalf("%d events, want 2", len(evs))
	}
}

// TestPromptsNotDuplicated: prompts reported by the host and also seen in
// the native input appear once.
func TestPromptsNotDuplicated(t *testing.T) {
	t.Run("exchange", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(recorded, "s06-multiturn-stdin.exchange.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		reports := []universal.Report{universal.Prompt{Text: "Remember the word pineapple."}, universal.Prompt{Text: "Which word did I ask you to remember?"}}
		c := golden.Case{Framing: golden.Exchange, New: newFor(claude.FormatExchange), Reports: reports}
		evs, err := c.Translate(data, golden.Options(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		users := completed(evs, universal.KindMessage, universal.RoleUser)
		if len(users) != 2 || users[0].Content[0].Text != "Remember the word pineapple." {
			t.Fatalf("user messages %v", users)
		}
		for _, e := range golden.OfType(evs, universal.TypeItemStarted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleUser && e.Source != universal.SourceAgent {
				t.Errorf("prompt %s shown from the report, want the native stdin message", it.ItemID)
			}
		}
	})
	t.Run("transcript", func(t *testing.T) {
		mains, _ := filepath.Glob(filepath.Join(recorded, "s06-multiturn.session", "*", "*.jsonl"))
		data, err := os.ReadFile(mains[0])
		if err != nil {
			t.Fatal(err)
		}
		reports := []universal.Report{universal.Prompt{Text: "Remember the word pineapple."}, universal.Prompt{Text: "Which word did I ask you to remember?"}}
		c := golden.Case{Framing: golden.Lines, New: newFor(claude.FormatTranscript), Reports: reports}
		evs, err := c.Translate(data, golden.Options(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if users := completed(evs, universal.KindMessage, universal.RoleUser); len(users) != 2 {
			t.Fatalf("%d user messages, want 2", len(users))
		}
		if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 2 {
			t.Errorf("%d turns, want 2", n)
		}
	})
	t.Run("replay", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, []universal.Report{universal.Prompt{Text: "hi"}}, nil,
			initLine,
			`{"type":"user","message":{"role":"user","content":"hi"},"isReplay":true,"session_id":"s1","uuid":"u1"}`,
			resultLine)
		if users := completed(evs, universal.KindMessage, universal.RoleUser); len(users) != 1 {
			t.Fatalf("%d user messages, want 1", len(users))
		}
	})
	t.Run("leftover", func(t *testing.T) {
		// A prompt no turn took is still shown before the session ends.
		evs := feed(t, claude.FormatStreamJSON, []universal.Report{universal.Prompt{Text: "a"}, universal.Prompt{Text: "b"}}, nil, initLine, resultLine)
		if users := completed(evs, universal.KindMessage, universal.RoleUser); len(users) != 2 || users[1].Content[0].Text != "b" {
			t.Fatalf("user messages %v", users)
		}
	})
}

// TestResultsMatchedByID: parallel results in completion order go to
// their own calls.
func TestResultsMatchedByID(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"A","name":"Bash","input":{"command":"a"}}]},"parent_tool_use_id":null}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"B","name":"Read","input":{"file_path":"b"}}]},"parent_tool_use_id":null}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"B","content":"from B"}]},"parent_tool_use_id":null}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"A","content":[{"type":"text","text":"from"},{"type":"text","text":"A"}],"is_error":true}]},"parent_tool_use_id":null}`,
		resultLine)
	calls := completed(evs, universal.KindToolCall, "")
	results := completed(evs, universal.KindToolResult, "")
	if len(calls) != 2 || len(results) != 2 {
		t.Fatalf("%d calls, %d results", len(calls), len(results))
	}
	want := map[string]string{"B": "from B", "A": "from\nA"}
	for _, r := range results {
		p := r.Content[0]
		if p.Output != want[p.CallID] {
			t.Errorf("result for %s: %q, want %q", p.CallID, p.Output, want[p.CallID])
		}
		if (p.CallID == "A") != (r.Status == universal.StatusFailed && p.IsError) {
			t.Errorf("result for %s: status %s is_error %v", p.CallID, r.Status, p.IsError)
		}
		if r.ParentID != calls[0].ParentID {
			t.Errorf("result parent %s, want the message item %s", r.ParentID, calls[0].ParentID)
		}
	}
}

// TestPartialMessageParts: an empty thinking block (only a signature)
// before streamed text keeps its place; the complete lines add no text.
func TestPartialMessageParts(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"api_message_id":"m1"}`
	}
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		se(`{"type":"message_start","message":{"id":"m1","usage":{"input_tokens":5,"cache_read_input_tokens":100,"cache_creation_input_tokens":10,"output_tokens":1}}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"","estimated_tokens":12}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}`),
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"","signature":"c2ln"}]},"parent_tool_use_id":null}`,
		se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`),
		se(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hel"}}`),
		se(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"lo"}}`),
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Hello"}]},"parent_tool_use_id":null}`,
		se(`{"type":"content_block_stop","index":1}`),
		se(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}`),
		se(`{"type":"message_stop"}`),
		resultLine)
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 1 {
		t.Fatalf("%d assistant messages", len(msgs))
	}
	c := msgs[0].Content
	if len(c) != 2 || c[0].Type != universal.PartReasoning || c[0].Signature != "c2ln" || c[0].Text != "" || c[1].Text != "Hello" {
		t.Fatalf("content %+v", c)
	}
	var deltas []string
	for _, e := range golden.OfType(evs, universal.TypeItemDelta) {
		d := e.Data.(*universal.ItemDelta)
		if d.PartIndex != 1 || e.Source != universal.SourceAgent {
			t.Errorf("delta %+v from %s", d, e.Source)
		}
		deltas = append(deltas, d.Delta)
	}
	if strings.Join(deltas, "") != "Hello" {
		t.Errorf("deltas %q", deltas)
	}
	for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
		if d := e.Data.(*universal.UsageUpdated); d.Scope == universal.ScopeCall {
			if *d.Usage.InputTokens != 115 || *d.Usage.CachedInputTokens != 100 || *d.Usage.CacheWriteTokens != 10 || *d.Usage.OutputTokens != 7 {
				t.Errorf("call usage %+v", d.Usage)
			}
		}
	}
}

// TestAbandonedToolBlock: a stream broken inside a tool call fails both
// the message and the call, and the retry is announced.
func TestAbandonedToolBlock(t *testing.T) {
	se := func(ev, extra string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"api_message_id":"m1"` + extra + `}`
	}
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		se(`{"type":"message_start","message":{"id":"m1"}}`, ""),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"T","name":"Bash","input":{}}}`, ""),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"comm"}}`, ""),
		se(`{"type":"content_block_stop","index":0}`, ""),
		se(`{"type":"message_stop"}`, `,"abandoned_blocks":{"api_message_id":"m1","from_block_index":0}`),
		resultLine)
	if calls := completed(evs, universal.KindToolCall, ""); len(calls) != 1 || calls[0].Status != universal.StatusFailed {
		t.Fatalf("calls %+v", calls)
	}
	if msgs := completed(evs, universal.KindMessage, universal.RoleAssistant); len(msgs) != 1 || msgs[0].Status != universal.StatusFailed {
		t.Fatalf("messages %+v", msgs)
	}
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 || !errs[0].Data.(*universal.Error).WillRetry {
		t.Fatalf("errors %v", errs)
	}
}

// TestQuestionOverControlProtocol: AskUserQuestion asked through
// can_use_tool and answered with the host's allow; no permission.
func TestQuestionOverControlProtocol(t *testing.T) {
	evs := feed(t, claude.FormatExchange, nil, nil,
		`in:{"type":"user","message":{"role":"user","content":"pick"},"session_id":""}`,
		initLine,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"Q","name":"AskUserQuestion","input":{"questions":[{"question":"Color?","header":"C","multiSelect":false,"options":[{"label":"red"},{"label":"blue"}]},{"question":"Size?","header":"S","multiSelect":true,"options":[{"label":"S"},{"label":"L"}]}]}}]},"parent_tool_use_id":null}`,
		`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"AskUserQuestion","input":{},"tool_use_id":"Q"}}`,
		`in:{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"behavior":"allow","updatedInput":{"answers":{"Color?":"blue","Size?":"S, L"}}}}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"Q","content":"User has answered"}]},"parent_tool_use_id":null}`,
		resultLine)
	if p := golden.OfType(evs, universal.TypePermissionRequested); len(p) != 0 {
		t.Fatalf("permission for a question: %v", p)
	}
	req, res := golden.OfType(evs, universal.TypeQuestionRequested), golden.OfType(evs, universal.TypeQuestionResolved)
	if len(req) != 1 || len(res) != 1 {
		t.Fatalf("%d requested, %d resolved", len(req), len(res))
	}
	q := req[0].Data.(*universal.Question)
	if q.QuestionID != "Q" || q.Prompt != "Color?" || strings.Join(q.Options, ",") != "red,blue" || !strings.Contains(string(q.Metadata), "Size?") {
		t.Errorf("requested %+v", q)
	}
	a := res[0].Data.(*universal.Question)
	if a.Status != universal.QuestionAnswered || a.Response != "Color?: blue\nSize?: S, L" || res[0].Source != universal.SourceAgent {
		t.Errorf("resolved %+v", a)
	}
}

// TestPermissionRepliesAndCancel: a pending can_use_tool is resolved by
// the host's report, or denied when the request is cancelled.
func TestPermissionRepliesAndCancel(t *testing.T) {
	call := `{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"T","name":"Bash","input":{"command":"x"}}]},"parent_tool_use_id":null}`
	ask := `{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"x"},"tool_use_id":"T"}}`
	t.Run("reply", func(t *testing.T) {
		tr, _ := claude.New(claude.FormatStreamJSON, golden.Options())
		var evs []universal.Event
		for i, l := range []string{initLine, call, ask} {
			evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1)})
		}
		evs = tr.Report(evs, universal.PermissionReply{PermissionID: "r1", Approved: true, Decision: "allow"})
		evs = tr.Report(evs, universal.PermissionReply{PermissionID: "r1", Approved: false}) // a second answer changes nothing
		evs = tr.Report(evs, universal.EndOfInput{})
		if err := universal.CheckStream(evs); err != nil {
			t.Fatal(err)
		}
		res := golden.OfType(evs, universal.TypePermissionResolved)
		if len(res) != 1 {
			t.Fatalf("%d resolutions", len(res))
		}
		if p := res[0].Data.(*universal.Permission); p.Status != universal.PermissionApproved || p.CallID != "T" || p.ItemID == "" || !res[0].Synthetic {
			t.Errorf("resolved %+v", p)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, call, ask, `{"type":"control_cancel_request","request_id":"r1"}`, resultLine)
		res := golden.OfType(evs, universal.TypePermissionResolved)
		if len(res) != 1 || res[0].Data.(*universal.Permission).Status != universal.PermissionDenied {
			t.Fatalf("resolutions %v", res)
		}
	})
	t.Run("request before call", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, ask, call, resultLine)
		calls := completed(evs, universal.KindToolCall, "")
		req := golden.OfType(evs, universal.TypePermissionRequested)
		if len(calls) != 1 || len(req) != 1 || req[0].Data.(*universal.Permission).ItemID != calls[0].ItemID {
			t.Fatalf("calls %v, requests %v", calls, req)
		}
	})
}

// TestPublicFragments uses the two result fragments of the public gleam
// samples: a permission_denials entry inside a result line.
func TestPublicFragments(t *testing.T) {
	denial, err := os.ReadFile(filepath.Join(public, "gleam-sdk__stream-json__permission_denial.json"))
	if err != nil {
		t.Fatal(err)
	}
	result := `{"type":"result","subtype":"success","is_error":false,"permission_denials":[` + strings.Join(strings.Fields(string(denial)), " ") + `]}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, result)
	req, res := golden.OfType(evs, universal.TypePermissionRequested), golden.OfType(evs, universal.TypePermissionResolved)
	if len(req) != 1 || len(res) != 1 {
		t.Fatalf("%d requested, %d resolved", len(req), len(res))
	}
	p := res[0].Data.(*universal.Permission)
	if p.Status != universal.PermissionDenied || p.CallID != "toolu_01XyZ789AbCdEfGhIjKlMnOp" || p.Action != "Bash" || !strings.Contains(string(p.Metadata), "rm -rf") {
		t.Errorf("resolved %+v", p)
	}
}

// TestSessionEnd: the end reason from the last result, the exit code, or a
// termination.
func TestSessionEnd(t *testing.T) {
	end := func(evs []universal.Event) *universal.SessionEnded {
		return evs[len(evs)-1].Data.(*universal.SessionEnded)
	}
	interrupted := `{"type":"result","subtype":"error_during_execution","is_error":true,"terminal_reason":"aborted_streaming","errors":["[ede_diagnostic] result_type=user"]}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, interrupted)
	if d := end(evs); d.Reason != universal.EndCompleted {
		t.Errorf("after an interrupted turn: %+v", d)
	}
	if te := golden.OfType(evs, universal.TypeTurnEnded); te[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted || len(golden.OfType(evs, universal.TypeError)) != 0 {
		t.Errorf("interrupted turn: %v", te)
	}
	failed := `{"type":"result","subtype":"success","is_error":true,"result":"API Error: 500","terminal_reason":"api_error"}`
	evs = feed(t, claude.FormatStreamJSON, nil, nil, initLine, failed)
	if d := end(evs); d.Reason != universal.EndError || d.Message != "API Error: 500" {
		t.Errorf("after a failed turn: %+v", d)
	}
	evs = feed(t, claude.FormatStreamJSON, nil, universal.Exit{Code: 1, Stderr: "boom"}, initLine, resultLine)
	if d := end(evs); d.Reason != universal.EndError || *d.ExitCode != 1 || d.Stderr != "boom" {
		t.Errorf("exit 1: %+v", d)
	}
	evs = feed(t, claude.FormatStreamJSON, nil, universal.Terminate{Message: "stop"}, initLine)
	if d := end(evs); d.Reason != universal.EndTerminated || d.TerminatedBy != universal.ByDaemon {
		t.Errorf("terminate: %+v", d)
	}
	evs = feed(t, claude.FormatStreamJSON, nil, nil, initLine, `{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"cut"}]}}`)
	if d := end(evs); d.Reason != universal.EndError {
		t.Errorf("no result: %+v", d)
	}
	// A lone result (--output-format json) is a whole turn.
	evs = feed(t, claude.FormatStreamJSON, nil, nil, resultLine)
	if len(golden.OfType(evs, universal.TypeTurnStarted)) != 1 || end(evs).Reason != universal.EndCompleted {
		t.Errorf("lone result: %v", evs)
	}
}

// TestNew: the constructor contract (golden.CheckNew).
func TestNew(t *testing.T) { golden.CheckNew(t, claude.Formats(), claude.New) }

// TestLateLine: an assistant line for a message that already completed
// adds no text; a tool call on it still appears under that message.
func TestLateLine(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"api_message_id":"m1"}`
	}
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		se(`{"type":"message_start","message":{"id":"m1"}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`),
		se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"message_stop"}`),
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Hi"}]},"parent_tool_use_id":null}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"T","name":"Bash","input":{}}]},"parent_tool_use_id":null}`,
		resultLine)
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	calls := completed(evs, universal.KindToolCall, "")
	if len(msgs) != 1 || msgs[0].Content[0].Text != "Hi" || len(calls) != 1 || calls[0].ParentID != msgs[0].ItemID {
		t.Fatalf("messages %+v, calls %+v", msgs, calls)
	}
}

// TestRareShapes covers native shapes the captures do not show.
func TestRareShapes(t *testing.T) {
	evs := feed(t, claude.FormatExchange, []universal.Report{universal.QuestionReply{QuestionID: "nobody", Response: "x"}}, nil,
		`in:{"type":"user","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"AAAA"}}]},"uuid":"h1"}`,
		initLine,
		// Server-side web search, redacted thinking, citations, an unknown block.
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"redacted_thinking","data":"enc"},{"type":"server_tool_use","id":"S","name":"web_search","input":{"query":"q"}},{"type":"web_search_tool_result","tool_use_id":"S","content":[{"type":"web_search_result","url":"https://e"}]},{"type":"text","text":"cited","citations":[{"type":"web_search_result_location","url":"https://e"}]},{"type":"container_upload","file_id":"f"}]},"parent_tool_use_id":null}`,
		`{"type":"system","subtype":"compact_boundary","compact_metadata":{"trigger":"auto","pre_tokens":1000},"uuid":"c1"}`,
		`{"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation."},"isSynthetic":true,"uuid":"u2"}`,
		`{"type":"system","subtype":"model_refusal_fallback","retracted_message_uuids":["x"],"uuid":"c2"}`,
		`{"type":"stream_event","event":{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}}`,
		`{"type":"system","subtype":"task_notification","task_id":"k","status":"failed","summary":"bash died"}`,
		`{"type":"conversation_reset","new_conversation_id":"s2"}`,
		resultLine)
	users := completed(evs, universal.KindMessage, universal.RoleUser)
	if len(users) != 1 || len(users[0].Content) != 2 || users[0].Content[1].Type != universal.PartImage || users[0].NativeItemID != "h1" {
		t.Errorf("host prompt %+v", users)
	}
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 1 {
		t.Fatalf("%d assistant messages", len(msgs))
	}
	c := msgs[0].Content
	if len(c) != 3 || c[0].Visibility != universal.VisibilityPrivate || c[1].Text != "cited" || !strings.Contains(string(c[1].Metadata), "citations") ||
		c[2].Type != universal.PartJSON || !strings.Contains(string(c[2].JSON), "container_upload") {
		t.Errorf("content %+v", c)
	}
	calls, results := completed(evs, universal.KindToolCall, ""), completed(evs, universal.KindToolResult, "")
	if len(calls) != 1 || len(results) != 1 || results[0].Content[0].CallID != "S" || results[0].ParentID != msgs[0].ItemID {
		t.Errorf("server tool: calls %+v results %+v", calls, results)
	}
	status := completed(evs, universal.KindStatus, "")
	if len(status) != 3 || status[0].Content[0].Label != "compaction" || status[1].Content[0].Label != "model_refusal_fallback" ||
		status[2].Content[0].Label != "failed" || status[2].Status != universal.StatusFailed {
		t.Errorf("status items %+v", status)
	}
	if sys := completed(evs, universal.KindSystem, ""); len(sys) != 1 {
		t.Errorf("system items %+v", sys)
	}
	if errs := golden.OfType(evs, universal.TypeError); len(errs) != 1 || !errs[0].Data.(*universal.Error).WillRetry {
		t.Errorf("errors %v", errs)
	}
	if last := evs[len(evs)-1]; last.NativeSessionID != "s2" {
		t.Errorf("native session after reset: %s", last.NativeSessionID)
	}
}

// TestQuestionReply: the host answers a question itself.
func TestQuestionReply(t *testing.T) {
	tr, _ := claude.New(claude.FormatStreamJSON, golden.Options())
	var evs []universal.Event
	for i, l := range []string{initLine,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"Q","name":"AskUserQuestion","input":{"questions":[{"question":"Go?","options":[{"label":"yes"},{"label":"no"}]}]}}]},"parent_tool_use_id":null}`} {
		evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1)})
	}
	evs = tr.Report(evs, universal.QuestionReply{QuestionID: "Q", Response: "yes"})
	evs = tr.Translate(evs, universal.Message{Data: []byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"Q","content":"ok"}]},"tool_use_result":{"answers":{"Go?":"no"}}}`), Line: 3})
	evs = tr.Report(evs, universal.EndOfInput{})
	if err := universal.CheckStream(evs); err != nil {
		t.Fatal(err)
	}
	res := golden.OfType(evs, universal.TypeQuestionResolved)
	if len(res) != 1 {
		t.Fatalf("%d resolutions", len(res))
	}
	if q := res[0].Data.(*universal.Question); q.Response != "yes" || q.Prompt != "Go?" || !res[0].Synthetic {
		t.Errorf("resolved %+v", q)
	}
}

// TestEchoConvention: live user messages that are the host's prompt (a
// --replay-user-messages echo, the host's stdin line) are marked echo; a
// transcript's prompt, a reported prompt (synthetic) and a sub-agent's
// prompt are not.
func TestEchoConvention(t *testing.T) {
	user := `{"type":"user","message":{"role":"user","content":"hi"},"isReplay":true,"session_id":"s1","uuid":"u1"}`
	cases := []struct {
		name   string
		format string
		prompt bool
		lines  []string
		want   []bool // per user message
	}{
		{"replay", claude.FormatStreamJSON, false, []string{initLine, user, resultLine}, []bool{true}},
		{"stdin", claude.FormatExchange, false, []string{`in:{"type":"user","message":{"role":"user","content":"hi"}}`, initLine, resultLine}, []bool{true}},
		{"reported", claude.FormatStreamJSON, true, []string{initLine, resultLine}, []bool{false}},
		{"transcript", claude.FormatTranscript, false, []string{`{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","sessionId":"s1","version":"2.1.330"}`}, []bool{false}},
		{"sub-agent", claude.FormatStreamJSON, false, []string{initLine,
			`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_a","name":"Agent","input":{"prompt":"go"}}]},"session_id":"s1"}`,
			`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"go"}]},"parent_tool_use_id":"toolu_a","session_id":"s1"}`,
			resultLine}, []bool{false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var reports []universal.Report
			if c.prompt {
				reports = append(reports, universal.Prompt{Text: "hi"})
			}
			users := completed(feed(t, c.format, reports, nil, c.lines...), universal.KindMessage, universal.RoleUser)
			if len(users) != len(c.want) {
				t.Fatalf("%d user messages, want %d", len(users), len(c.want))
			}
			for i, w := range c.want {
				if got := golden.Echoed(&users[i]); got != w {
					t.Errorf("user message %d (%s): echo %v, want %v", i, users[i].Content[0].Metadata, got, w)
				}
			}
		})
	}
}

// TestSubAgentError: a sub-agent's API error (the CLI's synthetic error
// message in its scope, a transcript's api_error in a sidechain) is not the
// session's: no error event, the session ends completed, and the Agent
// call carries it in its tool result's metadata; after the call's result
// (a background agent) it is a status item under the call.
func TestSubAgentError(t *testing.T) {
	agentCall := `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_a","name":"Agent","input":{"prompt":"go"}}]},"session_id":"s1"}`
	subErr := `{"type":"assistant","message":{"id":"e1","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"API Error: 529 Overloaded"}]},"parent_tool_use_id":"toolu_a","error":"overloaded","session_id":"s1"}`
	agentResult := func(extra string) string {
		return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"the agent failed"}]},"session_id":"s1"` + extra + `}`
	}
	check := func(t *testing.T, evs []universal.Event) (call, result universal.Item) {
		t.Helper()
		if errs := golden.OfType(evs, universal.TypeError); len(errs) != 0 {
			t.Errorf("%d error events, want none: %+v", len(errs), errs[0].Data)
		}
		if end := evs[len(evs)-1].Data.(*universal.SessionEnded); end.Reason != universal.EndCompleted {
			t.Errorf("session ended %s, want completed", end.Reason)
		}
		calls := completed(evs, universal.KindToolCall, "")
		results := completed(evs, universal.KindToolResult, "")
		if len(calls) != 1 || len(results) != 1 {
			t.Fatalf("%d calls, %d results, want 1 each", len(calls), len(results))
		}
		return calls[0], results[0]
	}
	t.Run("foreground", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, agentCall, subErr, agentResult(""), resultLine)
		_, res := check(t, evs)
		md := string(res.Content[0].Metadata)
		if !strings.Contains(md, `"sub_agent_error":{"message":"API Error: 529 Overloaded","code":"overloaded"`) {
			t.Errorf("tool result metadata %s, want the sub-agent's error", md)
		}
		if res.Status != universal.StatusCompleted {
			t.Errorf("result %s, want completed: the call itself did not fail", res.Status)
		}
		if st := completed(evs, universal.KindStatus, ""); len(st) != 0 {
			t.Errorf("status items %+v, want none", st)
		}
	})
	t.Run("background", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, agentCall,
			agentResult(`,"tool_use_result":{"isAsync":true,"status":"async_launched","agentId":"ag1"}`), subErr, resultLine)
		call, res := check(t, evs)
		if strings.Contains(string(res.Content[0].Metadata), "sub_agent_error") {
			t.Errorf("the result came before the error: %s", res.Content[0].Metadata)
		}
		st := completed(evs, universal.KindStatus, "")
		if len(st) != 1 || st[0].ParentID != call.ItemID || st[0].Content[0].Label != "sub_agent_error" {
			t.Errorf("status items %+v, want one sub_agent_error under %s", st, call.ItemID)
		}
	})
	t.Run("transcript", func(t *testing.T) {
		// The main file (with the Agent call's result naming the agent),
		// then the sub-agent's file: its api_error comes after the result.
		line := func(s string) string {
			return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.330",`, 1)
		}
		evs := feed(t, claude.FormatTranscript, nil, nil,
			line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`),
			line(`{"type":"assistant","uuid":"u2","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_a","name":"Agent","input":{"prompt":"go"}}]}}`),
			line(`{"type":"user","uuid":"u4","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"failed"}]},"toolUseResult":{"agentId":"ag1"}}`),
			line(`{"type":"assistant","uuid":"u5","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"It failed."}],"stop_reason":"end_turn"}}`),
			line(`{"type":"system","subtype":"api_error","uuid":"u3","isSidechain":true,"agentId":"ag1","error":{"status":529,"message":"Overloaded"}}`))
		call, _ := check(t, evs)
		st := completed(evs, universal.KindStatus, "")
		if len(st) != 1 || st[0].ParentID != call.ItemID || st[0].Content[0].Detail != "Overloaded" ||
			!strings.Contains(string(st[0].Content[0].Metadata), `"code":"529"`) {
			t.Errorf("status items %+v, want one sub_agent_error under %s", st, call.ItemID)
		}
	})
}

// TestUserShellCommand: a shell command the user ran (! in Claude Code: a
// <bash-input> entry, then its <bash-stdout>/<bash-stderr> entry) is a
// tool_call item with role user and its tool_result, linked by call id; it
// is not a prompt and starts no turn.
func TestUserShellCommand(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.330",`, 1)
	}
	evs := feed(t, claude.FormatTranscript, nil, nil,
		line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`),
		line(`{"type":"assistant","uuid":"u2","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Hello."}]}}`),
		line(`{"type":"user","uuid":"u3","message":{"role":"user","content":"<bash-input>git status</bash-input>"}}`),
		line(`{"type":"user","uuid":"u4","message":{"role":"user","content":"<bash-stdout>On branch main</bash-stdout><bash-stderr>warning: x</bash-stderr>"}}`))
	if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1: the command is not a prompt", n)
	}
	if users := completed(evs, universal.KindMessage, universal.RoleUser); len(users) != 1 {
		t.Errorf("%d user messages, want 1 (the prompt)", len(users))
	}
	calls := completed(evs, universal.KindToolCall, universal.RoleUser)
	results := completed(evs, universal.KindToolResult, universal.RoleTool)
	if len(calls) != 1 || len(results) != 1 {
		t.Fatalf("%d user tool calls, %d results, want 1 each", len(calls), len(results))
	}
	c, r := calls[0].Content[0], results[0].Content[0]
	if c.Name != "bash-input" || c.Arguments != `{"command":"git status"}` || c.CallID != "u3" {
		t.Errorf("call %+v", c)
	}
	if r.CallID != c.CallID || results[0].ParentID != calls[0].ItemID || r.Output != "On branch main\nwarning: x" || r.IsError || results[0].Status != universal.StatusCompleted {
		t.Errorf("result %+v (item %+v)", r, results[0])
	}
}

// TestStreamedBlockOrder: a streamed block that streams nothing (a JSON
// block, redacted thinking) between streamed text blocks keeps its place
// in block order, and the text deltas address the parts where they stand.
func TestStreamedBlockOrder(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"api_message_id":"m1"}`
	}
	text := func(i int, s string) []string {
		n := strconv.Itoa(i)
		return []string{
			se(`{"type":"content_block_start","index":` + n + `,"content_block":{"type":"text","text":""}}`),
			se(`{"type":"content_block_delta","index":` + n + `,"delta":{"type":"text_delta","text":"` + s + `"}}`),
			se(`{"type":"content_block_stop","index":` + n + `}`),
		}
	}
	lines := []string{initLine, se(`{"type":"message_start","message":{"id":"m1"}}`)}
	lines = append(lines, text(0, "one")...)
	lines = append(lines,
		se(`{"type":"content_block_start","index":1,"content_block":{"type":"container_upload","file_id":"f1"}}`),
		se(`{"type":"content_block_stop","index":1}`),
		se(`{"type":"content_block_start","index":2,"content_block":{"type":"redacted_thinking","data":"xx"}}`),
		se(`{"type":"content_block_stop","index":2}`))
	lines = append(lines, text(3, "two")...)
	lines = append(lines, se(`{"type":"message_stop"}`), resultLine)
	evs := feed(t, claude.FormatStreamJSON, nil, nil, lines...)
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 1 {
		t.Fatalf("%d assistant messages", len(msgs))
	}
	var got []string
	for _, p := range msgs[0].Content {
		got = append(got, string(p.Type)+":"+p.Text)
	}
	if want := "text:one json: reasoning: text:two"; strings.Join(got, " ") != want {
		t.Errorf("content %q, want %q", strings.Join(got, " "), want)
	}
	for _, e := range golden.OfType(evs, universal.TypeItemDelta) {
		d := e.Data.(*universal.ItemDelta)
		if p := msgs[0].Content[d.PartIndex]; p.Type != universal.PartText || p.Text != d.Delta {
			t.Errorf("delta %q addresses part %d (%s %q)", d.Delta, d.PartIndex, p.Type, p.Text)
		}
	}
}

// TestToolLineAfterItsMessageClosed: a stream event starts a tool call
// of message m0; a final response m1 ends the transcript's turn, which
// closes m0 and its call; m0's own line with the call comes after. The
// call's item is over: the late line completes it no second time.
func TestToolLineAfterItsMessageClosed(t *testing.T) {
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"type":"stream_event","event":{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"T","name":"Bash","input":{}}},"parent_tool_use_id":null,"uuid":"u0","api_message_id":"m0"}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Done."}]},"parent_tool_use_id":null,"uuid":"u1"}`,
		`{"type":"assistant","message":{"id":"m0","role":"assistant","content":[{"type":"tool_use","id":"T","name":"Bash","input":{"command":"echo"}}]},"parent_tool_use_id":null,"uuid":"u2"}`)
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed: %+v", e.Data)
	}
	if calls := completed(evs, universal.KindToolCall, ""); len(calls) != 1 || calls[0].NativeItemID != "T" {
		t.Errorf("calls %+v", calls)
	}
}

// TestSignatureDeltas: a signature streamed in several deltas (Claude Code
// sends one) is their concatenation, escapes read, each appended to what
// came before instead of the whole signature copied again.
func TestSignatureDeltas(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"api_message_id":"m1"}`
	}
	lines := []string{initLine,
		se(`{"type":"message_start","message":{"id":"m1","usage":{"input_tokens":5,"output_tokens":1}}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}`),
	}
	want := ""
	for i := range 300 {
		part := fmt.Sprintf("s%d\\u0041", i)
		want += fmt.Sprintf("s%dA", i)
		lines = append(lines, se(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"`+part+`"}}`))
	}
	lines = append(lines, se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}`),
		se(`{"type":"message_stop"}`), resultLine)
	evs := feed(t, claude.FormatStreamJSON, nil, nil, lines...)
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 1 || len(msgs[0].Content) != 1 {
		t.Fatalf("%d assistant messages: %+v", len(msgs), msgs)
	}
	if got := msgs[0].Content[0].Signature; got != want {
		t.Errorf("signature %.60q…, want %.60q…", got, want)
	}
}

// TestSignatureDeltaAllocs: a signature delta allocates nothing,
// amortized: it is appended, not the signature so far copied again
// (which made many deltas quadratic).
func TestSignatureDeltaAllocs(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"parent_tool_use_id":null,"api_message_id":"m1"}`
	}
	tr, err := claude.New(claude.FormatStreamJSON, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range []string{initLine,
		se(`{"type":"message_start","message":{"id":"m1","usage":{"input_tokens":5,"output_tokens":1}}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"first"}}`),
	} {
		tr.Translate(nil, universal.Message{Data: []byte(l), Line: int64(i + 1)})
	}
	m := universal.Message{Data: []byte(se(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"RW5jcnlwdGVkU2lnbmF0dXJl"}}`)), Line: 5}
	if allocs, evs := golden.AllocsPerMessage(t, tr, m); allocs != 0 || len(evs) != 0 {
		t.Errorf("%v allocations and %d events per signature delta, want none", allocs, len(evs))
	}
}

// TestHumanOrigin: 2.1.2xx transcripts mark a typed prompt with
// origin {kind:"human"}; it is the person's message, while a line whose
// origin is the CLI's (a task notification) stays a system item. Line
// shapes from Irrlicht's 2.1.235 and 2.1.143 recordings.
func TestHumanOrigin(t *testing.T) {
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,"isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":"Reply with exactly: hello world"},"uuid":"u1","timestamp":"2026-08-19T18:00:16.762Z","permissionMode":"default","origin":{"kind":"human"},"promptSource":"typed","userType":"external","entrypoint":"cli","cwd":"/w","sessionId":"s1","version":"2.1.235"}`,
		`{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hello world"}],"usage":{"input_tokens":1,"output_tokens":1}},"uuid":"a1","sessionId":"s1","version":"2.1.235"}`,
		`{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":"<task-notification>\n<task-id>b1</task-id>\n</task-notification>"},"uuid":"u2","origin":{"kind":"task-notification"},"sessionId":"s1","version":"2.1.156"}`)
	users := completed(evs, universal.KindMessage, universal.RoleUser)
	if len(users) != 1 || users[0].NativeItemID != "u1" || users[0].Content[0].Text != "Reply with exactly: hello world" {
		t.Errorf("user messages %+v", users)
	}
	if sys := completed(evs, universal.KindSystem, ""); len(sys) != 1 || sys[0].NativeItemID != "u2" {
		t.Errorf("system items %+v", sys)
	}
}

// TestAPIErrorBody: a 2.1.143 transcript's api_error line holds the SDK's
// error object as it was, the API's message only in the response body
// (error.error.error.message); the error event carries that message, not
// a generic one. Line from Irrlicht's token-quota-exhausted recording.
func TestAPIErrorBody(t *testing.T) {
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"Reply with exactly the word: ok"},"uuid":"u1","sessionId":"s1","version":"2.1.143"}`,
		`{"parentUuid":"u1","isSidechain":false,"type":"system","subtype":"api_error","level":"error","error":{"status":429,"headers":{"content-type":"application/json"},"requestID":null,"error":{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits). Please retry later."}},"type":"rate_limit_error"},"retryInMs":535.2292764372014,"retryAttempt":1,"maxRetries":10,"uuid":"e1","sessionId":"s1","version":"2.1.143"}`)
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("errors %v", errs)
	}
	if e := errs[0].Data.(*universal.Error); !strings.HasPrefix(e.Message, "Number of request tokens has exceeded") || e.Code != "429" || !e.WillRetry {
		t.Errorf("error %+v", e)
	}
}

// TestDetectSessionLogRecords: the yoloswe project's Claude Code wrapper
// records the stdin/stdout lines as {"direction": "sent" | "received",
// "message"} (with "id" in its trace fixtures, member order as its
// recorder writes them: message first), which universal.ExchangeReader
// reads; Detect did not tell the format, its records being neither
// {"dir","msg"} nor stream lines. A session log header ("format":
// "claude") is skipped; Codex's ("format": "codex") is not Claude Code's.
func TestDetectSessionLogRecords(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{`{"id":"msg-1","timestamp":"2026-02-27T00:44:32.303Z","direction":"sent","message":{"request":{"subtype":"initialize"},"type":"control_request","request_id":"req_1"}}`, claude.FormatExchange},
		{`{"message":{"type":"system","subtype":"init","session_id":"s"},"timestamp":"2026-02-27T00:44:34.037Z","direction":"received"}`, claude.FormatExchange},
		{`{"format":"claude","version":"1.0","client":"yoloswe","timestamp":"2026-02-27T00:44:32Z"}` + "\n" +
			`{"message":{"type":"user","message":{"role":"user","content":"hi"}},"timestamp":"2026-02-27T00:44:34.037Z","direction":"sent"}`, claude.FormatExchange},
		{`{"format":"codex","version":"1.0","client":"yoloswe","timestamp":"2026-02-27T00:44:32Z"}` + "\n" +
			`{"timestamp":"2026-02-27T00:44:34Z","direction":"sent","message":{"method":"turn/start","params":{}}}`, ""},
		{`{"timestamp":"2026-02-27T00:44:34Z","direction":"received","message":{"jsonrpc":"2.0","method":"turn/started","params":{}}}`, ""},
		{`{"seq":1,"at":"2026-02-27T00:44:34Z","direction":"outbound","message":{"jsonrpc":"2.0","id":1,"method":"session/new"}}`, ""},
	} {
		if got := claude.Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%.60s…) = %q, want %q", c.head, got, c.want)
		}
	}
}
