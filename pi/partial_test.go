package pi

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// partialLine is a text delta of Pi before 0.84 whose partial message
// holds text, raw JSON string content (the delta's text is left as it
// is: update reads it the same either way).
func partialLine(text string) []byte { return deltaLine("d", text) }

// deltaLine is partialLine with the delta's text, raw JSON string
// content, too.
func deltaLine(delta, text string) []byte {
	p := `{"role":"assistant","content":[{"type":"text","text":"` + text + `"}],"stopReason":"stop"}`
	return []byte(`{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"` + delta + `","partial":` +
		p + `},"message":` + p + `}`)
}

// translateLines translates lines, with the remembered partial (see
// knownPartial) or with it forgotten before every line, and returns the
// events encoded and how many lines were read with it.
func translateLines(t *testing.T, lines [][]byte, remember bool) (string, int) {
	tr, err := New(FormatJSON, universal.Options{SessionID: "s", IncludeRaw: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	var evs []universal.Event
	known, last := 0, -1
	for i, l := range lines {
		if !remember {
			tr.known = tr.known[:0]
		}
		evs = tr.Translate(evs[:0], universal.Message{Data: l, Line: int64(i + 1), TimeMS: int64(i)})
		if bytes.HasSuffix(tr.short, []byte(`"partial":0}}`)) && tr.deltaAt != last {
			known++
		}
		last = tr.deltaAt
		for j := range evs {
			out = append(evs[j].AppendJSON(out), '\n')
		}
	}
	for _, e := range tr.Report(nil, universal.EndOfInput{}) {
		out = append(e.AppendJSON(out), '\n')
	}
	return string(out), known
}

// TestKnownPartial: a line read with the partial it repeats left out,
// because that partial is the one of the line before with text appended,
// translates to what reading it whole gives, for recorded streams and for
// appended text that is not plain (escapes, other characters, bytes that
// are not UTF-8 or not allowed in a JSON string).
func TestKnownPartial(t *testing.T) {
	start := [][]byte{
		[]byte(`{"type":"agent_start"}`),
		[]byte(`{"type":"message_start","message":{"role":"assistant","content":[]}}`),
	}
	cases := map[string][][]byte{}
	for _, add := range []string{
		"plain words", "é ü 日本", `\n`, `\"`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, "\x01", "\xff", "\xc3", `"`, "\x7f", "",
	} {
		cases["appended "+strconv.Quote(add)] = append(start[:2:2],
			partialLine("Hello"), partialLine("Hello"+add), partialLine("Hello"+add+" again"))
	}
	for _, text := range []string{`\ud83d\ude00`, `\ud83d`, `\n`, "\xff"} {
		cases["after "+strconv.Quote(text)] = append(start[:2:2],
			partialLine(text), partialLine(text+"more"), partialLine(text+"more text"))
	}
	// The partial of a line after one read so is found after its delta
	// (partialAfterDelta): deltas with escaped quotes and backslashes,
	// one whose text looks like the key, one that is not a string.
	var deltas [][]byte
	text := "Hello"
	for _, d := range []string{`a`, `\"`, `\\`, `x\",\"partial\":1`, `\\\"`, `end\\`, `"partial":`, ``, `b`, `c", "d":"`, `e`} {
		text += " w"
		deltas = append(deltas, deltaLine(d, text))
	}
	cases["deltas"] = append(start[:2:2], deltas...)
	cases["changed before the end"] = append(start[:2:2],
		partialLine("Hello"), partialLine("Hxllo"), partialLine("Hxlloy"))
	files, _ := filepath.Glob("../testdata/pi/0.73.1/*.jsonl")
	more, _ := filepath.Glob("../testdata/crosscheck/pi/0.70.6/*.json*.jsonl")
	for _, f := range append(files, more...) {
		if filepath.Ext(filepath.Base(f[:len(f)-len(".jsonl")])) == ".session" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[f] = bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	}
	used := 0
	for name, lines := range cases {
		got, known := translateLines(t, lines, true)
		want, _ := translateLines(t, lines, false)
		if got != want {
			t.Errorf("%s: with the remembered partial\n%s\nwant\n%s", name, got, want)
		}
		used += known
	}
	if used == 0 {
		t.Error("no line was read with its remembered partial")
	}
}
