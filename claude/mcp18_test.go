package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestMCPStructuredContent: Claude Code 2.1.332 gives an MCP tool's
// structuredContent to the model as the result's JSON text and to the host
// in tool_use_result {content, structuredContent}
// (testdata/crosscheck/claude/2.1.332/s18-mcp*). The result part carries
// it in metadata as "structured_content", where the Codex translator puts
// an MCP result's; the structured result stays a json part. A tool of the
// CLI's with a structuredContent member gets none, nor does an MCP result
// without one.
func TestMCPStructuredContent(t *testing.T) {
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"system","subtype":"init","session_id":"s1","cwd":"/w","tools":[],"model":"m"}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"mcp__lookup__lookup","input":{"key":"alpha"}}]},"session_id":"s1"}`,
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"{\"key\":\"alpha\",\"value\":42}"}]},"tool_use_result":{"content":"{\"key\":\"alpha\",\"value\":42}","structuredContent":{"key":"alpha","value":42}},"session_id":"s1"}`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"mcp__lookup__lookup","input":{"key":"missing"}}]},"session_id":"s1"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"no entry","is_error":true,"tool_use_id":"t2"}]},"tool_use_result":"Error: no entry","session_id":"s1"}`,
		`{"type":"assistant","message":{"id":"m3","role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Other","input":{}}]},"session_id":"s1"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok","tool_use_id":"t3"}]},"tool_use_result":{"structuredContent":{"a":1}},"session_id":"s1"}`,
	)
	meta := map[string]string{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
			meta[it.Content[0].CallID] = string(it.Content[0].Metadata)
		}
	}
	if got, want := meta["t1"], `{"structured_content":{"key":"alpha","value":42}}`; got != want {
		t.Errorf("MCP result metadata %s, want %s", got, want)
	}
	if meta["t2"] != "" || meta["t3"] != "" {
		t.Errorf("metadata of an error %q, of a CLI tool %q: want none", meta["t2"], meta["t3"])
	}
}
