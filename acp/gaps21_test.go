package acp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// userParts returns the parts of each completed user message, type:text.
func userParts(evs []universal.Event) [][]string {
	var out [][]string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindMessage || it.Role != universal.RoleUser {
			continue
		}
		var ps []string
		for _, p := range it.Content {
			ps = append(ps, string(p.Type)+":"+p.Text)
		}
		out = append(out, ps)
	}
	return out
}

// TestReplayedUserBlocks: Kimi Code CLI replays a prompt (session/load)
// as one user_message_chunk per part of the turn's user input
// (MoonshotAI/kimi-cli src/kimi_cli/acp/session.py, _send_user_input: a
// TextPart's text, any other part as the text "[ImageURLPart]" …), no
// messageId: the blocks of one prompt. They were glued into one text
// ("look at this[ImageURLPart]"); each is its own part, as each block of
// a live session/prompt is.
func TestReplayedUserBlocks(t *testing.T) {
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":1,"result":{"agentCapabilities":{"loadSession":true},"agentInfo":{"name":"Kimi Code CLI","version":"1.47.0"},"protocolVersion":1}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"look at this"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"[ImageURLPart]"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"A cat."}}}}
{"jsonrpc":"2.0","id":2,"result":{}}
`)
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	got := userParts(evs)
	if len(got) != 1 || len(got[0]) != 2 || got[0][0] != "text:look at this" || got[0][1] != "text:[ImageURLPart]" {
		t.Errorf("replayed user messages %q, want one of two text parts", got)
	}

	// A live prompt of two text blocks: two parts too.
	live := translate(t, acp.FormatExchange, `{"dir":"in","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}
{"dir":"out","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"Kimi Code CLI","version":"1.47.0"}}}}
{"dir":"in","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}
{"dir":"out","msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}}
{"dir":"in","msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"look at this"},{"type":"text","text":"and this"}]}}}
{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Both cats."}}}}}
{"dir":"out","msg":{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}}
`)
	if got := userParts(live); len(got) != 1 || len(got[0]) != 2 {
		t.Errorf("live prompt's user messages %q, want one of two parts", got)
	}
}
