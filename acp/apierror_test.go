package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAgentErrorAPIBody: an agent that passes a model API's error response
// on as the text of its JSON-RPC error (claude-agent-acp 0.23.1: "Internal
// error: API Error: 400 {body}"; Gemini CLI 0.61.0: the Gemini API's body
// alone, the lines of their s05-error recordings) reports the API's
// message, with the body (and the status, when the text gives it) in the
// details, as the native translators report such errors; the JSON-RPC
// code stays the error's code. Claude Code's status with a plain message
// keeps its text and gives the status; any other text is kept as it is.
func TestAgentErrorAPIBody(t *testing.T) {
	const setup = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}` + "\n"
	for _, c := range []struct {
		name, line, message, code, details string
	}{
		{"claude-agent-acp",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error: API Error: 400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.0.content: mock rejects this request\"},\"request_id\":\"req_mock_001\"}"}}`,
			"messages.0.content: mock rejects this request", "-32603",
			`{"http_status":400,"api_error":{"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content: mock rejects this request"},"request_id":"req_mock_001"}}`},
		{"gemini-cli",
			`{"jsonrpc":"2.0","id":3,"error":{"code":400,"message":"{\"error\":{\"code\":400,\"message\":\"Request contains an invalid argument.\",\"status\":\"INVALID_ARGUMENT\"}}"}}`,
			"Request contains an invalid argument.", "400",
			`{"api_error":{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}}`},
		{"plain",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error: API Error: 400 the mock rejects this prompt"}}`,
			"Internal error: API Error: 400 the mock rejects this prompt", "-32603", `{"http_status":400}`},
		{"other",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error: 400 requests today"}}`,
			"Internal error: 400 requests today", "-32603", ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs := translate(t, acp.FormatAgent, setup+c.line+"\n")
			errs := golden.OfType(evs, universal.TypeError)
			if len(errs) != 1 {
				t.Fatalf("%d error events, want 1", len(errs))
			}
			d := errs[0].Data.(*universal.Error)
			details := strings.Replace(string(d.Details), `"method":"session/prompt",`, "", 1)
			details = strings.Replace(details, `{"method":"session/prompt"}`, "{}", 1)
			if d.Message != c.message || d.Code != c.code || details != c.details {
				t.Errorf("error %q code %q details %s\nwant %q code %q details %s", d.Message, d.Code, d.Details, c.message, c.code, c.details)
			}
		})
	}
}
