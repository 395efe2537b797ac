package claude_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRunsJoined: stream-json output of runs of two sessions appended to
// one log. Whole runs read as each alone, one after the other, under
// their own session ids. A run cut inside its turn (killed before its
// result) and followed by another session's run: its turn ends
// interrupted, its streaming message failed, before the next run's turn
// starts (the two were one turn, the next run's answer a part of the cut
// run's).
func TestRunsJoined(t *testing.T) {
	read := func(name string) []string {
		b, err := os.ReadFile(recorded + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	a, b := read("s02-tool.jsonl"), read("s01-text.jsonl")
	turns := func(evs []universal.Event) string {
		var out []string
		for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
			out = append(out, string(e.Data.(*universal.TurnEnded).Status))
		}
		return strings.Join(out, " ")
	}
	alone := turns(feed(t, claude.FormatStreamJSON, nil, nil, a...)) + " " + turns(feed(t, claude.FormatStreamJSON, nil, nil, b...))
	evs := feed(t, claude.FormatStreamJSON, nil, nil, append(append([]string(nil), a...), b...)...)
	if got := turns(evs); got != alone {
		t.Errorf("whole runs joined: turns ended %q, want %q", got, alone)
	}
	for cut := 3; cut <= 5; cut++ {
		lines := append(append([]string(nil), a[:cut]...), b...)
		evs := feed(t, claude.FormatStreamJSON, nil, nil, lines...)
		if un := golden.OfType(evs, universal.TypeUnparsed); len(un) > 0 {
			t.Fatalf("cut after %d lines: %d agent.unparsed", cut, len(un))
		}
		if got, want := turns(evs), "interrupted completed"; got != want {
			t.Errorf("cut after %d lines, then another run: turns ended %q, want %q", cut, got, want)
		}
		// The second run's events carry its session; its turn has its
		// answer, complete.
		first := slices.IndexFunc(evs, func(e universal.Event) bool { return e.Type == universal.TypeTurnEnded })
		var answered bool
		for _, e := range evs[first+1:] {
			if e.NativeSessionID != "b1809545-58b8-4697-acd6-400423f8abfc" && e.Type != universal.TypeSessionEnded {
				t.Errorf("cut after %d lines: %s of the second run under session %q", cut, e.Type, e.NativeSessionID)
			}
			if e.Type == universal.TypeItemCompleted {
				it := e.Data.(*universal.ItemSnapshot).Item
				for _, p := range it.Content {
					if strings.Contains(p.Text, "How can I help today?") && it.Status == universal.StatusCompleted {
						answered = true
					}
				}
			}
		}
		if !answered {
			t.Errorf("cut after %d lines: the second run's answer is not a completed item after the first turn", cut)
		}
		golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "cut run joined", Format: claude.FormatStreamJSON,
			Framing: golden.Lines, New: newFor(claude.FormatStreamJSON), Data: []byte(strings.Join(lines, "\n") + "\n")})
	}
}
