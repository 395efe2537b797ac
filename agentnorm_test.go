package agentnorm_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

func TestLookupErrors(t *testing.T) {
	if _, err := agentnorm.Lookup("gemini"); !errors.Is(err, agentnorm.ErrUnknownAgent) {
		t.Errorf("unknown agent: %v", err)
	}
	if _, err := agentnorm.New("claude", "rollout", universal.Options{}); !errors.Is(err, universal.ErrUnknownFormat) {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := agentnorm.Open(strings.NewReader("hello\n"), "claude", agentnorm.Options{}); !errors.Is(err, agentnorm.ErrUndetected) {
		t.Errorf("undetectable input: %v", err)
	}
}

// Agents and Lookup return copies: changing them changes nothing for the next caller.
func TestAgentsAreCopies(t *testing.T) {
	a := agentnorm.Agents()
	a[0].Formats[0].Name = "changed"
	if agentnorm.Agents()[0].Formats[0].Name == "changed" {
		t.Error("Agents shares its format table")
	}
	l, err := agentnorm.Lookup("codex")
	if err != nil {
		t.Fatal(err)
	}
	l.Formats[0].Name = "changed"
	if l, _ = agentnorm.Lookup("codex"); l.Formats[0].Name == "changed" {
		t.Error("Lookup shares its format table")
	}
}

// A Terminate reported while the events are read ends the session there.
func TestReportTerminate(t *testing.T) {
	in := `{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/p","tools":[]}` + "\n" +
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hi"}]},"session_id":"s1"}` + "\n"
	s, err := agentnorm.Open(strings.NewReader(in), "claude", agentnorm.Options{Format: "stream-json"})
	if err != nil {
		t.Fatal(err)
	}
	var last universal.Event
	n := 0
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			s.Report(universal.Terminate{Message: "stop"})
		}
		n++
		last = ev
	}
	d, ok := last.Data.(*universal.SessionEnded)
	if !ok || d.Reason != universal.EndTerminated {
		t.Errorf("last event %s %+v, want session.ended terminated", last.Type, last.Data)
	}
}

// TestSessionsInTurn: sessions opened one after another (their read
// buffers reused) each read their own input whole, and ranging over a
// session's Events again after its input ended yields nothing more.
func TestSessionsInTurn(t *testing.T) {
	line := func(id, text string) string {
		return `{"type":"system","subtype":"init","session_id":"` + id + `","model":"m","cwd":"/p","tools":[]}` + "\n" +
			`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"` + text + `"}]},"session_id":"` + id + `"}` + "\n"
	}
	for i, text := range []string{"first", strings.Repeat("long ", 20000), "third"} {
		s, err := agentnorm.Open(strings.NewReader(line("s", text)), "claude", agentnorm.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		n := 0
		for ev, err := range s.Events() {
			if err != nil {
				t.Fatal(err)
			}
			n++
			if d, ok := ev.Data.(*universal.ItemDelta); ok {
				got.WriteString(d.Delta)
			}
		}
		if got.String() != text {
			t.Errorf("session %d: text %.40q…, want %.40q…", i, got.String(), text)
		}
		for ev := range s.Events() {
			t.Errorf("session %d: a second range yields %s", i, ev.Type)
		}
		if n == 0 {
			t.Errorf("session %d: no events", i)
		}
	}
}

// TestNewIsCheap: short inputs (one exported session, a few lines of run
// output) are dominated by what a new translator costs, so New makes only
// the translator and its stream; maps, scanners and buffers come with the
// first message that needs them.
func TestNewIsCheap(t *testing.T) {
	if golden.Race || testing.CoverMode() != "" {
		t.Skip("allocation counts differ under the race detector and coverage")
	}
	const most = 5
	for _, a := range agentnorm.Agents() {
		for _, f := range a.Formats {
			n := testing.AllocsPerRun(50, func() {
				if _, err := a.New(f.Name, universal.Options{SessionID: "s"}); err != nil {
					t.Fatal(err)
				}
			})
			if n > most {
				t.Errorf("%s %s: New makes %.0f allocations, want at most %d", a.Name, f.Name, n, most)
			}
		}
	}
}

// New by the agent's name costs what the agent's own New costs: finding
// the agent copies nothing (a program opening many files pays it for each;
// the list of agents with their formats was copied every time).
func TestNewByNameIsCheap(t *testing.T) {
	if golden.Race || testing.CoverMode() != "" {
		t.Skip("allocation counts differ under the race detector and coverage")
	}
	for _, a := range agentnorm.Agents() {
		f := a.Formats[0].Name
		direct := testing.AllocsPerRun(50, func() {
			if _, err := a.New(f, universal.Options{SessionID: "s"}); err != nil {
				t.Fatal(err)
			}
		})
		byName := testing.AllocsPerRun(50, func() {
			if _, err := agentnorm.New(a.Name, f, universal.Options{SessionID: "s"}); err != nil {
				t.Fatal(err)
			}
		})
		if byName != direct {
			t.Errorf("%s %s: New by name makes %.0f allocations, the agent's New %.0f", a.Name, f, byName, direct)
		}
	}
}

// With ReuseEvents, a Session yields the same events, each whole when it
// is yielded: prompts given to Open, a termination reported while a batch
// of events is yielded (after each event in turn: somewhere it ends open
// items in the middle of a batch), a loop broken off and ranged over again.
func TestSessionReuseEvents(t *testing.T) {
	for _, c := range []struct{ agent, format, path string }{
		{"claude", "stream-json", "testdata/claude/2.1.330/s06-multiturn-stdin.jsonl"},
		{"codex", "exec", "testdata/codex/0.169.0/s06-multiturn.exec.jsonl"},
	} {
		input, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		read := func(reuse bool, stop int) []byte {
			o := agentnorm.Options{Format: c.format, Prompts: []string{"first", "second"}}
			o.IncludeRaw, o.ReuseEvents = true, reuse
			s, err := agentnorm.Open(bytes.NewReader(input), c.agent, o)
			if err != nil {
				t.Fatal(err)
			}
			var out []byte
			n := 0
			for range 2 { // break off after 5 events, then range again
				for ev, err := range s.Events() {
					if err != nil {
						t.Fatal(err)
					}
					out = append(ev.AppendJSON(out), '\n')
					if n++; n == stop {
						s.Report(universal.Terminate{Message: "stop"})
					}
					if n == 5 {
						break
					}
				}
			}
			return out
		}
		for stop := 1; ; stop++ {
			want := read(false, stop)
			if got := read(true, stop); !bytes.Equal(got, want) {
				t.Fatalf("%s, terminated after event %d: ReuseEvents changes the events:\n%s\nwant\n%s", c.path, stop, got, want)
			}
			if bytes.Count(want, []byte("\n")) <= stop {
				break // terminated after the last event
			}
		}
	}
}

// TestAtEnd: the report Options.AtEnd returns when the input ends is what
// ends the session (a process's exit code: failed), and a report that
// ended the session first keeps AtEnd from being called.
func TestAtEnd(t *testing.T) {
	in := `{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/p","tools":[]}` + "\n"
	for _, c := range []struct {
		name      string
		terminate bool
		want      universal.EndReason
		calls     int
	}{
		{"exit 3", false, universal.EndError, 1},
		{"terminated first", true, universal.EndTerminated, 0},
	} {
		calls := 0
		s, err := agentnorm.Open(strings.NewReader(in), "claude", agentnorm.Options{AtEnd: func() universal.Report {
			calls++
			return universal.Exit{Code: 3, Stderr: "boom"}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if c.terminate {
			s.Report(universal.Terminate{Message: "stop"})
		}
		var last universal.Event
		for ev, err := range s.Events() {
			if err != nil {
				t.Fatal(err)
			}
			last = ev
		}
		d, ok := last.Data.(*universal.SessionEnded)
		if !ok || d.Reason != c.want || calls != c.calls {
			t.Errorf("%s: last event %s %+v, AtEnd called %d times; want session.ended %s, %d calls", c.name, last.Type, last.Data, calls, c.want, c.calls)
		}
		if !c.terminate && (d.ExitCode == nil || *d.ExitCode != 3 || d.Stderr != "boom") {
			t.Errorf("%s: exit code %v, stderr %q", c.name, d.ExitCode, d.Stderr)
		}
	}
}

// TestReportFromAnotherGoroutine: a host answers while Events waits for
// the agent's next line (run with -race): the report's events come out
// with the next line's, in order, and nothing races.
func TestReportFromAnotherGoroutine(t *testing.T) {
	pr, pw := io.Pipe()
	s, err := agentnorm.Open(pr, "claude", agentnorm.Options{Format: "stream-json"})
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/p","tools":[]}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hi"}]},"session_id":"s1"}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"hi","session_id":"s1"}`,
	}
	started := make(chan struct{})
	go func() {
		pw.Write([]byte(lines[0] + "\n"))
		<-started // Events has yielded session.started and waits for the next line
		s.Report(universal.Prompt{Text: "say hi"})
		for _, l := range lines[1:] {
			pw.Write([]byte(l + "\n"))
		}
		pw.Close()
	}()
	var types []string
	prompt := 0
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == universal.TypeSessionStarted {
			close(started)
		}
		if d, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted && d.Item.Role == universal.RoleUser {
			prompt = len(types)
		}
		types = append(types, string(ev.Type))
	}
	if prompt == 0 || types[len(types)-1] != string(universal.TypeSessionEnded) {
		t.Errorf("events %v: want the prompt's user message after session.started and session.ended last", types)
	}
}
