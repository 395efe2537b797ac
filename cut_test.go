package agentnorm

import (
	"strings"
	"testing"
	"time"
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
	// Linear however deep: the objects open at the cut are closed once.
	deep := []byte(strings.Repeat(`{"a":[`, 200000) + `"x`)
	start := time.Now()
	if got := closeCut(deep); len(got) != len(deep)+1+2*200000 {
		t.Errorf("deep: %d bytes", len(got))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("deep: %v", d)
	}
}
