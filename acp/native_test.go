package acp_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSameShapeAsNative: a scenario recorded through Claude Code's ACP
// adapter (0.23.1, and 0.101.0 from its new package) reduces to the same
// shape (conformance.Project: turns, user and assistant messages, tool
// calls by kind with their outcome, permissions, errors, status
// transitions, the end) as the same scenario recorded from Claude Code's
// own stream-json output. Permission lines are left out: the native runs
// allow edits up front (--permission-mode acceptEdits), the adapter asks
// the host, and the Conventions let permission events differ where one
// record shows an approval the other does not.
func TestSameShapeAsNative(t *testing.T) {
	nativeDir := filepath.Join("..", "testdata", "claude", "2.1.330")
	for _, version := range []string{"0.23.1", "0.101.0"} {
		acpDir := filepath.Join(testdata, "claude-agent-acp", version)
		for _, s := range []string{"s01-text", "s02-tool", "s03-multitool", "s04-edit", "s06-multiturn", "s08-bigoutput", "s09-unicode", "s10-subagent"} {
			t.Run(version+"/"+s, func(t *testing.T) {
				native := filepath.Join(nativeDir, s+".jsonl")
				if _, err := os.Stat(native); err != nil {
					t.Skip("no native recording")
				}
				nc := golden.Case{Input: native, Framing: universal.FrameLines, New: golden.Maker(claude.New, claude.FormatStreamJSON),
					Reports: golden.PromptReports(t, filepath.Join(nativeDir, s+".meta.json"))}
				ac := golden.Case{Input: filepath.Join(acpDir, s+".exchange.jsonl"), Framing: universal.FrameExchange, New: newTranslator("exchange")}
				want := project(t, nc)
				got := project(t, ac)
				if got != want {
					t.Errorf("through ACP:\n%s\nnative:\n%s", got, want)
				}
			})
		}
	}
}

func project(t *testing.T, c golden.Case) string {
	t.Helper()
	evs, err := c.Translate(read(t, c.Input), golden.Options(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := conformance.Project(evs)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(p, "\n") {
		if !strings.HasPrefix(l, "permission ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// qwenDir holds the recordings of Qwen Code: ACP exchanges
// (<scenario>.exchange.jsonl, run by TestCaptures) and its native headless
// output, `qwen -p … --output-format stream-json
// --include-partial-messages` (<scenario>.stream-json.ndjson, with its own
// <scenario>.stream-json.meta.json), which is Claude-Code-shaped and read
// with the claude translator.
var qwenDir = filepath.Join(testdata, "qwen-code", "0.24.4")

// qwenNative lists the native stream-json recordings of Qwen Code by
// capture name (s02-tool, s02-tool-v2, …).
func qwenNative(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(qwenDir, "*.stream-json.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[strings.TrimSuffix(filepath.Base(f), ".stream-json.ndjson")] = f
	}
	return out
}

func qwenNativeCase(t *testing.T, input string) golden.Case {
	meta := strings.TrimSuffix(input, ".ndjson") + ".meta.json"
	return golden.Case{
		Input:   input,
		Meta:    meta,
		Format:  claude.FormatStreamJSON,
		Framing: universal.FrameLines,
		New:     golden.Maker(claude.New, claude.FormatStreamJSON),
		// Headless Qwen Code does not echo the prompt: the host reports it.
		Reports: golden.PromptReports(t, meta),
	}
}

// TestQwenNative runs every native stream-json recording of Qwen Code
// through the golden harness with the claude translator, and checks that
// claude.Detect recognises it.
func TestQwenNative(t *testing.T) {
	native := qwenNative(t)
	if len(native) == 0 {
		t.Fatal("no native Qwen Code recordings")
	}
	for _, name := range slices.Sorted(maps.Keys(native)) {
		t.Run(name, func(t *testing.T) {
			input := native[name]
			data := read(t, input)
			if got := claude.Detect(data[:min(len(data), 64<<10)]); got != claude.FormatStreamJSON {
				t.Errorf("claude.Detect = %q, want %q", got, claude.FormatStreamJSON)
			}
			golden.Run(t, qwenNativeCase(t, input))
		})
	}
}

// TestQwenSameShapeAsNative: where a scenario was recorded both through
// Qwen Code's ACP agent and from its native stream-json output, the two
// reduce to the same shape, as TestSameShapeAsNative checks for Claude
// Code.
func TestQwenSameShapeAsNative(t *testing.T) {
	native := qwenNative(t)
	if len(native) == 0 {
		t.Fatal("no native Qwen Code recordings")
	}
	for _, name := range slices.Sorted(maps.Keys(native)) {
		t.Run(name, func(t *testing.T) {
			exchange := filepath.Join(qwenDir, name+".exchange.jsonl")
			if _, err := os.Stat(exchange); err != nil {
				t.Skip("no ACP recording")
			}
			if reason, ok := qwenShapeSkip[strings.TrimSuffix(name, "-v2")]; ok {
				t.Skip(reason)
			}
			want := project(t, qwenNativeCase(t, native[name]))
			got := project(t, golden.Case{Input: exchange, Framing: universal.FrameExchange, New: newTranslator("exchange")})
			if got != want {
				t.Errorf("through ACP:\n%s\nnative:\n%s", got, want)
			}
		})
	}
}

// qwenShapeSkip names the scenarios whose ACP and native recordings differ
// in shape by the agent's own doing, with the reason.
var qwenShapeSkip = map[string]string{
	"s05-error": "headless Qwen Code reports the API error also as an assistant text line " +
		`("[API Error: 400 …]") before its error result; through ACP only the error comes`,
	"s07-permission": "through ACP the host rejects the call and Qwen Code ends the turn; headless, Qwen Code " +
		"declines the call itself, gives the model the error result and the model answers once more",
}
