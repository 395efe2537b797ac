package agentnorm_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRunsJoinedEveryAgent is the convention of several runs in one log
// (package universal, Conventions), for every agent whose one-run output
// a host may append to a file: two recorded runs of two sessions, whole
// or the first cut in the middle, read as one input. Nothing is
// unparsed, the second run's answers are all there and complete, every
// turn that starts ends, and the second run's events carry its session.
func TestRunsJoinedEveryAgent(t *testing.T) {
	for _, c := range []struct{ agent, format, a, b string }{
		{"claude", "stream-json", "claude/2.1.330/s02-tool.jsonl", "claude/2.1.330/s01-text.jsonl"},
		{"amp", "stream-json", "amp/0.0.1790142911/s02-tool.jsonl", "amp/0.0.1790142911/s01-text.jsonl"},
		{"codex", "exec", "codex/0.169.0/s02-tool.exec.jsonl", "codex/0.169.0/s01-text.exec.jsonl"},
		{"opencode", "run-json", "opencode/1.18.33/s02-tool.run.jsonl", "opencode/1.18.33/s01-text.run.jsonl"},
		{"pi", "json", "pi/1.5.2/s02-tool.json.jsonl", "pi/1.5.2/s01-text.json.jsonl"},
	} {
		t.Run(c.agent+"/"+c.format, func(t *testing.T) {
			read := func(name string) []byte {
				b, err := os.ReadFile("testdata/" + name)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			a, b := read(c.a), read(c.b)
			translate := func(in []byte) []universal.Event {
				r := translateHostile(t, c.agent, c.format, in, 0)
				if r.openErr != nil || r.readErr != nil {
					t.Fatal(r.openErr, r.readErr)
				}
				if err := universal.CheckStream(r.evs); err != nil {
					t.Fatal(err)
				}
				return r.evs
			}
			answers := func(evs []universal.Event) []string {
				var out []string
				for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
					it := e.Data.(*universal.ItemSnapshot).Item
					if it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant && it.Status == universal.StatusCompleted {
						for _, p := range it.Content {
							if p.Type == universal.PartText && p.Text != "" {
								out = append(out, p.Text)
							}
						}
					}
				}
				return out
			}
			evsA, evsB := translate(a), translate(b)
			idB := evsB[len(evsB)-1].NativeSessionID
			if idB == "" || idB == evsA[len(evsA)-1].NativeSessionID {
				t.Fatalf("the runs' sessions: %q and %q", evsA[len(evsA)-1].NativeSessionID, idB)
			}
			lines := bytes.SplitAfter(bytes.TrimSpace(a), []byte("\n"))
			for _, first := range [][]byte{append(bytes.TrimSpace(a), '\n'), bytes.Join(lines[:len(lines)/2], nil)} {
				evs := translate(append(append([]byte(nil), first...), b...))
				if un := golden.OfType(evs, universal.TypeUnparsed); len(un) > 0 {
					t.Errorf("%d agent.unparsed, the first: %s", len(un), un[0].Data.(*universal.Unparsed).Error)
				}
				if n, m := len(golden.OfType(evs, universal.TypeTurnStarted)), len(golden.OfType(evs, universal.TypeTurnEnded)); n != m || n < len(golden.OfType(evsB, universal.TypeTurnStarted))+1 {
					t.Errorf("%d turns started, %d ended", n, m)
				}
				want := answers(evsB)
				got := answers(evs)
				if len(want) == 0 || len(got) < len(want) || strings.Join(got[len(got)-len(want):], "\n") != strings.Join(want, "\n") {
					t.Errorf("answers %q, want %q last", got, want)
				}
				if last := evs[len(evs)-2]; last.NativeSessionID != idB {
					t.Errorf("the second run's last event %s carries session %q, want %q", last.Type, last.NativeSessionID, idB)
				}
			}
			// The usage of the two whole runs is the sum of each run's:
			// a run's session totals do not replace the run's before.
			whole := usageTotal(t, translate(append(append(bytes.TrimSpace(a), '\n'), b...)))
			ua, ub := usageTotal(t, evsA), usageTotal(t, evsB)
			if want := addTokens(ua, ub); !reflect.DeepEqual(whole, want) {
				t.Errorf("usage of the joined runs %s, want the sum %s", show(whole), show(want))
			}
		})
	}
}

// usageTotal is the session's total usage once evs are folded.
func usageTotal(t *testing.T, evs []universal.Event) reduce.Tokens {
	t.Helper()
	var s reduce.Session
	for i := range evs {
		s.Apply(&evs[i])
	}
	return s.Usage.Total
}

// addTokens adds two totals count by count (absent + absent stays absent).
func addTokens(a, b reduce.Tokens) reduce.Tokens {
	add := func(x, y *int64) *int64 {
		if x == nil {
			return y
		}
		if y == nil {
			return x
		}
		v := *x + *y
		return &v
	}
	out := reduce.Tokens{
		InputTokens: add(a.InputTokens, b.InputTokens), CachedInputTokens: add(a.CachedInputTokens, b.CachedInputTokens),
		CacheWriteTokens: add(a.CacheWriteTokens, b.CacheWriteTokens), OutputTokens: add(a.OutputTokens, b.OutputTokens),
		ReasoningTokens: add(a.ReasoningTokens, b.ReasoningTokens), TotalTokens: add(a.TotalTokens, b.TotalTokens),
	}
	switch {
	case a.CostUSD == nil:
		out.CostUSD = b.CostUSD
	case b.CostUSD == nil:
		out.CostUSD = a.CostUSD
	default:
		c := *a.CostUSD + *b.CostUSD
		out.CostUSD = &c
	}
	return out
}

func show(t reduce.Tokens) string {
	b, _ := json.Marshal(t)
	return string(b)
}
