package amp_test

import (
	"bytes"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSystemStatus: a system/status line in stream-json was
// agent.unparsed (unknown system subtype). It is Claude Code's progress
// notice ({status: "requesting" | "compacting" | null, …}), whose format
// Amp's stream-json imitates; hosts' fixtures of Amp output carry it
// ({"status":"thinking"}, seen in a public Amp mapper's test suite). No
// Amp build is known to write it (0.0.1790142911's writer makes only
// system/init, the Amp SDK's types name no other), and a progress notice
// tells nothing the turn's lines do not: it is consumed, the stream
// translated as without it. A status line without a status (a string or
// null) is no such notice (agent.unparsed at status), and one of another
// thread is reported as every line of another thread is.
func TestSystemStatus(t *testing.T) {
	base := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answerLine, okResult), nil)
	for _, tc := range []struct {
		name, line, unparsed string
	}{
		{"a host's fixture", `{"type":"system","subtype":"status","status":"thinking"}`, ""},
		// Claude Code 2.1.332's line (testdata/claude/2.1.332-hooks), the
		// session id made Amp's.
		{"Claude Code's requesting", `{"type":"system","subtype":"status","status":"requesting","session_id":"T-1","uuid":"cbae65da-daa1-472f-b22d-7a262fa65edc"}`, ""},
		{"Claude Code's end of a compaction", `{"type":"system","subtype":"status","status":null,"compact_result":"success","session_id":"T-1","uuid":"bcab2d5a-99bd-4e43-a9aa-165e951ffc34"}`, ""},
		{"a failed compaction", `{"type":"system","subtype":"status","status":null,"compact_result":"failed","compact_error":"Not enough messages to compact.","session_id":"T-1"}`, "compact_result"},
		{"a compaction's error alone", `{"type":"system","subtype":"status","status":null,"compact_error":"too long","session_id":"T-1"}`, "compact_error"},
		{"a permission mode", `{"type":"system","subtype":"status","status":null,"permissionMode":"plan","session_id":"T-1"}`, "permissionMode"},
		{"no status", `{"type":"system","subtype":"status"}`, "status"},
		{"a status of another type", `{"type":"system","subtype":"status","status":3}`, "status"},
		{"another thread", `{"type":"system","subtype":"status","status":"requesting","session_id":"T-2"}`, "session_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, tc.line, answerLine, okResult), nil)
			u := golden.OfType(out, universal.TypeUnparsed)
			if tc.unparsed != "" {
				if len(u) != 1 || u[0].Data.(*universal.Unparsed).Location != "amp: line 3: "+tc.unparsed {
					t.Fatalf("unparsed %+v, want one at %q", u, tc.unparsed)
				}
				return
			}
			if len(out) != len(base) {
				t.Fatalf("%d events, %d without the line", len(out), len(base))
			}
			for i := range out {
				a, b := out[i], base[i]
				a.Raw, b.Raw = nil, nil
				if !bytes.Equal(a.AppendJSON(nil), b.AppendJSON(nil)) {
					t.Errorf("event %d:\n%s\nwithout the line:\n%s", i, a.AppendJSON(nil), b.AppendJSON(nil))
				}
			}
		})
	}
}
