package jsonscan

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestRelease: a released scanner scans as a new one (the same index and
// values), a mark of its last scan no longer applies, and a scanner that
// starts after a release takes the released index instead of making one.
func TestRelease(t *testing.T) {
	first := []byte(`{"type":"delta","text":"hello","n":1}`)
	second := []byte(`{"type":"delta","text":"world","n":2}`)
	var s, fresh Scanner
	if _, ok := s.ScanClean(first); !ok {
		t.Fatal("first message not valid")
	}
	var m Mark
	if !s.Mark(&m, s.Root().Field("text")) {
		t.Fatal("no mark at the text")
	}
	s.Release()
	if s.members != nil || s.src != "" || s.buf != nil {
		t.Errorf("released scanner keeps its index or message: %d members, src %q", len(s.members), s.src)
	}
	msg, ok := s.ScanCleanFrom(second, &m)
	fresh.ScanClean(second)
	if !ok || string(msg) != string(second) || !slices.Equal(s.members, fresh.members) {
		t.Errorf("after release: %q %v, index %v; want %q true, index %v", msg, ok, s.members, second, fresh.members)
	}
	if got := s.Root().Field("text").Str(); got != "world" {
		t.Errorf("text %q after release, want world", got)
	}
	// The mark of the released scan must not have been used: a scan from
	// it would have compared the bytes before the text only.
	if m.gen == s.gen {
		t.Error("the mark of the scan before the release applies after it")
	}

	released = sync.Pool{} // only what this test releases
	var a Scanner
	a.Scan(first)
	mem := &a.members[:1][0]
	a.Release()
	var b Scanner
	b.Scan(second)
	if !raceEnabled && &b.members[:1][0] != mem {
		t.Error("a scanner that started after a release made an index of its own")
	}

	// An index grown past what a scanner keeps is not lent.
	released = sync.Pool{}
	var huge Scanner
	if !huge.Scan([]byte("[0"+strings.Repeat(",0", maxKeep+1)+"]")) || cap(huge.members) <= maxKeep {
		t.Fatalf("the huge message did not grow the index past %d: %d", maxKeep, cap(huge.members))
	}
	huge.Release()
	var c Scanner
	c.Scan(first)
	if cap(c.members) > maxKeep {
		t.Errorf("a scanner started with a lent index of %d members, more than it keeps", cap(c.members))
	}
}
