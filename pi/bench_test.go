package pi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// BenchmarkTranslate translates every capture (framing excluded): MB/s of
// native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) {
	var ins []golden.BenchInput
	for _, c := range append(recorded(b), public()...) {
		ins = append(ins, golden.BenchInput{Name: c.name(), New: newTranslator(c.format), Framing: framing(c.format), Data: read(b, c.input)})
	}
	golden.BenchmarkInputs(b, ins)
}

// partialStream writes the assistant message of a pre-0.84 Pi run whose
// text has n characters, streamed in chunks of size: every
// message_update carries the delta and the whole partial message twice
// (assistantMessageEvent.partial and message), as Pi 0.73.1 does. With
// withDelta false the updates carry no delta (only the partials), the
// shape the translator diffs.
func partialStream(n, size int, withDelta bool) (lines [][]byte, text string) {
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteString("The lighthouse keeper climbed the stairs again. ")
	}
	text = sb.String()[:n]
	msg := func(content string, stop string) []byte {
		m, _ := json.Marshal(map[string]any{
			"role": "assistant", "content": []any{map[string]any{"type": "text", "text": content}},
			"api": "openai-completions", "provider": "mock", "model": "mock-model", "stopReason": stop, "timestamp": 1,
		})
		return m
	}
	add := func(s string) { lines = append(lines, []byte(s)) }
	add(`{"type":"agent_start"}`)
	add(`{"type":"turn_start"}`)
	add(`{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"stop","timestamp":1}}`)
	add(`{"type":"message_update","assistantMessageEvent":{"type":"text_start","contentIndex":0,"partial":` + string(msg("", "stop")) + `},"message":` + string(msg("", "stop")) + `}`)
	for start := 0; start < n; start += size {
		end := min(start+size, n)
		d, _ := json.Marshal(text[start:end])
		partial := string(msg(text[:end], "stop"))
		delta := `"delta":` + string(d) + `,`
		if !withDelta {
			delta = ""
		}
		add(`{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,` + delta + `"partial":` + partial + `},"message":` + partial + `}`)
	}
	add(`{"type":"message_end","message":` + string(msg(text, "stop")) + `}`)
	add(`{"type":"turn_end"}`)
	add(`{"type":"agent_end","messages":[]}`)
	return lines, text
}

// TestAccumulatedPartial: the pre-0.84 accumulated partials give each
// character once, with or without delta fields.
func TestAccumulatedPartial(t *testing.T) {
	for _, withDelta := range []bool{true, false} {
		lines, text := partialStream(10_000, 97, withDelta)
		events := translate(t, pi.FormatJSON, append(bytes.Join(lines, []byte("\n")), '\n'))
		var streamed strings.Builder
		for _, e := range golden.OfType(events, universal.TypeItemDelta) {
			d := e.Data.(*universal.ItemDelta)
			if e.Source != universal.SourceAgent {
				t.Errorf("delta=%v: synthetic delta %q", withDelta, d.Delta)
			}
			streamed.WriteString(d.Delta)
		}
		if streamed.String() != text {
			t.Errorf("delta=%v: deltas give %d characters, want the %d of the message once", withDelta, streamed.Len(), len(text))
		}
		items := messages(completed(events), universal.RoleAssistant)
		if len(items) != 1 || items[0].Content[0].Text != text || items[0].Content[0].Rewritten {
			t.Errorf("delta=%v: final item %+v", withDelta, items)
		}
	}
}

// BenchmarkAccumulatedPartial translates one long pre-0.84 message (the
// whole partial repeated on every update, so the input grows with the
// square of the message) of 1k, 10k and 100k characters in 100-character
// deltas. ns/char is the translator's time per character of the message:
// it stays flat (linear work), because only the delta of each line is
// read. The "read" variants include the line reader, which must copy the
// quadratic input; their MB/s (per input byte) stays flat.
func BenchmarkAccumulatedPartial(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		lines, _ := partialStream(n, 100, true)
		size := 0
		for _, l := range lines {
			size += len(l) + 1
		}
		b.Run(fmt.Sprintf("translate/%dk", n/1000), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var events []universal.Event
			for b.Loop() {
				tr, _ := pi.New(pi.FormatJSON, universal.Options{})
				for i, l := range lines {
					events = tr.Translate(events[:0], universal.Message{Data: l, Line: int64(i + 1), TimeMS: -1})
				}
				events = tr.Report(events[:0], universal.EndOfInput{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/char")
		})
		input := append(bytes.Join(lines, []byte("\n")), '\n')
		b.Run(fmt.Sprintf("read+translate/%dk", n/1000), func(b *testing.B) {
			golden.BenchmarkRead(b, golden.BenchInput{New: newTranslator(pi.FormatJSON), Framing: universal.FrameLines, Data: input})
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/char")
		})
	}
}

// TestAccumulatedPartialLinear fails when translating a long pre-0.84
// message costs more per character as the message grows: a quadratic
// translator takes 100 times longer per character at 100k than at 1k
// characters; this allows 4.
func TestAccumulatedPartialLinear(t *testing.T) {
	if testing.Short() || golden.Race {
		t.Skip("timing test")
	}
	perChar := func(n int) float64 {
		lines, _ := partialStream(n, 100, true)
		r := testing.Benchmark(func(b *testing.B) {
			var events []universal.Event
			for b.Loop() {
				tr, _ := pi.New(pi.FormatJSON, universal.Options{})
				for _, l := range lines {
					events = tr.Translate(events[:0], universal.Message{Data: l, TimeMS: -1})
				}
			}
		})
		return float64(r.NsPerOp()) / float64(n)
	}
	small, large := perChar(1_000), perChar(100_000)
	t.Logf("ns/char: %.1f at 1k, %.1f at 100k characters", small, large)
	if large > 4*small {
		t.Errorf("ns/char grows from %.1f to %.1f: not linear", small, large)
	}
}

// deltaLines are a text delta of each stream generation (1.x delta-only,
// 0.73.1 with the partial message).
var deltaLines = []struct{ name, line string }{
	{"1.x", `{"type":"message_update","usage":{"input":1200,"output":30},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"Hello, this is a typical text delta of a few words."}}`},
	{"0.73.1", `{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"Hello, this is a typical text delta.","partial":{"role":"assistant","content":[{"type":"text","text":"Hello, this is a typical text delta."}]}},"message":{"role":"assistant","content":[{"type":"text","text":"Hello, this is a typical text delta."}]}}`},
}

// streaming returns a translator inside a streaming assistant message.
func streaming(t testing.TB) *pi.Translator {
	tr, err := pi.New(pi.FormatJSON, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Translate(nil, universal.Message{Data: []byte(`{"type":"agent_start"}`)})
	tr.Translate(nil, universal.Message{Data: []byte(`{"type":"message_start","message":{"role":"assistant","content":[]}}`)})
	return tr
}

// TestDeltaAllocs: translating a text delta allocates nothing, in both
// stream generations.
func TestDeltaAllocs(t *testing.T) {
	for _, d := range deltaLines {
		t.Run(d.name, func(t *testing.T) {
			golden.CheckDeltaAllocs(t, streaming(t), universal.Message{Data: []byte(d.line)})
		})
	}
}

// BenchmarkTextDelta translates a text delta (the hot path), in both
// stream generations.
func BenchmarkTextDelta(b *testing.B) {
	for _, d := range deltaLines {
		b.Run(d.name, func(b *testing.B) {
			golden.BenchmarkDelta(b, streaming(b), universal.Message{Data: []byte(d.line)})
		})
	}
}
