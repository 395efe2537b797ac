package acp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// TestCodexSubagentActivity: @agentclientprotocol/codex-acp forwards a
// multi-agent v2 subAgentActivity item of Codex's app-server as a tool
// call {kind other, title "Start subagent <name>", rawInput
// {agentThreadId, agentPath, activityKind}, _meta.codex.subagent
// {threadId, path, activity}}, in progress then completed (a loaded
// history: completed only); 2.6.0 sends a client that is not JetBrains
// AIR no _meta, and has an activity "completed" besides. It was a call of kind other with no output;
// it is the status item package codex gives the item it forwards:
// sub_agent_<activity>, detail the path, agent_thread_id in its metadata,
// shown once. The lines are in the shape of the adapter's
// createSubAgentActivityUpdate and its test data (agentclientprotocol/
// codex-acp at ba5bcc3) and of npm @agentclientprotocol/codex-acp 2.6.0's
// dist/index.js (SubagentActivityReporter, AcpToolCallRenderer; both
// Apache-2.0), names and ids made up.
func TestCodexSubagentActivity(t *testing.T) {
	activity := func(typ, id, status, kind string, withTitle bool) string {
		title := ""
		if withTitle {
			title = `"title":"Start subagent notes_reader","kind":"other",`
		}
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":%q,%s"toolCallId":%q,"status":%q,"rawInput":{"agentThreadId":"th-kid","agentPath":"/root/notes_reader","activityKind":%q},"_meta":{"codex":{"subagent":{"threadId":"th-kid","path":"/root/notes_reader","activity":%q}}}}}}`,
			typ, title, id, status, kind, kind)
	}
	// codex-acp 2.6.0 to a client that is not JetBrains AIR: no _meta,
	// rawInput on every update (SubagentActivityReporter).
	bare := func(typ, id, status, kind string, withTitle bool) string {
		title := ""
		if withTitle {
			title = `"kind":"other","title":"Start subagent notes_reader",`
		}
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":%q,"toolCallId":%q,%s"status":%q,"rawInput":{"agentThreadId":"th-kid","agentPath":"/root/notes_reader","activityKind":%q}}}}`,
			typ, id, title, status, kind)
	}
	text := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Asking a helper."}}}}`
	type status struct{ label, detail, native, meta string }
	started := status{"sub_agent_started", "/root/notes_reader", "sa-1", `{"agent_thread_id":"th-kid"}`}
	tests := []struct {
		name  string
		lines []string
		want  []status
		calls int // tool_call items
	}{{
		name:  "live: in progress, then completed",
		lines: []string{text, activity("tool_call", "sa-1", "in_progress", "started", true), activity("tool_call_update", "sa-1", "completed", "started", false)},
		want:  []status{started},
	}, {
		name:  "history: completed only",
		lines: []string{activity("tool_call", "sa-1", "completed", "started", true)},
		want:  []status{started},
	}, {
		name: "interacted and interrupted",
		lines: []string{
			activity("tool_call", "sa-1", "completed", "started", true),
			activity("tool_call", "sa-2", "completed", "interacted", true),
			activity("tool_call", "sa-3", "in_progress", "interrupted", true),
			activity("tool_call_update", "sa-3", "completed", "interrupted", false),
		},
		want: []status{started,
			{"sub_agent_interacted", "/root/notes_reader", "sa-2", `{"agent_thread_id":"th-kid"}`},
			{"sub_agent_interrupted", "/root/notes_reader", "sa-3", `{"agent_thread_id":"th-kid"}`}},
	}, {
		name:  "2.6.0, no _meta: in progress, then completed",
		lines: []string{text, bare("tool_call", "sa-1", "in_progress", "started", true), bare("tool_call_update", "sa-1", "completed", "started", false)},
		want:  []status{started},
	}, {
		name:  "2.6.0, a sub-agent's completion",
		lines: []string{bare("tool_call", "sa-4", "completed", "completed", true)},
		want:  []status{{"sub_agent_completed", "/root/notes_reader", "sa-4", `{"agent_thread_id":"th-kid"}`}},
	}, {
		name:  "a failure after it is kept",
		lines: []string{activity("tool_call", "sa-1", "in_progress", "started", true), activity("tool_call_update", "sa-1", "failed", "started", false)},
		want:  []status{started, {"tool_call_update_after_end", "sa-1", "", ""}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []status
			calls := 0
			for _, it := range completedItems(t, translateChecked(t, strings.Join(tc.lines, "\n")+"\n")) {
				if it.Kind == universal.KindToolCall {
					calls++
				}
				for _, p := range it.Content {
					if p.Type == universal.PartStatus {
						s := status{label: p.Label, detail: p.Detail, native: it.NativeItemID}
						if !strings.HasSuffix(p.Label, "_after_end") {
							s.meta = string(p.Metadata)
						}
						got = append(got, s)
					}
				}
			}
			if calls != tc.calls {
				t.Errorf("%d tool_call items, want %d", calls, tc.calls)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(status{})); diff != "" {
				t.Errorf("status items (-want +got):\n%s", diff)
			}
		})
	}

	// The same item through Codex's own app-server output.
	native := `{"method":"item/completed","params":{"item":{"type":"subAgentActivity","id":"sa-1","kind":"started","agentThreadId":"th-kid","agentPath":"/root/notes_reader"},"threadId":"th-main","turnId":"turn-1"}}` + "\n"
	c := golden.Case{Format: codex.FormatAppServer, Framing: golden.FramingOf(codex.Formats(), codex.FormatAppServer), New: golden.Maker(codex.New, codex.FormatAppServer)}
	evs, err := c.Translate([]byte(native), golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []status
	for _, ev := range evs {
		if d, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindStatus {
			p := d.Item.Content[0]
			got = append(got, status{p.Label, p.Detail, d.Item.NativeItemID, gjson.GetBytes(p.Metadata, "@this").Raw})
		}
	}
	if diff := cmp.Diff([]status{started}, got, cmp.AllowUnexported(status{})); diff != "" {
		t.Errorf("package codex's status item differs (-acp +codex):\n%s", diff)
	}
}

// TestReplayedTerminalCall: @agentclientprotocol/codex-acp replays a
// loaded session's command as a tool_call of the command's final status
// whose content is its terminal ({type: terminal, terminalId}), then a
// tool_call_update of the same status with the output (rawOutput
// {formatted_output, exit_code}, _meta terminal_output_delta and
// terminal_exit; src/CodexAcpServer.ts createHistoryUpdates). The call's
// result was complete, without output, at the tool_call, and the output
// went into a tool_call_update_after_end status item. A terminal that has
// shown no output is no result yet: the result waits for the update, as
// for a replayed call without content. The lines are in the shape of the
// adapter's load-session-history.json (agentclientprotocol/codex-acp at
// ba5bcc3, Apache-2.0), texts and ids made up.
func TestReplayedTerminalCall(t *testing.T) {
	line := func(dir, msg string) string { return `{"dir":"` + dir + `","msg":` + msg + `}` }
	update := func(u string) string {
		return line("out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":`+u+`}}`)
	}
	call := update(`{"sessionUpdate":"tool_call","toolCallId":"cmd-1","kind":"execute","title":"ls","status":"completed","content":[{"type":"terminal","terminalId":"cmd-1"}],"rawInput":{"command":"ls","cwd":"/w"},"_meta":{"terminal_info":{"cwd":"/w","terminal_id":"cmd-1"}}}`)
	done := update(`{"sessionUpdate":"tool_call_update","toolCallId":"cmd-1","status":"completed","rawOutput":{"formatted_output":"a.txt\nb.txt\n","exit_code":0},"_meta":{"terminal_output_delta":{"data":"a.txt\nb.txt\n","terminal_id":"cmd-1"},"terminal_exit":{"exit_code":0,"signal":null,"terminal_id":"cmd-1"}}}`)
	head := []string{
		line("in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"terminal":true}}}`),
		line("out", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`),
	}
	load := line("in", `{"jsonrpc":"2.0","id":1,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}`)
	loaded := line("out", `{"jsonrpc":"2.0","id":1,"result":{}}`)
	type result struct {
		output string
		exit   string
	}
	tests := []struct {
		name  string
		lines []string
		want  []result
		after int // status items
	}{{
		name:  "replayed, its output next",
		lines: []string{load, call, done, loaded},
		want:  []result{{"a.txt\nb.txt\n", "0"}},
	}, {
		name:  "replayed, no output follows",
		lines: []string{load, call, loaded},
		want:  []result{{"", ""}},
	}, {
		name: "live: complete at its tool_call",
		lines: []string{line("in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
			line("out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`),
			line("in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"ls"}]}}`),
			call, done,
			line("out", `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)},
		want:  []result{{"", ""}},
		after: 1,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []result
			after := 0
			for _, it := range completedItems(t, translateExchange(t, strings.Join(append(append([]string{}, head...), tc.lines...), "\n")+"\n")) {
				for _, p := range it.Content {
					switch {
					case p.Type == universal.PartToolResult:
						got = append(got, result{p.Output, gjson.GetBytes(p.Metadata, "exit_code").Raw})
					case p.Type == universal.PartStatus && p.Label == "tool_call_update_after_end":
						after++
					}
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(result{})); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			if after != tc.after {
				t.Errorf("%d tool_call_update_after_end items, want %d", after, tc.after)
			}
		})
	}
}

// completedItems returns the items of the item.completed events, in
// order, and reports every agent.unparsed as an error.
func completedItems(t *testing.T, evs []universal.Event) []universal.Item {
	t.Helper()
	var items []universal.Item
	for _, ev := range evs {
		if u, bad := ev.Data.(*universal.Unparsed); bad {
			t.Errorf("agent.unparsed: %s at %s", u.Error, u.Location)
		}
		if d, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted {
			items = append(items, d.Item)
		}
	}
	return items
}

// TestCodexMCPRawOutput: @agentclientprotocol/codex-acp gives an MCP
// tool's call no content but rawOutput {result: MCP's CallToolResult
// {content, structuredContent, isError} or null, error: {message} or null}
// (src/CodexToolCallMapper.ts createMcpRawOutput; its test data
// mcp-tool-completed-with-logs.json). The output was that JSON text; it
// is what package codex makes of the item the adapter forwards: the text
// blocks' texts, or the error's message, and a result the tool says
// failed (isError) is an error. The rawOutput stays in the metadata. The
// lines are in the adapter's shape (agentclientprotocol/codex-acp at
// ba5bcc3, Apache-2.0), texts made up.
func TestCodexMCPRawOutput(t *testing.T) {
	call := func(status, rawOutput string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"m1","kind":"execute","title":"mcp.notes.find","status":"` + status + `","rawInput":{"server":"notes","tool":"find","arguments":{"q":"plan"}},"rawOutput":` + rawOutput + `,"_meta":{"is_mcp_tool_call":true}}}}` + "\n"
	}
	tests := []struct {
		name, status, rawOutput, output string
		isError                         bool
	}{
		{"text blocks", "completed", `{"result":{"content":[{"type":"text","text":"Two notes match."},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},{"type":"text","text":"Both are drafts."}],"structuredContent":null},"error":null}`, "Two notes match.\nBoth are drafts.", false},
		{"the tool says it failed", "completed", `{"result":{"content":[{"type":"text","text":"No index."}],"isError":true},"error":null}`, "No index.", true},
		{"an error", "failed", `{"result":null,"error":{"message":"server notes is not running"}}`, "server notes is not running", true},
		{"no blocks", "completed", `{"result":{"content":[]},"error":null}`, "", false},
		{"another shape", "completed", `{"result":["a"],"error":null}`, `{"result":["a"],"error":null}`, false},
		{"no result member", "completed", `{"error":{"message":"not this shape"}}`, `{"error":{"message":"not this shape"}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []universal.Part
			for _, it := range completedItems(t, translateChecked(t, call(tc.status, tc.rawOutput))) {
				for _, p := range it.Content {
					if p.Type == universal.PartToolResult {
						got = append(got, p)
					}
				}
			}
			if len(got) != 1 {
				t.Fatalf("%d results, want 1", len(got))
			}
			if got[0].Output != tc.output || got[0].IsError != tc.isError {
				t.Errorf("output %q, is_error %v; want %q, %v", got[0].Output, got[0].IsError, tc.output, tc.isError)
			}
			if raw := gjson.GetBytes(got[0].Metadata, "raw_output").Raw; raw != tc.rawOutput {
				t.Errorf("raw_output %s, want %s", raw, tc.rawOutput)
			}
		})
	}
}

// TestElicitationTitledChoices: ACP's elicitation takes MCP's enum
// schemas: a choice is an enum, or titled choices oneOf [{const, title}]
// (a multi-select's items.enum or items.anyOf). @agentclientprotocol/
// codex-acp 2.6.0 asks Codex's questions with oneOf (dist/index.js
// buildUserInputSchema; Apache-2.0). The question had no options; they are
// the consts. The lines are in that shape, texts made up.
func TestElicitationTitledChoices(t *testing.T) {
	ask := func(prop string) string {
		return `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"sessionId":"s1","toolCallId":"q1","mode":"form","message":"Codex needs your input to continue.","requestedSchema":{"type":"object","properties":{"note":{"type":"string","title":"A note"},"pick":` + prop + `}}}}` + "\n"
	}
	tests := []struct {
		name, prop string
		want       []string
	}{
		{"enum", `{"type":"string","enum":["red","blue"]}`, []string{"red", "blue"}},
		{"oneOf", `{"type":"string","title":"Which colour?","_meta":{"codex":{"isOther":true,"isSecret":false}},"oneOf":[{"const":"red","title":"Red","description":"Warm"},{"const":"blue","title":"Blue"},{"const":"Other","title":"Other"}]}`, []string{"red", "blue", "Other"}},
		{"multi-select, items.enum", `{"type":"array","items":{"type":"string","enum":["a","b"]}}`, []string{"a", "b"}},
		{"multi-select, items.anyOf", `{"type":"array","items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]}}`, []string{"a", "b"}},
		{"no choices", `{"type":"string"}`, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			asked := 0
			for _, ev := range translateChecked(t, ask(tc.prop)) {
				if q, ok := ev.Data.(*universal.Question); ok && ev.Type == universal.TypeQuestionRequested {
					asked++
					got = q.Options
				}
			}
			if asked != 1 {
				t.Fatalf("%d questions, want 1", asked)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
