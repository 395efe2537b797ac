package conformance_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/universal"
)

// session builds a stream through universal.Stream, so every stream here
// is well-formed and only the rule under test can fail.
type session struct {
	w   *universal.Stream
	evs []universal.Event
}

func newSession() *session {
	s := &session{w: universal.NewStream("test", universal.Options{SessionID: "s"})}
	s.evs = s.w.Begin(s.evs, []byte(`{"cwd":"/p"}`), universal.SourceAgent, nil)
	s.evs, _ = s.w.StartTurn(s.evs, "", nil, universal.SourceAgent, nil)
	return s
}

func (s *session) item(id, parent string, kind universal.Kind, role universal.Role, status universal.ItemStatus, parts ...universal.Part) {
	s.evs = s.w.Complete(s.evs, universal.Item{ItemID: id, ParentID: parent, Kind: kind, Role: role, Status: status, Content: parts}, universal.SourceAgent, nil)
}

func (s *session) user(id string) {
	s.item(id, "", universal.KindMessage, universal.RoleUser, universal.StatusCompleted, universal.Text("hi"))
}

func (s *session) assistant(id string) {
	s.item(id, "", universal.KindMessage, universal.RoleAssistant, universal.StatusCompleted, universal.Text("ok"))
}

func call(name, callID string, kind universal.ToolKind) universal.Part {
	return universal.Part{Type: universal.PartToolCall, Name: name, Arguments: `{}`, CallID: callID, ToolKind: kind, ToolInput: &universal.ToolInput{}}
}

func result(callID string, isError bool, metadata string) universal.Part {
	p := universal.Part{Type: universal.PartToolResult, CallID: callID, Output: "out", IsError: isError}
	if metadata != "" {
		p.Metadata = []byte(metadata)
	}
	return p
}

func (s *session) call(id, parent, callID string, kind universal.ToolKind) {
	s.item(id, parent, universal.KindToolCall, universal.RoleAssistant, universal.StatusCompleted, call("t", callID, kind))
}

func (s *session) result(id, parent, callID string) {
	s.item(id, parent, universal.KindToolResult, universal.RoleTool, universal.StatusCompleted, result(callID, false, ""))
}

func (s *session) endTurn() {
	s.evs = s.w.EndTurn(s.evs, "", universal.TurnCompleted, nil, universal.SourceAgent, nil)
}

func (s *session) end() []universal.Event {
	return s.w.End(s.evs, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
}

// canonical is a session in the canonical shape: a prompt, a response
// that runs a command, the result under the same message, a sub-agent
// under a task call, a final answer.
func canonical() *session {
	s := newSession()
	s.user("u1")
	s.assistant("m1")
	s.call("c1", "m1", "k1", universal.ToolExecute)
	s.result("r1", "m1", "k1")
	s.assistant("m2")
	s.call("c2", "m2", "k2", universal.ToolTask)
	s.item("su", "c2", universal.KindMessage, universal.RoleUser, universal.StatusCompleted, universal.Text("sub prompt"))
	s.item("sm", "c2", universal.KindMessage, universal.RoleAssistant, universal.StatusCompleted, universal.Text("sub answer"))
	s.call("sc", "sm", "k3", universal.ToolRead)
	s.result("sr", "sm", "k3")
	s.item("ss", "c2", universal.KindStatus, "", universal.StatusCompleted, universal.Part{Type: universal.PartStatus, Label: "note"})
	s.result("r2", "m2", "k2")
	s.assistant("m3")
	s.endTurn()
	return s
}

func TestCanonicalPasses(t *testing.T) {
	evs := canonical().end()
	if err := universal.CheckStream(evs); err != nil {
		t.Fatal(err)
	}
	if vs := conformance.Check(evs); len(vs) > 0 {
		t.Fatalf("violations in a canonical stream: %v", vs)
	}
}

// TestReplayedCallIDs: a history replayed after a live turn (an ACP
// session/load in the same connection) shows the same calls again with
// their ids; each result is under its own response's message, as its call
// of the same turn. Before, the result was checked against the first call
// of that id and failed ErrResultParent.
func TestReplayedCallIDs(t *testing.T) {
	s := newSession()
	s.user("u1")
	s.assistant("m1")
	s.call("c1", "m1", "k1", universal.ToolRead)
	s.result("r1", "m1", "k1")
	s.endTurn()
	s.evs, _ = s.w.StartTurn(s.evs, "", []byte(`{"replay":true}`), universal.SourceAgent, nil)
	s.user("u2")
	s.assistant("m2")
	s.call("c2", "m2", "k1", universal.ToolRead)
	s.result("r2", "m2", "k1")
	s.endTurn()
	if vs := conformance.Check(s.end()); len(vs) > 0 {
		t.Fatalf("violations: %v", vs)
	}
}

// TestRules shows every rule failing on a stream that breaks it, and only
// that rule.
func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		rule  error
		build func() []universal.Event
	}{
		{"call without a parent", conformance.ErrToolParent, func() []universal.Event {
			s := newSession()
			s.user("u1")
			s.call("c1", "", "k1", universal.ToolExecute)
			s.endTurn()
			return s.end()
		}},
		{"call under a user message", conformance.ErrToolParent, func() []universal.Event {
			s := newSession()
			s.user("u1")
			s.call("c1", "u1", "k1", universal.ToolExecute)
			s.endTurn()
			return s.end()
		}},
		{"result under its call", conformance.ErrToolParent, func() []universal.Event {
			s := newSession()
			s.assistant("m1")
			s.call("c1", "m1", "k1", universal.ToolExecute)
			s.result("r1", "c1", "k1")
			s.endTurn()
			return s.end()
		}},
		{"result under another message", conformance.ErrResultParent, func() []universal.Event {
			s := newSession()
			s.assistant("m1")
			s.call("c1", "m1", "k1", universal.ToolExecute)
			s.user("u2")
			s.assistant("m2")
			s.result("r1", "m2", "k1")
			s.endTurn()
			return s.end()
		}},
		{"item under a call that is no task", conformance.ErrUnderCall, func() []universal.Event {
			s := newSession()
			s.assistant("m1")
			s.call("c1", "m1", "k1", universal.ToolExecute)
			s.item("x", "c1", universal.KindMessage, universal.RoleAssistant, universal.StatusCompleted, universal.Text("?"))
			s.result("r1", "m1", "k1")
			s.endTurn()
			return s.end()
		}},
		{"two calls with one call_id", conformance.ErrSharedCallID, func() []universal.Event {
			s := newSession()
			s.assistant("m1")
			s.call("c1", "m1", "k1", universal.ToolExecute)
			s.result("r1", "m1", "k1")
			s.assistant("m2")
			s.call("c2", "m2", "k1", universal.ToolExecute)
			s.result("r2", "m2", "k1")
			s.endTurn()
			return s.end()
		}},
		{"call without a tool kind", conformance.ErrToolKind, func() []universal.Event {
			s := newSession()
			s.assistant("m1")
			s.item("c1", "m1", universal.KindToolCall, universal.RoleAssistant, universal.StatusCompleted,
				universal.Part{Type: universal.PartToolCall, Name: "Bash", Arguments: `{}`, CallID: "k1"})
			s.result("r1", "m1", "k1")
			s.endTurn()
			return s.end()
		}},
		{"reasoning and text of one response split", conformance.ErrSplitResponse, func() []universal.Event {
			s := newSession()
			s.user("u1")
			s.item("m1", "", universal.KindMessage, universal.RoleAssistant, universal.StatusCompleted, universal.Reasoning("hmm", universal.VisibilityPrivate))
			s.assistant("m2")
			s.endTurn()
			return s.end()
		}},
		{"non-zero exit code as success", conformance.ErrExitCode, func() []universal.Event {
			s := newSession()
			s.assistant("m1")
			s.call("c1", "m1", "k1", universal.ToolExecute)
			s.item("r1", "m1", universal.KindToolResult, universal.RoleTool, universal.StatusCompleted, result("k1", false, `{"exit_code":2}`))
			s.endTurn()
			return s.end()
		}},
		{"system prompt as an item", conformance.ErrSessionInfo, func() []universal.Event {
			s := newSession()
			s.item("sys", "", universal.KindSystem, universal.RoleSystem, universal.StatusCompleted, universal.Part{Type: universal.PartJSON, JSON: []byte(`{"prompt":"You are…"}`)})
			s.user("u1")
			s.endTurn()
			return s.end()
		}},
		{"turn ended by hand before the session ends", conformance.ErrSessionEnding, func() []universal.Event {
			s := newSession()
			s.user("u1")
			s.evs = s.w.EndTurn(s.evs, "", universal.TurnInterrupted, nil, universal.SourceDaemon, nil)
			return s.w.End(s.evs, universal.SessionEnded{Reason: universal.EndError, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
		}},
		{"turn marked session_ending, then the session goes on", conformance.ErrSessionEnding, func() []universal.Event {
			s := newSession()
			s.user("u1")
			s.evs = s.w.EndTurn(s.evs, "", universal.TurnInterrupted, []byte(`{"session_ending":true}`), universal.SourceDaemon, nil)
			s.evs, _ = s.w.StartTurn(s.evs, "", nil, universal.SourceAgent, nil)
			s.endTurn()
			return s.end()
		}},
		{"session ended completed under an open turn", conformance.ErrEndedCompleted, func() []universal.Event {
			s := newSession()
			s.user("u1")
			s.evs = s.w.EndTurn(s.evs, "", universal.TurnInterrupted, []byte(`{"session_ending":true}`), universal.SourceDaemon, nil)
			// What a translator that bypasses Stream.End's rule would write.
			ev := s.evs[len(s.evs)-1]
			ev.Sequence++
			ev.EventID += "x"
			ev.Type = universal.TypeSessionEnded
			ev.Data = &universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}
			return append(s.evs, ev)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := conformance.Check(tc.build())
			if len(vs) == 0 {
				t.Fatalf("no violation, want %v", tc.rule)
			}
			for _, v := range vs {
				if !errors.Is(v, tc.rule) {
					t.Errorf("violation %v, want only %v", v, tc.rule)
				}
			}
		})
	}
}

// TestEndDuringTurn: Stream.End applies the ending rule itself, so a
// translator that leaves the turn open gets it right.
func TestEndDuringTurn(t *testing.T) {
	s := newSession()
	s.user("u1")
	evs := s.end()
	if vs := conformance.Check(evs); len(vs) > 0 {
		t.Fatal(vs)
	}
	last := evs[len(evs)-1].Data.(*universal.SessionEnded)
	if last.Reason != universal.EndError || last.Message != universal.MessageEndedDuringTurn {
		t.Errorf("session.ended %+v, want an error: the turn never finished", last)
	}
	p, err := conformance.Project(evs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p, "status idle→running→failed\nend error by agent\nturn interrupted\n") {
		t.Errorf("projection:\n%s", p)
	}
}

func TestProject(t *testing.T) {
	p, err := conformance.Project(canonical().end())
	if err != nil {
		t.Fatal(err)
	}
	want := `status idle→running→idle→completed
end completed by agent
turn completed
  user
  assistant
    execute call → ok
  assistant
    task call → ok
  assistant
`
	if p != want {
		t.Errorf("projection:\n%s\nwant:\n%s", p, want)
	}
}
