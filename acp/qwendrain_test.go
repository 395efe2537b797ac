package acp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestQwenMidTurnDrain: Qwen Code pulls the messages the user typed while
// a turn runs with its craft/drainMidTurnQueue request (between tool
// rounds; no update echoes them, the model gets them with the tool
// results), which the host answers {items: [{content, displayText}]} or
// {messages: [string]}, and its daemon's hosts also send
// craft/cancelPendingPrompt (a cancel the agent answers) and
// craft/todoStopGuardQueueReleased, and answer the agent's
// craft/claimTodoStopGuardContinuation. The drain was ignored whole, so
// the user's message showed nowhere while the answer to it did, and the
// other three were agent.unparsed. The lines are in the shapes
// QwenLM/qwen-code's sources and tests give (packages/acp-bridge
// bridgeTypes.ts, packages/cli/src/acp-integration/session/Session.ts
// parseMidTurnDrainResponse and its tests: "please also check tests"),
// texts made up; a public client of it (antst/agent-sessions' notes)
// records a real drain answered {"messages":["QUEUE_MARK"],
// "hasQueuedPrompt":true} that stayed in the running turn.
func TestQwenMidTurnDrain(t *testing.T) {
	type msg struct{ dir, json string }
	in := func(s string) msg { return msg{"in", s} }
	out := func(s string) msg { return msg{"out", s} }
	start := []msg{
		in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`),
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"qwen-code","title":"Qwen Code","version":"0.23.0"},"agentCapabilities":{"loadSession":true}}}`),
		in(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
		out(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`),
		in(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"read file"}]}}`),
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"ReadFile","kind":"read","status":"pending"}}}`),
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"file contents"}}]}}}`),
		out(`{"jsonrpc":"2.0","id":0,"method":"craft/drainMidTurnQueue","params":{"sessionId":"s1"}}`),
	}
	answer := out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Done, tests checked."}}}}`)
	end := func(reason string) msg {
		return out(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"` + reason + `"}}`)
	}
	join := func(parts ...[]msg) []msg {
		var all []msg
		for _, p := range parts {
			all = append(all, p...)
		}
		return all
	}
	tests := []struct {
		name    string
		msgs    []msg
		users   []string // the user messages' texts, in order
		status  universal.TurnStatus
		cancel  bool // the turn's end says a cancel was asked for
		images  int  // image parts among the user messages
		unknown int  // agent.unparsed
	}{
		{"items", join(start, []msg{
			in(`{"jsonrpc":"2.0","id":0,"result":{"items":[{"content":[{"type":"text","text":"please also check tests"}],"displayText":"please also check tests"},{"content":[{"type":"text","text":"and this"},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}]}],"hasQueuedPrompt":false}}`),
			answer, end("end_turn")}),
			[]string{"read file", "please also check tests", "and this"}, universal.TurnCompleted, false, 1, 0},
		{"messages", join(start, []msg{
			in(`{"jsonrpc":"2.0","id":0,"result":{"messages":["QUEUE_MARK","  "],"hasQueuedPrompt":true}}`),
			answer, end("end_turn")}),
			[]string{"read file", "QUEUE_MARK"}, universal.TurnCompleted, false, 0, 0},
		{"items before messages, empty items", join(start, []msg{
			in(`{"jsonrpc":"2.0","id":0,"result":{"items":[],"messages":["not read"],"hasQueuedPrompt":false}}`),
			answer, end("end_turn")}),
			[]string{"read file"}, universal.TurnCompleted, false, 0, 0},
		{"method not found", join(start, []msg{
			in(`{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found: craft/drainMidTurnQueue"}}`),
			answer, end("end_turn")}),
			[]string{"read file"}, universal.TurnCompleted, false, 0, 0},
		{"todo guard and cancel", join(start, []msg{
			in(`{"jsonrpc":"2.0","id":0,"result":{"items":[],"hasQueuedPrompt":true}}`),
			out(`{"jsonrpc":"2.0","id":1,"method":"craft/claimTodoStopGuardContinuation","params":{"sessionId":"s1","promptId":"p-1"}}`),
			in(`{"jsonrpc":"2.0","id":1,"result":{"claimed":false,"hasQueuedPrompt":true}}`),
			in(`{"jsonrpc":"2.0","id":4,"method":"craft/cancelPendingPrompt","params":{"sessionId":"s1"}}`),
			out(`{"jsonrpc":"2.0","id":4,"result":{"cancelled":true}}`),
			end("cancelled"),
			in(`{"jsonrpc":"2.0","id":5,"method":"craft/todoStopGuardQueueReleased","params":{"sessionId":"s1","promptId":"p-1"}}`),
			out(`{"jsonrpc":"2.0","id":5,"result":{}}`)}),
			[]string{"read file"}, universal.TurnInterrupted, true, 0, 0},
	}
	for _, tc := range tests {
		for _, format := range []string{acp.FormatExchange, acp.FormatAgent} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				var b strings.Builder
				for _, m := range tc.msgs {
					if format == acp.FormatExchange {
						b.WriteString(`{"dir":"` + m.dir + `","msg":` + m.json + "}\n")
					} else {
						// A probe's log of both sides without directions.
						b.WriteString(m.json + "\n")
					}
				}
				input := b.String()
				evs := translateShaped(t, format, input)
				if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != tc.unknown {
					t.Errorf("%d agent.unparsed, want %d", n, tc.unknown)
				}
				var users []string
				images := 0
				for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
					it := ev.Data.(*universal.ItemSnapshot).Item
					if it.Kind != universal.KindMessage || it.Role != universal.RoleUser {
						continue
					}
					var s strings.Builder
					for _, p := range it.Content {
						s.WriteString(p.Text)
						if p.Type == universal.PartImage {
							images++
						}
					}
					users = append(users, s.String())
				}
				if strings.Join(users, "|") != strings.Join(tc.users, "|") {
					t.Errorf("user messages %q, want %q", users, tc.users)
				}
				if images != tc.images {
					t.Errorf("%d image parts, want %d", images, tc.images)
				}
				ends := golden.OfType(evs, universal.TypeTurnEnded)
				if len(ends) != 1 {
					t.Fatalf("%d turns ended, want 1", len(ends))
				}
				te := ends[0].Data.(*universal.TurnEnded)
				if te.Status != tc.status {
					t.Errorf("turn ended %s, want %s", te.Status, tc.status)
				}
				var md struct {
					Cancel bool `json:"cancel_requested"`
				}
				if len(te.Metadata) > 0 {
					if err := json.Unmarshal(te.Metadata, &md); err != nil {
						t.Fatal(err)
					}
				}
				if md.Cancel != tc.cancel {
					t.Errorf("cancel_requested %v, want %v", md.Cancel, tc.cancel)
				}
			})
		}
	}
}

// TestQwenMidTurnReplay: Qwen Code's session/load replays a message the
// user sent during a turn (a mid_turn_user_message record of its
// transcript) as user_message_chunks with _meta {source:
// "mid_turn_message_injected", qwenDiscreteMessage: true}, each of the
// message's blocks a chunk, after the tool results it came with (the
// shapes of QwenLM/qwen-code's transcript replay tests at 57ac6b88,
// Apache-2.0: "save logs", text then image; texts made up). Each replayed
// user message started a replayed turn, so the turn was split in two where
// the live session had one (TestQwenMidTurnDrain). It is a user message of
// the turn being replayed; a message without the mark still starts one.
func TestQwenMidTurnReplay(t *testing.T) {
	update := func(u string) string {
		return `{"dir":"out","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}}` + "\n"
	}
	const mid = `"_meta":{"source":"mid_turn_message_injected","qwenDiscreteMessage":true}`
	head := `{"dir":"in","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}}` + "\n" +
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"qwen-code","version":"0.24.4"},"agentCapabilities":{"loadSession":true}}}}` + "\n" +
		`{"dir":"in","msg":{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}}` + "\n" +
		update(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"read file"}}`) +
		update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Reading."}}`) +
		update(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"ReadFile","kind":"read","status":"completed"}`) +
		update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"file contents"}}]}`)
	tail := update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Saved the logs."}}`) +
		`{"dir":"out","msg":{"jsonrpc":"2.0","id":2,"result":{}}}` + "\n"
	tests := []struct {
		name, input string
		turns       int
		users       []string // user messages: their parts' types and texts
	}{
		{"mid-turn message", head +
			update(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"save logs"},`+mid+`}`) +
			update(`{"sessionUpdate":"user_message_chunk","content":{"type":"image","mimeType":"image/png","data":"AQID"},`+mid+`}`) + tail,
			1, []string{"text read file", "text,image save logs"}},
		{"another prompt", head +
			update(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"save logs"}}`) + tail,
			2, []string{"text read file", "text save logs"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateShaped(t, acp.FormatExchange, tc.input)
			if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != tc.turns {
				t.Errorf("%d turns, want %d", n, tc.turns)
			}
			var users []string
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.Kind != universal.KindMessage || it.Role != universal.RoleUser {
					continue
				}
				var types []string
				text := ""
				for _, p := range it.Content {
					types = append(types, string(p.Type))
					text += p.Text
				}
				users = append(users, strings.Join(types, ",")+" "+text)
			}
			if strings.Join(users, "|") != strings.Join(tc.users, "|") {
				t.Errorf("user messages %q, want %q", users, tc.users)
			}
		})
	}
}
