package universal

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNDJSONWriterRoundTrip(t *testing.T) {
	evs := validStream()
	var buf bytes.Buffer
	w := NewNDJSONWriter(&buf)
	for i := range evs {
		if err := w.Write(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != len(evs) {
		t.Fatalf("%d lines for %d events", n, len(evs))
	}
	r := NewEventReader(&buf)
	for i := range evs {
		got, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(evs[i].AppendJSON(nil)), string(got.AppendJSON(nil))); diff != "" {
			t.Errorf("event %d (-wrote +read):\n%s", i, diff)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last event: %v", err)
	}
}

func TestSSEWriterRoundTrip(t *testing.T) {
	evs := validStream()
	var buf bytes.Buffer
	w := NewSSEWriter(&buf)
	w.Comment("heartbeat\nwith a newline")
	for i := range evs {
		if err := w.Write(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	r := NewSSEReader(&buf, 0)
	for i := range evs {
		m, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if m.ID != strconv.FormatInt(evs[i].Sequence, 10) {
			t.Errorf("event %d: id %q, want the sequence %d", i, m.ID, evs[i].Sequence)
		}
		if got, want := string(m.Data), string(evs[i].AppendJSON(nil)); got != want {
			t.Errorf("event %d: data %s, want %s", i, got, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last event: %v", err)
	}
}
