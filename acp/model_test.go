package acp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestUsageUpdateModel: claude-agent-acp's usage_update names the model of
// the call it follows in _meta._claude/model; usage.updated keeps the _meta
// and names the model in metadata model too. An update that names no model
// has none.
func TestUsageUpdateModel(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"@zed-industries/claude-agent-acp","version":"0.33.1"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"2"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":121,"size":200000,"_meta":{"_claude/model":"claude-sonnet-4-5"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":130,"size":200000}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	evs := translate(t, acp.FormatAgent, agent)
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
		var md struct {
			Model string
			Meta  map[string]any `json:"_meta"`
		}
		if d := e.Data.(*universal.UsageUpdated); d.Metadata != nil {
			if err := json.Unmarshal(d.Metadata, &md); err != nil {
				t.Fatal(err)
			}
		}
		got = append(got, md.Model)
		if md.Model != "" && md.Meta["_claude/model"] != md.Model {
			t.Errorf("_meta %v not kept", md.Meta)
		}
	}
	if len(got) != 2 || got[0] != "claude-sonnet-4-5" || got[1] != "" {
		t.Errorf("usage models %q, want [claude-sonnet-4-5 \"\"]", got)
	}
}
