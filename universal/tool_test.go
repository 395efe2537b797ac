package universal_test

import (
	"slices"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// TestToolSpecInput reads arguments of every shape a spec meets: the first
// present alternative (null counts as absent), argv arrays, path arrays
// and a move's destination, escaped strings, duplicate keys (the first
// wins, as gjson reads), arguments that are not an object, and arguments
// cut short, which are read as far as they go.
func TestToolSpecInput(t *testing.T) {
	spec := universal.ToolSpec{Kind: universal.ToolEdit, Command: "command|cmd", Paths: "file_path|path|paths", Dest: "dest",
		Query: "pattern|query", URL: "url", Prompt: "prompt", Agent: "subagent_type"}
	for _, c := range []struct {
		args    string
		command string
		paths   []string
		query   string
		prompt  string
	}{
		{args: `{"file_path":"a.go","content":"x"}`, paths: []string{"/w/a.go"}},
		{args: `{"file_path":null,"path":"/abs/b.go"}`, paths: []string{"/abs/b.go"}},
		{args: `{"paths":["a","","b"],"dest":"c"}`, paths: []string{"/w/a", "/w/b", "/w/c"}},
		{args: `{"cmd":["bash","-lc","ls -la"]}`, command: "ls -la"},
		{args: `{"command":"go test ./...","command":"other"}`, command: "go test ./..."},
		{args: `{"pattern":"a\"b\u00e9","prompt":"do \n it"}`, query: `a"bé`, prompt: "do \n it"},
		{args: `["file_path","a.go"]`},
		{args: `"a.go"`},
		{args: ``},
		{args: `{"command":"ls","file_path":"a.go","content":"unterminated`, command: "ls", paths: []string{"/w/a.go"}},
	} {
		in := spec.Input(c.args, "/w")
		if in.Command != c.command || !slices.Equal(in.Paths, c.paths) || in.Query != c.query || in.Prompt != c.prompt {
			t.Errorf("%s: got command %q paths %q query %q prompt %q, want %q %q %q %q",
				c.args, in.Command, in.Paths, in.Query, in.Prompt, c.command, c.paths, c.query, c.prompt)
		}
	}
}
