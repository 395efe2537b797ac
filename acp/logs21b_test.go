package acp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestReplayedUserMessageIDs: an agent that loads a session replays each
// user message as user_message_chunk, and ContentChunk.messageId (stable
// schema) says which message a chunk belongs to: "A change in messageId
// indicates a new message has started." Mistral Vibe
// (vibe/acp/session_updates.py, replay_session_updates) replays every
// history entry's chunks under the entry's id, so two prompts the agent
// never answered (a cancelled one, then the next) come back to back. They
// were one user message, their texts glued together, in one turn; each
// is its own replayed turn, its message's native id the messageId. Chunks
// of one messageId (a prompt's text and its image) stay one message, and
// chunks without messageId keep the old reading.
func TestReplayedUserMessageIDs(t *testing.T) {
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"@mistralai/mistral-vibe","title":"Mistral Vibe","version":"2.9.0"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"first question"},"messageId":"m1"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"second question"},"messageId":"m2"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},"messageId":"m2"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"answer"},"messageId":"m3"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"third, "}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"in two chunks"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}
{"jsonrpc":"2.0","id":2,"result":{}}
`)
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	type msg struct{ native, text string }
	var got []msg
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindMessage || it.Role != universal.RoleUser {
			continue
		}
		m := msg{native: it.NativeItemID}
		for _, p := range it.Content {
			m.text += string(p.Type) + ":" + p.Text + ";"
		}
		got = append(got, m)
	}
	want := []msg{{"m1", "text:first question;"}, {"m2", "text:second question;image:;"}, {"", "text:third, in two chunks;"}}
	if len(got) != len(want) {
		t.Fatalf("user messages %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("user message %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 3 {
		t.Errorf("%d turns, want 3 (one a replayed user message)", n)
	}
}
