package claude_test

import (
	"encoding/json"
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
