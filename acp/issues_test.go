package acp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestGrokBuildExchange: the shapes xAI's Grok Build 0.2.101 (`grok agent
// stdio`) sent in a prompt that failed upstream, quoted in
// https://github.com/azuriru3/grok-build-vscode/blob/a655da56dbf5b6d35d69a8c42baf8bf1f377e2c8/docs/ACP-NOTES.md
// (no Grok Build recording is in testdata): _x.ai/* extension
// notifications (ignored, as the protocol says of methods starting with
// "_"; their retry_state and prompt_complete repeat the error the
// response carries), a user_message_chunk echoing the prompt with _meta,
// and the session/prompt answered by a JSON-RPC error whose data holds
// the upstream API error. Already handled: nothing unparsed, one user
// message, the error with the upstream message, the turn ended in error.
func TestGrokBuildExchange(t *testing.T) {
	const sid = "019f6855-873d-7332-b00c-b3b58ee81df3"
	const apiErr = "API error (status 403 Forbidden): permission-denied: Your newly created team doesn't have any credits or licenses yet"
	in := func(s string) string { return `{"dir":"in","msg":` + s + `}` }
	out := func(s string) string { return `{"dir":"out","msg":` + s + `}` }
	input := strings.Join([]string{
		in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true}}}}`),
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":false,"audio":false,"embeddedContext":true},"mcpCapabilities":{"http":true,"sse":true},"sessionCapabilities":{},"auth":{},"_meta":{"x.ai/fs_notify":true}},"authMethods":[{"id":"grok.com","name":"Grok","description":"Sign in with Grok"}],"_meta":{"grokShell":true,"agentVersion":"0.2.101","modelState":{"currentModelId":"grok-build","availableModels":[]}}}}`),
		out(`{"jsonrpc":"2.0","method":"_x.ai/mcp/servers_updated","params":{"mcpServers":[]}}`),
		in(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
		out(`{"jsonrpc":"2.0","id":3,"result":{"sessionId":"` + sid + `","models":{"currentModelId":"grok-build","availableModels":[]},"_meta":{"currentWorkingDirectory":"/w","isGitRepo":false}}}`),
		out(`{"jsonrpc":"2.0","method":"_x.ai/mcp_initialized","params":{"sessionId":"` + sid + `","mcpToolCount":0,"elapsedMs":3}}`),
		in(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[{"type":"text","text":"hello"}]}}`),
		out(`{"jsonrpc":"2.0","method":"_x.ai/queue/changed","params":{"sessionId":"` + sid + `","entries":[],"runningPromptId":"p1"}}`),
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"hello"},"_meta":{"modelId":"grok-build","promptIndex":0}}}}`),
		out(`{"jsonrpc":"2.0","method":"_x.ai/session_notification","params":{"sessionId":"` + sid + `","update":{"sessionUpdate":"retry_state","type":"failed","error_type":"api","message":"` + apiErr + `"}}}`),
		out(`{"jsonrpc":"2.0","method":"_x.ai/session/prompt_complete","params":{"sessionId":"` + sid + `","promptId":"p1","stopReason":"error","agentResult":"` + apiErr + `"}}`),
		out(`{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error","data":{"message":"` + apiErr + `","http_status":403}}}`),
	}, "\n") + "\n"
	evs := translate(t, acp.FormatExchange, input)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	users := 0
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := ev.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleUser {
			users++
		}
	}
	if users != 1 {
		t.Errorf("%d user messages, want the prompt once", users)
	}
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 || !strings.Contains(string(errs[0].AppendJSON(nil)), "permission-denied: Your newly created team") {
		t.Errorf("errors %v, want one with the upstream message", errs)
	}
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 1 || !strings.Contains(string(ends[0].AppendJSON(nil)), `"status":"error"`) {
		t.Errorf("turn ends %v, want one in error", ends)
	}
}

// TestUsageUpdateWithoutCost: Hermes 0.17.0's usage_update carries only
// the context window's size and use, no cost
// (https://github.com/RyderFreeman4Logos/cli-sub-agent/issues/2585 quotes
// the update); it is read, not reported as unparsed.
func TestUsageUpdateWithoutCost(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"hermes","version":"0.17.0"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"2"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"size":262144,"used":11383,"sessionUpdate":"usage_update"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}, "\n") + "\n"
	evs := translate(t, acp.FormatAgent, agent)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	var found bool
	for _, ev := range evs {
		if s := string(ev.AppendJSON(nil)); strings.Contains(s, "262144") && strings.Contains(s, "11383") {
			found = true
		}
	}
	if !found {
		t.Errorf("the window's size and use are in no event")
	}
}

// TestPermissionReasonMeta: claude-agent-acp 0.81.1 (Claude Code 2.1.281)
// asks for a Bash call with the reason Claude Code gives in the request's
// _meta.permission ({title, description: "Reason: This command requires
// approval"}), and sends the call's name in toolCall.name; wire lines as
// logged by a raw JSON-RPC probe and quoted (trimmed) in a public
// project's notes, "ACP adapter probe — Milestone 1 Task 0" (2026-09-24;
// the project's repository is not named by the index). The reason was
// dropped: the permission.requested metadata keeps the request's _meta.
func TestPermissionReasonMeta(t *testing.T) {
	in := func(s string) string { return `{"dir":"in","msg":` + s + `}` }
	out := func(s string) string { return `{"dir":"out","msg":` + s + `}` }
	input := strings.Join([]string{
		in(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`),
		out(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp","version":"0.81.1"},"authMethods":[]}}`),
		in(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
		out(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`),
		in(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"node -e \"console.log(41+1)\""}]}}`),
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"toolu_01Dc","title":"Terminal","kind":"execute","status":"pending","rawInput":{}}}}`),
		out(`{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"toolu_01Dc","name":"Bash","title":"node -e \"console.log(41+1)\"","kind":"execute","rawInput":{"command":"node -e \"console.log(41+1)\"","description":"Run node command to print 41+1"}},"_meta":{"permission":{"title":"node -e \"console.log(41+1)\"","description":"Reason: This command requires approval"}},"options":[{"optionId":"allow-once","kind":"allow_once"},{"optionId":"allow-with-updates","kind":"allow_always"},{"optionId":"reject","kind":"reject_once"}]}}`),
		in(`{"jsonrpc":"2.0","id":9,"result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`),
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01Dc","status":"failed"}}}`),
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Command blocked (permission denied)."},"messageId":"msg_011"}}}`),
		out(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn"}}`),
	}, "\n") + "\n"
	evs := translate(t, acp.FormatExchange, input)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	reqs := golden.OfType(evs, universal.TypePermissionRequested)
	if len(reqs) != 1 {
		t.Fatalf("%d permission.requested, want 1", len(reqs))
	}
	if s := string(reqs[0].AppendJSON(nil)); !strings.Contains(s, "Reason: This command requires approval") {
		t.Errorf("permission.requested lost the reason: %s", s)
	}
	res := golden.OfType(evs, universal.TypePermissionResolved)
	if len(res) != 1 || !strings.Contains(string(res[0].AppendJSON(nil)), `"denied"`) {
		t.Errorf("permission.resolved %v, want one denied", res)
	}
}

// TestCursorPermissionContent: Cursor's cursor-agent 2026.07.01 (`cursor-agent
// acp`) asks permission for a command with a toolCall whose content is
// the reason it asks ("Not in allowlist: echo"), then ends the call with
// a tool_call_update carrying only rawOutput {exitCode, stdout, stderr}:
// frames quoted from a live probe in a public project's notes ("AI-688
// Cursor hosted-agent prototype — probe findings", 2026-07-09; the index
// does not name the repository); the host's requests are the probe's as
// it describes them. The permission's text was the call's output; it is
// the question's, so the output is the command's stdout, and the text
// stays in the permission's metadata.
func TestCursorPermissionContent(t *testing.T) {
	const sid = "103cecd2-c849-4b6e-885b-fa4aef569253"
	const call = "toolu_bdrk_01WHvLzppLFXQQdgguTnpoVs"
	in := func(s string) string { return `{"dir":"in","msg":` + s + `}` }
	out := func(s string) string { return `{"dir":"out","msg":` + s + `}` }
	update := func(u string) string {
		return out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":` + u + `}}`)
	}
	input := strings.Join([]string{
		in(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}}}`),
		out(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"mcpCapabilities":{"http":true,"sse":true},"promptCapabilities":{"audio":false,"embeddedContext":false,"image":true},"sessionCapabilities":{"list":{}}},"authMethods":[{"id":"cursor_login","name":"Cursor login"}]}}`),
		in(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
		out(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"` + sid + `"}}`),
		in(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[{"type":"text","text":"Use your shell/command tool to run exactly ` + "`echo kcap-e2e-marker`" + ` and report the output."}]}}`),
		update(`{"sessionUpdate":"session_info_update","title":"Shell Reporter"}`),
		update(`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"The user wants me to run a specific shell command:"}}`),
		update(`{"sessionUpdate":"tool_call","toolCallId":"` + call + `","title":"` + "`echo kcap-e2e-marker`" + `","kind":"execute","status":"pending","rawInput":{"command":"echo kcap-e2e-marker"}}`),
		out(`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"` + sid + `","toolCall":{"toolCallId":"` + call + `","title":"` + "`echo kcap-e2e-marker`" + `","kind":"execute","status":"pending","content":[{"type":"content","content":{"type":"text","text":"Not in allowlist: echo"}}]},"options":[{"optionId":"allow-once","name":"Allow once","kind":"allow_once"},{"optionId":"allow-always","name":"Allow always","kind":"allow_always"},{"optionId":"reject-once","name":"Reject","kind":"reject_once"}]}}`),
		in(`{"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"allow-once"}}}`),
		update(`{"sessionUpdate":"tool_call_update","toolCallId":"` + call + `","status":"in_progress"}`),
		update(`{"sessionUpdate":"tool_call_update","toolCallId":"` + call + `","status":"completed","rawOutput":{"exitCode":0,"stdout":"kcap-e2e-marker\n","stderr":""}}`),
		update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The output is ` + "`kcap-e2e-marker`" + `."}}`),
		out(`{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}`),
	}, "\n") + "\n"
	evs := translate(t, acp.FormatExchange, input)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	var results []universal.Part
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
			results = append(results, it.Content...)
		}
	}
	if len(results) != 1 || results[0].Output != "kcap-e2e-marker\n" || results[0].IsError {
		t.Fatalf("tool results %+v, want the command's stdout", results)
	}
	reqs := golden.OfType(evs, universal.TypePermissionRequested)
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].AppendJSON(nil)), "Not in allowlist: echo") {
		t.Errorf("permission requests %v, want one keeping the reason in its metadata", reqs)
	}
}

// TestKiroCLI reads two public Kiro CLI captures (dwalleck/cyril, MIT;
// testdata/acp/kiro-cli/public): `kiro-cli acp` 2.18.1 ends a command's
// call with rawOutput {items: [{Json: {exit_status: "exit status: 2",
// stdout, stderr}}]} and status completed, so the failed command's exit
// code is that string's (the result fails); Kiro's agent server (2.18.0)
// names the file of a diff by its file: URI, which is the file's path,
// not a path relative to the session's directory. A rawOutput with only
// items gives their texts and streams as output.
func TestKiroCLI(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(testdata, "kiro-cli", "public", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	results := func(evs []universal.Event) []universal.Item {
		var out []universal.Item
		for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
				out = append(out, it)
			}
		}
		return out
	}
	rs := results(translate(t, acp.FormatAgent, read("cyril__v2-tarft-2.18.1.agent.jsonl")))
	if len(rs) != 3 {
		t.Fatalf("%d tool results, want 3", len(rs))
	}
	for i, want := range []bool{false, true, false} {
		p := rs[i].Content[0]
		if p.IsError != want || (rs[i].Status == universal.StatusFailed) != want {
			t.Errorf("result %d: is_error %v, status %s; want failed %v", i, p.IsError, rs[i].Status, want)
		}
	}
	if code := gjsonInt(rs[1].Content[0].Metadata, "exit_code"); code != 2 {
		t.Errorf("failed tar's exit_code %d, want 2", code)
	}
	var paths []string
	for _, r := range results(translate(t, acp.FormatExchange, read("cyril-audit-2.18.0.exchange.jsonl"))) {
		for _, p := range r.Content {
			if p.Type == universal.PartFileRef {
				paths = append(paths, p.Path)
			}
		}
	}
	want := []string{"/home/dwalleck/.claude/tmp/kas-turn-vkr6cxjo/probe.txt", "/home/dwalleck/.claude/tmp/kas-turn-vkr6cxjo/summary.txt"}
	if !slices.Equal(paths, want) {
		t.Errorf("file_refs %q, want %q", paths, want)
	}
	// Items alone: their texts and a command's stdout then stderr.
	const sid = "s1"
	up := func(u string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":` + u + `}}`
	}
	only := results(translate(t, acp.FormatAgent, strings.Join([]string{
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"` + sid + `"}}`,
		up(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Running: make","kind":"execute","rawInput":{"command":"make"}}`),
		up(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","kind":"execute","status":"completed","rawOutput":{"items":[{"Text":"note"},{"Json":{"exit_status":"exit status: 0","stdout":"built\n","stderr":"warn\n"}}]}}`),
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`,
	}, "\n")+"\n"))
	if len(only) != 1 || only[0].Content[0].Output != "note\nbuilt\n\nwarn\n" || only[0].Content[0].IsError {
		t.Errorf("items-only result %+v, want the texts joined, not failed", only)
	}
}

func gjsonInt(md []byte, key string) int64 { return gjson.GetBytes(md, key).Int() }

// TestKiroSubAgentSessions: Kiro CLI (kiro-cli acp 2.18.1, the public
// capture cyril__v2-crew-2.18.1.agent.jsonl) runs a sub-agent in a
// session of its own and streams that session's updates between the
// session's: the sub-agent's "done" was glued to the main answer
// ("doneThe subagent completed…") and its tool call sat at top level.
// A session the host did not open goes under the call running when it
// first speaks (the crew call, now a task), each such session in its own
// scope, so two sub-agents whose chunks interleave stay two messages.
func TestKiroSubAgentSessions(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testdata, "kiro-cli", "public", "cyril__v2-crew-2.18.1.agent.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	items := func(evs []universal.Event) []universal.Item {
		var out []universal.Item
		for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
			out = append(out, ev.Data.(*universal.ItemSnapshot).Item)
		}
		return out
	}
	var crew string
	var texts []string
	parents := map[string]string{}
	for _, it := range items(translate(t, acp.FormatAgent, string(b))) {
		parents[it.ItemID] = it.ParentID
		if it.Kind == universal.KindToolCall && it.Content[0].Name == "Spawning agent crew" {
			crew = it.ItemID
			if it.Content[0].ToolKind != universal.ToolTask {
				t.Errorf("crew call of kind %q, want task", it.Content[0].ToolKind)
			}
		}
		if it.Kind == universal.KindMessage && len(it.Content) > 0 && it.Content[0].Text != "" {
			texts = append(texts, parents[it.ItemID]+": "+it.Content[0].Text)
		}
	}
	if len(texts) != 2 || texts[0] != crew+": done" || !strings.HasPrefix(texts[1], ": The subagent completed") {
		t.Errorf("messages %q, want the sub-agent's done under the crew call %s, then the answer alone", texts, crew)
	}
	// Two sub-agent sessions under one call, their chunks interleaved.
	up := func(sid, u string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":` + u + `}}`
	}
	chunk := func(sid, text string) string {
		return up(sid, `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`+text+`"}}`)
	}
	evs := translate(t, acp.FormatAgent, strings.Join([]string{
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"main"}}`,
		up("main", `{"sessionUpdate":"tool_call","toolCallId":"crew","title":"Spawning agent crew","rawInput":{"task":"review"}}`),
		chunk("sub-a", "alpha "), chunk("sub-b", "beta "), chunk("sub-a", "one"), chunk("sub-b", "two"),
		up("main", `{"sessionUpdate":"tool_call_update","toolCallId":"crew","status":"completed","content":[{"type":"content","content":{"type":"text","text":"crew done"}}]}`),
		chunk("main", "All reviewed."),
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`,
	}, "\n")+"\n")
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v", u)
	}
	var got []string
	for _, it := range items(evs) {
		if it.Kind == universal.KindMessage && len(it.Content) > 0 {
			p := ""
			if it.ParentID != "" {
				p = "under "
			}
			got = append(got, p+it.Content[0].Text)
		}
	}
	want := []string{"under alpha one", "under beta two", "All reviewed."}
	if !slices.Equal(got, want) {
		t.Errorf("messages %q, want %q", got, want)
	}
}

// TestOpenCodeChildUpdates: OpenCode 2.x's ACP server streams a
// sub-agent's own session to a client that declares
// _meta["opencode/child-session-updates"], as opencode/session/child_update
// {rootSessionId, childSessionId, parentSessionId, depth, title?, type:
// "update", update} or {…, type: "status", status}, and to other clients
// as session/updates naming the child in _meta["opencode/child-session"]
// {id, parentID, title} (the shapes of OpenCode's own ACP test harness
// and of clients that read them, quoted in public repositories found by
// content search; no 2.x recording is in testdata). Its subagent tool's
// rawInput is {description, prompt, agent}. The notification was
// agent.unparsed and the projected text was glued to the answer; the
// call is now a task and the sub-agent's work goes under it.
func TestOpenCodeChildUpdates(t *testing.T) {
	up := func(u string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"ses_root","update":` + u + `}}`
	}
	child := func(body string) string {
		return `{"jsonrpc":"2.0","method":"opencode/session/child_update","params":{"rootSessionId":"ses_root","childSessionId":"ses_child","parentSessionId":"ses_root","depth":1,"title":"Count words",` + body + `}}`
	}
	evs := translate(t, acp.FormatAgent, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"_meta":{"opencode/child-session-updates":true}},"agentInfo":{"name":"OpenCode","version":"2.0.21"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"ses_root"}}`,
		up(`{"sessionUpdate":"tool_call","toolCallId":"call_sub","title":"subagent","kind":"think","status":"pending","rawInput":{}}`),
		up(`{"sessionUpdate":"tool_call_update","toolCallId":"call_sub","status":"in_progress","title":"Count words","rawInput":{"description":"Count words","prompt":"count","agent":"general"}}`),
		child(`"type":"status","status":"created"`),
		child(`"type":"update","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"counting"}}`),
		child(`"type":"update","update":{"sessionUpdate":"tool_call","toolCallId":"ses_child:call_1","title":"Count words: bash","kind":"execute","status":"pending","rawInput":{"command":"wc -w notes.md"}}`),
		child(`"type":"update","update":{"sessionUpdate":"tool_call_update","toolCallId":"ses_child:call_1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"11 notes.md"}}]}`),
		up(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"done"},"_meta":{"opencode/child-session":{"id":"ses_child","parentID":"ses_root","title":"Count words"}}}`),
		child(`"type":"status","status":"completed"`),
		up(`{"sessionUpdate":"tool_call_update","toolCallId":"call_sub","status":"completed","content":[{"type":"content","content":{"type":"text","text":"11 words"}}],"rawOutput":{"metadata":{"sessionID":"ses_child"}}}`),
		up(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"There are 11 words."}}`),
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`,
	}, "\n")+"\n")
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v", u)
	}
	var sub string
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		switch {
		case it.Kind == universal.KindToolCall && it.Content[0].CallID == "call_sub":
			sub = it.ItemID
			if it.Content[0].ToolKind != universal.ToolTask {
				t.Errorf("subagent call of kind %q, want task", it.Content[0].ToolKind)
			}
		case it.Kind == universal.KindMessage && len(it.Content) > 0:
			got = append(got, fmt.Sprintf("%v %s", it.ParentID != "" && it.ParentID == sub, it.Content[0].Text))
		case it.Kind == universal.KindToolCall:
			got = append(got, fmt.Sprintf("call under a message %v", it.ParentID != ""))
		}
	}
	want := []string{"true counting", "call under a message true", "true done", "false There are 11 words."}
	if !slices.Equal(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
}
