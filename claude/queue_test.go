package claude_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

// TestQueueOperations: a transcript's queue-operation entries are read
// so that what was queued for the model and never reached it is kept (a
// status item labelled "queue"), and what reached it is not shown twice.
// The entries are in the shapes Claude Code 2.1.332 writes them ({type,
// operation, timestamp, sessionId, content?, reason?, commandUuid?,
// deliveryId?}; older versions write no reason); the contents are made up.
func TestQueueOperations(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.332","cwd":"/w",`, 1)
	}
	op := func(operation, more string) string {
		return `{"type":"queue-operation","operation":"` + operation + `","timestamp":"2026-07-01T10:00:00.000Z","sessionId":"s1"` + more + `}`
	}
	prompt := line(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`)
	answer := line(`{"type":"assistant","uuid":"u2","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn"}}`)
	next := line(`{"type":"user","uuid":"u3","message":{"role":"user","content":"and then this"}}`)
	notice := "<task-notification>\n<task-id>b1</task-id>\n<status>killed</status>\n<result>partial</result>\n</task-notification>"
	noticeJSON, _ := json.Marshal(notice)
	type queued struct{ detail, content, native string }
	for _, tc := range []struct {
		name  string
		lines []string
		want  []queued
	}{
		{"taken for the next turn", []string{prompt, op("enqueue", `,"content":"and then this"`), answer, op("dequeue", ""), next}, nil},
		{"still queued at the end", []string{prompt, answer, op("enqueue", `,"content":`+string(noticeJSON))},
			[]queued{{"not delivered: the record ends", notice, ""}}},
		{"cleared on cancel", []string{prompt, op("enqueue", `,"content":"first"`), op("enqueue", `,"content":"second"`),
			op("remove", `,"content":"second","reason":"cleared_on_cancel","commandUuid":"c2"`), answer, op("dequeue", "")},
			[]queued{{"not delivered: cleared_on_cancel", "second", "c2"}}},
		{"dropped by a hook (no content)", []string{prompt, op("enqueue", `,"content":"first"`),
			op("remove", `,"reason":"dropped_by_hook","commandUuid":"c1"`), answer},
			[]queued{{"not delivered: dropped_by_hook", "first", "c1"}}},
		{"absorbed by the running turn", []string{prompt, op("enqueue", `,"content":"also this"`),
			op("remove", `,"content":"also this","reason":"absorbed_mid_turn","commandUuid":"c1"`), answer}, nil},
		{"removed before reasons were written", []string{prompt, op("enqueue", `,"content":"also this"`), op("remove", ""), answer}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, tc.lines...)
			checkShape(t, evs)
			var got []queued
			for _, it := range completed(evs, universal.KindStatus, "") {
				p := it.Content[0]
				if p.Label != "queue" {
					continue
				}
				var md struct{ Content string }
				if err := json.Unmarshal(p.Metadata, &md); err != nil {
					t.Fatalf("metadata %s: %v", p.Metadata, err)
				}
				got = append(got, queued{p.Detail, md.Content, it.NativeItemID})
			}
			if len(got) != len(tc.want) {
				t.Fatalf("queue items %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("queue item %d: %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
	// Stream-json never writes the queue; a line of it is not read there.
	evs := feed(t, claude.FormatStreamJSON, nil, nil, initLine, op("enqueue", `,"content":"x"`), resultLine)
	for _, it := range completed(evs, universal.KindStatus, "") {
		if it.Content[0].Label == "queue" {
			t.Errorf("stream-json: a queue item %+v", it.Content[0])
		}
	}
}

// TestQueuedBackgroundReportAtEnd: a transcript turn that launched a
// background sub-agent stays open for its notification (2.1.120 and
// later answer it in that turn). Claude Code 2.1.214 (an Agent SDK run,
// link-assistant/hive-mind dev/log/issues/2082, the end of its
// transcript) stopped a still-running background agent when the run
// ended: after the turn's final response it enqueued the agent's
// notification (status killed) and wrote nothing more. The agent did
// report; the record ends before the CLI answered it. The turn ended
// interrupted and the session failed ("the session ended during a
// turn"); it ends completed, as its final response left it, and the
// notification shows as not delivered. Without the enqueue (a record
// cut while the agent ran) the turn still waits and is cut off.
func TestQueuedBackgroundReportAtEnd(t *testing.T) {
	line := func(s string) string {
		return strings.Replace(s, `{`, `{"sessionId":"s1","version":"2.1.214","cwd":"/w","entrypoint":"sdk-cli",`, 1)
	}
	notice, _ := json.Marshal("<task-notification>\n<task-id>a48b</task-id>\n<tool-use-id>toolu_A</tool-use-id>\n<output-file>/tmp/a48b.output</output-file>\n<status>killed</status>\n<summary>Agent \"Fix lint\" was stopped by user</summary>\n</task-notification>")
	lines := []string{
		`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-19T12:25:26.394Z","sessionId":"s1","content":"fix it"}`,
		`{"type":"queue-operation","operation":"dequeue","timestamp":"2026-07-19T12:25:26.400Z","sessionId":"s1"}`,
		line(`{"parentUuid":null,"isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":"fix it"},"uuid":"u1","timestamp":"2026-07-19T12:25:26.444Z","promptSource":"sdk"}`),
		line(`{"parentUuid":"u1","isSidechain":false,"message":{"model":"claude-opus-4-8","id":"m1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"Agent","input":{"description":"Fix lint","prompt":"fix lint","subagent_type":"general-purpose","run_in_background":true}}],"stop_reason":"tool_use","usage":{"input_tokens":2,"output_tokens":5}},"type":"assistant","uuid":"a1","timestamp":"2026-07-19T12:25:30.000Z"}`),
		line(`{"parentUuid":"a1","isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_A","type":"tool_result","content":[{"type":"text","text":"Async agent launched successfully.\nagentId: a48b"}]}]},"uuid":"u2","timestamp":"2026-07-19T12:25:31.000Z","toolUseResult":{"isAsync":true,"status":"async_launched","agentId":"a48b","description":"Fix lint","prompt":"fix lint"}}`),
		line(`{"parentUuid":"u2","isSidechain":false,"message":{"model":"claude-opus-4-8","id":"m2","type":"message","role":"assistant","content":[{"type":"text","text":"CI is green."}],"stop_reason":"end_turn","usage":{"input_tokens":2,"output_tokens":5}},"type":"assistant","uuid":"a2","timestamp":"2026-07-19T13:39:49.142Z"}`),
		`{"type":"last-prompt","lastPrompt":"fix it","leafUuid":"a2","sessionId":"s1"}`,
	}
	enqueue := `{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-19T13:49:50.206Z","sessionId":"s1","content":` + string(notice) + `}`
	for _, tc := range []struct {
		name    string
		lines   []string
		turn    universal.TurnStatus
		reason  universal.EndReason
		pending int
	}{
		{"notification queued at the end", append(slices.Clone(lines), enqueue), universal.TurnCompleted, universal.EndCompleted, 1},
		{"no notification", lines, universal.TurnInterrupted, universal.EndError, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, tc.lines...)
			checkShape(t, evs)
			if got := turnStatuses(evs); len(got) != 1 || got[0] != tc.turn {
				t.Errorf("turns %v, want [%s]", got, tc.turn)
			}
			if end := evs[len(evs)-1].Data.(*universal.SessionEnded); end.Reason != tc.reason {
				t.Errorf("session ended %q (%v), want %q", end.Reason, end.Message, tc.reason)
			}
			n := 0
			for _, it := range completed(evs, universal.KindStatus, "") {
				if it.Content[0].Label == "queue" && strings.Contains(string(it.Content[0].Metadata), "toolu_A") {
					n++
				}
			}
			if n != tc.pending {
				t.Errorf("%d undelivered notifications, want %d", n, tc.pending)
			}
		})
	}
}
