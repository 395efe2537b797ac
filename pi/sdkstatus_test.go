package pi_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSDKErrorStatus: Pi 0.73's errorMessage of an OpenAI-compatible API's
// error is the openai SDK's message, "<status> <error.message>" ("529
// Overloaded", "400 Invalid request: …"; npm openai 6.26.0
// APIError.makeMessage). Its status was dropped where Claude Code's "API
// Error: 529 Overloaded." and the body forms of Pi's own errors keep
// theirs; the error's details now have http_status, the text stays the
// message. Over the recorded 0.73.1 failures in every format, and
// hand-made texts that are not that form.
func TestSDKErrorStatus(t *testing.T) {
	type want struct {
		msg    string
		status int64 // 0: none
	}
	for _, tc := range []struct {
		name, format, input string
		want                []want
	}{
		{"0.73.1 json", pi.FormatJSON, "s05-error.json.jsonl", []want{{"529 Overloaded", 529}, {"400 Invalid request: the mock rejects this prompt", 400}}},
		{"0.73.1 rpc", pi.FormatRPC, "s05-error.rpc.jsonl", []want{{"529 Overloaded", 529}, {"400 Invalid request: the mock rejects this prompt", 400}}},
		{"0.73.1 exchange", pi.FormatExchange, "s05-error.rpc.exchange.jsonl", []want{{"529 Overloaded", 529}, {"400 Invalid request: the mock rejects this prompt", 400}}},
		{"0.73.1 session", pi.FormatSession, "s05-error.json.session.jsonl", []want{{"529 Overloaded", 529}, {"400 Invalid request: the mock rejects this prompt", 400}}},
		{"0.73.1 recovered", pi.FormatJSON, "s05-error-recover.json.jsonl", []want{{"500 The server had an error while processing your request", 500}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := golden.OfType(translate(t, tc.format, read(t, filepath.Join(testdata, "0.73.1", tc.input))), universal.TypeError)
			if len(errs) != len(tc.want) {
				t.Fatalf("%d errors, want %d", len(errs), len(tc.want))
			}
			for i, e := range errs {
				d := e.Data.(*universal.Error)
				if d.Message != tc.want[i].msg {
					t.Errorf("error %d: message %q, want %q", i, d.Message, tc.want[i].msg)
				}
				if got := httpStatus(t, d.Details); got != tc.want[i].status {
					t.Errorf("error %d %q: http_status %d, want %d (details %s)", i, d.Message, got, tc.want[i].status, d.Details)
				}
			}
		})
	}
	// Texts that are not "<4xx|5xx> <message>": no status.
	for _, tc := range []struct {
		text   string
		status int64
	}{
		{"529 status code (no body)", 529},
		{"  503 Service Unavailable ", 503},
		{"200 OK", 0},
		{"5290 Overloaded", 0},
		{"529", 0},
		{"529 ", 0},
		{"52x Overloaded", 0},
		{"Connection error.", 0},
		{"Error 529 Overloaded", 0},
	} {
		t.Run(tc.text, func(t *testing.T) {
			b, _ := json.Marshal(tc.text)
			in := `{"type":"agent_start"}` + "\n" +
				`{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":500,"errorMessage":` + string(b) + `}` + "\n"
			errs := golden.OfType(translate(t, pi.FormatJSON, []byte(in)), universal.TypeError)
			if len(errs) != 1 {
				t.Fatalf("%d errors, want 1", len(errs))
			}
			d := errs[0].Data.(*universal.Error)
			if got := httpStatus(t, d.Details); got != tc.status {
				t.Errorf("http_status %d, want %d (details %s)", got, tc.status, d.Details)
			}
			if d.Message != tc.text {
				t.Errorf("message %q, want the text", d.Message)
			}
			var details map[string]any
			if err := json.Unmarshal(d.Details, &details); err != nil || details["attempt"] != float64(1) {
				t.Errorf("details %s lost the retry's attempt", d.Details)
			}
		})
	}
}

// httpStatus is the http_status of an error's details, 0 when none.
func httpStatus(t *testing.T, details []byte) int64 {
	t.Helper()
	if len(details) == 0 {
		return 0
	}
	var d struct {
		Status int64 `json:"http_status"`
	}
	if err := json.Unmarshal(details, &d); err != nil {
		t.Fatalf("details %s: %v", details, err)
	}
	return d.Status
}
