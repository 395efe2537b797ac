// Package apierror reads a model API's error response that a coding agent
// passed on as the text of its own error, so that every translator reports
// such an error the same way: the API's message as the event's message,
// and the response body, with the HTTP status when the text gives it, in
// the event's details.
//
// The forms agents print:
//
//	{"error":{"message":"…","type":"…","code":"…"}}          the body alone (Codex)
//	413 {"type":"error","error":{"type":"…","message":"…"}}  status and body (Amp)
//	API Error: 400 {"type":"error","error":{…}}              Claude Code
//	Internal error: API Error: 400 {…}                       Claude Code's, wrapped again (an ACP agent)
//
// The body may be pretty-printed. Any other text (a plain message after
// the status, a body without error.message) is not an API error body;
// Status reads the status of Claude Code's form with a plain message.
package apierror

import (
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// Body is a model API's error response read from an agent's error text.
type Body struct {
	Status  int64  // the HTTP status the text gives, else 0
	JSON    string // the response body as written: a JSON object
	Message string // the body's error.message
	Code    string // the body's error.code, else its error.type ("" when neither is a string)
}

// Parse reads text as one of the forms of the package doc.
func Parse(text string) (Body, bool) {
	s := strings.TrimSpace(text)
	if i := strings.Index(s, "API Error: "); i >= 0 && (i == 0 || strings.HasSuffix(s[:i], ": ")) {
		s = s[i+len("API Error: "):]
	}
	var b Body
	if len(s) > 4 && s[3] == ' ' && s[0] >= '1' && s[0] <= '5' && digit(s[1]) && digit(s[2]) {
		b.Status, _ = strconv.ParseInt(s[:3], 10, 64)
		s = strings.TrimSpace(s[4:])
	}
	if len(s) < 2 || s[0] != '{' || !gjson.Valid(s) {
		return Body{}, false
	}
	m := gjson.Get(s, "error.message")
	if m.Type != gjson.String || strings.TrimSpace(m.Str) == "" {
		return Body{}, false
	}
	b.JSON, b.Message = s, m.Str
	for _, c := range []gjson.Result{gjson.Get(s, "error.code"), gjson.Get(s, "error.type")} {
		if c.Type == gjson.String && c.Str != "" {
			b.Code = c.Str
			break
		}
	}
	return b, true
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

// Status reads the HTTP status of an error text in Claude Code's form
// whose status is followed by a plain message instead of a body ("API
// Error: 400 due to tool use concurrency issues. …", "API Error: 529
// Overloaded. …"), with the prefixes Parse accepts. Texts without the
// "API Error: " prefix give none: a bare number is no status.
func Status(text string) (int64, bool) {
	s := strings.TrimSpace(text)
	i := strings.Index(s, "API Error: ")
	if i < 0 || i > 0 && !strings.HasSuffix(s[:i], ": ") {
		return 0, false
	}
	s = s[i+len("API Error: "):]
	if len(s) > 4 && s[3] == ' ' && s[0] >= '1' && s[0] <= '5' && digit(s[1]) && digit(s[2]) {
		n, _ := strconv.ParseInt(s[:3], 10, 64)
		return n, true
	}
	return 0, false
}

// AddTo adds the status (http_status, when known) and the body
// (api_error, compacted) to an error's details.
func (b Body) AddTo(details *jsonw.Object) {
	if b.Status != 0 {
		details.Int("http_status", b.Status)
	}
	details.Raw("api_error", b.JSON)
}
