package claude_test

import (
	"strings"
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

// bridged2232 is the start of a transcript Claude Code (2.1.2xx) writes
// once /remote-control bridges the session to claude.ai/code: the
// bridge-session entry and the system/bridge_status line, as a public
// project's notes on its Remote Control integration quote them ("The link
// does not need to be scraped out of the TUI. It is written to the
// transcript, clean, twice"; found by content search, the index does not
// name the repository; 2.1.232 measured by another, 2026-09-02), with the
// common envelope and a first prompt and answer in the shape of this
// package's 2.1.2xx samples.
var bridged2232 = []string{
	`{"type":"bridge-session","sessionId":"f58085bb-0000-4000-8000-000000000001","bridgeSessionId":"cse_01V1ZQG948YQbhEq2nusnbMc","lastSequenceNum":0}`,
	`{"parentUuid":null,"isSidechain":false,"type":"system","subtype":"bridge_status","content":"/remote-control is active · Continue here, on your phone, or at https://claude.ai/code/session_01V1ZQG948YQbhEq2nusnbMc","url":"https://claude.ai/code/session_01V1ZQG948YQbhEq2nusnbMc","isMeta":false,"timestamp":"2026-09-02T10:00:00.000Z","uuid":"b0000000-0000-4000-8000-000000000001","userType":"external","entrypoint":"cli","cwd":"/w","sessionId":"f58085bb-0000-4000-8000-000000000001","version":"2.1.232","gitBranch":"main"}`,
	`{"parentUuid":"b0000000-0000-4000-8000-000000000001","isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u0000000-0000-4000-8000-000000000001","timestamp":"2026-09-02T10:00:05.000Z","userType":"external","entrypoint":"cli","cwd":"/w","sessionId":"f58085bb-0000-4000-8000-000000000001","version":"2.1.232","gitBranch":"main"}`,
	`{"parentUuid":"u0000000-0000-4000-8000-000000000001","isSidechain":false,"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":2}},"uuid":"a0000000-0000-4000-8000-000000000001","timestamp":"2026-09-02T10:00:07.000Z","userType":"external","entrypoint":"cli","cwd":"/w","sessionId":"f58085bb-0000-4000-8000-000000000001","version":"2.1.232","gitBranch":"main"}`,
}

// TestBridgeStatus: a transcript's system/bridge_status (Remote Control
// bridged the session to claude.ai/code) is a status item labelled
// remote_control with its text and the web session's url as metadata; it
// was agent.unparsed ("unknown system subtype").
func TestBridgeStatus(t *testing.T) {
	evs := feed(t, claude.FormatTranscript, nil, nil, bridged2232...)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %v", u)
	}
	var found bool
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindStatus || it.Content[0].Label != "remote_control" {
			continue
		}
		found = true
		p := it.Content[0]
		if !strings.HasPrefix(p.Detail, "/remote-control is active") {
			t.Errorf("detail %q", p.Detail)
		}
		if string(p.Metadata) != `{"url":"https://claude.ai/code/session_01V1ZQG948YQbhEq2nusnbMc"}` {
			t.Errorf("metadata %s", p.Metadata)
		}
	}
	if !found {
		t.Error("no remote_control status item")
	}
}
