package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSessionStatsResponse: a get_session_stats response carries the
// session's usage so far (compaction and branch summaries included, which
// no message shows) and the context window: usage.updated with scope
// session. The response line is Pi 0.84.3's real answer as quoted in
// asiazhang/cognicode docs/research/pi-schema.md §3 (commit 45d6deb),
// after a prompt answered with one model call; the lines before it are a
// minimal run in the shapes quoted there (§1.2, §4).
func TestSessionStatsResponse(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"response","command":"prompt","success":true}`,
		`{"type":"agent_start"}`,
		`{"type":"turn_start"}`,
		`{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"Reply with the single word: OK"}],"timestamp":1787646879000}}`,
		`{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"Reply with the single word: OK"}],"timestamp":1787646879000}}`,
		`{"type":"message_start","message":{"role":"assistant","content":[],"api":"openai-completions","provider":"tencent-copilot","model":"deepseek-v4-flash-ioa","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"pending","timestamp":1787646879941}}`,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"OK"}],"api":"openai-completions","provider":"tencent-copilot","model":"deepseek-v4-flash-ioa","usage":{"input":9085,"output":15,"cacheRead":0,"cacheWrite":0,"reasoning":13,"totalTokens":9100,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1787646879941}}`,
		`{"type":"turn_end","message":{"role":"assistant","content":[{"type":"text","text":"OK"}],"stopReason":"stop","timestamp":1787646879941},"toolResults":[]}`,
		`{"type":"agent_end","messages":[],"willRetry":false}`,
		`{"type":"agent_settled"}`,
		`{"type":"response","command":"get_session_stats","success":true,"data":{"sessionId":"01a0380e-6dee-7165-b91c-72184c614eb8","userMessages":1,"assistantMessages":1,"toolCalls":0,"toolResults":0,"totalMessages":2,"tokens":{"input":9085,"output":15,"cacheRead":0,"cacheWrite":0,"total":9100},"cost":0,"contextUsage":{"tokens":9100,"contextWindow":1000000,"percent":0.91}}}`,
	}, "\n") + "\n"
	var got []*universal.UsageUpdated
	for _, e := range golden.OfType(translate(t, pi.FormatRPC, []byte(in)), universal.TypeUsageUpdated) {
		got = append(got, e.Data.(*universal.UsageUpdated))
	}
	if len(got) != 2 {
		t.Fatalf("%d usage events, want the call's and the session's", len(got))
	}
	s := got[1]
	if s.Scope != universal.ScopeSession || s.Usage.InputTokens == nil || *s.Usage.InputTokens != 9085 ||
		s.Usage.OutputTokens == nil || *s.Usage.OutputTokens != 15 || s.Usage.TotalTokens == nil || *s.Usage.TotalTokens != 9100 ||
		s.CostUSD == nil || *s.CostUSD != 0 || s.ContextWindow == nil || *s.ContextWindow != 1000000 {
		t.Errorf("session usage %+v", s)
	}
	if want := `{"basis":"get_session_stats","context_usage":{"tokens":9100,"contextWindow":1000000,"percent":0.91}}`; string(s.Metadata) != want {
		t.Errorf("metadata %s, want %s", s.Metadata, want)
	}
}
