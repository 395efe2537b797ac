package agentnorm_test

import (
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
)

// BenchmarkNew is the fixed cost of a session for every agent and format:
// a translator made and ended without input (its session's start and end
// events included), which dominates short inputs.
func BenchmarkNew(b *testing.B) {
	for _, a := range agentnorm.Agents() {
		for _, f := range a.Formats {
			b.Run(a.Name+"/"+f.Name, func(b *testing.B) {
				b.ReportAllocs()
				var evs []universal.Event
				for b.Loop() {
					tr, err := a.New(f.Name, universal.Options{SessionID: "s"})
					if err != nil {
						b.Fatal(err)
					}
					evs = tr.Report(evs[:0], universal.EndOfInput{})
				}
			})
		}
	}
}
