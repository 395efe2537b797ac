package anthropic

import (
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
	// The counts, their input total and their total share one allocation.
	var n [7]int64
	var got [5]bool
	some := false
	for i, p := range [5]string{input, cacheRead, cacheWrite, output, reasoning} {
		if r := u.Get(p); r.Type == gjson.Number && r.Num >= 0 {
			n[i], got[i], some = r.Int(), true, true
		}
	}
	if !some {
		return universal.Usage{}, false
	}
	c := new([7]int64)
	*c = n
	at := func(i int) *int64 {
		if !got[i] {
			return nil
		}
		return &c[i]
	}
	us := universal.Usage{CachedInputTokens: at(1), CacheWriteTokens: at(2), OutputTokens: at(3), ReasoningTokens: at(4)}
	if got[0] || got[1] || got[2] {
		c[5] = c[0] + c[1] + c[2]
		us.InputTokens = &c[5]
	}
	if us.InputTokens != nil && us.OutputTokens != nil {
		c[6] = c[5] + c[3]
		us.TotalTokens = &c[6]
	}
	return us, true
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
// the process); the caller labels them.
func ModelUsage(m gjson.Result) ModelTotals {
	var in, read, write, out, reasoning *int64
	var t ModelTotals
	m.ForEach(func(_, v gjson.Result) bool {
		if !v.IsObject() {
			return true
		}
		t.Models++
		in = add(in, num(v.Get("inputTokens")))
		read = add(read, num(v.Get("cacheReadInputTokens")))
		write = add(write, num(v.Get("cacheCreationInputTokens")))
		out = add(out, num(v.Get("outputTokens")))
		reasoning = add(reasoning, num(v.Get("thinkingTokens")))
		if c := v.Get("costUSD"); c.Type == gjson.Number {
			if t.CostUSD == nil {
				t.CostUSD = new(float64)
			}
			*t.CostUSD += c.Num
		}
		if w := num(v.Get("contextWindow")); w != nil && (t.ContextWindow == nil || *w > *t.ContextWindow) {
			t.ContextWindow = w
		}
		return true
	})
	t.Usage, _ = build(in, read, write, out, reasoning)
	return t
}

func build(in, read, write, out, reasoning *int64) (universal.Usage, bool) {
	var u universal.Usage
	if in == nil && read == nil && write == nil && out == nil && reasoning == nil {
		return u, false
	}
	if in != nil || read != nil || write != nil {
		u.InputTokens = add(add(add(nil, in), read), write)
	}
	u.CachedInputTokens = read
	u.CacheWriteTokens = write
	u.OutputTokens = out
	u.ReasoningTokens = reasoning
	if u.InputTokens != nil && u.OutputTokens != nil {
		u.TotalTokens = add(add(nil, u.InputTokens), u.OutputTokens)
	}
	return u, true
}

// num returns a non-negative integer count, nil when r is not a number.
func num(r gjson.Result) *int64 {
	if r.Type != gjson.Number || r.Num < 0 {
		return nil
	}
	n := r.Int()
	return &n
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
