// Package corpus finds the recorded native inputs of a testdata tree: each
// file under root/<agent>/… or root/crosscheck/<agent>/… whose format the
// agent detects, goldens, states, metas and notes aside. The ratio
// benchmark (internal/ratio) and the growth checks (internal/linear) read
// the same inputs through it. The package's own test runs every input
// through its translator as recorded and with whitespace between all its
// JSON tokens: the events must be the same, and keep the CleanJSON promise
// every translator makes (universal.Stream.PromiseCleanJSON).
//
//	err := corpus.Walk("testdata", func(in corpus.Input) error {
//		fmt.Println(in.Rel, in.Agent.Name, in.Format.Name, len(in.Data))
//		return nil
//	})
package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
)

// Input is one recorded native input.
type Input struct {
	Path   string   // as found under root
	Rel    string   // relative to root
	Parts  []string // Rel's elements: the agent's folder is Parts[0], or Parts[1] under crosscheck
	Agent  agentnorm.Agent
	Format universal.Format // detected from the file's first 64 KiB
	Data   []byte
}

// Crosscheck reports whether the input is a second recording, under
// root/crosscheck.
func (in *Input) Crosscheck() bool { return in.Parts[0] == "crosscheck" }

// Public reports whether the input is a public log, under
// root/<agent>/public.
func (in *Input) Public() bool { return len(in.Parts) > 1 && in.Parts[1] == "public" }

// skip are the files of a testdata tree that are no native input.
var skip = []string{".golden.ndjson", ".state.json", ".meta.json", ".md", ".txt", ".go", ".mod", ".sum", ".py"}

// Walk calls fn with every native input under root, in lexical order of
// their paths, and returns the first error of reading the tree or of fn.
func Walk(root string, fn func(Input) error) error {
	agents := map[string]agentnorm.Agent{}
	for _, a := range agentnorm.Agents() {
		agents[a.Name] = a
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		base := filepath.Base(path)
		for _, s := range skip {
			if strings.HasSuffix(base, s) {
				return nil
			}
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		parts := strings.Split(rel, string(filepath.Separator))
		name := parts[0]
		if name == "crosscheck" && len(parts) > 1 {
			name = parts[1]
		}
		a, ok := agents[name]
		if !ok {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := a.Detect(data[:min(len(data), 64<<10)])
		if err != nil {
			return nil // not an input of this agent (a schema, a note)
		}
		return fn(Input{Path: path, Rel: rel, Parts: parts, Agent: a, Format: f, Data: data})
	})
}
