package claude_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Shapes of other Claude Code versions than the recorded 2.1.330 (seen in
// the crosscheck recordings of 1.0.24 to 2.0.76, 2.1.14 and 2.1.120).

// transcriptLine adds the session fields every transcript entry has.
func transcriptLine(version, s string) string {
	return strings.Replace(s, `{`, `{"sessionId":"s1","version":"`+version+`",`, 1)
}

// TestOrphanSidechain: 2.0.x writes a sub-agent file (agent-<id>.jsonl
// beside the main transcript) for each cache warmup request ("Warmup");
// no call of the session spawned it. Read after the main file it is
// ignored; read on its own it is translated.
func TestOrphanSidechain(t *testing.T) {
	l := func(s string) string { return transcriptLine("2.0.76", s) }
	main := []string{
		l(`{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":false,"message":{"role":"user","content":"hello"}}`),
		l(`{"type":"assistant","uuid":"u2","parentUuid":"u1","isSidechain":false,"message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Hi there."}]}}`),
	}
	warmup := []string{
		l(`{"type":"user","uuid":"w1","parentUuid":null,"isSidechain":true,"agentId":"a9f1a09","message":{"role":"user","content":"Warmup"}}`),
		l(`{"type":"assistant","uuid":"w2","parentUuid":"w1","isSidechain":true,"agentId":"a9f1a09","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"OK."}]}}`),
		l(`{"type":"system","subtype":"api_error","uuid":"w3","isSidechain":true,"agentId":"a9f1a09","error":{"status":529,"message":"Overloaded"}}`),
	}
	t.Run("after the main file", func(t *testing.T) {
		evs := feed(t, claude.FormatTranscript, nil, nil, append(append([]string{}, main...), warmup...)...)
		msgs := completed(evs, universal.KindMessage, "")
		if len(msgs) != 2 || golden.TextOf(&msgs[1]) != "Hi there." {
			t.Errorf("messages %+v, want the main file's two only", msgs)
		}
		if n := len(golden.OfType(evs, universal.TypeError)) + len(completed(evs, universal.KindStatus, "")); n != 0 {
			t.Errorf("%d error events or status items from the orphan's api_error, want none", n)
		}
	})
	t.Run("main file without conversation", func(t *testing.T) {
		// The main file of a failed 2.0.76 run holds only a queue-operation.
		evs := feed(t, claude.FormatTranscript, nil, nil,
			append([]string{l(`{"type":"queue-operation","operation":"dequeue","timestamp":"2026-01-01T00:00:00Z"}`)}, warmup[:2]...)...)
		if msgs := completed(evs, universal.KindMessage, ""); len(msgs) != 0 {
			t.Errorf("messages %+v, want none", msgs)
		}
	})
	t.Run("alone", func(t *testing.T) {
		evs := feed(t, claude.FormatTranscript, nil, nil, warmup[:2]...)
		if msgs := completed(evs, universal.KindMessage, ""); len(msgs) != 2 || golden.TextOf(&msgs[1]) != "OK." {
			t.Errorf("messages %+v, want the file's two", msgs)
		}
	})
}

// TestSidechainLinkedByPrompt: a sub-agent file whose agentId no result
// named (the Task call's result never came: the process ended while the
// sub-agent ran) belongs to the call whose prompt starts it.
func TestSidechainLinkedByPrompt(t *testing.T) {
	l := func(s string) string { return transcriptLine("2.0.76", s) }
	evs := feed(t, claude.FormatTranscript, nil, nil,
		l(`{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":false,"message":{"role":"user","content":"delegate"}}`),
		l(`{"type":"assistant","uuid":"u2","parentUuid":"u1","isSidechain":false,"message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_t","name":"Task","input":{"description":"d","prompt":"Run it and report."}}]}}`),
		l(`{"type":"assistant","uuid":"u3","parentUuid":"u2","isSidechain":false,"message":{"id":"m9","role":"assistant","content":[{"type":"tool_use","id":"toolu_u","name":"Task","input":{"description":"e","prompt":"Another task."}}]}}`),
		l(`{"type":"user","uuid":"s1","parentUuid":null,"isSidechain":true,"agentId":"ab12","message":{"role":"user","content":[{"type":"text","text":"Run it and report."}]}}`),
		l(`{"type":"assistant","uuid":"s2","parentUuid":"s1","isSidechain":true,"agentId":"ab12","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Running."}]}}`),
		// A second file with the same prompt text but another agent: the
		// call is linked already, so it is an orphan.
		l(`{"type":"user","uuid":"x1","parentUuid":null,"isSidechain":true,"agentId":"cd34","message":{"role":"user","content":"Run it and report."}}`),
		l(`{"type":"assistant","uuid":"x2","parentUuid":"x1","isSidechain":true,"agentId":"cd34","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"Again."}]}}`))
	calls := completed(evs, universal.KindToolCall, "")
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2", len(calls))
	}
	var sub []universal.Item
	for _, m := range completed(evs, universal.KindMessage, "") {
		if m.ParentID != "" {
			sub = append(sub, m)
		}
		if golden.TextOf(&m) == "Again." {
			t.Errorf("the second file's message was translated: %+v", m)
		}
	}
	if len(sub) != 2 || sub[0].ParentID != calls[0].ItemID || sub[1].ParentID != calls[0].ItemID ||
		golden.TextOf(&sub[0]) != "Run it and report." || golden.TextOf(&sub[1]) != "Running." {
		t.Errorf("sub-agent messages %+v, want the prompt and the answer under %s", sub, calls[0].ItemID)
	}
}

// TestErrorSubtype: 2.0.76 ends a turn whose stream broke with a result
// error_during_execution, is_error false, errors [] and no terminal_reason,
// and never completes the streamed message: the turn failed and the
// message was cut off.
func TestErrorSubtype(t *testing.T) {
	ev := func(s string) string {
		return `{"type":"stream_event","event":` + s + `,"session_id":"s1","parent_tool_use_id":null}`
	}
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine,
		ev(`{"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}`),
		ev(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
		ev(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Here is a part"}}`),
		`{"type":"result","subtype":"error_during_execution","is_error":false,"num_turns":1,"session_id":"s1","usage":{"input_tokens":0,"output_tokens":0},"errors":[]}`)
	te := golden.OfType(evs, universal.TypeTurnEnded)
	if len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn.ended %+v, want one with status error", te)
	}
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 || errs[0].Data.(*universal.Error).Code != "error_during_execution" || errs[0].Data.(*universal.Error).WillRetry {
		t.Errorf("errors %+v, want one terminal error_during_execution", errs)
	}
	if end := evs[len(evs)-1].Data.(*universal.SessionEnded); end.Reason != universal.EndError {
		t.Errorf("session ended %s, want error", end.Reason)
	}
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 1 || msgs[0].Status != universal.StatusFailed || golden.TextOf(&msgs[0]) != "Here is a part" {
		t.Errorf("messages %+v, want the cut-off one, failed", msgs)
	}
	// An older max-turns ending (1.0.0, 2.0.20): error_max_turns with
	// is_error false failed too.
	evs = feed(t, claude.FormatStreamJSON, nil, nil, initLine, `{"type":"result","subtype":"error_max_turns","is_error":false,"num_turns":3,"session_id":"s1"}`)
	if te := golden.OfType(evs, universal.TypeTurnEnded); te[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("error_max_turns: turn.ended %+v, want error", te[0].Data)
	}
}

// TestOneResultForContinuedTurn: 2.1.120 continues a turn for a background
// sub-agent (a second system/init) but writes one result for both; 2.1.330
// writes one per init. The turn ends at the end of input, or when the next
// prompt's init arrives, with that result's status.
func TestOneResultForContinuedTurn(t *testing.T) {
	text := func(id, s string) string {
		return `{"type":"assistant","message":{"id":"` + id + `","role":"assistant","content":[{"type":"text","text":"` + s + `"}]},"parent_tool_use_id":null,"session_id":"s1"}`
	}
	result := func(s string) string {
		return `{"type":"result","subtype":"success","is_error":false,"result":"` + s + `","num_turns":1,"usage":{"input_tokens":3,"output_tokens":2},"session_id":"s1"}`
	}
	turns := func(t *testing.T, evs []universal.Event, want int) []universal.Event {
		t.Helper()
		te := golden.OfType(evs, universal.TypeTurnEnded)
		if len(golden.OfType(evs, universal.TypeTurnStarted)) != want || len(te) != want {
			t.Fatalf("%d turns started, %d ended, want %d", len(golden.OfType(evs, universal.TypeTurnStarted)), len(te), want)
		}
		for _, e := range te {
			if s := e.Data.(*universal.TurnEnded).Status; s != universal.TurnCompleted {
				t.Errorf("turn ended %s, want completed", s)
			}
		}
		if errs := golden.OfType(evs, universal.TypeError); len(errs) != 0 {
			t.Errorf("error events %+v, want none", errs[0].Data)
		}
		if end := evs[len(evs)-1].Data.(*universal.SessionEnded); end.Reason != universal.EndCompleted {
			t.Errorf("session ended %s (%s), want completed", end.Reason, end.Message)
		}
		return te
	}
	t.Run("end of input", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, text("m1", "working"), initLine, text("m2", "done"), result("done"))
		te := turns(t, evs, 1)
		if md := string(te[0].Data.(*universal.TurnEnded).Metadata); !strings.Contains(md, `"subtype":"success"`) {
			t.Errorf("turn.ended metadata %s, want the result's", md)
		}
		if u := golden.OfType(evs, universal.TypeUsageUpdated); len(u) != 1 || u[0].Data.(*universal.UsageUpdated).Scope != universal.ScopeTurn {
			t.Errorf("usage events %+v, want the turn's", u)
		}
	})
	t.Run("next prompt", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, text("m1", "working"), initLine, text("m2", "done"), result("done"),
			initLine, text("m3", "second"), resultLine)
		te := turns(t, evs, 2)
		// The first turn ends before the second prompt's message starts.
		var second int64
		for _, e := range golden.OfType(evs, universal.TypeItemStarted) {
			if e.Data.(*universal.ItemSnapshot).Item.NativeItemID == "m3" {
				second = e.Sequence
			}
		}
		ts := golden.OfType(evs, universal.TypeTurnStarted)
		if second == 0 || te[0].Sequence > ts[1].Sequence || ts[1].Sequence > second {
			t.Errorf("turn 1 ended at %d, turn 2 started at %d, its message at %d: want them in that order", te[0].Sequence, ts[1].Sequence, second)
		}
	})
	t.Run("two results", func(t *testing.T) {
		// 2.1.330: both results at the end; the turn ends with the second.
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, text("m1", "working"), initLine, text("m2", "done"), result("working"), result("done"))
		te := turns(t, evs, 1)
		if te[0].Source != universal.SourceAgent {
			t.Errorf("turn.ended source %s, want agent (the second result)", te[0].Source)
		}
	})
}

// TestCanUseToolWithoutCallID: 2.0.14 (and earlier) asks can_use_tool
// without a tool_use_id. The request belongs to the one call of that tool
// still waiting; the result's permission_denials then resolve that same
// permission, not a second one. With two waiting calls of the tool the
// request stays unlinked.
func TestCanUseToolWithoutCallID(t *testing.T) {
	call := func(id string) string {
		return `{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"` + id + `","name":"Bash","input":{"command":"touch f"}}]},"parent_tool_use_id":null,"session_id":"s1"}`
	}
	ask := `{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"touch f"},"permission_suggestions":[]}}`
	deny := `in:{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"behavior":"deny","message":"no"}}}`
	denied := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"T","content":"no","is_error":true}]},"parent_tool_use_id":null,"session_id":"s1"}`
	result := `{"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":1,"session_id":"s1","permission_denials":[{"tool_name":"Bash","tool_use_id":"T","tool_input":{"command":"touch f"}}]}`
	for _, tc := range []struct {
		format string
		lines  []string
	}{
		{claude.FormatExchange, []string{call("T"), ask, deny, denied, result}},
		{claude.FormatStreamJSON, []string{call("T"), ask, denied, result}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			lines := append([]string{`in:{"type":"user","message":{"role":"user","content":"go"},"session_id":""}`, initLine}, tc.lines...)
			if tc.format == claude.FormatStreamJSON {
				lines = lines[1:]
			}
			evs := feed(t, tc.format, nil, nil, lines...)
			calls := completed(evs, universal.KindToolCall, "")
			req, res := golden.OfType(evs, universal.TypePermissionRequested), golden.OfType(evs, universal.TypePermissionResolved)
			if len(calls) != 1 || len(req) != 1 || len(res) != 1 {
				t.Fatalf("%d calls, %d requested, %d resolved; want one each", len(calls), len(req), len(res))
			}
			p, r := req[0].Data.(*universal.Permission), res[0].Data.(*universal.Permission)
			if p.ItemID != calls[0].ItemID || p.CallID != "T" || r.PermissionID != p.PermissionID || r.Status != universal.PermissionDenied {
				t.Errorf("requested %+v, resolved %+v; want the call's, denied", p, r)
			}
		})
	}
	t.Run("two waiting calls", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, call("T"), call("U"), ask)
		req := golden.OfType(evs, universal.TypePermissionRequested)
		if len(req) != 1 || req[0].Data.(*universal.Permission).CallID != "" {
			t.Fatalf("requests %v, want one not linked to a call", req)
		}
	})
}

// TestAskRefusalText: 1.0.56 refuses a call that needs approval in print
// mode without a permission tool, and records it only in the tool result
// ("Claude requested permissions to use Bash, but you haven't granted it
// yet."; no permission_denials on its result, no decision in its
// transcript). The refusal is the call's permission, denied, once.
func TestAskRefusalText(t *testing.T) {
	refusal := "Claude requested permissions to use Bash, but you haven't granted it yet."
	for _, tc := range []struct{ format, result string }{
		{claude.FormatStreamJSON, `{"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":2,"session_id":"s1"}`},
		// A later version lists the same refusal on its result as well.
		{claude.FormatStreamJSON, `{"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":2,"session_id":"s1","permission_denials":[{"tool_name":"Bash","tool_use_id":"T","tool_input":{}}]}`},
	} {
		evs := feed(t, tc.format, nil, nil, initLine,
			`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"T","name":"Bash","input":{"command":"touch f"}}]},"parent_tool_use_id":null,"session_id":"s1"}`,
			`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"T","content":"`+refusal+`","is_error":true}]},"parent_tool_use_id":null,"session_id":"s1"}`,
			tc.result)
		req, res := golden.OfType(evs, universal.TypePermissionRequested), golden.OfType(evs, universal.TypePermissionResolved)
		if len(req) != 1 || len(res) != 1 {
			t.Fatalf("%d requested, %d resolved; want one each", len(req), len(res))
		}
		if p := res[0].Data.(*universal.Permission); p.Status != universal.PermissionDenied || p.CallID != "T" || p.Action != "Bash" {
			t.Errorf("resolved %+v, want Bash's call denied", p)
		}
	}
	// Another failed result is no refusal.
	evs := feed(t, claude.FormatTranscript, nil, nil,
		transcriptLine("1.0.56", `{"type":"assistant","uuid":"u1","parentUuid":null,"isSidechain":false,"message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"T","name":"Bash","input":{}}]}}`),
		transcriptLine("1.0.56", `{"type":"user","uuid":"u2","parentUuid":"u1","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"T","content":"Claude requested permissions to use Bash: exit 1","is_error":true}]}}`))
	if p := golden.OfType(evs, universal.TypePermissionRequested); len(p) != 0 {
		t.Errorf("permissions %v for a failed call, want none", p)
	}
}

// TestResumedTotals: total_cost_usd and modelUsage are running totals of
// the process. From 2.1.277 a process resumed with --resume starts from
// the session's totals (the transcript's cost-state); 2.1.276 and older
// (recorded: 1.0.128, 2.0.14, 2.0.76, 2.1.14, 2.1.120, 2.1.200, and
// 2.1.245 to 2.1.276 in trials) start from zero, so in one stream of two
// processes of the session the second's totals are its own. A total lower
// than the one before, in sum or for one model, carries the earlier
// process's last totals: the session's running total is theirs plus the
// new process's.
func TestResumedTotals(t *testing.T) {
	init := func(sid string) string {
		return `{"type":"system","subtype":"init","session_id":"` + sid + `","model":"m","cwd":"/w","tools":[],"claude_code_version":"2.1.200"}`
	}
	text := func(sid, id string) string {
		return `{"type":"assistant","message":{"id":"` + id + `","role":"assistant","content":[{"type":"text","text":"ok"}]},"parent_tool_use_id":null,"session_id":"` + sid + `"}`
	}
	result := func(sid string, in, out int, cost string) string {
		n := func(v int) string { return strconv.Itoa(v) }
		return `{"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":1,"session_id":"` + sid + `",` +
			`"usage":{"input_tokens":1,"output_tokens":1},"total_cost_usd":` + cost + `,` +
			`"modelUsage":{"m":{"inputTokens":` + n(in) + `,"outputTokens":` + n(out) + `,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"costUSD":` + cost + `}}}`
	}
	turn := func(sid, id string, in, out int, cost string) []string {
		return []string{init(sid), text(sid, id), result(sid, in, out, cost)}
	}
	session := func(evs []universal.Event) []*universal.UsageUpdated {
		var out []*universal.UsageUpdated
		for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
			if u := e.Data.(*universal.UsageUpdated); u.Scope == universal.ScopeSession {
				out = append(out, u)
			}
		}
		return out
	}
	check := func(t *testing.T, u *universal.UsageUpdated, in, out int64, cost float64, earlier string) {
		t.Helper()
		if u.Usage.InputTokens == nil || *u.Usage.InputTokens != in || u.Usage.OutputTokens == nil || *u.Usage.OutputTokens != out ||
			u.CostUSD == nil || math.Abs(*u.CostUSD-cost) > 1e-12 {
			val := func(p *int64) any {
				if p == nil {
					return nil
				}
				return *p
			}
			var c any
			if u.CostUSD != nil {
				c = *u.CostUSD
			}
			t.Errorf("session usage input %v, output %v, cost %v; want %d, %d, %g", val(u.Usage.InputTokens), val(u.Usage.OutputTokens), c, in, out, cost)
		}
		got := gjson.GetBytes(u.Metadata, "earlier_processes").Raw
		if got != earlier {
			t.Errorf("metadata earlier_processes %s, want %s", got, earlier)
		}
	}
	cat := func(ls ...[]string) []string { return slices.Concat(ls...) }
	t.Run("resumed, not restored", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil, cat(turn("s1", "m1", 120, 20, "0.5"), turn("s1", "m2", 120, 10, "0.25"))...)
		u := session(evs)
		if len(u) != 2 {
			t.Fatalf("%d session usages, want 2", len(u))
		}
		check(t, u[0], 120, 20, 0.5, "")
		check(t, u[1], 240, 30, 0.75, `{"input_tokens":120,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":20,"total_tokens":140,"cost_usd":0.5}`)
	})
	t.Run("three processes", func(t *testing.T) {
		evs := feed(t, claude.FormatStreamJSON, nil, nil,
			cat(turn("s1", "m1", 120, 20, "0.5"), turn("s1", "m2", 100, 10, "0.25"), turn("s1", "m3", 200, 10, "0.375"), turn("s1", "m4", 50, 5, "0.125"))...)
		u := session(evs)
		// The third's first total is higher than the second's last: it
		// cannot be told from the second going on (replaces it).
		check(t, u[2], 320, 30, 0.875, `{"input_tokens":120,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":20,"total_tokens":140,"cost_usd":0.5}`)
		check(t, u[3], 370, 35, 1, `{"input_tokens":320,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":30,"total_tokens":350,"cost_usd":0.875}`)
	})
	t.Run("a helper model", func(t *testing.T) {
		// 1.0.128 to 2.0.76: the resumed process also calls a helper
		// model, so its sums are higher than the first process's; the
		// main model's own totals went down.
		second := `{"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":1,"session_id":"s1",` +
			`"usage":{"input_tokens":1,"output_tokens":1},"total_cost_usd":0.625,"modelUsage":{` +
			`"h":{"inputTokens":120,"outputTokens":20,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"costUSD":0.375},` +
			`"m":{"inputTokens":120,"outputTokens":10,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"costUSD":0.25}}}`
		evs := feed(t, claude.FormatStreamJSON, nil, nil, cat(turn("s1", "m1", 120, 20, "0.5"), []string{init("s1"), text("s1", "m2"), second})...)
		check(t, session(evs)[1], 360, 50, 1.125, `{"input_tokens":120,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":20,"total_tokens":140,"cost_usd":0.5}`)
	})
	t.Run("restored", func(t *testing.T) {
		// 2.1.277 and later, and one process taking prompts on stdin: the
		// totals go on.
		evs := feed(t, claude.FormatStreamJSON, nil, nil, cat(turn("s1", "m1", 120, 20, "0.5"), turn("s1", "m2", 240, 30, "0.75"))...)
		check(t, session(evs)[1], 240, 30, 0.75, "")
	})
	t.Run("another session", func(t *testing.T) {
		// Another session's totals are its own (reduce adds the runs).
		evs := feed(t, claude.FormatStreamJSON, nil, nil, cat(turn("s1", "m1", 120, 20, "0.5"), turn("s2", "m2", 120, 10, "0.25"), turn("s2", "m3", 60, 5, "0.125"))...)
		u := session(evs)
		check(t, u[1], 120, 10, 0.25, "")
		check(t, u[2], 180, 15, 0.375, `{"input_tokens":120,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":10,"total_tokens":130,"cost_usd":0.25}`)
	})
	t.Run("checkpoint", func(t *testing.T) {
		lines := cat(turn("s1", "m1", 120, 20, "0.5"), turn("s1", "m2", 120, 10, "0.25"))
		tr, err := claude.New(claude.FormatStreamJSON, golden.Options())
		if err != nil {
			t.Fatal(err)
		}
		var evs []universal.Event
		for i, l := range lines[:3] {
			evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
		}
		cp, err := tr.Checkpoint()
		if err != nil {
			t.Fatal(err)
		}
		tr2, _ := claude.New(claude.FormatStreamJSON, golden.Options())
		if err := tr2.Restore(cp); err != nil {
			t.Fatal(err)
		}
		for i, l := range lines[3:] {
			evs = tr2.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 4), TimeMS: -1})
		}
		check(t, session(evs)[1], 240, 30, 0.75, `{"input_tokens":120,"cached_input_tokens":0,"cache_write_tokens":0,"output_tokens":20,"total_tokens":140,"cost_usd":0.5}`)
	})
}
