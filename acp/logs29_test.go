package acp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// TestTapStderr: the cyril project's wire tap (dwalleck/cyril,
// experiments/bh7g-harness/tap.py, MIT) between an ACP client and Kiro
// CLI's ACP server records the agent's stderr lines as {"ts", "dir":
// "agent-stderr", "msg": line} and the end of each stream as
// "<dir>:eof" with msg null. Every such record was a malformed record
// (agent.unparsed: 25 of the 1928 records of
// .cyril-14ou/kas-turn-healthy-a-2.16.2.jsonl, Kiro CLI 2.16.2, at commit
// cd8746ac) and the stderr was lost. The stderr lines are the session's
// stderr, on session.ended, as Codex's translator keeps its exchanges'
// stderr lines; the eof records are the tap's notes. The stderr lines
// are real lines of that file; the session's messages are shortened.
func TestTapStderr(t *testing.T) {
	lines := []string{
		`{"ts": 1786493801.4392645, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": true, "writeTextFile": true}, "terminal": true}}}}`,
		`{"ts": 1786493801.93238, "dir": "agent-stderr", "msg": "[INFO] Auth: --auth=acp-callback (host-mediated refresh via _kiro/auth/getAccessToken)\n"}`,
		`{"ts": 1786493801.933071, "dir": "agent-stderr", "msg": "[INFO] acp.content_collection.resolved {\"enabled\":false}\n"}`,
		`{"ts": 1786493801.95, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": 1, "agentCapabilities": {"loadSession": true}, "authMethods": []}}}`,
		`{"ts": 1786493802.1, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/w", "mcpServers": []}}}`,
		`{"ts": 1786493802.2, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": "sess_1"}}}`,
		`{"ts": 1786493802.3, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 2, "method": "session/prompt", "params": {"sessionId": "sess_1", "prompt": [{"type": "text", "text": "hi"}]}}}`,
		`{"ts": 1786493805.1, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "sess_1", "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Hello."}}}}}`,
		`{"ts": 1786494030.558817, "dir": "agent-stderr", "msg": "[INFO] [KRS] <-- GenerateAssistantResponseCommand done totalEvents=309\n"}`,
		`{"ts": 1786493805.2, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 2, "result": {"stopReason": "end_turn"}}}`,
		`{"ts": 1786490066.7743595, "dir": "client->agent:eof", "msg": null}`,
		`{"ts": 1786490615.521814, "dir": "agent->client:eof", "msg": null}`,
	}
	input := strings.Join(lines, "\n") + "\n"
	const wantStderr = "[INFO] Auth: --auth=acp-callback (host-mediated refresh via _kiro/auth/getAccessToken)\n" +
		"[INFO] acp.content_collection.resolved {\"enabled\":false}\n" +
		"[INFO] [KRS] <-- GenerateAssistantResponseCommand done totalEvents=309"
	if got := acp.Detect([]byte(input)); got != acp.FormatExchange {
		t.Fatalf("Detect = %q, want exchange", got)
	}
	// The tap logs the agent's stderr as it comes: a capture may start
	// with it.
	if got := acp.Detect([]byte(lines[1] + "\n" + lines[11] + "\n" + input)); got != acp.FormatExchange {
		t.Fatalf("Detect of a capture starting with stderr = %q, want exchange", got)
	}
	c := golden.Case{Format: acp.FormatExchange, Framing: framing(acp.FormatExchange), New: newTranslator(acp.FormatExchange)}
	whole, err := c.Translate([]byte(input), golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	var ended *universal.SessionEnded
	for _, ev := range whole {
		switch d := ev.Data.(type) {
		case *universal.Unparsed:
			t.Errorf("agent.unparsed: %s at %s", d.Error, d.Location)
		case *universal.ItemSnapshot:
			if ev.Type == universal.TypeItemCompleted && d.Item.Role == universal.RoleAssistant {
				text += golden.TextOf(&d.Item)
			}
		case *universal.SessionEnded:
			ended = d
		}
	}
	if text != "Hello." {
		t.Errorf("assistant text %q, want %q", text, "Hello.")
	}
	if ended == nil {
		t.Fatal("no session.ended")
	}
	if diff := cmp.Diff(wantStderr, ended.Stderr); diff != "" {
		t.Errorf("session.ended stderr (-want +got):\n%s", diff)
	}
	if ended.Reason != universal.EndCompleted {
		t.Errorf("session.ended reason %q, want completed", ended.Reason)
	}
	// Restored after every message, the translator ends the same.
	again, err := c.Translate([]byte(input), golden.Options(), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(golden.Encode(whole), golden.Encode(again)); diff != "" {
		t.Errorf("checkpointed run differs (-whole +checkpointed):\n%s", diff)
	}
}

// TestTapStderrBounded: past 64 KiB the agent's stderr is not
// kept: the first line not kept is reported, session.ended counts them,
// and a host's report of the process's stderr comes after what was kept.
func TestTapStderrBounded(t *testing.T) {
	line := strings.Repeat("x", 1000)
	var b strings.Builder
	b.WriteString(`{"ts": 1, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/w", "mcpServers": []}}}` + "\n")
	for range 70 {
		b.WriteString(`{"ts": 2, "dir": "agent-stderr", "msg": "` + line + `\n"}` + "\n")
	}
	tr, err := acp.New(acp.FormatExchange, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for m, err := range universal.Messages(universal.NewExchangeReader(strings.NewReader(b.String()), 0)) {
		if err != nil {
			t.Fatal(err)
		}
		evs = tr.Translate(evs, m)
	}
	evs = tr.Report(evs, universal.Exit{Code: 1, Stderr: "killed"})
	unparsed := 0
	var ended *universal.SessionEnded
	for _, ev := range evs {
		switch d := ev.Data.(type) {
		case *universal.Unparsed:
			unparsed++
		case *universal.SessionEnded:
			ended = d
		}
	}
	if unparsed != 1 {
		t.Errorf("%d agent.unparsed, want 1 (the first line not kept)", unparsed)
	}
	if ended == nil || len(ended.Stderr) > 64<<10+len("\nkilled") || !strings.HasSuffix(ended.Stderr, "\nkilled") || !strings.HasPrefix(ended.Stderr, line+"\n"+line) {
		t.Fatalf("session.ended stderr of %d bytes, want the kept 64 KiB then the exit's", len(ended.Stderr))
	}
	var notKept string
	for _, f := range ended.Extra {
		if f.Name == "stderr_not_kept" {
			notKept = string(f.Value)
		}
	}
	if notKept != `{"lines":5,"bytes":5000}` {
		t.Errorf("stderr_not_kept %s, want 5 lines of 5000 bytes (one cut, four not kept)", notKept)
	}
}

// TestKiroSummarization: Kiro's ACP server tells that it summarized the
// conversation (its context compaction; here on the host's
// _kiro/session/compact) by a session_info_update whose _meta.kiro kind
// is summarization_completed {conversationSummary, truncated}, or
// summarization_failed {reason}, as the KiroSessionInfoUpdate union of
// @kiro/agent lists them (dwalleck/cyril docs/kiro-kas-acp-covenant.md, §4,
// MIT). It was a "session_info" notice: the compaction every agent reports
// as a status item labelled compaction was not one, and its summary was
// only in the metadata. Real lines of Kiro CLI 2.16.0 (an ACP client's
// audit log, experiments/conductor-spike/kas-rpc-sweep-2.16.0.jsonl of
// dwalleck/cyril at commit cd8746ac, MIT); the failed one made up in the
// covenant's shape.
func TestKiroSummarization(t *testing.T) {
	const sid = "sess_35572172-aec9-4aab-973b-9a500e892884"
	real := []string{
		"{\"direction\": \"client_to_agent\", \"envelope\": \"request\", \"method\": \"_kiro/session/compact\", \"parsed\": {\"jsonrpc\": \"2.0\", \"id\": 33, \"method\": \"_kiro/session/compact\", \"params\": {\"sessionId\": \"sess_35572172-aec9-4aab-973b-9a500e892884\"}}}",
		"{\"direction\": \"agent_to_client\", \"envelope\": \"notification\", \"method\": \"session/update\", \"parsed\": {\"jsonrpc\": \"2.0\", \"method\": \"session/update\", \"params\": {\"sessionId\": \"sess_35572172-aec9-4aab-973b-9a500e892884\", \"update\": {\"sessionUpdate\": \"session_info_update\", \"_meta\": {\"kiro\": {\"summarization\": {\"status\": \"success\", \"summary\": {\"conversationSummary\": \"## Goal\\nRead probe.txt and reply with just the number.\\n\\n## Status\\nDone: [Read probe.txt, replied with \\\"4242\\\"]\\nNow: [Task complete]\\nBlocked: (none)\\n\\n## Technical\\n- File: `/home/dwalleck/.claude/tmp/kas-sweep-s0oveg0n/probe.txt`\\n- Content: `magic 4242`\\n- Answered: `4242`\\n\\n## Decisions\\n(none)\\n\\n## User Intent\\n\\\"Read probe.txt and reply with just the number.\\\"\\n\\n## Next\\n(none)\\n\\nUSER QUERIES(most recent first):\\n1. Read probe.txt and reply with just the number.\", \"truncated\": false}}, \"kind\": \"summarization_completed\", \"conversationSummary\": \"## Goal\\nRead probe.txt and reply with just the number.\\n\\n## Status\\nDone: [Read probe.txt, replied with \\\"4242\\\"]\\nNow: [Task complete]\\nBlocked: (none)\\n\\n## Technical\\n- File: `/home/dwalleck/.claude/tmp/kas-sweep-s0oveg0n/probe.txt`\\n- Content: `magic 4242`\\n- Answered: `4242`\\n\\n## Decisions\\n(none)\\n\\n## User Intent\\n\\\"Read probe.txt and reply with just the number.\\\"\\n\\n## Next\\n(none)\\n\\nUSER QUERIES(most recent first):\\n1. Read probe.txt and reply with just the number.\", \"truncated\": false}}}}}}",
		"{\"direction\": \"agent_to_client\", \"envelope\": \"response\", \"method\": null, \"parsed\": {\"jsonrpc\": \"2.0\", \"id\": 33, \"result\": {\"success\": true}}}",
	}
	failed := `{"direction": "agent_to_client", "envelope": "notification", "method": "session/update", "parsed": {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "` + sid + `", "update": {"sessionUpdate": "session_info_update", "_meta": {"kiro": {"summarization": {"status": "failed"}, "kind": "summarization_failed", "reason": "canceled"}}}}}}`
	started := `{"direction": "agent_to_client", "envelope": "notification", "method": "session/update", "parsed": {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "` + sid + `", "update": {"sessionUpdate": "session_info_update", "_meta": {"kiro": {"kind": "summarization_started"}}}}}}`
	start := []string{
		`{"direction": "client_to_agent", "envelope": "request", "method": "session/new", "parsed": {"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {"cwd": "/w", "mcpServers": []}}}`,
		`{"direction": "agent_to_client", "envelope": "response", "method": null, "parsed": {"jsonrpc": "2.0", "id": 2, "result": {"sessionId": "` + sid + `"}}}`,
	}
	// summarization_started, before the session's first work, is
	// session.started metadata, as Kiro's other notices are.
	input := strings.Join(concat(start, []string{started}, real, []string{failed}), "\n") + "\n"
	evs := translate(t, acp.FormatExchange, input)
	type status struct{ label, detail, status string }
	var got []status
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindStatus {
			continue
		}
		p := it.Content[0]
		d := p.Detail
		if len(d) > 12 {
			d = d[:12]
		}
		got = append(got, status{p.Label, d, string(it.Status)})
		if p.Label == universal.LabelCompaction && !strings.Contains(string(p.Metadata), `"kind":"summarization_`) {
			t.Errorf("compaction metadata %s, want the update's _meta", p.Metadata)
		}
	}
	want := []status{
		{universal.LabelCompaction, "## Goal\nRead", "completed"},
		{universal.LabelCompaction, "canceled", "failed"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(status{})); diff != "" {
		t.Errorf("status items (-want +got):\n%s", diff)
	}
	for _, ev := range golden.OfType(evs, universal.TypeUnparsed) {
		t.Errorf("agent.unparsed: %s", ev.Data.(*universal.Unparsed).Error)
	}
}

// TestCodexCollabCalls: @agentclientprotocol/codex-acp forwards Codex's
// collab tool calls (spawnAgent, sendInput, resumeAgent, wait,
// closeAgent) as kind other calls titled by the tool, with rawInput
// {prompt, senderThreadId, receiverThreadIds, agentsStates, model,
// reasoningEffort, status} and, in later versions,
// _meta.codex.collaboration {tool, senderThreadId, receiverThreadIds}
// (agentclientprotocol/codex-acp src/CodexToolCallMapper.ts and its
// test data collab-agent-tool-call-flow.json at ba5bcc3, Apache-2.0);
// the update that completes a call has no content and no rawOutput,
// what the sub-agents said being in its rawInput's agentsStates. The
// wait call's result lost the sub-agent's answer ("(no output)", in our
// recording testdata/acp/codex-acp/2.6.0/s10-subagent too), and the
// spawn was an other call named spawnAgent. They read as package codex
// reads the same items: named in snake_case, the spawn a task, the
// output the sub-agents' messages, else the threads reached, with
// agents_states in the result's metadata. Ids and texts made up, in the
// recording's and the test data's shapes.
func TestCodexCollabCalls(t *testing.T) {
	update := func(u string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
	}
	const meta = `"_meta":{"codex":{"collaboration":{"tool":"%s","senderThreadId":"th-main","receiverThreadIds":["th-child"]}}}`
	type call struct {
		name, kind, output, states string
		failed                     bool
	}
	tests := []struct {
		name  string
		lines []string
		want  []call
	}{{
		name: "spawn and wait, no _meta (2.6.0)",
		lines: []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"c-spawn","kind":"other","title":"spawnAgent","status":"in_progress","rawInput":{"prompt":"Count the words.","senderThreadId":"th-main","receiverThreadIds":[],"agentsStates":{},"model":"","reasoningEffort":"medium","status":"inProgress"}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c-spawn","status":"completed","rawInput":{"prompt":"Count the words.","senderThreadId":"th-main","receiverThreadIds":["th-child"],"agentsStates":{"th-child":{"status":"pendingInit","message":null}},"model":"m1","reasoningEffort":"medium","status":"completed"}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"c-wait","kind":"other","title":"wait","status":"in_progress","rawInput":{"prompt":null,"senderThreadId":"th-main","receiverThreadIds":["th-child"],"agentsStates":{},"model":null,"reasoningEffort":null,"status":"inProgress"}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c-wait","status":"completed","rawInput":{"prompt":null,"senderThreadId":"th-main","receiverThreadIds":["th-child"],"agentsStates":{"th-child":{"status":"completed","message":"Seven words."}},"model":null,"reasoningEffort":null,"status":"completed"}}`),
		},
		want: []call{
			{name: "spawn_agent", kind: "task", output: "th-child", states: `{"th-child":{"status":"pendingInit","message":null}}`},
			{name: "wait", kind: "other", output: "Seven words.", states: `{"th-child":{"status":"completed","message":"Seven words."}}`},
		},
	}, {
		name: "with _meta.codex.collaboration, a failed close",
		lines: []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"c-spawn","kind":"other","title":"spawnAgent","status":"in_progress","rawInput":{"prompt":"Look it up.","senderThreadId":"th-main","receiverThreadIds":["th-child"],"agentsStates":{"th-child":{"status":"running","message":"Looking"}},"model":null,"reasoningEffort":null,"status":"inProgress"},` + strings.Replace(meta, "%s", "spawnAgent", 1) + `}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c-spawn","title":"spawnAgent","status":"completed","rawInput":{"prompt":"Look it up.","senderThreadId":"th-main","receiverThreadIds":["th-child"],"agentsStates":{"th-child":{"status":"completed","message":null}},"model":null,"reasoningEffort":null,"status":"completed"},` + strings.Replace(meta, "%s", "spawnAgent", 1) + `}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"c-close","kind":"other","title":"closeAgent","status":"in_progress","rawInput":{"prompt":null,"senderThreadId":"th-main","receiverThreadIds":["th-child"],"agentsStates":{},"model":null,"reasoningEffort":null,"status":"inProgress"},` + strings.Replace(meta, "%s", "closeAgent", 1) + `}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c-close","title":"closeAgent","status":"failed","rawInput":{"prompt":null,"senderThreadId":"th-main","receiverThreadIds":["th-child"],"agentsStates":{"th-child":{"status":"errored","message":"agent not found"}},"model":null,"reasoningEffort":null,"status":"failed"},` + strings.Replace(meta, "%s", "closeAgent", 1) + `}`),
		},
		want: []call{
			{name: "spawn_agent", kind: "task", output: "th-child", states: `{"th-child":{"status":"completed","message":null}}`},
			{name: "close_agent", kind: "other", output: "agent not found", states: `{"th-child":{"status":"errored","message":"agent not found"}}`, failed: true},
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			input := strings.Join(tc.lines, "\n") + "\n"
			c := golden.Case{Format: acp.FormatAgent, Framing: framing(acp.FormatAgent), New: newTranslator(acp.FormatAgent)}
			evs, err := c.Translate([]byte(input), golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []call
			at := map[string]int{} // call id → index in got
			for _, ev := range evs {
				if u, bad := ev.Data.(*universal.Unparsed); bad {
					t.Errorf("agent.unparsed: %s at %s", u.Error, u.Location)
				}
				d, ok := ev.Data.(*universal.ItemSnapshot)
				if !ok || ev.Type != universal.TypeItemCompleted {
					continue
				}
				for _, p := range d.Item.Content {
					switch p.Type {
					case universal.PartToolCall:
						at[p.CallID] = len(got)
						got = append(got, call{name: p.Name, kind: string(p.ToolKind)})
					case universal.PartToolResult:
						if i, ok := at[p.CallID]; ok {
							got[i].output = p.Output
							got[i].states = gjson.GetBytes(p.Metadata, "agents_states").Raw
							got[i].failed = p.IsError
						}
					}
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(call{})); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAnotherMessageIDPart: chunks of another messageId right after a
// message's own, nothing between, go on in the same message item (one
// model response), but the other message's text was appended to the
// first one's text part: codex-acp's commentary then final answer (two
// of Codex's agentMessage items, _meta.codex.phase commentary and
// final_answer; agentclientprotocol/codex-acp at ba5bcc3,
// src/__tests__/CodexACPAgent/data/agent-message-phases.json, Apache-2.0)
// read "…mapping.Yes, here…". Each native message's text is a part of its
// own, as package codex gives each agentMessage item; chunks of one
// messageId still grow one part. Texts made up.
func TestAnotherMessageIDPart(t *testing.T) {
	chunk := func(kind, mid, text string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"` + kind +
			`","messageId":"` + mid + `","content":{"type":"text","text":"` + text + `"}}}}`
	}
	phased := func(line, phase string) string {
		return strings.Replace(line, `"update":{`, `"update":{"_meta":{"codex":{"phase":"`+phase+`"}},`, 1)
	}
	tests := []struct {
		name  string
		lines []string
		want  []universal.Part
	}{{
		name: "commentary then final answer",
		lines: []string{
			chunk("agent_message_chunk", "m-comment", "Looking at the "),
			chunk("agent_message_chunk", "m-comment", "mapping."),
			chunk("agent_message_chunk", "m-final", "Here is "),
			chunk("agent_message_chunk", "m-final", "the answer."),
		},
		want: []universal.Part{universal.Text("Looking at the mapping."), universal.Text("Here is the answer.")},
	}, {
		name: "reasoning of its own id, then the message's text",
		lines: []string{
			chunk("agent_thought_chunk", "prt-r1", "Think "),
			chunk("agent_thought_chunk", "prt-r1", "first."),
			chunk("agent_message_chunk", "msg-1", "Done."),
		},
		want: []universal.Part{universal.Reasoning("Think first.", universal.VisibilityPublic), universal.Text("Done.")},
	}, {
		// Later codex-acp versions mark each chunk with the phase of
		// Codex's message (_meta.codex.phase); the parts carry it as
		// package codex's do ({"phase"} metadata).
		name: "commentary then final answer, phases marked",
		lines: []string{
			phased(chunk("agent_message_chunk", "m-comment", "Looking at the "), "commentary"),
			phased(chunk("agent_message_chunk", "m-comment", "mapping."), "commentary"),
			phased(chunk("agent_message_chunk", "m-final", "Here is "), "final_answer"),
			chunk("agent_message_chunk", "m-final", "the answer."),
		},
		want: []universal.Part{
			{Type: universal.PartText, Text: "Looking at the mapping.", Metadata: json.RawMessage(`{"phase":"commentary"}`)},
			{Type: universal.PartText, Text: "Here is the answer.", Metadata: json.RawMessage(`{"phase":"final_answer"}`)},
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := golden.Case{Format: acp.FormatAgent, Framing: framing(acp.FormatAgent), New: newTranslator(acp.FormatAgent)}
			evs, err := c.Translate([]byte(strings.Join(tc.lines, "\n")+"\n"), golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			var msgs [][]universal.Part
			for _, ev := range evs {
				if d, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindMessage {
					msgs = append(msgs, d.Item.Content)
				}
			}
			if len(msgs) != 1 {
				t.Fatalf("%d messages, want 1: %v", len(msgs), msgs)
			}
			if diff := cmp.Diff(tc.want, msgs[0]); diff != "" {
				t.Errorf("message parts (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCodexACPRawOutput: @agentclientprotocol/codex-acp completes a
// command that shows no terminal with rawOutput {formatted_output,
// exit_code} and nothing else (src/CodexToolCallMapper.ts
// createCommandExecutionCompleteUpdate at ba5bcc3, test data
// terminal-command-completed.json and terminal-command-failed.json;
// Apache-2.0): the output was that object's JSON text. A generated image
// comes as an image block with rawOutput {status, revisedPrompt, result:
// the image's base64} (image-generation-completed-only.json): the output
// was the base64. The output is the command's text; the image is its
// image part alone. Ids and texts made up.
func TestCodexACPRawOutput(t *testing.T) {
	update := func(u string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}` + "\n"
	}
	tests := []struct {
		name   string
		lines  []string
		output string
		failed bool
		images int
	}{{
		name: "command completed",
		lines: []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"cmd-1","kind":"search","title":"Search for 'main'","status":"in_progress"}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"cmd-1","status":"completed","rawOutput":{"formatted_output":"a.go:1:package main\n","exit_code":0}}`),
		},
		output: "a.go:1:package main\n",
	}, {
		name: "command failed",
		lines: []string{
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"cmd-2","status":"failed","rawOutput":{"formatted_output":"cat: gone.txt: No such file or directory","exit_code":1}}`),
		},
		output: "cat: gone.txt: No such file or directory",
		failed: true,
	}, {
		name: "generated image alone",
		lines: []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"img-1","kind":"other","title":"Image generation","status":"completed","content":[{"type":"content","content":{"type":"image","data":"aGVsbG8=","mimeType":"image/png"}}],"rawOutput":{"status":"generating","revisedPrompt":null,"result":"aGVsbG8="}}`),
		},
		images: 1,
	}, {
		name: "generated image with its revised prompt",
		lines: []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"img-2","kind":"other","title":"Image generation","status":"in_progress","rawInput":{"id":"img-2"}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"img-2","status":"completed","content":[{"type":"content","content":{"type":"text","text":"Revised prompt: a red dot"}},{"type":"content","content":{"type":"image","data":"aGVsbG8=","mimeType":"image/png","uri":"/tmp/red.png"}}],"rawOutput":{"status":"generating","revisedPrompt":"a red dot","result":"aGVsbG8=","savedPath":"/tmp/red.png"}}`),
		},
		output: "Revised prompt: a red dot",
		images: 1,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := golden.Case{Format: acp.FormatAgent, Framing: framing(acp.FormatAgent), New: newTranslator(acp.FormatAgent)}
			evs, err := c.Translate([]byte(strings.Join(tc.lines, "")), golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			var results []universal.Item
			for _, ev := range evs {
				if d, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted && d.Item.Kind == universal.KindToolResult {
					results = append(results, d.Item)
				}
			}
			if len(results) != 1 {
				t.Fatalf("%d results, want 1", len(results))
			}
			p := results[0].Content[0]
			images := 0
			for _, q := range results[0].Content[1:] {
				if q.Type == universal.PartImage {
					images++
				}
			}
			if p.Output != tc.output || p.IsError != tc.failed || images != tc.images {
				t.Errorf("result %q error %v images %d, want %q %v %d", p.Output, p.IsError, images, tc.output, tc.failed, tc.images)
			}
		})
	}
}
