package codex_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAPIErrorBody: Codex passes a model API's 4xx body on as the message
// of its errors, JSON text ({"type":"error","status":400,"error":{…}}, or
// {"error":{…}}, compact or pretty-printed), in exec's error and
// turn.failed lines, app-server error notifications and rollouts. The
// error event's message was that JSON text; it is now the body's
// error.message, the code its error.code (else error.type) when the event
// had none, and the body is kept in the details as api_error. Real lines:
// a 0.12x exec run refused a model (velvetmonkey/flywheel-ideas, kept as
// testdata/codex/public/exec/flywheel-ideas-0.12x-bad-model.jsonl), the
// same shape from 0.160.0 quoted in a public test file, the recorded 0.169
// s05-error captures.
func TestAPIErrorBody(t *testing.T) {
	const want = "The 'fake-nonexistent-xyz-999' model is not supported when using Codex with a ChatGPT account."
	b, err := os.ReadFile(filepath.Join(public, "exec", "flywheel-ideas-0.12x-bad-model.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	evs := run(t, codex.FormatExec, nil, strings.Split(strings.TrimSpace(string(b)), "\n"))
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1", len(errs))
	}
	e := errs[0].Data.(*universal.Error)
	if e.Message != want || e.Code != "invalid_request_error" {
		t.Errorf("error %q code %q, want %q code invalid_request_error", e.Message, e.Code, want)
	}
	var d struct {
		APIError struct {
			Status int `json:"status"`
			Error  struct{ Message string }
		} `json:"api_error"`
	}
	if err := json.Unmarshal(e.Details, &d); err != nil || d.APIError.Status != 400 || d.APIError.Error.Message != want {
		t.Errorf("details %s (%v), want the body with status 400", e.Details, err)
	}

	// The app-server's error notification, with its codexErrorInfo code
	// (kept) and a pretty-printed body.
	body := `{\n  \"type\": \"error\",\n  \"error\": {\n    \"type\": \"invalid_request_error\",\n    \"code\": \"unsupported_value\",\n    \"message\": \"Unsupported value: 'minimal'.\",\n    \"param\": \"reasoning.effort\"\n  },\n  \"status\": 400\n}`
	evs = run(t, codex.FormatAppServer, nil, []string{
		`{"method":"thread/started","params":{"thread":{"id":"th1"}}}`,
		`{"method":"turn/started","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"inProgress"}}}`,
		`{"method":"error","params":{"error":{"message":"` + body + `","codexErrorInfo":"other","additionalDetails":null},"willRetry":false,"threadId":"th1","turnId":"tu1"}}`,
		`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","items":[],"status":"failed","error":{"message":"` + body + `","codexErrorInfo":"other"}}}}`,
	})
	errs = golden.OfType(evs, universal.TypeError)
	if len(errs) == 0 {
		t.Fatal("no error event")
	}
	for _, ev := range errs {
		e := ev.Data.(*universal.Error)
		if e.Message != "Unsupported value: 'minimal'." || e.Code != "other" || !strings.Contains(string(e.Details), `"api_error":{"type":"error","error":{"type":"invalid_request_error","code":"unsupported_value"`) {
			t.Errorf("app-server error %q code %q details %s", e.Message, e.Code, e.Details)
		}
	}

	// Messages that are not such a body stay as they are.
	for _, msg := range []string{`stream disconnected before completion`, `{\"detail\":\"Unauthorized\"}`, `{\"error\":{\"message\":\"\"}}`, `{not json`} {
		evs := run(t, codex.FormatExec, nil, []string{
			`{"type":"thread.started","thread_id":"th"}`, `{"type":"turn.started"}`,
			`{"type":"turn.failed","error":{"message":"` + msg + `"}}`,
		})
		var got []string
		for _, ev := range golden.OfType(evs, universal.TypeError) {
			got = append(got, ev.Data.(*universal.Error).Message)
		}
		var w string
		if err := json.Unmarshal([]byte(`"`+msg+`"`), &w); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != w {
			t.Errorf("messages %q, want %q unchanged", got, w)
		}
	}
}
