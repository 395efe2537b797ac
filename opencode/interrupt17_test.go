package opencode_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAbortedTurnWaitsForTool: OpenCode 1.18.33 aborted (POST
// /session/{id}/abort) while bash ran reports session.error
// MessageAbortedError and idle before the tool part's last updates (its
// output, then status error "Tool execution aborted"); the turn waits for
// them and ends at the idle that follows (before, it ended at the first
// idle and the tool's updates were agent.unparsed, "updated after its items
// were closed", their error text lost). Without those updates the turn ends
// before the next one starts.
func TestAbortedTurnWaitsForTool(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "crosscheck", "opencode", "1.18.33", "s17-interrupt.sse"))
	if err != nil {
		t.Fatal(err)
	}
	check := func(name, in string, wantOutput string) {
		evs := run(t, opencode.FormatSSE, in)
		for _, typ := range []universal.Type{universal.TypeUnparsed, universal.TypeError} {
			if got := golden.OfType(evs, typ); len(got) > 0 {
				t.Errorf("%s: %s %v, want none", name, typ, got)
			}
		}
		var result *universal.Item
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolResult {
				result = &it
			}
		}
		if result == nil || result.Status != universal.StatusFailed || result.Content[0].Output != wantOutput {
			t.Errorf("%s: result %+v, want failed with %q", name, result, wantOutput)
		}
		ends := golden.OfType(evs, universal.TypeTurnEnded)
		if len(ends) != 2 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted ||
			ends[1].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
			t.Errorf("%s: turn.ended %v, want interrupted, then completed", name, ends)
		}
	}
	check("as recorded", string(data), "Tool execution aborted")

	// The same stream without the tool part's updates after the abort.
	blocks := strings.SplitAfter(string(data), "\n\n")
	abort := -1
	var cut []string
	for i, b := range blocks {
		if strings.Contains(b, `"MessageAbortedError"`) && abort < 0 {
			abort = i
		}
		if abort >= 0 && strings.Contains(b, `"type":"tool"`) {
			continue
		}
		cut = append(cut, b)
	}
	check("no tool update after the abort", strings.Join(cut, ""), "")
}
