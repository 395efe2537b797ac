package jsonscan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// cases are inputs at the edges of gjson.Valid's grammar.
var cases = []string{
	``, ` `, `{}`, ` {} `, `{`, `}`, `[]`, `[`, `[1,]`, `[,1]`, `{"a":1,}`, `{,}`, `{"a"}`, `{"a":}`, `{"a" 1}`,
	`{"a":1}x`, `{"a":1} `, "{\"a\":1}\n", "\t{\"a\":1}\r\n", `{"a":1}{}`, `1`, `-`, `-0`, `-01`, `01`, `0.`, `0.1`,
	`1e`, `1e+`, `1E-5`, `1.5e10`, `+1`, `.5`, `-a`, `true`, `tru`, `truex`, `false`, `fals`, `null`, `nul`, `nan`,
	`"abc"`, `"a`, `"\"`, `"\\"`, `"\u00e9"`, `"\u00g9"`, `"\u00e"`, `"\x"`, `"\/"`, "\"\x01\"", "\"\x7f\"",
	"\"\xff\xfe\"", "{\"\xff\":\"\xc3\"}", "\xff", "{\"a\":1}\xff", "\xef\xbb\xbf{}", `{"a":[1,{"b":2}],"c":{"d":[]}}`,
	`{"type":"a","type":"b"}`, `{"a":{"x":1},"a":{"y":2}}`, `{"a":1,"a":{"y":2}}`, `{"a":[{"b":1}],"a":{"b":2}}`,
	`{"t\u0079pe":"x","type":"y"}`, `{"a\"b":1,"a\\b":2,"a\/b":3}`, `{"k":"\ud83d\ude00 \ud800 \udc00\u0041 \ud800\ud800"}`,
	`{"\ud800":1,"\ufffd":2}`, `{"":1,"a":{"":2}}`, `{"a.b":1,"a":{"b":2}}`, `{"a":{"b":{"c":{"d":true}}}}`,
	`{"n":-1.5e-3,"z":0,"big":123456789012345678901234567890}`, `{"s":"` + strings.Repeat("x\\n", 40) + `"}`,
	`{"a" : 1 , "b" : [ 1 , 2 ] , "c" : { } }`, `[[[[{"a":1}]]]]`, strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
	`{"a":"x` + "\x00" + `"}`, `{"a":"` + strings.Repeat("é", 30) + `"}`, `{"a":"` + strings.Repeat("y", 15) + `\"` + `"}`,
}

// corpus returns lines of the recorded Claude Code captures.
func corpus(tb testing.TB) [][]byte {
	var lines [][]byte
	for _, pat := range []string{"../../testdata/claude/2.1.330/*.jsonl", "../../testdata/claude/public/*.jsonl"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				tb.Fatal(err)
			}
			sc := bufio.NewScanner(fh)
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				lines = append(lines, bytes.Clone(sc.Bytes()))
			}
			fh.Close()
		}
	}
	return lines
}

func TestCases(t *testing.T) {
	var s Scanner
	for _, c := range cases {
		if d := check(&s, []byte(c)); d != "" {
			t.Errorf("%q: %s", c, d)
		}
	}
}

func TestCorpus(t *testing.T) {
	lines := corpus(t)
	if len(lines) == 0 {
		t.Skip("no recorded captures")
	}
	var s Scanner
	for i, l := range lines {
		if d := check(&s, l); d != "" {
			t.Fatalf("line %d: %s\n%s", i, d, l)
		}
	}
}

// TestInvalidUTF8: gjson.Valid does not check bytes inside strings as
// UTF-8; outside strings any byte not of the grammar is refused.
func TestInvalidUTF8(t *testing.T) {
	var s Scanner
	for in, want := range map[string]bool{"\"\xff\"": true, "{\"\xc3\":\"\xed\xa0\x80\"}": true, "\xff": false, "[1,\xff]": false} {
		if got := s.Scan([]byte(in)); got != want || gjson.Valid(in) != want {
			t.Errorf("%q: Scan %v, gjson %v, want %v", in, got, gjson.Valid(in), want)
		}
	}
}

func TestValues(t *testing.T) {
	var s Scanner
	msg := `{"s":"a\nb","n":-2.5,"t":true,"f":false,"z":null,"o":{"x":[1,"y"]},"a":[{"k":"v"}]}`
	if !s.ScanString(msg) {
		t.Fatal("refused")
	}
	top := s.Root()
	if v := top.Get("s"); v.Str != "a\nb" || v.Raw != `"a\nb"` || v.Type != gjson.String {
		t.Errorf("s: %#v", v)
	}
	if v := top.Get("n"); v.Num != -2.5 {
		t.Errorf("n: %#v", v)
	}
	if v := top.Get("o.x.1"); v.Str != "y" {
		t.Errorf("o.x.1: %#v", v)
	}
	if v := top.Get("a.0.k"); v.Str != "v" {
		t.Errorf("a.0.k: %#v", v)
	}
	if v := top.Field("o").Get("x.#"); v.Int() != 2 {
		t.Errorf("x.#: %#v", v)
	}
	if top.Field("s").IsObject() || !top.Field("o").IsObject() || top.Field("nope").Exists() {
		t.Error("IsObject or Exists wrong")
	}
}

// TestAllocs: a warm Scanner allocates nothing to scan and look up.
func TestAllocs(t *testing.T) {
	lines := corpus(t)
	if len(lines) == 0 {
		lines = [][]byte{[]byte(cases[len(cases)-5])}
	}
	var s Scanner
	for _, l := range lines {
		s.Scan(l)
	}
	n := testing.AllocsPerRun(10, func() {
		for _, l := range lines {
			if s.Scan(l) {
				if top := s.Root(); top.IsObject() {
					_ = top.Get("type").Str
					_ = top.Field("message").Field("content").Raw()
					_ = top.Get("message.role").Type
					_ = top.Field("event").Field("delta").Field("text").Raw()
					_ = top.Get("event.delta.type").Str
					_ = top.Get("absent")
				}
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per corpus", n)
	}
}

// FuzzScan is the differential fuzz target: acceptance and every lookup
// against gjson.
func FuzzScan(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	for i, l := range corpus(f) {
		if i%7 == 0 && len(l) < 4096 {
			f.Add(l)
		}
	}
	var s Scanner
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return // check is quadratic in the members; big inputs only slow the search
		}
		if d := check(&s, data); d != "" {
			t.Fatalf("%q: %s", data, d)
		}
	})
}

// genValue draws a JSON value whose keys collide often (duplicates,
// escaped spellings of the same key) and whose strings have escapes.
func genValue(t *rapid.T, depth int) any {
	kinds := 7
	if depth > 3 {
		kinds = 5
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return rapid.SampledFrom([]string{"", "a", "x\ny", "é\u2028", "\U0001F600", "\\\"/", "\x7f", "LONE"}).Draw(t, "s")
	case 1:
		return rapid.Float64().Draw(t, "n")
	case 2:
		return rapid.Bool().Draw(t, "b")
	case 3:
		return nil
	case 4:
		return rapid.Int64().Draw(t, "i")
	case 5:
		n := rapid.IntRange(0, 4).Draw(t, "len")
		a := make([]any, n)
		for i := range a {
			a[i] = genValue(t, depth+1)
		}
		return a
	default:
		return members(rapid.IntRange(0, 5).Draw(t, "members"), t, depth)
	}
}

// object is an object with members in order, duplicates allowed.
type object []struct {
	k string
	v any
}

func members(n int, t *rapid.T, depth int) object {
	o := make(object, n)
	for i := range o {
		o[i].k = rapid.SampledFrom([]string{"a", "b", "type", "a.b", "é", "", "0", "\\u0061"}).Draw(t, "key")
		o[i].v = genValue(t, depth+1)
	}
	return o
}

// write encodes v with random spacing and key escapes.
func write(t *rapid.T, b *bytes.Buffer, v any) {
	sp := func() {
		if rapid.IntRange(0, 5).Draw(t, "sp") == 0 {
			b.WriteString(rapid.SampledFrom([]string{" ", "\n", "\t ", "\r\n"}).Draw(t, "ws"))
		}
	}
	sp()
	switch v := v.(type) {
	case object:
		b.WriteByte('{')
		sp()
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
				sp()
			}
			if m.k == "\\u0061" {
				b.WriteString(`"\u0061"`) // "a", escaped
			} else {
				enc, _ := json.Marshal(m.k)
				b.Write(enc)
			}
			sp()
			b.WriteByte(':')
			write(t, b, m.v)
			sp()
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			write(t, b, e)
		}
		b.WriteByte(']')
	case string:
		if v == "LONE" {
			b.WriteString(`"\ud800\u0041"`)
			break
		}
		enc, _ := json.Marshal(v)
		b.Write(enc)
	default:
		enc, _ := json.Marshal(v)
		b.Write(enc)
	}
	sp()
}

// TestRapid: random objects, valid and mutated, agree with gjson.
func TestRapid(t *testing.T) {
	var s Scanner
	rapid.Check(t, func(t *rapid.T) {
		var b bytes.Buffer
		write(t, &b, members(rapid.IntRange(0, 6).Draw(t, "top"), t, 0))
		data := b.Bytes()
		if rapid.Bool().Draw(t, "mutate") && len(data) > 0 {
			i := rapid.IntRange(0, len(data)-1).Draw(t, "at")
			switch rapid.IntRange(0, 2).Draw(t, "how") {
			case 0:
				data = append(data[:i], data[i+1:]...)
			case 1:
				data[i] = rapid.SampledFrom([]byte(`{}[]",:\ 0-.eE\x01`+"\xff")).Draw(t, "byte")
			default:
				data = append(data[:i], append([]byte{rapid.Byte().Draw(t, "ins")}, data[i:]...)...)
			}
		}
		if d := check(&s, data); d != "" {
			t.Fatalf("%q: %s", data, d)
		}
	})
}

// TestStringWords puts each special byte at each offset of strings
// spanning several words, among bytes that border the word tests
// (0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xff), and checks acceptance
// and the value against gjson.
func TestStringWords(t *testing.T) {
	var s Scanner
	fill := []byte{'a', 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xff, 0xc3, 0xa9}
	specials := []string{`"`, `\\`, `\"`, `\u00e9`, `\ud83d\ude00`, `\uDC00`, `\ud7ff`, `\\ud800`, "\x1f", "\x00", `\`, `\x`, "\x7f", "\xff"}
	for n := 0; n < 26; n++ {
		for at := 0; at <= n; at++ {
			for _, sp := range specials {
				for f := range fill {
					body := bytes.Repeat([]byte{fill[f]}, n)
					body = append(body[:at], append([]byte(sp), body[at:]...)...)
					msg := append(append([]byte(`{"k":"`), body...), `","z":1}`...)
					if d := check(&s, msg); d != "" {
						t.Fatalf("%q: %s", msg, d)
					}
				}
			}
		}
	}
}

// TestScanClean: a clean message is scanned as it is (the same bytes
// back); a message with invalid UTF-8 or a lone surrogate escape is
// scanned as universal.CleanInput returns it.
func TestScanClean(t *testing.T) {
	var s Scanner
	clean := []byte(`{"a":"héllo \ud83d\ude00"}`)
	if got, ok := s.ScanClean(clean); !ok || &got[0] != &clean[0] {
		t.Errorf("clean message: ok %v, copied %v", ok, &got[0] != &clean[0])
	}
	for _, tc := range []struct{ in, want string }{
		{"{\"a\":\"x\xffy\"}", "x\uFFFDy"},
		{`{"a":"\udc00\ud83d\ude00"}`, "\uFFFD😀"},
	} {
		got, ok := s.ScanClean([]byte(tc.in))
		if !ok || s.Root().Get("a").Str != tc.want || !bytes.Equal(got, Clean([]byte(tc.in))) {
			t.Errorf("%q: ok %v, a = %q, want %q", tc.in, ok, s.Root().Get("a").Str, tc.want)
		}
	}
}

// TestCleanRaw: a value is clean (copied as jsonw.AppendRaw would write
// it) only in a compact message known to be valid UTF-8, and then it is
// exactly what AppendRaw writes.
func TestCleanRaw(t *testing.T) {
	for _, tc := range []struct {
		msg   string
		clean bool // ScanClean
		want  bool
	}{
		{`{"a":{"b":[1,"x"]}}`, false, true},
		{`{"a": {"b":[1,"x"]}}`, false, false},         // spaced
		{"{\"a\":{\"b\":\"\xff\"}}", false, false},     // invalid UTF-8, not cleaned
		{"{\"a\":{\"b\":\"\xff\"}}", true, true},       // cleaned first
		{"{\"a\":{\"b\":\"\xc3\xa9\"}}", false, false}, // valid but not known to be
		{"{\"a\":{\"b\":\"\xc3\xa9\"}}", true, true},   // ScanClean checked it
		{`{"a":{"b":"\u003c"}}`, false, true},          // escapes kept, as AppendRaw keeps them
	} {
		var s Scanner
		data := []byte(tc.msg)
		if tc.clean {
			if _, ok := s.ScanClean(data); !ok {
				t.Fatalf("%q: not JSON", tc.msg)
			}
		} else if !s.Scan(data) {
			t.Fatalf("%q: not JSON", tc.msg)
		}
		raw, ok := s.Root().Field("a").CleanRaw()
		if ok != tc.want {
			t.Errorf("%q (ScanClean %v): CleanRaw ok = %v, want %v", tc.msg, tc.clean, ok, tc.want)
		}
		if ok && raw != string(jsonw.AppendRaw(nil, raw)) {
			t.Errorf("%q: %q is not what AppendRaw writes", tc.msg, raw)
		}
		if _, ok := s.Root().Field("none").CleanRaw(); ok {
			t.Errorf("%q: an absent value is clean", tc.msg)
		}
	}
}
