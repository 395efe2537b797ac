package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAPIErrorAfterCutResponse: Claude Code 2.1.274 records a response
// that stopped arriving as the cut response's lines, then its own message
// (model <synthetic>, isApiErrorMessage, "API Error: The response stopped
// arriving…") whose parentUuid is the response's last line (the shape of
// a transcript another project's tests quote). The error line was taken
// as more of the response (both texts in one failed item, as a message
// of one response split over lines is), and the error event and the
// session's end said the response's text: they say the error's.
func TestAPIErrorAfterCutResponse(t *testing.T) {
	const apiError = "API Error: The response stopped arriving. The response above may be incomplete."
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"u1","timestamp":"2026-09-17T06:24:49.769Z","message":{"role":"user","content":"do it"},"version":"2.1.274","sessionId":"s1","cwd":"/w"}`,
		`{"parentUuid":"u1","isSidechain":false,"type":"assistant","uuid":"a1","timestamp":"2026-09-17T06:25:04.042Z","message":{"id":"msg_1","model":"claude-opus-4-8","role":"assistant","stop_reason":null,"type":"message","content":[{"type":"text","text":"Continuing with the migration."}]},"version":"2.1.274","sessionId":"s1"}`,
		`{"parentUuid":"a1","isSidechain":false,"type":"assistant","uuid":"a2","timestamp":"2026-09-17T06:27:49.769Z","message":{"id":"e1","model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","content":[{"type":"text","text":"`+apiError+`"}]},"error":"server_error","truncatedAfterOutput":true,"isApiErrorMessage":true,"version":"2.1.274","sessionId":"s1"}`,
		`{"parentUuid":"a2","isSidechain":false,"type":"system","subtype":"turn_duration","durationMs":182093,"messageCount":20,"timestamp":"2026-09-17T06:27:49.796Z","uuid":"s2","isMeta":false,"version":"2.1.274","sessionId":"s1"}`,
	)
	checkShape(t, evs)
	n := 0
	for _, e := range evs {
		if d, ok := e.Data.(*universal.Error); ok {
			n++
			if d.Message != apiError {
				t.Errorf("error %q, want %q", d.Message, apiError)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d errors, want 1", n)
	}
}
