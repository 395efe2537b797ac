package codex_test

import (
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// schema34Head starts a v2 app-server session and turn (thread th1, turn
// tu1) for the round-34 schema tests; ids and texts are ours.
var schema34Head = []string{
	`{"id":1,"result":{"thread":{"id":"th1","preview":"","modelProvider":"openai","createdAt":1790000000,"cliVersion":"0.169.0"},"model":"gpt-6.1-sol","modelProvider":"openai","cwd":"/w","approvalPolicy":"never","sandbox":{"type":"dangerFullAccess"}}}`,
	`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress","error":null}}}`,
}

const schema34Tail = `{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed","error":null}}}`

// schema34Items runs the items given (started, then completed) in that
// turn on the app-server, and fails on an agent.unparsed.
func schema34Items(t *testing.T, started, completed string) []universal.Event {
	t.Helper()
	lines := append(append([]string{}, schema34Head...),
		`{"method":"item/started","params":{"threadId":"th1","turnId":"tu1","item":`+started+`}}`,
		`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":`+completed+`}}`,
		schema34Tail)
	evs := runParsed(t, codex.FormatAppServer, lines)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
		t.Fatalf("agent.unparsed: %+v", u[0].Data)
	}
	return evs
}

// TestSubAgentActivityEffort: a v2 subAgentActivity item names the model
// and the reasoning effort the sub-agent was created with
// (SubAgentActivityThreadItem of the app-server schema Codex 0.169.0
// generates: model, reasoningEffort, "Resolved … at sub-agent creation").
// The model was kept in the status item's metadata, the effort dropped,
// although a collab spawn call keeps both (arguments model and
// reasoning_effort). Both are kept now, each only when named.
func TestSubAgentActivityEffort(t *testing.T) {
	const item = `{"type":"subAgentActivity","id":"call_sa1","kind":"started","agentThreadId":"th2","agentPath":"/root/tally"`
	for _, tc := range []struct {
		name, fields, want string
	}{
		{"model and effort", `,"model":"gpt-6.1-mini","reasoningEffort":"low"`, `{"agent_thread_id":"th2","model":"gpt-6.1-mini","reasoning_effort":"low"}`},
		{"effort alone", `,"model":null,"reasoningEffort":"high"`, `{"agent_thread_id":"th2","reasoning_effort":"high"}`},
		{"neither", `,"model":null,"reasoningEffort":null`, `{"agent_thread_id":"th2"}`},
		{"older record", ``, `{"agent_thread_id":"th2"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := schema34Items(t, item+tc.fields+`}`, item+tc.fields+`}`)
			var got []string
			for _, it := range completedItems(evs) {
				if it.Kind == universal.KindStatus && it.Content[0].Label == "sub_agent_started" {
					got = append(got, string(it.Content[0].Metadata))
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("sub_agent_started metadata %q, want [%s]", got, tc.want)
			}
		})
	}
}

// TestMCPCallDescriptorHints: a v2 mcpToolCall carries what the tool's
// descriptor said of it (McpToolCallThreadItem of the app-server schema
// Codex 0.169.0 generates: readOnlyHint; mcpAppUi {resourceUri,
// preferredModelDisplayMode}, "absent in older history"; the legacy
// mcpAppResourceUri). They were dropped; they are the call's metadata,
// beside plugin_id and app_context, each only when given.
func TestMCPCallDescriptorHints(t *testing.T) {
	const head = `{"type":"mcpToolCall","id":"mcp_h1","server":"notes","tool":"lookup","arguments":{"q":"todo"}`
	for _, tc := range []struct {
		name, fields, want string
	}{
		{"all", `,"pluginId":"notes@1","readOnlyHint":true,"mcpAppUi":{"resourceUri":"ui://notes/list","preferredModelDisplayMode":"inline"},"mcpAppResourceUri":"ui://notes/list"`,
			`{"plugin_id":"notes@1","read_only_hint":true,"mcp_app_ui":{"resourceUri":"ui://notes/list","preferredModelDisplayMode":"inline"},"mcp_app_resource_uri":"ui://notes/list"}`},
		{"writes", `,"readOnlyHint":false,"mcpAppUi":null`, `{"read_only_hint":false}`},
		{"legacy uri alone", `,"mcpAppResourceUri":"ui://notes/list"`, `{"mcp_app_resource_uri":"ui://notes/list"}`},
		{"nulls", `,"pluginId":null,"appContext":null,"readOnlyHint":null,"mcpAppUi":null`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := schema34Items(t, head+tc.fields+`,"status":"inProgress","result":null,"error":null,"durationMs":null}`,
				head+tc.fields+`,"status":"completed","result":{"content":[{"type":"text","text":"2 notes"}],"structuredContent":null},"error":null,"durationMs":12}`)
			var got []string
			for _, it := range completedItems(evs) {
				for _, p := range it.Content {
					if p.Type == universal.PartToolCall {
						got = append(got, string(p.Metadata))
					}
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("call metadata %q, want [%s]", got, tc.want)
			}
		})
	}
}

// TestThreadSessionMetadata: the app-server's Thread (schema Codex 0.169.0
// generates) names the session tree it belongs to (sessionId), its
// analytics source (threadSource), a spawned agent's nickname and role
// (agentNickname, agentRole) and its history contract (historyMode). They
// were dropped, although a rollout's session_meta gives the same facts as
// root_session_id, thread_source, agent_nickname and history_mode; they
// are session.started metadata under those names now (agent_role beside
// them), root_session_id only when it is not the thread's own id, as the
// rollout does.
func TestThreadSessionMetadata(t *testing.T) {
	const resp = `{"id":1,"result":{"thread":{"id":"th7","sessionId":%s,"threadSource":%s,"agentNickname":%s,"agentRole":%s,"historyMode":%s,"modelProvider":"openai","createdAt":1790000000,"cliVersion":"0.169.0","source":"vscode"},"model":"gpt-6.1-sol","modelProvider":"openai","cwd":"/w","approvalPolicy":"never","sandbox":{"type":"dangerFullAccess"}}}`
	for _, tc := range []struct {
		name string
		args []any
		want map[string]any // metadata members (strings); nil: must be absent
	}{
		{"a spawned thread of a tree", []any{`"th1"`, `"subagent"`, `"Wren"`, `"reviewer"`, `"paginated"`},
			map[string]any{"root_session_id": "th1", "thread_source": "subagent", "agent_nickname": "Wren", "agent_role": "reviewer", "history_mode": "paginated"}},
		{"the tree's root", []any{`"th7"`, `null`, `null`, `null`, `"legacy"`},
			map[string]any{"root_session_id": nil, "thread_source": nil, "agent_nickname": nil, "agent_role": nil, "history_mode": "legacy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta := sessionMeta(t, runParsed(t, codex.FormatAppServer, []string{fmt.Sprintf(resp, tc.args...)}))
			for k, v := range tc.want {
				got := meta.Get(k)
				if v == nil && got.Exists() {
					t.Errorf("metadata %s = %s, want none", k, got.Raw)
				} else if v != nil && got.Str != v {
					t.Errorf("metadata %s = %s, want %v", k, got.Raw, v)
				}
			}
		})
	}
}
