package acp_test

import (
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/tidwall/gjson"
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

// TestKimiStreamedArguments: Kimi Code CLI (kimi acp) sends a call's
// arguments, never a rawInput, as the call's content while the model
// writes them: the JSON text so far, one text item, on the tool_call and
// on each tool_call_update of status in_progress, its title the tool's
// name and then "<tool>: <key argument>" (kimi_cli/acp/session.py,
// _send_tool_call and _send_tool_call_part; a public capture of Kimi Code
// CLI 1.47.0 shows a Shell and five ReadFile calls so, and a permission
// request whose toolCall content is "Requesting approval to perform: …").
// The arguments were the calls' output (streamed, then kept when the
// completed update had no content of its own, as Kimi's command output
// shown in a client's terminal has), the calls had "{}" arguments, other
// kinds and the titles as names. Now the text is the arguments, the name
// the title's start and the kind that of Kimi's tool; a call whose
// initialize was not seen is told by its toolCallId ("<turn UUID>/<the
// model's call id>"). Lines in the capture's shapes, values shortened.
func TestKimiStreamedArguments(t *testing.T) {
	const turn = "53ed1bb6-eb27-4957-9c1e-82e47663e26c"
	update := func(u string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}` + "\n"
	}
	args := func(id, title, text string) string {
		return update(`{"content":[{"content":{"text":` + text + `,"type":"text"},"type":"content"}],"status":"in_progress","title":"` + title + `","toolCallId":"` + turn + `/` + id + `","sessionUpdate":"tool_call_update"}`)
	}
	calls := update(`{"sessionUpdate":"tool_call","toolCallId":"`+turn+`/tool_0Ke4","title":"Shell","status":"in_progress","content":[{"type":"content","content":{"type":"text","text":""}}]}`) +
		args("tool_0Ke4", "Shell", `"{\"command\": \"ls"`) +
		args("tool_0Ke4", "Shell: ls -la", `"{\"command\": \"ls -la\"}"`) +
		update(`{"sessionUpdate":"tool_call","toolCallId":"`+turn+`/tool_BWvI","title":"ReadFile","status":"in_progress","content":[{"type":"content","content":{"type":"text","text":""}}]}`) +
		args("tool_BWvI", "ReadFile", `"{\""`) +
		args("tool_BWvI", "ReadFile: /workspace/index.ts", `"{\"path\": \"/workspace/index.ts\"}"`) +
		`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"options":[{"kind":"allow_once","name":"Approve once","optionId":"approve"},{"kind":"reject_once","name":"Reject","optionId":"reject"}],"sessionId":"s1","toolCall":{"content":[{"content":{"text":"Requesting approval to perform: Run command ` + "`ls -la`" + `","type":"text"},"type":"content"}],"title":"Shell: ls -la","toolCallId":"` + turn + `/tool_0Ke4"}}}` + "\n" +
		update(`{"sessionUpdate":"tool_call_update","toolCallId":"`+turn+`/tool_BWvI","status":"completed","content":[{"type":"content","content":{"type":"text","text":"export * from './client'"}}]}`) +
		update(`{"sessionUpdate":"tool_call_update","toolCallId":"`+turn+`/tool_0Ke4","status":"completed"}`) +
		update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"A TypeScript library."}}`) +
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}` + "\n"
	type call struct {
		name, args string
		kind       universal.ToolKind
		output     string
	}
	check := func(t *testing.T, input string) {
		evs := translateChecked(t, input)
		if u := unparsed(evs); len(u) != 0 {
			t.Fatalf("agent.unparsed %q", u)
		}
		got := map[string]*call{}
		var order []string
		for _, ev := range evs {
			switch d := ev.Data.(type) {
			case *universal.ItemSnapshot:
				if ev.Type != universal.TypeItemCompleted {
					continue
				}
				for _, p := range d.Item.Content {
					switch p.Type {
					case universal.PartToolCall:
						got[p.CallID] = &call{name: p.Name, args: p.Arguments, kind: p.ToolKind}
						order = append(order, p.CallID)
					case universal.PartToolResult:
						got[p.CallID].output = p.Output
					}
				}
			}
		}
		for _, ev := range golden.OfType(evs, universal.TypeItemDelta) {
			d := ev.Data.(*universal.ItemDelta)
			if d.PartType == universal.PartToolResult {
				t.Errorf("a tool result streamed %q: the arguments are no output", d.Delta)
			}
		}
		want := []call{
			{name: "Shell", args: `{"command":"ls -la"}`, kind: universal.ToolExecute},
			{name: "ReadFile", args: `{"path":"/workspace/index.ts"}`, kind: universal.ToolRead, output: "export * from './client'"},
		}
		if len(order) != len(want) {
			t.Fatalf("calls %v, want %d", order, len(want))
		}
		for i, id := range []string{turn + "/tool_0Ke4", turn + "/tool_BWvI"} {
			if c := got[id]; c == nil || *c != want[i] {
				t.Errorf("call %s = %+v, want %+v", id, c, want[i])
			}
		}
	}
	t.Run("initialize", func(t *testing.T) {
		check(t, `{"jsonrpc":"2.0","id":1,"result":{"agentCapabilities":{"loadSession":true},"agentInfo":{"name":"Kimi Code CLI","version":"1.47.0"},"protocolVersion":1}}`+"\n"+
			`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`+"\n"+calls)
	})
	t.Run("call ids", func(t *testing.T) {
		check(t, calls)
	})
}

// TestVibeSessionUsage: the unstable PromptResponse.usage is "Token usage
// for this turn" but its counts are "Total input tokens across all
// turns", and agents read it either way: the adapters of Claude Code,
// Codex and OpenCode give the turn's tokens, Mistral Vibe (agentInfo
// "@mistralai/mistral-vibe", vibe/acp/acp_agent_loop.py _build_usage)
// the session's running total (stats.session_prompt_tokens, …), so its
// second turn's usage holds the first's. It was each turn's usage, and
// the session's total counted the first turn twice; Vibe's is the
// session's, and a turn's stays a turn's for the others. Lines in the
// shapes Vibe's source writes (its usage_update after each prompt: used,
// size, cost), values made up.
func TestVibeSessionUsage(t *testing.T) {
	session := func(agent string) string {
		u := func(s string) string {
			return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}` + "\n"
		}
		return `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"` + agent + `","title":"Mistral Vibe","version":"2.18.4"},"agentCapabilities":{"loadSession":true}}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n" +
			u(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi"},"messageId":"a1"}`) +
			u(`{"sessionUpdate":"usage_update","used":150,"size":200000,"cost":{"amount":0.0014,"currency":"USD"}}`) +
			`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":100,"outputTokens":50,"totalTokens":150},"userMessageId":"u1"}}` + "\n" +
			u(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi again"},"messageId":"a2"}`) +
			u(`{"sessionUpdate":"usage_update","used":320,"size":200000,"cost":{"amount":0.003,"currency":"USD"}}`) +
			`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn","usage":{"inputTokens":250,"outputTokens":70,"totalTokens":320},"userMessageId":"u2"}}` + "\n"
	}
	total := func(t *testing.T, input string) (in, out int64) {
		evs := translateChecked(t, input)
		if u := unparsed(evs); len(u) != 0 {
			t.Fatalf("agent.unparsed %q", u)
		}
		s, err := reduce.Replay(evs)
		if err != nil {
			t.Fatal(err)
		}
		tot := s.Usage.Total
		if tot.InputTokens == nil || tot.OutputTokens == nil {
			t.Fatalf("no total: %+v", s.Usage)
		}
		return *tot.InputTokens, *tot.OutputTokens
	}
	if in, out := total(t, session("@mistralai/mistral-vibe")); in != 250 || out != 70 {
		t.Errorf("Vibe: total %d in, %d out; want the running total 250, 70", in, out)
	}
	if in, out := total(t, session("other-agent")); in != 350 || out != 120 {
		t.Errorf("another agent: total %d in, %d out; want the turns' sum 350, 120", in, out)
	}
}

// TestEncodedRawInput: the schema lets a call's rawInput be any JSON
// value, and Mistral Vibe sends its tools' arguments as the JSON text of
// their model (vibe/acp/tools/builtins/*.py: raw_input =
// args.model_dump_json(), a string; Apache-2.0). The call's arguments
// were that string, quoted, and its tool_input empty; a string that
// encodes an object is the object. A string that is no object stays a
// string. Lines in the shapes Vibe's source writes (bash's tool_call,
// _meta.tool_name), values made up.
func TestEncodedRawInput(t *testing.T) {
	call := func(id, raw string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"Running ls -la","kind":"execute","status":"pending","rawInput":` + raw + `,"_meta":{"tool_name":"bash"}}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `","status":"completed","kind":"execute","content":[{"type":"content","content":{"type":"text","text":"a\nb\n"}}],"_meta":{"tool_name":"bash"}}}}` + "\n"
	}
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`+"\n"+
		call("call_1", `"{\"command\": \"ls -la\", \"timeout\": null}"`)+
		call("call_2", `"ls -la"`)+
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`+"\n")
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	got := map[string]universal.Part{}
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range ev.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartToolCall {
				got[p.CallID] = p
			}
		}
	}
	if p := got["call_1"]; p.Arguments != `{"command":"ls -la","timeout":null}` || p.ToolInput == nil || p.ToolInput.Command != "ls -la" {
		t.Errorf("call_1: arguments %s, tool_input %+v; want the object and its command", p.Arguments, p.ToolInput)
	}
	if p := got["call_2"]; p.Arguments != `"ls -la"` {
		t.Errorf("call_2: arguments %s, want the string", p.Arguments)
	}
}

// TestReplayedResultLater: Mistral Vibe 2.18 replays a loaded session's
// call as a tool_call whose status is already completed, without content,
// then a tool_call_update completed with the output as content and
// rawOutput (vibe/acp/utils.py, tool_call_replay_update and
// create_tool_result_replay; mistralai/mistral-vibe at ac8f1a0,
// Apache-2.0). The call's result completed empty at the tool_call and
// the update, after the final status, was dropped: every replayed output
// was lost. The result now waits for the update; a call no update follows
// gets its empty result when the replayed turn ends. Lines in those
// shapes, values made up.
func TestReplayedResultLater(t *testing.T) {
	u := func(s string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}` + "\n"
	}
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"@mistralai/mistral-vibe","title":"Mistral Vibe","version":"2.18.4"}}}`+"\n"+
		u(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"list files"},"messageId":"u1"}`)+
		u(`{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"Running ls","kind":"execute","status":"completed","rawInput":"{\"command\":\"ls\"}","_meta":{"tool_name":"bash"}}`)+
		u(`{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed","kind":"execute","rawOutput":"a\nb","content":[{"type":"content","content":{"type":"text","text":"a\nb"}}],"_meta":{"tool_name":"bash"}}`)+
		u(`{"sessionUpdate":"tool_call","toolCallId":"call_2","title":"todo","kind":"other","status":"completed","rawInput":"{}","_meta":{"tool_name":"todo"}}`)+
		u(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Two files."},"messageId":"a1"}`)+
		u(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"thanks"},"messageId":"u2"}`)+
		`{"jsonrpc":"2.0","id":1,"result":{}}`+"\n")
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	results := map[string][]string{}
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range ev.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartToolResult {
				results[p.CallID] = append(results[p.CallID], p.Output)
			}
		}
	}
	if r := results["call_1"]; len(r) != 1 || r[0] != "a\nb" {
		t.Errorf("call_1 results %q, want the replayed output", r)
	}
	if r := results["call_2"]; len(r) != 1 || r[0] != "" {
		t.Errorf("call_2 results %q, want one empty result", r)
	}
}

// TestACPv2Turn: ACP v2 (agentclientprotocol/agent-client-protocol
// schema/v2 at b7f0005, protocol version 2), as
// @agentclientprotocol/claude-agent-acp's own scenario snapshots show it
// (src/tests/acp-scenarios/__snapshots__/v2/subagent-native-sessions.jsonl,
// Apache-2.0): initialize answers info and capabilities (not agentInfo,
// agentCapabilities); session/prompt's response {messageId} only accepts
// the prompt; the user's message is a user_message {messageId, content};
// state_update running, requires_action, then idle {stopReason, usage,
// _meta.quota} ends the turn. The agent's name was lost, user_message and
// state_update were agent.unparsed (the prompt lost on the agent's side),
// the turn ended at the acknowledgment (in an exchange: completed with no
// stop reason, the agent's work after it outside any turn) or never (the
// session ended in error), the usage lost. Lines of the snapshot, trimmed,
// as JSON-RPC (the snapshot records {kind, method, payload}).
func TestACPv2Turn(t *testing.T) {
	records := [][2]string{
		{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{}}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"result":{"authMethods":[],"capabilities":{"_meta":{"claudeCode":{"promptQueueing":true}},"session":{"prompt":{"image":{}}}},"info":{"name":"@agentclientprotocol/claude-agent-acp","title":"Claude Agent","version":"0.60.0"},"protocolVersion":2}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`},
		{"out", `{"jsonrpc":"2.0","id":1,"result":{"configOptions":[{"category":"model","configId":"model","currentValue":"claude-sonnet-4-6","name":"Model","options":[{"name":"Claude Sonnet 4.6","value":"claude-sonnet-4-6"}],"type":"select"}],"sessionId":"s1"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","messageId":"m1","prompt":[{"type":"text","text":"prompt 1"}]}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"content":[{"text":"prompt 1","type":"text"}],"messageId":"m1","sessionUpdate":"user_message"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"running"}}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"result":{"messageId":"m1"}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"content":[],"kind":"execute","name":"Bash","rawInput":{"command":"make"},"sessionUpdate":"tool_call_update","status":"pending","title":"make","toolCallId":"toolu_1"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"requires_action"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"running"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"content":[{"content":{"text":"make: *** Error 2","type":"text"},"type":"content"}],"sessionUpdate":"tool_call_update","status":"failed","toolCallId":"toolu_1"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"content":{"text":"The build fails.","type":"text"},"messageId":"msg_2","sessionUpdate":"agent_message_chunk"}}}`},
		{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"quota":{"model_usage":[],"token_count":{"inputTokens":10,"outputTokens":5,"totalTokens":15}}},"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn","usage":{"cachedReadTokens":0,"cachedWriteTokens":0,"inputTokens":10,"outputTokens":5,"totalTokens":15}}}}`},
	}
	exchange, bare := bothWays(t, records)
	for name, evs := range map[string][]universal.Event{"exchange": exchange, "agent": bare} {
		t.Run(name, func(t *testing.T) {
			if u := unparsed(evs); len(u) != 0 {
				t.Fatalf("agent.unparsed %q", u)
			}
			s, err := reduce.Replay(evs)
			if err != nil {
				t.Fatal(err)
			}
			if got := gjson.GetBytes(s.Metadata, "agent_name").Str; got != "@agentclientprotocol/claude-agent-acp" {
				t.Errorf("agent_name %q", got)
			}
			if len(s.Turns) != 1 {
				t.Fatalf("%d turns, want 1", len(s.Turns))
			}
			tr := s.Turns[0]
			if tr.Status != universal.TurnCompleted || gjson.GetBytes(tr.EndMetadata, "stop_reason").Str != "end_turn" {
				t.Errorf("turn %s %s", tr.Status, tr.EndMetadata)
			}
			var user, calls, texts int
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				switch {
				case it.Kind == universal.KindMessage && it.Role == universal.RoleUser:
					user++
					if it.Content[0].Text != "prompt 1" {
						t.Errorf("user message %q", it.Content[0].Text)
					}
				case it.Kind == universal.KindToolCall:
					calls++
				case it.Kind == universal.KindMessage && len(it.Content) > 0 && it.Content[0].Text == "The build fails.":
					texts++
				}
			}
			ended := false
			for _, ev := range evs {
				switch ev.Type {
				case universal.TypeTurnEnded:
					ended = true
				case universal.TypeItemStarted, universal.TypeItemCompleted, universal.TypeItemDelta:
					if ended {
						t.Errorf("%s after the turn ended", ev.Type)
					}
				}
			}
			if user != 1 || calls != 1 || texts != 1 {
				t.Errorf("%d user messages, %d calls, %d replies; want 1 each", user, calls, texts)
			}
			if n := s.Usage.Total.OutputTokens; n == nil || *n != 5 {
				t.Errorf("output tokens %v, want 5", n)
			}
		})
	}
}

// TestACPv2ResumeReplay: in ACP v2 session/resume replays the session's
// history before its response ("optionally replays prior conversation
// history according to replayFrom"; v2 has no session/load), and
// claude-agent-acp opens each replayed message with an upsert without
// content (user_message, agent_thought, agent_message {content: [],
// messageId}) followed by chunks of that messageId, its calls as
// tool_call_update (src/tests/acp-scenarios/__snapshots__/v2/
// session-load-replay.jsonl at 068add1, trimmed, as JSON-RPC). The upserts
// were agent.unparsed, and the history, read as live work, made a turn
// the resume's response never ended. It is one replayed turn, ended by
// the response.
func TestACPv2ResumeReplay(t *testing.T) {
	u := func(s string) [2]string {
		return [2]string{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}`}
	}
	records := [][2]string{
		{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{}}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"result":{"authMethods":[],"capabilities":{},"info":{"name":"@agentclientprotocol/claude-agent-acp","title":"Claude Agent","version":"0.60.0"},"protocolVersion":2}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"method":"session/resume","params":{"sessionId":"s1","cwd":"/w"}}`},
		u(`{"content":[],"messageId":"c001","sessionUpdate":"user_message"}`),
		u(`{"content":{"text":"Fix the bug","type":"text"},"messageId":"c001","sessionUpdate":"user_message_chunk"}`),
		u(`{"content":[],"messageId":"msg_r1","sessionUpdate":"agent_thought"}`),
		u(`{"content":{"text":"Check the file.","type":"text"},"messageId":"msg_r1","sessionUpdate":"agent_thought_chunk"}`),
		u(`{"content":[],"messageId":"msg_r1","sessionUpdate":"agent_message"}`),
		u(`{"content":{"text":"I will edit it.","type":"text"},"messageId":"msg_r1","sessionUpdate":"agent_message_chunk"}`),
		u(`{"_meta":{"claudeCode":{"toolName":"Edit"}},"content":[],"kind":"edit","locations":[{"path":"/w/src/app.ts"}],"name":"Edit","rawInput":{"file_path":"/w/src/app.ts","new_string":"b","old_string":"a"},"sessionUpdate":"tool_call_update","status":"pending","title":"Edit src/app.ts","toolCallId":"toolu_r_edit"}`),
		u(`{"_meta":{"claudeCode":{"toolName":"Edit"}},"rawOutput":"The file /w/src/app.ts has been updated successfully.","sessionUpdate":"tool_call_update","status":"completed","toolCallId":"toolu_r_edit"}`),
		u(`{"content":[],"messageId":"msg_r2","sessionUpdate":"agent_message"}`),
		u(`{"content":{"text":"Fixed.","type":"text"},"messageId":"msg_r2","sessionUpdate":"agent_message_chunk"}`),
		{"out", `{"jsonrpc":"2.0","id":1,"result":{"configOptions":[]}}`},
	}
	var ex strings.Builder
	for _, r := range records {
		ex.WriteString(`{"dir":"` + r[0] + `","msg":` + r[1] + "}\n")
	}
	golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(acp.FormatExchange), Framing: framing(acp.FormatExchange)}, []byte(ex.String()))
	evs := translate(t, acp.FormatExchange, ex.String())
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	s, err := reduce.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 1 || s.Turns[0].Status != universal.TurnCompleted || gjson.GetBytes(s.Turns[0].Metadata, "replay").Type != gjson.True {
		t.Fatalf("turns %+v, want one replayed turn, completed", s.Turns)
	}
	var texts []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		for _, p := range it.Content {
			if p.Text != "" {
				texts = append(texts, string(it.Role)+":"+string(p.Type)+":"+p.Text)
			}
		}
	}
	want := []string{"user:text:Fix the bug", "assistant:reasoning:Check the file.", "assistant:text:I will edit it.", "assistant:text:Fixed."}
	if !slices.Equal(texts, want) {
		t.Errorf("texts %q, want %q", texts, want)
	}
}

// TestACPv2PermissionSubject: an ACP v2 session/request_permission names
// its call in subject {type: "tool_call", toolCall} (or {type:
// "command", toolCallId}) beside a title of its own, where v1 gives
// toolCall at the top (claude-agent-acp's v2 snapshot
// subagent-native-sessions.jsonl at 068add1: subject.toolCall, title
// "make"). It was agent.unparsed ("permission request without a
// toolCall") and the host's answer lost; it is the call's permission,
// title, description and subject in its metadata.
func TestACPv2PermissionSubject(t *testing.T) {
	u := func(s string) [2]string {
		return [2]string{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}`}
	}
	evs, _ := bothWays(t, [][2]string{
		{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{}}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"@agentclientprotocol/claude-agent-acp","version":"0.60.0"},"protocolVersion":2}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`},
		{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"build"}]}}`},
		{"out", `{"jsonrpc":"2.0","id":2,"result":{"messageId":"m1"}}`},
		u(`{"_meta":{"claudeCode":{"toolName":"Bash"}},"content":[{"terminalId":"toolu_b","type":"terminal"}],"kind":"execute","name":"Bash","rawInput":{"command":"make","description":"Build"},"sessionUpdate":"tool_call_update","status":"pending","title":"make","toolCallId":"toolu_b"}`),
		u(`{"sessionUpdate":"state_update","state":"requires_action"}`),
		{"out", `{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"options":[{"kind":"allow_once","name":"Yes","optionId":"allow-once"},{"kind":"reject_once","name":"No","optionId":"reject"}],"sessionId":"s1","subject":{"toolCall":{"_meta":{"claudeCode":{"toolName":"Bash"}},"kind":"execute","name":"Bash","rawInput":{"command":"make","description":"Build"},"status":"pending","title":"make","toolCallId":"toolu_b"},"type":"tool_call"},"title":"make"}}`},
		{"in", `{"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"allow-once"}}}`},
		u(`{"sessionUpdate":"state_update","state":"running"}`),
		u(`{"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"toolu_b","content":[{"type":"content","content":{"type":"text","text":"ok"}}]}`),
		u(`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`),
	})
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	var got []string
	for _, ev := range evs {
		if p, ok := ev.Data.(*universal.Permission); ok {
			got = append(got, string(ev.Type)+" "+p.CallID+" "+string(p.Status)+" "+gjson.GetBytes(p.Metadata, "title").Str)
		}
	}
	want := []string{"permission.requested toolu_b requested make", "permission.resolved toolu_b approved "}
	if !slices.Equal(got, want) {
		t.Errorf("permissions %q, want %q", got, want)
	}
}

// TestACPv2ToolContentChunk: ACP v2's tool_call_content_chunk {toolCallId,
// content} appends one ToolCallContent item to the call's content
// (schema/v2 at b7f0005: "Tool-call content chunks append one
// ToolCallContent item to the current content"). It was agent.unparsed
// and the output it carried lost; the items are the call's content, their
// text its output, streamed while it runs. A chunk of an unknown call is
// unparsed (it has no call to go to). Lines in the schema's shapes.
func TestACPv2ToolContentChunk(t *testing.T) {
	u := func(s string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}` + "\n"
	}
	evs := translateChecked(t, `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"some-agent","version":"1"},"protocolVersion":2}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`+"\n"+
		u(`{"sessionUpdate":"user_message","messageId":"m1","content":[{"type":"text","text":"run it"}]}`)+
		u(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":"make","kind":"execute","name":"Bash","rawInput":{"command":"make"},"status":"in_progress"}`)+
		u(`{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c1","content":{"type":"content","content":{"type":"text","text":"line 1"}}}`)+
		u(`{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c1","content":{"type":"content","content":{"type":"text","text":"line 2"}}}`)+
		u(`{"sessionUpdate":"tool_call_content_chunk","toolCallId":"nobody","content":{"type":"content","content":{"type":"text","text":"x"}}}`)+
		u(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`)+
		u(`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`))
	if u := unparsed(evs); len(u) != 1 || !strings.Contains(u[0], `"nobody"`) {
		t.Fatalf("agent.unparsed %q, want the chunk of the unknown call", u)
	}
	// The output streamed as it came: a delta per chunk, the second
	// after a newline.
	var deltas []string
	for _, ev := range golden.OfType(evs, universal.TypeItemDelta) {
		if d := ev.Data.(*universal.ItemDelta); d.PartType == universal.PartToolResult {
			deltas = append(deltas, d.Delta)
		}
	}
	if !slices.Equal(deltas, []string{"line 1", "\nline 2"}) {
		t.Errorf("output deltas %q, want each chunk's text", deltas)
	}
	var out []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range ev.Data.(*universal.ItemSnapshot).Item.Content {
			if p.Type == universal.PartToolResult {
				out = append(out, p.Output)
			}
		}
	}
	if len(out) != 1 || out[0] != "line 1\nline 2" {
		t.Errorf("results %q, want the chunks' text", out)
	}
	if n := len(golden.OfType(evs, universal.TypeTurnEnded)); n != 1 {
		t.Errorf("%d turns ended, want 1", n)
	}
}
