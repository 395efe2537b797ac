package anthropic

import (
	"reflect"
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestModelUsageAsGjson: ModelUsage, reading each model in one walk of an
// index, answers what a reading by gjson lookups (refModelUsage, its
// former implementation) answers, for every shape of map, and whether the
// map is indexed or found by gjson.
func TestModelUsageAsGjson(t *testing.T) {
	for _, in := range []string{
		`{"m":{"inputTokens":120,"outputTokens":20,"cacheReadInputTokens":3,"cacheCreationInputTokens":4,"thinkingTokens":5,"costUSD":0.00066,"contextWindow":200000}}`,
		`{"m":{"inputTokens":120}}`,
		`{"m":{"outputTokens":-1,"costUSD":-0,"contextWindow":-5}}`,
		`{"m":{"inputTokens":1e3,"outputTokens":1.5,"contextWindow":"x"}}`,
		`{"m":{"inputTokens":1,"inputTokens":2}}`,
		`{"m":{"inputTokens":-0.5,"outputTokens":-0}}`,
		`{"m":{}}`,
		`{"a":{"inputTokens":1},"b":{"inputTokens":2,"costUSD":1}}`,
		`{"a":{"inputTokens":1,"contextWindow":5,"costUSD":0.5},"b":{"outputTokens":2,"contextWindow":9,"costUSD":-0},"c":{"cacheReadInputTokens":3,"contextWindow":7,"thinkingTokens":4}}`,
		`{"a":{"cacheCreationInputTokens":1,"contextWindow":0},"b":{"contextWindow":-1,"costUSD":"1"},"c":[],"d":{"inputTokens":null}}`,
		`{"a":{"outputTokens":9007199254740993},"b":{"outputTokens":1,"outputTokens":5}}`,
		`{"a":{"costUSD":-0}}`,
		`{"a":1,"b":{"inputTokens":2}}`,
		`{"a":1}`,
		`{}`,
		`[{"inputTokens":1}]`,
		`"x"`,
		`null`,
	} {
		want := refModelUsage(gjson.Parse(in))
		var s jsonscan.Scanner
		if !s.Scan([]byte(`{"modelUsage":` + in + `}`)) {
			t.Fatalf("%s: not JSON", in)
		}
		if got := ModelUsage(s.Root().Sub("modelUsage")); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: indexed: got %+v, want %+v", in, got, want)
		}
		if got := ModelUsage(jsonscan.Wrap(gjson.Parse(in))); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: from gjson: got %+v, want %+v", in, got, want)
		}
	}
}

// refModelUsage is ModelUsage by gjson lookups: a Get per count, an
// allocation per sum.
func refModelUsage(m gjson.Result) ModelTotals {
	var in, read, write, out, reasoning *int64
	var t ModelTotals
	m.ForEach(func(_, v gjson.Result) bool {
		if !v.IsObject() {
			return true
		}
		t.Models++
		in = add(in, refNum(v.Get("inputTokens")))
		read = add(read, refNum(v.Get("cacheReadInputTokens")))
		write = add(write, refNum(v.Get("cacheCreationInputTokens")))
		out = add(out, refNum(v.Get("outputTokens")))
		reasoning = add(reasoning, refNum(v.Get("thinkingTokens")))
		if c := v.Get("costUSD"); c.Type == gjson.Number {
			if t.CostUSD == nil {
				t.CostUSD = new(float64)
			}
			*t.CostUSD += c.Num
		}
		if w := refNum(v.Get("contextWindow")); w != nil && (t.ContextWindow == nil || *w > *t.ContextWindow) {
			t.ContextWindow = w
		}
		return true
	})
	if in == nil && read == nil && write == nil && out == nil && reasoning == nil {
		return t
	}
	u := universal.Usage{CachedInputTokens: read, CacheWriteTokens: write, OutputTokens: out, ReasoningTokens: reasoning}
	if in != nil || read != nil || write != nil {
		u.InputTokens = add(add(add(nil, in), read), write)
	}
	if u.InputTokens != nil && u.OutputTokens != nil {
		u.TotalTokens = add(add(nil, u.InputTokens), u.OutputTokens)
	}
	t.Usage = u
	return t
}

func refNum(r gjson.Result) *int64 {
	if r.Type != gjson.Number || r.Num < 0 {
		return nil
	}
	n := r.Int()
	return &n
}

// TestReadModelUsage: the sums read by value give what ModelUsage gives,
// and reading them allocates nothing when they stay the caller's (a
// result's running totals, copied on by the translator).
func TestReadModelUsage(t *testing.T) {
	in := `{"a":{"inputTokens":1,"outputTokens":2,"cacheReadInputTokens":3,"cacheCreationInputTokens":4,"thinkingTokens":5,"costUSD":0.5,"contextWindow":9},"b":{"inputTokens":7,"costUSD":0.25}}`
	var s jsonscan.Scanner
	if !s.Scan([]byte(in)) {
		t.Fatal("not JSON")
	}
	m := s.Root()
	sums := ReadModelUsage(m)
	if got, want := sums.Totals(), refModelUsage(gjson.Parse(in)); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	var total int64
	allocs := testing.AllocsPerRun(100, func() {
		sums := ReadModelUsage(m)
		mt := sums.Totals()
		total += *mt.Usage.TotalTokens
	})
	if allocs != 0 {
		t.Errorf("%.0f allocations, want 0", allocs)
	}
}
