package codex_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestExecThreadsJoined: codex exec --json output of runs on two threads
// appended to one log (as a public project's logs hold up to 28 runs).
// From the second thread.started on, the events carry that thread as
// their native session, its turns are named after it, and its usage is
// its own: the first thread's totals are no base for the second's turn
// shares.
func TestExecThreadsJoined(t *testing.T) {
	a := golden.HostileRead(t, "../testdata/codex/0.169.0/s02-tool.exec.jsonl")
	b := golden.HostileRead(t, "../testdata/codex/0.169.0/s06-multiturn.exec.jsonl")
	lines := func(bs ...[]byte) []string {
		var out []string
		for _, b := range bs {
			out = append(out, strings.Split(strings.TrimSpace(string(b)), "\n")...)
		}
		return out
	}
	evsA := run(t, codex.FormatExec, nil, lines(a))
	evsB := run(t, codex.FormatExec, nil, lines(b))
	evs := run(t, codex.FormatExec, nil, lines(a, b))
	if un := golden.OfType(evs, universal.TypeUnparsed); len(un) > 0 {
		t.Fatalf("%d agent.unparsed", len(un))
	}
	idA, idB := evsA[0].NativeSessionID, evsB[0].NativeSessionID
	if idA == idB || idA == "" || idB == "" {
		t.Fatalf("thread ids %q and %q", idA, idB)
	}
	firstB := len(evsA) - 1 // evsA's last is session.ended
	for i, e := range evs {
		want := idA
		if i >= firstB {
			want = idB
		}
		if e.NativeSessionID != want {
			t.Errorf("event %d (%s): native session %q, want %q", i, e.Type, e.NativeSessionID, want)
		}
	}
	for _, e := range golden.OfType(evs[firstB:], universal.TypeTurnStarted) {
		if id := e.Data.(*universal.TurnStarted).TurnID; !strings.HasPrefix(id, idB+":") {
			t.Errorf("turn %q of the second thread, want it named after %s", id, idB)
		}
	}
	usage := func(evs []universal.Event) string {
		var b bytes.Buffer
		for _, e := range golden.OfType(evs, universal.TypeUsageUpdated) {
			d := e.Data.(*universal.UsageUpdated)
			u, err := json.Marshal(d.Usage)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %s\n", d.Scope, u)
		}
		return b.String()
	}
	if got, want := usage(evs[firstB:]), usage(evsB); got != want {
		t.Errorf("usage of the second thread:\n%s\nwant as alone:\n%s", got, want)
	}
}
