package crosscheck

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// namesCallModels lists the agents whose every recording names the model
// of its calls in call-scoped usage (metadata "model") in at least one
// format: their native records say which model answered (package
// universal, Usage and models). Amp's stream-json and the ACP agents but
// claude-agent-acp (whose model is on usage_update, scope session) name
// none.
var namesCallModels = map[string]bool{"claude": true, "codex": true, "opencode": true, "pi": true}

// recordsNoModel lists the formats (agent family and format) whose records
// never say which model answered a call: OpenCode's run --format json
// prints a step's parts and its step_finish tokens and cost, not the
// assistant message that names the model; Codex names it in its rollouts
// alone (package codex, Usage), not in exec output or app-server
// messages. A recording in such formats alone (the resumed process of
// s19-resume, without the session's file at rest) has call usage and no
// model.
var recordsNoModel = map[string]bool{"opencode run-json": true, "codex exec": true, "codex exchange": true,
	"codex appserver": true}

// TestCallUsageModels checks the one place every agent puts the model of a
// call: a call-scoped usage.updated's metadata "model" (and "provider"),
// a non-empty string that is never Claude Code's "<synthetic>"; the formats
// of one recording that name models do not contradict each other; and an
// agent whose records name the model names it in every recording with
// call usage.
func TestCallUsageModels(t *testing.T) {
	if testing.Short() {
		t.Skip("translates every recording")
	}
	metas, _ := filepath.Glob(filepath.Join(root, "*", "*", "*.meta.json"))
	acpMetas, _ := filepath.Glob(filepath.Join(acpRoot, "*", "*", "*.meta.json"))
	metas = append(metas, acpMetas...)
	if len(metas) == 0 {
		t.Fatal("no recordings")
	}
	checked := 0
	for _, meta := range metas {
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		if strings.HasSuffix(meta, ".meta.corrected.json") || strings.Contains(name, ".") {
			continue
		}
		dir := filepath.Dir(meta)
		agent := filepath.Base(filepath.Dir(dir))
		if strings.HasPrefix(dir, acpRoot) {
			agent = "acp:" + agent
		}
		id := agent + "/" + filepath.Base(dir) + "/" + name
		pr := providers[family(agent)]
		calls := 0
		var named [][]string // the models each format named
		var labels []string
		modelless := true // every format of the recording records no model
		for _, in := range inputs(agent, dir, name) {
			if !in.expect {
				continue
			}
			modelless = modelless && recordsNoModel[family(agent)+" "+in.format]
			models, n := callModels(t, pr, in, meta, id)
			calls += n
			if len(models) == 0 {
				continue
			}
			// A format may record fewer calls (stream-json streams no
			// sub-agent's messages), never other models.
			for i, o := range named {
				if !subset(models, o) && !subset(o, models) {
					t.Errorf("%s: %s names the models %q of its calls, %s %q", id, label(in), models, labels[i], o)
				}
			}
			named, labels = append(named, models), append(labels, label(in))
			checked++
		}
		if namesCallModels[family(agent)] && calls > 0 && len(named) == 0 && !modelless {
			t.Errorf("%s: %d call usages, none names its model", id, calls)
		}
	}
	if checked == 0 {
		t.Fatal("no call usage names a model")
	}
}

// callModels translates one input and returns the distinct models its
// call-scoped usages name (sorted) and how many of its call usages count
// tokens (Claude Code's "<synthetic>" messages carry a usage of zeros); it
// fails the test on a model that is not a model's name.
func callModels(t *testing.T, pr provider, in input, meta, id string) ([]string, int) {
	t.Helper()
	events := translate(t, pr, in, meta)
	named, err := golden.CallModels(events)
	if err != nil {
		t.Fatalf("%s: %s: %v", id, label(in), err)
	}
	var models []string
	for _, mp := range named {
		m, _, _ := strings.Cut(mp, " ")
		if m == "<synthetic>" {
			t.Errorf("%s: %s: call usage model %q, want a model's name", id, label(in), m)
		}
		if m != "" && !slices.Contains(models, m) {
			models = append(models, m)
		}
	}
	n := 0
	for _, e := range golden.OfType(events, universal.TypeUsageUpdated) {
		if d := e.Data.(*universal.UsageUpdated); d.Scope == universal.ScopeCall && d.Usage.TotalTokens != nil && *d.Usage.TotalTokens > 0 {
			n++
		}
	}
	slices.Sort(models)
	return models, n
}

// subset reports whether every model of a is in b.
func subset(a, b []string) bool {
	for _, m := range a {
		if !slices.Contains(b, m) {
			return false
		}
	}
	return true
}
