package opencode_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestQueuedUserMessageJoinsTurn: a message list (an export) whose user
// message was created while the agent's last step still ran (before that
// step, finished with tool calls, completed) shows a message the user
// queued: OpenCode's prompt loop went on with the next step and answered
// it in the turn it was running. It joins that turn, as it does when a
// server's events show it; before, the turn ended interrupted at it and
// a new turn started (dark-factory's 1.2.5 quiet-meadow export, times and
// ids below; alessandrojcm/dhc-dashboard's 1.18.21 Entire checkpoints
// show three more). A user message written after that step completed
// still ends the unfinished turn interrupted (the process was stopped,
// the user wrote again).
func TestQueuedUserMessageJoinsTurn(t *testing.T) {
	const (
		prompt = `{"info":{"id":"msg_c63f5c25d001dpqLNOVY4NFvt0","sessionID":"ses_q","role":"user","time":{"created":1771203576426}},"parts":[{"id":"prt_u1","type":"text","text":"Please analyze this codebase and create an AGENTS.md file"}]}`
		step   = `{"info":{"id":"msg_c63f67454001G29DR0R06m9VNz","sessionID":"ses_q","role":"assistant","parentID":"msg_c63f5c25d001dpqLNOVY4NFvt0","finish":"tool-calls","time":{"created":1771203621972,"completed":1771203665176}},"parts":[{"id":"prt_t","type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"ls"},"output":"src","time":{"start":1771203622000,"end":1771203665000}}}]}`
		answer = `{"info":{"id":"msg_c63f71d1a001NgcX20p1zaxWRF","sessionID":"ses_q","role":"assistant","parentID":"msg_c63f6be34001JhkYnYHNgB4ppC","finish":"stop","time":{"created":1771203665178,"completed":1771203678263}},"parts":[{"id":"prt_a","type":"text","text":"Added .gitignore."}]}`
	)
	user := func(created string) string {
		return `{"info":{"id":"msg_c63f6be34001JhkYnYHNgB4ppC","sessionID":"ses_q","role":"user","time":{"created":` + created + `}},"parts":[{"id":"prt_u2","type":"text","text":"Setup a Git Ignore for Rust + NodeJS / BunJS "}]}`
	}
	for _, c := range []struct {
		name, created string
		want          []universal.TurnStatus
	}{
		{"queued while the step ran", "1771203640889", []universal.TurnStatus{universal.TurnCompleted}},
		{"written after the step", "1771203700000", []universal.TurnStatus{universal.TurnInterrupted, universal.TurnCompleted}},
		{"no times", "null", []universal.TurnStatus{universal.TurnInterrupted, universal.TurnCompleted}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := `{"info":{"id":"ses_q","version":"1.2.5","directory":"/w","time":{"created":1}},"messages":[` + prompt + "," + step + "," + user(c.created) + "," + answer + `]}`
			evs := run(t, opencode.FormatMessages, in)
			noUnparsed(t, evs)
			ends := golden.OfType(evs, universal.TypeTurnEnded)
			var got []universal.TurnStatus
			for _, e := range ends {
				got = append(got, e.Data.(*universal.TurnEnded).Status)
			}
			if len(got) != len(c.want) {
				t.Fatalf("turns %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("turns %v, want %v", got, c.want)
				}
			}
			users := 0
			for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
				if it := e.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleUser {
					users++
				}
			}
			if users != 2 {
				t.Errorf("%d user messages, want 2", users)
			}
		})
	}
}
