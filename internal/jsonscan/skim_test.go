package jsonscan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

func skim(s string) (string, bool) {
	var b strings.Builder
	ok := jsonscan.Skim(s, func(k, raw string) bool {
		fmt.Fprintf(&b, "%s=%s;", k, raw)
		return true
	})
	return b.String(), ok
}

func TestSkim(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{`{}`, ``, true},
		{` { "a" : 1 , "b":"x\"}" ,"c":{"d":[1,{"e":"]"}]},"f":null}`, `a=1;b="x\"}";c={"d":[1,{"e":"]"}]};f=null;`, true},
		{`{"k\u0065y":"v\\"}`, `key="v\\";`, true},
		{`{"a":1,"b":"unterminated`, `a=1;`, false},
		{`{"a":[1,2`, ``, false},
		{`[1]`, ``, false},
		{`{"a":1 "b":2}`, `a=1;`, false},
		{`{"a":}`, ``, false},
	} {
		got, ok := skim(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Skim(%s) = %s %v, want %s %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// On a valid object Skim gives the members a Scanner reads, raw text
// for raw text.
func TestSkimAgreesWithScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.MapOf(rapid.StringMatching(`[a-z"\\]{0,4}`), rapid.OneOf(
			rapid.Just(`1.5e3`), rapid.Just(`true`), rapid.Just(`[ "]", {"x":"}"} ]`),
			rapid.Map(rapid.String(), func(s string) string { return fmt.Sprintf("%q", s) }),
		)).Draw(t, "members")
		var b strings.Builder
		b.WriteString("{")
		for k, raw := range v {
			if b.Len() > 1 {
				b.WriteString(" ,\n")
			}
			fmt.Fprintf(&b, "%q : %s", k, raw)
		}
		b.WriteString("}")
		s := b.String()
		if !gjson.Valid(s) {
			return
		}
		var sc jsonscan.Scanner
		if !sc.ScanString(s) {
			t.Fatalf("scan refused %s", s)
		}
		var want []string
		sc.Root().Members(func(k string, v jsonscan.Value) bool {
			want = append(want, k+"="+v.Raw())
			return true
		})
		var got []string
		if !jsonscan.Skim(s, func(k, raw string) bool { got = append(got, k+"="+raw); return true }) {
			t.Fatalf("Skim refused %s", s)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("Skim %q\nscan %q\non %s", got, want, s)
		}
	})
}

// Skim never panics and never reads past its input, whatever it is.
func FuzzSkim(f *testing.F) {
	f.Add(`{"a":"b","c":[1,{"d":"\""}]}`)
	f.Add(`{"a`)
	f.Fuzz(func(t *testing.T, s string) {
		jsonscan.Skim(s, func(k, raw string) bool {
			if !strings.Contains(s, raw) {
				t.Fatalf("value %q is not in the input", raw)
			}
			return true
		})
	})
}
