package codex_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestConnectorToolSearch: a Codex 0.140 rollout (EntityProcess/agentv's
// Entire checkpoint, testdata/codex/public/rollout/
// agentv-0.140.0-connector-tool-search.jsonl) searches its tools, and the
// tool_search_output names what it found as namespaces with their tools:
// {"type":"namespace","name":"mcp__codex_apps__github","tools":[{"name":
// "_fetch_pr"},…]}. The result said only the namespaces' names; it names
// the tools, each as a call of it is named. The model then calls an app
// connector's tool, {"namespace":"mcp__codex_apps__github","name":
// "_fetch_pr"}: the name goes on from the namespace (Codex's own name of
// the tool is "mcp__codex_apps__github_fetch_pr"), where the call was
// named "mcp__codex_apps__github___fetch_pr". A plain MCP server's
// namespace ("mcp__grepai") is joined with "__" as before.
func TestConnectorToolSearch(t *testing.T) {
	b, err := os.ReadFile(public + "/rollout/agentv-0.140.0-connector-tool-search.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	evs := run(t, codex.FormatRollout, nil, strings.Split(strings.TrimSpace(string(b)), "\n"))
	res := results(evs)
	want := "mcp__codex_apps__github_fetch_pr\nmcp__codex_apps__github_get_commit_combined_status\n" +
		"mcp__codex_apps__github_list_pull_request_review_threads\nmcp__codex_apps__github_reply_to_review_comment\n" +
		"mcp__grepai__grepai_index_status"
	if got := res["call_F1WP1sSZOkUtrjJcdTMGgpZQ"].Output; got != want {
		t.Errorf("tool_search result:\n%s\nwant\n%s", got, want)
	}
	names := map[string]string{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
			names[it.Content[0].CallID] = it.Content[0].Name
		}
	}
	if got, want := names["call_tVufT3twCrde5ayqnfWKr4in"], "mcp__codex_apps__github_fetch_pr"; got != want {
		t.Errorf("connector call named %q, want %q", got, want)
	}
	if got := res["call_tVufT3twCrde5ayqnfWKr4in"].Output; got != "Action completed." {
		t.Errorf("connector call result %q", got)
	}
	// A namespace that lists no tools is named itself; a connector's name
	// that does not go on from its namespace is joined as any other.
	evs = run(t, codex.FormatRollout, nil, []string{
		`{"type":"session_meta","payload":{"id":"th1","cwd":"/w","cli_version":"0.140.0"}}`,
		`{"type":"event_msg","payload":{"type":"task_started","turn_id":"tu1"}}`,
		`{"type":"response_item","payload":{"type":"tool_search_call","call_id":"s1","arguments":{"query":"q"}}}`,
		`{"type":"response_item","payload":{"type":"tool_search_output","call_id":"s1","tools":[{"type":"namespace","name":"mcp__a"},{"type":"function","name":"f"}]}}`,
		`{"type":"response_item","payload":{"type":"function_call","name":"x","namespace":"mcp__codex_apps__github","arguments":"{}","call_id":"c1"}}`,
		`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"tu1"}}`,
	})
	if got := results(evs)["s1"].Output; got != "mcp__a\nf" {
		t.Errorf("bare namespaces: %q", got)
	}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall && it.Content[0].CallID == "c1" {
			if it.Content[0].Name != "mcp__codex_apps__github__x" {
				t.Errorf("name %q", it.Content[0].Name)
			}
		}
	}
}

// TestConnectorCallName: Codex's MCP items and events name an app
// connector's tool "<connector>.<tool>" (server codex_apps, tool
// "github.fetch_pr": the mcp_tool_call_end of the same call in the agentv
// rollout above), while the model calls it, and a rollout names it,
// "mcp__codex_apps__github_fetch_pr". exec output and the app-server's
// items named it "mcp__codex_apps__github.fetch_pr": the same call had
// two names by the format it was read from. Every format names it as the
// model does; another server's tool keeps its name as it is.
func TestConnectorCallName(t *testing.T) {
	for _, tc := range []struct {
		format string
		lines  []string
	}{
		{codex.FormatExec, []string{
			`{"type":"thread.started","thread_id":"th1"}`,
			`{"type":"turn.started"}`,
			`{"type":"item.started","item":{"id":"item_0","type":"mcp_tool_call","server":"codex_apps","tool":"github.fetch_pr","arguments":{"pr":1},"result":null,"error":null,"status":"in_progress"}}`,
			`{"type":"item.completed","item":{"id":"item_0","type":"mcp_tool_call","server":"codex_apps","tool":"github.fetch_pr","arguments":{"pr":1},"result":{"content":[{"type":"text","text":"Action completed."}],"structured_content":null},"error":null,"status":"completed"}}`,
			`{"type":"item.started","item":{"id":"item_1","type":"mcp_tool_call","server":"docs","tool":"search.v2","arguments":{},"result":null,"error":null,"status":"in_progress"}}`,
			`{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"docs","tool":"search.v2","arguments":{},"result":{"content":[]},"error":null,"status":"completed"}}`,
			`{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}`,
		}},
		{codex.FormatAppServer, []string{
			`{"method":"thread/started","params":{"thread":{"id":"th1","cliVersion":"0.169.0"}}}`,
			`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
			`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"mcpToolCall","id":"c1","server":"codex_apps","tool":"github.fetch_pr","status":"completed","arguments":{"pr":1},"result":{"content":[{"type":"text","text":"Action completed."}]},"error":null}}}`,
			`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"mcpToolCall","id":"c2","server":"docs","tool":"search.v2","status":"completed","arguments":{},"result":{"content":[]},"error":null}}}`,
			`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"completed"}}}`,
		}},
		{codex.FormatRollout, []string{
			`{"type":"session_meta","payload":{"id":"th1","cwd":"/w","cli_version":"0.140.0"}}`,
			`{"type":"event_msg","payload":{"type":"task_started","turn_id":"tu1"}}`,
			`{"type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c1","invocation":{"server":"codex_apps","tool":"github.fetch_pr","arguments":{"pr":1}},"duration":{"secs":0,"nanos":1},"result":{"Ok":{"content":[{"type":"text","text":"Action completed."}]}}}}`,
			`{"type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c2","invocation":{"server":"docs","tool":"search.v2","arguments":{}},"duration":{"secs":0,"nanos":1},"result":{"Ok":{"content":[]}}}}`,
			`{"type":"event_msg","payload":{"type":"task_complete","turn_id":"tu1"}}`,
		}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			evs := run(t, tc.format, nil, tc.lines)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
				t.Errorf("agent.unparsed: %+v", u[0].Data)
			}
			var names []string
			for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
					names = append(names, it.Content[0].Name)
				}
			}
			if want := []string{"mcp__codex_apps__github_fetch_pr", "mcp__docs__search.v2"}; strings.Join(names, " ") != strings.Join(want, " ") {
				t.Errorf("tool calls named %q, want %q", names, want)
			}
		})
	}
}
