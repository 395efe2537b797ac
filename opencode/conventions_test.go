package opencode_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The tests of this file check the canonical shape of the universal
// package's Conventions on hand-made OpenCode input.

// sessionCreated is the followed session's creation, in directory /w.
func sessionCreated() string {
	return fmt.Sprintf(`{"type":"session.created","properties":{"info":{"id":%q,"directory":"/w","title":"t","version":"1.18.33"}}}`, ses)
}

// tool is a tool part update of message msg_a: the part's id, the
// tool's name and its state (a JSON object).
func tool(id, name, state string) string {
	return fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":%q,"messageID":"msg_a","sessionID":%q,"type":"tool","tool":%q,"callID":"call_%s","state":%s}}}`,
		id, ses, name, id, state)
}

// done is a completed tool state.
func done(input, output, metadata, extra string) string {
	return fmt.Sprintf(`{"status":"completed","input":%s,"output":%q,"title":"t","metadata":%s,"time":{"start":1,"end":2}%s}`, input, output, metadata, extra)
}

// items returns the completed items by native id and kind.
func items(events []universal.Event) map[string]universal.Item {
	out := map[string]universal.Item{}
	for _, it := range completed(events) {
		out[it.NativeItemID+" "+string(it.Kind)] = it
	}
	return out
}

func conforms(t *testing.T, events []universal.Event) {
	t.Helper()
	for _, v := range conformance.Check(events) {
		t.Errorf("canonical shape: %v", v)
	}
}

// TestToolVocabulary: every tool_call part says its kind from the start
// and its normalized input at completion, relative paths resolved against
// the session's directory; the native name and arguments stay.
func TestToolVocabulary(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: new.txt\n+x\n*** Update File: /w/old.txt\n@@\n-a\n+b\n*** End Patch"
	input := sse(
		sessionCreated(),
		msgUpdated("msg_a", "assistant", false),
		tool("p1", "bash", `{"status":"pending","input":{}}`),
		tool("p1", "bash", `{"status":"running","input":{"command":"bash -lc 'ls -la'","description":"list"}}`),
		tool("p2", "read", done(`{"filePath":"a.txt"}`, "x", `{}`, "")),
		tool("p3", "apply_patch", done(fmt.Sprintf(`{"patchText":%q}`, patch), "ok", `{}`, "")),
		tool("p4", "task", `{"status":"running","input":{"description":"d","prompt":"Count files","subagent_type":"explore"}}`),
		tool("p5", "todowrite", done(`{"todos":[]}`, "[]", `{}`, "")),
		tool("p6", "grep", done(`{"pattern":"TODO","path":"src"}`, "", `{}`, "")),
		tool("p7", "webfetch", done(`{"url":"https://example.com","format":"text"}`, "", `{}`, "")),
		tool("p8", "github_create_issue", done(`{"title":"x"}`, "", `{}`, "")),
		msgUpdated("msg_a", "assistant", true),
	)
	events := run(t, opencode.FormatSSE, input)
	noUnparsed(t, events)
	conforms(t, events)
	for _, e := range golden.OfType(events, universal.TypeItemStarted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind == universal.KindToolCall && (it.Content[0].ToolKind == "" || it.Content[0].ToolInput == nil) {
			t.Errorf("call %s started without tool_kind", it.Content[0].Name)
		}
	}
	want := map[string]struct {
		kind  universal.ToolKind
		input string
	}{
		"p1": {universal.ToolExecute, `{"command":"ls -la"}`},
		"p2": {universal.ToolRead, `{"paths":["/w/a.txt"]}`},
		"p3": {universal.ToolEdit, `{"paths":["/w/new.txt","/w/old.txt"]}`},
		"p4": {universal.ToolTask, `{"prompt":"Count files","agent":"explore"}`},
		"p5": {universal.ToolThink, `{}`},
		"p6": {universal.ToolSearch, `{"paths":["/w/src"],"query":"TODO"}`},
		"p7": {universal.ToolFetch, `{"url":"https://example.com"}`},
		"p8": {universal.ToolOther, `{}`},
	}
	got := items(events)
	for id, w := range want {
		it, ok := got[id+" tool_call"]
		if !ok {
			t.Errorf("%s: no completed call", id)
			continue
		}
		p := it.Content[0]
		if in := string(p.ToolInput.AppendJSON(nil)); p.ToolKind != w.kind || in != w.input {
			t.Errorf("%s (%s): %s %s, want %s %s", id, p.Name, p.ToolKind, in, w.kind, w.input)
		}
	}
	if p := got["p1 tool_call"].Content[0]; p.Name != "bash" || p.Arguments != `{"command":"bash -lc 'ls -la'","description":"list"}` {
		t.Errorf("native call changed: %s %s", p.Name, p.Arguments)
	}
}

// TestToolResults: results are under the call's message; a shell command
// fails with a non-zero exit code (kept as exit_code) or when OpenCode
// killed it; the invalid tool fails; file tools add file_ref parts, an
// image read adds an image part without its data.
func TestToolResults(t *testing.T) {
	const img = "data:image/png;base64,iVBORw0KGgo="
	files := `{"files":[{"filePath":"/w/n.txt","type":"add","patch":"+n"},{"filePath":"/w/o.txt","movePath":"/w/m.txt","type":"move","patch":"-o\n+m"}]}`
	input := sse(
		sessionCreated(),
		msgUpdated("msg_a", "assistant", false),
		tool("b0", "bash", done(`{"command":"true"}`, "", `{"output":"","exit":0}`, "")),
		tool("b2", "bash", done(`{"command":"false"}`, "", `{"output":"","exit":2}`, "")),
		tool("bt", "bash", done(`{"command":"sleep 999"}`, "(no output)\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 120000 ms.\n</shell_metadata>", `{"output":"","exit":null}`, "")),
		tool("ba", "bash", done(`{"command":"yes"}`, "y\n\n<bash_metadata>\nUser aborted the command\n</bash_metadata>", `{"output":"y","exit":null}`, "")),
		tool("iv", "invalid", done(`{"tool":"edit","error":"bad JSON"}`, "The arguments provided to the tool are invalid: bad JSON", `{}`, "")),
		tool("rd", "read", done(`{"filePath":"pic.png"}`, "Image read successfully", `{"preview":"Image read successfully"}`,
			fmt.Sprintf(`,"attachments":[{"id":"prt_x","type":"file","mime":"image/png","url":%q}]`, img))),
		tool("wr", "write", done(`{"filePath":"/w/x.py","content":"x"}`, "Wrote file successfully.", `{"exists":false}`, "")),
		tool("ed", "edit", done(`{"filePath":"/w/x.py","oldString":"x","newString":"y"}`, "Edit applied successfully.", `{"diff":"-x\n+y\n"}`, "")),
		tool("ap", "apply_patch", done(`{"patchText":"*** Begin Patch\n*** End Patch"}`, "Success.", files, "")),
		tool("er", "read", `{"status":"error","input":{"filePath":"/w/none"},"error":"File not found: /w/none","time":{"start":1,"end":2}}`),
		msgUpdated("msg_a", "assistant", true),
	)
	events := run(t, opencode.FormatSSE, input)
	noUnparsed(t, events)
	conforms(t, events)
	got := items(events)
	msg := got["msg_a message"].ItemID
	for _, c := range []struct {
		id     string
		failed bool
		code   string // exit_code in the part's metadata, "" for none
		parts  string // the types after the tool_result part, with path and action
	}{
		{"b0", false, "0", ""},
		{"b2", true, "2", ""},
		{"bt", true, "", ""},
		{"ba", true, "", ""},
		{"iv", true, "", ""},
		{"rd", false, "", "file_ref /w/pic.png read; image /w/pic.png image/png"},
		{"wr", false, "", "file_ref /w/x.py write"},
		{"ed", false, "", "file_ref /w/x.py patch -x\n+y"},
		{"ap", false, "", "file_ref /w/n.txt write +n; file_ref /w/m.txt patch -o\n+m"},
		{"er", true, "", ""},
	} {
		res, ok := got[c.id+" tool_result"]
		if !ok {
			t.Errorf("%s: no result", c.id)
			continue
		}
		if res.ParentID != msg || got[c.id+" tool_call"].ParentID != msg {
			t.Errorf("%s: result under %q, call under %q, want both under the message %s", c.id, res.ParentID, got[c.id+" tool_call"].ParentID, msg)
		}
		p := res.Content[0]
		if failed := res.Status == universal.StatusFailed; failed != c.failed || p.IsError != c.failed {
			t.Errorf("%s: status %s is_error %v, want failed %v", c.id, res.Status, p.IsError, c.failed)
		}
		if code := gjson.GetBytes(p.Metadata, "exit_code").Raw; code != c.code {
			t.Errorf("%s: exit_code %q, want %q", c.id, code, c.code)
		}
		var rest []string
		for _, q := range res.Content[1:] {
			switch q.Type {
			case universal.PartFileRef:
				rest = append(rest, strings.TrimSpace(fmt.Sprintf("file_ref %s %s %s", q.Path, q.Action, q.Diff)))
			case universal.PartImage:
				rest = append(rest, fmt.Sprintf("image %s %s", q.Path, q.Mime))
			default:
				rest = append(rest, string(q.Type))
			}
		}
		if s := strings.Join(rest, "; "); s != c.parts {
			t.Errorf("%s: parts after the result %q, want %q", c.id, s, c.parts)
		}
	}
	if md := string(got["rd tool_result"].Content[0].Metadata); strings.Contains(md, "base64") || !strings.Contains(md, `"mime":"image/png"`) {
		t.Errorf("read result metadata %s: the attachment without its data", md)
	}
}

// TestEndingsLeftToStream: a turn the input leaves open is ended by the
// Stream (interrupted, session_ending; the session in error or
// terminated), whatever the translator saw of it; session.idle ends it
// completed.
func TestEndingsLeftToStream(t *testing.T) {
	head := []string{
		`{"type":"session.status","properties":{"sessionID":"ses_a","status":{"type":"busy"}}}`,
		msgUpdated("msg_u", "user", false),
		textPart("msg_u", "prt_u", "text", "Hi", "", true),
		msgUpdated("msg_a", "assistant", false),
		textPart("msg_a", "prt_a", "text", "Hello", "", true),
		msgUpdated("msg_a", "assistant", true), // finished, but no idle yet
	}
	idle := `{"type":"session.idle","properties":{"sessionID":"ses_a"}}`
	for _, c := range []struct {
		name    string
		input   []string
		end     universal.Report
		turn    universal.TurnStatus
		ending  bool
		reason  universal.EndReason
		message string
	}{
		{"idle", append(head[:len(head):len(head)], idle), universal.EndOfInput{}, universal.TurnCompleted, false, universal.EndCompleted, ""},
		{"end of input", head, universal.EndOfInput{}, universal.TurnInterrupted, true, universal.EndError, universal.MessageEndedDuringTurn},
		{"exit 137", head, universal.Exit{Code: 137}, universal.TurnInterrupted, true, universal.EndError, "exit code 137"},
		{"terminate", head, universal.Terminate{}, universal.TurnInterrupted, true, universal.EndTerminated, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := opencode.New(opencode.FormatSSE, golden.Options())
			if err != nil {
				t.Fatal(err)
			}
			var events []universal.Event
			for m, err := range universal.Messages(universal.NewReader(strings.NewReader(sse(c.input...)), universal.FrameSSE, 0)) {
				if err != nil {
					t.Fatal(err)
				}
				events = tr.Translate(events, m)
			}
			events = tr.Report(events, c.end)
			if err := universal.CheckStream(events); err != nil {
				t.Fatal(err)
			}
			conforms(t, events)
			ended := golden.OfType(events, universal.TypeTurnEnded)
			if len(ended) != 1 {
				t.Fatalf("%d turn ends", len(ended))
			}
			d := ended[0].Data.(*universal.TurnEnded)
			if d.Status != c.turn || d.SessionEnding() != c.ending {
				t.Errorf("turn ended %s (session_ending %v), want %s (%v)", d.Status, d.SessionEnding(), c.turn, c.ending)
			}
			se := events[len(events)-1].Data.(*universal.SessionEnded)
			if se.Reason != c.reason || se.Message != c.message {
				t.Errorf("session ended %s %q, want %s %q", se.Reason, se.Message, c.reason, c.message)
			}
		})
	}
}

// TestMessageListEndings: a message list (a record) ends its last turn
// when it shows the agent finished it, before the end of the input, and
// leaves it open otherwise.
func TestMessageListEndings(t *testing.T) {
	user := `{"info":{"id":"msg_u","sessionID":"ses_a","role":"user","time":{"created":1}},"parts":[{"id":"prt_u","messageID":"msg_u","sessionID":"ses_a","type":"text","text":"Hi"}]}`
	assistant := func(finish, extra string) string {
		return fmt.Sprintf(`{"info":{"id":"msg_a","sessionID":"ses_a","role":"assistant","finish":%q,"path":{"cwd":"/w","root":"/w"},"time":{"created":2,"completed":3}},"parts":[{"id":"prt_a","messageID":"msg_a","sessionID":"ses_a","type":"text","text":"Hello"}%s]}`, finish, extra)
	}
	denied := `,{"id":"prt_t","messageID":"msg_a","sessionID":"ses_a","type":"tool","tool":"bash","callID":"c1","state":{"status":"error","input":{"command":"rm x"},"error":"The user rejected permission to use this specific tool call.","time":{"start":1,"end":2}}}`
	for _, c := range []struct {
		name string
		list string
		turn universal.TurnStatus // "" when the list leaves the turn open
	}{
		{"finished", "[" + user + "," + assistant("stop", "") + "]", universal.TurnCompleted},
		{"asks for tools", "[" + user + "," + assistant("tool-calls", "") + "]", ""},
		{"permission refused", "[" + user + "," + assistant("tool-calls", denied) + "]", universal.TurnCompleted},
		{"no reply", "[" + user + "]", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := opencode.New(opencode.FormatMessages, golden.Options())
			if err != nil {
				t.Fatal(err)
			}
			events := tr.Translate(nil, universal.Message{Data: []byte(c.list), Line: 1})
			ended := golden.OfType(events, universal.TypeTurnEnded)
			switch {
			case c.turn == "" && len(ended) != 0:
				t.Errorf("turn ended %s, want it left open", golden.Encode(ended))
			case c.turn != "" && (len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != c.turn || ended[0].Source != universal.SourceAgent):
				t.Errorf("turn ends %s, want one %s by the agent", golden.Encode(ended), c.turn)
			}
			events = tr.Report(events, universal.EndOfInput{})
			if err := universal.CheckStream(events); err != nil {
				t.Fatal(err)
			}
			conforms(t, events)
			se := events[len(events)-1].Data.(*universal.SessionEnded)
			if want := c.turn == ""; (se.Reason == universal.EndError) != want {
				t.Errorf("session ended %s, want error %v", se.Reason, want)
			}
		})
	}
}

// TestRunTurnEndsWithItsStep: opencode run's turn ends at the step that
// finishes it, as the line arrives; an error line ends it in error.
func TestRunTurnEndsWithItsStep(t *testing.T) {
	tr, err := opencode.New(opencode.FormatRunJSON, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		runLine("step_start", "msg_1", `{"id":"prt_s1","type":"step-start"}`),
		runLine("text", "msg_1", `{"id":"prt_x1","type":"text","text":"Hi.","time":{"start":1,"end":2}}`),
		runLine("step_finish", "msg_1", `{"id":"prt_f1","type":"step-finish","reason":"stop","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		`{"type":"error","timestamp":1,"sessionID":"ses_a","error":{"name":"APIError","data":{"message":"boom"}}}`,
	}
	var events []universal.Event
	for i, l := range lines {
		events = tr.Translate(events, universal.Message{Data: []byte(strings.TrimSpace(l)), Line: int64(i + 1)})
		n := len(golden.OfType(events, universal.TypeTurnEnded))
		if want := max(i-1, 0); n != want {
			t.Errorf("after line %d: %d turn ends, want %d", i+1, n, want)
		}
	}
	ended := golden.OfType(events, universal.TypeTurnEnded)
	if ended[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted || ended[1].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn ends %s", golden.Encode(ended))
	}
	events = tr.Report(events, universal.Exit{Code: 1})
	conforms(t, events)
}

// TestMessageCompleteBeforeParts: a message whose info says it is
// complete before any part came keeps its item open for its parts: one
// model response, one message item.
func TestMessageCompleteBeforeParts(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		msgUpdated("msg_a", "assistant", true),
		textPart("msg_a", "prt_r", "reasoning", "Thinking.", "", true),
		textPart("msg_a", "prt_x", "text", "Answer.", "", true),
		msgUpdated("msg_b", "user", false),
	))
	noUnparsed(t, events)
	conforms(t, events)
	var assistant []universal.Item
	for _, it := range completed(events) {
		if it.Role == universal.RoleAssistant {
			assistant = append(assistant, it)
		}
	}
	if len(assistant) != 1 || len(assistant[0].Content) != 2 || assistant[0].Status != universal.StatusCompleted {
		b, _ := json.Marshal(assistant)
		t.Errorf("assistant items %s, want one completed with the reasoning and the text", b)
	}
}
