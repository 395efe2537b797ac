package opencode_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestNextStepFiles: session.next.step.ended of the V2 envelope
// (@opencode-ai/sdk 1.19.3 types.gen.d.ts SessionNextStepEnded: {…,
// snapshot?, files?}) names the files the step changed, what 1.x's patch
// part {hash, files} says at a step's end; they are the assistant
// message's file_ref parts (action patch, metadata hash), as the patch
// part's. They were dropped.
func TestNextStepFiles(t *testing.T) {
	type ref struct{ path, meta string }
	head := lines(
		`{"id":"ev1","type":"session.created","data":{"sessionID":"ses_n1","info":{"id":"ses_n1","slug":"calm-owl","projectID":"prj","directory":"/repo","title":"t","version":"1.19.3","time":{"created":1,"updated":1}}}}`,
		`{"id":"ev2","type":"session.next.prompted","durable":{"aggregateID":"ses_n1","seq":1,"version":1},"data":{"sessionID":"ses_n1","messageID":"msg_u","prompt":{"text":"fix both files"},"delivery":"queue","timestamp":2}}`,
		`{"id":"ev3","type":"session.next.step.started","durable":{"aggregateID":"ses_n1","seq":2,"version":1},"data":{"sessionID":"ses_n1","assistantMessageID":"msg_a","agent":"build","model":{"id":"mdl","providerID":"prv"},"timestamp":3}}`,
	)
	tail := `{"id":"ev9","type":"session.status","data":{"sessionID":"ses_n1","status":{"type":"idle"}}}`
	tests := []struct {
		name, end string
		want      []ref
	}{
		{"files and snapshot",
			`"snapshot":"4b825dc","files":["/repo/a.go","/repo/b/c.go"]`,
			[]ref{{"/repo/a.go", `{"hash":"4b825dc"}`}, {"/repo/b/c.go", `{"hash":"4b825dc"}`}}},
		{"files without a snapshot", `"files":["/repo/a.go"]`, []ref{{"/repo/a.go", `{}`}}},
		{"no files changed", `"snapshot":"4b825dc","files":[]`, nil},
		{"no files member", `"snapshot":"4b825dc"`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			end := `{"id":"ev4","type":"session.next.step.ended","durable":{"aggregateID":"ses_n1","seq":3,"version":2},"data":{"sessionID":"ses_n1","assistantMessageID":"msg_a","finish":"stop","cost":0,"tokens":{"input":4,"output":2,"reasoning":0,"cache":{"read":0,"write":0}},"timestamp":4,` + tc.end + `}}`
			evs := run(t, opencode.FormatEventLines, head+lines(end, tail))
			for _, ev := range golden.OfType(evs, universal.TypeUnparsed) {
				t.Errorf("agent.unparsed %+v", ev.Data)
			}
			var msgs []universal.Item
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant {
					msgs = append(msgs, it)
				}
			}
			if len(msgs) != 1 {
				t.Fatalf("%d assistant messages, want one", len(msgs))
			}
			var got []ref
			for _, p := range msgs[0].Content {
				if p.Type == universal.PartFileRef && p.Action == universal.FilePatch {
					got = append(got, ref{p.Path, string(p.Metadata)})
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("file_refs %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("file_ref %d %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}
