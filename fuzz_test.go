package agentnorm_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
)

// FuzzOpen pushes whole files through the entry point: for every agent,
// Open with detection (and one format named, picked by the input's
// length), then Events. The promise: no panic, an error that says the
// format is undetected or a valid stream that consumes every byte.
// Each input runs every translator, so minimizing one is slow: fuzz with
// -fuzzminimizetime 1x.
func FuzzOpen(f *testing.F) {
	for _, base := range hostileBases {
		data, err := os.ReadFile(base.path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 8<<10)])
	}
	for _, g := range garbage {
		f.Add(g[:min(len(g), 8<<10)])
	}
	// JSON printed for people: values over several lines, an array of them.
	f.Add([]byte("{\n  \"type\": \"system\",\n  \"subtype\": \"init\",\n  \"session_id\": \"s\"\n}\n[\n  {\n    \"type\": \"result\",\n    \"subtype\": \"success\"\n  },\n  {\"type\":\"x\"},\n]\n{\n"))
	agents := agentnorm.Agents()
	var formats [][2]string
	for _, a := range agents {
		for _, fm := range a.Formats {
			formats = append(formats, [2]string{a.Name, fm.Name})
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pick := formats[len(data)%len(formats)]
		for _, a := range agents {
			fuzzOpen(t, data, a.Name, "")
		}
		fuzzOpen(t, data, pick[0], pick[1])
	})
}

func fuzzOpen(t *testing.T, data []byte, agent, format string) {
	s, err := agentnorm.Open(bytes.NewReader(data), agent, agentnorm.Options{Format: format, MaxMessage: 4 << 10})
	if err != nil {
		if format != "" || !errors.Is(err, agentnorm.ErrUndetected) {
			t.Fatalf("%s %q: %v", agent, format, err)
		}
		return
	}
	var evs []universal.Event
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatalf("%s %s: %v", agent, s.Format().Name, err)
		}
		evs = append(evs, ev)
	}
	if err := universal.CheckStream(evs); err != nil {
		t.Fatalf("%s %s: %v", agent, s.Format().Name, err)
	}
	if got := s.Position().Offset; got != int64(len(data)) {
		t.Fatalf("%s %s: consumed %d bytes of %d", agent, s.Format().Name, got, len(data))
	}
}
