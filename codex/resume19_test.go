package codex_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// resumedAppServer returns the lines of the recorded app-server process that
// resumed a thread (s19-resume, tools/capturelab-s19): thread/resume,
// then one turn. In the exchange the host's lines are prefixed "in ".
func resumedAppServer(t *testing.T, format string) []string {
	t.Helper()
	dir := "../testdata/crosscheck/codex/0.171.0/"
	if format == codex.FormatAppServer {
		b, err := os.ReadFile(dir + "s19-resume-resumed.appserver.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	b, err := os.ReadFile(dir + "s19-resume-resumed.appserver.exchange.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var rec struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Dir == "in" {
			lines = append(lines, "in "+string(rec.Msg))
		} else {
			lines = append(lines, string(rec.Msg))
		}
	}
	return lines
}

// TestResumeResponseShape: without the host's lines, a response is told by
// its shape. A thread/resume response holds the thread with its earlier
// turns (and the settings, as thread/start's); it was taken for a
// thread/start, so the session did not say it resumed, which the exchange
// (where the request shows) says.
func TestResumeResponseShape(t *testing.T) {
	for _, format := range []string{codex.FormatAppServer, codex.FormatExchange} {
		evs := run(t, format, nil, resumedAppServer(t, format))
		st, ok := evs[0].Data.(*universal.SessionStarted)
		if !ok {
			t.Fatalf("%s: first event %s", format, evs[0].Type)
		}
		var md struct {
			Resumed bool `json:"resumed"`
		}
		if err := json.Unmarshal(st.Metadata, &md); err != nil {
			t.Fatal(err)
		}
		if !md.Resumed {
			t.Errorf("%s: session.started metadata %s: not resumed", format, st.Metadata)
		}
	}
	// A resume that excluded its turns (0.154, the host asked
	// excludeTurns) still has initialTurnsPage, null.
	evs := run(t, codex.FormatAppServer, nil, []string{`{"id":2,"result":{"thread":{"id":"01a0c1a2-f62c-77d0-b501-911824cc9d15","cliVersion":"0.154.0","turns":[]},"model":"gpt-5.5","initialTurnsPage":null}}`})
	if st, ok := evs[0].Data.(*universal.SessionStarted); !ok || !strings.Contains(string(st.Metadata), `"resumed":true`) {
		t.Errorf("excludeTurns: %s %v", evs[0].Type, evs[0].Data)
	}
	// A thread/start response (no earlier turns), a thread/read one (the
	// thread alone, no settings) and a thread/fork one start no resumed
	// session.
	for _, resp := range []string{
		`{"id":1,"result":{"thread":{"id":"t1","turns":[]},"model":"gpt-5.5","cwd":"/w"}}`,
		`{"id":1,"result":{"thread":{"id":"t1","turns":[{"id":"u1","items":[],"status":"completed"}]}}}`,
		`{"id":1,"result":{"thread":{"id":"t1","forkedFromId":"t0","turns":[{"id":"u1","items":[],"status":"completed"}]},"model":"gpt-5.5"}}`,
	} {
		evs := run(t, codex.FormatAppServer, nil, []string{resp})
		for _, e := range evs {
			if st, ok := e.Data.(*universal.SessionStarted); ok && strings.Contains(string(st.Metadata), `"resumed"`) {
				t.Errorf("%s: session.started metadata %s", resp, st.Metadata)
			}
		}
	}
}

// TestResumedProcessUsage: a process that resumes a thread (a new
// app-server, its own translator) gets the thread's usage re-sent after
// the thread/resume response, with the previous process's last turn's id
// and "last" call: the running total is the session's usage so far (scope
// session), but that call was made, and reported, by the earlier process;
// it was reported again as a call of this session.
func TestResumedProcessUsage(t *testing.T) {
	for _, format := range []string{codex.FormatAppServer, codex.FormatExchange} {
		evs := run(t, format, nil, resumedAppServer(t, format))
		turns := map[string]bool{}
		var calls, session []int64
		for _, e := range evs {
			switch d := e.Data.(type) {
			case *universal.TurnStarted:
				turns[d.TurnID] = true
			case *universal.UsageUpdated:
				if d.Usage.InputTokens == nil {
					continue
				}
				switch d.Scope {
				case universal.ScopeCall:
					if !turns[d.TurnID] {
						t.Errorf("%s: call usage of turn %s, which this process did not run", format, d.TurnID)
					}
					calls = append(calls, *d.Usage.InputTokens)
				case universal.ScopeSession:
					session = append(session, *d.Usage.InputTokens)
				}
			}
		}
		// The new turn's one call; the running total before it (the first
		// process's 2550) and after it.
		if len(calls) != 1 || calls[0] != 1350 {
			t.Errorf("%s: call usage %v, want [1350]", format, calls)
		}
		if len(session) != 2 || session[0] != 2550 || session[1] != 3900 {
			t.Errorf("%s: session usage %v, want [2550 3900]", format, session)
		}
	}
}
