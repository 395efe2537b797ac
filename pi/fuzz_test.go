package pi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// FuzzTranslate checks golden.FuzzProperty on arbitrary input in every
// format: no panic; the output is a well-formed stream after EndOfInput;
// the translator never makes a call its Stream refuses (an agent.unparsed
// at "pi: translator"); and a checkpoint and restore gives the same
// output as one run. The low 7 bits of mode pick the format; bit 7 hands
// every third message over as host input (Dir In).
func FuzzTranslate(f *testing.F) {
	for _, c := range append(append(recorded(f), public()...), handwritten()...) {
		data := read(f, c.input)
		if len(data) > 256<<10 {
			data = data[:256<<10]
		}
		f.Add(formatIndex(c.format), data)
	}
	f.Add(uint8(0), []byte(`{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"x"`))
	f.Add(uint8(3), []byte(`{"type":"session","version":3,"id":"s"}`+"\n"+`{"type":"message","id":"a","parentId":"b","message":{"role":"user","content":"hi"}}{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[]}}`))
	// Updates before 0.84 whose partial grows by appended text (read
	// with the partial remembered, see TestKnownPartial).
	update := func(text string) string {
		p := `{"role":"assistant","content":[{"type":"text","text":"` + text + `"}]}`
		return `{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"d","partial":` + p + `},"message":` + p + "}\n"
	}
	f.Add(uint8(0), []byte(`{"type":"message_start","message":{"role":"assistant","content":[]}}`+"\n"+update("a")+update("ab")+update(`ab\n`)+update(`ab\nc`)))
	// oh-my-pi's rpc: its own events, a frame in chunks, a settle.
	omp := ompStream + `{"type":"goal_updated","goal":{"id":"g","objective":"o","status":"active"}}` + "\n" +
		strings.Join(ompChunks("c1", `{"type":"notice","level":"info","message":"`+strings.Repeat("n", 90)+`"}`, 40), "\n") + "\n" +
		ompReply + `{"type":"prompt_result","id":"p","agentInvoked":true,"status":"completed","sessionSettled":true}` + "\n" + `{"type":"session_settled"}` + "\n"
	f.Add(formatIndex(pi.FormatRPC), []byte(omp))
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		fm := pi.Formats()[int(mode&0x7f)%len(pi.Formats())]
		var in func(int) bool
		if mode&0x80 != 0 {
			in = func(n int) bool { return n%3 == 2 }
		}
		reads := backToBack
		if fm.Name != pi.FormatSession {
			reads = func(msg []byte) bool { return backToBack(msg) || longUpdate(msg) }
		}
		golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(fm.Name), Framing: fm.Framing, Reports: []universal.Report{universal.Prompt{Text: "a prompt"}}, In: in, Reads: reads}, data)
	})
}

func formatIndex(name string) uint8 {
	for i, f := range pi.Formats() {
		if f.Name == name {
			return uint8(i)
		}
	}
	return 0
}

// longUpdate reports whether a line is a message_update of more than 16
// KiB, which the translator reads without validating it whole (only the
// fields it reads are checked; the rest repeats the partial message: see
// the package doc), so a corrupt repeat is not reported.
func longUpdate(msg []byte) bool {
	msg = bytes.TrimSpace(msg) // as the translator trims a line
	return len(msg) > 16<<10 && msg[0] == '{' && gjson.GetBytes(msg, "type").Str == "message_update"
}

// backToBack reports whether msg is several JSON values written back to
// back on one line, which real Pi session files have and the translator
// reads as its values.
func backToBack(msg []byte) bool {
	d := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(msg)))
	n := 0
	for {
		var v json.RawMessage
		if err := d.Decode(&v); err == io.EOF {
			return n >= 2
		} else if err != nil {
			return false
		}
		n++
	}
}
