package pi_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

const testdata = "../testdata/pi"

// capture is one recorded input with what the test knows about it.
type capture struct {
	input   string
	format  string
	meta    string // the scenario's .meta.json, "" for public samples
	prompts bool   // report the meta's prompts (Pi echoes them; they must not double)
	// allowUnparsed: a hand-made sample with hostile lines on purpose.
	allowUnparsed bool
}

func (c capture) name() string {
	rel, _ := filepath.Rel(testdata, c.input)
	return rel
}

// recorded lists the captures of the real Pi programs, by version.
func recorded(t testing.TB) []capture {
	var out []capture
	for _, v := range []string{"0.73.1", "1.5.2"} {
		files, err := filepath.Glob(filepath.Join(testdata, v, "*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(files)
		for _, f := range files {
			base := filepath.Base(f)
			scenario := base[:strings.IndexByte(base, '.')]
			c := capture{input: f, meta: filepath.Join(testdata, v, scenario+".meta.json")}
			switch {
			case strings.HasSuffix(base, ".session.jsonl"):
				c.format = pi.FormatSession
			case strings.HasSuffix(base, ".rpc.exchange.jsonl"):
				c.format = pi.FormatExchange
			case strings.HasSuffix(base, ".rpc.jsonl"):
				c.format, c.prompts = pi.FormatRPC, true
			case strings.HasSuffix(base, ".json.jsonl"):
				c.format, c.prompts = pi.FormatJSON, true
			default:
				t.Fatalf("%s: unknown capture", f)
			}
			out = append(out, c)
		}
	}
	return out
}

// public lists the samples found in public repositories.
func public() []capture {
	p := func(name string) string { return filepath.Join(testdata, "public", name) }
	return []capture{
		{input: p("pi-mono-before-compaction.v1-session.jsonl"), format: pi.FormatSession},
		{input: p("pi-mono-large-session.v1-session.jsonl"), format: pi.FormatSession},
		{input: p("pi-mono-compact.v1-session-concatenated-line.jsonl"), format: pi.FormatSession},
		{input: p("pi-mono-session-2025-12-17.v1-session-concatenated-line.jsonl"), format: pi.FormatSession},
		{input: p("git-ai__pi-session-simple.jsonl"), format: pi.FormatSession},
		{input: p("git-ai__pi-session-tool.jsonl"), format: pi.FormatSession},
		// Entry types Pi does not write (branchSummary and
		// compactionSummary are message roles): agent.unparsed.
		{input: p("git-ai__pi-session-ignorable.jsonl"), format: pi.FormatSession, allowUnparsed: true},
		{input: p("specstory__real_world.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("specstory__native-tool-audit.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("irrlicht__checkpoint-rewind.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("irrlicht__context-compaction.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("irrlicht__turn-aborted-by-error.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("irrlicht__user-esc-interrupt.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("irrlicht__shell-escape-command.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("irrlicht__session-start-2026-08.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("irrlicht__full-lifecycle-toolcall.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("irrlicht__model-switch-midsession.v3-session.jsonl"), format: pi.FormatSession},
		{input: p("toolpath__compacted-real.v3-session.jsonl"), format: pi.FormatSession},
		// A ChatGPT backend error body ({"detail"}) after a model switch.
		{input: p("pidev__codex-detail-error.v3-session.jsonl"), format: pi.FormatSession},
		// Pi's rpc output with its permission-gate example extension: the
		// dialog comes before the assistant message's end.
		{input: p("pi-agent-rust__permission-gate-002.rpc.jsonl"), format: pi.FormatRPC},
		// oh-my-pi's jsonl output of a turn the provider refused (429).
		{input: p("pi-harness-delegate__omp-429-error.jsonl"), format: pi.FormatJSON},
		// Hand-made with a line that is not JSON and an unknown entry type.
		{input: p("agentsview__session.jsonl"), format: pi.FormatSession, allowUnparsed: true},
		// Hand-made streams in the pre-0.84 shape (labelled synthetic).
		{input: p("synthetic/takopi-pi_print_mode_events.jsonl"), format: pi.FormatJSON},
		{input: p("synthetic/takopi-pi_stream_success.jsonl"), format: pi.FormatJSON},
		{input: p("synthetic/takopi-pi_stream_error.jsonl"), format: pi.FormatJSON},
	}
}

// handwritten lists the inputs written for this repository.
func handwritten() []capture {
	p := func(name string) string { return filepath.Join(testdata, "handwritten", name) }
	return []capture{
		{input: p("features.rpc.exchange.jsonl"), format: pi.FormatExchange, meta: p("features.meta.json")},
		{input: p("v2-branches.session.jsonl"), format: pi.FormatSession, meta: p("v2-branches.meta.json")},
		// oh-my-pi (omp), the fork of Pi, written to its type definitions.
		{input: p("omp.session.jsonl"), format: pi.FormatSession, meta: p("omp.meta.json")},
		{input: p("omp-subagent.session.jsonl"), format: pi.FormatSession, meta: p("omp-subagent.meta.json")},
	}
}

func newTranslator(format string) func(universal.Options) universal.Translator {
	return golden.Maker(pi.New, format)
}

func framing(format string) universal.Framing { return golden.FramingOf(pi.Formats(), format) }

func (c capture) golden(t *testing.T) golden.Case {
	gc := golden.Case{
		Input:         c.input,
		Meta:          c.meta,
		Format:        c.format,
		Framing:       framing(c.format),
		New:           newTranslator(c.format),
		AllowUnparsed: c.allowUnparsed,
		AtRest:        c.format == pi.FormatSession,
	}
	if c.prompts {
		gc.Reports = golden.PromptReports(t, c.meta)
	}
	return gc
}

// TestCaptures runs every recorded capture and public sample through the
// golden harness: golden output, stream checker, no agent.unparsed,
// chunking and checkpoint invariance, raw payloads, and the capture's
// expect block.
func TestCaptures(t *testing.T) {
	all := append(append(recorded(t), public()...), handwritten()...)
	if len(all) < 150 {
		t.Fatalf("only %d captures found", len(all))
	}
	for _, c := range all {
		t.Run(c.name(), func(t *testing.T) {
			golden.Run(t, c.golden(t))
		})
	}
}
