package opencode_test

import (
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAgentMode: the agent a message of the session is for (build, plan,
// one of the user's own), which OpenCode's messages name (a user's agent,
// an assistant's agent and mode), was read nowhere, so a switch to plan
// mode and back showed nothing, as it shows in Claude Code's, Codex's
// and ACP agents' output. A change is now a status item labelled "mode";
// OpenCode's hidden agents (compaction, title, summary) and a sub-agent's
// session are not the session's mode. Lines in the shape of OpenCode's
// message.updated (as the public exports of testdata/opencode/public
// write an assistant's mode; ids ours).
func TestAgentMode(t *testing.T) {
	info := func(id, session, role, agent string, completed bool) string {
		tm := `{"created":1}`
		if completed {
			tm = `{"created":1,"completed":2}`
		}
		mode := ""
		if role == "assistant" {
			mode = fmt.Sprintf(`,"mode":%q`, agent)
		}
		return fmt.Sprintf(`{"type":"message.updated","properties":{"info":{"id":%q,"sessionID":%q,"role":%q,"agent":%q%s,"time":%s}}}`, id, session, role, agent, mode, tm)
	}
	turn := func(n int, agent string) []string {
		u, a := fmt.Sprintf("msg_u%d", n), fmt.Sprintf("msg_a%d", n)
		return []string{info(u, ses, "user", agent, false), info(a, ses, "assistant", agent, false), info(a, ses, "assistant", agent, true)}
	}
	var lines []string
	lines = append(lines, turn(1, "build")...)
	lines = append(lines, turn(2, "plan")...)
	lines = append(lines, info("msg_c", ses, "assistant", "compaction", true))
	lines = append(lines, `{"type":"session.created","properties":{"info":{"id":"ses_child","parentID":"ses_a","title":"sub"}}}`,
		info("msg_s", "ses_child", "assistant", "general", true))
	lines = append(lines, turn(3, "plan")...)
	lines = append(lines, turn(4, "build")...)
	evs := run(t, opencode.FormatSSE, sse(lines...))
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus && it.Content[0].Label == "mode" {
			got = append(got, it.Content[0].Detail+" "+string(it.Content[0].Metadata))
		}
	}
	want := []string{`plan {"agent":"plan","previous":{"agent":"build"}}`, `build {"agent":"build","previous":{"agent":"plan"}}`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("mode items %q, want %q", got, want)
	}
}
