package acp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestErrorCauseInDetails: the ACP libraries' RequestError gives each
// JSON-RPC code a fixed message ("Internal error", "Invalid params", …)
// and puts the cause the agent names in data.details. Gemini CLI 0.2.2 and
// Qwen Code (0.1.4 to 0.24.4) answer a failed model call so (the lines
// of their s05-error recordings): the error's message is the cause (the
// Gemini API's body read as the native translators read it), not the
// generic text; the code and data stay. Zed's codex-acp names the
// cause in data.message (its s05-error recordings). A message of the agent's own, or
// details that are not a string, leave the message as it is.
func TestErrorCauseInDetails(t *testing.T) {
	const setup = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"a","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}` + "\n"
	for _, c := range []struct {
		name, line, message, details string
	}{
		{"gemini-cli 0.2.2",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error","data":{"details":"{\"error\":{\"code\":400,\"message\":\"Request contains an invalid argument.\",\"status\":\"INVALID_ARGUMENT\"}}"}}}`,
			"Request contains an invalid argument.",
			`{"method":"session/prompt","data":{"details":"{\"error\":{\"code\":400,\"message\":\"Request contains an invalid argument.\",\"status\":\"INVALID_ARGUMENT\"}}"},"api_error":{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}}`},
		{"codex-acp 0.16.0", // data {message, codex_error_info} (Zed's codex-acp, thread.rs), its s05-error line
			`{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error","data":{"message":"{\"error\": {\"message\": \"Invalid 'input': mock rejects this request.\", \"type\": \"invalid_request_error\", \"param\": null, \"code\": \"invalid_value\"}}","codex_error_info":"other"}},"id":3}`,
			"Invalid 'input': mock rejects this request.",
			`{"method":"session/prompt","data":{"message":"{\"error\": {\"message\": \"Invalid 'input': mock rejects this request.\", \"type\": \"invalid_request_error\", \"param\": null, \"code\": \"invalid_value\"}}","codex_error_info":"other"},"api_error":{"error":{"message":"Invalid 'input': mock rejects this request.","type":"invalid_request_error","param":null,"code":"invalid_value"}}}`},
		{"qwen-code",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error","data":{"details":"400 Invalid request: the mock rejects this prompt"}}}`,
			"400 Invalid request: the mock rejects this prompt",
			`{"method":"session/prompt","data":{"details":"400 Invalid request: the mock rejects this prompt"}}`},
		{"invalid params",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"details":"prompt: expected array"}}}`,
			"prompt: expected array", `{"method":"session/prompt","data":{"details":"prompt: expected array"}}`},
		{"own message",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Model overloaded","data":{"details":"retry later"}}}`,
			"Model overloaded", `{"method":"session/prompt","data":{"details":"retry later"}}`},
		{"details not a string",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error","data":{"details":{"why":"x"}}}}`,
			"Internal error", `{"method":"session/prompt","data":{"details":{"why":"x"}}}`},
		{"empty details",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error","data":{"details":" "}}}`,
			"Internal error", `{"method":"session/prompt","data":{"details":" "}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := `{"dir":"in","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}}` + "\n" +
				`{"dir":"out","msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}}` + "\n" +
				`{"dir":"in","msg":{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}` + "\n" +
				`{"dir":"out","msg":{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}}` + "\n" +
				`{"dir":"in","msg":{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}}` + "\n" +
				`{"dir":"out","msg":` + c.line + "}\n"
			for format, input := range map[string]string{acp.FormatExchange: in, acp.FormatAgent: setup + c.line + "\n"} {
				evs := translate(t, format, input)
				errs := golden.OfType(evs, universal.TypeError)
				if len(errs) != 1 {
					t.Fatalf("%s: %d error events, want 1", format, len(errs))
				}
				d := errs[0].Data.(*universal.Error)
				if d.Message != c.message || d.Code != "-32603" && d.Code != "-32602" {
					t.Errorf("%s: error %q code %q, want %q", format, d.Message, d.Code, c.message)
				}
				if format != acp.FormatExchange {
					continue // no prompt seen: an error outside a turn, which names no method
				}
				if string(d.Details) != c.details {
					t.Errorf("%s: details %s\nwant %s", format, d.Details, c.details)
				}
				if ended := golden.OfType(evs, universal.TypeTurnEnded); len(ended) != 1 {
					t.Errorf("%s: %d turn.ended, want 1", format, len(ended))
				}
			}
		})
	}
}
