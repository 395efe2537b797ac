package corpus_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCleanJSON checks the promise every translator of the module makes
// (universal.Stream.PromiseCleanJSON): each raw JSON value of its events is
// clean, so that the encoder and reduce copy it without checking. It runs
// every recorded input (crosscheck recordings with -tags long only) as
// recorded, and again with a space after every ',', ':', '{' and '[' of
// each message, which no recording has: a translator that copies a
// native value without compacting it breaks the promise there. The spaced
// input must also translate to the same events (unparsed payload hashes
// aside, which hash the bytes as given).
func TestCleanJSON(t *testing.T) {
	n := 0
	err := corpus.Walk("../../testdata", func(in corpus.Input) error {
		if in.Crosscheck() && !wholeCorpus {
			return nil
		}
		n++
		msgs := framed(in)
		plain := translate(t, in, msgs, false)
		spaced := translate(t, in, msgs, true)
		if len(plain) != len(spaced) {
			t.Errorf("%s: %d events, %d with spaces", in.Rel, len(plain), len(spaced))
			return nil
		}
		for i := range plain {
			a, b := encode(&plain[i]), encode(&spaced[i])
			if !bytes.Equal(a, b) {
				t.Errorf("%s: event %d differs with spaces:\n%s\n%s", in.Rel, i+1, a, b)
				return nil
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no inputs")
	}
}

// framed returns the messages of an input as its framing reads them, each
// with data of its own.
func framed(in corpus.Input) []universal.Message {
	var msgs []universal.Message
	for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(in.Data), in.Format.Framing, 0)) {
		if err != nil {
			break
		}
		m.Data = bytes.Clone(m.Data)
		msgs = append(msgs, m)
	}
	return msgs
}

// translate runs msgs through a fresh translator of the input's agent and
// format, spaced or not, and checks every event.
func translate(t *testing.T, in corpus.Input, msgs []universal.Message, spaced bool) []universal.Event {
	t.Helper()
	tr, err := in.Agent.New(in.Format.Name, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for _, m := range msgs {
		if spaced && json.Valid(m.Data) {
			m.Data = space(m.Data)
		}
		evs = tr.Translate(evs, m)
	}
	evs = tr.Report(evs, universal.EndOfInput{})
	c := universal.NewChecker()
	for i := range evs {
		if !evs[i].CleanJSON {
			t.Fatalf("%s: event %d not marked CleanJSON", in.Rel, i+1)
		}
		if err := c.Check(&evs[i]); errors.Is(err, universal.ErrNotClean) {
			t.Errorf("%s (spaced %v): %v", in.Rel, spaced, err)
		}
	}
	return evs
}

// space inserts a space after every ',', ':', '{' and '[' of b outside
// JSON strings.
func space(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/4)
	in, esc := false, false
	for _, c := range b {
		out = append(out, c)
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ',' || c == ':' || c == '{' || c == '['):
			out = append(out, ' ')
		}
	}
	return out
}

// encode is the event's JSON with an unparsed payload's hash left out.
func encode(ev *universal.Event) []byte {
	if u, ok := ev.Data.(*universal.Unparsed); ok {
		c := *u
		c.RawHash = ""
		e := *ev
		e.Data = &c
		return e.AppendJSON(nil)
	}
	return ev.AppendJSON(nil)
}
