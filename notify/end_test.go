package notify_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// A session that ends in error with no error notified since its last
// turn started (its process died) tells why before the status failed:
// an error notification with the end's message and the first line of its
// stderr. Only the status failed was notified (audit001 F4). An error the
// agent gave is not told twice, nor is an end that says nothing, nor a
// session terminated or completed.
func TestEndInError(t *testing.T) {
	end := func(reason universal.EndReason, msg, stderr string) func(*session) {
		return func(s *session) {
			s.evs = s.w.End(s.evs, universal.SessionEnded{Reason: reason, TerminatedBy: universal.ByAgent, Message: msg, Stderr: stderr}, universal.SourceDaemon, nil)
		}
	}
	fail := func(msg string) func(*session) {
		return func(s *session) {
			s.evs = s.w.Emit(s.evs, universal.TypeError, src, &universal.Error{Message: msg}, nil)
		}
	}
	turn := func(s *session) { s.turn(); s.say(s.w.NewItemID(), "", "Working.") }
	endTurn := func(s *session) { s.evs = s.w.EndTurn(s.evs, "", universal.TurnError, nil, src, nil) }
	for _, c := range []struct {
		name  string
		steps []func(*session)
		want  []string
	}{
		{"dies mid-turn", []func(*session){turn, end(universal.EndError, "agent crashed", "\n  panic: nil map\ngoroutine 1\n")},
			[]string{"status:running", "message:Working.", "error:agent crashed: panic: nil map", "status:failed"}},
		{"a banner, then the error's last line", []func(*session){turn, end(universal.EndError, "exit code 1", "Reading prompt from stdin...\nconnection refused\n")},
			[]string{"status:running", "message:Working.", "error:exit code 1: connection refused", "status:failed"}},
		{"a Node error and its stack", []func(*session){turn, end(universal.EndError, "exit code 1", "Reading prompt...\nTypeError: x is undefined\n    at main (cli.js:1:2)\n")},
			[]string{"status:running", "message:Working.", "error:exit code 1: TypeError: x is undefined", "status:failed"}},
		{"dies idle, stderr alone", []func(*session){end(universal.EndError, "", "Error: API key revoked\n")},
			[]string{"error:Error: API key revoked", "status:failed"}},
		{"message holds the stderr", []func(*session){turn, end(universal.EndError, "Error: API key revoked", "Error: API key revoked\n")},
			[]string{"status:running", "message:Working.", "error:Error: API key revoked", "status:failed"}},
		{"the agent's error told it", []func(*session){turn, fail("quota exceeded"), end(universal.EndError, "exit code 1", "")},
			[]string{"status:running", "message:Working.", "error:quota exceeded", "status:failed"}},
		{"an error of an earlier turn", []func(*session){turn, fail("quota exceeded"), endTurn, turn, end(universal.EndError, "exit code 1", "")},
			[]string{"status:running", "message:Working.", "error:quota exceeded", "status:failed",
				"status:running", "error:exit code 1", "status:failed"}},
		{"an end that says nothing", []func(*session){turn, end(universal.EndError, "", "")},
			[]string{"status:running", "message:Working.", "status:failed"}},
		{"terminated", []func(*session){turn, end(universal.EndTerminated, "stopped by the host", "")},
			[]string{"status:running", "message:Working.", "status:terminated"}},
		{"completed", []func(*session){end(universal.EndCompleted, "", "warning: old config\n")},
			[]string{"status:completed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSession()
			for _, step := range c.steps {
				step(s)
			}
			pushed, _ := run(t, notify.Options{Throttle: -1}, s.evs)
			if diff := cmp.Diff(c.want, brief(pushed)); diff != "" {
				t.Errorf("pushed (-want +got):\n%s", diff)
			}
		})
	}
}

// The same through a translator: Claude's process exits with code 1 in
// the middle of a tool call's turn (the first lines of a recorded
// session, then universal.Exit with its stderr).
func TestExitMidTurn(t *testing.T) {
	b, err := os.ReadFile("../testdata/claude/2.1.330/s02-tool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := claude.New("stream-json", universal.Options{SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for _, l := range bytes.Split(b, []byte("\n"))[:8] {
		if len(l) > 0 {
			evs = tr.Translate(evs, universal.Message{Data: l})
		}
	}
	evs = tr.Report(evs, universal.Exit{Code: 1, Stderr: "Error: API key revoked\n"})
	pushed, _ := run(t, notify.Options{Throttle: -1}, evs)
	want := []string{"status:running", "error:exit code 1: Error: API key revoked", "status:failed"}
	if diff := cmp.Diff(want, brief(pushed)); diff != "" {
		t.Errorf("pushed (-want +got):\n%s", diff)
	}
}
