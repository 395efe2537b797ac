package codex_test

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// TestDetectSessionMetaNoTimestamp: a rollout whose session_meta line has
// no timestamp (other programs' copies of a rollout write it so; a line
// whose members come in another order, cut in its payload's system
// prompt, has not reached it) was undetected: session_meta is Codex's
// own type, and with an object payload it tells a rollout.
func TestDetectSessionMetaNoTimestamp(t *testing.T) {
	const path = "../testdata/codex/0.169.0/s02-tool.session/exec/rollout-2026-11-21T12-08-25-01a1fe01-fc14-7242-89c7-7f23dd46d8cf.jsonl"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(b, []byte{'\n'})
	// The first line with its envelope's timestamp left out.
	bare := regexp.MustCompile(`^\{"timestamp":"[^"]*",`).ReplaceAll(first, []byte("{"))
	if bytes.Equal(bare, first) {
		t.Fatal("the sample's first line does not start with its timestamp")
	}
	for _, line := range [][]byte{bare, []byte(`{"type":"session_meta","payload":{"id":"0a1b0000-0000-4000-8000-000000000001","cwd":"/w","originator":"codex_cli_rs"}}`)} {
		if got := codex.Detect(line); got != codex.FormatRollout {
			t.Errorf("Detect(session_meta without timestamp) = %q, want %q", got, codex.FormatRollout)
		}
	}
	// Its timestamp last, the head cut in the payload.
	moved := append(bytes.Clone(bytes.TrimSuffix(bare, []byte("}"))), `,"timestamp":"2026-11-21T12:08:25.387Z"}`...)
	if got := codex.Detect(moved[:4096]); got != codex.FormatRollout {
		t.Errorf("Detect(head cut before the timestamp) = %q, want %q", got, codex.FormatRollout)
	}
	in := append(append(bytes.Clone(bare), '\n'), rest...)
	s, err := agentnorm.Open(bytes.NewReader(in), "codex", agentnorm.Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	n := 0
	for e, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if e.Type == universal.TypeUnparsed {
			t.Errorf("agent.unparsed: %v", e.Data)
		}
		n++
	}
	if n < 10 {
		t.Errorf("%d events, want the whole rollout's", n)
	}
	// Not a rollout: another type without a timestamp, a session_meta
	// without a payload.
	for _, line := range []string{
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[]}}`,
		`{"type":"session_meta","id":"x"}`,
	} {
		if got := codex.Detect([]byte(line)); got == codex.FormatRollout {
			t.Errorf("Detect(%s) = %q", line, got)
		}
	}
}
