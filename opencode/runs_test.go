package opencode_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// itemText is what an item.completed says a person reads: its kind, role
// and the text, arguments and output of its parts.
func itemText(e *universal.Event) string {
	it := &e.Data.(*universal.ItemSnapshot).Item
	var b strings.Builder
	b.WriteString(string(it.Kind) + "/" + string(it.Role))
	for _, p := range it.Content {
		b.WriteString("|" + p.Text + p.Arguments + p.Output)
	}
	return b.String()
}

// TestRunsJoined: opencode run prints only its own session's lines, so
// lines of a session not seen yet are the next run's output, appended to
// the same log (a real log of three runs of three sessions lost most of
// its content as agent.unparsed). The next run's items, turns and usage
// come through as they do alone, under the new native session id; a line
// of a run whose output ended (runs interleaved) is reported.
func TestRunsJoined(t *testing.T) {
	a := golden.HostileRead(t, "../testdata/opencode/1.18.33/s02-tool.run.jsonl")
	b := golden.HostileRead(t, "../testdata/opencode/1.18.33/s10-subagent.run.jsonl")
	evsA, evsB := run(t, opencode.FormatRunJSON, string(a)), run(t, opencode.FormatRunJSON, string(b))
	evs := run(t, opencode.FormatRunJSON, string(a)+string(b))
	noUnparsed(t, evs)
	for _, typ := range []universal.Type{universal.TypeTurnStarted, universal.TypeTurnEnded, universal.TypeItemCompleted, universal.TypeItemDelta} {
		if n, want := len(golden.OfType(evs, typ)), len(golden.OfType(evsA, typ))+len(golden.OfType(evsB, typ)); n != want {
			t.Errorf("%d %s events, want %d (the two runs' alone)", n, typ, want)
		}
	}
	var got, want []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		got = append(got, itemText(&e))
	}
	for _, e := range append(golden.OfType(evsA, universal.TypeItemCompleted), golden.OfType(evsB, universal.TypeItemCompleted)...) {
		want = append(want, itemText(&e))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items\n%s\nwant those of the runs alone\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Each run's events carry its own session id: B's from its first
	// item on.
	idA, idB := evsA[0].NativeSessionID, evsB[0].NativeSessionID
	if idA == idB || idA == "" {
		t.Fatalf("session ids %q and %q", idA, idB)
	}
	firstB := len(evsA) - 1 // evsA's last is session.ended
	for i, e := range evs {
		if want := idA; i >= firstB && e.Type != universal.TypeTurnEnded {
			want = idB
			if e.NativeSessionID != want {
				t.Errorf("event %d (%s): native session %q, want %q", i, e.Type, e.NativeSessionID, want)
			}
		} else if i < firstB && e.NativeSessionID != want {
			t.Errorf("event %d (%s): native session %q, want %q", i, e.Type, e.NativeSessionID, want)
		}
	}
	golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "runs joined", Format: opencode.FormatRunJSON,
		Framing: framing(opencode.FormatRunJSON), New: newFor(opencode.FormatRunJSON), Data: append(bytes.Clone(a), b...)})

	// A run cut after a step that called a tool: its turn was
	// interrupted. One whose last step printed no finish (OpenCode 1.15
	// prints none for a run's last step): completed.
	lines := bytes.SplitAfter(a, []byte("\n"))
	for _, c := range []struct {
		keep int
		want universal.TurnStatus
	}{{5, universal.TurnInterrupted}, {4, universal.TurnCompleted}} {
		cut := bytes.Join(lines[:c.keep], nil)
		evs := run(t, opencode.FormatRunJSON, string(cut)+string(b))
		noUnparsed(t, evs)
		ends := golden.OfType(evs, universal.TypeTurnEnded)
		if len(ends) == 0 {
			t.Fatal("no turn.ended")
		}
		if d := ends[0].Data.(*universal.TurnEnded); d.Status != c.want {
			t.Errorf("the first %d lines, then another run: the first turn ended %s, want %s", c.keep, d.Status, c.want)
		}
	}

	// A host that named the session it follows gets none of another's.
	tr, err := opencode.New(opencode.FormatRunJSON, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	tr.Follow(idA)
	named := runWith(t, tr, opencode.FormatRunJSON, string(a)+string(b))
	if n, want := len(golden.OfType(named, universal.TypeUnparsed)), bytes.Count(b, []byte("\n")); n != want {
		t.Errorf("following %s: %d agent.unparsed, want %d (the other run's lines)", idA, n, want)
	}

	// Runs interleaved: a line of the first run after the second's is
	// not placed in either.
	evs = run(t, opencode.FormatRunJSON, string(a)+string(b)+string(lines[2]))
	un := golden.OfType(evs, universal.TypeUnparsed)
	if len(un) != 1 || !strings.Contains(un[0].Data.(*universal.Unparsed).Error, "another session") {
		t.Errorf("a line of the first run after the second: %d unparsed %v, want one of another session", len(un), un)
	}
}
