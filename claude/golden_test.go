package claude_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

const (
	recorded = "../testdata/claude/2.1.330"
	public   = "../testdata/claude/public"
	handmade = "../testdata/claude/handmade"
)

func newFor(format string) func(universal.Options) universal.Translator {
	return golden.Maker(claude.New, format)
}

// captureCase is one golden run.
type captureCase struct {
	name string
	c    golden.Case
}

// recordedCases returns a case for every format of every recorded capture:
// the stdout (prompts reported, since the CLI does not echo them), the
// exchange when there is one, the main transcript, every sub-agent
// transcript alone, and the main transcript followed by its sub-agent
// transcripts (which carries the capture's expectations).
func recordedCases(t *testing.T) []captureCase {
	t.Helper()
	metas, err := filepath.Glob(filepath.Join(recorded, "*.meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no captures in %s: %v", recorded, err)
	}
	var cases []captureCase
	for _, meta := range metas {
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		reports := golden.PromptReports(t, meta)
		cases = append(cases, captureCase{name + "/stream-json", golden.Case{
			Input: filepath.Join(recorded, name+".jsonl"), Meta: meta, Format: claude.FormatStreamJSON,
			Framing: golden.Lines, New: newFor(claude.FormatStreamJSON), Reports: reports,
		}})
		if ex := filepath.Join(recorded, name+".exchange.jsonl"); exists(ex) {
			cases = append(cases, captureCase{name + "/exchange", golden.Case{
				Input: ex, Meta: meta, Format: claude.FormatExchange,
				Framing: golden.Exchange, New: newFor(claude.FormatExchange),
			}})
		}
		mains, _ := filepath.Glob(filepath.Join(recorded, name+".session", "*", "*.jsonl"))
		if len(mains) != 1 {
			t.Fatalf("%s: %d main transcripts, want 1", name, len(mains))
		}
		main := mains[0]
		subs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(main, ".jsonl"), "subagents", "agent-*.jsonl"))
		tc := golden.Case{Input: main, Format: claude.FormatTranscript, Framing: golden.Lines, New: newFor(claude.FormatTranscript)}
		if len(subs) == 0 {
			tc.Meta = meta
			cases = append(cases, captureCase{name + "/transcript", tc})
			continue
		}
		cases = append(cases, captureCase{name + "/transcript-main", tc})
		for _, s := range subs {
			cases = append(cases, captureCase{name + "/transcript-" + filepath.Base(s), golden.Case{
				Input: s, Format: claude.FormatTranscript, Framing: golden.Lines, New: newFor(claude.FormatTranscript),
			}})
		}
		cases = append(cases, captureCase{name + "/transcript", golden.Case{
			Input:  concat(t, name, append([]string{main}, subs...)),
			Golden: strings.TrimSuffix(main, ".jsonl") + ".with-subagents.golden.ndjson",
			Meta:   meta, Format: claude.FormatTranscript, Framing: golden.Lines, New: newFor(claude.FormatTranscript),
		}})
	}
	return cases
}

// concat writes the files one after the other into a temporary file, as
// the normalize command reads several files as one session.
func concat(t *testing.T, name string, files []string) string {
	t.Helper()
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			all = append(all, '\n')
		}
	}
	p := filepath.Join(t.TempDir(), name+".jsonl")
	if err := os.WriteFile(p, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// publicCases returns a case for every public sample: stream-json streams,
// on-disk transcripts, and single pretty-printed stream-json messages
// (read as one document each).
func publicCases(t *testing.T) []captureCase {
	t.Helper()
	entries, err := os.ReadDir(public)
	if err != nil {
		t.Fatal(err)
	}
	var cases []captureCase
	for _, e := range entries {
		n := e.Name()
		c := golden.Case{Input: filepath.Join(public, n), Framing: golden.Lines}
		switch {
		case strings.HasSuffix(n, ".golden.ndjson"), strings.HasSuffix(n, ".state.json"), n == "SOURCES.md":
			continue // outputs and provenance
		case n == "gleam-sdk__stream-json__permission_denial.json", n == "gleam-sdk__stream-json__usage_stats.json":
			continue // fragments of a result line, not messages: see TestPublicFragments
		case strings.HasSuffix(n, ".json"):
			c.Format, c.Framing = claude.FormatStreamJSON, golden.Document
		case strings.HasSuffix(n, ".exchange.jsonl"):
			c.Format, c.Framing = claude.FormatExchange, golden.Exchange
		case strings.HasPrefix(n, "stream_"):
			c.Format = claude.FormatStreamJSON
		default:
			c.Format = claude.FormatTranscript
		}
		c.New = newFor(c.Format)
		cases = append(cases, captureCase{n, c})
	}
	return cases
}

// handmadeCases returns a case for every hand-made input (shapes no
// public recording shows): stream-json (stream_*) and transcripts.
func handmadeCases(t *testing.T) []captureCase {
	t.Helper()
	entries, err := os.ReadDir(handmade)
	if err != nil {
		t.Fatal(err)
	}
	var cases []captureCase
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".jsonl") {
			continue // outputs
		}
		c := golden.Case{Input: filepath.Join(handmade, n), Framing: golden.Lines, Format: claude.FormatTranscript}
		if strings.HasPrefix(n, "stream_") {
			c.Format = claude.FormatStreamJSON
		}
		c.New = newFor(c.Format)
		cases = append(cases, captureCase{n, c})
	}
	return cases
}

func TestRecordedCaptures(t *testing.T) {
	cases := recordedCases(t)
	// 20 stdout captures, 4 exchanges, 20 transcripts, 3 × (main + sub-agent).
	if want := 20 + 4 + 20 + 3*2; len(cases) != want {
		t.Errorf("%d recorded cases, want %d", len(cases), want)
	}
	for _, c := range cases {
		c.c.AtRest = c.c.Format == claude.FormatTranscript
		t.Run(c.name, func(t *testing.T) { golden.Run(t, c.c) })
	}
}

func TestPublicSamples(t *testing.T) {
	cases := publicCases(t)
	if want := 69 - 2; len(cases) != want {
		t.Errorf("%d public cases, want %d", len(cases), want)
	}
	for _, c := range cases {
		c.c.AtRest = c.c.Format == claude.FormatTranscript
		t.Run(c.name, func(t *testing.T) { golden.Run(t, c.c) })
	}
}

func TestHandmadeSamples(t *testing.T) {
	cases := handmadeCases(t)
	if want := 2; len(cases) != want {
		t.Errorf("%d hand-made cases, want %d", len(cases), want)
	}
	for _, c := range cases {
		c.c.AtRest = c.c.Format == claude.FormatTranscript
		t.Run(c.name, func(t *testing.T) { golden.Run(t, c.c) })
	}
}

// TestDetect checks format detection on the head of every capture.
func TestDetect(t *testing.T) {
	for _, c := range append(append(recordedCases(t), publicCases(t)...), handmadeCases(t)...) {
		if c.c.Framing == golden.Document || strings.Contains(c.c.Input, os.TempDir()) {
			continue
		}
		b, err := os.ReadFile(c.c.Input)
		if err != nil {
			t.Fatal(err)
		}
		if got := claude.Detect(b[:min(len(b), 64<<10)]); got != c.c.Format {
			t.Errorf("%s: Detect = %q, want %q", c.name, got, c.c.Format)
		}
	}
	if got := claude.Detect([]byte("nvm: using node 22\n")); got != "" {
		t.Errorf("Detect(noise) = %q, want \"\"", got)
	}
	if !slices.ContainsFunc(claude.Formats(), func(f universal.Format) bool { return f.Name == claude.FormatExchange }) {
		t.Error("Formats lacks exchange")
	}
}
