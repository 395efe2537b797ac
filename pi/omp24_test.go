package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The lines below are in the shapes oh-my-pi (omp) 18.3.4 writes to
// --mode rpc once the host sent set_subagent_subscription
// (@oh-my-pi/pi-coding-agent 18.3.4, MIT: RpcSubagentLifecycleFrame,
// RpcSubagentProgressFrame and RpcSubagentEventFrame of
// src/modes/rpc/rpc-types.ts, written by src/modes/rpc/rpc-subagents.ts;
// SubagentLifecyclePayload and SubagentProgressPayload of
// @oh-my-pi/pi-tui 18.2.9 src/overlays/session-observer-registry.ts,
// AgentProgress of src/tools/task.ts; the sub-agent session's events as
// src/task/executor.ts forwards them, every AgentSessionEvent, toolResult
// messages with their message_end). Values are made up.

// ompTaskCall is a response calling omp's task tool, and its start.
const ompTaskCall = `{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"toolUse","timestamp":1790000000100},"messageId":"msg-2"}
{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"call-task","name":"task","arguments":{"agent":"explore","task":"Find the tests","solutionSpace":"repo"}}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":3,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":4,"cost":{"total":0.001}},"stopReason":"toolUse","timestamp":1790000000100},"messageId":"msg-2"}
{"type":"tool_execution_start","toolCallId":"call-task","toolName":"task","args":{"agent":"explore","task":"Find the tests","solutionSpace":"repo"}}
`

// ompTaskEnd is the task call's result.
const ompTaskEnd = `{"type":"tool_execution_end","toolCallId":"call-task","toolName":"task","result":{"content":[{"type":"text","text":"Found a_test.go"}],"details":{}},"isError":false}
{"type":"message_start","message":{"role":"toolResult","toolCallId":"call-task","toolName":"task","content":[{"type":"text","text":"Found a_test.go"}],"isError":false,"timestamp":1790000000900},"messageId":"msg-3"}
{"type":"message_end","message":{"role":"toolResult","toolCallId":"call-task","toolName":"task","content":[{"type":"text","text":"Found a_test.go"}],"isError":false,"timestamp":1790000000900},"messageId":"msg-3"}
`

func ompLifecycle(status, parent string) string {
	p := ""
	if parent != "" {
		p = `,"parentToolCallId":"` + parent + `"`
	}
	return `{"type":"subagent_lifecycle","payload":{"id":"0-Explore","agent":"explore","agentSource":"bundled","description":"Find the tests","status":"` + status + `","sessionFile":"/home/u/.omp/sessions/s1/0-Explore.jsonl"` + p + `,"index":0}}` + "\n"
}

func ompSubEvent(event string) string {
	return `{"type":"subagent_event","payload":{"id":"0-Explore","event":` + event + `}}` + "\n"
}

// ompSubRun is the sub-agent's run as its events come: its prompt, a
// response calling find, the call's result, its answer, with the events
// that repeat them or mark its steps in between.
var ompSubRun = ompSubEvent(`{"type":"agent_start"}`) +
	ompSubEvent(`{"type":"turn_start"}`) +
	ompSubEvent(`{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"Find the tests"}],"timestamp":1790000000200}}`) +
	ompSubEvent(`{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"Find the tests"}],"timestamp":1790000000200}}`) +
	`{"type":"subagent_progress","payload":{"index":0,"agent":"explore","agentSource":"bundled","task":"Find the tests","parentToolCallId":"call-task","progress":{"index":0,"id":"0-Explore","agent":"explore","agentSource":"bundled","status":"running","task":"Find the tests","recentTools":[],"recentOutput":[],"toolCount":0,"requests":0,"tokens":0,"cost":0,"durationMs":12}}}` + "\n" +
	ompSubEvent(`{"type":"message_update","message":{"role":"assistant","content":[]},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"Looking"}}`) +
	ompSubEvent(`{"type":"message_end","message":{"role":"assistant","content":[{"type":"thinking","thinking":"search"},{"type":"text","text":"Looking"},{"type":"toolCall","id":"sc1","name":"find","arguments":{"pattern":"*_test.go"}}],"usage":{"input":5,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":7,"cost":{"total":0.002}},"stopReason":"toolUse","timestamp":1790000000300}}`) +
	ompSubEvent(`{"type":"tool_execution_start","toolCallId":"sc1","toolName":"find","args":{"pattern":"*_test.go"}}`) +
	ompSubEvent(`{"type":"tool_execution_end","toolCallId":"sc1","toolName":"find","result":{"content":[{"type":"text","text":"a_test.go"}]},"isError":false}`) +
	ompSubEvent(`{"type":"message_end","message":{"role":"toolResult","toolCallId":"sc1","toolName":"find","content":[{"type":"text","text":"a_test.go"}],"isError":false,"timestamp":1790000000400}}`) +
	ompSubEvent(`{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"Found a_test.go"}],"stopReason":"stop","timestamp":1790000000500}}`) +
	ompSubEvent(`{"type":"agent_end","messages":[]}`)

// TestOmpSubagentFrames: the sub-agent frames omp writes after
// set_subagent_subscription were agent.unparsed (each line), so a
// sub-agent's prompt, messages, calls and results were lost. Its
// lifecycle is now status items under the task call (sub_agent_started,
// sub_agent_completed), its messages items under that call, its calls
// and results under its messages, as the replayed runs of Pi's subagent
// extension are; its progress heartbeats and repeating events add
// nothing. A sub-agent whose spawner is not known goes under its
// sub_agent_started item; one whose start was not seen under a start
// made up for it.
func TestOmpSubagentFrames(t *testing.T) {
	for _, tc := range []struct {
		name, lines string
		// under: what the sub-agent's items go under (label of a status
		// item, or "call" for the task call).
		under string
	}{
		{"under the task call", ompStream + ompTaskCall + ompLifecycle("started", "call-task") + ompSubRun + ompLifecycle("completed", "call-task") + ompTaskEnd + ompReply, "call"},
		{"spawner unknown", ompStream + ompTaskCall + ompLifecycle("started", "") + ompSubRun + ompLifecycle("completed", "") + ompTaskEnd + ompReply, "sub_agent_started"},
		{"start not seen", ompStream + ompTaskCall + ompSubRun + ompLifecycle("completed", "call-task") + ompTaskEnd + ompReply, "sub_agent_started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translate(t, pi.FormatRPC, []byte(tc.lines))
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("%d agent.unparsed, first %+v", len(u), u[0].Data)
			}
			if errs := golden.OfType(evs, universal.TypeError); len(errs) != 0 {
				t.Errorf("%d error events", len(errs))
			}
			items := completed(evs)
			byID := map[string]universal.Item{}
			taskCall := ""
			for _, it := range items {
				byID[it.ItemID] = it
				if it.Kind == universal.KindToolCall && it.Content[0].CallID == "call-task" {
					taskCall = it.ItemID
				}
			}
			st := statusParts(items)
			started, done := st["sub_agent_started"], st["sub_agent_completed"]
			if len(started) != 1 || len(done) != 1 {
				t.Fatalf("sub_agent_started %+v, sub_agent_completed %+v", started, done)
			}
			if md := mdOf(t, done[0]); md["subagent_id"] != "0-Explore" || md["agent"] != "explore" || md["status"] != "completed" ||
				md["session_file"] != "/home/u/.omp/sessions/s1/0-Explore.jsonl" || done[0].Detail != "Find the tests" {
				t.Errorf("sub_agent_completed %q %v", done[0].Detail, md)
			}
			under := taskCall
			if tc.under != "call" {
				for _, it := range items {
					if it.Kind == universal.KindStatus && it.Content[0].Label == tc.under {
						under = it.ItemID
					}
				}
			}
			var got []string
			for _, it := range items {
				if it.ParentID == "" || it.Kind == universal.KindStatus {
					continue
				}
				p := byID[it.ParentID]
				where := "?"
				switch {
				case it.ParentID == under:
					where = "in-sub"
				case p.Kind == universal.KindMessage && byID[p.ParentID].ItemID == under:
					where = "in-sub-msg"
				case p.Kind == universal.KindMessage && p.ParentID == "":
					where = "in-main-msg"
				}
				s := where + " " + string(it.Kind) + " " + string(it.Role) + " "
				switch it.Kind {
				case universal.KindToolCall:
					s += it.Content[0].Name + " " + it.Content[0].Arguments
				case universal.KindToolResult:
					s += it.Content[0].CallID + " " + it.Content[0].Output
				default:
					s += golden.TextOf(&it)
				}
				got = append(got, s)
			}
			want := []string{
				`in-main-msg tool_call assistant task {"agent":"explore","task":"Find the tests","solutionSpace":"repo"}`,
				"in-main-msg tool_result tool call-task Found a_test.go", // opened by tool_execution_start
				"in-sub message user Find the tests",
				"in-sub message assistant Looking",
				`in-sub-msg tool_call assistant find {"pattern":"*_test.go"}`,
				"in-sub-msg tool_result tool sc1 a_test.go",
				"in-sub message assistant Found a_test.go",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// The sub-agent's usage is the task call's, not the session's
			// again.
			for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
				if u := e.Data.(*universal.UsageUpdated); u.Usage.InputTokens != nil && *u.Usage.InputTokens == 5 {
					t.Errorf("the sub-agent's usage was emitted: %s", e.AppendJSON(nil))
				}
			}
		})
	}
}

// TestOmpSubagentFailed: a sub-agent that failed is a sub_agent_failed
// status item, its failed message a failed item; no error event (a
// sub-agent's failure is not the session's). Malformed frames are
// agent.unparsed.
func TestOmpSubagentFailed(t *testing.T) {
	lines := ompStream + ompTaskCall + ompLifecycle("started", "call-task") +
		ompSubEvent(`{"type":"message_end","message":{"role":"assistant","content":[],"stopReason":"error","errorMessage":"529 overloaded","timestamp":1790000000300}}`) +
		ompLifecycle("failed", "call-task") +
		`{"type":"subagent_event","payload":{"id":"0-Explore"}}` + "\n" +
		`{"type":"subagent_lifecycle","payload":"x"}` + "\n" +
		ompTaskEnd + ompReply
	evs := translate(t, pi.FormatRPC, []byte(lines))
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 2 {
		t.Errorf("%d agent.unparsed, want 2", len(u))
	}
	if errs := golden.OfType(evs, universal.TypeError); len(errs) != 0 {
		t.Errorf("%d error events", len(errs))
	}
	items := completed(evs)
	if f := statusParts(items)["sub_agent_failed"]; len(f) != 1 {
		t.Errorf("sub_agent_failed %+v", f)
	}
	failed := 0
	for _, it := range items {
		if it.Kind == universal.KindMessage && it.Status == universal.StatusFailed && it.ParentID != "" {
			failed++
			if p := it.Content[len(it.Content)-1]; p.Label != "error" || p.Detail != "529 overloaded" {
				t.Errorf("failed sub-agent message %+v", it.Content)
			}
		}
	}
	if failed != 1 {
		t.Errorf("%d failed sub-agent messages, want 1", failed)
	}
}

// TestOmpSubagentCheckpoint: a checkpoint taken while a sub-agent runs
// (its call awaiting its result) restores to the same output.
func TestOmpSubagentCheckpoint(t *testing.T) {
	all := strings.SplitAfter(ompStream+ompTaskCall+ompLifecycle("started", "call-task")+ompSubRun+ompLifecycle("completed", "call-task")+ompTaskEnd+ompReply, "\n")
	cut := 0
	for i, l := range all {
		if strings.Contains(l, `"tool_execution_start","toolCallId":"sc1"`) {
			cut = i
		}
	}
	whole := translate(t, pi.FormatRPC, []byte(strings.Join(all, "")))
	tr, err := pi.New(pi.FormatRPC, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	feedLines := func(tr universal.Translator, ls []string, from int) {
		for i, l := range ls {
			if strings.TrimSpace(l) == "" {
				continue
			}
			out = tr.Translate(out, universal.Message{Data: []byte(strings.TrimSuffix(l, "\n")), Line: int64(from + i + 1), TimeMS: -1})
		}
	}
	feedLines(tr, all[:cut], 0)
	cp, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cp), `"subagents"`) {
		t.Fatalf("checkpoint without the sub-agent: %s", cp)
	}
	tr2, err := pi.New(pi.FormatRPC, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	if err := tr2.Restore(cp); err != nil {
		t.Fatal(err)
	}
	feedLines(tr2, all[cut:], cut)
	out = tr2.Report(out, universal.EndOfInput{})
	if len(out) != len(whole) {
		t.Fatalf("%d events after a restore, %d in one run", len(out), len(whole))
	}
	for i := range out {
		if a, b := string(out[i].AppendJSON(nil)), string(whole[i].AppendJSON(nil)); a != b {
			t.Fatalf("event %d:\n%s\nwant\n%s", i, a, b)
		}
	}
}

// TestOmpTaskSubAgentError: a failed sub-agent run of oh-my-pi's task
// tool (details.results[], SingleResult of @oh-my-pi/pi-tui 18.2.9
// src/tools/task.ts: exitCode, error, aborted, abortReason) was only in
// the result's details: sub_agent_error, which the sub-agent convention
// of package universal asks for and Pi's subagent extension gets, was not
// set. It is now, one "<agent>: <why>" line per failed run; no error
// event, and a successful run adds nothing.
func TestOmpTaskSubAgentError(t *testing.T) {
	end := func(results string, isError bool) string {
		e := "false"
		if isError {
			e = "true"
		}
		return `{"type":"tool_execution_end","toolCallId":"call-task","toolName":"task","result":{"content":[{"type":"text","text":"done"}],"details":{"projectAgentsDir":null,"totalDurationMs":900,"results":[` + results + `]}},"isError":` + e + `}` + "\n"
	}
	for _, tc := range []struct {
		name, results string
		isError       bool
		message, code string
	}{
		{"error", `{"index":0,"id":"0-Explore","agent":"explore","task":"t","exitCode":1,"output":"","stderr":"","truncated":false,"durationMs":10,"tokens":0,"requests":1,"error":"529 overloaded"},{"index":1,"id":"1-Plan","agent":"plan","task":"t","exitCode":0,"output":"ok","stderr":"","truncated":false,"durationMs":10,"tokens":0,"requests":1}`, true, "explore: 529 overloaded", ""},
		{"aborted", `{"index":0,"id":"0-Explore","agent":"explore","task":"t","exitCode":1,"output":"","stderr":"","truncated":false,"durationMs":10,"tokens":0,"requests":1,"aborted":true,"abortReason":"runtime limit exceeded"}`, false, "explore: runtime limit exceeded", "aborted"},
		{"success", `{"index":0,"id":"0-Explore","agent":"explore","task":"t","exitCode":0,"output":"ok","stderr":"","truncated":false,"durationMs":10,"tokens":0,"requests":1}`, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translate(t, pi.FormatRPC, []byte(ompStream+ompTaskCall+end(tc.results, tc.isError)+ompReply))
			if errs := golden.OfType(evs, universal.TypeError); len(errs) != 0 {
				t.Errorf("%d error events", len(errs))
			}
			var md []byte
			for _, it := range completed(evs) {
				if it.Kind == universal.KindToolResult && it.Content[0].CallID == "call-task" {
					md = it.Content[0].Metadata
				}
			}
			got := gjson.GetBytes(md, "sub_agent_error")
			if got.Get("message").Str != tc.message || got.Get("code").Str != tc.code || (tc.message == "" && got.Exists()) {
				t.Errorf("sub_agent_error %s, want %q %q", got.Raw, tc.message, tc.code)
			}
		})
	}
}
