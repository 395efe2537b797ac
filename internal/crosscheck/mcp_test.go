package crosscheck

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// mcpCall is what a client sees of one MCP tool call: the call's name,
// kind and arguments (JSON, keys sorted), and its result's output, error
// and structured content (metadata "structured_content", keys sorted).
type mcpCall struct {
	Name, Kind, Args string
	Output           string
	IsError          bool
	Structured       string
}

// canonical returns JSON text with its objects' keys sorted ("" stays "").
func canonical(t *testing.T, s string) string {
	t.Helper()
	if s == "" {
		return ""
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// mcpCalls returns the calls of the s18 MCP tool lookup in a translation,
// in order, with their results.
func mcpCalls(t *testing.T, evs []universal.Event) []mcpCall {
	var calls []mcpCall
	at := map[string]int{}
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if len(it.Content) == 0 {
			continue
		}
		p := it.Content[0]
		switch {
		case it.Kind == universal.KindToolCall && strings.Contains(p.Name, "lookup"):
			at[p.CallID] = len(calls)
			calls = append(calls, mcpCall{Name: p.Name, Kind: string(p.ToolKind), Args: canonical(t, p.Arguments)})
		case it.Kind == universal.KindToolResult && p.Type == universal.PartToolResult:
			if i, ok := at[p.CallID]; ok {
				c := &calls[i]
				c.Output, c.IsError = p.Output, p.IsError
				c.Structured = canonical(t, gjson.GetBytes(p.Metadata, "structured_content").Raw)
			}
		}
	}
	return calls
}

// mcpWant is the one shape of the s18-mcp calls (set main or v2), as
// Codex's formats show them: an MCP tool is named
// "mcp__<server>__<tool>" and is of kind other; the result's output is the
// text of its text blocks, an isError result fails with its text, and the
// structured content is in the result part's metadata.
func mcpWant(set string) []mcpCall {
	key, text, structured := "alpha", "alpha = 42 (from table-a)", `{"key":"alpha","source":"table-a","value":42}`
	if set == "v2" {
		key, text, structured = "beta", "beta = 7 (from table-b)", `{"key":"beta","source":"table-b","value":7}`
	}
	return []mcpCall{
		{Name: "mcp__lookup__lookup", Kind: "other", Args: `{"key":"` + key + `"}`, Output: text, Structured: structured},
		{Name: "mcp__lookup__lookup", Kind: "other", Args: `{"key":"missing"}`, Output: "lookup failed: no entry for key 'missing'", IsError: true},
	}
}

// mcpDiffers adjusts the one shape for what an agent itself records
// otherwise (no translator can give it back):
//   - Claude Code 2.1.332 hands on a result with structuredContent as that
//     JSON text in place of the text blocks (tool_result content and
//     tool_use_result.content; the blocks are not recorded), and its
//     transcript's toolUseResult is that text alone, not the object;
//   - OpenCode 1.18.33 names the tool "<server>_<tool>" (its records do not
//     say a tool is an MCP server's, so the name stays its own) and records
//     nothing of the structured content.
func mcpDiffers(agent, label string, want []mcpCall) []mcpCall {
	want = append([]mcpCall(nil), want...)
	for i := range want {
		w := &want[i]
		switch agent {
		case "claude":
			if w.Structured != "" {
				var v map[string]any
				_ = json.Unmarshal([]byte(w.Structured), &v)
				// As the server wrote it: key, value, source.
				w.Output = `{"key":"` + v["key"].(string) + `","value":` + gjson.Get(w.Structured, "value").Raw + `,"source":"` + v["source"].(string) + `"}`
				if label == "transcript" {
					w.Structured = ""
				}
			}
		case "opencode":
			w.Name, w.Structured = "lookup_lookup", ""
		}
	}
	return want
}

// TestMCPCallsAgree: the s18-mcp recordings (tools/capturelab-s18: the model
// calls a local MCP server's tool lookup twice, a success with structured
// content and an isError result) give every agent's MCP calls in one
// shape in every format: name, kind, arguments, output, error, structured
// content, but for what an agent does not record (mcpDiffers).
func TestMCPCallsAgree(t *testing.T) {
	metas, err := filepath.Glob(filepath.Join(root, "*", "*", "s18-mcp*.meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no s18-mcp recordings: %v", err)
	}
	n := 0
	for _, meta := range metas {
		dir := filepath.Dir(meta)
		agent := filepath.Base(filepath.Dir(dir))
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		set := "main"
		if strings.HasSuffix(name, "-v2") {
			set = "v2"
		}
		pr := providers[family(agent)]
		for _, in := range inputs(agent, dir, name) {
			l := label(in)
			got := mcpCalls(t, translate(t, pr, in, meta))
			want := mcpDiffers(agent, strings.SplitN(l, ":", 2)[0], mcpWant(set))
			n++
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s/%s %s: MCP calls differ (-want +got):\n%s", agent, name, l, diff)
			}
		}
	}
	t.Logf("%d translations", n)
}
