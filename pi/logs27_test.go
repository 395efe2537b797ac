package pi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestProviderErrorBody: pi-ai's anthropic-messages API ends a failed call
// with the Anthropic SDK's error message as the assistant message's
// errorMessage (npm @earendil-works/pi-ai 1.6.0, MIT:
// dist/api/anthropic-messages.js, withCauseDetail(error)), which is the
// HTTP status and the API's response body, "400 {"type":"error","error":
// {"type":…,"message":…},"request_id":…}" — as in the real session
// testdata/pi/public/toolpath__compacted-real.v3-session.jsonl (whose
// text the json case quotes) and in a public harness log of Pi's --mode
// json stdout of July 2026 (found by content search; the index does not
// name the repository, so nothing of it is kept). The error event's
// message was that whole text, with no code and no details, while every
// other translator (Claude Code's "API Error: 400 {…}", Amp's "413 {…}",
// Codex's bodies; package internal/apierror) reports the body's
// error.message, its code, and http_status and api_error in the
// details. Now Pi's do too: for a failed message's error, auto_retry_start
// (the code given stays), and an oh-my-pi message whose errorStatus
// already gave http_status (not repeated). A plain text is kept as it is.
// The failed message's status part keeps the whole errorMessage.
func TestProviderErrorBody(t *testing.T) {
	const body = `{"type":"error","error":{"type":"invalid_request_error","message":"Third-party apps now draw from your extra usage, not your plan limits. Add more at claude.ai/settings/usage and keep going."},"request_id":"req_011CdFzvNsF9TLkog4uY1dQA"}`
	const apiMsg = "Third-party apps now draw from your extra usage, not your plan limits. Add more at claude.ai/settings/usage and keep going."
	errText, _ := json.Marshal("400 " + body)
	failed := func(extra, errMsg string) string {
		return `{"role":"assistant","content":[],"api":"anthropic-messages","provider":"anthropic","model":"claude-haiku-4-5","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","timestamp":1784673261949` + extra + `,"errorMessage":` + errMsg + `}`
	}
	const user = `{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1784673261900}`
	header := `{"type":"session","version":3,"id":"019f86d0-2b56-72c1-b90f-60a707fde7d7","timestamp":"2026-07-21T22:33:37.367Z","cwd":"/home/dev/project"}`
	run := func(msg string) []string {
		return append([]string{header, `{"type":"agent_start"}`, `{"type":"turn_start"}`,
			`{"type":"message_start","message":` + user + `}`, `{"type":"message_end","message":` + user + `}`},
			`{"type":"message_start","message":`+msg+`}`,
			`{"type":"message_end","message":`+msg+`}`,
			`{"type":"turn_end","message":`+msg+`,"toolResults":[]}`,
			`{"type":"agent_end","messages":[`+user+`,`+msg+`],"willRetry":false}`)
	}
	type want struct {
		msg, code string
		status    float64 // details.http_status, 0 for none
		body      bool    // details.api_error is the body
		retry     bool
		md        string // a details member the event must keep
		apiError  string // details.api_error when not the body
	}
	retryLine := `{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":` + string(errText) + `}`
	plain := `"Codex error: The usage limit has been reached"`
	for _, tc := range []struct {
		name   string
		format string
		lines  []string
		want   []want
	}{
		{"message", pi.FormatJSON, run(failed("", string(errText))),
			[]want{{msg: apiMsg, code: "invalid_request_error", status: 400, body: true}}},
		{"session", pi.FormatSession, []string{header,
			`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-07-21T22:34:21.949Z","message":` + user + `}`,
			`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-07-21T22:34:22.393Z","message":` + failed("", string(errText)) + `}`},
			[]want{{msg: apiMsg, code: "invalid_request_error", status: 400, body: true}}},
		{"auto retry", pi.FormatJSON, []string{header, `{"type":"agent_start"}`, `{"type":"turn_start"}`,
			`{"type":"message_start","message":` + user + `}`, `{"type":"message_end","message":` + user + `}`,
			`{"type":"message_start","message":` + failed("", string(errText)) + `}`,
			`{"type":"message_end","message":` + failed("", string(errText)) + `}`,
			`{"type":"turn_end","message":` + failed("", string(errText)) + `,"toolResults":[]}`,
			retryLine},
			[]want{{msg: apiMsg, code: "auto_retry", status: 400, body: true, retry: true, md: "maxAttempts"}}},
		{"omp errorStatus", pi.FormatJSON, run(failed(`,"errorStatus":429,"errorKind":"rate_limit"`, string(errText))),
			[]want{{msg: apiMsg, code: "invalid_request_error", status: 429, body: true, md: "error_kind"}}},
		{"status: error object", pi.FormatJSON, run(failed("", `"503: {\"message\":\"The upstream provider is unavailable.\",\"type\":\"overloaded_error\"}"`)),
			[]want{{msg: "The upstream provider is unavailable.", code: "overloaded_error", status: 503, apiError: `{"message":"The upstream provider is unavailable.","type":"overloaded_error"}`}}},
		{"label (status): body", pi.FormatJSON, run(failed("", `"Example error (429): {\"error\":{\"message\":\"Slow down.\",\"type\":\"rate_limit_error\",\"code\":\"rate_limit_exceeded\"}}"`)),
			[]want{{msg: "Slow down.", code: "rate_limit_exceeded", status: 429, apiError: `{"error":{"message":"Slow down.","type":"rate_limit_error","code":"rate_limit_exceeded"}}`}}},
		// The openai SDK's "<status> <message>": the text stays, its
		// status kept (TestSDKErrorStatus), once beside errorStatus.
		{"status and plain text", pi.FormatJSON, run(failed("", `"400 not/a-model is not a valid model ID"`)),
			[]want{{msg: "400 not/a-model is not a valid model ID", status: 400}}},
		{"status and plain text, omp errorStatus", pi.FormatJSON, run(failed(`,"errorStatus":429,"errorKind":"rate_limit"`, `"429 Too Many Requests"`)),
			[]want{{msg: "429 Too Many Requests", status: 429, md: "error_kind"}}},
		{"plain", pi.FormatJSON, run(failed("", plain)),
			[]want{{msg: "Codex error: The usage limit has been reached"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateClean(t, tc.format, []byte(strings.Join(tc.lines, "\n")+"\n"))
			errs := golden.OfType(evs, universal.TypeError)
			if len(errs) != len(tc.want) {
				t.Fatalf("%d errors, want %d", len(errs), len(tc.want))
			}
			for i, w := range tc.want {
				e := errs[i].Data.(*universal.Error)
				if e.Message != w.msg || e.Code != w.code || e.WillRetry != w.retry {
					t.Errorf("error %d: %q code %q retry %v, want %q code %q retry %v", i, e.Message, e.Code, e.WillRetry, w.msg, w.code, w.retry)
				}
				var d map[string]json.RawMessage
				if len(e.Details) > 0 {
					if err := json.Unmarshal(e.Details, &d); err != nil {
						t.Fatalf("error %d details %s: %v", i, e.Details, err)
					}
				}
				if n := strings.Count(string(e.Details), `"http_status"`); w.status != 0 && n != 1 {
					t.Errorf("error %d: http_status %d times in %s", i, n, e.Details)
				}
				var st float64
				_ = json.Unmarshal(d["http_status"], &st)
				if st != w.status {
					t.Errorf("error %d: http_status %v, want %v (%s)", i, st, w.status, e.Details)
				}
				if got := string(d["api_error"]); w.apiError != "" && got != w.apiError || w.apiError == "" && w.body != (got == body) {
					t.Errorf("error %d: api_error %s, want body %v %s", i, got, w.body, w.apiError)
				}
				if w.md != "" && d[w.md] == nil {
					t.Errorf("error %d: details %s lost %s", i, e.Details, w.md)
				}
			}
			// The failed message keeps the whole text.
			var text string
			for _, l := range tc.lines {
				var line struct {
					Message struct {
						ErrorMessage string `json:"errorMessage"`
					} `json:"message"`
				}
				if json.Unmarshal([]byte(l), &line) == nil && line.Message.ErrorMessage != "" {
					text = line.Message.ErrorMessage
				}
			}
			var kept bool
			for _, it := range golden.NewTranscript(evs).Items {
				for _, p := range it.Content {
					if p.Type == universal.PartStatus && p.Label == "error" && p.Detail == text {
						kept = true
					}
				}
			}
			if !kept {
				t.Error("the failed message's status part lost the errorMessage")
			}
		})
	}
}
