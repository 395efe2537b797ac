package opencode_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestV2ShellRecording: a real OpenCode 2.0.19 /api/event stream
// (testdata/opencode/public/kimaki-v2.0.19-shell.api-event.sse, recorded by
// remorses/kimaki with @opencode/client against `opencode serve`): two
// shell commands of the user, two queued prompts, a step whose call of
// the model's command tool, named shell in 2.x ({command, workdir}), runs
// `sleep 5`, and the answer. The call was of kind other with no input (the
// tool table knew only 1.x's bash), and the shell service's own
// shell.created and shell.exited and the registry's skill.updated were
// agent.unparsed.
func TestV2ShellRecording(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(public, "kimaki-v2.0.19-shell.api-event.sse"))
	if err != nil {
		t.Fatal(err)
	}
	c := golden.Case{Format: opencode.FormatSSE, Framing: framing(opencode.FormatSSE), New: newFor(opencode.FormatSSE)}
	evs, err := c.Translate(b, golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Errorf("agent.unparsed %+v", u[0].Data)
	}
	tr := golden.NewTranscript(evs)
	found := false
	for i := range tr.Items {
		for _, p := range tr.Items[i].Content {
			if p.Type != universal.PartToolCall || p.CallID != "call_Dl92GLcIS365rsUHONXFTmEG" {
				continue
			}
			found = true
			if p.ToolKind != universal.ToolExecute || p.ToolInput == nil || p.ToolInput.Command != "sleep 5" {
				t.Errorf("the model's shell call: kind %q, input %+v; want execute, command sleep 5", p.ToolKind, p.ToolInput)
			}
		}
	}
	if !found {
		t.Error("the model's shell call is missing")
	}
}
