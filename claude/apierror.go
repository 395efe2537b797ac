package claude

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// apiErrorPrefix starts the text Claude Code prints for a failed model
// API request: "API Error: 400 {"type":"error","error":{…}}" (the status
// and the API's response body), or, since 2.1.x for most errors, "API
// Error: 400 " and the body's message alone.
const apiErrorPrefix = "API Error: "

// apiErrorBody splits Claude Code's text of a failed API request whose
// response body it printed as JSON ("API Error: 400 {"type":"error",
// "error":{"type":…,"message":…},"request_id":…}") into the HTTP status,
// the body and the body's error.message; ok is false for any other text,
// among them the form with the message alone.
func apiErrorBody(text string) (status int64, body, message string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(text), apiErrorPrefix)
	if !found {
		return 0, "", "", false
	}
	code, rest, found := strings.Cut(rest, " ")
	if !found || len(code) != 3 || code[0] < '1' || code[0] > '5' || code[1] < '0' || code[1] > '9' || code[2] < '0' || code[2] > '9' {
		return 0, "", "", false
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "{") || !gjson.Valid(rest) {
		return 0, "", "", false
	}
	m := gjson.Get(rest, "error.message")
	if m.Type != gjson.String || strings.TrimSpace(m.Str) == "" {
		return 0, "", "", false
	}
	n, _ := strconv.ParseInt(code, 10, 64)
	return n, rest, m.Str, true
}

// unwrapAPIError is the message, code and details of an error event whose
// text may be Claude Code's "API Error: NNN {body}": the body's
// error.message, the code given (else the body's error.type), and the
// details with http_status and the body (compacted) as api_error, as the
// codex and amp translators report such errors. Any other text is
// returned as it is.
func unwrapAPIError(text, code string, details *jsonw.Object) (string, string) {
	status, body, msg, ok := apiErrorBody(text)
	if !ok {
		return text, code
	}
	if code == "" {
		code = gjson.Get(body, "error.type").Str
	}
	details.Int("http_status", status).Raw("api_error", body)
	return msg, code
}
