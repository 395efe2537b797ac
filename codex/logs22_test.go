package codex_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// TestDetectHostSideRecorder: orquester's replay fixtures of codex
// app-server 0.154.0 (testdata/codex/public/app-server/orquester-*) are
// exchanges recorded from the host's side, {"t", "dir": "send" | "recv" |
// "stderr" | "note", "frame"}, and open with the recorder's notes and a
// line of Codex's stderr. The format was not detected (the first line, a
// note, decided) and the records were not read.
func TestDetectHostSideRecorder(t *testing.T) {
	b, err := os.ReadFile(public + "/app-server/orquester-0.154.0-01-text-turn.exchange.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := codex.Detect(b); got != codex.FormatExchange {
		t.Errorf("Detect = %q, want %q", got, codex.FormatExchange)
	}
	for _, head := range []string{
		`{"t":6,"dir":"note","frame":"spawn: codex app-server"}` + "\n" + `{"t":7,"dir":"note","frame":"scenario 1"}`,
		`{"t":6,"dir":"note","frame":"spawn"}` + "\n" + `{"type":"system","subtype":"init","session_id":"s"}`,
	} {
		if got := codex.Detect([]byte(head)); got != "" {
			t.Errorf("Detect(%q) = %q, want none", head, got)
		}
	}
}

// TestHostSideRecorderStderr: the stderr lines such a recorder keeps
// (codex app-server 0.154.0's tracing log, ANSI colours and all) are the
// session's stderr, as exec's non-JSON lines are; neither a note nor a
// stderr line is agent.unparsed.
func TestHostSideRecorderStderr(t *testing.T) {
	const rec = `{"t":7,"dir":"send","frame":{"id":1,"method":"initialize","params":{"clientInfo":{"name":"orquester","title":"Orquester","version":"0.0.0"},"capabilities":{"experimentalApi":true}}}}
{"t":329,"dir":"stderr","frame":"\u001b[2m2026-09-21T01:39:54.103145Z\u001b[0m \u001b[31mERROR\u001b[0m \u001b[2mcodex_app_server\u001b[0m\u001b[2m:\u001b[0m Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces."}
{"t":425,"dir":"recv","frame":{"id":1,"result":{"userAgent":"orquester/0.154.0 (Ubuntu 24.4.0; x86_64) tmux-256color (orquester; 0.0.0)","codexHome":"~/.codex","platformFamily":"unix","platformOs":"linux"}}}
{"t":7427,"dir":"note","frame":"child exit code=0 signal=null"}
`
	tr, err := codex.New(codex.FormatExchange, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	for m, err := range universal.Messages(universal.NewExchangeReader(strings.NewReader(rec), 0)) {
		if err != nil {
			t.Fatal(err)
		}
		out = tr.Translate(out, m)
	}
	out = tr.Report(out, universal.EndOfInput{})
	if err := universal.CheckStream(out); err != nil {
		t.Fatal(err)
	}
	end := out[len(out)-1]
	d, ok := end.Data.(*universal.SessionEnded)
	if end.Type != universal.TypeSessionEnded || !ok || !strings.Contains(d.Stderr, "Codex's Linux sandbox uses bubblewrap") {
		t.Fatalf("last event %s %+v, want session.ended with the stderr line", end.Type, end.Data)
	}
	for _, e := range out {
		if e.Type == universal.TypeUnparsed {
			t.Errorf("agent.unparsed: %+v", e.Data)
		}
	}
}
