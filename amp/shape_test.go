package amp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// harness runs an inline input through the whole golden harness without
// golden files: stream checker, canonical shape, chunking,
// checkpoint/restore at every message, raw, and the cuts mid-turn.
func harness(t *testing.T, format, input string) {
	t.Helper()
	name := "in.jsonl"
	if format == amp.FormatThread {
		name = "in.json"
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	golden.Run(t, golden.Case{Input: path, Format: format, Framing: framing(format), New: newFor(format), NoGolden: true})
}

func shapeOK(t *testing.T, out []universal.Event) {
	t.Helper()
	for _, v := range conformance.Check(out) {
		t.Errorf("canonical shape: %v", v)
	}
}

// TestToolKinds: every tool call gets the kind and normalized input of
// the universal tool vocabulary, with relative paths resolved against
// init's cwd; the native name and arguments stay as they are.
func TestToolKinds(t *testing.T) {
	type want struct {
		name, args string
		kind       universal.ToolKind
		in         universal.ToolInput
	}
	cases := []want{
		{"Bash", `{"cmd":"go test ./...","cwd":"/w"}`, universal.ToolExecute, universal.ToolInput{Command: "go test ./..."}},
		{"shell_command", `{"command":"bash -lc 'ls -la'","workdir":"/w"}`, universal.ToolExecute, universal.ToolInput{Command: "ls -la"}},
		{"Read", `{"path":"src/a.go","read_range":[1,10]}`, universal.ToolRead, universal.ToolInput{Paths: []string{"/w/src/a.go"}}},
		{"create_file", `{"path":"/w/new.txt","content":"x"}`, universal.ToolEdit, universal.ToolInput{Paths: []string{"/w/new.txt"}}},
		{"edit_file", `{"path":"b.go","old_str":"a","new_str":"b"}`, universal.ToolEdit, universal.ToolInput{Paths: []string{"/w/b.go"}}},
		{"apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: c.sh\n+echo\n*** Update File: /abs/d.go\n@@\n-x\n+y\n*** End Patch"}`, universal.ToolEdit, universal.ToolInput{Paths: []string{"/w/c.sh", "/abs/d.go"}}},
		{"glob", `{"filePattern":"**/*.go","limit":10}`, universal.ToolSearch, universal.ToolInput{Query: "**/*.go"}},
		{"Grep", `{"pattern":"TODO","path":"src"}`, universal.ToolSearch, universal.ToolInput{Query: "TODO", Paths: []string{"/w/src"}}},
		{"web_search", `{"objective":"go release notes","search_queries":["go 1.26"]}`, universal.ToolSearch, universal.ToolInput{Query: "go release notes"}},
		{"read_web_page", `{"url":"https://go.dev","objective":"x"}`, universal.ToolFetch, universal.ToolInput{URL: "https://go.dev"}},
		{"Task", `{"prompt":"count words","description":"Count"}`, universal.ToolTask, universal.ToolInput{Prompt: "count words"}},
		{"oracle", `{"task":"review the plan","files":["a.go"]}`, universal.ToolTask, universal.ToolInput{Prompt: "review the plan", Agent: "oracle"}},
		{"todo_write", `{"todos":[]}`, universal.ToolThink, universal.ToolInput{}},
		{"skill", `{"name":"x"}`, universal.ToolOther, universal.ToolInput{}},
		{"mcp__postgres__query", `{"sql":"select 1"}`, universal.ToolOther, universal.ToolInput{}},
	}
	var blocks []string
	for i, c := range cases {
		blocks = append(blocks, `{"type":"tool_use","id":"TU-`+string(rune('a'+i))+`","name":"`+c.name+`","input":`+c.args+`}`)
	}
	call := `{"type":"assistant","message":{"type":"message","role":"assistant","content":[` + strings.Join(blocks, ",") + `],"stop_reason":"tool_use"},"parent_tool_use_id":null,"session_id":"T-1"}`
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, call), nil)
	shapeOK(t, out)
	var got []universal.Part
	for _, it := range golden.NewTranscript(out).Items {
		if it.Kind == universal.KindToolCall {
			got = append(got, it.Content[0])
		}
	}
	if len(got) != len(cases) {
		t.Fatalf("%d calls, want %d", len(got), len(cases))
	}
	for i, c := range cases {
		p := got[i]
		if p.Name != c.name || p.Arguments != c.args || p.ToolKind != c.kind || p.ToolInput == nil {
			t.Errorf("%s: name %q kind %q input %v, args %s", c.name, p.Name, p.ToolKind, p.ToolInput, p.Arguments)
			continue
		}
		in := *p.ToolInput
		if in.Command != c.in.Command || !slices.Equal(in.Paths, c.in.Paths) || in.Query != c.in.Query || in.URL != c.in.URL ||
			in.Prompt != c.in.Prompt || in.Agent != c.in.Agent {
			t.Errorf("%s: input %+v, want %+v", c.name, in, c.in)
		}
	}
}

// TestInputEndsMidTurn: stream-json that ends without Amp's result line
// leaves the turn to the end of the session: interrupted, marked
// session_ending, and the session ends in error.
func TestInputEndsMidTurn(t *testing.T) {
	call := `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"TU-1","name":"shell_command","input":{"command":"sleep 9"}}],"stop_reason":"tool_use"},"parent_tool_use_id":null,"session_id":"T-1"}`
	for _, end := range []universal.Report{universal.EndOfInput{}, universal.Exit{Code: 137}, universal.Terminate{}} {
		out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, call), end)
		shapeOK(t, out)
		te := golden.OfType(out, universal.TypeTurnEnded)
		if len(te) != 1 {
			t.Fatalf("%T: %d turn ends", end, len(te))
		}
		if d := te[0].Data.(*universal.TurnEnded); d.Status != universal.TurnInterrupted || !d.SessionEnding() {
			t.Errorf("%T: turn ended %s, metadata %s", end, d.Status, d.Metadata)
		}
		want := universal.EndError
		if _, ok := end.(universal.Terminate); ok {
			want = universal.EndTerminated
		}
		if d := ended(t, out); d.Reason != want {
			t.Errorf("%T: session ended %+v", end, d)
		}
	}
}

// TestThreadEnd: a thread file ends its last turn completed when the
// agent finished it, and leaves it open (for the end of the session to
// interrupt) when it ends on the user's message or a call still running.
func TestThreadEnd(t *testing.T) {
	user := `{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}]}`
	call := `{"role":"assistant","messageId":1,"content":[{"type":"tool_use","complete":true,"id":"toolu_1","name":"Bash","input":{"cmd":"ls"}}],"state":{"type":"complete","stopReason":"tool_use"}}`
	running := `{"role":"user","messageId":2,"content":[{"type":"tool_result","toolUseID":"toolu_1","run":{"status":"in-progress"}}]}`
	done := `{"role":"user","messageId":2,"content":[{"type":"tool_result","toolUseID":"toolu_1","run":{"status":"done","result":{"output":"a\n","exitCode":0}}}]}`
	answer := `{"role":"assistant","messageId":3,"content":[{"type":"text","text":"one file"}],"state":{"type":"complete","stopReason":"end_turn"}}`
	doc := func(msgs ...string) string {
		return `{"v":220,"id":"T-9","env":{"initial":{"trees":[{"uri":"file:///w"}]}},"messages":[` + strings.Join(msgs, ",") + `]}`
	}
	for _, c := range []struct {
		name     string
		doc      string
		finished bool
	}{
		{"answered", doc(user, call, done, answer), true},
		{"prompt only", doc(user), false},
		{"results not answered", doc(user, call, done), false},
		{"call running", doc(user, call, running), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := run(t, amp.FormatThread, lines(c.doc), nil)
			shapeOK(t, out)
			te := golden.OfType(out, universal.TypeTurnEnded)
			if len(te) != 1 {
				t.Fatalf("%d turn ends", len(te))
			}
			d := te[0].Data.(*universal.TurnEnded)
			se := ended(t, out)
			if c.finished {
				if d.Status != universal.TurnCompleted || d.SessionEnding() || se.Reason != universal.EndCompleted {
					t.Errorf("turn %s %s, session %+v: want completed", d.Status, d.Metadata, se)
				}
				return
			}
			if d.Status != universal.TurnInterrupted || !d.SessionEnding() || se.Reason != universal.EndError {
				t.Errorf("turn %s %s, session %+v: want left open", d.Status, d.Metadata, se)
			}
			harness(t, amp.FormatThread, c.doc)
		})
	}
}

// TestThinkingContinued: a response whose first message only thinks
// (Amp continues it with the next message) is one assistant message item
// with the reasoning and the text, and its calls are under it; a
// thinking-only message that nothing continues completes with its
// reasoning.
func TestThinkingContinued(t *testing.T) {
	think := func(s string) string {
		return `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"thinking","thinking":"` + s + `","signature":"sig"}],"stop_reason":"end_turn"},"parent_tool_use_id":null,"session_id":"T-1"}`
	}
	act := `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"text","text":"Running it."},{"type":"tool_use","id":"TU-1","name":"shell_command","input":{"command":"ls"}}],"stop_reason":"tool_use"},"parent_tool_use_id":null,"session_id":"T-1"}`
	res := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"TU-1","content":"{\"output\":\"a\\n\",\"exitCode\":0}","is_error":false}]},"parent_tool_use_id":null,"session_id":"T-1"}`
	in := []string{initLine, echoLine, think("first"), think("second"), act, res, think("done"), okResult}
	out := run(t, amp.FormatStreamJSON, lines(in...), nil)
	shapeOK(t, out)
	var msgs []universal.Item
	var callParent string
	for _, it := range golden.NewTranscript(out).Items {
		switch {
		case it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant:
			msgs = append(msgs, it)
		case it.Kind == universal.KindToolCall:
			callParent = it.ParentID
		}
	}
	if len(msgs) != 2 {
		t.Fatalf("%d assistant messages, want 2", len(msgs))
	}
	var types []string
	for _, p := range msgs[0].Content {
		types = append(types, string(p.Type)+":"+p.Text)
	}
	if strings.Join(types, ",") != "reasoning:first,reasoning:second,text:Running it." || msgs[0].Status != universal.StatusCompleted ||
		msgs[0].Content[0].Signature != "sig" {
		t.Errorf("first response %v (%s)", types, msgs[0].Status)
	}
	if callParent != msgs[0].ItemID {
		t.Errorf("call under %q, want %q", callParent, msgs[0].ItemID)
	}
	if len(msgs[1].Content) != 1 || msgs[1].Content[0].Text != "done" || msgs[1].Status != universal.StatusCompleted {
		t.Errorf("last response %+v", msgs[1])
	}
	harness(t, amp.FormatStreamJSON, strings.Join(in, "\n")+"\n")
}

// TestResultOfUnknownCall: a result whose call the translator never saw
// (a stream picked up mid-turn) is under the last response's message.
func TestResultOfUnknownCall(t *testing.T) {
	res := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"TU-gone","content":"ok","is_error":false}]},"parent_tool_use_id":null,"session_id":"T-1"}`
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answerLine, res), nil)
	shapeOK(t, out)
	var msg, parent string
	for _, it := range golden.NewTranscript(out).Items {
		switch it.Kind {
		case universal.KindMessage:
			if it.Role == universal.RoleAssistant {
				msg = it.ItemID
			}
		case universal.KindToolResult:
			parent = it.ParentID
		}
	}
	if msg == "" || parent != msg {
		t.Errorf("result under %q, want the message %q", parent, msg)
	}
}

// TestToolImage: an image a tool returns is an image part with the path
// the call names and no data.
func TestToolImage(t *testing.T) {
	user := `{"role":"user","messageId":0,"content":[{"type":"text","text":"look"}]}`
	call := `{"role":"assistant","messageId":1,"content":[{"type":"tool_use","complete":true,"id":"toolu_1","name":"Read","input":{"path":"shot.png"}}],"state":{"type":"complete","stopReason":"tool_use"}}`
	res := `{"role":"user","messageId":2,"content":[{"type":"tool_result","toolUseID":"toolu_1","run":{"status":"done","result":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}}}]}`
	answer := `{"role":"assistant","messageId":3,"content":[{"type":"text","text":"a cat"}],"state":{"type":"complete","stopReason":"end_turn"}}`
	doc := `{"v":220,"id":"T-9","env":{"initial":{"trees":[{"uri":"file:///w"}]}},"messages":[` + strings.Join([]string{user, call, res, answer}, ",") + `]}`
	out := run(t, amp.FormatThread, lines(doc), nil)
	shapeOK(t, out)
	var img *universal.Part
	for _, it := range golden.NewTranscript(out).Items {
		if it.Kind != universal.KindToolResult {
			continue
		}
		if it.Content[0].Type != universal.PartToolResult {
			t.Errorf("first part %s", it.Content[0].Type)
		}
		for i := range it.Content {
			if it.Content[i].Type == universal.PartImage {
				img = &it.Content[i]
			}
		}
	}
	if img == nil || img.Path != "/w/shot.png" || img.Mime != "image/png" {
		t.Errorf("image part %+v", img)
	}
}

// TestInfoNotice: a thread info message made only of blocks this package
// does not know is a status item, not a system item holding JSON.
func TestInfoNotice(t *testing.T) {
	doc := `{"v":220,"id":"T-9","messages":[{"role":"info","messageId":0,"content":[{"type":"future_notice","data":{"x":1}}]}]}`
	out := run(t, amp.FormatThread, lines(doc), nil)
	shapeOK(t, out)
	items := golden.NewTranscript(out).Items
	if len(items) != 1 || items[0].Kind != universal.KindStatus || items[0].Content[0].Label != "future_notice" ||
		len(items[0].Content) != 2 || items[0].Content[1].Type != universal.PartJSON {
		t.Errorf("items %+v", items)
	}
}

// TestRuleRejected: a call a permission rule refused in execute mode
// ("Tool rejected by plugin: …", which Amp sends with is_error false) is
// denied by policy and its result fails.
func TestRuleRejected(t *testing.T) {
	call := `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"TU-rm","name":"shell_command","input":{"command":"rm -rf build"}}],"stop_reason":"tool_use"},"parent_tool_use_id":null,"session_id":"T-1"}`
	res := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"TU-rm","content":"Tool rejected by plugin: Matches user permissions rule 0: ask shell_command --command 'rm *'","is_error":false}]},"parent_tool_use_id":null,"session_id":"T-1"}`
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, call, res, answerLine, okResult), nil)
	shapeOK(t, out)
	perms := golden.OfType(out, universal.TypePermissionResolved)
	if len(perms) != 1 {
		t.Fatalf("%d permission resolutions", len(perms))
	}
	if p := perms[0].Data.(*universal.Permission); p.Status != universal.PermissionDenied || p.CallID != "TU-rm" ||
		!strings.Contains(string(p.Metadata), `"source":"policy"`) {
		t.Errorf("permission %+v (%s)", p, p.Metadata)
	}
	for _, it := range golden.NewTranscript(out).Items {
		if it.Kind == universal.KindToolResult && (it.Status != universal.StatusFailed || !it.Content[0].IsError) {
			t.Errorf("result %+v", it)
		}
	}
	if d := ended(t, out); d.Reason != universal.EndCompleted {
		t.Errorf("session ended %+v", d)
	}
}

// TestRuleRejectedThread: a thread records a call a permission rule refused
// as a done run whose result is Amp's rejection text; it reads as the
// stream-json result does: one denial by policy linked to the call, then
// the failed result marked rejected_by_rule, and the turn goes on.
func TestRuleRejectedThread(t *testing.T) {
	const reason = "Tool rejected by plugin: Matches user permissions rule 0: ask shell_command --command 'rm *'"
	user := `{"role":"user","messageId":0,"content":[{"type":"text","text":"remove the build folder"}]}`
	call := `{"role":"assistant","messageId":1,"content":[{"type":"tool_use","complete":true,"id":"TU-rm","name":"shell_command","input":{"command":"rm -rf build"}}],"state":{"type":"complete","stopReason":"tool_use"}}`
	res := `{"role":"user","messageId":2,"content":[{"type":"tool_result","toolUseID":"TU-rm","run":{"status":"done","result":"` + reason + `"}}]}`
	answer := `{"role":"assistant","messageId":3,"content":[{"type":"text","text":"Done."}],"state":{"type":"complete","stopReason":"end_turn"}}`
	doc := `{"v":220,"id":"T-9","messages":[` + strings.Join([]string{user, call, res, answer}, ",") + `]}`
	out := run(t, amp.FormatThread, lines(doc), nil)
	shapeOK(t, out)
	harness(t, amp.FormatThread, doc)
	req, res2 := golden.OfType(out, universal.TypePermissionRequested), golden.OfType(out, universal.TypePermissionResolved)
	if len(req) != 1 || len(res2) != 1 {
		t.Fatalf("%d permission requests, %d resolutions", len(req), len(res2))
	}
	p := res2[0].Data.(*universal.Permission)
	var md struct{ Source, Reason string }
	_ = json.Unmarshal(p.Metadata, &md)
	if p.Status != universal.PermissionDenied || p.CallID != "TU-rm" || p.ItemID == "" || p.Action != "shell_command" ||
		md.Source != "policy" || md.Reason != reason {
		t.Errorf("permission %+v (%s)", p, p.Metadata)
	}
	var results int
	for _, it := range golden.NewTranscript(out).Items {
		if it.Kind != universal.KindToolResult {
			continue
		}
		results++
		if it.Status != universal.StatusFailed || !it.Content[0].IsError || it.Content[0].Output != reason ||
			!strings.Contains(string(it.Content[0].Metadata), `"rejected_by_rule":true`) {
			t.Errorf("result %+v", it)
		}
	}
	if results != 1 {
		t.Errorf("%d results", results)
	}
	if te := golden.OfType(out, universal.TypeTurnEnded); len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("turn ends %+v", te)
	}
}

// TestThreadOpenAIAnnotations: an Amp 0.0.1785170481 thread run on an
// OpenAI model (thread schema v 73, `amp threads export` of
// empathic/toolpath test-fixtures/amp/convo.json at commit a273b87,
// https://github.com/empathic/toolpath/blob/a273b872bb1b4f97aca7abdd1a7065cb2092fc1e/test-fixtures/amp/convo.json;
// shapes quoted, signatures shortened) annotates what the model produced:
// an assistant message's meta.openAIResponsePhase ("commentary",
// "final_answer"), a thinking block's provider and openAIReasoning (the
// Responses API reasoning item's id; its encryptedContent is the block's
// signature), a tool_use block's providerToolUseId (OpenAI's call_… id
// beside Amp's TU-… id). Each was dropped; now the phase is on the text
// part as Codex keeps it, the reasoning item on the reasoning part, the
// provider's call id on the tool_call part; the thread's activatedSkills
// (the skills it loaded) are in session.started's metadata.
func TestThreadOpenAIAnnotations(t *testing.T) {
	user := `{"meta":{"sentAt":1785177255723},"role":"user","readAt":null,"content":[{"text":"List the files.","type":"text"}],"messageId":1,"userState":{"timeZone":"America/New_York","currentlyVisibleFiles":[]},"protocolMessageID":"M-033wt7sbSDccKHLOPDTqjB","protocolMessageVersion":0}`
	call := `{"meta":{"openAIResponsePhase":"commentary"},"role":"assistant","state":{"type":"complete","stopReason":"tool_use"},"usage":{"model":"gpt-5.6-sol","timestamp":"2026-07-27T18:34:24.672Z","inputTokens":0,"outputTokens":142,"maxInputTokens":272000,"totalInputTokens":18097,"cacheReadInputTokens":16951,"cacheCreationInputTokens":1146},"readAt":null,"content":[` +
		`{"type":"thinking","provider":"openai","thinking":"**Considering tool usage**","finalTime":1785177264194,"signature":"gAAAAABqZ6Sw","startTime":1785177263017,"blockState":"complete","openAIReasoning":{"id":"rs_0ad2fa81c44295c9016a67a4aeff0c8194ba620a0723101c76","encryptedContent":"gAAAAABqZ6Sw"}},` +
		`{"text":"I’ll use ls.","type":"text","finalTime":1785177264277,"startTime":1785177264198,"blockState":"complete"},` +
		`{"id":"TU-033wt8676K5StumvhRV8kd","name":"shell_command","type":"tool_use","input":{"command":"ls -la","workdir":"/tmp/amp-elicit"},"complete":true,"blockState":"complete","providerToolUseId":"call_kMXdmho5JPlQ3QL3GWSIkeRD"}],"messageId":4,"protocolMessageID":"M-033wt80tl8RwY6SoZ3FtUe","protocolMessageVersion":1}`
	res := `{"role":"user","readAt":null,"content":[{"run":{"result":{"output":"total 0\n","exitCode":0},"status":"done"},"type":"tool_result","toolUseID":"TU-033wt8676K5StumvhRV8kd"}],"messageId":5}`
	answer := `{"meta":{"openAIResponsePhase":"final_answer"},"role":"assistant","state":{"type":"complete","stopReason":"end_turn"},"content":[{"type":"thinking","provider":"openai","thinking":"","signature":"gAAAAABqZ6Tn","openAIReasoning":{"id":"rs_2","encryptedContent":"other"}},{"text":"Empty.","type":"text"}],"messageId":6}`
	doc := `{"v":73,"id":"T-019fa4db-29cf-70c9-8d9b-81524df70e52","meta":{"agentMode":"medium"},"messages":[` + strings.Join([]string{user, call, res, answer}, ",") + `],"agentMode":"medium","activatedSkills":[{"name":"using-superpowers"}]}`
	out := run(t, amp.FormatThread, lines(doc), nil)
	shapeOK(t, out)
	harness(t, amp.FormatThread, doc)
	var got []string
	for _, it := range golden.NewTranscript(out).Items {
		for _, p := range it.Content {
			if len(p.Metadata) > 0 && p.Type != universal.PartToolResult {
				got = append(got, string(p.Type)+" "+string(p.Metadata))
			}
		}
	}
	want := []string{
		`reasoning {"provider":"openai","openai_reasoning":{"id":"rs_0ad2fa81c44295c9016a67a4aeff0c8194ba620a0723101c76"}}`,
		`text {"phase":"commentary"}`,
		`tool_call {"provider_tool_use_id":"call_kMXdmho5JPlQ3QL3GWSIkeRD"}`,
		`reasoning {"provider":"openai","openai_reasoning":{"id":"rs_2","encrypted_content":"other"}}`,
		`text {"phase":"final_answer"}`,
	}
	if st := golden.OfType(out, universal.TypeSessionStarted); len(st) != 1 ||
		!strings.Contains(string(st[0].AppendJSON(nil)), `"activated_skills":[{"name":"using-superpowers"}]`) {
		t.Errorf("session.started %v, want the thread's activatedSkills", st)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("part metadata:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
