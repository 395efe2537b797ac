//go:build long && unix

package linear

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/universal"
)

// The superlinear paths below scan without allocating, so the allocation
// checks cannot see them. These tests time them instead: the CPU time of
// 4n repeats against n, the best of 3 rounds, must stay under 10 times
// (linear work is about 4; the scans they guard against were 16 to 30).
// A timing is no proof on a loaded machine, so they run only with the
// build tag long, with a wide margin.

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuGrowth returns the best CPU time of run(n) and of run(4n) over 3
// rounds, and their ratio.
func cpuGrowth(n int, prepare func(k int) func()) (t1, t4 time.Duration, ratio float64) {
	best := func(k int) time.Duration {
		var b time.Duration
		for r := range 3 {
			run := prepare(k)
			runtime.GC()
			start := cpuTime()
			run()
			if d := cpuTime() - start; r == 0 || d < b {
				b = d
			}
		}
		return b
	}
	t1, t4 = best(n), best(4*n)
	return t1, t4, float64(t4) / float64(max(t1, 1))
}

func checkCPU(t *testing.T, name string, n int, prepare func(k int) func()) {
	t.Helper()
	t1, t4, r := cpuGrowth(n, prepare)
	if r > 10 {
		t.Errorf("%s: n=%d %v, 4n %v: ×%.1f, want about 4", name, n, t1, t4, r)
	} else {
		t.Logf("%s: n=%d %v, 4n %v: ×%.1f", name, n, t1, t4, r)
	}
}

// TestClaudeManyBlocksCPU: an assistant message of many content blocks
// without stream events (one line per block, as stream-json without
// partial messages writes them). matchSlot looked at every slot of the
// message for each block.
func TestClaudeManyBlocksCPU(t *testing.T) {
	data, err := os.ReadFile("../../testdata/crosscheck/claude/2.0.76/s01-text-nopartial.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	const at = 2 // an assistant line with a text block
	checkCPU(t, "claude blocks of one message", 3000, func(k int) func() {
		tr, err := claude.New(claude.FormatStreamJSON, universal.Options{SessionID: "linear"})
		if err != nil {
			t.Fatal(err)
		}
		var evs []universal.Event
		for i, l := range lines[:at] {
			evs = tr.Translate(evs[:0], universal.Message{Data: l, Line: int64(i + 1)})
		}
		return func() {
			for i := range k {
				evs = tr.Translate(evs[:0], universal.Message{Data: lines[at], Line: int64(at + 1 + i)})
			}
		}
	})
}

// TestNotifyTurnsCPU: many turns without an assistant message. finalText
// looked at every item of the session at each turn's end.
func TestNotifyTurnsCPU(t *testing.T) {
	checkCPU(t, "notify turns without a message", 3000, func(k int) func() {
		evs := turnsLog(k)
		return func() {
			f := notify.NewFeed(notify.Options{})
			for i := range evs {
				if err := f.Apply(&evs[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// turnsLog is a session of k turns of one user message each.
func turnsLog(k int) []universal.Event {
	var evs []universal.Event
	add := func(typ universal.Type, d universal.Data) {
		evs = append(evs, universal.Event{Sequence: int64(len(evs) + 1), SessionID: "s", Type: typ, Data: d, Source: universal.SourceAgent})
	}
	add(universal.TypeSessionStarted, &universal.SessionStarted{})
	for i := range k {
		tid := fmt.Sprint("t", i)
		add(universal.TypeTurnStarted, &universal.TurnStarted{TurnID: tid})
		it := universal.Item{ItemID: fmt.Sprint("u", i), Kind: universal.KindMessage, Role: universal.RoleUser,
			Content: []universal.Part{{Type: universal.PartText, Text: "hi"}}}
		add(universal.TypeItemStarted, &universal.ItemSnapshot{Item: it})
		add(universal.TypeItemCompleted, &universal.ItemSnapshot{Item: it})
		add(universal.TypeTurnEnded, &universal.TurnEnded{TurnID: tid, Status: universal.TurnCompleted})
	}
	return evs
}
