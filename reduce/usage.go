package reduce

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/universal"
)

// Tokens is token usage and cost. A nil count was never reported (it is
// not zero).
type Tokens struct {
	InputTokens       *int64   `json:"input_tokens"`
	CachedInputTokens *int64   `json:"cached_input_tokens"`
	CacheWriteTokens  *int64   `json:"cache_write_tokens"`
	OutputTokens      *int64   `json:"output_tokens"`
	ReasoningTokens   *int64   `json:"reasoning_tokens"`
	TotalTokens       *int64   `json:"total_tokens"`
	CostUSD           *float64 `json:"cost_usd"`
}

// TurnUsage is what was reported for one turn.
type TurnUsage struct {
	// Calls is the sum of the call-scope reports.
	Calls *Tokens `json:"calls"`
	// Turn is the latest turn-scope report: the turn's own total.
	Turn *Tokens `json:"turn"`
}

// Effective is the turn's usage: its turn-scope report when there is one
// (which already covers its calls), else the sum of its call reports; nil
// when nothing was reported.
func (u *TurnUsage) Effective() *Tokens {
	if u.Turn != nil {
		return u.Turn
	}
	return u.Calls
}

// UsageSource says where Usage.Total comes from.
type UsageSource string

// The usage sources.
const (
	UsageNone    UsageSource = ""        // nothing reported
	UsageSession UsageSource = "session" // the latest session-scope report
	UsageTurns   UsageSource = "turns"   // the sum over turns of their Effective usage
)

// Usage is the session's token usage. See the package documentation for
// how reports of the three scopes fold.
type Usage struct {
	// Total is the session's usage so far.
	Total  Tokens      `json:"total"`
	Source UsageSource `json:"source"`
	// Session is the latest session-scope report (a running total).
	Session *Tokens `json:"session"`
	// Other holds call and turn reports that belong to no turn of the
	// session: made before any turn (TurnID ""), or naming a turn the
	// session never started (a sub-agent's turn), in the order first seen.
	Other []OtherUsage `json:"other"`
	// ContextWindow is the latest reported context window.
	ContextWindow *int64 `json:"context_window"`
	// Reports counts the usage.updated events.
	Reports int `json:"reports"`
}

// OtherUsage is the usage reported for a turn id that is not a turn of the
// session.
type OtherUsage struct {
	TurnID string `json:"turn_id"`
	TurnUsage
}

func tokensOf(d *universal.UsageUpdated) Tokens {
	u := &d.Usage
	return Tokens{
		InputTokens:       clonePtr(u.InputTokens),
		CachedInputTokens: clonePtr(u.CachedInputTokens),
		CacheWriteTokens:  clonePtr(u.CacheWriteTokens),
		OutputTokens:      clonePtr(u.OutputTokens),
		ReasoningTokens:   clonePtr(u.ReasoningTokens),
		TotalTokens:       clonePtr(u.TotalTokens),
		CostUSD:           clonePtr(d.CostUSD),
	}
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// sum returns a fresh a+b where a nil count is absent (nil+nil stays nil).
func sum[T int64 | float64](a, b *T) *T {
	switch {
	case a == nil:
		return clonePtr(b)
	case b == nil:
		return clonePtr(a)
	}
	v := *a + *b
	return &v
}

// plus returns a+b; either may be nil.
func plus(a, b *Tokens) *Tokens {
	if a == nil {
		return clonePtr(b)
	}
	if b == nil {
		return clonePtr(a)
	}
	return &Tokens{
		InputTokens:       sum(a.InputTokens, b.InputTokens),
		CachedInputTokens: sum(a.CachedInputTokens, b.CachedInputTokens),
		CacheWriteTokens:  sum(a.CacheWriteTokens, b.CacheWriteTokens),
		OutputTokens:      sum(a.OutputTokens, b.OutputTokens),
		ReasoningTokens:   sum(a.ReasoningTokens, b.ReasoningTokens),
		TotalTokens:       sum(a.TotalTokens, b.TotalTokens),
		CostUSD:           sum(a.CostUSD, b.CostUSD),
	}
}

func (s *Session) usage(ev *universal.Event, d *universal.UsageUpdated, c *Change) {
	u := &s.Usage
	u.Reports++
	c.What |= UsageChanged
	if d.ContextWindow != nil {
		u.ContextWindow = clonePtr(d.ContextWindow)
	}
	t := tokensOf(d)
	switch d.Scope {
	case universal.ScopeSession:
		u.Session = &t
	case universal.ScopeCall:
		tu := s.usageTurn(d, c)
		tu.Calls = plus(tu.Calls, &t)
	case universal.ScopeTurn:
		tu := s.usageTurn(d, c)
		tu.Turn = &t
	default:
		s.anomaly(ev, c, fmt.Sprintf("usage scope %q; ignored", d.Scope))
		return
	}
	s.total()
}

// usageTurn finds the turn a call or turn report belongs to: the turn it
// names, else the innermost open turn, else the latest turn; reports that
// name no turn of the session go to Usage.Other.
func (s *Session) usageTurn(d *universal.UsageUpdated, c *Change) *TurnUsage {
	ix := s.idx
	id := d.TurnID
	switch {
	case id != "":
		if i, ok := ix.turns[id]; ok {
			c.TurnID = id
			return &s.Turns[i].Usage
		}
	case len(ix.open) > 0:
		t := &s.Turns[ix.open[len(ix.open)-1]]
		c.TurnID = t.TurnID
		return &t.Usage
	case len(s.Turns) > 0:
		t := &s.Turns[len(s.Turns)-1]
		c.TurnID = t.TurnID
		return &t.Usage
	}
	c.TurnID = id
	u := &s.Usage
	for i := range u.Other {
		if u.Other[i].TurnID == id {
			return &u.Other[i].TurnUsage
		}
	}
	u.Other = append(u.Other, OtherUsage{TurnID: strings.Clone(id)})
	return &u.Other[len(u.Other)-1].TurnUsage
}

// total recomputes Usage.Total from scratch, so that it depends only on
// the reports and never on the order of additions (a restored snapshot
// gives bit-identical totals). It costs one pass over the turns, without
// allocating, per call or turn report.
func (s *Session) total() {
	u := &s.Usage
	if u.Session != nil {
		u.Total, u.Source = *clonePtr(u.Session), UsageSession
		return
	}
	var a sumOf
	for i := range s.Turns {
		a.add(s.Turns[i].Usage.Effective())
	}
	for i := range u.Other {
		a.add(u.Other[i].Effective())
	}
	if !a.any {
		u.Total, u.Source = Tokens{}, UsageNone
		return
	}
	u.Total, u.Source = a.tokens(), UsageTurns
}

// sumOf adds up Tokens by value; a count stays absent until some report
// gives it.
type sumOf struct {
	n    [6]int64
	set  [6]bool
	cost float64
	paid bool
	any  bool
}

func counts(t *Tokens) [6]*int64 {
	return [6]*int64{t.InputTokens, t.CachedInputTokens, t.CacheWriteTokens, t.OutputTokens, t.ReasoningTokens, t.TotalTokens}
}

func (a *sumOf) add(t *Tokens) {
	if t == nil {
		return
	}
	a.any = true
	for i, p := range counts(t) {
		if p != nil {
			a.n[i] += *p
			a.set[i] = true
		}
	}
	if t.CostUSD != nil {
		a.cost += *t.CostUSD
		a.paid = true
	}
}

func (a *sumOf) tokens() Tokens {
	var ps [6]*int64
	for i := range ps {
		if a.set[i] {
			ps[i] = clonePtr(&a.n[i])
		}
	}
	t := Tokens{InputTokens: ps[0], CachedInputTokens: ps[1], CacheWriteTokens: ps[2], OutputTokens: ps[3], ReasoningTokens: ps[4], TotalTokens: ps[5]}
	if a.paid {
		t.CostUSD = clonePtr(&a.cost)
	}
	return t
}
