package anthropic_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

func n(v int64) *int64 { return &v }

func eq(a, b *int64) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }

func sameUsage(a, b universal.Usage) bool {
	return eq(a.InputTokens, b.InputTokens) && eq(a.CachedInputTokens, b.CachedInputTokens) &&
		eq(a.CacheWriteTokens, b.CacheWriteTokens) && eq(a.OutputTokens, b.OutputTokens) &&
		eq(a.ReasoningTokens, b.ReasoningTokens) && eq(a.TotalTokens, b.TotalTokens)
}

func TestUsage(t *testing.T) {
	// The public gleam sample of a usage object (Claude Code 2.1.4).
	stats, err := os.ReadFile("../../testdata/claude/public/gleam-sdk__stream-json__usage_stats.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, in string
		want     universal.Usage
		ok       bool
	}{
		{"public sample", string(stats), universal.Usage{InputTokens: n(1500 + 2000 + 800), CachedInputTokens: n(800), CacheWriteTokens: n(2000), OutputTokens: n(350), TotalTokens: n(4300 + 350)}, true},
		{"output only", `{"output_tokens":30}`, universal.Usage{OutputTokens: n(30)}, true},
		{"null is not reported", `{"input_tokens":null,"output_tokens":2}`, universal.Usage{OutputTokens: n(2)}, true},
		{"thinking is part of output", `{"input_tokens":1,"output_tokens":9,"output_tokens_details":{"thinking_tokens":4}}`,
			universal.Usage{InputTokens: n(1), OutputTokens: n(9), ReasoningTokens: n(4), TotalTokens: n(10)}, true},
		{"nothing", `{"service_tier":"standard"}`, universal.Usage{}, false},
		{"absent", ``, universal.Usage{}, false},
	}
	for _, c := range cases {
		got, ok := anthropic.Usage(gjson.Parse(c.in))
		if ok != c.ok || !sameUsage(got, c.want) {
			t.Errorf("%s: got %+v %v", c.name, got, ok)
		}
	}
}

func TestModelUsage(t *testing.T) {
	m := anthropic.ModelUsage(jsonscan.Wrap(gjson.Parse(`{"a":{"inputTokens":17,"outputTokens":308,"cacheReadInputTokens":41771,"cacheCreationInputTokens":3029,"costUSD":0.028,"contextWindow":200000},
		"b":{"inputTokens":933,"outputTokens":244,"costUSD":0.002,"contextWindow":100000,"thinkingTokens":5}}`)))
	want := universal.Usage{InputTokens: n(17 + 41771 + 3029 + 933), CachedInputTokens: n(41771), CacheWriteTokens: n(3029),
		OutputTokens: n(552), ReasoningTokens: n(5), TotalTokens: n(17 + 41771 + 3029 + 933 + 552)}
	if !sameUsage(m.Usage, want) || m.Models != 2 || *m.ContextWindow != 200000 || *m.CostUSD < 0.0299 || *m.CostUSD > 0.0301 {
		t.Errorf("got %+v", m)
	}
	if e := anthropic.ModelUsage(jsonscan.Wrap(gjson.Parse(`{}`))); e.Models != 0 || e.CostUSD != nil || e.Usage.InputTokens != nil {
		t.Errorf("empty map: %+v", e)
	}
}

func TestAddMax(t *testing.T) {
	a := universal.Usage{InputTokens: n(10), OutputTokens: n(1)}
	b := universal.Usage{InputTokens: n(5), OutputTokens: n(7), CachedInputTokens: n(2)}
	if s := anthropic.AddUsage(a, b); *s.InputTokens != 15 || *s.OutputTokens != 8 || *s.CachedInputTokens != 2 || s.ReasoningTokens != nil {
		t.Errorf("add %+v", s)
	}
	if m := anthropic.MaxUsage(a, b); *m.InputTokens != 10 || *m.OutputTokens != 7 || *m.CachedInputTokens != 2 {
		t.Errorf("max %+v", m)
	}
}

func TestToolResult(t *testing.T) {
	cp := func(s string) string { return strings.Clone(s) }
	out, extra := anthropic.ToolResult(gjson.Parse(`"plain"`), cp)
	if out != "plain" || extra != nil {
		t.Errorf("string: %q %v", out, extra)
	}
	out, extra = anthropic.ToolResult(gjson.Parse(`[{"type":"text","text":"a"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}},{"type":"text","text":"b"},{"type":"tool_reference","tool_name":"X"}]`), cp)
	if out != "a\nb" || len(extra) != 2 || extra[0].Type != universal.PartImage || extra[0].Mime != "image/png" ||
		extra[1].Type != universal.PartJSON || !strings.Contains(string(extra[1].JSON), "tool_reference") {
		t.Errorf("array: %q %+v", out, extra)
	}
	out, _ = anthropic.ToolResult(gjson.Parse(`{"type":"text","text":"one"}`), nil)
	if out != "one" {
		t.Errorf("object: %q", out)
	}
	if out, extra = anthropic.ToolResult(gjson.Parse(`null`), nil); out != "" || extra != nil {
		t.Errorf("null: %q %v", out, extra)
	}
	img := anthropic.Image(gjson.Parse(`{"type":"image","source":{"type":"url","url":"https://x/y.png"}}`), nil)
	if img.Path != "https://x/y.png" || img.Mime != "" {
		t.Errorf("url image %+v", img)
	}
	if img := anthropic.Image(gjson.Parse(`{"type":"image"}`), nil); img.Mime == "" {
		t.Errorf("image without a source must still name something: %+v", img)
	}
}

func TestJSONEqual(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{`{"command": "ls", "n": 1}`, `{"n":1.0,"command":"ls"}`, true},
		{`{"a":{"b":[1,{"c":true}]}}`, `{"a":{"b":[1,{"c":true}]}}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":1,"b":2}`, `{"a":1}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":"x"}`, `{"a":"y"}`, false},
		{`{"a":null}`, `{"a":false}`, false},
		{`{"comm`, `{"comm`, false},
		{`{}`, `[]`, false},
	}
	for _, c := range cases {
		if got := anthropic.JSONEqual(c.a, c.b); got != c.want {
			t.Errorf("JSONEqual(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

// TestUsageAllocs: a usage report's counts come in one allocation.
func TestUsageAllocs(t *testing.T) {
	u := gjson.Parse(`{"input_tokens":10,"cache_read_input_tokens":200,"cache_creation_input_tokens":30,"output_tokens":5,"output_tokens_details":{"thinking_tokens":2}}`)
	allocs := testing.AllocsPerRun(100, func() {
		if _, ok := anthropic.Usage(u); !ok {
			t.Fatal("no usage")
		}
	})
	if allocs > 1 {
		t.Errorf("%.0f allocations, want 1", allocs)
	}
}

// TestUsageValue: Usage reads a usage object from a jsonscan index as it
// reads it from gjson.
func TestUsageValue(t *testing.T) {
	for _, in := range []string{
		`{"input_tokens":120,"cache_creation_input_tokens":0,"cache_read_input_tokens":3,"output_tokens":20,"output_tokens_details":{"thinking_tokens":5}}`,
		`{"input_tokens":1}`,
		`{"output_tokens":2}`,
		`{"cache_read_input_tokens":2,"output_tokens":-1}`,
		`{"input_tokens":null,"output_tokens":"3"}`,
		`{"input_tokens":1,"input_tokens":2,"output_tokens":1.5e3}`,
		`{"output_tokens_details":{"thinking_tokens":4}}`,
		`{"input_tokens":123456789012345678,"output_tokens":1e3,"cache_read_input_tokens":12345678901234567890}`,
		`{"input_tokens":9007199254740993,"output_tokens":-0,"cache_creation_input_tokens":0.5}`,
		`{"output_tokens_details":1,"output_tokens_details":{"thinking_tokens":4}}`,
		`{"output_tokens_details":[{"thinking_tokens":4}]}`,
		`{"output_tokens_details":{"thinking_tokens":-4}}`,
		`{"in\u0070ut_tokens":7}`,
		`{}`,
		`[]`,
		`"x"`,
		`null`,
	} {
		var s jsonscan.Scanner
		if !s.Scan([]byte(`{"usage":` + in + `}`)) {
			t.Fatalf("%s: not JSON", in)
		}
		v := s.Root().Sub("usage")
		got, gotOK := anthropic.Usage(v)
		want, wantOK := anthropic.Usage(gjson.Parse(in))
		if gotOK != wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v %v, want %+v %v", in, got, gotOK, want, wantOK)
		}
	}
	if _, ok := anthropic.Usage(jsonscan.Value{}); ok {
		t.Error("an absent usage has counts")
	}
}
