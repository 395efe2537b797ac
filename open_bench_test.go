package agentnorm_test

import (
	"bytes"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/universal"
)

// BenchmarkOpenFiles reads the recorded files at rest of a kind (Claude Code
// transcripts, Codex rollouts) one after another through Open, as a program
// that indexes a directory of sessions does: the fixed cost of each file
// (its read buffer, the buffer of its long lines, its translator) counts,
// as well as its lines. The files are read from memory.
func BenchmarkOpenFiles(b *testing.B) {
	for _, c := range []struct{ agent, format string }{{"claude", "transcript"}, {"codex", "rollout"}} {
		b.Run(c.agent+"/"+c.format, func(b *testing.B) {
			files := filesAtRest(b, c.agent, c.format)
			var size int64
			for _, f := range files {
				size += int64(len(f))
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range files {
					s, err := agentnorm.Open(bytes.NewReader(f), c.agent, agentnorm.Options{Options: universal.Options{SessionID: "s"}})
					if err != nil {
						b.Fatal(err)
					}
					for _, err := range s.Events() {
						if err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}

// filesAtRest returns the recorded inputs under testdata of the agent's
// format (internal/corpus: the ratio program's inputs).
func filesAtRest(b *testing.B, agent, format string) [][]byte {
	var files [][]byte
	err := corpus.Walk("testdata", func(in corpus.Input) error {
		if in.Agent.Name == agent && in.Format.Name == format {
			files = append(files, in.Data)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if len(files) == 0 {
		b.Fatalf("no %s %s under testdata", agent, format)
	}
	return files
}
