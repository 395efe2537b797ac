package jsonscan

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// checkFrom marks each string value of first in turn and scans second
// from the mark (ScanCleanFrom): what it returns, and the index and flags
// it leaves, must be what ScanClean gives. Each mark after the first
// string is tried also with that string's text let vary (MarkVarying).
// It returns the differences.
func checkFrom(first, second []byte) string {
	var s, want Scanner
	wantMsg, wantOK := want.ScanClean(bytes.Clone(second))
	var diff []string
	for k := 0; ; k++ {
		if _, ok := s.ScanClean(bytes.Clone(first)); !ok {
			return ""
		}
		var v, v0 Value
		n := 0
		s.Strings(func(x Value) {
			if n == k/2 {
				v = x
			}
			if n == 0 {
				v0 = x
			}
			n++
		})
		if k/2 >= n {
			break
		}
		var m Mark
		if k%2 == 0 && !s.Mark(&m, v) || k%2 == 1 && !s.MarkVarying(&m, v, v0) {
			continue
		}
		msg, ok := s.ScanCleanFrom(bytes.Clone(second), &m)
		if ok && int(m.cur) < len(s.members) && s.Mark(&m, Value{s: &s, i: int(m.cur)}) {
			// Marked again where it was scanned from: scanned from
			// there once more.
			msg, ok = s.ScanCleanFrom(bytes.Clone(second), &m)
		}
		switch {
		case ok != wantOK || !bytes.Equal(msg, wantMsg):
			diff = append(diff, fmt.Sprintf("mark %d: %q %v, want %q %v", k, msg, ok, wantMsg, wantOK))
		case !ok:
		case !slices.Equal(s.members, want.members) || s.start != want.start || s.Depth() != want.Depth() ||
			s.NonASCII() != want.NonASCII() || s.SurrogateEscapes() != want.SurrogateEscapes() ||
			s.Compact() != want.Compact() || s.utf8 != want.utf8:
			diff = append(diff, fmt.Sprintf("mark %d: index %v depth %d, want %v depth %d", k, s.members, s.Depth(), want.members, want.Depth()))
		}
	}
	if len(diff) > 0 {
		return fmt.Sprint(diff)
	}
	return ""
}

// TestScanCleanFrom: a message scanned from a mark in another with the
// same bytes before it is indexed as when scanned whole, whatever follows
// (the recorded lines, each with the next one's end, and hand-made ones).
func TestScanCleanFrom(t *testing.T) {
	pairs := [][2]string{
		{`{"a":"x","b":1}`, `{"a":"y","b":1}`},
		{`{"a":{"b":[1,{"c":"x"}]},"d":"e"}`, `{"a":{"b":[1,{"c":"yy"},[]]},"d":"e","f":{"g":{}}}`},
		{`["x",{"a":"y"}]`, `["x",{"a":"z\u00e9"}]`},
		{`{"a":"x"}`, `{"a":"\ud800"}`},
		{`{"a":"x"}`, "{\"a\":\"\xff\"}"},
		{`{"a":"x"}`, `{"a":"x" }`},
		{`{"a":"x"}`, `{"a":"x"`},
		{`{"a":"x"}`, `{"a":1}`},
		{`{"a":"x","b":{"c":"d"}}`, `{"a":"x","b":{"c":"d"}}}`},
		{`{"e":{},"a":[[]],"b":"x"}`, `{"e":{},"a":[[]],"b":"x","c":[[[1]]]}`},
		{`{"id":"evt_1","a":"x","b":1}`, `{"id":"evt_2","a":"y","b":1}`},
		{`{"id":"evt_1","a":"x"}`, `{"id":"ev\"1","a":"y"}`},
		{`{"id":"evt_1","a":"x"}`, `{"id":"ev\\1","a":"y"}`},
		{`{"id":"evt_1","a":"x"}`, "{\"id\":\"evt_\xff\",\"a\":\"y\"}"},
		{`{"id":"evt_1","a":"x"}`, "{\"id\":\"evt_\x01\",\"a\":\"y\"}"},
		{`{"id":"evt_1","a":"x"}`, `{"id":"evt_12","a":"x"}`},
		{`{"id":"e\u0041","a":"x"}`, `{"id":"e\u0042","a":"x"}`},
		// The rest after a string the same but for one value, or not.
		{`{"a":"x","id":"u1","t":1}`, `{"a":"yy","id":"u2","t":1}`},
		{`{"a":"x","t":123}`, `{"a":"y","t":124}`},
		{`{"a":"x","t":123}`, `{"a":"y","t":023}`},
		{`{"a":"x","t":123}`, `{"a":"y","t":923}`},
		{`{"a":"x","t":123}`, `{"a":"y","t":1-3}`},
		{`{"a":"x","t":"aa"}`, `{"a":"x","t":"\\"}`},
		{`{"a":"x","t":"aa"}`, `{"a":"x","t":"a"}}`},
		{`{"a":"x","t":"aa"}`, "{\"a\":\"x\",\"t\":\"a\xff\"}"},
		{`{"a":"x","t":"aa"}`, "{\"a\":\"x\",\"t\":\"a\x01\"}"},
		{`{"a":"x","b":[1,{"c":"d"}]}`, `{"a":"yyy","b":[1,{"c":"e"}]}`},
		{`{"a":"x","b":[1,{"c":"d"}]}`, `{"a":"\n","b":[1,{"c":"e"}],"f":[]}`},
		{`{"a":"x","id":1}`, `{"a":"x","ix":1}`},
		{`{"a":"x","t":true}`, `{"a":"x","t":null}`},
		{`{"a":"x","t":1.5}`, `{"a":"x","t":1.6}`},
		{`["x","id1"]`, `["y","id2"]`},
		{`{"e":{"d":{"a":"x"},"n":7},"id":"q"}`, `{"e":{"d":{"a":"\u00e9"},"n":8},"id":"q"}`},
		{`{"a":"x","t":"aa"} `, `{"a":"x","t":"ab"}  `},
		{`{"a":"x","t":"aa"}`, `{"a":"x","t":"aa}}`},
		{`{"a":"x","t":1}`, `{"a":"x","t":1]`},
	}
	for _, p := range pairs {
		if d := checkFrom([]byte(p[0]), []byte(p[1])); d != "" {
			t.Errorf("%s then %s: %s", p[0], p[1], d)
		}
	}
	lines := corpus(t)
	if len(lines) > 300 {
		lines = lines[:300]
	}
	for i := 1; i < len(lines); i++ {
		a, b := lines[i-1], lines[i]
		// The next line's end after each of the line's own prefixes is
		// tried by checkFrom's marks: here the line with b's second half.
		mixed := append(bytes.Clone(a[:len(a)/2]), b[len(b)/2:]...)
		for _, second := range [][]byte{a, b, mixed} {
			if d := checkFrom(a, second); d != "" {
				t.Fatalf("line %d: %s", i, d)
			}
		}
	}
}

// TestMarkVarying: a message whose varying text differs, plain, is
// scanned from the mark; one where it has a quote or is longer is not.
func TestMarkVarying(t *testing.T) {
	for _, c := range []struct {
		second string
		from   bool
	}{
		{`{"id":"evt_2","a":"y"}`, true},
		{`{"id":"ev\"2","a":"y"}`, false},
		{`{"id":"evt_22","a":"y"}`, false},
		{`{"id":"evt_2","b":"y"}`, false},
	} {
		var s Scanner
		var m Mark
		s.ScanClean([]byte(`{"id":"evt_1","a":"x"}`))
		if !s.MarkVarying(&m, s.Root().Sub("a"), s.Root().Sub("id")) {
			t.Fatal("not marked")
		}
		s.ScanCleanFrom([]byte(c.second), &m)
		if from := m.s == &s && m.gen == s.gen; from != c.from {
			t.Errorf("%s: scanned from the mark %v, want %v", c.second, from, c.from)
		}
	}
}

// FuzzScanCleanFrom: as TestScanCleanFrom, for any two messages.
func FuzzScanCleanFrom(f *testing.F) {
	f.Add([]byte(`{"a":"x","b":{"c":[1,"y"]}}`), []byte(`{"a":"x","b":{"c":[1,"zz"],"d":null}}`))
	f.Add([]byte(`["a",["b"],{"c":"d"}]`), []byte(`["a",["b"],{"c":"\u00e9"}]`))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		if len(first) > 4096 || len(second) > 4096 {
			return
		}
		// The first message with a byte of its last quarter changed
		// (the rest after a string the same but for one value, or not),
		// and then a message that begins as the first, up to its middle.
		if len(first) > 0 && len(second) > 0 {
			changed := bytes.Clone(first)
			changed[len(changed)*3/4] = second[0]
			if d := checkFrom(first, changed); d != "" {
				t.Fatal(d)
			}
		}
		second = append(bytes.Clone(first[:len(first)/2]), second...)
		if d := checkFrom(first, second); d != "" {
			t.Fatal(d)
		}
	})
}

// TestPlain: plain's word test agrees with a byte by byte one, for every
// byte at every place of a word and of the bytes after the words.
func TestPlain(t *testing.T) {
	for c := 0; c < 256; c++ {
		for at := 0; at < 11; at++ {
			b := bytes.Repeat([]byte{'a'}, 11)
			b[at] = byte(c)
			want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
			if got := plain(b); got != want {
				t.Errorf("byte %#x at %d: plain %v, want %v", c, at, got, want)
			}
		}
	}
}
