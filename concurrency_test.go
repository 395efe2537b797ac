package agentnorm_test

import (
	"bytes"
	"os"
	"sync"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// captures is one real capture per agent and live format, and files at
// rest.
var captures = []struct{ agent, path string }{
	{"claude", "testdata/claude/2.1.330/s10-subagent.jsonl"},
	{"claude", "testdata/claude/2.1.330/s07-permission-stdio-allow.exchange.jsonl"},
	{"codex", "testdata/codex/0.169.0/s03-multitool.exec.jsonl"},
	{"codex", "testdata/codex/0.169.0/s07-permission.appserver.exchange.jsonl"},
	{"opencode", "testdata/opencode/1.18.33/s02-tool.sse"},
	{"opencode", "testdata/opencode/1.18.33/s10-subagent.run.jsonl"},
	{"pi", "testdata/pi/1.5.2/s10-subagent.rpc.exchange.jsonl"},
	{"amp", "testdata/amp/0.0.1790142911/s03-multitool.jsonl"},
	// Files at rest with lines longer than the read buffer: their line
	// buffers go from one reader to the next (universal.LineReader).
	{"claude", "testdata/claude/2.1.330/s01-text.session/-home-dev-project/b1809545-58b8-4697-acd6-400423f8abfc.jsonl"},
	{"codex", "testdata/crosscheck/codex/0.169.0/s08-bigoutput-v2.exec.rollout-4dc1f88e.jsonl"},
}

func translateFile(t testing.TB, agent, path string) ([]universal.Event, []byte) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := agentnorm.Open(f, agent, agentnorm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	var out []byte
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
		out = append(ev.AppendJSON(out), '\n')
	}
	return evs, out
}

// Translators run in many goroutines at once (one translator each) give
// the output of a sequential run, and the events they return may be read
// — encoded, folded — from several goroutines at once (go test -race
// checks that nothing writes them).
func TestConcurrentUse(t *testing.T) {
	want := make([][]byte, len(captures))
	for i, c := range captures {
		_, want[i] = translateFile(t, c.agent, c.path)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, c := range captures {
				evs, got := translateFile(t, c.agent, c.path)
				if !bytes.Equal(got, want[i]) {
					t.Errorf("%s: output differs when translators run concurrently", c.path)
				}
				// The same events, encoded and folded from two
				// goroutines at once.
				var inner sync.WaitGroup
				inner.Add(2)
				go func() {
					defer inner.Done()
					var s reduce.Session
					for j := range evs {
						if _, err := s.Apply(&evs[j]); err != nil {
							t.Error(err)
							return
						}
					}
				}()
				go func() {
					defer inner.Done()
					var b []byte
					for j := range evs {
						b = evs[j].AppendJSON(b[:0])
					}
				}()
				inner.Wait()
			}
		}()
	}
	wg.Wait()
}
