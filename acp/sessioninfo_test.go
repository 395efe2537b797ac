package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSessionInfoKind: a session_info_update whose agent's _meta names
// its kind (Kiro CLI sends many: context usage, turn markers) is a
// session_info status item with that kind as its detail; with no kind, or
// two namespaces naming one, no detail.
func TestSessionInfoKind(t *testing.T) {
	evs := translate(t, acp.FormatAgent, agentSetup+strings.Join([]string{
		update("s1", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}`),
		update("s1", `{"sessionUpdate":"session_info_update","_meta":{"kiro":{"contextUsage":{"usagePercentage":1.9},"kind":"context_usage","usagePercentage":1.9}}}`),
		update("s1", `{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"idle"}}}}`),
		update("s1", `{"sessionUpdate":"session_info_update","_meta":{"a":{"kind":"x"},"b":{"kind":"y"}}}`),
	}, "\n")+"\n")
	var details []string
	for _, it := range golden.NewTranscript(evs).Items {
		if it.Kind == universal.KindStatus && it.Content[0].Label == "session_info" {
			details = append(details, it.Content[0].Detail)
		}
	}
	if strings.Join(details, "|") != "context_usage||" {
		t.Errorf("details %q, want context_usage, then none twice", details)
	}
}
