package acp

import (
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// TestDisjointCounts: the protocol's Usage counts each token type apart
// (totalTokens is their sum), universal.Usage counts the cache in the
// input and the reasoning in the output; the total tells which way an
// agent counts. Figures of real agents: OpenCode 1.18.16's agent (cache
// reads apart), OpenCode 1.18.33's (reasoning apart), Devin's (the cache in
// the input: total = input + output).
func TestDisjointCounts(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		name                      string
		in, out, read, think, tot *int64
		wantIn, wantOut           int64
	}{
		{"cache reads apart (OpenCode 1.18.16)", n(326), n(31), n(71424), nil, n(71781), 71750, 31},
		{"reasoning apart (OpenCode 1.18.33)", n(1200), n(15), nil, n(12), n(1227), 1200, 27},
		{"both apart", n(1200), n(40), n(50), n(12), n(1302), 1250, 52},
		{"the cache in the input (Devin)", n(66446), n(45), n(66124), nil, n(66491), 66446, 45},
		{"no total, a cache read within the input", n(500), n(10), n(400), nil, nil, 500, 10},
		{"no total, a cache read over the input", n(300), n(10), n(400), nil, nil, 700, 10},
		{"a total that adds up nothing known", n(100), n(10), n(5), n(2), n(999), 100, 10},
	} {
		u := universal.Usage{InputTokens: c.in, OutputTokens: c.out, CachedInputTokens: c.read, ReasoningTokens: c.think, TotalTokens: c.tot}
		disjointCounts(&u)
		if *u.InputTokens != c.wantIn || *u.OutputTokens != c.wantOut {
			t.Errorf("%s: input %d, output %d; want %d, %d", c.name, *u.InputTokens, *u.OutputTokens, c.wantIn, c.wantOut)
		}
	}
}
