package agentnorm

import (
	"fmt"
	"strings"
	"testing"
)

func TestCloseCut(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"type":"user","message":{"content":"abc`, `{"type":"user","message":{"content":"abc"}}`},
		{`{"type":"user","message":{"content":"a\`, `{"type":"user","message":{"content":"a"}}`},
		{`{"type":"user","message":{"content":"a\u00`, `{"type":"user","message":{"content":"a"}}`},
		{`{"type":"user","message":{"content":"a\u00e9`, `{"type":"user","message":{"content":"a\u00e9"}}`},
		{`{"type":"user","message":{"content":"a\"b`, `{"type":"user","message":{"content":"a\"b"}}`},
		{`{"type":"user","message":{"cont`, `{"type":"user","message":{}}`},
		{`{"type":"user","message":{"content"`, `{"type":"user","message":{}}`},
		{`{"type":"user","message":{"content":`, `{"type":"user","message":{}}`},
		{`{"type":"user","n":12`, `{"type":"user"}`},
		{`{"type":"user","n":12,`, `{"type":"user","n":12}`},
		{`{"type":"user","ok":tr`, `{"type":"user"}`},
		{`{"type":"user","a":[1,"x",{"b":null}, [tru`, `{"type":"user","a":[1,"x",{"b":null}, []]}`},
		{`[{"type":"user"},{"type":"ass`, `[{"type":"user"},{"type":"ass"}]`}, {`[{"type":"user"},{"ty`, `[{"type":"user"},{}]`},
		{`{"type":"user"}`, ``},        // whole: not cut
		{`{"type":"user"}{"a":`, ``},   // two values
		{`{"type":"user"]`, ``},        // mismatched
		{`{"type":"user"}}`, ``},       // closes more than it opens
		{`{"type":"user",,"a":"b`, ``}, // not JSON before the cut
		{`{"type":"user" "a":"b`, ``},  // not JSON before the cut
	} {
		if got := string(closeCut([]byte(c.in))); got != c.want {
			t.Errorf("closeCut(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	// However deep, the objects open at the cut are closed once each
	// (BenchmarkCloseCutDeep shows the time stays linear: a time cannot
	// be asserted on a shared machine).
	deep := []byte(strings.Repeat(`{"a":[`, 200000) + `"x`)
	if got := closeCut(deep); len(got) != len(deep)+1+2*200000 {
		t.Errorf("deep: %d bytes", len(got))
	}
}

// BenchmarkCloseCutDeep closes values cut at depth n and 4n side by side:
// the cost a byte is the same at both when the work is linear, four times
// higher at 4n when each close looks again at what came before.
func BenchmarkCloseCutDeep(b *testing.B) {
	for _, n := range []int{50000, 200000} {
		deep := []byte(strings.Repeat(`{"a":[`, n) + `"x`)
		b.Run(fmt.Sprint("depth=", n), func(b *testing.B) {
			b.SetBytes(int64(len(deep)))
			b.ReportAllocs()
			for b.Loop() {
				closeCut(deep)
			}
		})
	}
}
