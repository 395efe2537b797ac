package acp

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// rpcErrorTexts are the fixed messages the ACP libraries give an error
// of each JSON-RPC code (RequestError.parseError, invalidRequest,
// methodNotFound, invalidParams, internalError, authRequired,
// resourceNotFound): the cause is not in the message but in
// data.details, the string the agent passed to the constructor.
var rpcErrorTexts = [...]string{
	"Parse error", "Invalid request", "Method not found", "Invalid params",
	"Internal error", "Authentication required", "Resource not found",
}

// errorCause is the message of an error response: its message, unless
// that is only the generic text of an ACP library's RequestError and
// data.details says what failed (Gemini CLI and Qwen Code answer a failed
// prompt {code: -32603, message: "Internal error", data: {details: the
// model API's error}}); then the details. Zed's codex-acp (0.13–0.16,
// thread.rs: Error::internal_error().data({message, codex_error_info}))
// puts Codex's error in data.message: read so when data has no details.
func errorCause(msg string, e jsonscan.Value) string {
	d := e.Get("data.details")
	if !d.Exists() {
		d = e.Get("data.message")
	}
	if d.Type != gjson.String || strings.TrimSpace(d.Str) == "" {
		return msg
	}
	for _, s := range rpcErrorTexts {
		if strings.EqualFold(msg, s) {
			return d.Str
		}
	}
	return msg
}
