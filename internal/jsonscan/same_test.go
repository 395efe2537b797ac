package jsonscan_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
)

func TestSame(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"path":"a.go","content":"x"}`, `{"content":"x","path":"a.go"}`, true},
		{`{"a":{"x":1,"y":[{"p":1,"q":2}]},"b":2}`, `{"b":2,"a":{"y":[{"q":2,"p":1}],"x":1}}`, true},
		{` { "a" : 1 } `, `{"a":1}`, true},
		{`{"a":"\u00e9"}`, `{"a":"é"}`, true},
		{`{"a":1,"a":2}`, `{"a":1}`, true}, // the first counts
		{`{"a":1,"a":2}`, `{"a":2}`, false},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":1}`, `{"b":1}`, false},
		{`[1,2]`, `[2,1]`, false}, // arrays are ordered
		{`{"a":"1"}`, `{"a":1}`, false},
		{`{"a":[]}`, `{"a":{}}`, false},
		{`{"a":null}`, `{"a":false}`, false},
		{`{"a":`, `{"a":`, true},
		{`{"a":`, `{"a": `, false},
		{`{}`, `[]`, false},
	} {
		if got := jsonscan.Same(c.a, c.b); got != c.want {
			t.Errorf("Same(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := jsonscan.Same(c.b, c.a); got != c.want {
			t.Errorf("Same(%s, %s) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}
