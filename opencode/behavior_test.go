package opencode_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// run translates input in a format and checks that the stream is
// well-formed.
func run(t *testing.T, format, input string, reports ...universal.Report) []universal.Event {
	t.Helper()
	tr, err := opencode.New(format, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	return runWith(t, tr, format, input, reports...)
}

func runWith(t *testing.T, tr *opencode.Translator, format, input string, reports ...universal.Report) []universal.Event {
	t.Helper()
	var out []universal.Event
	for _, r := range reports {
		out = tr.Report(out, r)
	}
	for m, err := range universal.Messages(universal.NewReader(strings.NewReader(input), framing(format), 0)) {
		if err != nil {
			t.Fatal(err)
		}
		out = tr.Translate(out, m)
	}
	out = tr.Report(out, universal.EndOfInput{})
	if err := universal.CheckStream(out); err != nil {
		t.Fatalf("stream checker: %v\n%s", err, golden.Encode(out))
	}
	return out
}

// sse frames JSON events as an event stream.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: ")
		b.WriteString(e)
		b.WriteString("\n\n")
	}
	return b.String()
}

func deltas(events []universal.Event, item string) string {
	var b strings.Builder
	for _, e := range golden.OfType(events, universal.TypeItemDelta) {
		if d := e.Data.(*universal.ItemDelta); d.ItemID == item {
			b.WriteString(d.Delta)
		}
	}
	return b.String()
}

func completed(events []universal.Event) []universal.Item {
	var out []universal.Item
	for _, e := range golden.OfType(events, universal.TypeItemCompleted) {
		out = append(out, e.Data.(*universal.ItemSnapshot).Item)
	}
	return out
}

func noUnparsed(t *testing.T, events []universal.Event) {
	t.Helper()
	for _, e := range golden.OfType(events, universal.TypeUnparsed) {
		u := e.Data.(*universal.Unparsed)
		t.Errorf("agent.unparsed: %s (%s)", u.Error, u.Location)
	}
}

// onlyItem returns the one item a run completed, checking it reported no
// agent.unparsed.
func onlyItem(t *testing.T, events []universal.Event) universal.Item {
	t.Helper()
	noUnparsed(t, events)
	items := completed(events)
	if len(items) != 1 {
		t.Fatalf("%d items, want 1", len(items))
	}
	return items[0]
}

// partList lists an item's parts as type:text (with path and label).
func partList(it universal.Item) string {
	var got []string
	for _, p := range it.Content {
		got = append(got, string(p.Type)+":"+p.Text+p.Path+p.Label)
	}
	return strings.Join(got, " ")
}

// deltasAddressParts checks that every delta addresses a part of the
// completed item of its type whose text starts with it.
func deltasAddressParts(t *testing.T, events []universal.Event, it universal.Item) {
	t.Helper()
	for _, e := range golden.OfType(events, universal.TypeItemDelta) {
		d := e.Data.(*universal.ItemDelta)
		if p := it.Content[d.PartIndex]; p.Type != d.PartType || !strings.HasPrefix(p.Text, d.Delta) {
			t.Errorf("delta %q addresses part %d (%s %q)", d.Delta, d.PartIndex, p.Type, p.Text)
		}
	}
}

const ses = "ses_a"

func msgUpdated(id, role string, completed bool) string {
	tm := `{"created":1}`
	if completed {
		tm = `{"created":1,"completed":2}`
	}
	return fmt.Sprintf(`{"type":"message.updated","properties":{"info":{"id":%q,"sessionID":%q,"role":%q,"time":%s}}}`, id, ses, role, tm)
}

func textPart(msg, id, typ, text, delta string, end bool) string {
	tm := `{"start":1}`
	if end {
		tm = `{"start":1,"end":2}`
	}
	d := ""
	if delta != "" {
		d = fmt.Sprintf(`,"delta":%q`, delta)
	}
	return fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":%q,"messageID":%q,"sessionID":%q,"type":%q,"text":%q,"time":%s}%s}}`,
		id, msg, ses, typ, text, tm, d)
}

// TestSnapshotsNeverEmitTextTwice: ≤1.1 snapshots with delta fields, a
// repeated snapshot, and a final trimmed snapshot.
func TestSnapshotsNeverEmitTextTwice(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		msgUpdated("msg_u", "user", false),
		textPart("msg_u", "prt_u", "text", "Hi", "", false),
		msgUpdated("msg_a", "assistant", false),
		textPart("msg_a", "prt_1", "text", "Hel", "Hel", false),
		textPart("msg_a", "prt_1", "text", "Hello wor", "lo wor", false),
		textPart("msg_a", "prt_1", "text", "Hello wor", "", false), // repeated snapshot
		textPart("msg_a", "prt_1", "text", "Hello world \n", "ld \n", false),
		textPart("msg_a", "prt_1", "text", "Hello world", "", true), // trimEnd-ed final
		msgUpdated("msg_a", "assistant", true),
		msgUpdated("msg_a", "assistant", true), // duplicate completion
	))
	noUnparsed(t, events)
	items := completed(events)
	if len(items) != 2 {
		t.Fatalf("%d completed items, want 2 (user, assistant)", len(items))
	}
	a := items[1]
	if got := deltas(events, a.ItemID); got != "Hello world \n" {
		t.Errorf("streamed %q, want %q", got, "Hello world \n")
	}
	if p := a.Content[0]; p.Text != "Hello world" || !p.Rewritten {
		t.Errorf("final part %+v, want the trimmed text marked rewritten", p)
	}
}

// TestSnapshotWinsOverDelta: a client that dropped events hands a delta
// that does not match the snapshot; the snapshot's new text is emitted.
func TestSnapshotWinsOverDelta(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		msgUpdated("msg_a", "assistant", false),
		textPart("msg_a", "prt_1", "text", "Thank you", " you", false),
		textPart("msg_a", "prt_1", "text", "Thank you!", "!", true),
		msgUpdated("msg_a", "assistant", true),
	))
	noUnparsed(t, events)
	it := completed(events)[0]
	if got := deltas(events, it.ItemID); got != "Thank you!" {
		t.Errorf("streamed %q, want %q", got, "Thank you!")
	}
	if it.Content[0].Rewritten {
		t.Error("part marked rewritten, but the final text is what streamed")
	}
}

// TestDeltaBeforePartAndMessage: a 1.2 delta arrives before its part and
// its message: a stub item starts (daemon, role unknown), the delta waits
// for the part's type (reasoning, although field says "text"), the message
// fills in the role.
func TestDeltaBeforePartAndMessage(t *testing.T) {
	delta := func(text string) string {
		return fmt.Sprintf(`{"type":"message.part.delta","properties":{"sessionID":%q,"messageID":"msg_a","partID":"prt_r","field":"text","delta":%q}}`, ses, text)
	}
	events := run(t, opencode.FormatSSE, sse(
		delta("Think"),
		textPart("msg_a", "prt_r", "reasoning", "", "", false),
		delta("ing."),
		msgUpdated("msg_a", "assistant", false),
		textPart("msg_a", "prt_r", "reasoning", "Thinking.", "", true),
		msgUpdated("msg_a", "assistant", true),
	))
	noUnparsed(t, events)
	started := golden.OfType(events, universal.TypeItemStarted)[0]
	if it := started.Data.(*universal.ItemSnapshot).Item; started.Source != universal.SourceDaemon || it.Role != "" {
		t.Errorf("first item.started: source %s role %q, want a daemon stub without role", started.Source, it.Role)
	}
	for _, e := range golden.OfType(events, universal.TypeItemDelta) {
		if d := e.Data.(*universal.ItemDelta); d.PartType != universal.PartReasoning {
			t.Errorf("delta %q has part type %s, want reasoning", d.Delta, d.PartType)
		}
	}
	it := completed(events)[0]
	if it.Role != universal.RoleAssistant || len(it.Content) != 1 || it.Content[0].Type != universal.PartReasoning || it.Content[0].Text != "Thinking." {
		t.Errorf("completed item %+v", it)
	}
}

// TestSyncWrappersAlone: /global/event without the classic copies of the
// events that also come as sync wrappers translates like /event.
func TestSyncWrappersAlone(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(recorded, s+".global.sse"))
			if err != nil {
				t.Fatal(err)
			}
			wrapped := map[string]bool{}
			var frames []string
			for m, err := range universal.Messages(universal.NewSSEReader(bytes.NewReader(b), 0)) {
				if err != nil {
					t.Fatal(err)
				}
				frames = append(frames, string(m.Data))
				if se := gjson.GetBytes(m.Data, "payload.syncEvent"); se.Exists() {
					wrapped[se.Get("id").Str] = true
				}
			}
			var kept []string
			for _, f := range frames {
				if p := gjson.Get(f, "payload"); p.Get("type").Str != "sync" && wrapped[p.Get("id").Str] {
					continue
				}
				kept = append(kept, f)
			}
			if len(kept) == len(frames) {
				t.Fatal("no classic event dropped")
			}
			want, err := os.ReadFile(filepath.Join(recorded, s+".golden.ndjson"))
			if err != nil {
				t.Fatal(err)
			}
			got := golden.Encode(run(t, opencode.FormatSSE, sse(kept...)))
			if !bytes.Equal(got, want) {
				t.Errorf("sync wrappers alone translate differently from /event:\n%s", got)
			}
		})
	}
}

// TestEventArraysAsSSE: the events format and the same events as an event
// stream translate alike (the arrays' recorder markers aside).
func TestEventArraysAsSSE(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(public, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if opencode.Detect(b) != opencode.FormatEvents {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			var frames []string
			gjson.ParseBytes(b).ForEach(func(_, e gjson.Result) bool {
				if !strings.HasPrefix(e.Get("type").Str, "custom.") {
					// SSE data is one line: compact the pretty-printed event.
					var c bytes.Buffer
					if err := json.Compact(&c, []byte(e.Raw)); err != nil {
						t.Fatal(err)
					}
					frames = append(frames, c.String())
				}
				return true
			})
			a := golden.Encode(run(t, opencode.FormatEvents, string(b)))
			s := golden.Encode(run(t, opencode.FormatSSE, sse(frames...)))
			if !bytes.Equal(a, s) {
				t.Errorf("events and sse differ:\n%s\n---\n%s", a, s)
			}
		})
	}
	if n < 10 {
		t.Errorf("only %d event arrays detected", n)
	}
}

// TestRecordedPromptsOnce: every prompt the host sent appears as exactly
// one user message of the followed session, in every format; by the echo
// convention, its text is marked echo on the event streams (sse, events)
// only, and a sub-agent's prompt never is.
func TestRecordedPromptsOnce(t *testing.T) {
	for _, c := range captures(t) {
		b, err := os.ReadFile(filepath.Join(recorded, c.file))
		if err != nil {
			t.Fatal(err)
		}
		// The durable event log is a record, as a message list is.
		live := (c.format == opencode.FormatSSE || c.format == opencode.FormatEvents) && !strings.Contains(c.file, ".eventlog")
		var users []string
		for _, it := range golden.NewTranscript(run(t, c.format, string(b), c.reports...)).Items {
			if it.Role != universal.RoleUser || it.Kind != universal.KindMessage {
				continue
			}
			root := it.ParentID == ""
			for _, p := range it.Content {
				if echo := strings.Contains(string(p.Metadata), `"echo":true`); p.Type == universal.PartText && echo != (live && root) {
					t.Errorf("%s: user message %s (root %v): echo %v", c.file, it.ItemID, root, echo)
				}
			}
			if root {
				users = append(users, golden.TextOf(&it))
			}
		}
		if strings.Join(users, "\x00") != strings.Join(c.prompts, "\x00") {
			t.Errorf("%s: user messages %q, want the prompts %q", c.file, users, c.prompts)
		}
	}
}

// TestFollow: naming a session translates only it; the default is the
// first root session with activity.
func TestFollow(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(recorded, "s10-subagent.sse"))
	if err != nil {
		t.Fatal(err)
	}
	var child string
	for m := range universal.Messages(universal.NewSSEReader(bytes.NewReader(b), 0)) {
		if gjson.GetBytes(m.Data, "type").Str == "session.created" {
			if p := gjson.GetBytes(m.Data, "properties.info.parentID"); p.Exists() {
				child = gjson.GetBytes(m.Data, "properties.info.id").Str
			}
		}
	}
	tr, err := opencode.New(opencode.FormatSSE, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	tr.Follow(child)
	events := runWith(t, tr, opencode.FormatSSE, string(b))
	noUnparsed(t, events)
	var texts []string
	for _, it := range golden.NewTranscript(events).Items {
		if it.Kind == universal.KindMessage {
			texts = append(texts, string(it.Role)+": "+golden.TextOf(&it))
		}
	}
	want := []string{
		"user: [[SUBAGENT-TASK]] Count the files in the current directory with ls and report the number.",
		"assistant: ", "assistant: There are 3 files.",
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages of the followed sub-agent session:\n%s\nwant:\n%s", strings.Join(texts, "\n"), strings.Join(want, "\n"))
	}
	if n := len(golden.OfType(events, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1", n)
	}

	// Two root sessions: the first with activity wins, whatever the
	// order of their creation and of a stale title update.
	other := strings.ReplaceAll(msgUpdated("msg_b", "user", false), ses, "ses_b")
	events = run(t, opencode.FormatSSE, sse(
		`{"type":"session.updated","properties":{"info":{"id":"ses_b","title":"old"}}}`,
		msgUpdated("msg_u", "user", false),
		other,
		strings.ReplaceAll(textPart("msg_b", "prt_b", "text", "other", "", false), ses, "ses_b"),
		textPart("msg_u", "prt_u", "text", "mine", "", false),
	))
	noUnparsed(t, events)
	for _, it := range completed(events) {
		if it.NativeItemID == "msg_b" {
			t.Error("a message of another session was translated")
		}
	}
	if got := events[0].NativeSessionID; got != ses {
		t.Errorf("native session %q, want %q", got, ses)
	}
}

// TestIgnoredAndUnknown: the ignore list emits nothing; anything unknown
// or malformed becomes agent.unparsed with its location.
func TestIgnoredAndUnknown(t *testing.T) {
	var frames []string
	for _, typ := range []string{
		"server.connected", "server.heartbeat", "server.instance.disposed", "global.disposed", "plugin.added",
		"catalog.updated", "reference.updated", "models-dev.refreshed", "command.executed", "session.diff",
		"session.compacted", "installation.updated", "installation.update-available", "lsp.updated",
		"lsp.client.diagnostics", "file.edited", "file.watcher.updated", "pty.created", "pty.exited",
		"tui.toast.show", "tui.prompt.append", "mcp.tools.changed", "project.updated", "workspace.ready",
		"worktree.ready", "integration.updated", "vcs.branch.updated", "session.next.text.delta",
	} {
		frames = append(frames, fmt.Sprintf(`{"type":%q,"properties":{"sessionID":%q}}`, typ, ses))
	}
	events := run(t, opencode.FormatSSE, sse(frames...))
	if len(events) != 2 {
		t.Errorf("ignored events gave %d events, want session.started and session.ended only:\n%s", len(events), golden.Encode(events))
	}

	for _, c := range []struct{ format, input, loc string }{
		{opencode.FormatSSE, sse(`{"type":"brand.new","properties":{}}`), "opencode: line 1: brand.new"},
		{opencode.FormatSSE, "data: {\"type\":\n\ndata: {}\n\n", "opencode: line 1"},
		{opencode.FormatSSE, sse(`{"properties":{}}`), "opencode: line 1"},
		{opencode.FormatSSE, sse(`{"type":"session.status","properties":{"sessionID":"ses_a","status":{"type":"thinking"}}}`), "opencode: line 1: session.status"},
		{opencode.FormatSSE, sse(msgUpdated("msg_a", "assistant", false), `{"type":"message.part.updated","properties":{"part":{"id":"prt_t","messageID":"msg_a","sessionID":"ses_a","type":"tool","state":{"status":"paused"}}}}`), "opencode: line 3: message.part.updated"},
		{opencode.FormatRunJSON, "not json\n", "opencode: line 1"},
		{opencode.FormatRunJSON, `{"type":"step_middle","sessionID":"ses_a"}` + "\n", "opencode: line 1: step_middle"},
		{opencode.FormatEvents, `[{"type":"server.connected","properties":{}},{"type":"mystery"}]`, "opencode: line 1, event 1: mystery"},
		{opencode.FormatMessages, `{"oops":1}`, "opencode: line 1"},
	} {
		events := run(t, c.format, c.input)
		un := golden.OfType(events, universal.TypeUnparsed)
		if len(un) == 0 {
			t.Errorf("%s %q: no agent.unparsed", c.format, c.input)
			continue
		}
		if loc := un[0].Data.(*universal.Unparsed).Location; loc != c.loc {
			t.Errorf("%s %q: location %q, want %q", c.format, c.input, loc, c.loc)
		}
	}
}

// toolPart is a tool part update.
func toolPart(status, input, extra string) string {
	return fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":"prt_t","messageID":"msg_a","sessionID":%q,"type":"tool","tool":"bash","callID":"call_1","state":{"status":%q,"input":%s%s}}}}`,
		ses, status, input, extra)
}

// TestPermissionGenerations: the three request shapes and their replies
// link to the tool_call item; a reply the host reported is not repeated.
func TestPermissionGenerations(t *testing.T) {
	head := []string{msgUpdated("msg_a", "assistant", false), toolPart("pending", "{}", ""), toolPart("running", `{"command":"ls"}`, "")}
	cases := []struct {
		name, ask, reply string
		status           universal.PermissionStatus
		action           string
	}{
		{"legacy", `{"type":"permission.updated","properties":{"id":"per_1","type":"bash","pattern":["ls"],"sessionID":"ses_a","messageID":"msg_a","callID":"call_1","title":"ls","metadata":{},"time":{"created":1}}}`,
			`{"type":"permission.replied","properties":{"sessionID":"ses_a","permissionID":"per_1","response":"reject"}}`, universal.PermissionDenied, "bash"},
		{"asked", `{"type":"permission.asked","properties":{"id":"per_1","sessionID":"ses_a","permission":"bash","patterns":["ls"],"metadata":{},"always":["ls *"],"tool":{"messageID":"msg_a","callID":"call_1"}}}`,
			`{"type":"permission.replied","properties":{"sessionID":"ses_a","requestID":"per_1","reply":"once"}}`, universal.PermissionApproved, "bash"},
		{"v2", `{"type":"permission.v2.asked","properties":{"id":"per_1","sessionID":"ses_a","action":"shell","resources":["ls"],"source":{"type":"tool","messageID":"msg_a","callID":"call_1"}}}`,
			`{"type":"permission.v2.replied","properties":{"sessionID":"ses_a","requestID":"per_1","reply":"always"}}`, universal.PermissionApproved, "shell"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			events := run(t, opencode.FormatSSE, sse(append(head, c.ask, c.ask, c.reply, c.reply)...))
			noUnparsed(t, events)
			call := golden.OfType(events, universal.TypeItemStarted)[1].Data.(*universal.ItemSnapshot).Item.ItemID
			req, res := golden.OfType(events, universal.TypePermissionRequested), golden.OfType(events, universal.TypePermissionResolved)
			if len(req) != 1 || len(res) != 1 {
				t.Fatalf("%d requested, %d resolved, want one each", len(req), len(res))
			}
			for _, e := range append(req, res...) {
				if p := e.Data.(*universal.Permission); p.ItemID != call || p.CallID != "call_1" || p.Action != c.action {
					t.Errorf("%s: %+v, want item %s, call_1, action %s", e.Type, p, call, c.action)
				}
			}
			if p := res[0].Data.(*universal.Permission); p.Status != c.status {
				t.Errorf("resolved %s, want %s", p.Status, c.status)
			}
		})
	}

	// The host reports its answer before the server echoes it.
	tr, err := opencode.New(opencode.FormatSSE, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	for m := range universal.Messages(universal.NewSSEReader(strings.NewReader(sse(append(head, cases[1].ask)...)), 0)) {
		out = tr.Translate(out, m)
	}
	out = tr.Report(out, universal.PermissionReply{PermissionID: "per_1", Approved: false, Decision: "reject"})
	for m := range universal.Messages(universal.NewSSEReader(strings.NewReader(sse(cases[1].reply)), 0)) {
		out = tr.Translate(out, m)
	}
	out = tr.Report(out, universal.EndOfInput{})
	if err := universal.CheckStream(out); err != nil {
		t.Fatal(err)
	}
	res := golden.OfType(out, universal.TypePermissionResolved)
	if len(res) != 1 || res[0].Source != universal.SourceDaemon || res[0].Data.(*universal.Permission).Status != universal.PermissionDenied {
		t.Errorf("resolutions: %s", golden.Encode(res))
	}
}

// TestQuestions: every question kept, answers joined, rejection.
func TestQuestions(t *testing.T) {
	ask := `{"type":"question.asked","properties":{"id":"que_1","sessionID":"ses_a","questions":[` +
		`{"question":"Colour?","header":"c","options":[{"label":"Red","description":"r"},{"label":"Blue","description":"b"}]},` +
		`{"question":"Size?","header":"s","options":[{"label":"S","description":""}],"multiple":true}],"tool":{"messageID":"msg_a","callID":"call_1"}}}`
	for _, c := range []struct {
		reply, response string
		status          universal.QuestionStatus
	}{
		{`{"type":"question.replied","properties":{"sessionID":"ses_a","requestID":"que_1","answers":[["Red"],["S","custom"]]}}`, "Red; S, custom", universal.QuestionAnswered},
		{`{"type":"question.rejected","properties":{"sessionID":"ses_a","requestID":"que_1"}}`, "", universal.QuestionRejected},
	} {
		events := run(t, opencode.FormatSSE, sse(msgUpdated("msg_a", "assistant", false), toolPart("pending", "{}", ""), ask, c.reply, c.reply))
		noUnparsed(t, events)
		req, res := golden.OfType(events, universal.TypeQuestionRequested), golden.OfType(events, universal.TypeQuestionResolved)
		if len(req) != 1 || len(res) != 1 {
			t.Fatalf("%d asked, %d resolved", len(req), len(res))
		}
		q := req[0].Data.(*universal.Question)
		if q.Prompt != "Colour?\nSize?" || strings.Join(q.Options, ",") != "Red,Blue,S" || !gjson.GetBytes(q.Metadata, "questions.1.multiple").Bool() || q.ItemID == "" {
			t.Errorf("question.requested %+v", q)
		}
		if r := res[0].Data.(*universal.Question); r.Response != c.response || r.Status != c.status || r.Prompt != q.Prompt {
			t.Errorf("question.resolved %+v, want response %q status %s", r, c.response, c.status)
		}
	}
}

// TestTodoAndAPIEnvelope: todo.updated becomes a status item; the
// /api/event envelope ({id, type, data}) is read like the classic one.
func TestTodoAndAPIEnvelope(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		`{"id":"evt_1","type":"message.updated","data":{"info":{"id":"msg_u","sessionID":"ses_a","role":"user","time":{"created":1}}},"durable":{"aggregateID":"ses_a","seq":1,"version":1}}`,
		`{"id":"evt_2","type":"todo.updated","data":{"sessionID":"ses_a","todos":[{"content":"write","status":"completed","priority":"high"},{"content":"test","status":"in_progress","priority":"high"},{"content":"ship","status":"pending","priority":"low"}]}}`,
		`{"id":"evt_2","type":"todo.updated","data":{"sessionID":"ses_a","todos":[]}}`, // same id: a repeat
	))
	noUnparsed(t, events)
	var todo *universal.Item
	for _, it := range completed(events) {
		if it.Kind == universal.KindStatus {
			todo = &it
		}
	}
	if todo == nil {
		t.Fatal("no status item")
	}
	if p := todo.Content[0]; p.Label != "plan" || p.Detail != "[x] write\n[~] test\n[ ] ship" || gjson.GetBytes(p.Metadata, "todos.#").Int() != 3 {
		t.Errorf("todo part %+v", p)
	}
	if n := len(golden.OfType(events, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1 (the user message)", n)
	}
}

// TestUsageInclusion: OpenCode's output excludes reasoning when total
// says so; the universal output includes it.
func TestUsageInclusion(t *testing.T) {
	finish := func(tokens string) string {
		return fmt.Sprintf(`{"type":"step_finish","sessionID":"ses_a","part":{"id":"prt_f","messageID":"msg_a","sessionID":"ses_a","type":"step-finish","reason":"stop","cost":0.5,"tokens":%s}}`, tokens) + "\n"
	}
	for _, c := range []struct {
		tokens                        string
		input, cached, output, reason int64
		total                         int64
	}{
		{`{"total":1234,"input":1000,"output":16,"reasoning":8,"cache":{"read":200,"write":10}}`, 1210, 200, 24, 8, 1234},
		{`{"total":1226,"input":1000,"output":16,"reasoning":8,"cache":{"read":200,"write":10}}`, 1210, 200, 16, 8, 1226},
		{`{"input":1000,"output":16,"reasoning":8,"cache":{"read":200,"write":10}}`, 1210, 200, 16, 8, 1226},
	} {
		events := run(t, opencode.FormatRunJSON, finish(c.tokens))
		u := golden.OfType(events, universal.TypeUsageUpdated)
		if len(u) != 1 {
			t.Fatalf("%d usage events", len(u))
		}
		d := u[0].Data.(*universal.UsageUpdated)
		got := []int64{*d.Usage.InputTokens, *d.Usage.CachedInputTokens, *d.Usage.OutputTokens, *d.Usage.ReasoningTokens, *d.Usage.TotalTokens}
		want := []int64{c.input, c.cached, c.output, c.reason, c.total}
		if fmt.Sprint(got) != fmt.Sprint(want) || d.Scope != universal.ScopeCall || *d.CostUSD != 0.5 {
			t.Errorf("%s: usage %v (scope %s), want %v (call)", c.tokens, got, d.Scope, want)
		}
	}
}

// TestChildMessages: the sub-agent's message list (keyed by session by the
// recorder) replays on its own.
func TestChildMessages(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(recorded, "s10-subagent.child-messages.json"))
	if err != nil {
		t.Fatal(err)
	}
	var byID map[string]json.RawMessage
	if err := json.Unmarshal(b, &byID); err != nil || len(byID) != 1 {
		t.Fatalf("%v, %d sessions", err, len(byID))
	}
	for _, list := range byID {
		events := run(t, opencode.FormatMessages, string(list))
		noUnparsed(t, events)
		if p := (&golden.Expect{FinalText: ptr("There are 3 files."), Tools: []golden.ExpectTool{{Name: ptr("bash"), OutputContains: ptr("3")}}}).Check(events); len(p) > 0 {
			t.Error(p)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestReconnectNoise: SSE comments, event:/id:/retry: lines, heartbeats, a
// reconnect (server.connected again) and the part snapshots and statuses
// a server re-sends after it (anomalyco/opencode#11424) change nothing.
func TestReconnectNoise(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(recorded, s+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			var frames []string
			for m, err := range universal.Messages(universal.NewSSEReader(bytes.NewReader(b), 0)) {
				if err != nil {
					t.Fatal(err)
				}
				frames = append(frames, string(m.Data))
			}
			var noisy strings.Builder
			resend := 0
			for i, f := range frames {
				fmt.Fprintf(&noisy, ": keep-alive %d\nevent: message\nid: %d\ndata: %s\n\n", i, i, f)
				if i%7 == 3 {
					noisy.WriteString(`data: {"type":"server.heartbeat","properties":{}}` + "\n\nretry: 3000\n\n")
				}
				if i == len(frames)*2/3 {
					noisy.WriteString(`data: {"type":"server.connected","properties":{}}` + "\n\n")
					for _, old := range frames[:i] {
						switch gjson.Get(old, "type").Str {
						case "message.part.updated", "message.updated", "session.updated", "session.status":
							if gjson.Get(old, "properties.status.type").Str == "idle" {
								continue
							}
							// Without its id, as a server re-sending state.
							re := strings.Replace(old, `"id":"`+gjson.Get(old, "id").Str+`",`, "", 1)
							fmt.Fprintf(&noisy, "data: %s\n\n", re)
							resend++
						}
					}
				}
			}
			if resend == 0 {
				t.Fatal("nothing re-sent")
			}
			want, err := os.ReadFile(filepath.Join(recorded, s+".golden.ndjson"))
			if err != nil {
				t.Fatal(err)
			}
			if got := golden.Encode(run(t, opencode.FormatSSE, noisy.String())); !bytes.Equal(got, want) {
				t.Errorf("noise and re-sent state changed the output:\n%s", got)
			}
		})
	}
}

// TestRunLinesOutOfStepOrder: a step's text line printed after the next
// step started still lands in its own message; the turn ends once.
func TestRunLinesOutOfStepOrder(t *testing.T) {
	line := runLine
	input := line("step_start", "msg_1", `{"id":"prt_s1","type":"step-start"}`) +
		line("tool_use", "msg_1", `{"id":"prt_t","type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"ls"},"output":"a\n","title":"ls","metadata":{},"time":{"start":1,"end":2}}}`) +
		line("step_finish", "msg_1", `{"id":"prt_f1","type":"step-finish","reason":"tool-calls","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`) +
		line("step_start", "msg_2", `{"id":"prt_s2","type":"step-start"}`) +
		line("text", "msg_1", `{"id":"prt_x1","type":"text","text":"Listing.","time":{"start":1,"end":3}}`) +
		line("text", "msg_2", `{"id":"prt_x2","type":"text","text":"Done.","time":{"start":4,"end":5}}`) +
		line("step_finish", "msg_2", `{"id":"prt_f2","type":"step-finish","reason":"stop","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`)
	events := run(t, opencode.FormatRunJSON, input, universal.Prompt{Text: "List"})
	noUnparsed(t, events)
	texts := map[string]string{}
	for _, it := range completed(events) {
		if it.Kind == universal.KindMessage {
			texts[it.NativeItemID] = golden.TextOf(&it)
		}
	}
	if texts["msg_1"] != "Listing." || texts["msg_2"] != "Done." || texts[""] != "List" {
		t.Errorf("message texts %q", texts)
	}
	ended := golden.OfType(events, universal.TypeTurnEnded)
	if len(golden.OfType(events, universal.TypeTurnStarted)) != 1 || len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("turns: %s", golden.Encode(ended))
	}
}

// runLine is one line of opencode run --format json of session ses_a:
// its type, the part's message and the part (a JSON object).
func runLine(typ, msg, part string) string {
	return fmt.Sprintf(`{"type":%q,"timestamp":1,"sessionID":"ses_a","part":%s}`, typ,
		strings.Replace(part, "{", fmt.Sprintf(`{"messageID":%q,"sessionID":"ses_a",`, msg), 1)) + "\n"
}

// TestRunLastStepUnfinished: opencode run 1.15 stops printing when the
// session goes idle, before its last step's step_finish line. Two runs of
// one session (--session) one after the other are two turns, the second
// prompt in the second; a step that never finished ends its turn
// completed when the next run starts, and the last one is left to the
// end of the session (interrupted and session_ending without an exit
// status, completed with exit status 0: opencode run exits once idle).
func TestRunLastStepUnfinished(t *testing.T) {
	input := runLine("step_start", "msg_1", `{"id":"prt_s1","type":"step-start"}`) +
		runLine("text", "msg_1", `{"id":"prt_x1","type":"text","text":"Noted.","time":{"start":1,"end":2}}`) +
		runLine("step_start", "msg_3", `{"id":"prt_s3","type":"step-start"}`) +
		runLine("text", "msg_3", `{"id":"prt_x3","type":"text","text":"Teal.","time":{"start":3,"end":4}}`)
	prompts := []universal.Report{universal.Prompt{Text: "Remember teal."}, universal.Prompt{Text: "Which colour?"}}
	for _, c := range []struct {
		end  universal.Report
		last universal.TurnStatus
	}{
		{universal.EndOfInput{}, universal.TurnInterrupted},
		{universal.Exit{Code: 0}, universal.TurnCompleted},
	} {
		tr, err := opencode.New(opencode.FormatRunJSON, golden.Options())
		if err != nil {
			t.Fatal(err)
		}
		var events []universal.Event
		for _, r := range prompts {
			events = tr.Report(events, r)
		}
		for m, err := range universal.Messages(universal.NewReader(strings.NewReader(input), universal.FrameLines, 0)) {
			if err != nil {
				t.Fatal(err)
			}
			events = tr.Translate(events, m)
		}
		events = tr.Report(events, c.end)
		noUnparsed(t, events)
		if err := universal.CheckStream(events); err != nil {
			t.Fatal(err)
		}
		var turns [][]string
		for _, ev := range events {
			switch ev.Type {
			case universal.TypeTurnStarted:
				turns = append(turns, nil)
			case universal.TypeItemCompleted:
				it := ev.Data.(*universal.ItemSnapshot).Item
				turns[len(turns)-1] = append(turns[len(turns)-1], string(it.Role)+":"+golden.TextOf(&it))
			}
		}
		want := [][]string{{"user:Remember teal.", "assistant:Noted."}, {"user:Which colour?", "assistant:Teal."}}
		if fmt.Sprintf("%q", turns) != fmt.Sprintf("%q", want) {
			t.Errorf("%T: turns %q, want %q", c.end, turns, want)
		}
		ended := golden.OfType(events, universal.TypeTurnEnded)
		if len(ended) != 2 || ended[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted ||
			ended[0].Data.(*universal.TurnEnded).SessionEnding() ||
			ended[1].Data.(*universal.TurnEnded).Status != c.last ||
			ended[1].Data.(*universal.TurnEnded).SessionEnding() != (c.last == universal.TurnInterrupted) {
			t.Errorf("%T: turn ends %s", c.end, golden.Encode(ended))
		}
	}
}

// TestRunPermissionRejected: opencode run rejects permission requests
// without printing them; the failed tool's error says so in two ways
// (1.1 to 1.18: "…rejected permission…", 1.2.27: the error's tag). Both
// give the synthetic denied request and end the turn completed with the
// step; another tool error does neither (the turn stays open, and the end
// of the input ends it interrupted).
func TestRunPermissionRejected(t *testing.T) {
	for _, c := range []struct {
		err    string
		denied bool
	}{
		{"The user rejected permission to use this specific tool call.", true},
		{"Error: The user rejected permission to use this specific tool call.", true},
		{`PermissionRejectedError({\"_tag\":\"PermissionRejectedError\"})`, true},
		{"Error: command not found", false},
	} {
		input := runLine("step_start", "msg_1", `{"id":"prt_s1","type":"step-start"}`) +
			runLine("tool_use", "msg_1", `{"id":"prt_t","type":"tool","tool":"bash","callID":"c1","state":{"status":"error","input":{"command":"rm -rf build"},"error":"`+c.err+`","time":{"start":1,"end":2}}}`) +
			runLine("step_finish", "msg_1", `{"id":"prt_f1","type":"step-finish","reason":"tool-calls","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`)
		events := run(t, opencode.FormatRunJSON, input, universal.Prompt{Text: "Delete build."})
		noUnparsed(t, events)
		resolved := golden.OfType(events, universal.TypePermissionResolved)
		ended := golden.OfType(events, universal.TypeTurnEnded)
		if len(ended) != 1 {
			t.Fatalf("%s: %d turn ends", c.err, len(ended))
		}
		status := ended[0].Data.(*universal.TurnEnded).Status
		switch {
		case c.denied && (len(resolved) != 1 || resolved[0].Data.(*universal.Permission).Status != universal.PermissionDenied || resolved[0].Data.(*universal.Permission).CallID != "c1"):
			t.Errorf("%s: permission %s", c.err, golden.Encode(resolved))
		case c.denied && status != universal.TurnCompleted:
			t.Errorf("%s: turn %s", c.err, status)
		case !c.denied && (len(resolved) != 0 || status != universal.TurnInterrupted):
			t.Errorf("%s: permission %s, turn %s", c.err, golden.Encode(resolved), status)
		}
	}
}

// TestDetect names the format of every capture from its first bytes.
func TestDetect(t *testing.T) {
	for pattern, want := range map[string]string{
		"1.18.33/*.sse":                opencode.FormatSSE,
		"1.18.33/*.run.jsonl":          opencode.FormatRunJSON,
		"1.18.33/*.messages.json":      opencode.FormatMessages,
		"public/opencode-nvim-*.json":  opencode.FormatEvents,
		"public/sandbox-agent-*.json":  "",
		"public/takopi-*.jsonl":        opencode.FormatRunJSON,
		"public/t3code-*.jsonl":        opencode.FormatEventLines,
		"public/synthetic/takopi-*":    opencode.FormatRunJSON,
		"public/synthetic/*nvim*.json": opencode.FormatEvents,
		"handmade/*export*":            opencode.FormatMessages,
	} {
		files, err := filepath.Glob(filepath.Join("../testdata/opencode", pattern))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v, %d files", pattern, err, len(files))
		}
		for _, f := range files {
			if strings.Contains(f, ".golden.") || strings.HasSuffix(f, ".state.json") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			head := b[:min(len(b), 64<<10)]
			got := opencode.Detect(head)
			if want == "" {
				// sandbox-agent: event arrays and message lists.
				if got != opencode.FormatEvents && got != opencode.FormatMessages {
					t.Errorf("%s: detected %q", f, got)
				}
				continue
			}
			if got != want {
				t.Errorf("%s: detected %q, want %q", f, got, want)
			}
		}
	}
	if got := opencode.Detect([]byte("hello")); got != "" {
		t.Errorf("plain text detected as %q", got)
	}
}

// TestSubAgentError: a sub-agent session's session.error and failed
// assistant message are not errors of the followed session: no error
// event, the turn and the session end completed, and the task call that
// ran it carries the error in its tool_result's metadata (failed only
// because the task itself failed). An error that comes after the task's
// result is a status item under the call.
func TestSubAgentError(t *testing.T) {
	task := func(status, extra string) string {
		return fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":"prt_t","messageID":"msg_a","sessionID":%q,"type":"tool","tool":"task","callID":"call_1","state":{"status":%q,"input":{"prompt":"go"},"metadata":{"sessionId":"ses_c"}%s}}}}`, ses, status, extra)
	}
	childErr := `{"type":"session.error","properties":{"sessionID":"ses_c","error":{"name":"APIError","data":{"message":"child broke"}}}}`
	childMsg := `{"type":"message.updated","properties":{"info":{"id":"msg_c","sessionID":"ses_c","role":"assistant","time":{"created":1,"completed":2},"error":{"name":"APIError","data":{"message":"child broke"}}}}}`
	head := []string{
		`{"type":"session.status","properties":{"sessionID":"ses_a","status":{"type":"busy"}}}`,
		msgUpdated("msg_a", "assistant", false),
		task("running", ""),
		`{"type":"session.created","properties":{"sessionID":"ses_c","info":{"id":"ses_c","parentID":"ses_a"}}}`,
	}
	tail := []string{msgUpdated("msg_a", "assistant", true), `{"type":"session.status","properties":{"sessionID":"ses_a","status":{"type":"idle"}}}`}
	check := func(t *testing.T, events []universal.Event) (call, result *universal.Item) {
		t.Helper()
		noUnparsed(t, events)
		if errs := golden.OfType(events, universal.TypeError); len(errs) != 0 {
			t.Errorf("%d error events, want none (the sub-agent's error is not the session's)", len(errs))
		}
		for _, e := range golden.OfType(events, universal.TypeTurnEnded) {
			if st := e.Data.(*universal.TurnEnded).Status; st != universal.TurnCompleted {
				t.Errorf("turn ended %s, want completed", st)
			}
		}
		if end := events[len(events)-1].Data.(*universal.SessionEnded); end.Reason != universal.EndCompleted {
			t.Errorf("session ended %s, want completed", end.Reason)
		}
		items := completed(events)
		for i := range items {
			switch items[i].Kind {
			case universal.KindToolCall:
				call = &items[i]
			case universal.KindToolResult:
				result = &items[i]
			}
		}
		if call == nil || result == nil {
			t.Fatalf("no task call and result: %+v", items)
		}
		return call, result
	}
	t.Run("before the result", func(t *testing.T) {
		events := run(t, opencode.FormatSSE, sse(append(append(head, childMsg, childErr,
			task("error", `,"error":"Tool execution failed: child broke"`)), tail...)...))
		_, result := check(t, events)
		md := gjson.GetBytes(result.Content[0].Metadata, "sub_agent_error")
		if md.Get("message").Str != "child broke" || md.Get("code").Str != "APIError" || md.Get("session_id").Str != "ses_c" {
			t.Errorf("tool_result metadata %s, want sub_agent_error with the child's error", result.Content[0].Metadata)
		}
		if result.Status != universal.StatusFailed || !result.Content[0].IsError {
			t.Errorf("task result %s (is_error %v), want failed: the task itself failed", result.Status, result.Content[0].IsError)
		}
		for _, it := range completed(events) {
			if it.Kind == universal.KindStatus {
				t.Errorf("status item %+v: the result carries the error", it)
			}
		}
	})
	t.Run("after the result", func(t *testing.T) {
		events := run(t, opencode.FormatSSE, sse(append(append(head, task("completed", `,"output":"done","title":"t"`), childErr), tail...)...))
		call, result := check(t, events)
		if result.Status != universal.StatusCompleted || gjson.GetBytes(result.Content[0].Metadata, "sub_agent_error").Exists() {
			t.Errorf("task result %+v, want completed without the later error", result)
		}
		var status []universal.Item
		for _, it := range completed(events) {
			if it.Kind == universal.KindStatus {
				status = append(status, it)
			}
		}
		if len(status) != 1 || status[0].ParentID != call.ItemID || status[0].Content[0].Label != "sub_agent_error" || status[0].Content[0].Detail != "child broke" {
			t.Errorf("status items %+v, want one sub_agent_error under the call %s", status, call.ItemID)
		}
	})
}

// TestNativePartOrder: a message's parts keep their native order, the
// non-streaming ones too (a file before the text, an agent mention
// between two texts); deltas address the text parts where they stand; a
// non-streaming part removed while the message is open leaves a "removed"
// status part in its place.
func TestNativePartOrder(t *testing.T) {
	file := func(id string) string {
		return fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":%q,"messageID":"msg_a","sessionID":%q,"type":"file","mime":"text/plain","filename":"a.go","url":"file:///w/a.go"}}}`, id, ses)
	}
	agentPart := fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":"prt_g","messageID":"msg_a","sessionID":%q,"type":"agent","name":"explore"}}}`, ses)
	events := run(t, opencode.FormatSSE, sse(
		msgUpdated("msg_a", "assistant", false),
		file("prt_f"),
		textPart("msg_a", "prt_1", "text", "one", "", true),
		agentPart,
		file("prt_x"),
		textPart("msg_a", "prt_2", "text", "two", "", true),
		`{"type":"message.part.removed","properties":{"sessionID":"ses_a","messageID":"msg_a","partID":"prt_x"}}`,
		msgUpdated("msg_a", "assistant", true),
	))
	it := onlyItem(t, events)
	if got, want := partList(it), "file_ref:/w/a.go text:one status:agent status:removed text:two"; got != want {
		t.Errorf("content %q, want %q", got, want)
	}
	deltasAddressParts(t, events, it)
}

// TestNew: the constructor contract (golden.CheckNew): every format builds,
// an unknown one fails, and a checkpoint restores only into a translator
// of its format.
func TestNew(t *testing.T) { golden.CheckNew(t, opencode.Formats(), opencode.New) }

// TestDeltaBeforeNonTextPart: text deltas that come before the first
// snapshot of their part, when that part turns out not to stream text (a
// tool, a part without a type), are reported as agent.unparsed with the
// part, not flushed later into the message as its text. Flushing them
// gave the part a text index, and the checkpoint of that state was
// refused on restore (found by FuzzTranslate).
func TestDeltaBeforeNonTextPart(t *testing.T) {
	delta := fmt.Sprintf(`{"type":"message.part.delta","properties":{"sessionID":%q,"messageID":"msg_b","partID":"prt_x","field":"text","delta":"early"}}`, ses)
	for _, c := range []struct{ name, part string }{
		{"no type", fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":"prt_x","messageID":"msg_b","sessionID":%q,"text":"early"}}}`, ses)},
		{"tool", fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":{"id":"prt_x","messageID":"msg_b","sessionID":%q,"type":"tool","tool":"bash","callID":"c1","state":{"status":"pending","input":{}}}}}`, ses)},
	} {
		t.Run(c.name, func(t *testing.T) {
			input := sse(msgUpdated("msg_a", "user", false), msgUpdated("msg_b", "assistant", false), delta, c.part, msgUpdated("msg_b", "assistant", true))
			events := run(t, opencode.FormatSSE, input)
			found := false
			for _, u := range unparsed(events) {
				found = found || strings.Contains(u.Error, "text deltas came before it")
			}
			if !found {
				t.Errorf("no agent.unparsed for the early delta:\n%s", golden.Encode(events))
			}
			if got := deltas(events, "itm_2"); strings.Contains(got, "early") {
				t.Errorf("the early delta became text of the message: %q", got)
			}
			checkpointed(t, opencode.FormatSSE, input)
		})
	}
}

// TestEmptyReasoningKeepsMetadata: a reasoning part with no text whose
// only content is provider metadata (OpenAI's encrypted reasoning, as
// OpenCode 1.2.5 exports carry for gpt-5.3-codex) keeps its place in the
// message, empty, with its metadata, in an export document and on the
// event stream; the deltas of the parts after it address their own parts.
func TestEmptyReasoningKeepsMetadata(t *testing.T) {
	const meta = `{"openai":{"itemId":"rs_1","reasoningEncryptedContent":"gAAAA-secret"}}`
	part := func(id, typ, text string) string {
		return fmt.Sprintf(`{"id":%q,"sessionID":%q,"messageID":"msg_a","type":%q,"text":%q,"metadata":%s,"time":{"start":1,"end":2}}`,
			id, ses, typ, text, meta)
	}
	export := fmt.Sprintf(`{"info":{"id":%q,"version":"1.2.5"},"messages":[{"info":{"id":"msg_a","sessionID":%q,"role":"assistant","time":{"created":1,"completed":3}},"parts":[%s,%s,%s]}]}`,
		ses, ses, part("prt_1", "reasoning", ""), part("prt_2", "reasoning", "thought"), part("prt_3", "text", "answer"))
	stream := sse(
		msgUpdated("msg_a", "assistant", false),
		fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":%s}}`, part("prt_1", "reasoning", "")),
		fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":%s}}`, part("prt_2", "reasoning", "thought")),
		fmt.Sprintf(`{"type":"message.part.updated","properties":{"part":%s}}`, part("prt_3", "text", "answer")),
		msgUpdated("msg_a", "assistant", true),
	)
	for _, c := range []struct{ format, input string }{{opencode.FormatMessages, export}, {opencode.FormatSSE, stream}} {
		t.Run(c.format, func(t *testing.T) {
			events := run(t, c.format, c.input)
			it := onlyItem(t, events)
			if got, want := partList(it), "reasoning: reasoning:thought text:answer"; got != want {
				t.Fatalf("content %q, want %q", got, want)
			}
			for i, p := range it.Content {
				if !strings.Contains(string(p.Metadata), "gAAAA-secret") {
					t.Errorf("part %d metadata %s, want the encrypted reasoning", i, p.Metadata)
				}
			}
			deltasAddressParts(t, events, it)
		})
	}
}

// TestAbortedPartMetadataInExport: in a message list or export each part
// is given once, as it was last saved; a reasoning part cut short by an
// abort has no end time (OpenCode 1.2.5 exports of aborted turns), and its
// metadata is kept all the same, with its text or without.
func TestAbortedPartMetadataInExport(t *testing.T) {
	part := func(id, text string) string {
		return fmt.Sprintf(`{"id":%q,"sessionID":%q,"messageID":"msg_a","type":"reasoning","text":%q,"metadata":{"openai":{"itemId":%q,"reasoningEncryptedContent":"enc-%s"}},"time":{"start":1}}`,
			id, ses, text, id, id)
	}
	doc := fmt.Sprintf(`[{"info":{"id":"msg_a","sessionID":%q,"role":"assistant","time":{"created":1,"completed":3},"error":{"name":"MessageAbortedError","data":{"message":"The operation was aborted."}}},"parts":[%s,%s]}]`,
		ses, part("prt_1", "half a thought"), part("prt_2", ""))
	c := onlyItem(t, run(t, opencode.FormatMessages, doc)).Content
	if len(c) != 2 || c[0].Text != "half a thought" || c[1].Text != "" {
		t.Fatalf("content %+v, want the two reasoning parts", c)
	}
	for i, id := range []string{"prt_1", "prt_2"} {
		if !strings.Contains(string(c[i].Metadata), "enc-"+id) {
			t.Errorf("part %d metadata %s, want enc-%s", i, c[i].Metadata, id)
		}
	}
}

// An error in the newer {type, message} shape (run output and V2 session
// events quoted by other projects: "provider.no-route") gives its type as
// the error's code, as a named error gives its name.
func TestErrorTypeIsCode(t *testing.T) {
	evs := run(t, opencode.FormatRunJSON, `{"type":"step_start","timestamp":1,"sessionID":"ses-1","part":{"id":"p1","sessionID":"ses-1","messageID":"m1","type":"step-start"}}
{"type":"error","timestamp":2,"sessionID":"ses-1","error":{"type":"provider.no-route","message":"Model unavailable"}}
`)
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1", len(errs))
	}
	if e := errs[0].Data.(*universal.Error); e.Code != "provider.no-route" || e.Message != "Model unavailable" {
		t.Fatalf("error %q (code %q)", e.Message, e.Code)
	}
}

// v2Event is an OpenCode 2.x /api/event envelope of a session event.
func v2Event(id, typ, data string) string {
	return fmt.Sprintf(`{"id":%q,"created":1,"type":%q,"durable":{"aggregateID":"ses_a","seq":1,"version":1},"data":%s}`, id, typ, data)
}

// TestV2Location: a 2.x session.created has no directory in its data;
// its envelope's location gives it, as the session's cwd.
func TestV2Location(t *testing.T) {
	created := strings.Replace(v2Event("e0", "session.created", `{"sessionID":"ses_a","title":"t","slug":"s"}`),
		`"data":`, `"location":{"directory":"/home/dev/project"},"data":`, 1)
	events := run(t, opencode.FormatSSE, sse(created,
		v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e2", "session.execution.succeeded", `{"sessionID":"ses_a"}`)))
	noUnparsed(t, events)
	md := events[0].Data.(*universal.SessionStarted).Metadata
	if got := gjson.GetBytes(md, "cwd").Str; got != "/home/dev/project" {
		t.Errorf("session.started metadata %s: cwd %q, want the location's directory", md, got)
	}
}

// TestV2Execution: OpenCode 2.x's session.execution.* (the SDK's event
// types of 2.0) start and end turns: failed is one error event (its type
// the code; the same failure also sent as session.error is not reported
// twice) and a turn ended in error, interrupted a turn ended
// interrupted, succeeded a completed one; a sub-agent's failure goes to
// its task call and does not end the turn; session.usage.updated and
// log.synced are ignored. A 2.x session.created gives the session's
// fields as its data ({sessionID, parentID, …}, no info): the sub-agent
// session it creates first is linked to its parent, not followed.
func TestV2Execution(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e0", "session.created", `{"sessionID":"ses_c","parentID":"ses_a","title":"sub","slug":"s"}`),
		v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
		`{"type":"session.error","properties":{"sessionID":"ses_a","error":{"type":"provider.no-route","message":"Model unavailable"}}}`,
		v2Event("e2", "session.execution.failed", `{"sessionID":"ses_a","error":{"type":"provider.no-route","message":"Model unavailable"}}`),
		v2Event("e3", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e4", "session.execution.interrupted", `{"sessionID":"ses_a","reason":"user"}`),
		v2Event("e5", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e6", "session.execution.started", `{"sessionID":"ses_c"}`),
		v2Event("e7", "session.execution.failed", `{"sessionID":"ses_c","error":{"type":"unknown","message":"child broke"}}`),
		v2Event("e8", "session.usage.updated", `{"sessionID":"ses_a","cost":0.1,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		`{"type":"log.synced","aggregateID":"ses_a","seq":8}`,
		v2Event("e9", "session.execution.succeeded", `{"sessionID":"ses_a"}`),
	))
	noUnparsed(t, events)
	if sid := events[0].NativeSessionID; sid != "ses_a" {
		t.Errorf("followed %q, want ses_a (ses_c is its sub-agent)", sid)
	}
	var got []universal.TurnStatus
	for _, e := range golden.OfType(events, universal.TypeTurnEnded) {
		got = append(got, e.Data.(*universal.TurnEnded).Status)
	}
	if want := []universal.TurnStatus{universal.TurnError, universal.TurnInterrupted, universal.TurnCompleted}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("turns ended %v, want %v", got, want)
	}
	errs := golden.OfType(events, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d error events, want 1", len(errs))
	}
	if e := errs[0].Data.(*universal.Error); e.Code != "provider.no-route" || e.Message != "Model unavailable" || e.WillRetry {
		t.Errorf("error %+v", e)
	}
	var sub int
	for _, it := range completed(events) {
		if it.Kind == universal.KindStatus && it.Content[0].Label == "sub_agent_error" && it.Content[0].Detail == "child broke" {
			sub++
		}
	}
	if sub != 1 {
		t.Errorf("%d sub_agent_error items, want 1 (the child's failure)", sub)
	}
}

// TestV2RetryScheduled: OpenCode 2.x's session.retry.scheduled is an
// error with will_retry, as the retry status is, once per attempt (the
// same attempt also reported as a retry status is not reported again),
// and it starts the turn.
func TestV2RetryScheduled(t *testing.T) {
	retry := func(id string, attempt int) string {
		return v2Event(id, "session.retry.scheduled", fmt.Sprintf(`{"sessionID":"ses_a","assistantMessageID":"msg_1","attempt":%d,"at":5,"error":{"type":"provider.rate-limit","message":"Rate limited"}}`, attempt))
	}
	events := run(t, opencode.FormatSSE, sse(
		retry("e1", 1),
		`{"type":"session.status","properties":{"sessionID":"ses_a","status":{"type":"retry","attempt":1,"message":"Rate limited","next":5}}}`,
		retry("e2", 2),
		v2Event("e3", "session.execution.succeeded", `{"sessionID":"ses_a"}`),
	))
	noUnparsed(t, events)
	if n := len(golden.OfType(events, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns started, want 1", n)
	}
	errs := golden.OfType(events, universal.TypeError)
	if len(errs) != 2 {
		t.Fatalf("%d error events, want 2 (one per attempt)", len(errs))
	}
	for i, ev := range errs {
		e := ev.Data.(*universal.Error)
		if !e.WillRetry || e.Message != "Rate limited" || gjson.GetBytes(e.Details, "attempt").Int() != int64(i+1) || gjson.GetBytes(e.Details, "error.type").Str != "provider.rate-limit" {
			t.Errorf("retry %d: %+v (details %s)", i+1, e, e.Details)
		}
	}
}

// TestV2Messages: OpenCode 2.x's message events become the items of their
// 1.x equivalents, in the shapes of both 2.x SDK generations: an admitted
// prompt (session.prompt.admitted {prompt}, session.input.admitted
// {input: {type: user, data}}) a user message; a step an assistant
// message, completed with its usage at step.ended; text and reasoning
// blocks (by ordinal, or by textID and reasoningID) streamed and completed
// with their final text; a tool call named by tool.input.started when
// tool.called does not name it, its result the text of tool.success, a
// tool.failed a failed result.
func TestV2Messages(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.prompt.admitted", `{"sessionID":"ses_a","inputID":"msg_u1","prompt":{"text":"list files"},"delivery":"steer"}`),
		v2Event("e2", "session.prompt.promoted", `{"sessionID":"ses_a","inputID":"msg_u1"}`),
		v2Event("e3", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e4", "session.step.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","agent":"build","model":{"id":"m","providerID":"p"}}`),
		v2Event("e5", "session.reasoning.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","ordinal":0}`),
		v2Event("e6", "session.reasoning.delta", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","ordinal":0,"delta":"think"}`),
		v2Event("e7", "session.reasoning.ended", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","ordinal":0,"text":"think"}`),
		v2Event("e8", "session.text.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","ordinal":1}`),
		v2Event("e9", "session.text.delta", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","ordinal":1,"delta":"Listing"}`),
		v2Event("e10", "session.text.ended", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","ordinal":1,"text":"Listing."}`),
		v2Event("e11", "session.tool.input.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","callID":"c1","name":"glob"}`),
		v2Event("e12", "session.tool.input.delta", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","callID":"c1","delta":"{}"}`),
		v2Event("e13", "session.tool.called", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","callID":"c1","input":{"pattern":"*.go"},"executed":false}`),
		v2Event("e14", "session.tool.success", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","callID":"c1","structured":{"count":2},"content":[{"type":"text","text":"a.go\n"},{"type":"text","text":"b.go"}],"executed":false}`),
		v2Event("e15", "session.tool.called", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","callID":"c2","tool":"bash","input":{"command":"ls"},"provider":{"executed":false}}`),
		v2Event("e16", "session.tool.failed", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","callID":"c2","error":{"type":"unknown","message":"denied"},"provider":{"executed":false}}`),
		v2Event("e17", "session.step.ended", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","finish":"tool-calls","cost":0.5,"tokens":{"input":10,"output":5,"reasoning":1,"cache":{"read":0,"write":0}}}`),
		v2Event("e18", "session.input.admitted", `{"sessionID":"ses_a","inputID":"msg_u2","input":{"type":"user","delivery":"queue","data":{"text":"and tests"}}}`),
		v2Event("e19", "session.step.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a2","agent":"build","model":{"id":"m","providerID":"p"}}`),
		v2Event("e20", "session.text.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a2","textID":"t1"}`),
		v2Event("e21", "session.text.delta", `{"sessionID":"ses_a","assistantMessageID":"msg_a2","textID":"t1","delta":"Done"}`),
		v2Event("e22", "session.text.ended", `{"sessionID":"ses_a","assistantMessageID":"msg_a2","textID":"t1","text":"Done"}`),
		v2Event("e23", "session.step.ended", `{"sessionID":"ses_a","assistantMessageID":"msg_a2","finish":"stop","cost":0,"tokens":{"input":3,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		v2Event("e24", "session.execution.succeeded", `{"sessionID":"ses_a"}`),
	))
	noUnparsed(t, events)
	var got []string
	for _, it := range completed(events) {
		s := string(it.Kind) + "/" + string(it.Role) + ":"
		for _, p := range it.Content {
			switch p.Type {
			case universal.PartToolCall:
				s += fmt.Sprintf(" %s(%s)[%s]", p.Name, p.Arguments, p.ToolKind)
			case universal.PartToolResult:
				s += fmt.Sprintf(" %q error=%v", p.Output, p.IsError)
			default:
				s += fmt.Sprintf(" %s=%q", p.Type, p.Text)
			}
		}
		got = append(got, s+" "+string(it.Status))
	}
	want := []string{
		`message/user: text="list files" completed`,
		`tool_call/assistant: glob({"pattern":"*.go"})[search] completed`,
		`tool_result/tool: "a.go\nb.go" error=false completed`,
		`tool_call/assistant: bash({"command":"ls"})[execute] completed`,
		`tool_result/tool: "denied" error=true failed`,
		`message/assistant: reasoning="think" text="Listing." completed`,
		`message/user: text="and tests" completed`,
		`message/assistant: text="Done" completed`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(golden.OfType(events, universal.TypeUsageUpdated)); n != 2 {
		t.Errorf("%d usage events, want 2 (one per step)", n)
	}
	if n := len(golden.OfType(events, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1", n)
	}
}

// TestV2StepFailed: a 2.x step.failed completes its message as failed
// with one error event, which the session.execution.failed that follows
// does not repeat; the turn ends in error.
func TestV2StepFailed(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e2", "session.step.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","agent":"build","model":{"id":"m","providerID":"p"}}`),
		v2Event("e3", "session.text.delta", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","ordinal":0,"delta":"Hal"}`),
		v2Event("e4", "session.step.failed", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","error":{"type":"unknown","message":"reset"}}`),
		v2Event("e5", "session.execution.failed", `{"sessionID":"ses_a","error":{"type":"unknown","message":"reset"}}`),
	))
	noUnparsed(t, events)
	if n := len(golden.OfType(events, universal.TypeError)); n != 1 {
		t.Errorf("%d error events, want 1", n)
	}
	items := completed(events)
	if len(items) != 1 || items[0].Status != universal.StatusFailed || items[0].Content[0].Text != "Hal" {
		t.Fatalf("items %+v, want the failed message with its text", items)
	}
	ends := golden.OfType(events, universal.TypeTurnEnded)
	if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn ends %v", ends)
	}
}

// TestV2InboxDelivery: a prompt put in a 2.x session's inbox while the
// model works is the user message when it is delivered, not when it is
// enqueued (2.0.19: a prompt of delivery queue enqueued during a step,
// the step interrupted, another prompt answered, then the queued one
// delivered and answered): it follows the answer given meanwhile, in the
// turn that answers it; a cancelled one gives none.
func TestV2InboxDelivery(t *testing.T) {
	step := func(n, mid, text string) []string {
		m := `"sessionID":"ses_a","assistantMessageID":"` + mid + `"`
		return []string{
			v2Event(n+"a", "session.step.started", `{`+m+`,"agent":"build","model":{"id":"m","providerID":"p"}}`),
			v2Event(n+"b", "session.text.delta", `{`+m+`,"ordinal":0,"delta":"`+text+`"}`),
			v2Event(n+"c", "session.step.ended", `{`+m+`,"finish":"stop","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		}
	}
	enqueue := func(n, id, text, delivery string) string {
		return v2Event(n, "session.inbox.enqueued", `{"sessionID":"ses_a","inboxID":"`+id+`","item":{"type":"user","payload":{"text":"`+text+`"},"delivery":"`+delivery+`"}}`)
	}
	delivered := func(n, id string) string {
		return v2Event(n, "session.inbox.delivered", `{"sessionID":"ses_a","inboxID":"`+id+`"}`)
	}
	var in []string
	in = append(in, enqueue("e1", "msg_u1", "first", "steer"), v2Event("e2", "session.execution.started", `{"sessionID":"ses_a"}`), delivered("e3", "msg_u1"))
	in = append(in, v2Event("e4", "session.step.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","agent":"build","model":{"id":"m","providerID":"p"}}`))
	in = append(in, enqueue("e5", "msg_u2", "parked", "queue"), enqueue("e6", "msg_u3", "dropped", "queue"))
	in = append(in, v2Event("e7", "session.inbox.cancelled", `{"sessionID":"ses_a","inboxID":"msg_u3"}`))
	in = append(in, v2Event("e8", "session.step.failed", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","error":{"type":"aborted","message":"Step interrupted"}}`))
	in = append(in, v2Event("e9", "session.execution.interrupted", `{"sessionID":"ses_a","reason":"user"}`))
	in = append(in, enqueue("e10", "msg_u4", "second", "steer"), v2Event("e11", "session.execution.started", `{"sessionID":"ses_a"}`), delivered("e12", "msg_u4"))
	in = append(in, step("e13", "msg_a2", "two")...)
	in = append(in, delivered("e14", "msg_u2"))
	in = append(in, step("e15", "msg_a3", "apple")...)
	in = append(in, v2Event("e16", "session.execution.succeeded", `{"sessionID":"ses_a"}`))
	events := run(t, opencode.FormatSSE, sse(in...))
	noUnparsed(t, events)
	var got []string
	turn := 0
	for _, ev := range events {
		switch ev.Type {
		case universal.TypeTurnStarted:
			turn++
		case universal.TypeItemCompleted:
			it := ev.Data.(*universal.ItemSnapshot).Item
			if it.Kind == universal.KindMessage && len(it.Content) > 0 {
				got = append(got, fmt.Sprintf("%d %s %s", turn, it.Role, it.Content[0].Text))
			}
		}
	}
	want := []string{"1 user first", "2 user second", "2 assistant two", "2 user parked", "2 assistant apple"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("messages %q, want %q", got, want)
	}
}

// TestV2Subagent: 2.x's sub-agent tool (2.0.19: named subagent, input
// {agent, description, prompt}; its progress and result name the child
// session in metadata {sessionID, status}; the child's session.created
// has parentID) is a task call, and the child session's prompt and
// answer are items under it.
func TestV2Subagent(t *testing.T) {
	m := `"sessionID":"ses_a","assistantMessageID":"msg_a1"`
	c := `"sessionID":"ses_c","assistantMessageID":"msg_c1"`
	events := run(t, opencode.FormatSSE, sse(
		`{"id":"e0","created":1,"type":"session.created","data":{"sessionID":"ses_a","slug":"s","version":"2.0.19","title":"t"}}`,
		v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e2", "session.step.started", `{`+m+`,"agent":"build","model":{"id":"m","providerID":"p"}}`),
		v2Event("e3", "session.tool.input.started", `{`+m+`,"id":"c1","name":"subagent"}`),
		v2Event("e4", "session.tool.called", `{`+m+`,"id":"c1","input":{"agent":"general","description":"Find it","prompt":"Find the schema."},"executed":false}`),
		`{"id":"e5","created":1,"type":"session.created","data":{"sessionID":"ses_c","parentID":"ses_a","slug":"c","version":"2.0.19","title":"Find it","agent":"general"}}`,
		v2Event("e6", "session.tool.progress", `{`+m+`,"id":"c1","metadata":{"sessionID":"ses_c","status":"running"}}`),
		v2Event("e7", "session.inbox.enqueued", `{"sessionID":"ses_c","inboxID":"msg_cu","item":{"type":"user","payload":{"text":"Find the schema."},"delivery":"steer"}}`),
		v2Event("e8", "session.execution.started", `{"sessionID":"ses_c"}`),
		v2Event("e9", "session.inbox.delivered", `{"sessionID":"ses_c","inboxID":"msg_cu"}`),
		v2Event("e10", "session.step.started", `{`+c+`,"agent":"general","model":{"id":"m","providerID":"p"}}`),
		v2Event("e11", "session.text.delta", `{`+c+`,"ordinal":0,"delta":"schema.ts"}`),
		v2Event("e12", "session.step.ended", `{`+c+`,"finish":"stop","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		v2Event("e13", "session.execution.succeeded", `{"sessionID":"ses_c"}`),
		v2Event("e14", "session.tool.success", `{`+m+`,"id":"c1","content":[{"type":"text","text":"<subagent>schema.ts</subagent>"}],"metadata":{"sessionID":"ses_c","status":"completed","truncated":false},"executed":false}`),
		v2Event("e15", "session.step.ended", `{`+m+`,"finish":"tool-calls","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		v2Event("e16", "session.execution.succeeded", `{"sessionID":"ses_a"}`),
	))
	noUnparsed(t, events)
	var call *universal.Item
	var child []universal.Item
	for _, it := range completed(events) {
		switch {
		case it.Kind == universal.KindToolCall:
			call = &it
		case it.Kind == universal.KindMessage && strings.HasPrefix(it.NativeItemID, "msg_c"):
			child = append(child, it)
		}
	}
	if call == nil {
		t.Fatal("no tool call")
	}
	if p := call.Content[0]; p.ToolKind != universal.ToolTask || p.ToolInput == nil || p.ToolInput.Agent != "general" || p.ToolInput.Prompt != "Find the schema." {
		t.Errorf("sub-agent call kind %q input %+v, want task, agent general, its prompt", p.ToolKind, p.ToolInput)
	}
	if len(child) != 2 {
		t.Fatalf("%d child messages, want the prompt and the answer", len(child))
	}
	for _, it := range child {
		if it.ParentID != call.ItemID {
			t.Errorf("child message %v under %v, want the call %s", it.NativeItemID, it.ParentID, call.ItemID)
		}
	}
}

// TestV2CatalogEvents: 2.0.19's registry events (data {}: providers,
// models, agents, commands, web search or plugins changed, seen mid-turn
// and when a worktree's instance starts) give nothing, as
// catalog.updated does.
func TestV2CatalogEvents(t *testing.T) {
	var in []string
	for i, typ := range []string{"provider.updated", "model.updated", "agent.updated", "command.updated", "websearch.updated", "plugin.updated"} {
		in = append(in, fmt.Sprintf(`{"id":"e%d","created":1,"type":%q,"location":{"directory":"/p"},"data":{}}`, i, typ))
	}
	noUnparsed(t, run(t, opencode.FormatSSE, sse(in...)))
}

// TestV2ToolContentBlocks: a 2.x tool result of several text blocks
// (2.0.19's background shell command: where its output goes, then what
// the model is to do meanwhile) is their text a newline apart, not run
// together.
func TestV2ToolContentBlocks(t *testing.T) {
	m := `"sessionID":"ses_a","assistantMessageID":"msg_a1"`
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e2", "session.step.started", `{`+m+`,"agent":"build","model":{"id":"m","providerID":"p"}}`),
		v2Event("e3", "session.tool.input.started", `{`+m+`,"id":"c1","name":"shell"}`),
		v2Event("e4", "session.tool.called", `{`+m+`,"id":"c1","input":{"command":"sleep 100","background":true},"executed":false}`),
		v2Event("e5", "session.tool.success", `{`+m+`,"id":"c1","content":[{"type":"text","text":"Output is streaming to: sh_1.out"},{"type":"text","text":"You will be notified."}],"metadata":{"status":"running","shellID":"sh_1"},"executed":false}`),
	))
	noUnparsed(t, events)
	for _, it := range completed(events) {
		if it.Kind == universal.KindToolResult {
			if got := it.Content[0].Output; got != "Output is streaming to: sh_1.out\nYou will be notified." {
				t.Errorf("tool result %q, want the two blocks a newline apart", got)
			}
			return
		}
	}
	t.Error("no tool result")
}

// TestV2InboxSynthetic: a synthetic inbox item (2.0.19: the notice that
// a background command ended, or plan mode's reminder, for which no
// session.synthetic comes) is, when delivered, a system item with its
// text, source synthetic, its description and metadata.
func TestV2InboxSynthetic(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.inbox.enqueued", `{"sessionID":"ses_a","inboxID":"msg_s1","item":{"type":"synthetic","payload":{"text":"<shell id=\"sh_1\" state=\"completed\">done</shell>","description":"sleep 100","metadata":{"source":"shell","shellID":"sh_1"}},"delivery":"steer"}}`),
		v2Event("e2", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e3", "session.inbox.delivered", `{"sessionID":"ses_a","inboxID":"msg_s1"}`),
		v2Event("e4", "session.execution.succeeded", `{"sessionID":"ses_a"}`),
	))
	noUnparsed(t, events)
	var sys []universal.Item
	for _, it := range completed(events) {
		if it.Kind == universal.KindSystem {
			sys = append(sys, it)
		}
	}
	if len(sys) != 1 || sys[0].Content[0].Text != `<shell id="sh_1" state="completed">done</shell>` {
		t.Fatalf("system items %+v, want the synthetic text", sys)
	}
	if md := sys[0].Content[0].Metadata; gjson.GetBytes(md, "source").Str != "synthetic" || gjson.GetBytes(md, "description").Str != "sleep 100" || gjson.GetBytes(md, "metadata.shellID").Str != "sh_1" {
		t.Errorf("metadata %s", md)
	}
}

// TestV2StepAborted: a 2.x step interrupted by the user fails with an
// error of type aborted (2.0.19: session.step.failed {error: {type:
// "aborted", message: "Step interrupted"}}, after its call's
// session.tool.failed of the same type and before
// session.execution.interrupted): an abort, as 1.x's MessageAbortedError
// is, so no error event and the turn interrupted, not in error; the
// shell service's shell.deleted of the aborted call's process is ignored.
func TestV2StepAborted(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e2", "session.step.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","agent":"build","model":{"id":"m","providerID":"p"}}`),
		v2Event("e3", "session.tool.input.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","id":"c1","name":"shell"}`),
		v2Event("e4", "session.tool.called", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","id":"c1","input":{"command":"sleep 30"},"executed":false}`),
		`{"id":"e5","created":1,"type":"shell.deleted","data":{"id":"sh_1"}}`,
		v2Event("e6", "session.tool.failed", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","id":"c1","error":{"type":"aborted","message":"Tool execution interrupted"},"executed":false}`),
		v2Event("e7", "session.step.failed", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","error":{"type":"aborted","message":"Step interrupted"},"cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		v2Event("e8", "session.execution.interrupted", `{"sessionID":"ses_a","reason":"user"}`),
	))
	noUnparsed(t, events)
	if errs := golden.OfType(events, universal.TypeError); len(errs) != 0 {
		t.Errorf("error events %+v, want none for an abort", errs[0].Data)
	}
	ends := golden.OfType(events, universal.TypeTurnEnded)
	if len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
		t.Errorf("turn ends %v, want one interrupted", ends)
	}
}

// TestV2QuestionForm: the form 2.x's question tool opens (2.0.19: title
// Questions, metadata.tool {messageID, id} its call, fields {key q0…,
// title: the question's header, description: the question}) asks its
// questions, linked to the call's item: a field with a title and a
// description is the description's question under the title's header.
func TestV2QuestionForm(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e2", "session.step.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","agent":"build","model":{"id":"m","providerID":"p"}}`),
		v2Event("e3", "session.tool.input.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","id":"c1","name":"question"}`),
		v2Event("e4", "session.tool.called", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","id":"c1","input":{"questions":[]},"executed":false}`),
		`{"id":"evt_f1","created":1,"type":"form.created","data":{"form":{"id":"frm_1","sessionID":"ses_a","title":"Questions","metadata":{"kind":"question","tool":{"messageID":"msg_a1","id":"c1"}},"fields":[`+
			`{"key":"q0","title":"Color","description":"Which color do you prefer?","type":"string","options":[{"value":"Red","label":"Red"}],"custom":true}]}}}`,
	))
	noUnparsed(t, events)
	req := golden.OfType(events, universal.TypeQuestionRequested)
	if len(req) != 1 {
		t.Fatalf("%d questions asked", len(req))
	}
	q := req[0].Data.(*universal.Question)
	if q.Prompt != "Questions\nWhich color do you prefer?" || gjson.GetBytes(q.Metadata, "questions.0.header").Str != "Color" {
		t.Errorf("question.requested prompt %q, metadata %s", q.Prompt, q.Metadata)
	}
	if q.ItemID == "" {
		t.Error("the question is not linked to its question tool call's item")
	}
}

// TestV2Forms: a 2.x form is a question (one per field, the form's title
// first), its reply the answer's values, its cancel a rejection; 2.x's
// permission.asked (action, resources, source.id) is linked to its call.
func TestV2Forms(t *testing.T) {
	form := `{"id":"evt_f1","created":1,"type":"form.created","data":{"form":{"id":"frm_1","sessionID":"ses_a","title":"Deploy","mode":"form","fields":[` +
		`{"key":"env","title":"Where to?","type":"string","options":[{"value":"prod","label":"Production"},{"value":"dev","label":"Development"}]},` +
		`{"key":"checks","type":"multiselect","description":"Which checks?","options":[{"value":"lint","label":"Lint"}]},` +
		`{"key":"force","type":"boolean"}]}}}`
	for _, c := range []struct {
		reply, response string
		status          universal.QuestionStatus
	}{
		{`{"id":"evt_f2","created":2,"type":"form.replied","data":{"id":"frm_1","sessionID":"ses_a","answer":{"env":"prod","checks":["lint"],"force":true}}}`, "prod; lint; true", universal.QuestionAnswered},
		// The answer's members in another order (a log re-serialized
		// with sorted keys): the answers still follow the fields.
		{`{"id":"evt_f2","created":2,"type":"form.replied","data":{"answer":{"checks":["lint"],"env":"prod","force":true},"id":"frm_1","sessionID":"ses_a"}}`, "prod; lint; true", universal.QuestionAnswered},
		{`{"id":"evt_f2","created":2,"type":"form.replied","data":{"id":"frm_1","sessionID":"ses_a","answer":{"force":true,"checks":["lint"],"env":"prod"}}}`, "prod; lint; true", universal.QuestionAnswered},
		{`{"id":"evt_f2","created":2,"type":"form.cancelled","data":{"id":"frm_1","sessionID":"ses_a"}}`, "", universal.QuestionRejected},
	} {
		events := run(t, opencode.FormatSSE, sse(
			v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
			v2Event("e2", "session.step.started", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","agent":"build","model":{"id":"m","providerID":"p"}}`),
			v2Event("e3", "session.tool.called", `{"sessionID":"ses_a","assistantMessageID":"msg_a1","callID":"c1","tool":"bash","input":{"command":"make deploy"},"executed":false}`),
			`{"id":"evt_p1","created":1,"type":"permission.asked","data":{"id":"per_1","sessionID":"ses_a","action":"bash","resources":["make deploy"],"source":{"type":"tool","messageID":"msg_a1","id":"c1"},"message":"Run make deploy?"}}`,
			`{"id":"evt_p2","created":1,"type":"permission.replied","data":{"sessionID":"ses_a","requestID":"per_1","reply":"once"}}`,
			form, c.reply, c.reply))
		noUnparsed(t, events)
		perm := golden.OfType(events, universal.TypePermissionRequested)
		if len(perm) != 1 {
			t.Fatalf("%d permission requests", len(perm))
		}
		if p := perm[0].Data.(*universal.Permission); p.Action != "bash" || p.ItemID == "" || p.CallID != "c1" || gjson.GetBytes(p.Metadata, "message").Str != "Run make deploy?" {
			t.Errorf("permission.requested %+v", p)
		}
		req, res := golden.OfType(events, universal.TypeQuestionRequested), golden.OfType(events, universal.TypeQuestionResolved)
		if len(req) != 1 || len(res) != 1 {
			t.Fatalf("%d asked, %d resolved", len(req), len(res))
		}
		q := req[0].Data.(*universal.Question)
		if q.QuestionID != "frm_1" || q.Prompt != "Deploy\nWhere to?\nWhich checks?\nforce" || strings.Join(q.Options, ",") != "Production,Development,Lint" ||
			gjson.GetBytes(q.Metadata, "form.fields.#").Int() != 3 || !gjson.GetBytes(q.Metadata, "questions.1.multiple").Bool() {
			t.Errorf("question.requested %+v %s", q, q.Metadata)
		}
		if r := res[0].Data.(*universal.Question); r.QuestionID != "frm_1" || r.Response != c.response || r.Status != c.status || r.Prompt != q.Prompt {
			t.Errorf("question.resolved %+v, want response %q status %s", r, c.response, c.status)
		}
	}
}

// TestV2FormReplyAlone: the reply to a form the input never showed
// (the stream joined late) has its answers by key, whatever the order
// of the answer's members.
func TestV2FormReplyAlone(t *testing.T) {
	for _, answer := range []string{`{"b":"two","a":["one"]}`, `{"a":["one"],"b":"two"}`} {
		events := run(t, opencode.FormatSSE, sse(
			v2Event("e1", "session.execution.started", `{"sessionID":"ses_a"}`),
			`{"id":"evt_f2","created":2,"type":"form.replied","data":{"id":"frm_1","sessionID":"ses_a","answer":`+answer+`}}`))
		noUnparsed(t, events)
		res := golden.OfType(events, universal.TypeQuestionResolved)
		if len(res) != 1 {
			t.Fatalf("answer %s: %d resolved", answer, len(res))
		}
		if r := res[0].Data.(*universal.Question); r.Response != "one; two" {
			t.Errorf("answer %s: response %q, want %q", answer, r.Response, "one; two")
		}
	}
}

// TestV2Shell: a shell command the user ran (2.x session.shell.*) is a
// tool_call of role user and its result, failed on a non-zero exit; it
// starts no turn.
func TestV2Shell(t *testing.T) {
	shell := func(status, exit string) string {
		return `{"id":"shl_1","status":"` + status + `","command":"ls missing","cwd":"/p","shell":"/bin/bash","file":"/tmp/shl_1","metadata":{},` + exit + `"time":{"started":1}}`
	}
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.shell.started", `{"sessionID":"ses_a","shell":`+shell("running", "")+`}`),
		v2Event("e2", "session.shell.ended", `{"sessionID":"ses_a","shell":`+shell("exited", `"exit":2,`)+`,"output":{"output":"ls: missing: No such file\n","cursor":26,"size":26,"truncated":false}}`),
		v2Event("e2", "session.shell.ended", `{"sessionID":"ses_a","shell":`+shell("exited", `"exit":2,`)+`,"output":{"output":"ls: missing: No such file\n","cursor":26,"size":26,"truncated":false}}`),
	))
	noUnparsed(t, events)
	items := completed(events)
	if len(items) != 2 {
		t.Fatalf("%d items: %s", len(items), golden.Encode(events))
	}
	call, res := items[0], items[1]
	if c := call.Content[0]; call.Kind != universal.KindToolCall || call.Role != universal.RoleUser || c.Name != "shell" || c.Arguments != `{"command":"ls missing"}` || c.ToolKind != universal.ToolExecute {
		t.Errorf("call %+v", call)
	}
	if r := res.Content[0]; res.Status != universal.StatusFailed || !r.IsError || r.Output != "ls: missing: No such file\n" || res.ParentID != call.ItemID ||
		gjson.GetBytes(r.Metadata, "exit_code").Int() != 2 {
		t.Errorf("result %+v %s", res, r.Metadata)
	}
	if n := len(golden.OfType(events, universal.TypeTurnStarted)); n != 0 {
		t.Errorf("%d turns, want 0", n)
	}
}

// TestV2Compaction: a 2.x compaction is a status item compaction when it
// ends (the summary its detail) or fails.
func TestV2Compaction(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.compaction.admitted", `{"sessionID":"ses_a","inputID":"inp_1"}`),
		v2Event("e2", "session.compaction.started", `{"sessionID":"ses_a","reason":"manual","recent":"msg_9","inputID":"inp_1"}`),
		v2Event("e3", "session.compaction.ended", `{"sessionID":"ses_a","reason":"manual","text":"We fixed the parser.","recent":"msg_9"}`),
		v2Event("e4", "session.compaction.started", `{"sessionID":"ses_a","reason":"auto","recent":"msg_12"}`),
		v2Event("e5", "session.compaction.failed", `{"sessionID":"ses_a","reason":"auto","error":{"type":"provider.no-route","message":"no model"}}`),
	))
	noUnparsed(t, events)
	items := completed(events)
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	if p := items[0].Content[0]; items[0].Kind != universal.KindStatus || p.Label != "compaction" || p.Detail != "We fixed the parser." || items[0].Status != universal.StatusCompleted {
		t.Errorf("compaction %+v", items[0])
	}
	if p := items[1].Content[0]; p.Label != "compaction" || p.Detail != "no model" || items[1].Status != universal.StatusFailed || !gjson.GetBytes(p.Metadata, "auto").Bool() {
		t.Errorf("failed compaction %+v %s", items[1], p.Metadata)
	}
}

// TestV2SystemText: 2.x text the model receives that the user did not
// type (session.synthetic, session.skill.activated,
// session.context.updated, session.instructions.updated with text) is a
// completed system item, as 1.x synthetic text parts are, its source and
// details in metadata; instructions without text (the first baseline)
// give nothing; a sub-agent's is under its task call's item.
func TestV2SystemText(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.synthetic", `{"sessionID":"ses_a","text":"The user attached notes.md:\n# Notes","description":"file notes.md","metadata":{"file":"notes.md"}}`),
		v2Event("e2", "session.skill.activated", `{"sessionID":"ses_a","id":"skl_review","name":"review","text":"Review the diff carefully."}`),
		v2Event("e3", "session.context.updated", `{"sessionID":"ses_a","text":"Updated context"}`),
		v2Event("e4", "session.instructions.updated", `{"sessionID":"ses_a","delta":{"core/date":"abc"}}`),
		v2Event("e5", "session.instructions.updated", `{"sessionID":"ses_a","delta":{"core/date":"def"},"text":"Today is 2 May."}`),
		v2Event("e6", "session.synthetic", `{"sessionID":"ses_other","text":"not followed"}`),
	))
	noUnparsed(t, events)
	items := completed(events)
	if len(items) != 4 {
		t.Fatalf("%d items, want 4", len(items))
	}
	want := []struct{ text, source, field, value string }{
		{"The user attached notes.md:\n# Notes", "synthetic", "description", "file notes.md"},
		{"Review the diff carefully.", "skill", "skill", "review"},
		{"Updated context", "context", "source", "context"},
		{"Today is 2 May.", "instructions", "instructions.core/date", "def"},
	}
	for i, w := range want {
		it := items[i]
		p := it.Content[0]
		if it.Kind != universal.KindSystem || it.Role != universal.RoleSystem || p.Type != universal.PartText || p.Text != w.text || it.ParentID != "" {
			t.Errorf("item %d: %+v", i, it)
		}
		if gjson.GetBytes(p.Metadata, "source").Str != w.source || gjson.GetBytes(p.Metadata, w.field).Str != w.value {
			t.Errorf("item %d metadata %s", i, p.Metadata)
		}
	}
	if gjson.GetBytes(items[0].Content[0].Metadata, "metadata.file").Str != "notes.md" || gjson.GetBytes(items[1].Content[0].Metadata, "skill_id").Str != "skl_review" {
		t.Errorf("metadata %s %s", items[0].Content[0].Metadata, items[1].Content[0].Metadata)
	}
}

// TestV2Revert: 2.x's revert events are the 1.x revert point:
// revert.staged a reverted status item naming the message (and its
// item), staged again at the same point nothing, revert.cleared an
// unreverted item; revert.committed makes the revert final, unreported,
// so that a later staged revert to the same message is a new one.
func TestV2Revert(t *testing.T) {
	staged := func(id string) string {
		return v2Event(id, "session.revert.staged", `{"sessionID":"ses_a","revert":{"messageID":"inp_1","snapshot":"snap1","diff":"--- a"}}`)
	}
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.prompt.admitted", `{"sessionID":"ses_a","inputID":"inp_1","prompt":{"text":"hi"},"delivery":"steer"}`),
		v2Event("e2", "session.execution.succeeded", `{"sessionID":"ses_a"}`),
		staged("e3"), staged("e4"),
		v2Event("e5", "session.revert.cleared", `{"sessionID":"ses_a"}`),
		staged("e6"),
		v2Event("e7", "session.revert.committed", `{"sessionID":"ses_a","to":"inp_1"}`),
		v2Event("e8", "session.revert.cleared", `{"sessionID":"ses_a"}`),
		staged("e9"),
		v2Event("e10", "session.revert.staged", `{"sessionID":"ses_a","revert":{}}`),
	))
	var labels []string
	for _, it := range completed(events) {
		if it.Kind == universal.KindStatus {
			labels = append(labels, it.Content[0].Label)
		}
	}
	if got := strings.Join(labels, ","); got != "reverted,unreverted,reverted,reverted" {
		t.Errorf("status items %s", got)
	}
	var user universal.Item
	for _, it := range completed(events) {
		if it.Role == universal.RoleUser {
			user = it
		}
	}
	for _, it := range completed(events) {
		if it.Kind == universal.KindStatus && it.Content[0].Label == "reverted" {
			if md := it.Content[0].Metadata; gjson.GetBytes(md, "item_id").Str != user.ItemID || user.ItemID == "" || gjson.GetBytes(md, "snapshot").Str != "snap1" {
				t.Errorf("reverted %s (user item %q)", md, user.ItemID)
			}
		}
	}
	if u := golden.OfType(events, universal.TypeUnparsed); len(u) != 1 {
		t.Errorf("%d agent.unparsed, want 1 (the staged revert without messageID)", len(u))
	}
}

// TestV2Retried: the older 2.x session.retried {attempt, error: {message,
// …}} is a retry as session.retry.scheduled is: one error with
// will_retry per attempt; the session's rename, agent and model changes,
// move and fork are ignored, as 1.x does not report them.
func TestV2Retried(t *testing.T) {
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.retried", `{"sessionID":"ses_a","attempt":1,"error":{"message":"Overloaded","statusCode":529,"isRetryable":true}}`),
		v2Event("e2", "session.retried", `{"sessionID":"ses_a","attempt":1,"error":{"message":"Overloaded","isRetryable":true}}`),
		v2Event("e3", "session.renamed", `{"sessionID":"ses_a","title":"Parser fix"}`),
		v2Event("e4", "session.agent.selected", `{"sessionID":"ses_a","agent":"plan"}`),
		v2Event("e5", "session.model.selected", `{"sessionID":"ses_a","model":{"id":"m","providerID":"p"}}`),
		v2Event("e6", "session.moved", `{"sessionID":"ses_a","location":{"directory":"/w2"}}`),
		v2Event("e7", "session.forked", `{"sessionID":"ses_b","parentID":"ses_a","from":"msg_1"}`),
	))
	noUnparsed(t, events)
	errs := golden.OfType(events, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1", len(errs))
	}
	if e := errs[0].Data.(*universal.Error); e.Message != "Overloaded" || !e.WillRetry || e.Code != "retry" {
		t.Errorf("retry %+v", e)
	}
	// The rename is the session's new title; the rest makes no item.
	items := completed(events)
	if len(items) != 1 || items[0].Kind != universal.KindStatus || items[0].Content[0].Label != "title" || items[0].Content[0].Detail != "Parser fix" {
		t.Errorf("items %+v, want the title item only", items)
	}
}

// TestToolPartProviderMetadata: a tool part carries the provider's
// metadata of the call beside its state (OpenAI's function call item id,
// {"openai":{"itemId":"fc_…"}}), as a text or reasoning part does. It was
// dropped; now it is the tool_call part's metadata, in every format. The
// run --format json line is OpenCode 1.18.25's (a task call to a
// sub-agent; the prompt's long path and the result shortened), quoted in
// https://github.com/thixpin/pitway/blob/795c41141389c6d1fa199401f19c1f8e6c5c8d76/docs/evidence/M042/opencode.md;
// the OpenCode 1.2.5 exports in testdata/opencode/public carry the same
// shape (their goldens gain it).
func TestToolPartProviderMetadata(t *testing.T) {
	const sid = "ses_fb68f43cbffez3Xaw9gEKgxCaq"
	const part = `{"type":"tool","tool":"task","callID":"call_01a04970ef8872f1a027dca783ccd9ea","state":{"status":"completed","input":{"description":"create file","prompt":"Create the file general.txt containing exactly: hello general","subagent_type":"general","command":"create file general.txt"},"output":"<task id=\"ses_fb68f099affewgwx9iHa60K1ef\" state=\"completed\">\n<task_result>\nFile created.\n</task_result>\n</task>","metadata":{"parentSessionId":"` + sid + `","sessionId":"ses_fb68f099affewgwx9iHa60K1ef","model":{"modelID":"muse-spark-1.2-contributor-free","providerID":"opencode"},"truncated":false},"title":"create file","time":{"start":1787938535017,"end":1787938546534}},"metadata":{"openai":{"itemId":"fc_01a04970ef8872f1a027dca783ccd9ea"}},"id":"prt_04970f11c001ljKRPbL8PUNalt","sessionID":"` + sid + `","messageID":"msg_04970c307001nUYXN3ZrA1KcWf"}`
	runJSON := `{"type":"tool_use","timestamp":1787938546542,"sessionID":"` + sid + `","part":` + part + "}\n" +
		`{"type":"step_finish","timestamp":1787938546600,"sessionID":"` + sid + `","part":{"id":"prt_x","reason":"stop","messageID":"msg_04970c307001nUYXN3ZrA1KcWf","sessionID":"` + sid + `","type":"step-finish","tokens":{"total":10345,"input":9707,"output":162,"reasoning":299,"cache":{"write":0,"read":177}},"cost":0}}` + "\n"
	export := `{"info":{"id":"` + sid + `","version":"1.18.25"},"messages":[{"info":{"id":"msg_04970c307001nUYXN3ZrA1KcWf","sessionID":"` + sid + `","role":"assistant","time":{"created":1,"completed":3}},"parts":[` + part + `]}]}`
	for _, c := range []struct{ format, input string }{{opencode.FormatRunJSON, runJSON}, {opencode.FormatMessages, export}} {
		t.Run(c.format, func(t *testing.T) {
			var calls int
			for _, it := range golden.NewTranscript(run(t, c.format, c.input)).Items {
				if it.Kind != universal.KindToolCall {
					continue
				}
				calls++
				if got := string(it.Content[0].Metadata); got != `{"metadata":{"openai":{"itemId":"fc_01a04970ef8872f1a027dca783ccd9ea"}}}` {
					t.Errorf("tool_call metadata %s, want the part's provider metadata", got)
				}
			}
			if calls != 1 {
				t.Errorf("%d tool calls, want 1", calls)
			}
		})
	}
}

// TestShellMetadataOutput: a completed shell command's metadata.output
// repeats its output; the result keeps the output once, in the part, and
// the rest of the metadata. An output the metadata holds cut short stays
// there. A log that names the exit code exitCode is read as exit.
func TestShellMetadataOutput(t *testing.T) {
	bash := func(id, out, meta string) string {
		return runLine("tool_use", "msg_1", `{"id":"`+id+`","type":"tool","callID":"call_`+id+`","tool":"bash","state":{"status":"completed",`+
			`"input":{"command":"ls","description":"List"},"output":`+out+`,"title":"ls","metadata":`+meta+`,"time":{"start":1,"end":2}}}`)
	}
	events := run(t, opencode.FormatRunJSON,
		runLine("step_start", "msg_1", `{"id":"prt_s1","type":"step-start"}`)+
			bash("prt_a", `"a\nb\n"`, `{"output":"a\nb\n","description":"List","exit":0}`)+
			bash("prt_b", `"a\nb\nc\n"`, `{"output":"a\nb\n","description":"List","exitCode":3}`)+
			bash("prt_c", `"x\n"`, `{"output":"x\n"}`))
	noUnparsed(t, events)
	var results []universal.Part
	for _, it := range completed(events) {
		if it.Kind == universal.KindToolResult {
			results = append(results, it.Content[0])
		}
	}
	if len(results) != 3 {
		t.Fatalf("%d results: %s", len(results), golden.Encode(events))
	}
	for i, c := range []struct {
		output, metadata string
		failed           bool
	}{
		{"a\nb\n", `{"title":"ls","metadata":{"description":"List","exit":0},"exit_code":0}`, false},
		{"a\nb\nc\n", `{"title":"ls","metadata":{"output":"a\nb\n","description":"List","exitCode":3},"exit_code":3}`, true},
		{"x\n", `{"title":"ls"}`, false},
	} {
		if r := results[i]; r.Output != c.output || string(r.Metadata) != c.metadata || r.IsError != c.failed {
			t.Errorf("result %d: output %q, metadata %s, is_error %v; want %q, %s, %v", i, r.Output, r.Metadata, r.IsError, c.output, c.metadata, c.failed)
		}
	}
}

// TestV2Inbox: OpenCode 2.0.2x sends a prompt as session.inbox.enqueued
// {inboxID, item: {type: "user", payload: {text, files?}, delivery}} (the
// @opencode/client 2.0.21 SessionInboxEnqueued type) and names a tool call
// by data.id, not callID. The prompt is the user message (its text and
// file), the call a tool_call and its tool_result; a synthetic inbox item
// cancelled before its delivery, the inbox's delivery changed and
// cancelled, and session.step.streamed,
// session.message.content.updated and session.usage.recorded give
// nothing; an inbox item of an unknown type is reported unparsed.
func TestV2Inbox(t *testing.T) {
	m := `"sessionID":"ses_a","assistantMessageID":"msg_a2"`
	events := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.inbox.enqueued", `{"sessionID":"ses_a","inboxID":"msg_a1","item":{"type":"user","payload":{"text":"run ls","files":[{"data":"","mime":"text/plain","source":{"type":"uri","uri":"file:///w/a.txt"},"name":"a.txt"}]},"delivery":"queue"}}`),
		v2Event("e2", "session.inbox.delivered", `{"sessionID":"ses_a","inboxID":"msg_a1"}`),
		v2Event("e3", "session.execution.started", `{"sessionID":"ses_a"}`),
		v2Event("e4", "session.step.started", `{`+m+`,"agent":"build","model":{"id":"m","providerID":"p"},"started":1}`),
		v2Event("e5", "session.step.streamed", `{`+m+`}`),
		v2Event("e6", "session.tool.input.started", `{`+m+`,"id":"call_1","name":"bash"}`),
		v2Event("e7", "session.tool.called", `{`+m+`,"id":"call_1","input":{"command":"ls"},"executed":true}`),
		v2Event("e8", "session.tool.success", `{`+m+`,"id":"call_1","content":[{"type":"text","text":"a.txt\n"}],"executed":true}`),
		v2Event("e9", "session.message.content.updated", `{"sessionID":"ses_a","messageID":"msg_a2","content":[]}`),
		v2Event("e10", "session.step.ended", `{`+m+`,"finish":"stop","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		v2Event("e11", "session.usage.recorded", `{"sessionID":"ses_a","source":"title","cost":0,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		v2Event("e12", "session.inbox.enqueued", `{"sessionID":"ses_a","inboxID":"msg_a3","item":{"type":"synthetic","payload":{"text":"<shell>done</shell>"},"delivery":"queue"}}`),
		v2Event("e13", "session.inbox.delivery.changed", `{"sessionID":"ses_a","inboxID":"msg_a3","delivery":"steer"}`),
		v2Event("e14", "session.inbox.cancelled", `{"sessionID":"ses_a","inboxID":"msg_a3"}`),
		v2Event("e15", "session.execution.succeeded", `{"sessionID":"ses_a"}`),
	))
	noUnparsed(t, events)
	var user, call, result *universal.Item
	for _, it := range completed(events) {
		switch {
		case it.Kind == universal.KindMessage && it.Role == universal.RoleUser:
			user = &it
		case it.Kind == universal.KindToolCall:
			call = &it
		case it.Kind == universal.KindToolResult:
			result = &it
		}
	}
	if user == nil || len(user.Content) != 2 || user.Content[0].Text != "run ls" || user.Content[1].Type != universal.PartFileRef {
		t.Fatalf("user message %+v, want the inbox item's text and file", user)
	}
	if call == nil || call.Content[0].Name != "bash" || call.Content[0].CallID != "call_1" || call.Content[0].Arguments != `{"command":"ls"}` {
		t.Fatalf("tool call %+v, want bash call_1 {command: ls}", call)
	}
	if result == nil || result.Content[0].Output != "a.txt\n" {
		t.Fatalf("tool result %+v, want a.txt", result)
	}
	bad := run(t, opencode.FormatSSE, sse(
		v2Event("e1", "session.inbox.enqueued", `{"sessionID":"ses_a","inboxID":"msg_a1","item":{"type":"hologram","payload":{},"delivery":"queue"}}`),
	))
	n := 0
	for _, e := range bad {
		if e.Type == universal.TypeUnparsed {
			n++
		}
	}
	if n != 1 {
		t.Errorf("an inbox item of an unknown type: %d unparsed events, want 1", n)
	}
}

// TestEventLinesAsSSE: the payloads of a recorded event stream (any of
// the three endpoints), one a line, are detected as event-lines and
// translate as the stream does.
func TestEventLinesAsSSE(t *testing.T) {
	var files []string
	for _, dir := range []string{"1.18.33", "public", "handmade"} {
		f, err := filepath.Glob(filepath.Join("../testdata/opencode", dir, "*.sse"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f...)
	}
	if len(files) < 20 {
		t.Fatalf("%d event streams", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(b), universal.FrameSSE, 0)) {
				if err != nil {
					t.Fatal(err)
				}
				if m.Err != nil || bytes.ContainsAny(m.Data, "\r\n") {
					t.Skipf("message %d is not one line of JSON", m.Line)
				}
				lines = append(lines, string(m.Data))
			}
			in := strings.Join(lines, "\n") + "\n"
			if got := opencode.Detect([]byte(in)); got != opencode.FormatEventLines {
				t.Errorf("detected %q", got)
			}
			a := golden.Encode(run(t, opencode.FormatSSE, string(b)))
			l := golden.Encode(run(t, opencode.FormatEventLines, in))
			if !bytes.Equal(a, l) {
				t.Errorf("sse and event-lines differ:\n%s\n---\n%s", a, l)
			}
		})
	}
}
