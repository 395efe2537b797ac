package jsonscan

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// unescapeInputs are the insides of strings as agents write them: command
// output (an escape every few bytes), prose with a newline now and then,
// and text with \u escapes.
var unescapeInputs = map[string]string{
	"output": strings.Repeat(`12\n`, 2000) + strings.Repeat(`src/a.go:10:\tfunc x()\n`, 200),
	"prose":  strings.Repeat(`The quick brown fox jumps over the lazy dog, and then again.\n\n`, 200),
	"code":   strings.Repeat(`\"caf\u00e9\" \ud83d\ude00 `, 300),
}

func BenchmarkUnescape(b *testing.B) {
	for _, name := range []string{"output", "prose", "code"} {
		s := unescapeInputs[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			var dst []byte
			for b.Loop() {
				dst = unescape(dst[:0], s)
			}
		})
	}
}

// TestUnescapeRapid: strings made of escapes of every kind (lone and
// paired surrogates among them) and plain runs of every length around
// the eight-byte words unescape reads, read as gjson reads them.
func TestUnescapeRapid(t *testing.T) {
	pieces := []string{`\n`, `\t`, `\"`, `\\`, `\/`, `\b`, `\f`, `\r`, `\u0041`, `\u00e9`, `\u20AC`,
		`\ud83d\ude00`, `\ud83d`, `\ude00`, `\ud83dx`, `\ud83d\u0041`, "é", "€", "a", "abcdefg", "abcdefghijklmnop"}
	var s Scanner
	rapid.Check(t, func(rt *rapid.T) {
		var b strings.Builder
		b.WriteString(`{"k":"`)
		for _, p := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 40).Draw(rt, "pieces") {
			b.WriteString(p)
		}
		b.WriteString(`"}`)
		msg := b.String()
		if !s.ScanString(msg) {
			rt.Fatalf("%s: not JSON", msg)
		}
		v := s.Root().Sub("k")
		want := gjson.Get(msg, "k").Str
		if got := v.Str(); got != want {
			rt.Fatalf("%s: Str %q, gjson %q", msg, got, want)
		}
		if got := string(v.AppendStr([]byte("pre"))); got != "pre"+want {
			rt.Fatalf("%s: AppendStr %q, want %q", msg, got, "pre"+want)
		}
	})
}

// TestOwnStr: OwnStr reads a value as Str does, and what it returns does
// not alias the message: a plain string goes through keep, an escaped one
// is unescaped into memory of its own, anything else is "".
func TestOwnStr(t *testing.T) {
	for _, v := range []string{
		`""`, `"plain"`, `"1\n2\n3\n"`, `"a\"b\\c\/d\be\ff\rg\th"`, `"\\"`, `"x\\"`,
		`"caf\u00e9 \ud83d\ude00 \ud83d x \ude00"`, `"\n\u0041"`, `"é\tü"`,
		`1`, `null`, `true`, `{"a":"\n"}`, `["\n"]`,
	} {
		msg := []byte(`{"k":` + v + `}`)
		var s Scanner
		if !s.Scan(msg) {
			t.Fatalf("%s: not JSON", v)
		}
		val := s.Root().Sub("k")
		want := strings.Clone(val.Str())
		kept := false
		got := val.OwnStr(func(s string) string { kept = true; return strings.Clone(s) })
		if got != want {
			t.Errorf("OwnStr(%s) = %q, want %q", v, got, want)
		}
		if strings.Contains(v, `\`) && kept {
			t.Errorf("OwnStr(%s) copied an escaped string it had unescaped", v)
		}
		for i := range msg {
			msg[i] = 'x' // a message buffer reused for the next line
		}
		if got != want {
			t.Errorf("OwnStr(%s) = %q after the message changed: it aliases it", v, got)
		}
	}
}

// TestInt: Int, read from a number's digits where it can, is what
// Result().Int() gives for every value.
func TestInt(t *testing.T) {
	for _, in := range []string{"0", "7", "12", "123456789012345", "123456789012345678", "1234567890123456789",
		"1.5", "-3", "1e2", "-0", "99999999999999999999", `"42"`, `"x"`, "true", "null", "[1]", `{"a":1}`} {
		var s Scanner
		if !s.Scan([]byte(`{"v":` + in + `}`)) {
			t.Fatalf("%s: not JSON", in)
		}
		v := s.Root().Sub("v")
		if got, want := v.Int(), v.Result().Int(); got != want {
			t.Errorf("%s: Int %d, Result().Int() %d", in, got, want)
		}
	}
}

// TestOwnJSONAndAddTo: OwnJSON is Compacted in memory of its own, and
// AddTo adds what RawClean(k, Compacted()) adds, for values of a compact
// message (copied through keep) and of a pretty-printed one (compacted),
// and nothing for an absent value.
func TestOwnJSONAndAddTo(t *testing.T) {
	for _, msg := range []string{
		`{"v":{"a":[1,2,{"b":"c\n"}],"d":null},"s":"x","n":-1.5e3}`,
		"{\n  \"v\": { \"a\": [1, 2, {\"b\": \"c\\n\"}], \"d\": null },\n  \"s\": \"x\",\n  \"n\": -1.5e3\n}",
	} {
		for _, k := range []string{"v", "s", "n", "absent"} {
			b := []byte(msg)
			var s Scanner
			if !s.Scan(b) {
				t.Fatalf("%q: not JSON", msg)
			}
			v := s.Root().Field(k)
			want := strings.Clone(v.Compacted())
			got := v.OwnJSON(strings.Clone)
			var o, ref jsonw.Object
			added := string(v.AddTo(&o, k).Bytes())
			wantAdded := string(ref.RawClean(k, want).Bytes())
			for i := range b {
				b[i] = ' ' // the message buffer, reused for the next line
			}
			if got != want {
				t.Errorf("%q %s: OwnJSON %q, want %q", msg, k, got, want)
			}
			if added != wantAdded {
				t.Errorf("%q %s: AddTo gives %s, want %s", msg, k, added, wantAdded)
			}
		}
	}
}

// TestExtend: chunks appended with Extend make their concatenation,
// escapes read; a string made earlier stays as it was; a string set
// otherwise in between is taken as the new start; and a chunk costs no
// allocation once the buffer has grown (the text so far is not copied).
func TestExtend(t *testing.T) {
	var s Scanner
	chunk := func(text string) Value {
		if !s.Scan([]byte(`{"d":"` + text + `"}`)) {
			t.Fatalf("%s: not JSON", text)
		}
		return s.Root().Sub("d")
	}
	var out string
	var buf []byte
	chunk(`ab`).Extend(&out, &buf)
	before := out
	chunk(`c\n\u00e9`).Extend(&out, &buf)
	if out != "abc\né" || before != "ab" {
		t.Fatalf("got %q (earlier %q), want %q (earlier %q)", out, before, "abc\né", "ab")
	}
	out = "new:" // set otherwise: the next chunk goes after it
	chunk(`x`).Extend(&out, &buf)
	if out != "new:x" || before != "ab" {
		t.Fatalf("got %q (earlier %q)", out, before)
	}
	v := chunk(`0123456789`)
	allocs := testing.AllocsPerRun(1000, func() { v.Extend(&out, &buf) })
	if allocs != 0 {
		t.Errorf("%v allocations a chunk, want 0 (amortized)", allocs)
	}
	if len(out) != len("new:x")+1001*10 {
		t.Errorf("length %d after 1001 chunks", len(out))
	}
}

// A lookup in an absent value answers what gjson answers (nothing, at the
// absent value's index) without asking gjson.
func TestAbsentLookups(t *testing.T) {
	var s Scanner
	if !s.Scan([]byte(`{"a":{"b":1},"c":[1,2]}`)) {
		t.Fatal("not valid")
	}
	root := s.Root()
	for _, path := range []string{"x", "x.y", "a.x", "a.x.y", "c.x"} {
		v := root.Sub(path)
		want := root.Result().Get(path)
		if r := v.Result(); v.Exists() || r.Type != want.Type || r.Raw != want.Raw || r.Index != want.Index {
			t.Errorf("Sub(%q) = %#v, gjson %#v", path, v.Result(), want)
		}
		for _, q := range []string{"q", "q.r", "#", "@this"} {
			if got, w := v.Get(q), want.Get(q); got.Type != w.Type || got.Raw != w.Raw || got.Index != w.Index || got.Exists() != w.Exists() {
				t.Errorf("Sub(%q).Get(%q) = %#v, gjson %#v", path, q, got, w)
			}
			if got, w := v.Sub(q).Result(), want.Get(q); got.Type != w.Type || got.Raw != w.Raw || got.Index != w.Index {
				t.Errorf("Sub(%q).Sub(%q) = %#v, gjson %#v", path, q, got, w)
			}
		}
	}
}

// TestEqualStrRapid: EqualStr(t) is Type() == String && Str() == t, for
// strings with escapes of every kind and t their text, a prefix of it, it
// extended, or it with one byte changed.
func TestEqualStrRapid(t *testing.T) {
	pieces := []string{`\n`, `\t`, `\"`, `\\`, `\/`, `\b`, `\f`, `\r`, `\u0041`, `\u00e9`, `\u20AC`,
		`\ud83d\ude00`, `\ud83d`, `\ude00`, `\ud83dx`, `\ud83d\u0041`, "é", "a", "n", "abcdefg"}
	var s Scanner
	rapid.Check(t, func(rt *rapid.T) {
		var b strings.Builder
		b.WriteString(`{"k":"`)
		for _, p := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 12).Draw(rt, "pieces") {
			b.WriteString(p)
		}
		b.WriteString(`","n":1,"o":{},"e":""}`)
		msg := b.String()
		if !s.ScanString(msg) {
			rt.Fatalf("%s: not JSON", msg)
		}
		str := gjson.Get(msg, "k").Str
		t := str
		switch rapid.IntRange(0, 3).Draw(rt, "how") {
		case 1:
			t = str[:rapid.IntRange(0, len(str)).Draw(rt, "cut")]
		case 2:
			t = str + rapid.SampledFrom([]string{"a", "\n", "\\", "é"}).Draw(rt, "more")
		case 3:
			if len(str) > 0 {
				at := rapid.IntRange(0, len(str)-1).Draw(rt, "at")
				t = str[:at] + string(str[at]^byte(rapid.IntRange(1, 255).Draw(rt, "xor"))) + str[at+1:]
			}
		}
		for _, k := range []string{"k", "n", "o", "e", "absent"} {
			r := gjson.Get(msg, k)
			want := r.Type == gjson.String && r.Str == t
			if got := s.Root().Sub(k).EqualStr(t); got != want {
				rt.Fatalf("%s: %s EqualStr(%q) = %v, want %v", msg, k, t, got, want)
			}
		}
		if got, want := s.Root().EqualStr(t), false; got != want {
			rt.Fatalf("%s: root EqualStr(%q) = %v", msg, t, got)
		}
	})
}

// BenchmarkEqualStr compares an escaped value with text, as a translator
// comparing a tool's name or a path would: EqualStr against Str() == t,
// which unescapes into a new string first.
func BenchmarkEqualStr(b *testing.B) {
	var s Scanner
	msg := `{"path":"C:\\Users\\dev\\src\\caf\u00e9\\main.go","name":"plain_name"}`
	if !s.ScanString(msg) {
		b.Fatal("not JSON")
	}
	path, name := s.Root().Sub("path"), s.Root().Sub("name")
	want := path.Str()
	b.Run("escaped/EqualStr", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !path.EqualStr(want) {
				b.Fatal("differ")
			}
		}
	})
	b.Run("escaped/Str", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if path.Str() != want {
				b.Fatal("differ")
			}
		}
	})
	b.Run("plain/EqualStr", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !name.EqualStr("plain_name") {
				b.Fatal("differ")
			}
		}
	})
}

// TestWrappedField: Field and LastField of a value gjson found (Wrap)
// give what they give on the same object indexed: the first or last
// member of that name, its key compared unescaped, a dot or wildcard in
// it not read as a path, absent for a missing key or a value that is not
// an object. They gave absent on every wrapped value, and a translator
// that read a delta's text with Field lost it.
func TestWrappedField(t *testing.T) {
	for _, msg := range []string{
		`{"a":1,"b":{"c":"x"},"a":2,"d.e":3,"f*":4,"\u0067":"esc","h":null}`,
		`[1,{"a":1}]`, `"s"`, `{}`,
	} {
		var s Scanner
		if !s.ScanString(msg) {
			t.Fatalf("%q: not JSON", msg)
		}
		idx, wrapped := s.Root(), Wrap(gjson.Parse(msg))
		for _, k := range []string{"a", "b", "d.e", "f*", "g", "h", "absent", "0"} {
			if got, want := wrapped.Field(k), idx.Field(k); got.Exists() != want.Exists() || got.Raw() != want.Raw() {
				t.Errorf("%s: Field(%q) of the wrapped value %q (exists %v), indexed %q (exists %v)", msg, k, got.Raw(), got.Exists(), want.Raw(), want.Exists())
			}
			if got, want := wrapped.LastField(k), idx.LastField(k); got.Exists() != want.Exists() || got.Raw() != want.Raw() {
				t.Errorf("%s: LastField(%q) of the wrapped value %q, indexed %q", msg, k, got.Raw(), want.Raw())
			}
		}
	}
}
