package codex_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSessionLog: the yoloswe project's Codex wrapper records app-server
// traffic as a session log (agent-cli-wrapper/codex/session_log.go): a
// {"format":"codex","version","client","timestamp"} header, then
// {"timestamp", "direction": "sent" | "received", "message"} records
// (testdata/codex/public/app-server/yoloswe-*). The format was not
// detected (the header decided, "message" was not read) and, named, every
// record was a malformed exchange record: the prompts were lost.
func TestSessionLog(t *testing.T) {
	b, err := os.ReadFile(public + "/app-server/yoloswe-codexlogview-two-turns.exchange.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := codex.Detect(b); got != codex.FormatExchange {
		t.Errorf("Detect = %q, want %q", got, codex.FormatExchange)
	}
	header, _, _ := strings.Cut(string(b), "\n")
	for _, c := range []struct{ head, want string }{
		// The header alone says nothing: the record after it does.
		{header, ""},
		{`{"timestamp":"2026-02-12T00:00:02Z","direction":"received","message":{"method":"turn/completed","params":{"threadId":"t1","turn":{"id":"turn-1","status":"completed","items":[]}}}}`, codex.FormatExchange},
		// Claude Code's records in the same log are not Codex's.
		{`{"format":"claude","version":"1.0","client":"test","timestamp":"2026-02-12T00:00:00Z"}` + "\n" +
			`{"timestamp":"2026-02-12T00:00:01Z","direction":"received","message":{"type":"assistant"}}`, ""},
	} {
		if got := codex.Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%.80q) = %q, want %q", c.head, got, c.want)
		}
	}
	tr, err := codex.New(codex.FormatExchange, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := universal.NewExchangeReader(bytes.NewReader(b), 0)
	var out []universal.Event
	for {
		m, err := r.Next()
		if err != nil {
			break
		}
		out = tr.Translate(out, m)
	}
	out = tr.Report(out, universal.EndOfInput{})
	var prompts []string
	for _, e := range out {
		if e.Type == universal.TypeUnparsed {
			t.Errorf("unparsed: %+v", e)
		}
		if e.Type == universal.TypeItemCompleted {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleUser {
				for _, c := range it.Content {
					prompts = append(prompts, c.Text)
				}
			}
		}
	}
	if len(prompts) != 2 || !strings.Contains(prompts[0], "first prompt") || !strings.Contains(prompts[1], "follow up prompt") {
		t.Errorf("prompts: %q", prompts)
	}
}
