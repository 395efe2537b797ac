package codex

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
)

// TestReviewAction: what a reviewer's verdict names of the action it
// judged, for each action type; an action without its type still names
// its command, as the first guardian releases read it.
func TestReviewAction(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"command","command":["ls","-la"]}`:                     "ls -la",
		`{"command":"rm -rf build"}`:                                    "rm -rf build",
		`{"command":["git","push"]}`:                                    "git push",
		`{"type":"execve","program":"/bin/ls"}`:                         "/bin/ls",
		`{"type":"network_access","target":"https://example.test:443"}`: "network https://example.test:443",
		`{"type":"mcp_tool_call","server":"docs","tool_name":"search"}`: mcpToolName("docs", "search"),
		`{"type":"request_permissions"}`:                                "permissions",
		`{"type":"something_new","command":"x"}`:                        "something_new",
		`{}`:                                                            "",
	} {
		var sc jsonscan.Scanner
		if !sc.Scan([]byte(in)) {
			t.Fatalf("scan %s", in)
		}
		if got := reviewAction(sc.Root()); got != want {
			t.Errorf("reviewAction(%s) = %q, want %q", in, got, want)
		}
	}
}
