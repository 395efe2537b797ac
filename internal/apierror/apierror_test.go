package apierror

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/jsonw"
)

func TestParse(t *testing.T) {
	const anthropic = `{"type":"error","error":{"type":"invalid_request_error","message":"too long"},"request_id":"r1"}`
	const openai = `{"error":{"message":"bad model","type":"invalid_request_error","code":"model_not_found","param":null},"status":400}`
	for _, c := range []struct {
		text    string
		ok      bool
		status  int64
		message string
		code    string
	}{
		{openai, true, 0, "bad model", "model_not_found"},
		{"{\n  \"error\": {\n    \"message\": \"pretty\"\n  }\n}", true, 0, "pretty", ""},
		{"413 " + anthropic, true, 413, "too long", "invalid_request_error"},
		{"API Error: 400 " + anthropic, true, 400, "too long", "invalid_request_error"},
		{"  API Error: 529 " + anthropic + "\n", true, 529, "too long", "invalid_request_error"},
		{"Internal error: API Error: 400 " + anthropic, true, 400, "too long", "invalid_request_error"},
		{`{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}`, true, 0, "Request contains an invalid argument.", ""},
		// Not an API error body.
		{"API Error: 400 the mock rejects this prompt", false, 0, "", ""},
		{"Request failed: API Error: 400 " + anthropic + " (retrying)", false, 0, "", ""},
		{"see API Error: 400 " + anthropic, false, 0, "", ""},
		{"600 " + anthropic, false, 0, "", ""},
		{"40 " + anthropic, false, 0, "", ""},
		{`{"error":{"message":""}}`, false, 0, "", ""},
		{`{"error":"plain"}`, false, 0, "", ""},
		{`{"message":"no error object"}`, false, 0, "", ""},
		{`{"error":{"message":"unterminated"}`, false, 0, "", ""},
		{"", false, 0, "", ""},
		{"API Error: ", false, 0, "", ""},
	} {
		b, ok := Parse(c.text)
		if ok != c.ok || b.Status != c.status || b.Message != c.message || b.Code != c.code {
			t.Errorf("Parse(%q) = %+v, %v; want status %d message %q code %q, %v", c.text, b, ok, c.status, c.message, c.code, c.ok)
		}
	}
}

func TestStatus(t *testing.T) {
	for text, want := range map[string]int64{
		"API Error: 400 due to tool use concurrency issues. Run /rewind to recover the conversation.": 400,
		"  API Error: 529 Overloaded\n":            529,
		"Internal error: API Error: 500 oops":      500,
		`API Error: 400 {"error":{"message":"x"}}`: 400,
		"API Error: Request timed out.":            0,
		"API Error: 600 no":                        0,
		"API Error: 40 no":                         0,
		"API Error: 400":                           0,
		"see API Error: 400 x":                     0,
		"400 plain":                                0,
		"":                                         0,
	} {
		got, ok := Status(text)
		if got != want || ok != (want != 0) {
			t.Errorf("Status(%q) = %d, %v; want %d", text, got, ok, want)
		}
	}
}

func TestAddTo(t *testing.T) {
	b, _ := Parse("API Error: 400 {\"error\": {\"message\": \"x\"}}")
	var o jsonw.Object
	o.String("kept", "yes")
	b.AddTo(&o)
	if got, want := string(o.Bytes()), `{"kept":"yes","http_status":400,"api_error":{"error":{"message":"x"}}}`; got != want {
		t.Errorf("details %s, want %s", got, want)
	}
	b, _ = Parse(`{"error":{"message":"x"}}`)
	o = jsonw.Object{}
	b.AddTo(&o)
	if got, want := string(o.Bytes()), `{"api_error":{"error":{"message":"x"}}}`; got != want {
		t.Errorf("details %s, want %s", got, want)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("API Error: 400 {\"error\":{\"message\":\"x\"}}")
	f.Add("413 {}")
	f.Fuzz(func(t *testing.T, s string) {
		b, ok := Parse(s)
		if ok && (b.Message == "" || b.JSON == "" || b.JSON[0] != '{') {
			t.Errorf("Parse(%q) = %+v", s, b)
		}
		if st, ok := Status(s); ok && (st < 100 || st > 599 || ok && b.Status != 0 && b.Status != st) {
			t.Errorf("Status(%q) = %d, Parse's %d", s, st, b.Status)
		}
	})
}
