package notify_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/notify"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// History an agent replays (ACP's session/load: turns whose turn.started
// metadata has "replay": true) is not live work: no status flicker, no
// tool calls, messages or completions of old turns; the live work after
// it is notified as ever. A reload notified every old turn as if it ran
// again (audit001 F3).
func TestReplayedHistory(t *testing.T) {
	replayed := func(s *session, text string) {
		var turn string
		s.evs, turn = s.w.StartTurn(s.evs, "", []byte(`{"replay":true}`), src, nil)
		s.evs = s.w.Complete(s.evs, universal.Item{ItemID: s.w.NewItemID(), Kind: universal.KindMessage, Role: universal.RoleUser,
			Content: []universal.Part{universal.Text("What is in README?")}}, src, nil)
		m := s.w.NewItemID()
		s.say(m, "", "Let me read it.")
		s.call(s.w.NewItemID(), m, "k"+m, "Read", universal.ToolRead, universal.ToolInput{Paths: []string{"README.md"}}, "# Project")
		s.evs = s.w.RequestPermission(s.evs, universal.Permission{PermissionID: "p" + m, Action: "Read"}, src, nil)
		s.evs = s.w.ResolvePermission(s.evs, universal.Permission{PermissionID: "p" + m, Status: universal.PermissionApproved}, src, nil)
		s.say(s.w.NewItemID(), "", text)
		s.evs = s.w.EndTurn(s.evs, turn, universal.TurnCompleted, nil, universal.SourceDaemon, nil)
	}
	live := func(s *session, text string) {
		turn := s.turn()
		s.say(s.w.NewItemID(), "", text)
		s.evs = s.w.EndTurn(s.evs, turn, universal.TurnCompleted, nil, src, nil)
	}
	for _, c := range []struct {
		name  string
		steps func(*session)
		want  []string
	}{
		{"a load, then a prompt", func(s *session) {
			replayed(s, "It has a title only.")
			replayed(s, "You're welcome.")
			live(s, "You're welcome.") // the same text as history's: news
		}, []string{"status:running", "message:You're welcome.", "completion:You're welcome.", "status:idle"}},
		{"a prompt, then a load", func(s *session) {
			live(s, "Hello.")
			replayed(s, "Hello.")
			s.evs = s.w.End(s.evs, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
		}, []string{"status:running", "message:Hello.", "completion:Hello.", "status:idle", "status:completed"}},
		{"a load that fails while it replays", func(s *session) {
			s.evs, _ = s.w.StartTurn(s.evs, "", []byte(`{"replay":true}`), src, nil)
			s.say(s.w.NewItemID(), "", "Old answer.")
			s.evs = s.w.Emit(s.evs, universal.TypeError, src, &universal.Error{Message: "session not found"}, nil)
			s.evs = s.w.End(s.evs, universal.SessionEnded{Reason: universal.EndError, TerminatedBy: universal.ByAgent, Message: "exit code 1"}, universal.SourceDaemon, nil)
		}, []string{"error:session not found", "status:failed"}},
		{"a load cut off while it replays", func(s *session) {
			s.evs, _ = s.w.StartTurn(s.evs, "", []byte(`{"replay":true}`), src, nil)
			s.say(s.w.NewItemID(), "", "Old answer.")
			s.evs = s.w.End(s.evs, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}, universal.SourceDaemon, nil)
		}, []string{"error:the session ended during a turn", "status:failed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSession()
			c.steps(s)
			pushed, _ := run(t, notify.Options{Throttle: -1}, s.evs)
			if diff := cmp.Diff(c.want, brief(pushed)); diff != "" {
				t.Errorf("pushed (-want +got):\n%s", diff)
			}
		})
	}
}

// Recorded loads: the hand-written ACP exchange (two replayed turns, a
// tool call among them, then two live prompts: a refusal and an error)
// and a public capture of opencode-acp 1.18.16 whose session is loaded
// after its one prompt (the turn replayed after it ran live): only the
// live turns are notified.
func TestReplayedHistoryRecorded(t *testing.T) {
	load := []string{"status:running", "message:I can't help with that.", "completion:I can't help with that.", "status:idle",
		"status:running", "error:model overloaded", "status:failed", "message:Let me"}
	answer := "Files: `.git/`, `notes.txt`, `README.md`.\n\nREADME.md is a single line: \"# scratch repo for ACP probing\""
	for _, c := range []struct {
		path string
		want []string
	}{
		{"../testdata/acp/handwritten/s05-load.agent.golden.ndjson", load},
		{"../testdata/acp/handwritten/s05-load.exchange.golden.ndjson", load},
		{"../testdata/acp/opencode-acp/public/pi-harness-delegate__opencode-acp-1.18.16.agent.golden.ndjson", []string{
			"status:running",
			"tool_call:/workspace/repo [read]", "tool_call:README.md [glob]",
			"tool_result:.git/\nnotes.txt\nREADME.md [read]", "tool_result:/workspace/repo/README.md [glob]",
			"tool_call:/workspace/repo/README.md [read]", "tool_result:# scratch repo for ACP probing [read]",
			"message:" + answer, "completion:" + answer, "status:idle",
			"status:completed"}},
	} {
		t.Run(c.path, func(t *testing.T) {
			pushed, _ := run(t, notify.Options{Throttle: -1}, read(t, c.path))
			if diff := cmp.Diff(c.want, brief(pushed)); diff != "" {
				t.Errorf("pushed (-want +got):\n%s", diff)
			}
		})
	}
}
