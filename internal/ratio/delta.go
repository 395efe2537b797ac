//go:build unix

package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// deltaCase is a recorded message that translates, in the state its
// input leaves the translator in, to exactly one item.delta, again and
// again: a plain text delta of that agent and format.
type deltaCase struct {
	name   string
	in     *input
	at     int // the index of the delta message in in.msgs
	window int // deltas per timed window
	total  int // deltas in the linearity run
}

// deltaFigures is what one case measures.
type deltaFigures struct {
	first, last time.Duration // CPU time of the first and of the last window
	allocs      float64       // allocations per delta over the whole run
	reused      float64       // the same with Options.ReuseEvents
	valid       time.Duration // gjson.ValidBytes of the delta's message
	perDelta    time.Duration // the first window's time per delta
}

// findDeltas picks, for every agent and format, the first recorded
// message that is a repeatable plain text delta (inputs in path order).
// A format without one (a stored session file has no deltas) is left out.
func findDeltas(inputs []*input, order []string) []deltaCase {
	byGroup := map[string][]*input{}
	for _, in := range inputs {
		k := in.agent.Name + " " + in.format.Name
		byGroup[k] = append(byGroup[k], in)
	}
	var out []deltaCase
	for _, k := range order {
		ins := slices.Clone(byGroup[k])
		slices.SortFunc(ins, func(a, b *input) int { return strings.Compare(a.path, b.path) })
	found:
		for _, in := range ins {
			tries := 0
			for _, at := range deltaCandidates(in) {
				if tries++; tries > 4 {
					break
				}
				if repeats(in, at) {
					out = append(out, deltaCase{name: k, in: in, at: at, window: 10000, total: 200000})
					break found
				}
			}
		}
	}
	return out
}

// primed returns a translator that has translated in.msgs up to and
// including at.
func primed(in *input, at int, reuse bool) universal.Translator {
	tr, err := in.agent.New(in.format.Name, universal.Options{SessionID: "ratio", ReuseEvents: reuse})
	if err != nil {
		panic(err)
	}
	var evs []universal.Event
	for i := 0; i <= at; i++ {
		evs = tr.Translate(evs[:0], in.message(i, in.msgs[i]))
	}
	return tr
}

// deltaCandidates returns the messages of an input that translate to
// exactly one item.delta, in order.
func deltaCandidates(in *input) []int {
	tr, err := in.agent.New(in.format.Name, universal.Options{SessionID: "ratio"})
	if err != nil {
		panic(err)
	}
	var out []int
	var evs []universal.Event
	for i, m := range in.msgs {
		evs = tr.Translate(evs[:0], in.message(i, m))
		if oneDelta(evs) {
			out = append(out, i)
		}
	}
	return out
}

func oneDelta(evs []universal.Event) bool {
	if len(evs) != 1 || evs[0].Type != universal.TypeItemDelta {
		return false
	}
	d, ok := evs[0].Data.(*universal.ItemDelta)
	return ok && d.Delta != ""
}

// repeats reports whether the message at index at, sent again and again,
// keeps translating to one item.delta of the same part: a streamed delta.
// (A stored record that adds a part each time, as a Codex rollout's
// reasoning record does, measures the growth of the item's parts.)
func repeats(in *input, at int) bool {
	tr := primed(in, at, false)
	var evs []universal.Event
	part := -1
	for i := range 3 {
		m := in.message(at, in.msgs[at])
		m.Line = int64(at + 2 + i)
		evs = tr.Translate(evs[:0], m)
		if !oneDelta(evs) {
			return false
		}
		p := evs[0].Data.(*universal.ItemDelta).PartIndex
		if i > 0 && p != part {
			return false
		}
		part = p
	}
	return true
}

// measureDelta sends the case's delta total times to a primed translator
// and times the first and the last window of deltas. A translator whose
// per-delta work grows with the text so far shows a last window slower
// than the first. The allocations are counted again, untimed, with
// events reused between calls.
func measureDelta(c deltaCase) deltaFigures {
	f := timeDelta(c, false)
	f.reused = timeDelta(c, true).allocs
	data := c.in.msgs[c.at]
	f.valid = measure(func() {
		for range c.window {
			gjson.ValidBytes(data)
		}
	}) / time.Duration(c.window)
	return f
}

func timeDelta(c deltaCase, reuse bool) deltaFigures {
	tr := primed(c.in, c.at, reuse)
	msg := c.in.message(c.at, c.in.msgs[c.at])
	evs := make([]universal.Event, 0, 4)
	run := func(n int) {
		for range n {
			msg.Line++
			evs = tr.Translate(evs[:0], msg)
		}
	}
	run(c.window / 10) // warm up: buffers and arenas at their working size
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	var f deltaFigures
	f.first = measure(func() { run(c.window) })
	run(c.total - 2*c.window)
	f.last = measure(func() { run(c.window) })
	runtime.ReadMemStats(&m1)
	f.allocs = float64(m1.Mallocs-m0.Mallocs) / float64(c.total)
	f.perDelta = f.first / time.Duration(c.window)
	return f
}

// deltas prints, per agent and format, the CPU time and allocations of a
// plain text delta through a translator, and the linearity of a long
// streamed message: the time of the last window of deltas over the first.
func deltas(inputs []*input, order []string, rounds int, markdown bool) {
	cases := findDeltas(inputs, order)
	best := make([]deltaFigures, len(cases))
	for r := 0; r < rounds; r++ {
		for i, c := range cases {
			f := measureDelta(c)
			if r == 0 || f.perDelta < best[i].perDelta {
				best[i].perDelta, best[i].first, best[i].allocs, best[i].reused = f.perDelta, f.first, f.allocs, f.reused
			}
			if r == 0 || f.valid < best[i].valid {
				best[i].valid = f.valid
			}
			if r == 0 || f.last < best[i].last {
				best[i].last = f.last
			}
		}
	}
	if markdown {
		fmt.Println()
		fmt.Println("| text delta | bytes | µs per delta | µs of gjson.Valid on it | allocations per delta | the same, events reused | last ÷ first of 200k deltas |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	} else {
		fmt.Printf("\n%-22s %6s %9s %9s %14s %14s %12s  %s\n", "text delta", "bytes", "µs/delta", "µs/valid", "allocs/delta", "reused", "last/first", "message")
	}
	for i, c := range cases {
		f := best[i]
		lin := ratio(f.last, f.first)
		if markdown {
			fmt.Printf("| %s | %d | %.2f | %.2f | %.3f | %.5f | %.2f |\n", c.name, len(c.in.msgs[c.at]), f.perDelta.Seconds()*1e6, f.valid.Seconds()*1e6, f.allocs, f.reused, lin)
		} else {
			fmt.Printf("%-22s %6d %9.2f %9.2f %14.3f %14.5f %12.2f  %s:%d\n", c.name, len(c.in.msgs[c.at]), f.perDelta.Seconds()*1e6, f.valid.Seconds()*1e6, f.allocs, f.reused, lin, c.in.path, c.at+1)
		}
	}
}
