package amp_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// recorded holds the captures of Amp 0.0.1790142911: the real CLI's
// stream-json stdout, run offline against a scripted imitation of the Amp
// server (provenance in testdata/SOURCES.md and each .meta.json).
const recorded = "../testdata/amp/0.0.1790142911"

// recordedCase is one golden run of a recorded capture.
type recordedCase struct {
	name string
	c    golden.Case
	// amp is what the capture's expect block cannot say, written from
	// reading the capture (zero: nothing more).
	amp ampExpect
}

// recordedAmp are the Amp-specific expectations of the recorded captures,
// as amp_expect blocks (see ampExpect), kept here so the .meta.json files
// stay as the capture lab wrote them.
var recordedAmp = map[string]string{
	"s01-text":          `{"user_messages": 1, "usage_calls": 1, "session_end": "completed"}`,
	"s01-text-thinking": `{"user_messages": 1, "usage_calls": 1, "session_end": "completed", "reasoning": ["The user wants a greeting. I will answer briefly."]}`,
	"s02-tool":          `{"user_messages": 1, "usage_calls": 2, "session_end": "completed", "exit_codes": {"TU-RPsStxgdAMzKf9xCvIrzul": 0}}`,
	"s02-tool-thinking": `{"user_messages": 1, "usage_calls": 2, "session_end": "completed", "exit_codes": {"TU-5skDH7sWjbCFK1q8piGk5h": 0},
		"reasoning": ["I should run the command to show it works.", ""]}`,
	"s03-multitool": `{"user_messages": 1, "usage_calls": 3, "session_end": "completed", "exit_codes": {"TU-pzrpquttFTqmRscHWUXyDl": 1},
		"file_refs": [{"path": "/home/dev/project/notes.md", "action": "write"}, {"path": "/home/dev/project/notes.md", "action": "patch"}]}`,
	"s05-error":              `{"user_messages": 1, "usage_calls": 0, "session_end": "error"}`,
	"s06-multiturn-continue": `{"user_messages": 1, "usage_calls": 1, "session_end": "completed"}`,
	"s06-multiturn-stdin":    `{"user_messages": 2, "usage_calls": 3, "session_end": "completed", "exit_codes": {"TU-Tcd69spvwNY3w8ZdwlfOFY": 0}}`,
	"s07-permission": `{"user_messages": 1, "usage_calls": 2, "session_end": "completed",
		"denials": [{"action": "shell_command", "call_id": "TU-wklsH2t5j9WuiWN7C6bq4g", "source": "policy"}]}`,
	"s08-bigoutput":              `{"user_messages": 1, "usage_calls": 2, "session_end": "completed", "exit_codes": {"TU-rDpNKPkQZ39Gm8eMi0S7DS": 0}}`,
	"s09-unicode":                `{"user_messages": 1, "usage_calls": 1, "session_end": "completed"}`,
	"s10-subagent":               `{"user_messages": 1, "usage_calls": 2, "session_end": "completed"}`,
	"s11-thinking-only":          `{"user_messages": 1, "usage_calls": 2, "session_end": "completed", "reasoning": []}`,
	"s11-thinking-only-thinking": `{"user_messages": 1, "usage_calls": 2, "session_end": "completed", "reasoning": ["Let me think about this before answering."]}`,
	// The second run of s06-multiturn-continue (amp threads continue), alone
	// and after the first run as one session.
	"s06-multiturn-continue.2":      `{"user_messages": 1, "usage_calls": 2, "session_end": "completed", "exit_codes": {"TU-Z0ASZijuWIR8jngdFDCYLa": 0}}`,
	"s06-multiturn-continue.joined": `{"user_messages": 2, "usage_calls": 3, "session_end": "completed", "exit_codes": {"TU-Z0ASZijuWIR8jngdFDCYLa": 0}}`,
}

// continueExpect is the expect block of the two runs of
// s06-multiturn-continue read as one session (the capture's meta describes
// the first run only).
const continueExpect = `{"expect": {
	"final_text": "Second answer: the command printed second-turn.",
	"user_text_contains": ["what is 2+2?", "now run echo second-turn"],
	"assistant_text_contains": ["First answer: 2 + 2 = 4."],
	"tools": [{"name": "shell_command", "arguments_contains": "echo second-turn", "output_contains": "second-turn\n", "is_error": false}],
	"error": false, "permission": false, "interrupted": false, "turns": 2}}`

// continue2Expect is the expect block of the second run alone.
const continue2Expect = `{"expect": {
	"final_text": "Second answer: the command printed second-turn.",
	"user_text_contains": ["now run echo second-turn"],
	"tools": [{"name": "shell_command", "arguments_contains": "echo second-turn", "output_contains": "second-turn\n", "is_error": false}],
	"error": false, "permission": false, "interrupted": false, "turns": 1}}`

// recordedCases returns a case for every recorded capture's stdout (no
// prompt reports: Amp echoes its prompt as the first user line), for the
// second run of s06-multiturn-continue alone, and for both of its runs
// read as one session, as the normalize command reads several files.
func recordedCases(t *testing.T) []recordedCase {
	t.Helper()
	metas, err := filepath.Glob(filepath.Join(recorded, "*.meta.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no captures in %s: %v", recorded, err)
	}
	var cases []recordedCase
	add := func(name, input, goldenPath, meta string) {
		var ax ampExpect
		src, ok := recordedAmp[name]
		if !ok {
			t.Fatalf("%s: no amp expectations in recordedAmp", name)
		}
		if err := json.Unmarshal([]byte(src), &ax); err != nil {
			t.Fatalf("%s: amp expectations: %v", name, err)
		}
		cases = append(cases, recordedCase{name, golden.Case{
			Input: input, Golden: goldenPath, Meta: meta, Format: amp.FormatStreamJSON,
			Framing: golden.Lines, New: newFor(amp.FormatStreamJSON),
		}, ax})
	}
	for _, meta := range metas {
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		add(name, filepath.Join(recorded, name+".jsonl"), "", meta)
	}
	dir := t.TempDir()
	first := filepath.Join(recorded, "s06-multiturn-continue.jsonl")
	second := filepath.Join(recorded, "s06-multiturn-continue.2.jsonl")
	add("s06-multiturn-continue.2", second, "", writeTemp(t, dir, "continue2.meta.json", []byte(continue2Expect)))
	add("s06-multiturn-continue.joined", writeTemp(t, dir, "joined.jsonl", joinFiles(t, first, second)),
		filepath.Join(recorded, "s06-multiturn-continue.joined.golden.ndjson"),
		writeTemp(t, dir, "joined.meta.json", []byte(continueExpect)))
	return cases
}

// joinFiles returns the files one after the other, each ending with a
// newline.
func joinFiles(t *testing.T, files ...string) []byte {
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
	return all
}

func writeTemp(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRecordedCaptures runs every recorded capture through the golden
// harness (golden stream and state, stream checker, canonical shape,
// chunking, checkpoint/restore, raw, cuts, the expect block), then checks
// its Amp-specific expectations.
func TestRecordedCaptures(t *testing.T) {
	cases := recordedCases(t)
	// 14 captures, the second run of s06-multiturn-continue, both runs.
	if want := 14 + 2; len(cases) != want {
		t.Errorf("%d recorded cases, want %d", len(cases), want)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			golden.Run(t, c.c)
			input, err := os.ReadFile(c.c.Input)
			if err != nil {
				t.Fatal(err)
			}
			events, err := c.c.Translate(input, golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checkAmp(t, c.amp, events)
		})
	}
}

// TestRecordedDetect checks format detection on every recorded capture.
func TestRecordedDetect(t *testing.T) {
	for _, c := range recordedCases(t) {
		b, err := os.ReadFile(c.c.Input)
		if err != nil {
			t.Fatal(err)
		}
		if got := amp.Detect(b[:min(len(b), 64<<10)]); got != amp.FormatStreamJSON {
			t.Errorf("%s: Detect = %q, want %q", c.name, got, amp.FormatStreamJSON)
		}
	}
}

// TestRecordedPromptsNotDuplicated: a host that reports the prompts it sent
// (on the command line or on stdin) gets the same events as one that does
// not: Amp echoes every prompt, and the echo is the user message.
func TestRecordedPromptsNotDuplicated(t *testing.T) {
	for _, c := range recordedCases(t) {
		t.Run(c.name, func(t *testing.T) {
			exp, err := golden.LoadExpect(c.c.Meta, c.c.Format)
			if err != nil {
				t.Fatal(err)
			}
			input, err := os.ReadFile(c.c.Input)
			if err != nil {
				t.Fatal(err)
			}
			with := c.c
			for _, p := range exp.UserTextContains {
				with.Reports = append(with.Reports, universal.Prompt{Text: p})
			}
			a, err := with.Translate(input, golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			b, err := c.c.Translate(input, golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(golden.Encode(a), golden.Encode(b)) {
				t.Errorf("reported prompts changed the output")
			}
		})
	}
}
