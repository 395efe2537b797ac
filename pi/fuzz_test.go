package pi_test

import (
	"bytes"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// FuzzTranslate feeds arbitrary input in every format. Properties: no
// panic; the output is a well-formed stream after EndOfInput; the
// translator never makes a call its Stream refuses (an agent.unparsed at
// "pi: translator"); and a checkpoint and restore halfway gives the same
// output as one run.
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
	f.Fuzz(func(t *testing.T, format uint8, data []byte) {
		name := pi.Formats[int(format)%len(pi.Formats)].Name
		msgs := split(name, data)
		one := run(t, name, msgs, -1)
		if err := universal.CheckStream(one); err != nil {
			t.Fatalf("stream checker:\n%v", err)
		}
		for _, e := range one {
			if u, ok := e.Data.(*universal.Unparsed); ok && u.Location == "pi: translator" {
				t.Fatalf("the translator made a call its Stream refused: %s", u.Error)
			}
		}
		if len(msgs) > 1 {
			two := run(t, name, msgs, len(msgs)/2)
			if !bytes.Equal(golden.Encode(one), golden.Encode(two)) {
				t.Fatalf("checkpoint after message %d changes the output", len(msgs)/2)
			}
		}
	})
}

func formatIndex(name string) uint8 {
	for i, f := range pi.Formats {
		if f.Name == name {
			return uint8(i)
		}
	}
	return 0
}

// split frames the input, copying every message.
func split(format string, data []byte) []universal.Message {
	var msgs []universal.Message
	rd := universal.NewReader(bytes.NewReader(data), framing(format), 1<<20)
	for m, err := range universal.Messages(rd) {
		if err != nil {
			break
		}
		m.Data = bytes.Clone(m.Data)
		msgs = append(msgs, m)
	}
	return msgs
}

// run translates msgs, checkpointing and restoring into a new translator
// after message at (none when at < 0).
func run(t *testing.T, format string, msgs []universal.Message, at int) []universal.Event {
	tr, err := pi.New(format, universal.Options{IncludeRaw: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	out = tr.Report(out, universal.Prompt{Text: "a prompt"})
	for i, m := range msgs {
		out = tr.Translate(out, m)
		if i == at {
			state, err := tr.Checkpoint()
			if err != nil {
				t.Fatal(err)
			}
			tr, _ = pi.New(format, universal.Options{IncludeRaw: true})
			if err := tr.Restore(state); err != nil {
				t.Fatal(err)
			}
		}
	}
	return tr.Report(out, universal.EndOfInput{})
}
