package acp_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestMutations runs golden.FuzzProperty on mutated captures (lines
// shuffled, dropped, repeated, bytes overwritten), deterministically: the
// fuzz target's property on inputs a short test run can afford. Time is
// not asserted (the machines are shared; a race-enabled run of a big
// capture takes seconds): work that grows faster than the input is
// internal/linear's to catch, by allocations.
func TestMutations(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var seeds [][]byte
	var fmts []int
	for _, c := range all(t) {
		seeds = append(seeds, read(t, c.input))
		fmts = append(fmts, int(formatIndex(c.format)))
	}
	for ; n > 0; n-- {
		i := rng.IntN(len(seeds))
		data := bytes.Clone(seeds[i])
		lines := bytes.Split(data, []byte("\n"))
		switch rng.IntN(4) {
		case 0:
			rng.Shuffle(len(lines), func(a, b int) { lines[a], lines[b] = lines[b], lines[a] })
		case 1:
			for k := 0; k < 5; k++ {
				j := rng.IntN(len(lines))
				lines = append(lines[:j], lines[j+1:]...)
				if len(lines) < 2 {
					break
				}
			}
		case 2:
			for k := 0; k < 10 && len(data) > 0; k++ {
				data[rng.IntN(len(data))] = byte(rng.IntN(256))
			}
			lines = bytes.Split(data, []byte("\n"))
		case 3:
			j := rng.IntN(len(lines))
			lines = append(lines, lines[j], lines[rng.IntN(len(lines))])
		}
		in := bytes.Join(lines, []byte("\n"))
		fm := acp.Formats()[fmts[i]%len(acp.Formats())]
		t.Run("", func(t *testing.T) {
			golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(fm.Name), Framing: fm.Framing, Reports: []universal.Report{universal.Prompt{Text: "a prompt"}}}, in)
		})
		if t.Failed() {
			t.Logf("input: %s", in)
			return
		}
	}
}
