package claude

import (
	"reflect"
	"testing"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
)

// TestModelTotals: the indexed reading of a modelUsage map answers what
// anthropic.ModelUsage does, for one model and for every other shape.
func TestModelTotals(t *testing.T) {
	for _, in := range []string{
		`{"m":{"inputTokens":120,"outputTokens":20,"cacheReadInputTokens":3,"cacheCreationInputTokens":4,"thinkingTokens":5,"costUSD":0.00066,"contextWindow":200000}}`,
		`{"m":{"inputTokens":120}}`,
		`{"m":{"outputTokens":-1,"costUSD":-0,"contextWindow":-5}}`,
		`{"m":{"inputTokens":1e3,"outputTokens":1.5,"contextWindow":"x"}}`,
		`{"m":{"inputTokens":1,"inputTokens":2}}`,
		`{"m":{}}`,
		`{"a":{"inputTokens":1},"b":{"inputTokens":2,"costUSD":1}}`,
		`{"a":{"inputTokens":1,"contextWindow":5,"costUSD":0.5},"b":{"outputTokens":2,"contextWindow":9,"costUSD":-0},"c":{"cacheReadInputTokens":3,"contextWindow":7,"thinkingTokens":4}}`,
		`{"a":{"cacheCreationInputTokens":1,"contextWindow":0},"b":{"contextWindow":-1,"costUSD":"1"},"c":[],"d":{"inputTokens":null}}`,
		`{"a":{"outputTokens":9007199254740993},"b":{"outputTokens":1,"outputTokens":5}}`,
		`{"a":{"costUSD":-0}}`,
		`{"a":1,"b":{"inputTokens":2}}`,
		`{"a":1}`,
		`{}`,
		`[{"inputTokens":1}]`,
		`"x"`,
		`null`,
	} {
		var s jsonscan.Scanner
		if !s.Scan([]byte(`{"modelUsage":` + in + `}`)) {
			t.Fatalf("%s: not JSON", in)
		}
		v := s.Root().Sub("modelUsage")
		if got, want := modelTotals(v), anthropic.ModelUsage(v.Result()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", in, got, want)
		}
	}
}

// TestIntValue: a block index read from its digits is what gjson's Int
// gives.
func TestIntValue(t *testing.T) {
	for _, in := range []string{"0", "7", "12", "123456789012345", "1234567890123456789", "1.5", "-3", "1e2", "-0", "99999999999999999999"} {
		var s jsonscan.Scanner
		if !s.Scan([]byte(`{"index":` + in + `}`)) {
			t.Fatalf("%s: not JSON", in)
		}
		v := s.Root().Sub("index")
		if got, want := intValue(v), int(v.Result().Int()); got != want {
			t.Errorf("%s: got %d, want %d", in, got, want)
		}
	}
}
