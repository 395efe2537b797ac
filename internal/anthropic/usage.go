package anthropic

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Usage maps an Anthropic API usage object to universal usage:
//
//	input_tokens                 ─┐
//	cache_read_input_tokens       ├─ InputTokens (their sum; all input)
//	cache_creation_input_tokens  ─┘
//	cache_read_input_tokens      →  CachedInputTokens (a subset of input)
//	cache_creation_input_tokens  →  CacheWriteTokens (a subset of input)
//	output_tokens                →  OutputTokens
//	output_tokens_details.thinking_tokens → ReasoningTokens (a subset of output)
//	input + output               →  TotalTokens
//
// A count the object does not carry (absent or null) stays nil: "not
// reported" is never written as 0. ok is false when the object carries no
// count at all.
//
// u is a gjson.Result, or a jsonscan.Value of a message already indexed,
// which reads each count from the index instead of scanning the text.
func Usage[G Getter](u G) (usage universal.Usage, ok bool) {
	return Counts(u, "input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens",
		"output_tokens", "output_tokens_details.thinking_tokens")
}

// A Getter reads a value at a gjson path.
type Getter interface {
	Get(path string) gjson.Result
}

// Counts is [Usage] for a usage object that names its counts otherwise
// (Amp's threads: inputTokens, cacheReadInputTokens, …): the paths of the
// input, cache read, cache write, output and reasoning counts.
func Counts[G Getter](u G, input, cacheRead, cacheWrite, output, reasoning string) (universal.Usage, bool) {
	t, ok := readCounts(u, input, cacheRead, cacheWrite, output, reasoning)
	if !ok {
		return universal.Usage{}, false
	}
	// The counts, their input total and their total share one allocation.
	c := new(Tokens)
	*c = t
	return c.Usage(), true
}

// Tokens are the counts of a usage object by value, as [ReadUsage] reads
// them: reading them allocates nothing, and Usage gives them out in
// memory the caller chose (a usage that only passes through, copied into
// an event's data, needs none of its own).
type Tokens struct {
	n   [7]int64 // input, cache read, cache write, output, reasoning; input total; total
	got [5]bool
}

// ReadUsage is [Usage] by value.
func ReadUsage[G Getter](u G) (Tokens, bool) {
	return readCounts(u, "input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens",
		"output_tokens", "output_tokens_details.thinking_tokens")
}

// Usage returns the counts as [Usage] returns them, pointing into t.
func (t *Tokens) Usage() universal.Usage {
	at := func(i int) *int64 {
		if !t.got[i] {
			return nil
		}
		return &t.n[i]
	}
	us := universal.Usage{CachedInputTokens: at(1), CacheWriteTokens: at(2), OutputTokens: at(3), ReasoningTokens: at(4)}
	if t.got[0] || t.got[1] || t.got[2] {
		us.InputTokens = &t.n[5]
	}
	if us.InputTokens != nil && us.OutputTokens != nil {
		us.TotalTokens = &t.n[6]
	}
	return us
}

// readCounts reads the counts at the paths given (see Counts).
func readCounts[G Getter](u G, input, cacheRead, cacheWrite, output, reasoning string) (Tokens, bool) {
	var n [7]int64
	var got [5]bool
	some := false
	paths := [5]string{input, cacheRead, cacheWrite, output, reasoning}
	if v, ok := any(u).(jsonscan.Value); ok {
		// One walk of the object's members finds every count; the paths
		// are split once, not for every member.
		var heads, rests [5]string
		for i, p := range paths {
			heads[i], rests[i], _ = strings.Cut(p, ".")
		}
		var vals [5]jsonscan.Value
		v.Members(func(k string, x jsonscan.Value) bool {
			for i, head := range heads {
				if head != k {
					continue
				}
				y := x
				if rests[i] != "" {
					y = x.Sub(rests[i])
				}
				jsonscan.KeepFirst(&vals[i], y)
			}
			return true
		})
		for i, x := range vals {
			if c, ok := count(x); ok {
				n[i], got[i], some = c, true, true
			}
		}
	} else {
		for i, p := range paths {
			if r := u.Get(p); r.Type == gjson.Number && r.Num >= 0 {
				n[i], got[i], some = r.Int(), true, true
			}
		}
	}
	if !some {
		return Tokens{}, false
	}
	n[5] = n[0] + n[1] + n[2]
	n[6] = n[5] + n[3]
	return Tokens{n: n, got: got}, true
}

// ModelTotals is the sum of a per-model usage map.
type ModelTotals struct {
	Usage universal.Usage
	// CostUSD is the sum of costUSD; nil when no model reports one.
	CostUSD *float64
	// ContextWindow is the largest contextWindow any model reports.
	ContextWindow *int64
	// Models is the number of models in the map.
	Models int
}

// ModelUsage sums a Claude Code style per-model usage map
// ({"<model>": {"inputTokens", "outputTokens", "cacheReadInputTokens",
// "cacheCreationInputTokens", "thinkingTokens", "costUSD",
// "contextWindow"}}) with the same meaning as [Usage]. The numbers are
// whatever the map covers (Claude Code's modelUsage is a running total for
// the process); the caller labels them. The sums take one allocation (see
// [ReadModelUsage] for none).
func ModelUsage(m jsonscan.Value) ModelTotals {
	s := new(ModelSums)
	*s = ReadModelUsage(m)
	return s.Totals()
}

// ModelSums are the sums of a per-model usage map by value, as
// [ReadModelUsage] reads them: reading them allocates nothing, and Totals
// gives them out in memory the caller chose (sums that are copied on, as
// a result's running totals are, need none of their own).
type ModelSums struct {
	n      [nModelCounts + 2]int64 // the counts; input total; total
	has    [nModelCounts]bool
	cost   float64
	paid   bool
	models int
}

// The counts of a model's entry, in ModelSums.n.
const (
	modelIn = iota
	modelRead
	modelWrite
	modelOut
	modelReasoning
	modelWindow
	nModelCounts
)

// ReadModelUsage is [ModelUsage] by value. Each model's counts are read
// in one walk of its members (the first of duplicates counts, as for a
// lookup).
func ReadModelUsage(m jsonscan.Value) ModelSums {
	var s ModelSums
	m.Each(func(_ gjson.Result, model jsonscan.Value) bool {
		if !model.IsObject() {
			return true
		}
		s.models++
		var f [nModelCounts]jsonscan.Value
		var c jsonscan.Value
		model.Members(func(k string, v jsonscan.Value) bool {
			var p *jsonscan.Value
			switch k {
			case "inputTokens":
				p = &f[modelIn]
			case "cacheReadInputTokens":
				p = &f[modelRead]
			case "cacheCreationInputTokens":
				p = &f[modelWrite]
			case "outputTokens":
				p = &f[modelOut]
			case "thinkingTokens":
				p = &f[modelReasoning]
			case "contextWindow":
				p = &f[modelWindow]
			case "costUSD":
				p = &c
			default:
				return true
			}
			jsonscan.KeepFirst(p, v)
			return true
		})
		for i := range f {
			n, ok := count(f[i])
			if !ok {
				continue
			}
			switch {
			case i != modelWindow:
				s.n[i] += n
			case !s.has[modelWindow] || n > s.n[modelWindow]:
				s.n[modelWindow] = n // the largest window
			}
			s.has[i] = true
		}
		if c.Type() == gjson.Number {
			s.cost += c.Result().Num
			s.paid = true
		}
		return true
	})
	// The input is every input count reported, the total input and
	// output when both are, as Usage builds them.
	s.n[nModelCounts] = s.n[modelIn] + s.n[modelRead] + s.n[modelWrite]
	s.n[nModelCounts+1] = s.n[nModelCounts] + s.n[modelOut]
	return s
}

// Totals returns the sums as [ModelUsage] returns them, pointing into s.
func (s *ModelSums) Totals() ModelTotals {
	t := ModelTotals{Models: s.models}
	if s.paid {
		t.CostUSD = &s.cost
	}
	ptr := func(i int) *int64 {
		if !s.has[i] {
			return nil
		}
		return &s.n[i]
	}
	t.ContextWindow = ptr(modelWindow)
	// Set in t itself, not through a pointer to its Usage: a store
	// through a pointer would make s the heap's.
	if s.has[modelIn] || s.has[modelRead] || s.has[modelWrite] {
		t.Usage.InputTokens = &s.n[nModelCounts]
	}
	t.Usage.CachedInputTokens, t.Usage.CacheWriteTokens = ptr(modelRead), ptr(modelWrite)
	t.Usage.OutputTokens, t.Usage.ReasoningTokens = ptr(modelOut), ptr(modelReasoning)
	if t.Usage.InputTokens != nil && t.Usage.OutputTokens != nil {
		t.Usage.TotalTokens = &s.n[nModelCounts+1]
	}
	return t
}

// count reads a token count as Usage does: v's Int() when v is a number
// not below zero, ok false otherwise.
func count(v jsonscan.Value) (int64, bool) {
	if v.Type() != gjson.Number {
		return 0, false
	}
	if strings.HasPrefix(v.Raw(), "-") && v.Result().Num < 0 {
		return 0, false
	}
	return v.Int(), true
}

// add returns a+b in new memory, treating nil as "not reported": the sum
// is nil only when both are.
func add(a, b *int64) *int64 {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		n := *b
		return &n
	case b == nil:
		n := *a
		return &n
	}
	n := *a + *b
	return &n
}

// AddUsage returns the field-wise sum of two usages (nil + nil stays nil),
// for numbers that cover disjoint work (two turns, two calls). Never use it
// on running totals.
func AddUsage(a, b universal.Usage) universal.Usage {
	return universal.Usage{
		InputTokens:       add(a.InputTokens, b.InputTokens),
		CachedInputTokens: add(a.CachedInputTokens, b.CachedInputTokens),
		CacheWriteTokens:  add(a.CacheWriteTokens, b.CacheWriteTokens),
		OutputTokens:      add(a.OutputTokens, b.OutputTokens),
		ReasoningTokens:   add(a.ReasoningTokens, b.ReasoningTokens),
		TotalTokens:       add(a.TotalTokens, b.TotalTokens),
	}
}

// MaxUsage returns the field-wise maximum of two usages: for several
// snapshots of the same API call's usage, where a later snapshot may be
// more complete (the last or largest value wins, never the sum).
func MaxUsage(a, b universal.Usage) universal.Usage {
	return universal.Usage{
		InputTokens:       maxp(a.InputTokens, b.InputTokens),
		CachedInputTokens: maxp(a.CachedInputTokens, b.CachedInputTokens),
		CacheWriteTokens:  maxp(a.CacheWriteTokens, b.CacheWriteTokens),
		OutputTokens:      maxp(a.OutputTokens, b.OutputTokens),
		ReasoningTokens:   maxp(a.ReasoningTokens, b.ReasoningTokens),
		TotalTokens:       maxp(a.TotalTokens, b.TotalTokens),
	}
}

func maxp(a, b *int64) *int64 {
	switch {
	case a == nil:
		return b
	case b == nil || *a >= *b:
		return a
	}
	return b
}
