package opencode_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// v2Export is an OpenCode 2.x session export (GET
// /api/session/{id}/export: {data: {info, messages}}) in the shapes of the
// SessionMessage types of the SDK generated from OpenCode's server
// (anomalyco/opencode packages/sdk/js/src/v2/gen/types.gen.ts) and of a
// public project's notes of a live 2.x beta (0.0.0-beta-18600: the
// message union of ten types, an assistant's content of text, reasoning
// and tool blocks, a tool's state {status, input, content | error}); ids,
// times and texts made up.
const v2Export = `{"data":{"info":{"id":"ses_fb53","projectID":"5e62","agent":"build","model":{"id":"gpt-5.6-sol","providerID":"openai"},"title":"protocol probe","location":{"directory":"/w"},"time":{"created":1787960546605,"updated":1787960546605}},"messages":[
{"id":"msg_01","type":"agent-switched","agent":"build","time":{"created":1}},
{"id":"msg_02","type":"user","text":"Read a.txt and run ls","files":[{"data":"aGk=","mime":"text/plain","name":"b.txt","source":{"type":"inline"}}],"time":{"created":2}},
{"id":"msg_03","type":"assistant","agent":"build","model":{"id":"gpt-5.6-sol","providerID":"openai"},"content":[{"type":"reasoning","text":"Reading first."},{"type":"tool","id":"call_1","name":"read","executed":true,"state":{"status":"completed","input":{"filePath":"/w/a.txt"},"content":[{"type":"text","text":"hello"}]},"time":{"created":3,"ran":4,"completed":5}},{"type":"tool","id":"call_2","name":"shell","state":{"status":"error","input":{"command":"ls /nope"},"error":{"type":"exit","message":"exit status 2"}},"time":{"created":5,"completed":6}}],"finish":"tool-calls","cost":0.01,"tokens":{"input":100,"output":20,"reasoning":5,"cache":{"read":10,"write":0}},"time":{"created":3,"completed":6}},
{"id":"msg_04","type":"assistant","agent":"build","model":{"id":"gpt-5.6-sol","providerID":"openai"},"content":[{"type":"text","text":"a.txt says hello; /nope does not exist."}],"finish":"stop","cost":0.02,"tokens":{"input":150,"output":12,"reasoning":0,"cache":{"read":100,"write":0}},"time":{"created":7,"completed":8}},
{"id":"msg_05","type":"shell","shellID":"sh_01","command":"pwd","status":"exited","exit":0,"output":{"output":"/w","cursor":2,"size":2,"truncated":false},"time":{"created":9,"completed":10}},
{"id":"msg_06","type":"synthetic","text":"Background tests passed","description":"Shell completion","time":{"created":11}},
{"id":"msg_07","type":"compaction","status":"completed","reason":"auto","summary":"Read a.txt; ls failed.","recent":"","time":{"created":12}}
]}}`

// TestV2SavedMessages: OpenCode 2.x's saved messages (an export, the
// message list GET /api/session/{id}/message returns) have no parts:
// each message is one object of a type, an assistant's content its text,
// reasoning and tool blocks. Every message was agent.unparsed ("message
// without info.id"), and the document was not detected. Each is now what
// the 1.x record or 2.x event it stands for gives.
func TestV2SavedMessages(t *testing.T) {
	if f := opencode.Detect([]byte(v2Export)); f != opencode.FormatMessages {
		t.Errorf("detected %q, want messages", f)
	}
	golden.FuzzProperty(t, golden.Fuzz{New: newFor(opencode.FormatMessages), Framing: framing(opencode.FormatMessages)}, []byte(v2Export))
	evs := run(t, opencode.FormatMessages, v2Export)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v", u[0].Data)
	}
	if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); !strings.Contains(md, `"cwd":"/w"`) || !strings.Contains(md, `"title":"protocol probe"`) {
		t.Errorf("session.started metadata %s", md)
	}
	if ns := evs[0].NativeSessionID; ns != "ses_fb53" {
		t.Errorf("native session %q", ns)
	}
	var got []string
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		s := string(it.Kind) + "/" + string(it.Role) + "/" + string(it.Status)
		for _, p := range it.Content {
			s += fmt.Sprintf(" %s:%s%s%s%s", p.Type, p.Text, p.Name, p.Output, p.Label)
		}
		got = append(got, s)
	}
	want := []string{
		"message/user/completed text:Read a.txt and run ls file_ref:",
		"tool_call/assistant/completed tool_call:read",
		"tool_result/tool/completed tool_result:hello file_ref:",
		"tool_call/assistant/completed tool_call:shell",
		"tool_result/tool/failed tool_result:exit status 2",
		"message/assistant/completed reasoning:Reading first.",
		"message/assistant/completed text:a.txt says hello; /nope does not exist.",
		"tool_call/user/completed tool_call:shell",
		"tool_result/tool/completed tool_result:/w",
		"system/system/completed text:Background tests passed",
		"status//completed status:compaction",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(golden.OfType(evs, universal.TypeUsageUpdated)); n != 2 {
		t.Errorf("%d usage.updated, want one a step", n)
	}
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("turn.ended %+v", ends)
	}

	// The message list: the same messages, of a session it does not name.
	list := `{"data":[` + v2Export[strings.Index(v2Export, `"messages":[`)+len(`"messages":[`):len(v2Export)-3] + `],"cursor":{}}`
	if f := opencode.Detect([]byte(list)); f != opencode.FormatMessages {
		t.Errorf("list detected %q, want messages", f)
	}
	golden.FuzzProperty(t, golden.Fuzz{New: newFor(opencode.FormatMessages), Framing: framing(opencode.FormatMessages)}, []byte(list))
	evs = run(t, opencode.FormatMessages, list)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("list: agent.unparsed %+v", u[0].Data)
	}
	if ns := evs[0].NativeSessionID; ns != "" {
		t.Errorf("list: native session %q, want none", ns)
	}
	if n := len(golden.OfType(evs, universal.TypeItemCompleted)); n != len(want) {
		t.Errorf("list: %d items, want %d", n, len(want))
	}
}

// TestV2UnknownContent: an assistant content block of a type the package
// does not know (here "image") was left out without a trace; the message
// is replayed with what is known and the block reported. The list's
// messages name their session, which is followed (a list of messages
// with a sessionID was read as another session's and gave nothing).
func TestV2UnknownContent(t *testing.T) {
	doc := `{"data":[{"id":"msg_1","sessionID":"ses_1","type":"assistant","content":[{"type":"text","text":"Here."},{"type":"image","url":"file:///w/a.png"}],"finish":"stop","time":{"created":1,"completed":2}}]}`
	evs := run(t, opencode.FormatMessages, doc)
	u := golden.OfType(evs, universal.TypeUnparsed)
	if len(u) != 1 || !strings.Contains(u[0].Data.(*universal.Unparsed).Error, `"image"`) {
		t.Errorf("agent.unparsed %v, want the image block", u)
	}
	if n := len(golden.OfType(evs, universal.TypeItemCompleted)); n != 1 {
		t.Errorf("%d items, want the text message", n)
	}
	if ns := evs[0].NativeSessionID; ns != "ses_1" {
		t.Errorf("native session %q, want the messages' ses_1", ns)
	}
}
