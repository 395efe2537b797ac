package acp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// callsOf returns each completed tool call as "name kind prompt agent".
func callsOf(evs []universal.Event) []string {
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
			p := it.Content[0]
			s := p.Name + " " + string(p.ToolKind)
			if in := p.ToolInput; in != nil && (in.Prompt != "" || in.Agent != "") {
				s += " " + in.Prompt + " " + in.Agent
			}
			got = append(got, s)
		}
	}
	return got
}

// TestGooseDelegate: Goose's delegate tool (its summon extension, 1.25
// and later) hands a task to a sub-agent; Goose's ACP server names it in
// _meta.goose.toolCall {toolName: "delegate", extensionName: "summon"}
// (block/goose crates/goose/src/acp/server/tool_calls/conversion.rs,
// tool_call_identity_meta), its rawInput {instructions, source?, async?}
// (summon/delegate.rs), and reports the sub-agent's tool requests on the
// call as in-progress updates whose _meta.toolNotification carries
// {type: "message", params: {data: {type: "subagent_tool_request",
// subagent_id, tool_call: {name}}}} (tool_notifications.rs), as public
// ACP clients of Goose read them (their tests quote these shapes). The
// call was an other-kind call without its prompt; it is a task, its
// prompt the instructions and its agent the source. An unrelated tool
// named delegate stays what its kind says.
func TestGooseDelegate(t *testing.T) {
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"delegate-call","title":"delegate · reviewer","status":"pending","rawInput":{"source":"reviewer","instructions":"Review the diff."},"_meta":{"goose":{"toolCall":{"toolName":"delegate","extensionName":"summon"}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"delegate-call","status":"in_progress","_meta":{"toolNotification":{"type":"message","params":{"level":"info","logger":"subagent:g-sub-1","data":{"type":"subagent_tool_request","subagent_id":"g-sub-1","tool_call":{"name":"developer__shell"}}}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"delegate-call","status":"completed","content":[{"type":"content","content":{"type":"text","text":"No defects found."}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"old","title":"summon: delegate","status":"pending","rawInput":{"instructions":"Count the files."},"_meta":{"goose":{"toolCall":{"toolName":"summon__delegate","extensionName":"summon"}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"old","status":"completed"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"other","title":"delegate","kind":"execute","status":"pending","rawInput":{"command":"delegate"},"_meta":{"goose":{"toolCall":{"toolName":"delegate","extensionName":"my_mcp"}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"other","status":"completed"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n"))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{"delegate task Review the diff. reviewer", "summon__delegate task Count the files. ", "delegate execute"}
	if got := callsOf(evs); !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}

// TestMCPToolCallName: @agentclientprotocol/codex-acp sends a Codex
// mcpToolCall item as a tool call titled "mcp.<server>.<tool>" with
// rawInput {server, tool, arguments} and _meta {is_mcp_tool_call: true}
// (its createMcpToolCallUpdate and createMcpRawInput, which public
// clients' tests quote and check the shipped adapter for), the
// permission it asks carrying _meta {is_mcp_tool_approval: true}. The
// call was named by its title; it is named mcp__<server>__<tool>, as the
// codex package names the same item read from Codex's own output. A call
// without the mark, or without both names, keeps its title.
func TestMCPToolCallName(t *testing.T) {
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"mcp-1","kind":"execute","title":"mcp.docs.lookup","status":"pending","rawInput":{"server":"docs","tool":"lookup","arguments":{"q":"ACP"}},"_meta":{"is_mcp_tool_call":true}}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"mcp-1","kind":"execute"},"_meta":{"is_mcp_tool_approval":true},"options":[{"optionId":"allow-once","name":"Allow","kind":"allow_once"}]}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"mcp-1","status":"completed","rawOutput":{"result":{"content":[{"type":"text","text":"found"}]},"error":null},"_meta":{"is_mcp_tool_call":true}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"mcp-2","kind":"execute","title":"mcp.docs.x","status":"completed","rawInput":{"server":"docs","arguments":{}},"_meta":{"is_mcp_tool_call":true}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"plain","kind":"execute","title":"lookup","status":"completed","rawInput":{"server":"docs","tool":"lookup"}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n"))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{"mcp__docs__lookup execute", "mcp.docs.x execute", "lookup execute"}
	if got := callsOf(evs); !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}

// grokSession is subagentSession with Grok Build's vendor notifications:
// a line "x <sid> <update>" is an _x.ai/session_notification.
func grokSession(lines ...string) string {
	out := []string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"authMethods":[]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"root-1"}}`,
	}
	for _, l := range lines {
		method := "session/update"
		if rest, ok := strings.CutPrefix(l, "x "); ok {
			method, l = "_x.ai/session_notification", rest
		}
		sid, u, _ := strings.Cut(l, " ")
		out = append(out, `{"jsonrpc":"2.0","method":"`+method+`","params":{"sessionId":"`+sid+`","update":`+u+`}}`)
	}
	out = append(out, `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
	return strings.Join(out, "\n") + "\n"
}

// TestGrokSubagentLifecycle: Grok Build announces each sub-agent on the
// parent's _x.ai/session_notification (subagent_spawned {subagent_id,
// child_session_id, parent_session_id, subagent_type, description,
// model}, subagent_progress heartbeats, subagent_finished {status,
// output, will_wake}), naming no tool call, and the child's own updates
// come under its session id, as public notes of live grok 1.0.x runs
// record ("The subagent lifecycle on the wire", "A subagent's child
// session speaks to the client under its own session id"; the index does
// not name the repository) and other projects' tests quote. Every
// _x.ai/* method was ignored: a sub-agent spawned in the background
// (its call answered at once) had no running call to go under, so its
// text and calls went into the session's own response. Now the
// lifecycle is the sub-agent's status items and its updates go under the
// announcement; a foreground sub-agent's stay under its spawn call.
func TestGrokSubagentLifecycle(t *testing.T) {
	const spawn = `{"sessionUpdate":"subagent_spawned","subagent_id":"01a0-c1","attempt_id":"at1.1","parent_session_id":"root-1","parent_prompt_id":"p1","child_session_id":"01a0-c1","subagent_type":"general-purpose","description":"echo check","effective_context_source":"new","model":"grok-4.7"}`
	const progress = `{"sessionUpdate":"subagent_progress","subagent_id":"01a0-c1","attempt_id":"at1.1","parent_session_id":"root-1","child_session_id":"01a0-c1","duration_ms":2102,"turn_count":1,"tool_call_count":1,"tokens_used":11925}`
	const finished = `{"sessionUpdate":"subagent_finished","subagent_id":"01a0-c1","attempt_id":"at1.1","child_session_id":"01a0-c1","status":"completed","tool_calls":1,"turns":1,"duration_ms":3731,"tokens_used":12011,"output":"sub-ok","will_wake":false}`
	call := `root-1 {"sessionUpdate":"tool_call","toolCallId":"call-1","title":"spawn_subagent","rawInput":{"description":"echo check","prompt":"Run echo sub-ok","subagent_type":"general-purpose","background":%s},"_meta":{"x.ai/tool":{"name":"spawn_subagent","kind":"task","label":"Subagent","read_only":false}}}`
	child := []string{
		`01a0-c1 {"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"Run echo sub-ok"},"_meta":{"modelId":"grok-4.7","promptIndex":0}}`,
		`01a0-c1 {"sessionUpdate":"tool_call","toolCallId":"c-2","title":"run_terminal_command","kind":"execute","status":"completed","rawInput":{"command":"echo sub-ok"},"_meta":{"x.ai/tool":{"name":"run_terminal_command","kind":"execute"}}}`,
		`01a0-c1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"sub-ok"}}`,
		`x root-1 ` + progress,
	}

	// In the background: the call answers at once, the sub-agent runs on.
	lines := []string{strings.Replace(call, "%s", "true", 1),
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"call-1","status":"completed","rawOutput":{"type":"Text","text":"Subagent started in background."}}`,
		`x root-1 ` + spawn}
	lines = append(lines, child...)
	lines = append(lines, `x root-1 `+finished, `root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Started it."}}`)
	evs := translateChecked(t, grokSession(lines...))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want := []string{
		`message "" under -1`,
		`tool_call "spawn_subagent" under 0`,
		`tool_result "{\"type\":\"Text\",\"text\":\"Subagent started in background.\"}" under 0`,
		`status "sub_agent_started" under -1`,
		`message "Run echo sub-ok" under 3`,
		`message "" under 3`,
		`tool_call "run_terminal_command" under 5`,
		`tool_result "" under 5`,
		`message "sub-ok" under 3`,
		`status "sub_agent_completed" under -1`,
		`message "Started it." under -1`,
	}
	if got := itemTree(evs); !slices.Equal(got, want) {
		t.Errorf("background: items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// In the foreground: the call runs until the sub-agent ends.
	lines = []string{strings.Replace(call, "%s", "false", 1),
		"root-1 {\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"call-1\",\"title\":\"echo check\",\"rawInput\":{\"variant\":\"Task\",\"description\":\"echo check\",\"prompt\":\"Run echo sub-ok\",\"subagent_type\":\"general-purpose\",\"run_in_background\":false,\"task_id\":null}}",
		`x root-1 ` + spawn}
	lines = append(lines, child...)
	lines = append(lines, `x root-1 `+finished,
		`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"call-1","status":"completed","rawOutput":{"type":"SubagentCompleted","output":"sub-ok","subagent_id":"01a0-c1"}}`)
	evs = translateChecked(t, grokSession(lines...))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	want = []string{
		`message "" under -1`,
		`status "sub_agent_started" under 8`,
		`message "Run echo sub-ok" under 8`,
		`message "" under 8`,
		`tool_call "run_terminal_command" under 3`,
		`tool_result "" under 3`,
		`message "sub-ok" under 8`,
		`status "sub_agent_completed" under 8`,
		`tool_call "spawn_subagent" under 0`,
		`tool_result "sub-ok" under 0`,
	}
	if got := itemTree(evs); !slices.Equal(got, want) {
		t.Errorf("foreground: items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, started := statusItems(evs, "sub_agent_started")
	if len(started) != 1 || started[0].Content[0].Detail != "general-purpose" ||
		!strings.Contains(string(started[0].Content[0].Metadata), `"task":"echo check"`) ||
		!strings.Contains(string(started[0].Content[0].Metadata), `"model":"grok-4.7"`) {
		t.Errorf("sub_agent_started %+v", started)
	}
	_, done := statusItems(evs, "sub_agent_completed")
	if len(done) != 1 || !strings.Contains(string(done[0].Content[0].Metadata), `"output":"sub-ok"`) {
		t.Errorf("sub_agent_completed %+v", done)
	}
}

// TestSubagentPrompt: a sub-agent's session sends the prompt it was given
// as a user_message_chunk (Grok Build's child sessions do, live, with
// _meta {modelId, promptIndex}, as the notes TestGrokSubagentLifecycle
// cites record). It was a user message of the session's own
// conversation, under no call, or, when the host's prompt was recorded,
// dropped as that prompt's echo. It is a user message under the
// sub-agent's call, completed when the sub-agent answers.
func TestSubagentPrompt(t *testing.T) {
	for _, format := range []string{"agent", "exchange"} {
		lines := []string{
			`root-1 {"sessionUpdate":"tool_call","toolCallId":"call-1","title":"Task","kind":"other","status":"in_progress","rawInput":{"prompt":"Count the files","subagent_type":"explore"}}`,
			`child-1 {"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"Count "},"_meta":{"modelId":"grok-4.7","promptIndex":0}}`,
			`child-1 {"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"the files"},"_meta":{"modelId":"grok-4.7","promptIndex":0}}`,
			`child-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"3 files."}}`,
			`root-1 {"sessionUpdate":"tool_call_update","toolCallId":"call-1","status":"completed","rawOutput":{"output":"3 files."}}`,
			`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"There are 3."}}`,
		}
		input := grokSession(lines...)
		evs := translateChecked(t, input)
		if format == "exchange" {
			// Both sides, with the host's prompt.
			var ex []string
			for i, l := range strings.Split(strings.TrimSpace(input), "\n") {
				if i == 2 {
					ex = append(ex, `{"dir":"in","msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"root-1","prompt":[{"type":"text","text":"How many files?"}]}}}`)
				}
				if i == 1 {
					ex = append(ex, `{"dir":"in","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`)
				}
				if i == 0 {
					ex = append(ex, `{"dir":"in","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}`)
				}
				ex = append(ex, `{"dir":"out","msg":`+l+`}`)
			}
			evs = translate(t, "exchange", strings.Join(ex, "\n")+"\n")
		}
		if u := unparsed(evs); len(u) != 0 {
			t.Fatalf("%s: agent.unparsed %q", format, u)
		}
		want := []string{
			`tool_call "Task" under 0`,
			`message "Count the files" under 1`,
			`message "3 files." under 1`,
			`tool_result "3 files." under 0`,
			`message "There are 3." under -1`,
		}
		got := itemTree(evs)
		if format == "exchange" {
			want = []string{
				`message "How many files?" under -1`,
				`tool_call "Task" under 1`,
				`message "Count the files" under 2`,
				`message "3 files." under 2`,
				`tool_result "3 files." under 1`,
				`message "There are 3." under -1`,
			}
			got = append(got[:1], got[2:]...) // the call's message
		} else {
			got = got[1:]
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: items\n%s\nwant\n%s", format, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestCodeBuddyToolCalls: CodeBuddy (@tencent-ai/codebuddy-code, codebuddy
// --acp) names a call's tool in _meta under its own namespace,
// "codebuddy.ai/toolName" (a live probe of 2.147.0 quotes
// {"sessionUpdate":"tool_call","title":"AskUserQuestion","kind":"other",
// "_meta":{"codebuddy.ai/toolName":"AskUserQuestion"}}), or in its
// namespace object _meta["codebuddy.ai"].toolName, and reports a running
// call with the status "running", which ACP's ToolCallStatus lacks, as a
// public project's notes on its ACP surface record (static analysis of
// the 2.147.0 bundle and a live probe; the index does not name the
// repository). The call was named by its title, and a running update did
// not start the call's result. Values made up.
func TestCodeBuddyToolCalls(t *testing.T) {
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_00_a","title":"Read a.txt","kind":"read","status":"pending","rawInput":{"file_path":"/w/a.txt"},"_meta":{"codebuddy.ai/toolName":"Read","codebuddy.ai/requestId":"r1"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_00_a","status":"running","content":[{"type":"content","content":{"type":"text","text":"line 1\n"}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_00_a","status":"completed","content":[{"type":"content","content":{"type":"text","text":"line 1\nline 2\n"}}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call_00_b","title":"Run ls","kind":"execute","status":"pending","rawInput":{"command":"ls"},"_meta":{"codebuddy.ai":{"toolName":"Bash","mode":"live"}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_00_b","status":"completed"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n"))
	if u := unparsed(evs); len(u) != 0 {
		t.Fatalf("agent.unparsed %q", u)
	}
	if got, want := callsOf(evs), []string{"Read read", "Bash execute"}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	// The running update started the result, streaming its output.
	started := 0
	for _, ev := range golden.OfType(evs, universal.TypeItemStarted) {
		if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
			started++
		}
	}
	deltas := 0
	for _, ev := range golden.OfType(evs, universal.TypeItemDelta) {
		if strings.Contains(string(ev.AppendJSON(nil)), "line 1") {
			deltas++
		}
	}
	if started != 2 || deltas == 0 {
		t.Errorf("%d results started, %d deltas with the running output", started, deltas)
	}
}
