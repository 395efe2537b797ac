package claude

import (
	"github.com/agentnorm/agentnorm/internal/apierror"
	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// unwrapAPIError is the message, code and details of an error event whose
// text may be Claude Code's "API Error: NNN {body}" (see package
// internal/apierror): the body's error.message, the code given (else the
// body's), and the details with http_status and the body as api_error,
// as every translator reports such errors. Any other text is returned as
// it is, with http_status in the details when it is "API Error: NNN" and
// a plain message.
func unwrapAPIError(text, code string, details *jsonw.Object) (string, string) {
	b, ok := apierror.Parse(text)
	if !ok {
		// "API Error: 400 <a plain message>": the text stays the
		// message, and the status is kept.
		if st, ok := apierror.Status(text); ok {
			details.Int("http_status", st)
		}
		return text, code
	}
	if code == "" {
		code = b.Code
	}
	b.AddTo(details)
	return b.Message, code
}
