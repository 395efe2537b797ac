package opencode_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// v2 is a 2.x /api/event envelope of type typ with a location, its id
// made of its type and data (ids are unique: a repeated one is a replay).
func v2(typ, dir, data string) string {
	id := fmt.Sprintf("evt_%x", sha256.Sum256([]byte(typ+data)))
	return `{"id":"` + id + `","created":1,"type":"` + typ + `","location":{"directory":"` + dir + `"},"data":` + data + `}`
}

// TestV2LocationCwd: a 2.x stream joined after its session.created (as
// kimaki's shell-background recording is) started the session with no
// cwd and resolved no relative tool path, though every envelope names
// the directory of the instance that published it. A session event's
// location is now the session's directory (session.started metadata cwd,
// and the cwd of its tools); a project event's location (another
// directory: kimaki's worktree recording) is not.
func TestV2LocationCwd(t *testing.T) {
	const sid, msg = "ses_1", "msg_2"
	evs := run(t, opencode.FormatSSE, sse(
		v2("integration.updated", "/elsewhere", `{}`),
		v2("session.step.started", "/work/wt", `{"sessionID":"`+sid+`","agent":"build","model":{"id":"m1","providerID":"p1","variant":"high"},"assistantMessageID":"`+msg+`"}`),
		v2("session.tool.input.started", "/work/wt", `{"sessionID":"`+sid+`","assistantMessageID":"`+msg+`","callID":"c1","name":"read"}`),
		v2("session.tool.called", "/work/wt", `{"sessionID":"`+sid+`","assistantMessageID":"`+msg+`","callID":"c1","tool":"read","input":{"filePath":"notes.md"}}`),
		v2("session.tool.success", "/work/wt", `{"sessionID":"`+sid+`","assistantMessageID":"`+msg+`","callID":"c1","content":[{"type":"text","text":"hi"}]}`),
		v2("session.step.ended", "/work/wt", `{"sessionID":"`+sid+`","assistantMessageID":"`+msg+`","finish":"stop","cost":0.5,"tokens":{"input":3,"output":2,"reasoning":0,"cache":{"read":0,"write":0}}}`),
	))
	noUnparsed(t, evs)
	st := golden.OfType(evs, universal.TypeSessionStarted)[0]
	if cwd := gjson.GetBytes(st.Data.(*universal.SessionStarted).Metadata, "cwd").Str; cwd != "/work/wt" {
		t.Errorf("session.started cwd %q, want /work/wt", cwd)
	}
	if st.NativeSessionID != sid {
		t.Errorf("session.started native id %v, want %s", st.NativeSessionID, sid)
	}
	var paths []string
	for _, it := range completed(evs) {
		if it.Kind == universal.KindToolCall && it.Content[0].ToolInput != nil {
			paths = append(paths, it.Content[0].ToolInput.Paths...)
		}
	}
	if strings.Join(paths, " ") != "/work/wt/notes.md" {
		t.Errorf("tool paths %q, want [/work/wt/notes.md]", paths)
	}
}

// TestV2LocationOtherSessionFirst: the location reading (see
// TestV2LocationCwd) selected the session of any session.* event while
// none was followed, so on a server with several sessions a rename,
// finished run, deletion or usage update of another session, arriving
// first, became the followed session (with that session's directory),
// and the session doing the work was dropped. Only the events that start
// work select the session, as without locations; the location of the
// followed session's first event is still its cwd.
func TestV2LocationOtherSessionFirst(t *testing.T) {
	const sid, msg = "ses_1", "msg_2"
	other := map[string]string{
		"session.renamed":               `{"sessionID":"ses_old","title":"Old chat"}`,
		"session.execution.succeeded":   `{"sessionID":"ses_old"}`,
		"session.execution.interrupted": `{"sessionID":"ses_old","reason":"user"}`,
		"session.idle":                  `{"sessionID":"ses_old"}`,
		"session.deleted":               `{"sessionID":"ses_old","info":{"id":"ses_old","directory":"/other"}}`,
		"session.updated":               `{"sessionID":"ses_old","info":{"id":"ses_old","directory":"/other","title":"Old chat"}}`,
		"session.revert.cleared":        `{"sessionID":"ses_old"}`,
	}
	for typ, data := range other {
		evs := run(t, opencode.FormatSSE, sse(
			v2(typ, "/other", data),
			v2("session.step.started", "/work/wt", `{"sessionID":"`+sid+`","agent":"build","model":{"id":"m1","providerID":"p1"},"assistantMessageID":"`+msg+`"}`),
			v2("session.text.started", "/work/wt", `{"sessionID":"`+sid+`","assistantMessageID":"`+msg+`","textID":"t1"}`),
			v2("session.text.ended", "/work/wt", `{"sessionID":"`+sid+`","assistantMessageID":"`+msg+`","textID":"t1","text":"Done"}`),
			v2("session.step.ended", "/work/wt", `{"sessionID":"`+sid+`","assistantMessageID":"`+msg+`","finish":"stop","cost":0.5,"tokens":{"input":3,"output":2,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		))
		st := golden.OfType(evs, universal.TypeSessionStarted)
		if len(st) != 1 {
			t.Fatalf("%s first: %d session.started\n%s", typ, len(st), golden.Encode(evs))
		}
		if st[0].NativeSessionID != sid {
			t.Errorf("%s first: session.started native id %v, want %s", typ, st[0].NativeSessionID, sid)
		}
		if md := string(st[0].Data.(*universal.SessionStarted).Metadata); md != `{"agent":"opencode","cwd":"/work/wt"}` {
			t.Errorf("%s first: session.started metadata %s", typ, md)
		}
		if n := len(golden.OfType(evs, universal.TypeUsageUpdated)); n != 1 {
			t.Errorf("%s first: %d usage events, want 1", typ, n)
		}
		var text []string
		for _, it := range completed(evs) {
			if it.Kind == universal.KindMessage {
				text = append(text, it.Content[0].Text)
			}
		}
		if strings.Join(text, "|") != "Done" {
			t.Errorf("%s first: assistant text %q, want [Done]\n%s", typ, text, golden.Encode(evs))
		}
	}
	// The session's own event before the one that selects it, which has
	// no location (kimaki's shell-background recording), still gives it.
	evs := run(t, opencode.FormatSSE, sse(
		v2("session.idle", "/other", `{"sessionID":"ses_old"}`),
		v2("session.inbox.enqueued", "/work/wt", `{"sessionID":"`+sid+`","inboxID":"in_1","item":{"type":"user","payload":{"text":"hi"},"delivery":"steer"}}`),
		`{"id":"evt_x","type":"session.execution.started","data":{"sessionID":"`+sid+`"}}`,
	))
	noUnparsed(t, evs)
	st := golden.OfType(evs, universal.TypeSessionStarted)
	if len(st) != 1 || st[0].NativeSessionID != sid || string(st[0].Data.(*universal.SessionStarted).Metadata) != `{"agent":"opencode","cwd":"/work/wt"}` {
		t.Errorf("selected without a location:\n%s", golden.Encode(evs))
	}
}

// TestModelVariant: the variant of the model that answered (1.2+ message
// info's variant, 2.x session.step.started's model.variant: the
// reasoning effort) was dropped; it is the call usage's metadata
// model_variant, as session.started's model_variant is the session's.
func TestModelVariant(t *testing.T) {
	const sid, msg = "ses_1", "msg_2"
	for name, input := range map[string]string{
		"2.x": sse(
			v2("session.step.started", "/w", `{"sessionID":"`+sid+`","agent":"build","model":{"id":"m1","providerID":"p1","variant":"high"},"assistantMessageID":"`+msg+`"}`),
			v2("session.step.ended", "/w", `{"sessionID":"`+sid+`","assistantMessageID":"`+msg+`","finish":"stop","cost":0.5,"tokens":{"input":3,"output":2,"reasoning":0,"cache":{"read":0,"write":0}}}`),
		),
		"1.x": sse(
			`{"type":"message.updated","properties":{"info":{"id":"` + msg + `","sessionID":"` + sid + `","role":"assistant","modelID":"m1","providerID":"p1","variant":"high","time":{"created":1,"completed":2},"cost":0.5,"tokens":{"input":3,"output":2,"reasoning":0,"cache":{"read":0,"write":0}}}}}`,
		),
	} {
		evs := run(t, opencode.FormatSSE, input)
		noUnparsed(t, evs)
		us := golden.OfType(evs, universal.TypeUsageUpdated)
		if len(us) != 1 {
			t.Fatalf("%s: %d usage events, want 1\n%s", name, len(us), golden.Encode(evs))
		}
		if md := string(us[0].Data.(*universal.UsageUpdated).Metadata); md != `{"model":"m1","provider":"p1","model_variant":"high"}` {
			t.Errorf("%s: usage metadata %s", name, md)
		}
	}
}

// TestV2ReasoningOutsideOutput: 2.x step tokens carry no total, which the
// usage reader took for an old build that counted reasoning inside
// output, so a 2.x call's output_tokens lacked its reasoning (kimaki's
// 2.0.19 queue-parked recording even reported output 7 with reasoning 9).
// 2.x counts reasoning outside output: the lines below are OpenCode
// 2.0.25's, captured live by a public project's probe against a mock
// whose reply had 7 completion tokens, 2 of them reasoning, and a total
// of 18 (quoted in its Rust tests; the index does not name the
// repository). Output is 7, the total 18.
func TestV2ReasoningOutsideOutput(t *testing.T) {
	evs := run(t, opencode.FormatSSE, sse(
		`{"id":"evt_120b687c5001t3MnkkQSLnoAHn","created":1791550195653,"type":"session.step.started","location":{"directory":"C:\\repo"},"data":{"sessionID":"ses_probe","agent":"studio","model":{"id":"probe-model","providerID":"probe-local","variant":"default"},"assistantMessageID":"msg_probe","snapshot":"058b29aec9aa122b03714e62ae183452da65a769","started":1791550195645},"durable":{"aggregateID":"ses_probe","seq":6,"version":1}}`,
		`{"id":"evt_120b6880b001XAe258QI2G7yGa","created":1791550195723,"type":"session.step.ended","location":{"directory":"C:\\repo"},"data":{"sessionID":"ses_probe","assistantMessageID":"msg_probe","finish":"stop","rawFinish":"stop","cost":0,"tokens":{"input":8,"output":5,"reasoning":2,"cache":{"read":3,"write":0}},"snapshot":"058b29aec9aa122b03714e62ae183452da65a769","files":[]},"durable":{"aggregateID":"ses_probe","seq":10,"version":1}}`,
	))
	noUnparsed(t, evs)
	us := golden.OfType(evs, universal.TypeUsageUpdated)
	if len(us) != 1 {
		t.Fatalf("%d usage events, want 1", len(us))
	}
	u := us[0].Data.(*universal.UsageUpdated)
	if got := fmt.Sprint(*u.Usage.InputTokens, *u.Usage.CachedInputTokens, *u.Usage.OutputTokens, *u.Usage.ReasoningTokens, *u.Usage.TotalTokens); got != "11 3 7 2 18" {
		t.Errorf("input, cached, output, reasoning, total = %s, want 11 3 7 2 18", got)
	}
	if md := string(u.Metadata); md != `{"model":"probe-model","provider":"probe-local","model_variant":"default"}` {
		t.Errorf("usage metadata %s", md)
	}
	if cwd := gjson.GetBytes(golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata, "cwd").Str; cwd != `C:\repo` {
		t.Errorf("cwd %q, want C:\\repo", cwd)
	}
}

// TestV2LocationCheckpoint: the location noted for a session not yet
// followed (see TestV2LocationOtherSessionFirst) is in the checkpoint, so
// a translator restored before the session is chosen still gives its
// directory; a checkpoint with half of it, or with it kept once a session
// is followed, is refused.
func TestV2LocationCheckpoint(t *testing.T) {
	const sid = "ses_1"
	translate := func(tr *opencode.Translator, out []universal.Event, events ...string) []universal.Event {
		for m, err := range universal.Messages(universal.NewReader(strings.NewReader(sse(events...)), framing(opencode.FormatSSE), 0)) {
			if err != nil {
				t.Fatal(err)
			}
			out = tr.Translate(out, m)
		}
		return out
	}
	tr, err := opencode.New(opencode.FormatSSE, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	out := translate(tr, nil,
		v2("session.idle", "/other", `{"sessionID":"ses_old"}`),
		v2("session.inbox.enqueued", "/work/wt", `{"sessionID":"`+sid+`","inboxID":"in_1","item":{"type":"user","payload":{"text":"hi"},"delivery":"steer"}}`),
	)
	cp, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := opencode.New(opencode.FormatSSE, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.Restore(cp); err != nil {
		t.Fatal(err)
	}
	out = translate(fresh, out, `{"id":"evt_x","type":"session.execution.started","data":{"sessionID":"`+sid+`"}}`)
	st := golden.OfType(out, universal.TypeSessionStarted)
	if len(st) != 1 || string(st[0].Data.(*universal.SessionStarted).Metadata) != `{"agent":"opencode","cwd":"/work/wt"}` {
		t.Errorf("restored before the session was chosen:\n%s", golden.Encode(out))
	}
	for name, edit := range map[string]func(map[string]any){
		"no directory":   func(st map[string]any) { delete(st, "where_dir") },
		"session chosen": func(st map[string]any) { st["session"] = sid },
	} {
		bad, ok := golden.EditState(t, cp, func(st map[string]any) bool { edit(st); return true })
		if !ok {
			t.Fatalf("%s: state not edited", name)
		}
		tr, _ := opencode.New(opencode.FormatSSE, golden.Options())
		if err := tr.Restore(bad); !errors.Is(err, universal.ErrCheckpoint) {
			t.Errorf("%s: restore gives %v, want an ErrCheckpoint", name, err)
		}
	}
}
