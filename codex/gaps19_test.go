package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestExecLabelledLines: a host that logs each event of codex exec --json
// behind a label of its own on the same line ("  event: {…}", as a public
// project's smoke test of codex-cli 0.160.0 printed a failed run: found
// by content search, the index does not name the repository; ids and
// texts shortened, the lines are a shape). The lines were taken for
// Codex's stderr and the session lost (no thread, no turn, no error); the
// events are read from their first '{', the label left out. Text of
// another kind, or an object of no exec type, stays stderr.
func TestExecLabelledLines(t *testing.T) {
	lines := []string{
		`  --version => codex-cli 0.160.0`,
		`  event: {"type":"thread.started","thread_id":"01a105f0-b2a5-7db0-ae20-21614d5e6916"}`,
		`  event: {"type":"turn.started"}`,
		`  event: {"type":"error","message":"Reconnecting... 2/5 (unexpected status 401 Unauthorized: Missing bearer or basic authentication in header, url: wss://api.openai.com/v1/responses, ...)"}`,
		`  event: {"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized: Missing bearer or basic authentication in header, url: https://api.openai.com/v1/responses, ..."}}`,
		`  runStreamed threw: Codex Exec exited with code 1: WARNING: proceeding, even though we could not create PATH aliases`,
		`  note: {"kind":"not an exec event"}`,
		`  cut: {"type":"turn.started"`,
	}
	evs := runParsed(t, codex.FormatExec, lines)
	ss := golden.OfType(evs, universal.TypeSessionStarted)
	if len(ss) != 1 || ss[0].NativeSessionID != "01a105f0-b2a5-7db0-ae20-21614d5e6916" {
		t.Fatalf("session.started %+v", ss)
	}
	var errs []string
	for _, e := range golden.OfType(evs, universal.TypeError) {
		errs = append(errs, e.Data.(*universal.Error).Message)
	}
	if len(errs) != 2 || !strings.HasPrefix(errs[0], "Reconnecting... 2/5") || !strings.HasPrefix(errs[1], "unexpected status 401") {
		t.Errorf("errors %q", errs)
	}
	te := golden.OfType(evs, universal.TypeTurnEnded)
	if len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn.ended %+v, want one in error", te)
	}
	// The other lines are the session's stderr.
	end := golden.OfType(evs, universal.TypeSessionEnded)[0].Data.(*universal.SessionEnded)
	stderr := string(end.Stderr)
	for _, want := range []string{"--version => codex-cli 0.160.0", "runStreamed threw", `note: {"kind"`, `cut: {"type":"turn.started"`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if strings.Contains(stderr, "thread.started") {
		t.Errorf("stderr %q holds an event", stderr)
	}
}
