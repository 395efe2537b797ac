package corpus_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCutMessages: a recorded message cut short by its last byte (a
// writer killed mid-line, a read that stopped early) is no longer JSON,
// and every translator must say so with an agent.unparsed event for that
// message, never translate what it can read of it or drop it silently.
// For each recorded input (crosscheck recordings with -tags long only),
// up to 8 of its messages, spread over it, are each cut in turn, to all but
// their last byte or to their first half.
func TestCutMessages(t *testing.T) {
	n := 0
	err := corpus.Walk("../../testdata", func(in corpus.Input) error {
		if in.Crosscheck() && !wholeCorpus {
			return nil
		}
		msgs := framed(in)
		step := max(len(msgs)/8, 1)
		for cut := 0; cut < len(msgs); cut += step {
			d := bytes.TrimSpace(msgs[cut].Data)
			if len(d) < 2 || d[len(d)-1] != '}' || !json.Valid(d) {
				continue
			}
			n++
			tr, err := in.Agent.New(in.Format.Name, universal.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var evs []universal.Event
			for i := 0; i < cut; i++ {
				evs = tr.Translate(evs, msgs[i])
			}
			// Odd messages lose their last byte, even ones their second half.
			m := msgs[cut]
			m.Data = d[:len(d)-1]
			if cut%2 == 0 {
				m.Data = d[:len(d)/2]
			}
			found := false
			for _, e := range tr.Translate(nil, m) {
				found = found || e.Type == universal.TypeUnparsed
			}
			if !found {
				t.Errorf("%s: message %d cut to %d of its %d bytes made no agent.unparsed", in.Rel, cut+1, len(m.Data), len(d))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no messages cut")
	}
	t.Logf("%d messages cut", n)
}
