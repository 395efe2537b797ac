package jsonw

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func stdString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	var cases []string
	for b := 0; b < 256; b++ {
		cases = append(cases, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	cases = append(cases, "\u2028\u2029", "é👋🏽", "\xed\xa0\x80", "\xf4\x90\x80\x80", "<>&", strings.Repeat("\x01é", 100))
	for _, s := range cases {
		if got, want := AppendString(nil, s), stdString(s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
		if got, want := AppendString(nil, []byte(s)), stdString(s); !bytes.Equal(got, want) {
			t.Errorf("[]byte %q: got %s, want %s", s, got, want)
		}
	}
}

// TestAppendStringPositions puts bytes to escape at every position of
// strings up to three words long, alone and in pairs: the word-at-a-time
// search reads the last word of a string overlapping the one before it.
func TestAppendStringPositions(t *testing.T) {
	specials := []byte{0, '\n', 0x1f, '"', '\\', 0x7f, 0x80, 0xe2, 0xff}
	for n := 1; n <= 24; n++ {
		for i := range n {
			for j := i; j < n; j++ {
				for _, c := range specials {
					b := bytes.Repeat([]byte{' '}, n)
					b[i], b[j] = c, specials[(i+j)%len(specials)]
					if got, want := AppendString(nil, b), stdString(string(b)); !bytes.Equal(got, want) {
						t.Fatalf("%q: got %s, want %s", b, got, want)
					}
				}
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("plain")
	f.Add("\x00\xff\u2028")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendString(nil, s), stdString(s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.1, 1e-7, 1.5e-7, 123456789, 1e20, 1e21, 1.23e21, 0.000001, 3.14159, -2.5e-9, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		want, _ := json.Marshal(f)
		if got := AppendFloat(nil, f); !bytes.Equal(got, want) {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
	if got := AppendFloat(nil, math.NaN()); string(got) != "null" {
		t.Errorf("NaN: %s", got)
	}
}

func FuzzAppendValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,-0,true,null,"x\u00e9\n"]}`, ` [ ] `, `"\ud800"`, `{"a":1,}`, `01`, `1.`, "\"\xff\"", `{"a" : { "b" :[ ]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		valid := json.Valid(b)
		if Valid(b) != valid {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, !valid, valid)
		}
		if v, c := Check(b); v != valid || c != Clean(b) {
			t.Fatalf("Check(%q) = %v, %v; Valid and Clean say %v, %v", b, v, c, valid, Clean(b))
		}
		out, ok := AppendValue(nil, b)
		if ok != valid {
			t.Fatalf("AppendValue(%q) ok = %v", b, ok)
		}
		if !ok {
			if s := AppendRaw(nil, b); !json.Valid(s) || !utf8.Valid(s) {
				t.Fatalf("AppendRaw of invalid input is not strict JSON: %q", s)
			}
			return
		}
		if !utf8.Valid(out) || !json.Valid(out) {
			t.Fatalf("output not strict JSON: %q", out)
		}
		if utf8.Valid(b) {
			var want bytes.Buffer
			json.Compact(&want, b)
			if !bytes.Equal(out, want.Bytes()) {
				t.Fatalf("AppendValue(%q) = %q, json.Compact gives %q", b, out, want.Bytes())
			}
		}
		if c := Compact(string(b)); c != string(out) {
			t.Fatalf("Compact(%q) = %q, AppendValue gives %q", b, c, out)
		}
		if Clean(b) != bytes.Equal(out, b) {
			t.Fatalf("Clean(%q) = %v, but output %q", b, Clean(b), out)
		}
		if want := Clean(b) && !hasHTMLEscape(b); Canonical(b) != want {
			t.Fatalf("Canonical(%q) = %v, want %v", b, !want, want)
		}
	})
}

// hasHTMLEscape reports whether valid JSON b has one of the escapes
// encoding/json writes for HTML, walking escapes one by one (a reference
// for Canonical, which decides it inside its scan).
func hasHTMLEscape(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			continue
		}
		if b[i+1] == 'u' && i+5 < len(b) {
			switch strings.ToLower(string(b[i+2 : i+6])) {
			case "003c", "003e", "0026", "2028", "2029":
				return true
			}
			i += 5
			continue
		}
		i++ // the escaped character
	}
	return false
}

func TestObject(t *testing.T) {
	var o Object
	if got := string(o.Bytes()); got != "{}" {
		t.Errorf("empty: %s", got)
	}
	o = Object{}
	o.String("a", "x\"").OptString("skip", "").Int("n", -3).Float("f", 0.5).Bool("b", true).
		Raw("r", ` {"k": [1, 2]} `).Raw("missing", "").Raw("bad", "{oops").Strings("s", []string{"p", "q"}).
		OptStringIn("previous", "mode", "pl\"an").OptStringIn("none", "mode", "")
	want := `{"a":"x\"","n":-3,"f":0.5,"b":true,"r":{"k":[1,2]},"bad":"{oops","s":["p","q"],"previous":{"mode":"pl\"an"}}`
	if got := string(o.Bytes()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRawClean(t *testing.T) {
	var o Object
	o.RawClean("a", `{"b":[1,"\u003c"]}`).RawClean("skip", "").Raw("c", ` [ 2 ] `)
	if got, want := string(o.Bytes()), `{"a":{"b":[1,"\u003c"]},"c":[2]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestRawMembers: members written already go in as they are, first or
// after others; none adds nothing.
func TestRawMembers(t *testing.T) {
	var a, b Object
	a.RawMembers(`"x":1,"y":"z"`).Int("n", 2)
	b.Int("n", 2).RawMembers("").RawMembers(`"x":1`)
	for _, c := range []struct{ got, want string }{
		{string(a.Bytes()), `{"x":1,"y":"z","n":2}`},
		{string(b.Bytes()), `{"n":2,"x":1}`},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

// TestObjectGrow: an object grown to its size takes its fields without
// growing again.
func TestObjectGrow(t *testing.T) {
	prompt := strings.Repeat("You are a coding agent. ", 1000)
	allocs := testing.AllocsPerRun(20, func() {
		var o Object
		o.Grow(len(prompt)+64).String("agent", "codex").String("system_prompt", prompt)
		if len(o.Bytes()) < len(prompt) {
			t.Fatal("short object")
		}
	})
	// One (two under the race detector); growing as it goes takes five.
	if allocs > 2 {
		t.Errorf("%.0f allocations, want 1", allocs)
	}
}

// TestObjectFirstRoom: a small object built without Grow takes one
// allocation, its first field's room, not one for each doubling.
func TestObjectFirstRoom(t *testing.T) {
	allocs := testing.AllocsPerRun(20, func() {
		var o Object
		o.String("model", "claude-sonnet-4-5").String("provider", "anthropic")
		if len(o.Bytes()) == 0 {
			t.Fatal("empty object")
		}
	})
	// One (two under the race detector); growing from nothing took four.
	if allocs > 2 {
		t.Errorf("%.0f allocations, want 1", allocs)
	}
}
