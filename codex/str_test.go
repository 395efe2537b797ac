package codex

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
)

// TestCopyStr: copyStr reads a string value exactly as
// Value.Str does, whatever escapes it has, and other values as "".
func TestCopyStr(t *testing.T) {
	tr, err := New(FormatExec, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{
		`""`, `"plain"`, `"1\n2\n3\n"`, `"a\"b\\c\/d\be\ff\rg\th"`, `"\\"`, `"x\\"`,
		`"caf\u00e9 \ud83d\ude00 \ud83d x \ude00"`, `"\n\u0041"`, `"é\tü"`,
		`1`, `null`, `true`, `{"a":"\n"}`, `["\n"]`,
	} {
		var s jsonscan.Scanner
		if !s.Scan([]byte(`{"k":` + v + `}`)) {
			t.Fatalf("%s: not JSON", v)
		}
		val := s.Root().Sub("k")
		want := val.Str()
		if got := tr.copyStr(val); got != want {
			t.Errorf("copyStr(%s) = %q, want %q", v, got, want)
		}
	}
}
