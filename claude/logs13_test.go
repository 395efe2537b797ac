package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// sessionCosts returns the cost of each session-scope usage.updated.
func sessionCosts(evs []universal.Event) []float64 {
	var out []float64
	for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
		if u := e.Data.(*universal.UsageUpdated); u.Scope == universal.ScopeSession && u.CostUSD != nil {
			out = append(out, *u.CostUSD)
		}
	}
	return out
}

// TestResultCostUSD: before Claude Code renamed it total_cost_usd (mid
// 2025, ~1.0.3x; "Rename cost_usd to total_cost_usd in API responses",
// claude-code-sdk-python 0.0.13, and its example's follow-up,
// anthropics/claude-agent-sdk-python PR 41), a result's cost of the
// process was cost_usd, as in the result line a public project's Rust test
// quotes as the real CLI's ("Real Claude CLI JSON output format"; the
// index does not name the repository): the cost was dropped. A result
// with both names (transitional builds, as other projects' tests write
// them) keeps total_cost_usd.
func TestResultCostUSD(t *testing.T) {
	const old = `{"type":"result","subtype":"success","cost_usd":0.003,"is_error":false,"duration_ms":5443,"duration_api_ms":3709,"num_turns":1,"result":"ok","session_id":"abc-123-def"}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","session_id":"abc-123-def","tools":["Bash"],"mcp_servers":[]}`,
		`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":4,"output_tokens":2}},"session_id":"abc-123-def"}`,
		old)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	if got := sessionCosts(evs); len(got) != 1 || got[0] != 0.003 {
		t.Errorf("session costs %v, want [0.003]", got)
	}

	evs = feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"result","subtype":"success","cost_usd":0.5,"total_cost_usd":0.75,"is_error":false,"num_turns":1,"result":"ok","session_id":"s"}`)
	if got := sessionCosts(evs); len(got) != 1 || got[0] != 0.75 {
		t.Errorf("session costs %v, want [0.75] (total_cost_usd)", got)
	}
}
