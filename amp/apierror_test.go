package amp_test

import (
	"encoding/json"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestResultAPIErrorBody: a failed Amp run's result carries the model
// API's HTTP status and error body as its error text ("413 {…}", a line
// quoted as Amp's in two public projects' tests; the index does not name
// the repositories). The error event's message was that text; it is now
// the body's error.message, with the status and the body in the details.
// Any other error text is kept as it is.
func TestResultAPIErrorBody(t *testing.T) {
	const sid = "T-019bce63-7de3-73a4-93a7-c1b84e61411e"
	init := `{"type":"system","subtype":"init","cwd":"/x","session_id":"` + sid + `","tools":[],"mcp_servers":[]}`
	evs := run(t, amp.FormatStreamJSON, lines(init,
		`{"type":"result","subtype":"error_during_execution","duration_ms":389584,"is_error":true,"num_turns":28,"error":"413 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Prompt is too long\"},\"request_id\":\"req_vrtx_011CXDs3LJPo57WcNsT9h9bs\"}","session_id":"`+sid+`"}`), nil)
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1", len(errs))
	}
	e := errs[0].Data.(*universal.Error)
	var d struct {
		Status   int `json:"http_status"`
		APIError struct {
			RequestID string `json:"request_id"`
		} `json:"api_error"`
	}
	if err := json.Unmarshal(e.Details, &d); err != nil || e.Message != "Prompt is too long" || e.Code != "error_during_execution" ||
		d.Status != 413 || d.APIError.RequestID != "req_vrtx_011CXDs3LJPo57WcNsT9h9bs" {
		t.Errorf("error %+v (details %s, %v)", e, e.Details, err)
	}
	for _, text := range []string{"Out of credits", "500 Internal Server Error", `429 {"detail":"slow down"}`} {
		b, _ := json.Marshal(text)
		evs := run(t, amp.FormatStreamJSON, lines(init,
			`{"type":"result","subtype":"error_during_execution","is_error":true,"error":`+string(b)+`,"session_id":"`+sid+`"}`), nil)
		if errs := golden.OfType(evs, universal.TypeError); len(errs) != 1 || errs[0].Data.(*universal.Error).Message != text {
			t.Errorf("%q: errors %v, want the text kept", text, errs)
		}
	}
}
