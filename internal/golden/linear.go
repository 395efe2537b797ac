package golden

import (
	"fmt"
	"runtime"
	"time"
)

// Cost is what one measured run allocated, and its CPU time (reported,
// never asserted: machines are noisy).
type Cost struct {
	Bytes, Mallocs uint64
	Time           time.Duration
}

// Growth is the cost of work done k = 0, n and 4n times.
type Growth struct {
	N    int
	Cost [3]Cost // k = 0, n, 4n
}

// MeasureGrowth measures the cost of run for k = 0, n and 4n: prepare(k)
// sets a run up (a translator fed a prefix, say) outside the measure and
// returns the work to measure, which does whatever it does k times (and
// may do the same fixed work for every k, as finishing the input).
func MeasureGrowth(n int, prepare func(k int) func()) Growth {
	g := Growth{N: n}
	for i, k := range [3]int{0, n, 4 * n} {
		run := prepare(k)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		run()
		g.Cost[i].Time = time.Since(start)
		runtime.ReadMemStats(&m1)
		g.Cost[i].Bytes = m1.TotalAlloc - m0.TotalAlloc
		g.Cost[i].Mallocs = m1.Mallocs - m0.Mallocs
	}
	return g
}

// growth returns the cost of 4n repeats over that of n (the fixed cost,
// k = 0, taken off both): about 4 when the work is linear in k, 16 when
// it is quadratic.
func growth(c0, c1, c4 uint64) float64 {
	d1, d4 := sub(c1, c0), sub(c4, c0)
	if d1 == 0 {
		if d4 == 0 {
			return 0
		}
		return float64(d4)
	}
	return float64(d4) / float64(d1)
}

func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

// The thresholds of Superlinear: 4n repeats may cost at most maxGrowth
// times what n do, unless they cost under these per repeat on average
// (a few buffers growing by doubling are no trend).
const (
	maxGrowth        = 10
	bytesPerRepeat   = 256
	mallocsPerRepeat = 0.5
)

// Superlinear says, in words, how the allocations of g grow faster than
// k, or "" when they do not: linear work gives about 4 for 4n against n,
// quadratic about 16; more than 10 fails (buffers that grow by doubling
// make a linear cost jitter up to about 8 for small n), unless 4n repeats
// allocate under 256 bytes and half an allocation each on average.
func (g Growth) Superlinear() string {
	c0, c1, c4 := g.Cost[0], g.Cost[1], g.Cost[2]
	rb := growth(c0.Bytes, c1.Bytes, c4.Bytes)
	rm := growth(c0.Mallocs, c1.Mallocs, c4.Mallocs)
	k := float64(4 * g.N)
	badBytes := rb > maxGrowth && float64(sub(c4.Bytes, c0.Bytes)) > k*bytesPerRepeat
	badMallocs := rm > maxGrowth && float64(sub(c4.Mallocs, c0.Mallocs)) > k*mallocsPerRepeat
	if !badBytes && !badMallocs {
		return ""
	}
	return g.String()
}

// TimeGrowth is the CPU time of 4n repeats over that of n, the fixed cost
// taken off: for a log, not a verdict.
func (g Growth) TimeGrowth() float64 {
	return growth(uint64(g.Cost[0].Time), uint64(g.Cost[1].Time), uint64(g.Cost[2].Time))
}

func (g Growth) String() string {
	c0, c1, c4 := g.Cost[0], g.Cost[1], g.Cost[2]
	return fmt.Sprintf("n=%d: bytes %d/%d/%d (×%.1f), allocations %d/%d/%d (×%.1f), time ×%.1f",
		g.N, c0.Bytes, c1.Bytes, c4.Bytes, growth(c0.Bytes, c1.Bytes, c4.Bytes),
		c0.Mallocs, c1.Mallocs, c4.Mallocs, growth(c0.Mallocs, c1.Mallocs, c4.Mallocs), g.TimeGrowth())
}
