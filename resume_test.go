package agentnorm_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/internal/corpus"
	"github.com/agentnorm/agentnorm/universal"
)

// TestResumeAtOffset stops reading every recorded input after a few of its
// events that end a message's events (Pending is 0), keeps the session's
// Offset and a Checkpoint taken there, and resumes as a restarted host would: a new session opened on
// the input from that byte, the format named, the checkpoint restored.
// The events of the two sessions, one after the other, must be those of
// a single uninterrupted session.
func TestResumeAtOffset(t *testing.T) {
	n := 0
	err := corpus.Walk("testdata", func(in corpus.Input) error {
		n++
		opts := agentnorm.Options{Format: in.Format.Name, Options: universal.Options{SessionID: "resume"}}
		whole := encodeAll(t, in, opts, in.Data, nil, -1)
		if whole == nil {
			return nil
		}
		// Cut at a few events spread over the session (from the first,
		// a third, half way, near the end, the first after it with
		// nothing pending), not at each one: the corpus is large.
		for _, from := range []int{1, len(whole) / 3, len(whole) / 2, len(whole) - 2} {
			cut := boundary(t, in, opts, from)
			if cut < 1 || cut >= len(whole) {
				continue
			}
			var cp []byte
			var pos universal.Position
			first := encodeAll(t, in, opts, in.Data, func(s *agentnorm.Session) {
				var err error
				if cp, err = s.Translator().Checkpoint(); err != nil {
					t.Fatalf("%s: checkpoint: %v", in.Rel, err)
				}
				pos = s.Position()
			}, cut)
			offset := pos.Offset
			if offset < 0 || offset > int64(len(in.Data)) {
				t.Fatalf("%s: offset %d of %d bytes", in.Rel, offset, len(in.Data))
			}
			lines := int64(bytes.Count(in.Data[:offset], []byte("\n")))
			if offset == int64(len(in.Data)) && offset > 0 && in.Data[offset-1] != '\n' {
				lines++ // the last line, without its line end
			}
			if in.Format.Framing != universal.FrameDocument && pos.Line != lines {
				t.Errorf("%s: position %+v: the bytes before it hold %d lines", in.Rel, pos, lines)
			}
			resumed := opts
			resumed.From = pos
			rest := encodeAll(t, in, resumed, in.Data[offset:], func(s *agentnorm.Session) {
				if err := s.Translator().Restore(cp); err != nil {
					t.Fatalf("%s: restore: %v", in.Rel, err)
				}
			}, -1)
			got := append(first, rest...)
			if len(got) != len(whole) {
				t.Errorf("%s: cut after event %d at byte %d: %d events, want %d", in.Rel, cut, offset, len(got), len(whole))
				return nil
			}
			for i := range got {
				if !bytes.Equal(got[i], whole[i]) {
					t.Errorf("%s: cut after event %d at byte %d: event %d is\n%s\nwant\n%s", in.Rel, cut, offset, i, got[i], whole[i])
					return nil
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d inputs", n)
	}
}

// encodeAll opens a session on data and returns its events as JSON. With
// at, it calls at on the session once before ranging over Events (cut <
// 0), or after the cut-th event, and then stops there.
func encodeAll(t *testing.T, in corpus.Input, opts agentnorm.Options, data []byte, at func(*agentnorm.Session), cut int) [][]byte {
	t.Helper()
	s, err := agentnorm.Open(bytes.NewReader(data), in.Agent.Name, opts)
	if err != nil {
		t.Fatalf("%s: %v", in.Rel, err)
	}
	if at != nil && cut < 0 {
		at(s)
	}
	var out [][]byte
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatalf("%s: %v", in.Rel, err)
		}
		out = append(out, ev.AppendJSON(nil))
		if len(out) == cut {
			at(s)
			break
		}
	}
	return out
}

// boundary returns the number of the first event from the from-th on after
// which the session has no events pending, or -1.
func boundary(t *testing.T, in corpus.Input, opts agentnorm.Options, from int) int {
	if from < 1 {
		return -1
	}
	s, err := agentnorm.Open(bytes.NewReader(in.Data), in.Agent.Name, opts)
	if err != nil {
		t.Fatalf("%s: %v", in.Rel, err)
	}
	n := 0
	for _, err := range s.Events() {
		if err != nil {
			t.Fatalf("%s: %v", in.Rel, err)
		}
		if n++; n >= from && s.Pending() == 0 {
			return n
		}
	}
	return -1
}

// TestRangeAgain: a loop over Events that stops after every event and
// ranges again reads the input as one loop does, ending at the same
// Position, also where the reader holds part of the input between the
// loops (an SSE event with a line that is no SSE field, CR line ends).
// Before, each loop made a reader of its own: the part held was lost and
// the Position fell short (found by review).
func TestRangeAgain(t *testing.T) {
	sse, err := os.ReadFile("testdata/opencode/1.18.33/s01-text.global.sse")
	if err != nil {
		t.Fatal(err)
	}
	noisy := bytes.Replace(sse, []byte("\n\ndata: {\"directory\":\"/home/dev/project\""), []byte("\nnoise\n\ndata: {\"directory\":\"/home/dev/project\""), 1)
	if bytes.Equal(noisy, sse) {
		t.Fatal("no event to make noisy")
	}
	cr := bytes.ReplaceAll(sse, []byte("\n"), []byte("\r"))
	for name, data := range map[string][]byte{"plain": sse, "noisy": noisy, "cr": cr} {
		opts := agentnorm.Options{Format: "sse", Options: universal.Options{SessionID: "again"}}
		run := func(breakEvery bool) ([][]byte, universal.Position) {
			s, err := agentnorm.Open(bytes.NewReader(data), "opencode", opts)
			if err != nil {
				t.Fatal(err)
			}
			var out [][]byte
			for {
				n := 0
				for ev, err := range s.Events() {
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, ev.AppendJSON(nil))
					n++
					if breakEvery {
						break
					}
				}
				if n == 0 || !breakEvery {
					return out, s.Position()
				}
			}
		}
		whole, end := run(false)
		got, end2 := run(true)
		if end.Offset != int64(len(data)) || end2 != end {
			t.Errorf("%s: one loop ends at %+v, a loop per event at %+v, of %d bytes", name, end, end2, len(data))
		}
		if len(got) != len(whole) {
			t.Errorf("%s: %d events in a loop per event, %d in one", name, len(got), len(whole))
			continue
		}
		for i := range got {
			if !bytes.Equal(got[i], whole[i]) {
				t.Errorf("%s: event %d is\n%s\nwant\n%s", name, i, got[i], whole[i])
				break
			}
		}
	}
}
