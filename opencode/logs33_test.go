package opencode_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// T3 Code's provider replay transcripts of OpenCode (its OpenCode
// client's log: a transcript_start header, the host's SDK calls as
// expect_outbound records, the events it received and what its calls
// returned as emit_inbound records, {frame: {type: sdk.event, event}} and
// {frame: {type: sdk.response, operation, data}}). The 1.x lines are
// those of T3 Code's recording of OpenCode 1.14.39
// (testdata/opencode/public/t3code-v1.14.39-*.exchange.jsonl), texts
// shortened; the 2.x lines are in the shapes of its opencode2 fixtures.
// Before, such a transcript was not detected, and read as event-lines
// every line was agent.unparsed ("unknown event type"): the session, its
// prompts, answers, tool calls, sub-agent and questions were lost.
const (
	t3Header  = `{"type":"transcript_start","provider":"opencode","protocol":"opencode-sdk.sse","version":"1.14.39","scenario":"opencode_subagent","metadata":{"source":"authenticated-opencode-sdk-probe"}}`
	t3Sub     = `{"type":"expect_outbound","label":"event.subscribe","frame":{"type":"event.subscribe"}}`
	t3Create  = `{"type":"expect_outbound","label":"session.create","frame":{"type":"session.create","input":{"title":"<any>","permission":"<any>"}}}`
	t3Created = `{"type":"emit_inbound","label":"session.created","frame":{"type":"sdk.response","operation":"session.create","data":{"id":"ses_1235df8f8ffekByXP7gVnnXA3P","slug":"kind-tiger","version":"1.14.39","projectID":"global","directory":"/private/tmp/t3-opencode-probe","path":"private/tmp/t3-opencode-probe","title":"T3 OpenCode v2 probe","time":{"created":1781818066695,"updated":1781818066695}}}}`
	t3Prompt  = `{"type":"expect_outbound","label":"session.promptAsync","frame":{"type":"session.promptAsync","input":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","agent":"build","parts":[{"type":"text","text":"Use the task tool exactly once."}],"messageID":"msg_edca20735001Esh39V762TEx7f"}}}`
	t3Null    = `{"type":"emit_inbound","label":"session.promptAsync.response","frame":{"type":"sdk.response","operation":"session.promptAsync","data":null}}`
	t3User    = `{"type":"emit_inbound","label":"root.user","frame":{"type":"sdk.event","event":{"id":"evt_edca20735003a32yj1UtyUpHkU","type":"message.updated","properties":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","info":{"id":"msg_edca20735001Esh39V762TEx7f","role":"user","sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","time":{"created":1781818066741},"agent":"build","model":{"providerID":"openai","modelID":"gpt-5.4-mini"}}}}}}`
	t3UserTxt = `{"type":"emit_inbound","label":"root.user.text","frame":{"type":"sdk.event","event":{"id":"evt_edca207360015UIWeYXmKllHo3","type":"message.part.updated","properties":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","part":{"type":"text","text":"Use the task tool exactly once.","messageID":"msg_edca20735001Esh39V762TEx7f","sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","id":"prt_edca20735002U603TIFRMOYd9M"},"time":1781818066742}}}}`
	t3Asst    = `{"type":"emit_inbound","label":"root.assistant.final-step","frame":{"type":"sdk.event","event":{"id":"evt_edca21a5f004jTKIwlcQchMbZY","type":"message.updated","properties":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","info":{"id":"msg_edca21a5f003lreMfrQqG0qWIe","parentID":"msg_edca20735001Esh39V762TEx7f","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/private/tmp/t3-opencode-probe","root":"/"},"cost":0,"tokens":{"input":0,"output":0,"reasoning":0,"cache":{"read":0,"write":0}},"modelID":"gpt-5.4-mini","providerID":"openai","time":{"created":1781818071647},"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P"}}}}}`
	t3AsstTxt = `{"type":"emit_inbound","label":"root.assistant.text","frame":{"type":"sdk.event","event":{"id":"evt_edca21e36001X0l8t5UPa1gOe3","type":"message.part.updated","properties":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","part":{"id":"prt_edca21d9e001I40GbbzvlzhQ6Z","messageID":"msg_edca21a5f003lreMfrQqG0qWIe","sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","type":"text","text":"PARENT_OK","time":{"start":1781818072478,"end":1781818072630}},"time":1781818072630}}}}`
	t3Done    = `{"type":"emit_inbound","label":"root.assistant.completed","frame":{"type":"sdk.event","event":{"id":"evt_edca21e3800181OyYIBTDTTK3r","type":"message.updated","properties":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","info":{"id":"msg_edca21a5f003lreMfrQqG0qWIe","parentID":"msg_edca20735001Esh39V762TEx7f","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/private/tmp/t3-opencode-probe","root":"/"},"cost":0,"tokens":{"total":11007,"input":248,"output":7,"reasoning":0,"cache":{"write":0,"read":10752}},"modelID":"gpt-5.4-mini","providerID":"openai","time":{"created":1781818071647,"completed":1781818072632},"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","finish":"stop"}}}}}`
	t3Idle    = `{"type":"emit_inbound","label":"root.idle","frame":{"type":"sdk.event","event":{"id":"evt_edca21e39001lo71BB2Ym4WFC2","type":"session.status","properties":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","status":{"type":"idle"}}}}}`
	t3Exit    = `{"type":"runtime_exit","status":"success"}`
	t3Abort   = `{"type":"expect_outbound","label":"teardown.root.abort","frame":{"type":"session.abort","input":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P"}}}`
	t3Aborted = `{"type":"emit_inbound","label":"teardown.root.abort.response","frame":{"type":"sdk.response","operation":"session.abort","data":true}}`
	t3Child   = `{"type":"emit_inbound","label":"teardown.root.children.response","frame":{"type":"sdk.response","operation":"session.children","data":[{"id":"ses_1235debc9ffe9MNk00UheV2j0q"}]}}`
)

// TestReplayTranscriptDetect: a provider replay transcript of OpenCode
// is event-lines, told by its header's protocol or, without one, by its
// OpenCode client's frames; another agent's transcript is not OpenCode's.
func TestReplayTranscriptDetect(t *testing.T) {
	for _, c := range []struct {
		name, head, want string
	}{
		{"1.x header", lines(t3Header, t3Sub, t3Create), opencode.FormatEventLines},
		{"2.x header", lines(`{"type":"transcript_start","provider":"opencode2","protocol":"opencode2-sdk.sse","version":"0.0.0-next-16383","scenario":"multi_turn"}`, t3Sub), opencode.FormatEventLines},
		{"no header: the host subscribes", lines(t3Sub, t3Create), opencode.FormatEventLines},
		{"no header: an event", lines(t3User), opencode.FormatEventLines},
		{"no header: a response", lines(t3Created), opencode.FormatEventLines},
		{"the exit record first", lines(t3Exit, t3Abort, t3Aborted), opencode.FormatEventLines},
		{"the header cut", t3Header[:60], ""},
		{"Pi's transcript", lines(`{"type":"transcript_start","provider":"pi","protocol":"pi.rpc-jsonl","version":"1.0.0","scenario":"multi_turn"}`, `{"type":"expect_outbound","frame":{"type":"get_state","id":"1"}}`), ""},
		{"Codex's transcript", lines(`{"type":"transcript_start","provider":"codex","protocol":"codex.app-server.jsonrpc","version":"0.157.0","scenario":"x"}`, `{"type":"expect_outbound","frame":{"id":1,"method":"initialize","params":{}}}`), ""},
		{"no header: the Agent SDK's fork", lines(`{"type":"expect_outbound","frame":{"type":"session.fork","sessionId":"s"}}`), ""},
		{"no header: JSON-RPC", lines(`{"type":"emit_inbound","frame":{"jsonrpc":"2.0","method":"session/update","params":{}}}`), ""},
	} {
		if got := opencode.Detect([]byte(c.head)); got != c.want {
			t.Errorf("%s: detected %q, want %q", c.name, got, c.want)
		}
	}
}

// TestReplayTranscript: the events a replay transcript's frames carry are
// read as bare ones, the session the host created starts the session
// with its metadata, a sub-agent's session the host looked up links it to
// its parent; the host's calls, the other responses and the recorder's
// records give nothing, and a frame of no known type is agent.unparsed
// with its line.
func TestReplayTranscript(t *testing.T) {
	events := run(t, opencode.FormatEventLines, lines(
		t3Header, t3Sub, t3Create, t3Created, t3Prompt, t3Null,
		t3User, t3UserTxt, t3Asst, t3AsstTxt, t3Done, t3Idle,
		t3Exit, t3Abort, t3Aborted, t3Child,
	))
	noUnparsed(t, events)
	ss := golden.OfType(events, universal.TypeSessionStarted)
	if len(ss) != 1 {
		t.Fatalf("%d session.started", len(ss))
	}
	for _, want := range []string{`"agent_version":"1.14.39"`, `"cwd":"/private/tmp/t3-opencode-probe"`, `"title":"T3 OpenCode v2 probe"`, `"slug":"kind-tiger"`} {
		if md := string(ss[0].Data.(*universal.SessionStarted).Metadata); !strings.Contains(md, want) {
			t.Errorf("session.started metadata %s, want %s", md, want)
		}
	}
	if ss[0].NativeSessionID != "ses_1235df8f8ffekByXP7gVnnXA3P" {
		t.Errorf("native session %q", ss[0].NativeSessionID)
	}
	var got []string
	for _, it := range completed(events) {
		for _, p := range it.Content {
			got = append(got, string(it.Role)+": "+p.Text)
		}
	}
	if want := []string{"user: Use the task tool exactly once.", "assistant: PARENT_OK"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("items %q, want %q", got, want)
	}
	if ends := golden.OfType(events, universal.TypeTurnEnded); len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnCompleted {
		t.Errorf("turn ends %s", golden.Encode(ends))
	}

	// A sub-agent's session the host looked up before its events come
	// (a child's permission can come before the task part that names the
	// child): its messages are the sub-agent's, not another session's.
	const child = `"sessionID":"ses_1235debc9ffe9MNk00UheV2j0q"`
	get := `{"type":"emit_inbound","label":"session.get.request-owner.response","frame":{"type":"sdk.response","operation":"session.get","data":{"id":"ses_1235debc9ffe9MNk00UheV2j0q","slug":"tidy-engine","projectID":"global","directory":"/private/tmp/t3-opencode-probe","parentID":"ses_1235df8f8ffekByXP7gVnnXA3P","title":"Return CHILD_OK (@general subagent)","version":"1.14.39","time":{"created":1781818070070,"updated":1781818070072}}}}`
	childAnswer := func(withGet bool) bool {
		in := []string{t3Header, t3Created, t3User, t3UserTxt,
			`{"type":"emit_inbound","label":"root.assistant.tool-step","frame":{"type":"sdk.event","event":{"id":"evt_1","type":"message.updated","properties":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","info":{"id":"msg_a1","parentID":"msg_edca20735001Esh39V762TEx7f","role":"assistant","sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","time":{"created":1781818066744}}}}}}`}
		if withGet {
			in = append(in, get)
		}
		in = append(in,
			`{"type":"emit_inbound","label":"child.assistant","frame":{"type":"sdk.event","event":{"id":"evt_2","type":"message.updated","properties":{`+child+`,"info":{"id":"msg_c1","role":"assistant",`+child+`,"time":{"created":1781818070076}}}}}}`,
			`{"type":"emit_inbound","label":"child.assistant.text","frame":{"type":"sdk.event","event":{"id":"evt_3","type":"message.part.updated","properties":{`+child+`,"part":{"id":"prt_c1","messageID":"msg_c1",`+child+`,"type":"text","text":"CHILD_OK","time":{"start":1781818071586,"end":1781818071615}}}}}}`,
		)
		sub := run(t, opencode.FormatEventLines, lines(in...))
		noUnparsed(t, sub)
		for _, it := range completed(sub) {
			if len(it.Content) == 1 && it.Content[0].Text == "CHILD_OK" {
				return true
			}
		}
		return false
	}
	if !childAnswer(true) {
		t.Error("the sub-agent's answer is missing")
	}
	if childAnswer(false) {
		t.Error("an unlinked session's answer is the session's")
	}

	// 2.x: the session's directory is its location's.
	v2 := run(t, opencode.FormatEventLines, lines(
		`{"type":"transcript_start","provider":"opencode2","protocol":"opencode2-sdk.sse","version":"0.0.0-next-16383","scenario":"multi_turn"}`,
		`{"type":"emit_inbound","label":"session.create.response","frame":{"type":"sdk.response","operation":"session.create","data":{"id":"ses_opencode2_multi_turn","projectID":"global","model":{"id":"big-pickle","providerID":"opencode"},"time":{"created":1785297600000,"updated":1785297600000},"title":"T3 OpenCode 2 multi-turn replay","location":{"directory":"/w"}}}}`,
	))
	noUnparsed(t, v2)
	if ss := golden.OfType(v2, universal.TypeSessionStarted); len(ss) != 1 || !strings.Contains(string(ss[0].Data.(*universal.SessionStarted).Metadata), `"cwd":"/w"`) {
		t.Errorf("2.x session.started %s", golden.Encode(ss))
	}

	// Frames of no known type, and a record without one, are reported.
	bad := run(t, opencode.FormatEventLines, lines(
		t3Header, t3Created,
		`{"type":"emit_inbound","label":"x","frame":{"type":"sdk.error","error":"enumeration unavailable"}}`,
		`{"type":"emit_inbound","label":"y"}`,
		`{"type":"emit_inbound","label":"z","frame":{"type":"sdk.event","event":"not an object"}}`,
	))
	var where []string
	for _, e := range golden.OfType(bad, universal.TypeUnparsed) {
		u := e.Data.(*universal.Unparsed)
		where = append(where, u.Location+": "+u.Error)
	}
	want := []string{
		`opencode: line 3: unknown frame type "sdk.error"`,
		"opencode: line 4: replay record without a frame",
		"opencode: line 5: sdk.event frame without an event",
	}
	if strings.Join(where, "|") != strings.Join(want, "|") {
		t.Errorf("unparsed %q, want %q", where, want)
	}
}

// lines joins JSON lines into NDJSON.
func lines(l ...string) string { return strings.Join(l, "\n") + "\n" }

// TestTaggedExecutionError: an OpenCode 2.x build (0.0.0-next-16916, as
// T3 Code's opencode2_authorization_failure fixture, derived from a live
// run, shows it) publishes session.execution.failed's error as its core's
// tagged error, {_tag, message}, with neither name nor type. The error
// had no code; the tag is its code now. Lines in that fixture's shapes,
// ids and texts ours.
func TestTaggedExecutionError(t *testing.T) {
	const sid = `"sessionID":"ses_tag1"`
	events := run(t, opencode.FormatEventLines, lines(
		`{"type":"session.input.admitted","data":{`+sid+`,"inputID":"in_1","input":{"type":"user","data":{"text":"go"},"delivery":"steer"}}}`,
		`{"type":"session.execution.started","data":{`+sid+`}}`,
		`{"type":"session.execution.failed","data":{`+sid+`,"error":{"_tag":"Integration.Authorization","message":"Request failed: 401"}}}`,
	))
	noUnparsed(t, events)
	errs := golden.OfType(events, universal.TypeError)
	if len(errs) != 1 {
		t.Fatalf("%d errors: %s", len(errs), golden.Encode(events))
	}
	if e := errs[0].Data.(*universal.Error); e.Code != "Integration.Authorization" || e.Message != "Request failed: 401" {
		t.Errorf("error code %q, message %q", e.Code, e.Message)
	}
	if ends := golden.OfType(events, universal.TypeTurnEnded); len(ends) != 1 || ends[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn ends %s", golden.Encode(ends))
	}
}

// TestReplayTranscriptHostPrompt: a replay transcript whose events hold a
// user message but none of its parts (T3 Code's 1.14.39 recording
// "simple": the recorder kept the message.updated, not the text part)
// shows the prompt's text only in the host's session.promptAsync call,
// {input: {messageID, parts}}. The user message completed empty; its text
// is now the call's. When the events give the message its text part, the
// call's text is not added again.
func TestReplayTranscriptHostPrompt(t *testing.T) {
	userTexts := func(in ...string) []string {
		events := run(t, opencode.FormatEventLines, lines(in...))
		noUnparsed(t, events)
		var got []string
		for _, it := range completed(events) {
			if it.Role != universal.RoleUser {
				continue
			}
			for _, p := range it.Content {
				got = append(got, p.Text)
			}
		}
		return got
	}
	// The call's text, a synthetic part (OpenCode's own) left out.
	prompt := `{"type":"expect_outbound","label":"session.promptAsync","frame":{"type":"session.promptAsync","input":{"sessionID":"ses_1235df8f8ffekByXP7gVnnXA3P","agent":"build","parts":[{"type":"text","text":"Use the task tool exactly once."},{"type":"text","text":"(context)","synthetic":true}],"messageID":"msg_edca20735001Esh39V762TEx7f"}}}`
	if got := userTexts(t3Header, t3Created, prompt, t3Null, t3User, t3Asst, t3AsstTxt, t3Done, t3Idle); strings.Join(got, "|") != "Use the task tool exactly once." {
		t.Errorf("without the user's text part: %q", got)
	}
	if got := userTexts(t3Header, t3Created, prompt, t3Null, t3User, t3UserTxt, t3Asst, t3AsstTxt, t3Done, t3Idle); strings.Join(got, "|") != "Use the task tool exactly once." {
		t.Errorf("with the user's text part: %q", got)
	}
	// A call that names another message, or none, gives nothing.
	other := strings.Replace(prompt, "msg_edca20735001Esh39V762TEx7f", "msg_other", 1)
	none := strings.Replace(prompt, `,"messageID":"msg_edca20735001Esh39V762TEx7f"`, "", 1)
	if got := userTexts(t3Header, t3Created, other, none, t3User, t3Asst, t3AsstTxt, t3Done, t3Idle); len(got) != 0 {
		t.Errorf("another message's prompt: %q", got)
	}
}
