package amp

import (
	"reflect"
	"testing"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// TestReadUsage: a usage object read from the index reads exactly as
// anthropic.Usage reads it with gjson (Anthropic's names), and a thread's
// as anthropic.ModelUsage reads a map holding it (threadUsage).
func TestReadUsage(t *testing.T) {
	for _, u := range []string{
		`{}`,
		`[]`,
		`"input_tokens"`,
		`null`,
		`{"input_tokens":0,"cache_creation_input_tokens":468,"cache_read_input_tokens":18316,"output_tokens":119,"max_tokens":272000,"service_tier":"standard"}`,
		`{"input_tokens":3,"output_tokens_details":{"thinking_tokens":9}}`,
		`{"output_tokens_details":[{"thinking_tokens":9}],"output_tokens":1}`,
		`{"input_tokens":-1,"output_tokens":null,"cache_read_input_tokens":"9"}`,
		`{"model":"m","maxInputTokens":168000,"inputTokens":3,"outputTokens":239,"cacheCreationInputTokens":1619,"cacheReadInputTokens":13248,"totalInputTokens":14870}`,
		`{ "inputTokens" : 3 , "outputTokens": 2, "thinkingTokens": 1 }`,
		`{"outputTokens":5}`,
		`{"cacheReadInputTokens":7}`,
		`{"inputTokens":-1,"outputTokens":null,"cacheCreationInputTokens":"9"}`,
		`{"inputTokens":1.9,"outputTokens":1e3,"input_tokens":2.5,"output_tokens":-0}`,
		`{"inputTokens":1,"inputTokens":2,"outputTokens":"x","outputTokens":4}`,
		`{"input_tokens":1,"input_tokens":2,"output_tokens":"x","output_tokens":4}`,
		`{"thinkingTokens":3}`,
		`{"inputTokens":{"n":1},"outputTokens":[2],"input_tokens":{},"output_tokens":true}`,
		`{"in\u0070ut_tokens":4,"input\u0054okens":5}`,
	} {
		var s jsonscan.Scanner
		if !s.ScanString(`{"u":` + u + `}`) {
			t.Fatalf("%s: not JSON", u)
		}
		v := s.Root().Sub("u")
		got, gotOK := anthropic.Usage(v)
		want, wantOK := anthropic.Usage(gjson.Parse(u))
		if !reflect.DeepEqual(got, want) || gotOK != wantOK {
			t.Errorf("%s: API names: got %+v %v, want %+v %v", u, got, gotOK, want, wantOK)
		}
		if !v.IsObject() {
			continue // ModelUsage skips it: no usage either way
		}
		got, _ = threadUsage(v)
		want = anthropic.ModelUsage(jsonscan.Wrap(gjson.Parse(`{"m":` + u + `}`))).Usage
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: thread names: got %+v, want %+v", u, got, want)
		}
	}
}
