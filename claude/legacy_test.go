package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestInlineSidechains: Claude Code 1.0.x writes its sub-agents' entries
// into the main transcript (isSidechain, no agentId). Each sub-agent's
// chain (its root: a user entry with parentUuid null whose text is its
// Task call's prompt; the rest chained by parentUuid) goes under the call
// that spawned it, even when two sub-agents run in parallel and their
// entries interleave with each other's and the main thread's, and when
// two calls give the same prompt (the earlier call gets the first chain).
// The prompts are no main-thread user messages; each call's result still
// closes it.
func TestInlineSidechains(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"1.0.98","cwd":"/w",`, 1)
	}
	main := func(uuid, parent, typ, msg string) string {
		return line(`{"parentUuid":` + parent + `,"isSidechain":false,"type":"` + typ + `","uuid":"` + uuid + `","message":` + msg + `}`)
	}
	side := func(uuid, parent, typ, msg string) string {
		return line(`{"parentUuid":` + parent + `,"isSidechain":true,"type":"` + typ + `","uuid":"` + uuid + `","message":` + msg + `}`)
	}
	task := func(id, prompt string) string {
		return `{"id":"msg_main1","role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"Task","input":{"description":"d","prompt":"` + prompt + `"}}]}`
	}
	text := func(id, s, stop string) string {
		return `{"id":"` + id + `","role":"assistant","content":[{"type":"text","text":"` + s + `"}],"stop_reason":` + stop + `}`
	}
	result := func(id, s string) string {
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":[{"type":"text","text":"` + s + `"}]}]}`
	}
	evs := feed(t, claude.FormatTranscript, nil, nil,
		main("u1", "null", "user", `{"role":"user","content":"do three things"}`),
		main("u2", `"u1"`, "assistant", task("toolu_A", "look at alpha")),
		main("u3", `"u2"`, "assistant", task("toolu_B", "look at beta")),
		main("u4", `"u3"`, "assistant", task("toolu_C", "look at alpha")),
		// B starts first, then A; their entries interleave.
		side("b1", "null", "user", `{"role":"user","content":"look at beta"}`),
		side("a1", "null", "user", `{"role":"user","content":"look at alpha"}`),
		side("b2", `"b1"`, "assistant", `{"id":"msg_b1","role":"assistant","content":[{"type":"tool_use","id":"toolu_b_read","name":"Read","input":{"file_path":"/w/beta"}}],"stop_reason":"tool_use"}`),
		side("a2", `"a1"`, "assistant", text("msg_a1", "alpha is fine", `"end_turn"`)),
		main("u5", `"u4"`, "user", result("toolu_A", "alpha is fine")),
		side("b3", `"b2"`, "user", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_b_read","content":"beta"}]}`),
		// The second call with alpha's prompt gets the second chain.
		side("c1", "null", "user", `{"role":"user","content":[{"type":"text","text":"look at alpha"}]}`),
		side("b4", `"b3"`, "assistant", text("msg_b2", "beta is fine", `"end_turn"`)),
		side("c2", `"c1"`, "assistant", text("msg_c1", "alpha again", `"end_turn"`)),
		main("u6", `"u5"`, "user", result("toolu_B", "beta is fine")),
		main("u7", `"u6"`, "user", result("toolu_C", "alpha again")),
		main("u8", `"u7"`, "assistant", text("msg_main2", "All fine.", `"end_turn"`)),
	)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("%d agent.unparsed, want none: %+v", len(u), u[0].Data)
	}
	items := map[string]universal.Item{}
	byNative := map[string]universal.Item{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		items[it.ItemID] = it
		byNative[it.NativeItemID] = it
	}
	// under returns the Task call an item is nested under, "" if none.
	under := func(it universal.Item) string {
		for p := it.ParentID; p != ""; p = items[p].ParentID {
			if c := items[p]; c.Kind == universal.KindToolCall && c.Content[0].Name == "Task" {
				return c.NativeItemID
			}
		}
		return ""
	}
	for native, want := range map[string]string{
		"a1": "toolu_A", "msg_a1": "toolu_A",
		"b1": "toolu_B", "msg_b1": "toolu_B", "toolu_b_read": "toolu_B", "msg_b2": "toolu_B",
		"c1": "toolu_C", "msg_c1": "toolu_C",
		"u1": "", "msg_main1": "", "msg_main2": "",
	} {
		it, ok := byNative[native]
		if !ok {
			t.Errorf("no item for %s", native)
			continue
		}
		if got := under(it); got != want {
			t.Errorf("%s (%s %s) is under %q, want %q", native, it.Kind, it.Role, got, want)
		}
	}
	var prompts []string
	for _, it := range completed(evs, universal.KindMessage, universal.RoleUser) {
		if it.ParentID == "" {
			prompts = append(prompts, golden.TextOf(&it))
		}
	}
	if len(prompts) != 1 || prompts[0] != "do three things" {
		t.Errorf("main-thread user messages %q, want only the prompt", prompts)
	}
	results := completed(evs, universal.KindToolResult, "")
	closed := map[string]bool{}
	for _, r := range results {
		if p := items[r.ParentID]; p.NativeItemID == "msg_main1" && r.Status == universal.StatusCompleted {
			closed[r.Content[0].CallID] = true
		}
	}
	for _, c := range []string{"toolu_A", "toolu_B", "toolu_C"} {
		if !closed[c] {
			t.Errorf("call %s: no completed result under the main message", c)
		}
	}
	if end := evs[len(evs)-1].Data.(*universal.SessionEnded); end.Reason != universal.EndCompleted {
		t.Errorf("session ended %s, want completed", end.Reason)
	}
}

// TestFailedLocalCommand: a slash command the CLI runs itself answers on
// stream-json with a synthetic assistant line (local_command_run,
// local_command_source, since 2.1.281 local_command_outcome). A failed
// /compact ("No messages to compact") is a failed system item with the
// command's output, not an API error: the result line that follows says
// success, and the turn and the session end completed.
func TestFailedLocalCommand(t *testing.T) {
	failed := `{"type":"assistant","message":{"id":"local-1","model":"<synthetic>","role":"assistant","type":"message","stop_reason":"end_turn","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"Error: No messages to compact"}]},"parent_tool_use_id":null,"local_command_source":"<local-command-stderr>Error: No messages to compact</local-command-stderr>","local_command_run":{"command":"compact","args":""},"local_command_outcome":{"kind":"failed"},"uuid":"u-local-1","session_id":"s1"}`
	older := `{"type":"assistant","is_meta":true,"local_command_source":"<local-command-stderr>Error: No messages to compact</local-command-stderr>","message":{"model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"Error: No messages to compact"}]},"parent_tool_use_id":null,"uuid":"u-local-2","session_id":"s1"}`
	ok := `{"type":"assistant","message":{"id":"local-3","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"Total cost: $0.05"}]},"parent_tool_use_id":null,"local_command_source":"<local-command-stdout>Total cost: $0.05</local-command-stdout>","local_command_run":{"command":"cost","args":""},"uuid":"u-local-3","session_id":"s1"}`
	result := `{"type":"result","subtype":"success","is_error":false,"duration_ms":16,"num_turns":0,"result":"","local_command":"compact","total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0},"session_id":"s1"}`
	for _, c := range []struct {
		name, line, text string
		status           universal.ItemStatus
	}{
		{"outcome failed", failed, "Error: No messages to compact", universal.StatusFailed},
		{"stderr, no outcome", older, "Error: No messages to compact", universal.StatusFailed},
		{"stdout", ok, "Total cost: $0.05", universal.StatusCompleted},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, c.line, result)
			if errs := golden.OfType(evs, universal.TypeError); len(errs) != 0 {
				t.Errorf("%d error events, want none: %+v", len(errs), errs[0].Data)
			}
			if n := len(completed(evs, universal.KindMessage, universal.RoleAssistant)); n != 0 {
				t.Errorf("%d assistant messages, want none: no model answered", n)
			}
			sys := completed(evs, universal.KindSystem, universal.RoleSystem)
			if len(sys) != 1 || golden.TextOf(&sys[0]) != c.text || sys[0].Status != c.status || sys[0].ParentID != "" {
				t.Fatalf("system items %+v, want one %s %q at top level", sys, c.status, c.text)
			}
			if md := string(sys[0].Content[0].Metadata); !strings.Contains(md, `"stream":`) {
				t.Errorf("metadata %s, want the output stream", md)
			}
			ends := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
				t.Errorf("turn ends %+v, want one completed", ends)
			}
			if end := evs[len(evs)-1].Data.(*universal.SessionEnded); end.Reason != universal.EndCompleted {
				t.Errorf("session ended %s (%s), want completed", end.Reason, end.Message)
			}
		})
	}
}

// TestFailedCompaction: a compaction that fails (automatic or by /compact)
// reports it in a status line only; it becomes a failed status item with
// the error, not nothing, and the session still ends as the result says.
func TestFailedCompaction(t *testing.T) {
	compacting := `{"type":"system","subtype":"status","status":"compacting","uuid":"u-c1","session_id":"s1"}`
	failed := `{"type":"system","subtype":"status","status":null,"compact_result":"failed","compact_error":"Not enough messages to compact.","uuid":"u-c2","session_id":"s1"}`
	done := `{"type":"system","subtype":"status","status":null,"compact_result":"success","uuid":"u-c3","session_id":"s1"}`
	result := `{"type":"result","subtype":"success","is_error":false,"duration_ms":16,"num_turns":0,"result":"","total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0},"session_id":"s1"}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, compacting, failed, compacting, done, result)
	st := completed(evs, universal.KindStatus, "")
	if len(st) != 1 || st[0].Status != universal.StatusFailed || st[0].Content[0].Label != "compaction" ||
		st[0].Content[0].Detail != "Not enough messages to compact." {
		t.Fatalf("status items %+v, want one failed compaction with its error", st)
	}
	if errs := golden.OfType(evs, universal.TypeError); len(errs) != 0 {
		t.Errorf("%d error events, want none", len(errs))
	}
	if end := evs[len(evs)-1].Data.(*universal.SessionEnded); end.Reason != universal.EndCompleted {
		t.Errorf("session ended %s, want completed", end.Reason)
	}
}
