package acp_test

import (
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
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
			records := [][2]string{
				{"in", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{}}}`},
				{"out", `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"probe-agent","version":"0.0.1"},"protocolVersion":2}}`},
				{"in", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`},
				{"out", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sv2"}}`},
				{"in", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sv2","messageId":"u1","prompt":[{"type":"text","text":"change the files"}]}}`},
				{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sv2","update":{"sessionUpdate":"state_update","state":"running"}}}`},
				{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sv2","update":{"sessionUpdate":"tool_call_update","toolCallId":"e1","name":"edit","kind":"edit","title":"Edit files","rawInput":{"files":2},"status":"in_progress"}}}`},
				{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sv2","update":{"sessionUpdate":"tool_call_update","toolCallId":"e1","status":"completed","content":` + tc.content + `}}}`},
				{"out", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sv2","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}`},
				{"out", `{"jsonrpc":"2.0","id":2,"result":{"messageId":"u1"}}`},
			}
			exchange, bare := bothWays(t, records)
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

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
