package acp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSessionTitle: a session_info_update's title (claude-agent-acp sends
// one after the first prompt) was a status item "session_info" with the
// update in its metadata. It is the session's title: session.started
// metadata "title" before the session starts, after it a status item
// labelled title when the title changes (updatedAt in its metadata); the
// same title again makes no item, and an update without a title (Codex's
// threadStatus in _meta) stays a session_info item.
func TestSessionTitle(t *testing.T) {
	info := func(members string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"session_info_update",` + members + `}}}`
	}
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		info(`"title":"First"`),
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`,
		info(`"title":"First","updatedAt":"2026-11-28T21:27:16.231Z"`),
		info(`"title":"Second","updatedAt":"2026-11-28T21:27:17.000Z"`),
		info(`"_meta":{"codex":{"threadStatus":{"type":"idle"}}}`),
	}, "\n"))
	var md struct{ Title string }
	if err := json.Unmarshal(golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata, &md); err != nil || md.Title != "First" {
		t.Errorf("session.started title %q (%v), want First", md.Title, err)
	}
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindStatus {
			p := it.Content[0]
			got = append(got, p.Label+":"+p.Detail+":"+string(p.Metadata))
		}
	}
	want := `[title:Second:{"updatedAt":"2026-11-28T21:27:17.000Z"} session_info::{"session_info":{"_meta":{"codex":{"threadStatus":{"type":"idle"}}}}}]`
	if fmt.Sprint(got) != want {
		t.Errorf("status items %s\nwant %s", got, want)
	}
}

// TestTitleIsLocation: a call without a programmatic name was named by
// its title even when the title is the place it works on. OpenCode
// 1.18.16's session/load replays a finished read titled by its file
// ("README.md", the state's title; the live call was titled "read"), and
// Gemini CLI titles read_file by the file: such a call is named by its
// ACP kind. A title that is no location (a command, "Writing to x")
// still names the call.
func TestTitleIsLocation(t *testing.T) {
	call := func(id, title, kind, loc string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"` + id +
			`","title":"` + title + `","kind":"` + kind + `","status":"pending","locations":[{"path":"` + loc + `"}],"rawInput":{}}}}`
	}
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		call("c1", "README.md", "read", "/ws/README.md"),
		call("c2", "src/main.go", "read", "/ws/src/main.go"),
		call("c3", "/ws/a.txt", "edit", "/ws/a.txt"),
		call("c4", "Writing to a.txt", "edit", "/ws/a.txt"),
		call("c5", "ME.md", "read", "/ws/README.md"),
	}, "\n"))
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeItemStarted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
			got = append(got, it.Content[0].Name)
		}
	}
	if want := "[read read edit Writing to a.txt ME.md]"; fmt.Sprint(got) != want {
		t.Errorf("call names %s, want %s", got, want)
	}
}

// TestGooseToolName: Goose's ACP server names a call's tool in
// _meta.goose.toolCall {toolName, extensionName} beside a title made for
// people ("shell: ls"), as public ACP clients of Goose read it (their
// tests quote tool_call updates of this shape); the call was named by the
// title. It is named by toolName.
func TestGooseToolName(t *testing.T) {
	evs := translateChecked(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tc1","title":"shell: ls","kind":"execute","status":"pending","rawInput":{"command":"ls"},"_meta":{"goose":{"toolCall":{"toolName":"developer__shell","extensionName":"developer"}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"tc1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"a\nb"}}]}}}`,
	}, "\n"))
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindToolCall {
			if p := it.Content[0]; p.Name != "developer__shell" || p.ToolKind != universal.ToolExecute {
				t.Errorf("call named %q (kind %s), want developer__shell (execute)", p.Name, p.ToolKind)
			}
			return
		}
	}
	t.Fatal("no tool call")
}
