package notify_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

const src = universal.SourceAgent

// session writes events through a Stream whose clock advances a second
// per event, so throttling is easy to reason about.
type session struct {
	w   *universal.Stream
	evs []universal.Event
}

func newSession() *session {
	w := universal.NewStream("test", universal.Options{SessionID: "s", Clock: universal.StepClock(universal.DefaultEpoch(), time.Second)})
	return &session{w: w, evs: w.Begin(nil, nil, src, nil)}
}

func (s *session) turn() string {
	var id string
	s.evs, id = s.w.StartTurn(s.evs, "", nil, src, nil)
	return id
}

func (s *session) say(id, parent string, chunks ...string) {
	s.evs = s.w.StartItem(s.evs, universal.Item{ItemID: id, ParentID: parent, Kind: universal.KindMessage, Role: universal.RoleAssistant}, src, nil)
	for _, c := range chunks {
		s.evs = s.w.Delta(s.evs, id, 0, universal.PartText, c, src, nil)
	}
	s.evs = s.w.Complete(s.evs, universal.Item{ItemID: id, ParentID: parent, Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: []universal.Part{universal.Text(strings.Join(chunks, ""))}}, src, nil)
}

func (s *session) call(id, parent, callID, name string, kind universal.ToolKind, in universal.ToolInput, output string) {
	s.evs = s.w.Complete(s.evs, universal.Item{ItemID: id, ParentID: parent, Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: name, Arguments: `{}`, CallID: callID, ToolKind: kind, ToolInput: &in}}}, src, nil)
	s.evs = s.w.Complete(s.evs, universal.Item{ItemID: id + "r", ParentID: parent, Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{{Type: universal.PartToolResult, CallID: callID, Output: output}}}, src, nil)
}

func run(t *testing.T, o notify.Options, evs []universal.Event) (pushed []notify.Event, f *notify.Feed) {
	t.Helper()
	o.Push = func(e notify.Event) error { pushed = append(pushed, e); return nil }
	f = notify.NewFeed(o)
	for i := range evs {
		if err := f.Apply(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return pushed, f
}

func brief(es []notify.Event) []string {
	var out []string
	for _, e := range es {
		s := e.Type + ":" + e.Text
		if e.ToolName != "" {
			s += " [" + e.ToolName + "]"
		}
		if e.SessionID != "" {
			s += " @" + e.SessionID
		}
		out = append(out, s)
	}
	return out
}

// The scenarios of the notification requirements: status transitions,
// narration before the call it introduces, tool calls with their key
// argument, results with the call's tool name, the completion with the
// final text, then idle.
func TestTurn(t *testing.T) {
	s := newSession()
	turn := s.turn()
	s.say("m1", "", "I'll list ", "the files.")
	s.call("c1", "m1", "k1", "Bash", universal.ToolExecute, universal.ToolInput{Command: "ls"}, "a.txt\n")
	s.say("m2", "", "One file.")
	s.evs = s.w.EndTurn(s.evs, turn, universal.TurnCompleted, nil, src, nil)
	pushed, f := run(t, notify.Options{Throttle: -1}, s.evs)
	want := []string{"status:running", "message:I'll list the files.", "tool_call:ls [Bash]", "tool_result:a.txt\n [Bash]",
		"message:One file.", "completion:One file.", "status:idle"}
	if diff := cmp.Diff(want, brief(pushed)); diff != "" {
		t.Errorf("pushed (-want +got):\n%s", diff)
	}
	// Polling gives the same events, with the same indexes.
	if diff := cmp.Diff(pushed, f.Since(-1)); diff != "" {
		t.Errorf("polled differs from pushed:\n%s", diff)
	}
	if got := f.Since(4); len(got) != 2 || got[0].Index != 5 {
		t.Errorf("since 4: %v", got)
	}
}

// A long message notifies its consolidated text while it grows (at most
// every Throttle of event time), never the same text twice.
func TestGrowingText(t *testing.T) {
	s := newSession()
	s.turn()
	chunks := make([]string, 10)
	for i := range chunks {
		chunks[i] = fmt.Sprintf("part %d. ", i)
	}
	s.say("m1", "", chunks...)
	pushed, _ := run(t, notify.Options{Throttle: 3 * time.Second}, s.evs)
	var texts []string
	for _, e := range pushed {
		if e.Type == notify.TypeMessage {
			texts = append(texts, e.Text)
		}
	}
	if len(texts) < 3 || len(texts) > 5 {
		t.Fatalf("%d message notifications for 10 deltas 1 s apart, throttle 3 s: %q", len(texts), texts)
	}
	for i := 1; i < len(texts); i++ {
		if !strings.HasPrefix(texts[i], texts[i-1]) || texts[i] == texts[i-1] {
			t.Errorf("notification %d does not grow the one before: %q → %q", i, texts[i-1], texts[i])
		}
	}
	if texts[len(texts)-1] != strings.Join(chunks, "") {
		t.Errorf("last notification %q is not the whole text", texts[len(texts)-1])
	}
}

// The same consolidated text is not notified twice, even across messages.
func TestDedup(t *testing.T) {
	s := newSession()
	turn := s.turn()
	s.say("m1", "", "Working on it.")
	s.say("m2", "", "Working on it.")
	s.say("m3", "", "")
	s.evs = s.w.EndTurn(s.evs, turn, universal.TurnCompleted, nil, src, nil)
	pushed, _ := run(t, notify.Options{Throttle: -1}, s.evs)
	n := 0
	for _, e := range brief(pushed) {
		if e == "message:Working on it." {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d notifications of the same text: %q", n, brief(pushed))
	}
}

// A sub-agent's notifications carry its id; the session's own do not.
func TestSubAgent(t *testing.T) {
	s := newSession()
	turn := s.turn()
	s.say("m1", "", "Delegating.")
	s.evs = s.w.StartItem(s.evs, universal.Item{ItemID: "task", ParentID: "m1", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: "Task", CallID: "call_sub", ToolKind: universal.ToolTask, ToolInput: &universal.ToolInput{}}}}, src, nil)
	s.say("sm", "task", "Sub-agent here.")
	s.evs = s.w.Close(s.evs, "task", universal.StatusCompleted, src, nil)
	s.evs = s.w.Complete(s.evs, universal.Item{ItemID: "taskr", ParentID: "m1", Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{{Type: universal.PartToolResult, CallID: "call_sub", Output: "done"}}}, src, nil)
	s.say("m2", "", "All done.")
	s.evs = s.w.EndTurn(s.evs, turn, universal.TurnCompleted, nil, src, nil)
	pushed, _ := run(t, notify.Options{Throttle: -1}, s.evs)
	want := []string{"status:running", "message:Delegating.", "message:Sub-agent here. @call_sub", "tool_call: [Task]",
		"tool_result:done [Task]", "message:All done.", "completion:All done.", "status:idle"}
	if diff := cmp.Diff(want, brief(pushed)); diff != "" {
		t.Errorf("pushed (-want +got):\n%s", diff)
	}
}

// Failures: running → failed on a terminal error; a session that ends in
// the middle of a turn makes no completion, and says why it failed (the
// stream ends it in error, the error retried was not the agent's last
// word).
func TestFailures(t *testing.T) {
	s := newSession()
	s.turn()
	s.say("m1", "", "Starting.")
	s.evs = s.w.Emit(s.evs, universal.TypeError, src, &universal.Error{Message: "overloaded", WillRetry: true}, nil)
	s.evs = s.w.End(s.evs, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
	pushed, f := run(t, notify.Options{}, s.evs)
	want := []string{"status:running", "message:Starting.", "error:the session ended during a turn", "status:failed"}
	if diff := cmp.Diff(want, brief(pushed)); diff != "" {
		t.Errorf("pushed (-want +got):\n%s", diff)
	}
	if f.Status() != "failed" {
		t.Errorf("status %s", f.Status())
	}
}

// A turn that ended in error is reported as failed, not as completed: no
// completion, the status failed (and the agent's error when it gave
// one). A turn interrupted by its user ends as a completed one does. A
// failed turn was notified as a completion before the status failed, so a
// client showed it done.
func TestTurnEndings(t *testing.T) {
	for _, c := range []struct {
		status universal.TurnStatus
		err    string
		want   []string
	}{
		{universal.TurnCompleted, "", []string{"status:running", "message:Half done.", "completion:Half done.", "status:idle"}},
		{universal.TurnInterrupted, "", []string{"status:running", "message:Half done.", "completion:Half done.", "status:idle"}},
		{universal.TurnError, "", []string{"status:running", "message:Half done.", "status:failed"}},
		{universal.TurnError, "quota exceeded", []string{"status:running", "message:Half done.", "error:quota exceeded", "status:failed"}},
	} {
		s := newSession()
		turn := s.turn()
		s.say("m1", "", "Half done.")
		if c.err != "" {
			s.evs = s.w.Emit(s.evs, universal.TypeError, src, &universal.Error{Message: c.err}, nil)
		}
		s.evs = s.w.EndTurn(s.evs, turn, c.status, nil, src, nil)
		// The next turn recovers: it completes as any does.
		next := s.turn()
		s.say("m2", "", "Done now.")
		s.evs = s.w.EndTurn(s.evs, next, universal.TurnCompleted, nil, src, nil)
		pushed, _ := run(t, notify.Options{Throttle: -1}, s.evs)
		want := append(c.want, "status:running", "message:Done now.", "completion:Done now.", "status:idle")
		if diff := cmp.Diff(want, brief(pushed)); diff != "" {
			t.Errorf("a turn %s (error %q) (-want +got):\n%s", c.status, c.err, diff)
		}
	}
}

// A tool call its agent reports failed with its arguments whole was made
// (a command cancelled while it ran, one that failed): it is notified, as
// seed 001 has every tool the agent invokes notified. One whose arguments
// were cut off was never made, and one the daemon closed at its turn's
// end may never have run: no notification. Every failed call went
// unnotified, so a client never saw the command that was cancelled or
// failed.
func TestFailedToolCall(t *testing.T) {
	s := newSession()
	turn := s.turn()
	call := func(id, args string, in *universal.ToolInput) {
		s.evs = s.w.StartItem(s.evs, universal.Item{ItemID: id, Kind: universal.KindToolCall, Role: universal.RoleAssistant,
			Content: []universal.Part{{Type: universal.PartToolCall, Name: "Bash", Arguments: args, CallID: "k" + id, ToolKind: universal.ToolExecute, ToolInput: in}}}, src, nil)
		s.evs = s.w.Close(s.evs, id, universal.StatusFailed, src, nil)
	}
	call("c1", `{"command":"./long-job.sh"}`, &universal.ToolInput{Command: "./long-job.sh"})
	call("c2", `{"command":"ec`, nil)
	// Left open: the daemon closes it, failed, at the turn's end.
	s.evs = s.w.StartItem(s.evs, universal.Item{ItemID: "c3", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: "Bash", Arguments: `{"command":"rm -rf build"}`, CallID: "k3", ToolKind: universal.ToolExecute}}}, src, nil)
	s.evs = s.w.EndTurn(s.evs, turn, universal.TurnInterrupted, nil, src, nil)
	pushed, _ := run(t, notify.Options{Throttle: -1}, s.evs)
	want := []string{"status:running", "tool_call:./long-job.sh [Bash]", "completion:", "status:idle"}
	if diff := cmp.Diff(want, brief(pushed)); diff != "" {
		t.Errorf("pushed (-want +got):\n%s", diff)
	}
}

// The polling buffer is a bounded ring: the oldest notifications go.
func TestRing(t *testing.T) {
	s := newSession()
	turn := s.turn()
	for i := range 20 {
		s.say(fmt.Sprint("m", i), "", fmt.Sprint("text ", i))
		s.call(fmt.Sprint("c", i), fmt.Sprint("m", i), fmt.Sprint("k", i), "Bash", universal.ToolExecute, universal.ToolInput{Command: "true"}, "")
	}
	s.evs = s.w.EndTurn(s.evs, turn, universal.TurnCompleted, nil, src, nil)
	pushed, f := run(t, notify.Options{Limit: 7, Throttle: -1}, s.evs)
	got := f.Since(-1)
	if diff := cmp.Diff(pushed[len(pushed)-7:], got); diff != "" {
		t.Errorf("ring keeps (-want +got):\n%s", diff)
	}
	if got := f.Since(len(pushed) - 3); len(got) != 2 {
		t.Errorf("since near the end: %v", got)
	}
	if got := f.Since(len(pushed)); got != nil {
		t.Errorf("since the end: %v", got)
	}
}

// One shape: a notification pushed and polled serializes to the same JSON
// with the keys of the session event shape.
func TestShape(t *testing.T) {
	b, err := json.Marshal(notify.Event{Index: 3, Type: "tool_call", Text: "ls", ToolName: "Bash", Role: "assistant", SessionID: "sub"})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"index":3,"type":"tool_call","text":"ls","tool_name":"Bash","role":"assistant","session_id":"sub"}` {
		t.Errorf("shape %s", b)
	}
}

// Every recorded golden stream of the repository: the pushed and polled
// channels agree, indexes count up from 0, every turn that finished
// has one completion, and turns that ended in error none: the status
// failed tells of them. Replayed turns are history: no completion.
func TestGoldenStreams(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/*/*/*.golden.ndjson")
	public, _ := filepath.Glob("../testdata/*/*/public/*.golden.ndjson")
	paths = append(paths, public...)
	if len(paths) == 0 {
		t.Fatal("no golden streams")
	}
	for _, path := range paths {
		evs := read(t, path)
		pushed, f := run(t, notify.Options{Limit: 1 << 20}, evs)
		if diff := cmp.Diff(pushed, f.Since(-1)); diff != "" {
			t.Fatalf("%s: polled differs from pushed:\n%s", path, diff)
		}
		for i, e := range pushed {
			if e.Index != i {
				t.Fatalf("%s: notification %d has index %d", path, i, e.Index)
			}
		}
		turns, failedTurns := 0, 0
		replayed := map[string]bool{} // history makes no completion
		for i := range evs {
			if d, ok := evs[i].Data.(*universal.TurnStarted); ok && strings.Contains(string(d.Metadata), `"replay":true`) {
				replayed[d.TurnID] = true
			}
			if d, ok := evs[i].Data.(*universal.TurnEnded); ok && !d.SessionEnding() && !replayed[d.TurnID] {
				if d.Status == universal.TurnError {
					failedTurns++
				} else {
					turns++
				}
			}
		}
		completions, failed := 0, 0
		for _, e := range pushed {
			if e.Type == notify.TypeCompletion {
				completions++
			}
			if e.Type == notify.TypeStatus && e.Text == string(reduce.StatusFailed) {
				failed++
			}
		}
		if completions != turns {
			t.Errorf("%s: %d completions for %d finished turns", path, completions, turns)
		}
		if failedTurns > 0 && failed == 0 {
			t.Errorf("%s: %d turns ended in error, and no status failed", path, failedTurns)
		}
		// A permission or question makes one notification when first
		// asked and one when first answered, however often the agent
		// repeats either; an error the agent does not retry one, and so
		// does an end in error that says something when no error came
		// since the last turn started.
		want := map[string]int{}
		asked, answered := map[string]bool{}, map[string]bool{}
		errored := false
		for i := range evs {
			var key string
			var req, res string
			switch d := evs[i].Data.(type) {
			case *universal.Permission:
				key, req, res = "p"+d.PermissionID, notify.TypePermission, notify.TypePermissionResolved
			case *universal.Question:
				key, req, res = "q"+d.QuestionID, notify.TypeQuestion, notify.TypeQuestionResolved
			case *universal.Error:
				if !d.WillRetry {
					want[notify.TypeError]++
					errored = true
				}
				continue
			case *universal.TurnStarted:
				errored = false
				continue
			case *universal.SessionEnded:
				if d.Reason == universal.EndError && !errored && strings.TrimSpace(d.Message+d.Stderr) != "" {
					want[notify.TypeError]++
				}
				continue
			default:
				continue
			}
			switch evs[i].Type {
			case universal.TypePermissionRequested, universal.TypeQuestionRequested:
				if !asked[key] {
					asked[key] = true
					want[req]++
				}
			default:
				if asked[key] && !answered[key] {
					answered[key] = true
					want[res]++
				}
			}
		}
		got := map[string]int{}
		for _, e := range pushed {
			switch e.Type {
			case notify.TypePermission, notify.TypePermissionResolved, notify.TypeQuestion, notify.TypeQuestionResolved, notify.TypeError:
				got[e.Type]++
				if e.Text == "" && e.Type != notify.TypeError {
					t.Errorf("%s: %s notification %d without text", path, e.Type, e.Index)
				}
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: waiting and error notifications (-want +got):\n%s", path, diff)
		}
	}
}

// The agent waits for its user: a permission for a call (its tool and
// command), its answer, a question and its answer; then an error it gives
// up on, which says why the session failed.
func TestWaitingAndErrors(t *testing.T) {
	s := newSession()
	s.turn()
	in := universal.ToolInput{Command: "rm -rf build"}
	s.evs = s.w.StartItem(s.evs, universal.Item{ItemID: "c1", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: "Bash", Arguments: `{}`, CallID: "k1", ToolKind: universal.ToolExecute, ToolInput: &in}}}, src, nil)
	s.evs = s.w.RequestPermission(s.evs, universal.Permission{PermissionID: "p1", Action: "Bash", ItemID: "c1", CallID: "k1"}, src, nil)
	s.evs = s.w.RequestPermission(s.evs, universal.Permission{PermissionID: "p1", Action: "Bash", ItemID: "c1", CallID: "k1"}, src, nil)
	s.evs = s.w.ResolvePermission(s.evs, universal.Permission{PermissionID: "p1", Status: universal.PermissionDenied, ItemID: "c1", CallID: "k1"}, src, nil)
	s.evs = s.w.RequestPermission(s.evs, universal.Permission{PermissionID: "p2", Action: "write_file"}, src, nil)
	s.evs = s.w.AskQuestion(s.evs, universal.Question{QuestionID: "q1", Prompt: "Which branch?", Options: []string{"main", "dev"}}, src, nil)
	s.evs = s.w.ResolveQuestion(s.evs, universal.Question{QuestionID: "q1", Status: universal.QuestionAnswered, Response: "main"}, src, nil)
	s.evs = s.w.Emit(s.evs, universal.TypeError, src, &universal.Error{Message: "overloaded", WillRetry: true}, nil)
	s.evs = s.w.Emit(s.evs, universal.TypeError, src, &universal.Error{Message: "overloaded, gave up"}, nil)
	s.evs = s.w.End(s.evs, universal.SessionEnded{Reason: universal.EndError, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
	pushed, _ := run(t, notify.Options{}, s.evs)
	want := []string{
		"status:running",
		"permission:rm -rf build [Bash]", "permission_resolved:denied",
		"permission:write_file [write_file]",
		"question:Which branch?", "question_resolved:answered",
		"error:overloaded, gave up",
		"status:failed",
	}
	if diff := cmp.Diff(want, brief(pushed)); diff != "" {
		t.Errorf("pushed (-want +got):\n%s", diff)
	}
}

func read(t *testing.T, path string) []universal.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []universal.Event
	r := universal.NewEventReader(f)
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		evs = append(evs, ev)
	}
	return evs
}

// A sub-agent's permission and its answer are both in the sub-agent's
// scope, although the answer names no item; a request the agent repeats,
// even after its answer, is no news (found by review).
func TestPermissionScopeAndRepeats(t *testing.T) {
	s := newSession()
	s.turn()
	in := universal.ToolInput{Command: "make"}
	s.evs = s.w.StartItem(s.evs, universal.Item{ItemID: "t1", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: "Task", Arguments: `{}`, CallID: "call_sub", ToolKind: universal.ToolTask}}}, src, nil)
	s.evs = s.w.StartItem(s.evs, universal.Item{ItemID: "c2", ParentID: "t1", Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: "Bash", Arguments: `{}`, CallID: "k2", ToolKind: universal.ToolExecute, ToolInput: &in}}}, src, nil)
	ask := universal.Permission{PermissionID: "p1", Action: "Bash", CallID: "k2"}
	s.evs = s.w.RequestPermission(s.evs, ask, src, nil)
	s.evs = s.w.ResolvePermission(s.evs, universal.Permission{PermissionID: "p1", Status: universal.PermissionApproved}, src, nil)
	s.evs = s.w.RequestPermission(s.evs, ask, src, nil)
	s.evs = s.w.ResolvePermission(s.evs, universal.Permission{PermissionID: "p1", Status: universal.PermissionApproved}, src, nil)
	pushed, _ := run(t, notify.Options{}, s.evs)
	want := []string{"status:running", "permission:make [Bash] @call_sub", "permission_resolved:approved @call_sub"}
	if diff := cmp.Diff(want, brief(pushed)); diff != "" {
		t.Errorf("pushed (-want +got):\n%s", diff)
	}
}
