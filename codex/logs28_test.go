package codex_test

import (
	"os"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
)

// TestDetectReplayTranscript: t3code's replay fixtures of codex app-server
// (testdata/codex/public/app-server/t3code-0.157.0-*, real 0.157.0
// traffic) are exchanges recorded from the host's side in the provider
// replay transcript format: a {"type":"transcript_start", provider,
// protocol, version, scenario} header, then {"type": "expect_outbound" |
// "emit_inbound", "label", "frame"} records, then {"type":"runtime_exit"}.
// The format was not detected (the header decided) and the records were
// malformed exchange records (see universal.ExchangeReader).
func TestDetectReplayTranscript(t *testing.T) {
	b, err := os.ReadFile(public + "/app-server/t3code-0.157.0-command-output-streaming.exchange.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := codex.Detect(b); got != codex.FormatExchange {
		t.Errorf("Detect = %q, want %q", got, codex.FormatExchange)
	}
	for _, c := range []struct{ head, want string }{
		// The header alone says nothing: the record after it does.
		{`{"type":"transcript_start","provider":"codex","protocol":"codex.app-server","version":"0.157.0","scenario":"s"}`, ""},
		{`{"type":"transcript_start","provider":"codex","protocol":"codex.app-server","version":"0.157.0","scenario":"s"}` + "\n" +
			`{"type":"expect_outbound","label":"initialize","frame":{"id":1,"method":"initialize","params":{"clientInfo":{"name":"T3 Code"}}}}`, codex.FormatExchange},
		{`{"type":"emit_inbound","label":"turn/started","frame":{"method":"turn/started","params":{"threadId":"t","turn":{"id":"u"}}}}`, codex.FormatExchange},
		// Another agent's frames in the same records are not Codex's.
		{`{"type":"transcript_start","provider":"cursor","protocol":"acp.ndjson-jsonrpc","version":"1","scenario":"s"}` + "\n" +
			`{"type":"expect_outbound","frame":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}`, ""},
		{`{"type":"emit_inbound","label":"x","frame":{"type":"sdk.event","event":{"type":"server.connected"}}}`, ""},
		{`{"type":"runtime_exit","status":"success"}`, ""},
	} {
		if got := codex.Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%.80q) = %q, want %q", c.head, got, c.want)
		}
	}
}
