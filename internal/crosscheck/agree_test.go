package crosscheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// recording is one capture of one agent version, with the projection of
// each of its formats.
type recording struct {
	agent, version, name string
	meta                 string
	projections          map[string]string // input label → projection
	order                []string          // labels in input order
}

// project translates one input of a capture and returns its projection.
func project(t *testing.T, pr provider, in input, meta string) string {
	t.Helper()
	c := golden.Case{
		Input:   concat(t, in.files),
		Format:  in.format,
		Framing: framing(t, pr, in.format),
		New:     newFor(pr, in.format),
		End:     endOf(t, in, meta),
	}
	if in.prompts {
		ps, err := golden.Prompts(meta)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			c.Reports = append(c.Reports, universal.Prompt{Text: p})
		}
	}
	data, err := os.ReadFile(c.Input)
	if err != nil {
		t.Fatal(err)
	}
	events, err := c.Translate(data, golden.Options(), nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", in.files[0], err)
	}
	p, err := conformance.Project(events)
	if err != nil {
		t.Fatalf("%s: %v", in.files[0], err)
	}
	return p
}

// label names an input of a capture: its format, and for files that are
// one of several of the format (rollouts, session files), which.
func label(in input) string {
	if in.format == "rollout" || strings.HasSuffix(in.files[0], ".session.jsonl") {
		return in.format + ":" + filepath.Base(in.files[0])
	}
	return in.format
}

// recordings projects every input of every capture under root, by agent,
// version and capture name.
func recordings(t *testing.T) []*recording {
	t.Helper()
	metas, err := filepath.Glob(filepath.Join(root, "*", "*", "*.meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no recordings under %s: %v", root, err)
	}
	slices.Sort(metas)
	var out []*recording
	for _, meta := range metas {
		if strings.HasSuffix(meta, ".meta.corrected.json") {
			continue
		}
		dir := filepath.Dir(meta)
		r := &recording{
			agent:       filepath.Base(filepath.Dir(dir)),
			version:     filepath.Base(dir),
			name:        strings.TrimSuffix(filepath.Base(meta), ".meta.json"),
			meta:        meta,
			projections: map[string]string{},
		}
		pr := providers[r.agent]
		for _, in := range inputs(r.agent, dir, r.name) {
			if !in.expect {
				continue // a sub-agent's or reviewer's own file
			}
			l := label(in)
			r.projections[l] = project(t, pr, in, meta)
			r.order = append(r.order, l)
		}
		out = append(out, r)
	}
	return out
}

// TestFormatsAgree checks the promise that the same session read live and
// at rest looks the same to a client: every format of one recording has
// the same projection (package conformance), except for what a format does
// not record at all (formatOmits).
func TestFormatsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("translates every recording")
	}
	for _, r := range recordings(t) {
		if len(r.order) < 2 {
			continue
		}
		ref := r.order[0]
		for _, l := range r.order[1:] {
			want := omit(r.projections[ref], formatOmits(r.agent, l))
			got := omit(r.projections[l], formatOmits(r.agent, l))
			want = omit(want, formatOmits(r.agent, ref))
			got = omit(got, formatOmits(r.agent, ref))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s/%s/%s: %s and %s differ (-%s +%s):\n%s", r.agent, r.version, r.name, ref, l, ref, l, diff)
			}
		}
	}
}

// TestAgentsAgree checks the first principle of the universal schema: for
// every scenario recorded for two or more agents, the projection of the
// session is the same for every agent and version, except where the
// recorded scenario itself differs (scriptDiffers).
func TestAgentsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("translates every recording")
	}
	byScenario := map[string][]*recording{}
	for _, r := range recordings(t) {
		byScenario[r.name] = append(byScenario[r.name], r)
	}
	names := make([]string, 0, len(byScenario))
	for n := range byScenario {
		names = append(names, n)
	}
	slices.Sort(names)
	compared := 0
	for _, name := range names {
		rs := byScenario[name]
		agents := map[string]bool{}
		for _, r := range rs {
			agents[r.agent] = true
		}
		if len(agents) < 2 {
			continue
		}
		ref := rs[0]
		for _, r := range rs[1:] {
			mask := append(scriptDiffers(ref.agent, name), scriptDiffers(r.agent, name)...)
			want := omit(ref.projections[ref.order[0]], mask)
			got := omit(r.projections[r.order[0]], mask)
			compared++
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: %s %s (%s) and %s %s (%s) differ (-%s +%s):\n%s", name,
					ref.agent, ref.version, ref.order[0], r.agent, r.version, r.order[0], ref.agent, r.agent, diff)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no scenario recorded for two agents")
	}
	t.Logf("%d comparisons", compared)
}

// A mask removes facts from a projection before two are compared.
type mask string

const (
	maskPermissions mask = "permission" // permission lines
	maskErrors      mask = "error"      // the terminal error line
	maskToolKinds   mask = "tool kinds" // which kind each call has (not how many, nor where)
	maskTurnCount   mask = "turns"      // turn lines (and so how items group into turns)
)

// omit returns the projection without what the masks remove.
func omit(p string, masks []mask) string {
	if len(masks) == 0 {
		return p
	}
	var b strings.Builder
	for line := range strings.Lines(p) {
		trim := strings.TrimSpace(line)
		drop := false
		for _, m := range masks {
			switch m {
			case maskPermissions:
				drop = drop || strings.HasPrefix(trim, "permission ")
			case maskErrors:
				drop = drop || trim == "error"
			case maskTurnCount:
				drop = drop || strings.HasPrefix(trim, "turn ")
			case maskToolKinds:
				if _, after, ok := strings.Cut(trim, " call → "); ok {
					indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
					line = fmt.Sprintf("%s? call → %s", indent, strings.TrimSpace(after)) + "\n"
				}
			}
		}
		if !drop {
			b.WriteString(line)
		}
	}
	return b.String()
}

// formatOmits lists what a format of an agent does not record, so that
// its projection lacks it through no fault of the translator.
func formatOmits(agent, label string) []mask {
	return nil
}

// scriptDiffers lists where the capture lab's scripted model did other
// things for an agent than for the others in a scenario (checked against
// the recordings' mock requests), so that those facts cannot be compared.
func scriptDiffers(agent, scenario string) []mask {
	return nil
}
