package reduce_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// TestUsageRuns: in a log of several runs (one native session after
// another, as hosts append runs' output to one file), each run's session
// reports are its own running total: a later report of the same run
// replaces the one before (a resumed session keeps its id and carries its
// total on), a report of the next run adds to the last total of the runs
// before. The next run's other events may come before its first report.
// A state restored anywhere goes on to the same totals.
func TestUsageRuns(t *testing.T) {
	session := func(in int64, cost float64) *universal.UsageUpdated {
		return &universal.UsageUpdated{Scope: universal.ScopeSession, CostUSD: &cost, Usage: universal.Usage{InputTokens: &in}}
	}
	l := newLog().begin()
	l.st.SetNativeSessionID("A")
	l.turn("t1").add(universal.TypeUsageUpdated, session(100, 1)).add(universal.TypeUsageUpdated, session(150, 1.5))
	l.st.SetNativeSessionID("B")
	l.turn("t2").add(universal.TypeUsageUpdated, session(40, 0.5)).add(universal.TypeUsageUpdated, session(60, 0.75))
	l.st.SetNativeSessionID("C")
	l.turn("t3") // a run cut before its first report
	want := reduce.Tokens{InputTokens: ptr(int64(210)), CostUSD: ptr(2.25)}
	s := replay(t, l.evs)
	if diff := cmp.Diff(want, s.Usage.Total); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
	if s.Usage.Source != reduce.UsageSession {
		t.Errorf("source %q", s.Usage.Source)
	}
	for k := range l.evs {
		r := restore(t, replay(t, l.evs[:k]))
		for i := range l.evs[k:] {
			if _, err := r.Apply(&l.evs[k+i]); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff(want, r.Usage.Total); diff != "" {
			t.Errorf("restored after %d events (-want +got):\n%s", k, diff)
		}
	}
}
