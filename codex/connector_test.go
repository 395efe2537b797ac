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
