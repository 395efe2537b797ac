package claude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAPIErrorText: Claude Code prints a failed API request as "API Error:
// 400 {"type":"error","error":{…},"request_id":…}" (2.0.x for every error,
// later versions for some) in the synthetic assistant message, the
// result's result and the transcript. The error event's message was that
// text; it is now the body's error.message, with the status and the body
// in the details as http_status and api_error, as codex and amp report
// such errors. The assistant message keeps the text as printed. Real:
// Claude Code 2.0.76's s05-error capture (stream-json and transcript).
func TestAPIErrorText(t *testing.T) {
	const want = "messages.0.content: mock rejects this request"
	check := func(t *testing.T, evs []universal.Event, n int) {
		t.Helper()
		errs := golden.OfType(evs, universal.TypeError)
		if len(errs) != n {
			t.Fatalf("%d errors, want %d", len(errs), n)
		}
		for _, ev := range errs {
			e := ev.Data.(*universal.Error)
			var d struct {
				Status   int `json:"http_status"`
				APIError struct {
					RequestID string `json:"request_id"`
					Error     struct{ Type, Message string }
				} `json:"api_error"`
			}
			if err := json.Unmarshal(e.Details, &d); err != nil || e.Message != want || d.Status != 400 ||
				d.APIError.RequestID == "" || d.APIError.Error.Message != want || d.APIError.Error.Type != "invalid_request_error" {
				t.Errorf("error %q code %q details %s (%v)", e.Message, e.Code, e.Details, err)
			}
		}
	}
	dir := "../testdata/crosscheck/claude/2.0.76"
	for _, c := range []struct{ file, format string }{
		{"s05-error.jsonl", claude.FormatStreamJSON},
		{"s05-error.transcript.jsonl", claude.FormatTranscript},
	} {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			evs := feed(t, c.format, nil, nil, strings.Split(strings.TrimSpace(string(b)), "\n")...)
			check(t, evs, 1)
			// The message item keeps the text as Claude Code printed it.
			msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
			if len(msgs) != 1 || len(msgs[0].Content) == 0 || !strings.HasPrefix(msgs[0].Content[0].Text, `API Error: 400 {"type":"error"`) {
				t.Errorf("assistant messages %+v, want the printed text", msgs)
			}
		})
	}

	// A result printed alone (--output-format json): its result.
	body := `{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"` + want + `\"},\"request_id\":\"req_1\"}`
	evs := feed(t, claude.FormatStreamJSON, nil, nil,
		`{"type":"result","subtype":"success","is_error":true,"duration_ms":467,"num_turns":1,"result":"API Error: 400 `+body+`","session_id":"s1"}`)
	check(t, evs, 1)
	if c := golden.OfType(evs, universal.TypeError)[0].Data.(*universal.Error).Code; c != "success" {
		t.Errorf("code %q, want the result's subtype", c)
	}

	// Texts that are not a status and a body stay as they are.
	for _, text := range []string{
		"API Error: 400 messages.0.content: mock rejects this request",
		"API Error: API returned an empty or malformed response (HTTP 200)",
		`API Error: 500 {"detail":"no message"}`,
		`API Error: 40 {"error":{"message":"x"}}`,
		`Error: 400 {"error":{"message":"x"}}`,
	} {
		b, _ := json.Marshal(text)
		evs := feed(t, claude.FormatStreamJSON, nil, nil,
			`{"type":"result","subtype":"success","is_error":true,"result":`+string(b)+`,"session_id":"s1"}`)
		errs := golden.OfType(evs, universal.TypeError)
		if len(errs) != 1 || errs[0].Data.(*universal.Error).Message != text || strings.Contains(string(errs[0].Data.(*universal.Error).Details), "api_error\"") {
			t.Errorf("%q: errors %+v, want the text kept", text, errs)
		}
	}
}
