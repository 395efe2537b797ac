package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestTranscriptCallCost: before 1.0.9 a transcript's assistant entry gave
// its call's cost and duration beside the message (costUSD, durationMs:
// ccusage/ccusage issue 4, "Claude Code 1.0.9 no longer reports the
// costUSD field", quotes a 1.0.9 entry without them; log analysers' entry
// types name both as optional numbers of the entry). They were dropped;
// they are the call usage's cost and its metadata duration_ms. An entry
// of 1.0.9 and later (no costUSD) keeps a call usage without cost, and a
// null costUSD (what some builds wrote, nwiizo/claudelytics PR 7) is none.
func TestTranscriptCallCost(t *testing.T) {
	const env = `"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"0a9a8045-0000-4000-8000-000000000001","version":"1.0.6"`
	evs := feed(t, claude.FormatTranscript, nil, nil,
		`{"parentUuid":null,`+env+`,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2025-05-30T10:00:00.000Z"}`,
		`{"parentUuid":"u1",`+env+`,"message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-20250514","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":161,"cache_read_input_tokens":89356,"output_tokens":97}},"costUSD":0.1523,"durationMs":3382,"type":"assistant","uuid":"a1","timestamp":"2025-05-30T10:00:04.000Z"}`,
		`{"parentUuid":"a1",`+env+`,"type":"user","message":{"role":"user","content":"again"},"uuid":"u2","timestamp":"2025-05-30T10:01:00.000Z"}`,
		`{"parentUuid":"u2",`+env+`,"message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-opus-4-20250514","content":[{"type":"text","text":"Again."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":4}},"costUSD":null,"durationMs":null,"type":"assistant","uuid":"a2","timestamp":"2025-05-30T10:01:04.000Z"}`)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	var calls []*universal.UsageUpdated
	for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
		if u := e.Data.(*universal.UsageUpdated); u.Scope == universal.ScopeCall {
			calls = append(calls, u)
		}
	}
	if len(calls) != 2 {
		t.Fatalf("%d call usages, want 2", len(calls))
	}
	if c := calls[0]; c.CostUSD == nil || *c.CostUSD != 0.1523 || !strings.Contains(string(c.Metadata), `"duration_ms":3382`) ||
		c.Usage.OutputTokens == nil || *c.Usage.OutputTokens != 97 {
		t.Errorf("first call usage: cost %v, metadata %s, want cost 0.1523, duration_ms 3382 and 97 output tokens", c.CostUSD, c.Metadata)
	}
	if c := calls[1]; c.CostUSD != nil || strings.Contains(string(c.Metadata), "duration_ms") {
		t.Errorf("second call usage (null costUSD): cost %v, metadata %s, want neither", c.CostUSD, c.Metadata)
	}
}
