package reduce

import (
	"cmp"
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
	UsageSession UsageSource = "session" // the session-scope reports
	UsageTurns   UsageSource = "turns"   // the sum over turns of their Effective usage
	// UsageMixed: the token counts from one and the cost from the other
	// (an ACP agent's session reports give only the cost).
	UsageMixed UsageSource = "mixed"
)

// Usage is the session's token usage. See the package documentation for
// how reports of the three scopes fold.
type Usage struct {
	// Total is the session's usage so far.
	Total  Tokens      `json:"total"`
	Source UsageSource `json:"source"`
	// Session is what the session-scope reports say (a running total):
	// each count and the cost as the latest report that gave it. In a log
	// of several runs (one native session after another: package
	// universal, "Several runs in one log") it is the current run's.
	Session *Tokens `json:"session"`
	// EarlierRuns is the sum of the last session-scope totals of the runs
	// before the current one, nil for a log of one run: each run reports
	// its own running total, and Total counts them all.
	EarlierRuns *Tokens `json:"earlier_runs,omitempty"`
	// SessionRun is the native session Session's reports came from while
	// the next run's events have begun (the session's NativeSessionID is
	// that run's); "" otherwise.
	SessionRun string `json:"session_run,omitempty"`
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

// reported returns the counts and cost of a report: the event's, which
// newTokens copies (one allocation a report, for what the session keeps).
func reported(d *universal.UsageUpdated) ([6]*int64, *float64) {
	u := &d.Usage
	return [6]*int64{u.InputTokens, u.CachedInputTokens, u.CacheWriteTokens, u.OutputTokens, u.ReasoningTokens, u.TotalTokens}, d.CostUSD
}

// values holds the numbers a Tokens points to, allocated together: one
// allocation a report instead of one a count.
type values struct {
	n    [6]int64
	cost float64
}

// tokensBox is new Tokens with the numbers they point to: one allocation.
type tokensBox struct {
	t Tokens
	v values
}

// newTokens is makeTokens for Tokens of their own, in one allocation.
func newTokens(n [6]*int64, cost *float64) *Tokens {
	b := new(tokensBox)
	b.t = fillTokens(&b.v, n, cost)
	return &b.t
}

// makeTokens returns Tokens pointing to copies of the counts and cost
// given (nil stays nil).
func makeTokens(n [6]*int64, cost *float64) Tokens {
	return fillTokens(nil, n, cost)
}

// fillTokens is makeTokens with the copies in v, or, when v is nil, in
// values allocated only if some count or the cost is given.
func fillTokens(v *values, n [6]*int64, cost *float64) Tokens {
	var ps [6]*int64
	for i, p := range n {
		if p != nil {
			if v == nil {
				v = new(values)
			}
			v.n[i] = *p
			ps[i] = &v.n[i]
		}
	}
	t := Tokens{InputTokens: ps[0], CachedInputTokens: ps[1], CacheWriteTokens: ps[2], OutputTokens: ps[3], ReasoningTokens: ps[4], TotalTokens: ps[5]}
	if cost != nil {
		if v == nil {
			v = new(values)
		}
		v.cost = *cost
		t.CostUSD = &v.cost
	}
	return t
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// plus returns new Tokens a+b, where a nil count is absent (nil+nil
// stays nil). a may be nil; b and bCost are a report's.
func plus(a *Tokens, b [6]*int64, bCost *float64) *Tokens {
	if a == nil {
		return newTokens(b, bCost)
	}
	var n [6]*int64
	var sums [6]int64
	ca := counts(a)
	for i := range n {
		n[i] = sum(ca[i], b[i], &sums[i])
	}
	var cost float64
	return newTokens(n, sum(a.CostUSD, bCost, &cost))
}

// sum returns a+b, computed into v, where a nil count is absent (nil+nil
// stays nil); makeTokens copies the result.
func sum[T int64 | float64](a, b, v *T) *T {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	*v = *a + *b
	return v
}

func (s *Session) usage(ev *universal.Event, d *universal.UsageUpdated, c *Change) {
	u := &s.Usage
	u.Reports++
	c.What |= UsageChanged
	if d.ContextWindow != nil {
		u.ContextWindow = clonePtr(d.ContextWindow)
	}
	n, cost := reported(d)
	switch d.Scope {
	case universal.ScopeSession:
		if run := cmp.Or(u.SessionRun, s.NativeSessionID); u.Session != nil && ev.NativeSessionID != "" && ev.NativeSessionID != run {
			// Another run's first total: the one before is that run's
			// last.
			u.EarlierRuns = plus(u.EarlierRuns, counts(u.Session), u.Session.CostUSD)
			u.Session = nil
		}
		if ev.NativeSessionID == s.NativeSessionID {
			u.SessionRun = ""
		}
		u.Session = latest(u.Session, n, cost)
	case universal.ScopeCall:
		tu := s.usageTurn(d, c)
		tu.Calls = plus(tu.Calls, n, cost)
	case universal.ScopeTurn:
		tu := s.usageTurn(d, c)
		tu.Turn = newTokens(n, cost)
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
		if i, ok := s.turnAt(id); ok {
			c.TurnID = id
			ix.changed(i)
			return &s.Turns[i].Usage
		}
	case len(ix.open) > 0:
		i := ix.open[len(ix.open)-1]
		t := &s.Turns[i]
		c.TurnID = t.TurnID
		ix.changed(i)
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

// total recomputes Usage.Total from the reports, so that it depends only
// on them and never on the order of additions (a restored snapshot gives
// bit-identical totals): the sum over the turns in order, then over
// Usage.Other. The sum over all turns but the last is kept (index.prefix)
// until a report changes one of them, so that a report, which mostly
// goes to the last turn, costs O(1) and not a pass over the turns; the
// additions, and so the result, are the same as a pass.
func (s *Session) total() {
	u := &s.Usage
	session := u.Session
	if session != nil && u.EarlierRuns != nil {
		session = plus(u.EarlierRuns, counts(session), session.CostUSD)
	}
	if t := session; t != nil && t.CostUSD != nil && counts(t) != [6]*int64{} {
		// Both groups from the session reports: no sum over turns needed.
		// The numbers are never written once made: the total may share
		// them.
		u.Total, u.Source = *t, UsageSession
		return
	}
	ix := s.index()
	for ; ix.prefixN < len(s.Turns)-1; ix.prefixN++ {
		ix.prefix.add(s.Turns[ix.prefixN].Usage.Effective())
	}
	a := ix.prefix
	for i := ix.prefixN; i < len(s.Turns); i++ {
		a.add(s.Turns[i].Usage.Effective())
	}
	for i := range u.Other {
		a.add(u.Other[i].Effective())
	}
	if session != nil {
		u.Total, u.Source = sessionTotal(session, &a)
		return
	}
	if !a.any {
		u.Total, u.Source = Tokens{}, UsageNone
		return
	}
	u.Total, u.Source = a.tokens(), UsageTurns
}

// sessionTotal is the total once session reports were made: their token
// counts and cost, each group taken from the sum over turns a when the
// session reports never gave it (an ACP agent reports the session's cost,
// and the tokens per turn). The counts are one group, so that they never
// mix what a session report covers with what the turns do.
func sessionTotal(t *Tokens, a *sumOf) (Tokens, UsageSource) {
	total := *t
	noCounts := counts(t) == [6]*int64{}
	fromSession, fromTurns := !noCounts || t.CostUSD != nil, false
	if noCounts && a.set != [6]bool{} {
		sum := a.tokens()
		sum.CostUSD = total.CostUSD
		total, fromTurns = sum, true
	}
	if t.CostUSD == nil && a.paid {
		cost := a.cost
		total.CostUSD, fromTurns = &cost, true
	}
	switch {
	case fromTurns && fromSession:
		return total, UsageMixed
	case fromTurns:
		return total, UsageTurns
	}
	return total, UsageSession
}

// latest returns, as new Tokens, what session reports say once a report
// (n, cost) is folded into prev: each count and the cost as the report
// gives it, else as prev did (a report that leaves one null does not say
// it is unknown: an ACP agent sends the cost in one update of a turn and
// not the others).
func latest(prev *Tokens, n [6]*int64, cost *float64) *Tokens {
	if prev != nil {
		p := counts(prev)
		for i := range n {
			if n[i] == nil {
				n[i] = p[i]
			}
		}
		if cost == nil {
			cost = prev.CostUSD
		}
	}
	return newTokens(n, cost)
}

// changed records that the usage of turn i changes: the kept sum over
// the turns before the last starts again if it covered turn i.
func (ix *index) changed(i int) {
	if i < ix.prefixN {
		ix.prefix, ix.prefixN = sumOf{}, 0
	}
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
			ps[i] = &a.n[i]
		}
	}
	var cost *float64
	if a.paid {
		cost = &a.cost
	}
	return makeTokens(ps, cost)
}
