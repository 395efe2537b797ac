package acp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
)

// BenchmarkTranslate translates every capture (framing excluded): MB/s of
// native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) {
	var ins []golden.BenchInput
	for _, c := range all(b) {
		ins = append(ins, golden.BenchInput{Name: c.name(), New: newTranslator(c.format), Framing: framing(c.format), Data: read(b, c.input)})
	}
	golden.BenchmarkInputs(b, ins)
}
