package acp_test

import (
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestACPv2DiffChanges: an ACP v2 diff (schema/v2 Diff, @agentclientprotocol/sdk
// 2.4.0) names its files in changes [{operation, path, oldPath?}] and
// carries the text as a patch; each change is a file_ref of the result,
// as package codex gives a patch's changes. They were dropped (the v1
// reading wants path, oldText, newText).
func TestACPv2DiffChanges(t *testing.T) {
	type ref struct {
		Path, Action, Diff string
		Meta               string
	}
	patch := "diff --git a/src/one.go b/src/one.go\n--- a/src/one.go\n+++ b/src/one.go\n@@ -1 +1 @@\n-old\n+new\n" +
		"diff --git a/src/two.go b/src/three.go\nrename from src/two.go\nrename to src/three.go\n"
	tests := []struct {
		name    string
		content string
		want    []ref
	}{
		{"modify, move and add, a git patch of two sections",
			`[{"type":"diff","changes":[{"operation":"modify","path":"/w/src/one.go","fileType":"text"},{"operation":"move","oldPath":"/w/src/two.go","path":"/w/src/three.go"},{"operation":"add","path":"/w/img.png","fileType":"binary","mimeType":"image/png"}],"patch":{"format":"git_patch","text":` + quote(patch) + `}}]`,
			[]ref{
				{"/w/src/one.go", "patch", "diff --git a/src/one.go b/src/one.go\n--- a/src/one.go\n+++ b/src/one.go\n@@ -1 +1 @@\n-old\n+new\n", `{"kind":"modify","file_type":"text"}`},
				{"/w/src/two.go", "patch", "diff --git a/src/two.go b/src/three.go\nrename from src/two.go\nrename to src/three.go\n", `{"kind":"move","move_path":"/w/src/three.go"}`},
				{"/w/img.png", "write", "", `{"kind":"add","file_type":"binary","mime_type":"image/png"}`},
			}},
		{"one change: the whole patch, whatever its format",
			`[{"type":"diff","changes":[{"operation":"modify","path":"/w/notes.md"}],"patch":{"format":"_plain","text":"-a\n+b\n"}}]`,
			[]ref{{"/w/notes.md", "patch", "-a\n+b\n", `{"kind":"modify"}`}}},
		{"delete and copy without a patch, a relative path resolved",
			`[{"type":"diff","changes":[{"operation":"delete","path":"/w/gone.txt"},{"operation":"copy","oldPath":"/w/a.txt","path":"b.txt"}],"patch":null}]`,
			[]ref{{"/w/gone.txt", "write", "", `{"kind":"delete"}`}, {"/w/b.txt", "write", "", `{"kind":"copy","copied_from":"/w/a.txt"}`}}},
		{"an operation the schema leaves to future versions",
			`[{"type":"diff","changes":[{"operation":"_chmod","path":"/w/run.sh"},{"operation":"modify"}]}]`,
			[]ref{{"/w/run.sh", "patch", "", `{"kind":"_chmod"}`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exchange, bare := bothWays(t, v2Turn("change the files",
				`{"sessionUpdate":"state_update","state":"running"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"e1","name":"edit","kind":"edit","title":"Edit files","rawInput":{"files":2},"status":"in_progress"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"e1","status":"completed","content":`+tc.content+`}`))
			for name, evs := range map[string][]universal.Event{"exchange": exchange, "agent": bare} {
				if u := unparsed(evs); len(u) != 0 {
					t.Fatalf("%s: agent.unparsed %q", name, u)
				}
				var got []ref
				for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
					it := ev.Data.(*universal.ItemSnapshot).Item
					if it.Kind != universal.KindToolResult {
						continue
					}
					for _, p := range it.Content {
						if p.Type == universal.PartFileRef {
							got = append(got, ref{p.Path, string(p.Action), p.Diff, string(p.Metadata)})
						}
					}
				}
				if len(got) != len(tc.want) {
					t.Fatalf("%s: file_refs %+v, want %+v", name, got, tc.want)
				}
				for i := range got {
					if got[i] != tc.want[i] {
						t.Errorf("%s: file_ref %d\n got %+v\nwant %+v", name, i, got[i], tc.want[i])
					}
				}
			}
		})
	}
}

// v2Turn is an ACP v2 session of one prompt: the agent's updates, then
// state_update idle and the prompt's acceptance.
func v2Turn(prompt string, updates ...string) [][2]string {
	records := [][2]string{
		{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{}}}`},
		{"out", `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"probe-agent","version":"0.0.1"},"protocolVersion":2}}`},
		{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`},
		{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sv2"}}`},
		{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sv2","messageId":"u1","prompt":[{"type":"text","text":` + quote(prompt) + `}]}}`},
	}
	for _, u := range append(updates, `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`) {
		records = append(records, [2]string{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sv2","update":` + u + `}}`})
	}
	return append(records, [2]string{"out", `{"jsonrpc":"2.0","id":2,"result":{"messageId":"u1"}}`})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestACPv2PlanOtherType: ACP v2's plan_update content is open
// (schema/v2 PlanUpdateContent "other": a custom "_…" or future type with
// its planId); such a plan is the plan status item, kept whole in its
// metadata (plan_type, plan). It was agent.unparsed. v1's unstable
// schema knows three types only (TestPlanUpdate).
func TestACPv2PlanOtherType(t *testing.T) {
	tests := []struct {
		name, plan string
		wantType   string
		unparsed   bool
	}{
		{"custom type", `{"type":"_board","planId":"pb","columns":["todo","done"]}`, "_board", false},
		{"future type", `{"type":"graph","planId":"pg","nodes":[]}`, "graph", false},
		{"no type", `{"planId":"px"}`, "", true},
		{"no planId", `{"type":"items","entries":[]}`, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exchange, bare := bothWays(t, v2Turn("plan it", `{"sessionUpdate":"plan_update","plan":`+tc.plan+`}`))
			for name, evs := range map[string][]universal.Event{"exchange": exchange, "agent": bare} {
				u := unparsed(evs)
				_, plans := statusItems(evs, "plan")
				if tc.unparsed {
					if len(u) != 1 || len(plans) != 0 {
						t.Errorf("%s: agent.unparsed %q, plans %d; want the plan unparsed", name, u, len(plans))
					}
					continue
				}
				if len(u) != 0 {
					t.Fatalf("%s: agent.unparsed %q", name, u)
				}
				if len(plans) != 1 {
					t.Fatalf("%s: %d plan items, want one", name, len(plans))
				}
				it := plans[0]
				if md(it, "plan_type").Str != tc.wantType || md(it, "plan").Raw != tc.plan || md(it, "plan_id").Str == "" {
					t.Errorf("%s: plan metadata %s", name, it.Content[0].Metadata)
				}
			}
		})
	}
}

// TestProxyChain: a proxy's connection in an ACP proxy chain (the
// unstable proxy/initialize and proxy/successor of @agentclientprotocol/sdk
// 2.4.0's schemas, v1 unstable and v2): the conductor initializes the
// proxy with proxy/initialize (initialize's params and response), and
// the proxy's traffic with its successor goes wrapped in proxy/successor,
// both ways, while what the host sees comes as the proxy's own messages.
// Each proxy message was agent.unparsed and the proxy's initialize
// response lost.
func TestProxyChain(t *testing.T) {
	wrap := func(id, method, params string) string {
		if id != "" {
			id = `"id":"` + id + `",`
		}
		return `{"jsonrpc":"2.0",` + id + `"method":"proxy/successor","params":{"method":"` + method + `","params":` + params + `}}`
	}
	chunk := `{"sessionId":"px1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"forwarded answer"}}}`
	tests := []struct {
		name    string
		records [][2]string
	}{
		{"successor's answers", [][2]string{
			{"in", `{"jsonrpc":"2.0","id":0,"method":"proxy/initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true}}}}`},
			{"out", wrap("w0", "initialize", `{"protocolVersion":1,"clientCapabilities":{}}`)},
			{"in", `{"jsonrpc":"2.0","id":"w0","result":{"protocolVersion":1,"agentInfo":{"name":"last-agent","version":"3.1"},"agentCapabilities":{}}}`},
			{"out", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"chain-proxy","version":"0.2"},"agentCapabilities":{}}}`},
			{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`},
			{"out", wrap("w1", "session/new", `{"cwd":"/w","mcpServers":[]}`)},
			{"in", `{"jsonrpc":"2.0","id":"w1","result":{"sessionId":"px1"}}`},
			{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"px1"}}`},
			{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"px1","prompt":[{"type":"text","text":"ask the chain"}]}}`},
			{"out", wrap("w2", "session/prompt", `{"sessionId":"px1","prompt":[{"type":"text","text":"ask the chain"}]}`)},
			{"in", wrap("", "session/update", chunk)},
			{"out", `{"jsonrpc":"2.0","method":"session/update","params":` + chunk + `}`},
			{"in", `{"jsonrpc":"2.0","id":"w2","result":{"stopReason":"end_turn"}}`},
			{"out", `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`},
		}},
		{"successor's request and error", [][2]string{
			{"in", `{"jsonrpc":"2.0","id":0,"method":"proxy/initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`},
			{"out", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"chain-proxy","version":"0.2"},"agentCapabilities":{}}}`},
			{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`},
			{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"px1"}}`},
			{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"px1","prompt":[{"type":"text","text":"ask the chain"}]}}`},
			{"in", wrap("c9", "fs/read_text_file", `{"sessionId":"px1","path":"/w/a.txt"}`)},
			{"out", `{"jsonrpc":"2.0","id":"c9","error":{"code":-32601,"message":"Method not found"}}`},
			{"out", wrap("w3", "session/cancel", `{"sessionId":"px1"}`)},
			{"in", `{"jsonrpc":"2.0","id":"w3","error":{"code":-32603,"message":"successor exited"}}`},
			{"out", `{"jsonrpc":"2.0","method":"session/update","params":` + chunk + `}`},
			{"out", `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exchange, bare := bothWays(t, tc.records)
			for name, evs := range map[string][]universal.Event{"exchange": exchange, "agent": bare} {
				if u := unparsed(evs); len(u) != 0 {
					t.Fatalf("%s: agent.unparsed %q", name, u)
				}
				s, err := reduce.Replay(evs)
				if err != nil {
					t.Fatal(err)
				}
				if got := gjson.GetBytes(s.Metadata, "agent_name").Str; got != "chain-proxy" {
					t.Errorf("%s: agent_name %q, want the proxy's", name, got)
				}
				if len(s.Turns) != 1 || s.Turns[0].Status != universal.TurnCompleted {
					t.Fatalf("%s: turns %+v, want one completed", name, s.Turns)
				}
				var texts []string
				for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
					if it := ev.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindMessage {
						texts = append(texts, string(it.Role)+": "+it.Content[0].Text)
					}
				}
				if want := []string{"user: ask the chain", "assistant: forwarded answer"}; len(texts) != 2 || texts[0] != want[0] || texts[1] != want[1] {
					t.Errorf("%s: messages %q, want %q", name, texts, want)
				}
				for _, ev := range evs {
					if ev.Type == universal.TypeError {
						t.Errorf("%s: error event %+v", name, ev.Data)
					}
				}
			}
		})
	}
}
