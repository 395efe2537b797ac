//go:build long

package crosscheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRecordings runs every recording of every agent version through the
// golden harness without golden files (invariants, canonical shape, cuts,
// chunking, checkpoints, expectations). It takes a while: it runs with the
// build tag long (go test -tags long ./...), as CI does.
func TestRecordings(t *testing.T) {
	metas, err := filepath.Glob(filepath.Join(root, "*", "*", "*.meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no recordings under %s: %v", root, err)
	}
	slices.Sort(metas)
	n := 0
	for _, meta := range metas {
		dir := filepath.Dir(meta)
		agent := filepath.Base(filepath.Dir(dir))
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		pr, ok := providers[agent]
		if !ok {
			t.Fatalf("%s: no provider %q", meta, agent)
		}
		// A meta file we corrected (a placeholder in the recorded
		// expectations) replaces the recorded one; both are kept.
		if corrected := filepath.Join(dir, name+".meta.corrected.json"); exists(corrected) {
			meta = corrected
		}
		for _, in := range inputs(agent, dir, name) {
			rel, _ := filepath.Rel(root, in.files[0])
			n++
			t.Run(rel, func(t *testing.T) {
				c := golden.Case{
					Input:    concat(t, in.files),
					Format:   in.format,
					Framing:  framing(t, pr, in.format),
					New:      newFor(pr, in.format),
					NoGolden: true,
				}
				if in.expect {
					c.Meta = meta
				}
				c.End = endOf(t, in, meta)
				c.AtRest = atRest[in.format]
				if in.prompts {
					ps, err := golden.Prompts(meta)
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range ps {
						c.Reports = append(c.Reports, universal.Prompt{Text: p})
					}
				}
				golden.Run(t, c)
			})
		}
	}
	t.Logf("%d recordings of %d captures", n, len(metas))
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// atRest names the formats that are records at rest (see golden.Case.AtRest).
var atRest = map[string]bool{
	claude.FormatTranscript: true, "rollout": true, pi.FormatSession: true, opencode.FormatMessages: true, "export": true, "thread": true,
}
