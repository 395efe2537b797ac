package amp

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
)

// TestText: text reads a string as Value.Str does, whatever its escapes
// (those it reads itself, \u escapes it leaves to Str, surrogates), and
// gives "" for a value that is not a string.
func TestText(t *testing.T) {
	tr, err := New(FormatStreamJSON, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		`""`, `"plain"`, `"a\nb"`, `"\"quoted\" \\ \/ \b\f\n\r\t"`,
		`"{\"output\":\"1\\n2\\n\",\"exitCode\":0}"`, `"tail\\"`,
		`"\u00e9 and \n"`, `"x\n\u001b[31m"`, `"\ud83d\ude00\n"`, `"\ud800\n"`, `"\n\udc00x"`,
		`12`, `null`, `{"a":"\n"}`, `["\n"]`,
	} {
		var s jsonscan.Scanner
		if !s.Scan([]byte(`{"v":` + raw + `}`)) {
			t.Fatalf("%s: not JSON", raw)
		}
		v := s.Root().Field("v")
		if got, want := tr.text(v), v.Str(); got != want {
			t.Errorf("text(%s) = %q, want %q", raw, got, want)
		}
	}
}
