package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSameShapeAsNative: a scenario recorded through Claude Code's ACP
// adapter reduces to the same shape (conformance.Project: turns, user
// and assistant messages, tool calls by kind with their outcome,
// permissions, errors, status transitions, the end) as the same scenario
// recorded from Claude Code's own stream-json output. Permission lines
// are left out: the native runs allow edits up front (--permission-mode
// acceptEdits), the adapter asks the host, and the Conventions let
// permission events differ where one record shows an approval the other
// does not.
func TestSameShapeAsNative(t *testing.T) {
	acpDir := filepath.Join(testdata, "claude-agent-acp", "0.23.1")
	nativeDir := filepath.Join("..", "testdata", "claude", "2.1.330")
	for _, s := range []string{"s01-text", "s02-tool", "s03-multitool", "s04-edit", "s06-multiturn", "s08-bigoutput", "s09-unicode", "s10-subagent"} {
		t.Run(s, func(t *testing.T) {
			native := filepath.Join(nativeDir, s+".jsonl")
			if _, err := os.Stat(native); err != nil {
				t.Skip("no native recording")
			}
			nc := golden.Case{Input: native, Framing: universal.FrameLines, New: golden.Maker(claude.New, claude.FormatStreamJSON),
				Reports: golden.PromptReports(t, filepath.Join(nativeDir, s+".meta.json"))}
			ac := golden.Case{Input: filepath.Join(acpDir, s+".exchange.jsonl"), Framing: universal.FrameExchange, New: newTranslator("exchange")}
			want := project(t, nc)
			got := project(t, ac)
			if got != want {
				t.Errorf("through ACP:\n%s\nnative:\n%s", got, want)
			}
		})
	}
}

func project(t *testing.T, c golden.Case) string {
	t.Helper()
	evs, err := c.Translate(read(t, c.Input), golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := conformance.Project(evs)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(p, "\n") {
		if !strings.HasPrefix(l, "permission ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
