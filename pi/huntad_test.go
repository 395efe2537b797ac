package pi_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestDetailErrorBody: pi-ai's openai-codex-responses API passes the
// ChatGPT backend's error body on as the failed message's errorMessage,
// {"detail": "<message>"} alone (a model the account may not use), as in
// raquezha/pi.dev's Entire checkpoint of a Pi session of April 2026
// (testdata/pi/public/pidev__codex-detail-error.v3-session.jsonl) and
// Irrlicht's recording (irrlicht__turn-aborted-by-error). The error
// event's message was that JSON text; it is now the detail, the body kept
// in the details as api_error (no status or code: the text gives none),
// as the other bodies pi-ai passes on are read. The status form "NNN:
// <body>" with such a body gives the status too. A detail that is no
// string stays as it is.
func TestDetailErrorBody(t *testing.T) {
	const want = "The 'gpt-5.5' model is not supported when using Codex with a ChatGPT account."
	evs := translateClean(t, pi.FormatSession, read(t, filepath.Join(testdata, "public", "pidev__codex-detail-error.v3-session.jsonl")))
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d error events, want 1", len(errs))
	}
	e := errs[0].Data.(*universal.Error)
	var d struct {
		Status   int             `json:"http_status"`
		APIError json.RawMessage `json:"api_error"`
	}
	if err := json.Unmarshal(e.Details, &d); err != nil || e.Message != want || e.Code != "" || d.Status != 0 ||
		string(d.APIError) != `{"detail":"`+want+`"}` {
		t.Errorf("error %q code %q details %s (%v), want the detail, the body in api_error", e.Message, e.Code, e.Details, err)
	}

	const header = `{"type":"session","version":3,"id":"s","timestamp":"2026-04-24T23:54:18.334Z","cwd":"/p"}` + "\n"
	const user = `{"type":"message","id":"u","parentId":null,"timestamp":"2026-04-24T23:54:41.481Z","message":{"role":"user","content":[{"type":"text","text":"hello!"}],"timestamp":1777074881338}}` + "\n"
	for text, w := range map[string]struct {
		msg    string
		status int
	}{
		`400: {"detail":"Bad Request"}`: {"Bad Request", 400},
		`{"detail":""}`:                 {`{"detail":""}`, 0},
		`{"detail":[{"msg":"x"}]}`:      {`{"detail":[{"msg":"x"}]}`, 0},
	} {
		b, _ := json.Marshal(text)
		failed := `{"type":"message","id":"a","parentId":"u","timestamp":"2026-04-24T23:54:50.053Z","message":{"role":"assistant","content":[],"api":"openai-codex-responses","provider":"openai-codex","model":"gpt-5.5","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","timestamp":1777074881487,"errorMessage":` + string(b) + `}}` + "\n"
		errs := golden.OfType(translateClean(t, pi.FormatSession, []byte(header+user+failed)), universal.TypeError)
		if len(errs) != 1 {
			t.Fatalf("%s: %d error events, want 1", text, len(errs))
		}
		e := errs[0].Data.(*universal.Error)
		var d struct {
			Status int `json:"http_status"`
		}
		_ = json.Unmarshal(e.Details, &d)
		if e.Message != w.msg || d.Status != w.status {
			t.Errorf("%s: error %q details %s, want %q status %d", text, e.Message, e.Details, w.msg, w.status)
		}
	}
}
