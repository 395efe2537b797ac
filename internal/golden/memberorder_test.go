package golden_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestReorder: members move at every depth, in every JSON value of the
// input as its framing reads it; keys, strings (escapes, a lone surrogate,
// JSON inside a string) and numbers keep their bytes; a value with a key
// twice, and lines that are no JSON, stay as they are.
func TestReorder(t *testing.T) {
	for _, c := range []struct {
		name      string
		framing   universal.Framing
		in        string
		rev, sort string
	}{
		{"lines", golden.Lines,
			"{\"type\":\"a\",\"m\":{\"z\":1.50,\"b\":[{\"y\":\"\\ud83d\",\"x\":\"\\u003c\"}]}}\r\nnot json\n\n  {\"b\":\"{\\\"q\\\":1,\\\"p\\\":2}\",\"a\":null}  \n{\"k\":1,\"k\":2,\"j\":0}",
			"{\"m\":{\"b\":[{\"x\":\"\\u003c\",\"y\":\"\\ud83d\"}],\"z\":1.50},\"type\":\"a\"}\r\nnot json\n\n  {\"a\":null,\"b\":\"{\\\"q\\\":1,\\\"p\\\":2}\"}  \n{\"k\":1,\"k\":2,\"j\":0}",
			"{\"m\":{\"b\":[{\"x\":\"\\u003c\",\"y\":\"\\ud83d\"}],\"z\":1.50},\"type\":\"a\"}\r\nnot json\n\n  {\"a\":null,\"b\":\"{\\\"q\\\":1,\\\"p\\\":2}\"}  \n{\"k\":1,\"k\":2,\"j\":0}"},
		{"sorted by name, not reversed", golden.Lines,
			`{"b":1,"c":2,"a":3}`,
			`{"a":3,"c":2,"b":1}`,
			`{"a":3,"b":1,"c":2}`},
		{"pretty-printed", golden.Document,
			"{\n  \"type\": \"t\",\n  \"list\": [\n    {\"b\": 1, \"a\": 2}\n  ]\n}\n",
			"{\n  \"list\": [\n    {\n      \"a\": 2,\n      \"b\": 1\n    }\n  ],\n  \"type\": \"t\"\n}\n",
			"{\n  \"list\": [\n    {\n      \"a\": 2,\n      \"b\": 1\n    }\n  ],\n  \"type\": \"t\"\n}\n"},
		{"sse", golden.SSE,
			"event: message\ndata: {\"type\":\"x\",\"properties\":{\"b\":1,\"a\":2}}\n\ndata: {\"b\":\ndata: 1}\n\n",
			"event: message\ndata: {\"properties\":{\"a\":2,\"b\":1},\"type\":\"x\"}\n\ndata: {\"b\":\ndata: 1}\n\n",
			"event: message\ndata: {\"properties\":{\"a\":2,\"b\":1},\"type\":\"x\"}\n\ndata: {\"b\":\ndata: 1}\n\n"},
		{"exchange", golden.Exchange,
			`{"dir":"out","t_ms":5,"msg":{"type":"x","id":1}}`,
			`{"msg":{"id":1,"type":"x"},"t_ms":5,"dir":"out"}`,
			`{"dir":"out","msg":{"id":1,"type":"x"},"t_ms":5}`},
	} {
		for o, want := range map[golden.MemberOrder]string{golden.Reversed: c.rev, golden.Sorted: c.sort} {
			if got := string(golden.Reorder([]byte(c.in), c.framing, o)); got != want {
				t.Errorf("%s, %s:\n got %q\nwant %q", c.name, o, got, want)
			}
		}
	}
}
