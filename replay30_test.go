package agentnorm_test

import (
	"os"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
)

// TestOpenReplayTranscripts: Open detects hosts' provider replay
// transcripts (T3 Code's, real recordings) of the agents whose frames
// they record, past the transcript_start header, and translates them
// without loss. Claude's was undetected before the replay30 round.
func TestOpenReplayTranscripts(t *testing.T) {
	for _, c := range []struct{ agent, file string }{
		{"claude", "testdata/claude/public/t3code__command_output_streaming.exchange.jsonl"},
		{"codex", "testdata/codex/public/app-server/t3code-0.157.0-command-output-streaming.exchange.jsonl"},
	} {
		f, err := os.Open(c.file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := agentnorm.Open(f, c.agent, agentnorm.Options{})
		if err != nil {
			t.Errorf("%s: %v", c.agent, err)
			f.Close()
			continue
		}
		if got := s.Format(); got.Name != "exchange" || got.Framing != universal.FrameExchange {
			t.Errorf("%s: format %+v, want exchange", c.agent, got)
		}
		n := 0
		for e, err := range s.Events() {
			if err != nil {
				t.Fatal(err)
			}
			n++
			if e.Type == universal.TypeUnparsed {
				t.Errorf("%s: agent.unparsed: %s", c.agent, e.AppendJSON(nil))
			}
		}
		f.Close()
		if n < 10 {
			t.Errorf("%s: %d events", c.agent, n)
		}
	}
}
