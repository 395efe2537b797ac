package acp_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// BenchmarkTranslate translates every capture (framing excluded): MB/s of
// native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) {
	var ins []golden.BenchInput
	for _, c := range all(b) {
		ins = append(ins, golden.BenchInput{Name: c.name(), New: newTranslator(c.format), Framing: framing(c.format), Data: read(b, c.input)})
	}
	golden.BenchmarkInputs(b, ins)
}

// deltaSetup returns a translator in the middle of a streamed response
// and an agent_message_chunk of plain text for it (Gemini CLI 0.61.0,
// s01-text, the agent's side).
func deltaSetup(tb testing.TB) (*acp.Translator, universal.Message) {
	tb.Helper()
	t, err := acp.New(acp.FormatAgent, universal.Options{SessionID: "bench"})
	if err != nil {
		tb.Fatal(err)
	}
	lines := bytes.Split(read(tb, filepath.Join(testdata, "gemini-cli", "0.61.0", "s01-text.agent.jsonl")), []byte("\n"))
	var evs []universal.Event
	for i := range 5 { // up to and including the first chunk
		evs = t.Translate(evs[:0], universal.Message{Data: lines[i], Line: int64(i + 1)})
	}
	chunk := lines[5]
	if !bytes.Contains(chunk, []byte(`"agent_message_chunk"`)) || bytes.IndexByte(chunk, '\\') >= 0 {
		tb.Fatalf("line 6 is not a plain text chunk: %s", chunk)
	}
	return t, universal.Message{Data: chunk, Line: 6}
}

// BenchmarkTextDelta is the hot path: one agent_message_chunk line.
func BenchmarkTextDelta(b *testing.B) {
	t, m := deltaSetup(b)
	golden.BenchmarkDelta(b, t, m)
}

// TestTextDeltaAllocs: a plain text chunk allocates nothing (amortized:
// the stamper's arena and slabs grow in large blocks).
func TestTextDeltaAllocs(t *testing.T) {
	tr, m := deltaSetup(t)
	golden.CheckDeltaAllocs(t, tr, m)
}
