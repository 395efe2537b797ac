package codex_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRolloutNamespacedMCPCall: Codex 0.171 offers an MCP server's tools to
// the model in a namespace (behind tool_search: "mcp__<server>", the
// tool's own name), so the rollout's function_call is {"namespace":
// "mcp__lookup", "name": "lookup"}, before the item_completed McpToolCall
// {server, tool} of the same call id (testdata/crosscheck/codex/0.171.0/
// s18-mcp*.rollout-*). The call is named as exec and the app-server name
// it, "mcp__<server>__<tool>", with the namespace kept in metadata; a
// namespace that is not an MCP server's leaves the name as it is.
func TestRolloutNamespacedMCPCall(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		rolloutLine("session_meta", `{"id":"th1","cwd":"/w","cli_version":"0.171.0"}`),
		rolloutLine("event_msg", `{"type":"task_started","turn_id":"tu1"}`),
		rolloutLine("response_item", `{"type":"function_call","status":"completed","name":"lookup","namespace":"mcp__lookup","arguments":"{\"key\": \"alpha\"}","call_id":"c1"}`),
		rolloutLine("event_msg", `{"type":"item_completed","thread_id":"th1","turn_id":"tu1","item":{"type":"McpToolCall","id":"c1","server":"lookup","tool":"lookup","arguments":{"key":"alpha"},"status":"completed","result":{"content":[{"type":"text","text":"alpha = 42"}],"structuredContent":{"value":42},"isError":false}}}`),
		rolloutLine("response_item", `{"type":"function_call_output","call_id":"c1","output":"Wall time: 0.01 seconds\nOutput:\n{\"value\":42}"}`),
		rolloutLine("response_item", `{"type":"function_call","name":"spawn_agent","namespace":"multi_agent_v1","arguments":"{}","call_id":"c2"}`),
		rolloutLine("event_msg", `{"type":"task_complete","turn_id":"tu1","last_agent_message":null}`),
	})
	names := map[string]string{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
			names[it.Content[0].CallID] = it.Content[0].Name + " " + string(it.Content[0].Metadata)
		}
	}
	if got, want := names["c1"], `mcp__lookup__lookup {"namespace":"mcp__lookup"}`; got != want {
		t.Errorf("MCP call: %q, want %q", got, want)
	}
	if got, want := names["c2"], `spawn_agent {"namespace":"multi_agent_v1"}`; got != want {
		t.Errorf("other namespace: %q, want %q", got, want)
	}
	if p := results(evs)["c1"]; p.Output != "alpha = 42" || p.IsError || string(p.Metadata) == "" {
		t.Errorf("MCP result %q %v %s", p.Output, p.IsError, p.Metadata)
	}
}
