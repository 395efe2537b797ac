package acp_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

const testdata = "../testdata/acp"

// capture is one input with what the test knows about it.
type capture struct {
	input   string
	format  string
	meta    string // the scenario's .meta.json
	prompts bool   // report the meta's prompts (the agent's side alone does not show them)
	// allowUnparsed: a hand-made sample with hostile lines on purpose.
	allowUnparsed bool
}

func (c capture) name() string {
	rel, _ := filepath.Rel(testdata, c.input)
	return rel
}

// captures lists the inputs under dir: <scenario>.exchange.jsonl (both
// directions) and <scenario>.agent.jsonl (the agent's side alone).
func captures(t testing.TB, dir string) []capture {
	files, err := filepath.Glob(filepath.Join(testdata, dir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	var out []capture
	for _, f := range files {
		base := filepath.Base(f)
		scenario := base[:strings.IndexByte(base, '.')]
		c := capture{input: f, meta: filepath.Join(testdata, dir, scenario+".meta.json")}
		switch {
		case strings.HasSuffix(base, ".exchange.jsonl"):
			c.format = acp.FormatExchange
		case strings.HasSuffix(base, ".agent.jsonl"):
			c.format, c.prompts = acp.FormatAgent, true
		default:
			t.Fatalf("%s: unknown capture", f)
		}
		if _, err := os.Stat(c.meta); err != nil {
			c.meta = ""
		}
		out = append(out, c)
	}
	return out
}

// all lists every capture: hand-made ones, and recordings of real agents.
func all(t testing.TB) []capture {
	out := captures(t, "handwritten")
	out = append(out, hostile()...)
	dirs, _ := filepath.Glob(filepath.Join(testdata, "*", "*"))
	for _, d := range dirs {
		rel, _ := filepath.Rel(testdata, d)
		if st, err := os.Stat(d); err == nil && st.IsDir() && !strings.HasPrefix(rel, "handwritten") && !strings.HasPrefix(rel, "schema") && !strings.HasPrefix(rel, "hostile") {
			out = append(out, captures(t, rel)...)
		}
	}
	return out
}

// hostile lists hand-made inputs with lines that must become
// agent.unparsed.
func hostile() []capture {
	p := func(name string) string { return filepath.Join(testdata, "hostile", name) }
	return []capture{
		{input: p("unknown.exchange.jsonl"), format: acp.FormatExchange, allowUnparsed: true},
		{input: p("unknown.agent.jsonl"), format: acp.FormatAgent, allowUnparsed: true},
	}
}

func newTranslator(format string) func(universal.Options) universal.Translator {
	return golden.Maker(acp.New, format)
}

func framing(format string) universal.Framing { return golden.FramingOf(acp.Formats(), format) }

func (c capture) golden(t *testing.T) golden.Case {
	gc := golden.Case{
		Input:         c.input,
		Meta:          c.meta,
		Format:        c.format,
		Framing:       framing(c.format),
		New:           newTranslator(c.format),
		AllowUnparsed: c.allowUnparsed,
	}
	if c.prompts && c.meta != "" {
		gc.Reports = golden.PromptReports(t, c.meta)
	}
	return gc
}

// TestCaptures runs every capture through the golden harness: golden
// output, stream checker, canonical shape, no agent.unparsed, chunking
// and checkpoint invariance, raw payloads, and the capture's expect
// block.
func TestCaptures(t *testing.T) {
	cs := all(t)
	if len(cs) < 12 {
		t.Fatalf("only %d captures found", len(cs))
	}
	for _, c := range cs {
		t.Run(c.name(), func(t *testing.T) {
			golden.Run(t, c.golden(t))
		})
	}
}

// TestNew checks the constructor contract.
func TestNew(t *testing.T) {
	golden.CheckNew(t, acp.Formats(), acp.New)
}

// TestDetect: each capture's format is detected from its first bytes.
func TestDetect(t *testing.T) {
	for _, c := range all(t) {
		data, err := os.ReadFile(c.input)
		if err != nil {
			t.Fatal(err)
		}
		if got := acp.Detect(data[:min(len(data), 4096)]); got != c.format {
			t.Errorf("%s: Detect = %q, want %q", c.name(), got, c.format)
		}
	}
	if got := acp.Detect([]byte("hello\n")); got != "" {
		t.Errorf("Detect(text) = %q", got)
	}
}

func read(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
