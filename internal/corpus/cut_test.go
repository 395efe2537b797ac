package corpus_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"testing"

	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCutMessages: a recorded message cut short by its last byte (a
// writer killed mid-line, a read that stopped early) is no longer JSON,
// and every translator must say so with an agent.unparsed event for that
// message, never translate what it can read of it or drop it silently.
// A message before the session has started is reported once it starts
// (the stream holds it so that the session keeps the metadata of the
// agent's first message): here, at the latest when the input ends.
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
			got := tr.Report(tr.Translate(nil, m), universal.EndOfInput{})
			at := regexp.MustCompile(`\bline ` + strconv.FormatInt(m.Line, 10) + `\b`)
			for _, e := range got {
				found = found || e.Type == universal.TypeUnparsed && at.MatchString(e.Data.(*universal.Unparsed).Location)
			}
			if !found {
				t.Errorf("%s: message %d cut to %d of its %d bytes made no agent.unparsed at its line", in.Rel, cut+1, len(m.Data), len(d))
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
