//go:build unix

package main

import (
	"fmt"
	"math"
)

// fit explains the translate column by what each format is made of: it
// fits, over the formats (each row weighted by its own time, so that a
// small format counts as much as a big one), translation's time as
//
//	T ≈ a·V + b·messages + c·events
//
// where V is gjson.Valid's time on the same bytes: the work that grows with
// the bytes (the scan, unescaping and copying the content), a fixed cost a
// message (framing, dispatch) and one an event (items, snapshots, the
// envelope). For each format it then prints the time an event may take
// for translation to reach 0.5× gjson.Valid, (2V − a·V − b·messages) ÷
// events, beside c: a format whose budget is below c needs events cheaper
// than they are, whatever its translator does per byte.
func fit(rows []*group) {
	var xs [][3]float64
	var ys []float64
	var used []*group
	for _, g := range rows {
		if g.translate <= 0 || g.valid <= 0 || g.events == 0 || g.bytes < 50_000 {
			continue // too small to time well
		}
		t := g.translate.Seconds()
		xs = append(xs, [3]float64{g.valid.Seconds() / t, float64(g.msgs) / t, float64(g.events) / t})
		ys = append(ys, 1)
		used = append(used, g)
	}
	k, ok := leastSquares(xs, ys)
	if !ok || len(used) < 4 {
		fmt.Println("fit: too few formats timed to fit")
		return
	}
	fmt.Printf("\ntranslate time ≈ %.2f × gjson.Valid's + %.3f µs a message + %.3f µs an event (least squares over %d formats, each weighted by its time)\n",
		k[0], k[1]*1e6, k[2]*1e6, len(used))
	fmt.Printf("%-22s %9s %9s %12s %12s %14s\n", "input", "events/KB", "msgs/KB", "translate/v", "model/time", "µs/event 0.5×")
	for _, g := range used {
		v, t := g.valid.Seconds(), g.translate.Seconds()
		model := k[0]*v + k[1]*float64(g.msgs) + k[2]*float64(g.events)
		budget := (2*v - k[0]*v - k[1]*float64(g.msgs)) / float64(g.events)
		fmt.Printf("%-22s %9.2f %9.2f %11.2f× %12.2f %14.3f\n", g.name, float64(g.events)/float64(g.bytes)*1e3,
			float64(g.msgs)/float64(g.bytes)*1e3, v/t, model/t, budget*1e6)
	}
}

// encodeBudget accounts for the encode column with the write measure: the
// same events, translated before, written alone as universal JSON, whose
// bytes the one shape fixes for each format. For 3× the encode measure
// must take at most a third of encoding/json's time S; writing takes W of
// that, and translation (events reused) the rest, about E − W. For each
// format it prints W's share of S/3 and how many times faster translation
// would have to be to fit in what writing leaves, (E − W) ÷ (S/3 − W):
// "-" where writing alone takes all of it.
func encodeBudget(rows []*group) {
	fmt.Printf("\ntranslate+encode against its 3× budget (a third of encoding/json's time), writing the events alone measured apart\n")
	fmt.Printf("%-22s %9s %9s %12s %16s %22s\n", "input", "events/KB", "out/in", "encode/std", "writing of 3×", "translation must be ×")
	for _, g := range rows {
		if g.encode <= 0 || g.std <= 0 || g.write <= 0 || g.bytes < 50_000 {
			continue // too small to time well
		}
		e, w, budget := g.encode.Seconds(), g.write.Seconds(), g.std.Seconds()/3
		need := "-"
		switch {
		case e <= budget:
			need = "met"
		case w < budget:
			need = fmt.Sprintf("%.2f", (e-w)/(budget-w))
		}
		fmt.Printf("%-22s %9.2f %9.2f %11.2f× %15.0f%% %22s\n", g.name, float64(g.events)/float64(g.bytes)*1e3,
			float64(g.written)/float64(g.bytes), g.std.Seconds()/e, w/budget*100, need)
	}
}

// leastSquares solves the normal equations of x·k ≈ y for three unknowns.
func leastSquares(x [][3]float64, y []float64) ([3]float64, bool) {
	var a [3][4]float64
	for r := range x {
		for i := range 3 {
			for j := range 3 {
				a[i][j] += x[r][i] * x[r][j]
			}
			a[i][3] += x[r][i] * y[r]
		}
	}
	for i := range 3 {
		p := i
		for r := i + 1; r < 3; r++ {
			if math.Abs(a[r][i]) > math.Abs(a[p][i]) {
				p = r
			}
		}
		a[i], a[p] = a[p], a[i]
		if a[i][i] == 0 {
			return [3]float64{}, false
		}
		for r := range 3 {
			if r != i {
				f := a[r][i] / a[i][i]
				for c := i; c < 4; c++ {
					a[r][c] -= f * a[i][c]
				}
			}
		}
	}
	return [3]float64{a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]}, true
}
