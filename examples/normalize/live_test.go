package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer that one goroutine writes while another
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLiveInput: piped the output of an agent that is still running, the
// command detects the format from the first line and writes the events of
// each line as it arrives (the next line half read too), not when the
// input ends.
func TestLiveInput(t *testing.T) {
	data, err := os.ReadFile("../../testdata/claude/2.1.330/s01-text.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	pr, pw := io.Pipe()
	var out, errOut syncBuffer
	done := make(chan error, 1)
	go func() { done <- run([]string{"-agent", "claude"}, pr, &out, &errOut) }()
	// system/init (the session starts) and half the next line, as a pipe
	// chunk may end.
	half := len(lines[1]) / 2
	if _, err := pw.Write(append(append([]byte{}, lines[0]...), lines[1][:half]...)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), `"session.started"`); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("nothing written after the first line; stderr %q", errOut.String())
		}
	}
	if _, err := pw.Write(lines[1][half:]); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines[2:] {
		if _, err := pw.Write(l); err != nil {
			t.Fatal(err)
		}
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"session.ended"`) {
		t.Errorf("no session.ended in %s", out.String())
	}
}
