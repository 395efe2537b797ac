package amp_test

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// run translates lines of stream-json (or, for the thread format, one
// document) given as messages, then the end report, and checks the
// stream.
func run(t *testing.T, format string, msgs []universal.Message, end universal.Report, before ...universal.Report) []universal.Event {
	t.Helper()
	tr, err := amp.New(format, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	for _, r := range before {
		out = tr.Report(out, r)
	}
	for i, m := range msgs {
		if m.Line == 0 {
			m.Line = int64(i + 1)
		}
		out = tr.Translate(out, m)
	}
	if end == nil {
		end = universal.EndOfInput{}
	}
	out = tr.Report(out, end)
	if err := universal.CheckStream(out); err != nil {
		t.Errorf("stream checker: %v", err)
	}
	return out
}

func lines(ls ...string) []universal.Message {
	msgs := make([]universal.Message, len(ls))
	for i, l := range ls {
		msgs[i] = universal.Message{Data: []byte(l)}
	}
	return msgs
}

func userMessages(events []universal.Event) []universal.Item {
	var out []universal.Item
	for _, it := range golden.NewTranscript(events).Items {
		if it.Kind == universal.KindMessage && it.Role == universal.RoleUser {
			out = append(out, it)
		}
	}
	return out
}

func ended(t *testing.T, events []universal.Event) *universal.SessionEnded {
	t.Helper()
	d, ok := events[len(events)-1].Data.(*universal.SessionEnded)
	if !ok {
		t.Fatalf("last event is %s", events[len(events)-1].Type)
	}
	return d
}

const (
	initLine   = `{"type":"system","subtype":"init","cwd":"/w","session_id":"T-1","tools":["Bash"],"mcp_servers":[]}`
	echoLine   = `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null,"session_id":"T-1"}`
	answerLine = `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"text","text":"hello"}],"stop_reason":"end_turn"},"parent_tool_use_id":null,"session_id":"T-1"}`
	okResult   = `{"type":"result","subtype":"success","duration_ms":5,"is_error":false,"num_turns":1,"result":"hello","session_id":"T-1"}`
)

func TestPromptEchoedOnce(t *testing.T) {
	for name, before := range map[string][]universal.Report{
		"reported before": {universal.Prompt{Text: "hi"}},
		"not reported":    nil,
	} {
		t.Run(name, func(t *testing.T) {
			out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answerLine, okResult), nil, before...)
			users := userMessages(out)
			if len(users) != 1 || golden.TextOf(&users[0]) != "hi" || string(users[0].Content[0].Metadata) != `{"echo":true}` {
				t.Fatalf("user messages %+v, want the echo once, marked", users)
			}
		})
	}
	t.Run("reported after the echo", func(t *testing.T) {
		tr, _ := amp.New(amp.FormatStreamJSON, golden.Options())
		var out []universal.Event
		for _, m := range lines(initLine, echoLine) {
			out = tr.Translate(out, m)
		}
		out = tr.Report(out, universal.Prompt{Text: "hi"})
		for _, m := range lines(answerLine, okResult) {
			out = tr.Translate(out, m)
		}
		out = tr.Report(out, universal.Prompt{Text: " hi\n"}) // after the run, too
		out = tr.Report(out, universal.EndOfInput{})
		if n := len(userMessages(out)); n != 1 {
			t.Fatalf("%d user messages, want 1", n)
		}
	})
}

// TestPromptWithoutEcho: a prompt the host reported that no user line
// shows (a stream picked up after the echo, a run that failed first) is
// shown once, synthetic, in the turn that answers it.
func TestPromptWithoutEcho(t *testing.T) {
	out := run(t, amp.FormatStreamJSON, lines(initLine, answerLine, okResult), nil, universal.Prompt{Text: "hi"})
	users := userMessages(out)
	if len(users) != 1 || golden.TextOf(&users[0]) != "hi" {
		t.Fatalf("user messages %+v", users)
	}
	for _, e := range out {
		if d, ok := e.Data.(*universal.ItemSnapshot); ok && d.Item.Role == universal.RoleUser && e.Source != universal.SourceDaemon {
			t.Errorf("the prompt nobody echoed is not synthetic: %s", e.Source)
		}
	}
	// Unshown prompts at the end of the input are shown there.
	out = run(t, amp.FormatStreamJSON, nil, universal.Exit{Code: 1, Stderr: "boom"}, universal.Prompt{Text: "hi"})
	if users := userMessages(out); len(users) != 1 {
		t.Fatalf("user messages %+v", users)
	}
	d := ended(t, out)
	if d.Reason != universal.EndError || d.ExitCode == nil || *d.ExitCode != 1 || d.Stderr != "boom" {
		t.Errorf("session ended %+v", d)
	}
}

// TestStdinInput: lines the host wrote to stdin (Dir In) are prompts;
// Amp's echo shows them, once.
func TestStdinInput(t *testing.T) {
	in := universal.Message{Dir: universal.In, Data: []byte(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`)}
	msgs := append([]universal.Message{in}, lines(initLine, echoLine, answerLine, okResult)...)
	out := run(t, amp.FormatStreamJSON, msgs, nil)
	if users := userMessages(out); len(users) != 1 || users[0].Content[0].Metadata == nil {
		t.Fatalf("user messages %+v, want the echo once", users)
	}
	// Not echoed (the run died): shown at the end.
	out = run(t, amp.FormatStreamJSON, []universal.Message{in, {Data: []byte(initLine)}}, nil)
	if users := userMessages(out); len(users) != 1 || users[0].Content[0].Metadata != nil {
		t.Fatalf("user messages %+v, want one synthetic", users)
	}
	bad := universal.Message{Dir: universal.In, Data: []byte(`{"type":"control_request"}`)}
	out = run(t, amp.FormatStreamJSON, []universal.Message{bad}, nil)
	if u := golden.OfType(out, universal.TypeUnparsed); len(u) != 1 {
		t.Errorf("%d unparsed for an unknown stdin message, want 1", len(u))
	}
}

// TestTurnsFromEchoes: in --stream-json-input mode each echoed prompt
// ends the turn before it (there is one result, at the end).
func TestTurnsFromEchoes(t *testing.T) {
	echo2 := strings.Replace(echoLine, `"hi"`, `"again"`, 1)
	cut := `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"text","text":"hel"}],"stop_reason":null},"parent_tool_use_id":null,"session_id":"T-1"}`
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, cut, echo2, answerLine, okResult), nil)
	var statuses []universal.TurnStatus
	for _, e := range golden.OfType(out, universal.TypeTurnEnded) {
		statuses = append(statuses, e.Data.(*universal.TurnEnded).Status)
	}
	want := []universal.TurnStatus{universal.TurnInterrupted, universal.TurnCompleted}
	if len(statuses) != 2 || statuses[0] != want[0] || statuses[1] != want[1] {
		t.Errorf("turns ended %v, want %v (a message with stop_reason null was cut)", statuses, want)
	}
}

// TestEchoedAheadPrompts: with --stream-json-input, Amp 0.0.1789963237
// (and 0.0.1777897475) can echo both stdin prompts before the first answer
// (testdata/crosscheck/amp/0.0.1789963237/s06-multiturn-stdin.jsonl). The
// second echo does not end the first prompt's turn completed with no
// answer and hand that answer to the second prompt: it is shown in the
// first turn, and its own turn starts when the first answer is over
// (an end_turn message followed by another). When the model answers both
// together (0.0.1777897475 sends them in one request: a call, then the
// answer), the prompts share one turn.
func TestEchoedAheadPrompts(t *testing.T) {
	echo2 := strings.Replace(echoLine, `"hi"`, `"again"`, 1)
	answer2 := strings.Replace(answerLine, `"hello"`, `"hello again"`, 1)
	// turnOf lists, per turn, the kinds and texts of its completed items.
	turnOf := func(out []universal.Event) [][]string {
		var turns [][]string
		for _, e := range out {
			switch d := e.Data.(type) {
			case *universal.TurnStarted:
				turns = append(turns, nil)
			case *universal.TurnEnded:
				if d.Status != universal.TurnCompleted {
					t.Errorf("turn %s ended %s, want completed", d.TurnID, d.Status)
				}
			case *universal.ItemSnapshot:
				if e.Type == universal.TypeItemCompleted && len(turns) > 0 {
					text := ""
					for _, p := range d.Item.Content {
						text += p.Text
					}
					turns[len(turns)-1] = append(turns[len(turns)-1], string(d.Item.Role)+":"+text)
				}
			}
		}
		return turns
	}
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, echo2, answerLine, answer2, okResult), nil)
	want := [][]string{{"user:hi", "user:again", "assistant:hello"}, {"assistant:hello again"}}
	if got := turnOf(out); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("turns %q, want %q", got, want)
	}
	call := `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"cmd":"echo again"}}],"stop_reason":"tool_use"},"parent_tool_use_id":null,"session_id":"T-1"}`
	result := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"again","is_error":false}]},"parent_tool_use_id":null,"session_id":"T-1"}`
	out = run(t, amp.FormatStreamJSON, lines(initLine, echoLine, echo2, call, result, answer2, okResult), nil)
	if got := turnOf(out); len(got) != 1 || len(got[0]) != 6 || got[0][1] != "user:again" {
		t.Errorf("turns %q, want one: both prompts, the call, its result, the answer", got)
	}
	// A thread file of such a run (0.0.1767830505) holds the prompts as
	// consecutive user messages.
	thread := `{"v":1,"id":"T-1","created":0,"messages":[` +
		`{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}]},` +
		`{"role":"user","messageId":1,"content":[{"type":"text","text":"again"}]},` +
		`{"role":"assistant","messageId":2,"content":[{"type":"text","text":"hello"}],"state":{"type":"complete","stopReason":"end_turn"}},` +
		`{"role":"assistant","messageId":3,"content":[{"type":"text","text":"hello again"}],"state":{"type":"complete","stopReason":"end_turn"}}]}`
	out = run(t, amp.FormatThread, lines(thread), nil)
	want = [][]string{{"user:hi", "user:again", "assistant:hello"}, {"assistant:hello again"}}
	if got := turnOf(out); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("thread turns %q, want %q", got, want)
	}
	// An echo after an answer starts the next turn, as before.
	out = run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answerLine, echo2, answer2, okResult), nil)
	want = [][]string{{"user:hi", "assistant:hello"}, {"user:again", "assistant:hello again"}}
	if got := turnOf(out); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("turns %q, want %q", got, want)
	}
}

// TestSubAgentThreadID: a thread's Task run names the sub-agent's own
// thread (run.progress.threadID, as 0.0.1767830505 writes it in
// testdata/crosscheck/amp/0.0.1767830505/s10-subagent.thread.json); the
// result keeps it as sub_agent_thread_id, the link to that thread's file.
func TestSubAgentThreadID(t *testing.T) {
	thread := `{"v":1,"id":"T-1","created":0,"messages":[` +
		`{"role":"user","messageId":0,"content":[{"type":"text","text":"count"}]},` +
		`{"role":"assistant","messageId":1,"content":[{"type":"tool_use","id":"toolu_1","name":"Task","input":{"prompt":"count the words"}}],"state":{"type":"complete","stopReason":"tool_use"}},` +
		`{"role":"user","messageId":2,"content":[{"type":"tool_result","toolUseID":"toolu_1","run":{"status":"done","progress":{"threadID":"T-sub"},"result":"4 words"}}]},` +
		`{"role":"assistant","messageId":3,"content":[{"type":"text","text":"4"}],"state":{"type":"complete","stopReason":"end_turn"}}]}`
	out := run(t, amp.FormatThread, lines(thread), nil)
	for _, it := range golden.NewTranscript(out).Items {
		if it.Kind == universal.KindToolResult {
			if got := gjson.GetBytes(it.Content[0].Metadata, "sub_agent_thread_id").Str; got != "T-sub" {
				t.Errorf("sub_agent_thread_id %q, want T-sub (metadata %s)", got, it.Content[0].Metadata)
			}
			return
		}
	}
	t.Fatal("no tool result")
}

// TestNoResult: the input ends without a result line (a crash, a cut
// recording): the turn is interrupted and the session ends in error.
func TestNoResult(t *testing.T) {
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answerLine), nil)
	te := golden.OfType(out, universal.TypeTurnEnded)
	if len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
		t.Errorf("turn ends %+v", te)
	}
	if d := ended(t, out); d.Reason != universal.EndError {
		t.Errorf("session ended %+v", d)
	}
	// A host that stopped amp says so.
	out = run(t, amp.FormatStreamJSON, lines(initLine, echoLine), universal.Terminate{Message: "stop"})
	if d := ended(t, out); d.Reason != universal.EndTerminated || d.TerminatedBy != universal.ByDaemon {
		t.Errorf("session ended %+v", d)
	}
	// A clean exit after a success.
	out = run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answerLine, okResult), universal.Exit{Code: 0})
	if d := ended(t, out); d.Reason != universal.EndCompleted || d.ExitCode == nil {
		t.Errorf("session ended %+v", d)
	}
}

// TestResultAnswerWithoutAssistant: a result whose assistant line is
// missing gives the answer from the result text, once.
func TestResultAnswerWithoutAssistant(t *testing.T) {
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, okResult), nil)
	var answers []universal.Item
	for _, it := range golden.NewTranscript(out).Items {
		if it.Role == universal.RoleAssistant {
			answers = append(answers, it)
		}
	}
	if len(answers) != 1 || len(answers[0].Content) != 1 || golden.TextOf(&answers[0]) != "hello" {
		t.Errorf("answers %+v, want one with the text only", answers)
	}
	out = run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answerLine, okResult), nil)
	if n := len(golden.NewTranscript(out).Items); n != 2 {
		t.Errorf("%d items, want the prompt and one answer", n)
	}
}

// TestClaudeShapedResult: the result fields the manual shows but Amp does
// not write (usage, cost, permission_denials, error_max_turns, errors[])
// are read when present.
func TestClaudeShapedResult(t *testing.T) {
	call := `{"type":"assistant","message":{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"cmd":"ls"}}],"stop_reason":"tool_use"},"parent_tool_use_id":null,"session_id":"T-1"}`
	res := `{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":9,"errors":["too many turns"],"usage":{"input_tokens":10,"output_tokens":5},"total_cost_usd":0.25,"permission_denials":[{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"cmd":"ls"}}],"session_id":"T-1"}`
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, call, res), nil)
	u := golden.OfType(out, universal.TypeUsageUpdated)
	if len(u) != 1 {
		t.Fatalf("%d usage events", len(u))
	}
	if d := u[0].Data.(*universal.UsageUpdated); d.Scope != universal.ScopeSession || d.CostUSD == nil || *d.CostUSD != 0.25 {
		t.Errorf("usage %+v", d)
	}
	res2 := golden.OfType(out, universal.TypePermissionResolved)
	if len(res2) != 1 || res2[0].Data.(*universal.Permission).CallID != "toolu_1" || res2[0].Data.(*universal.Permission).ItemID == "" {
		t.Errorf("denials %+v", res2)
	}
	errs := golden.OfType(out, universal.TypeError)
	if len(errs) != 1 || errs[0].Data.(*universal.Error).Message != "too many turns" || errs[0].Data.(*universal.Error).Code != "error_max_turns" {
		t.Errorf("errors %+v", errs)
	}
	if d := ended(t, out); d.Reason != universal.EndError {
		t.Errorf("session ended %+v", d)
	}
}

// TestSecondInit: another process on the same thread (output appended)
// gives its init's information to the turn it runs (turn.started
// metadata); a turn its predecessor left open is interrupted. A process
// that ends before any turn gets a status item.
func TestSecondInit(t *testing.T) {
	init2 := `{"type":"system","subtype":"init","cwd":"/w2","session_id":"T-1","tools":["Bash"],"mcp_servers":[],"agent_mode":"rush"}`
	out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, init2, echoLine, answerLine, okResult), nil)
	if n := len(golden.OfType(out, universal.TypeSessionStarted)); n != 1 {
		t.Fatalf("%d session.started", n)
	}
	for _, it := range golden.NewTranscript(out).Items {
		if it.Kind == universal.KindStatus || it.Kind == universal.KindSystem {
			t.Errorf("%s item %+v", it.Kind, it)
		}
	}
	ts := golden.OfType(out, universal.TypeTurnStarted)
	if len(ts) != 2 || len(ts[0].Data.(*universal.TurnStarted).Metadata) != 0 ||
		string(ts[1].Data.(*universal.TurnStarted).Metadata) != `{"agent":"amp","cwd":"/w2","agent_mode":"rush","tools":["Bash"],"mcp_servers":[]}` {
		t.Errorf("turn starts %+v", ts)
	}
	te := golden.OfType(out, universal.TypeTurnEnded)
	if len(te) != 2 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnInterrupted {
		t.Errorf("turn ends %+v", te)
	}

	out = run(t, amp.FormatStreamJSON, lines(initLine, echoLine, answerLine, okResult, init2), nil)
	var labels []string
	for _, it := range golden.NewTranscript(out).Items {
		if it.Kind == universal.KindStatus {
			labels = append(labels, it.Content[0].Label)
		}
	}
	if len(labels) != 1 || labels[0] != "init" {
		t.Errorf("status items %q", labels)
	}
}

// TestUnparsed: malformed and unknown input becomes agent.unparsed with
// its line, and the stream stays well-formed.
func TestUnparsed(t *testing.T) {
	cases := map[string]string{
		`not json`:                                "amp: line 2",
		`[1,2]`:                                   "amp: line 2",
		`{"no":"type"}`:                           "amp: line 2",
		`{"type":"stream_event","event":{}}`:      "amp: line 2: type",
		`{"type":"system","subtype":"weird"}`:     "amp: line 2: subtype",
		`{"type":"system","subtype":"status"}`:    "amp: line 2: status",
		`{"type":"result","subtype":"weird"}`:     "amp: line 2: subtype",
		`{"type":"user","message":{"content":3}}`: "amp: line 2: message.content",
		`{"type":"assistant","message":"x"}`:      "amp: line 2: message",
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"}]}}`:        "amp: line 2: message.content[0]",
		`{"type":"user","message":{"content":[{"type":"text","text":"x"}]},"session_id":"T-2"}`: "amp: line 2: session_id",
	}
	for line, loc := range cases {
		t.Run(line, func(t *testing.T) {
			out := run(t, amp.FormatStreamJSON, lines(initLine, line), nil)
			u := golden.OfType(out, universal.TypeUnparsed)
			if len(u) != 1 || u[0].Data.(*universal.Unparsed).Location != loc {
				t.Errorf("unparsed %+v, want one at %q", u, loc)
			}
		})
	}
	t.Run("framing error", func(t *testing.T) {
		out := run(t, amp.FormatStreamJSON, []universal.Message{{Data: []byte(`{"type"`), Err: errors.New("too long")}}, nil)
		if n := len(golden.OfType(out, universal.TypeUnparsed)); n != 1 {
			t.Errorf("%d unparsed", n)
		}
	})
	t.Run("second result for a call", func(t *testing.T) {
		call := `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},"session_id":"T-1"}`
		res := `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"session_id":"T-1"}`
		out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, call, res, res), nil)
		if u := golden.OfType(out, universal.TypeUnparsed); len(u) != 1 || u[0].Data.(*universal.Unparsed).Location != "amp: line 5: tool_result" {
			t.Errorf("unparsed %+v", u)
		}
	})
	t.Run("documentation with elided fields", func(t *testing.T) {
		// The manual's sub-agent example elides fields with "...": not
		// JSON, so every line is reported, none is guessed at.
		b, err := os.ReadFile(public + "/docs_manual_appendix_subagent_ELIDED.txt")
		if err != nil {
			t.Fatal(err)
		}
		var msgs []universal.Message
		for l := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
			msgs = append(msgs, universal.Message{Data: []byte(l)})
		}
		out := run(t, amp.FormatStreamJSON, msgs, nil)
		if n := len(golden.OfType(out, universal.TypeUnparsed)); n != len(msgs) {
			t.Errorf("%d unparsed for %d lines", n, len(msgs))
		}
	})
}

func TestThreadUnparsed(t *testing.T) {
	doc := `{"v":1,"id":"T-9","messages":[{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}]},{"role":"system","messageId":1,"content":[]},{"role":"user","messageId":2,"content":[{"type":"tool_result","toolUseID":"x","run":{"status":"exploded"}}]}]}`
	out := run(t, amp.FormatThread, lines(doc, doc), nil)
	var locs []string
	for _, e := range golden.OfType(out, universal.TypeUnparsed) {
		locs = append(locs, e.Data.(*universal.Unparsed).Location)
	}
	want := []string{"amp: line 1: messages[1].role", "amp: line 1: messages[2].content", "amp: line 2"}
	if strings.Join(locs, "|") != strings.Join(want, "|") {
		t.Errorf("unparsed at %q, want %q", locs, want)
	}
	out = run(t, amp.FormatThread, lines(`{"v":1}`), nil)
	if n := len(golden.OfType(out, universal.TypeUnparsed)); n != 1 {
		t.Errorf("%d unparsed for a document without messages", n)
	}
}

func TestDetect(t *testing.T) {
	thread, err := os.ReadFile(public + "/git-ai__T-019ca1f6-7f21-77b5-a308-65416ebbdf48.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ head, want string }{
		{initLine + "\n" + echoLine + "\n", amp.FormatStreamJSON},
		{echoLine, amp.FormatStreamJSON},
		{okResult, amp.FormatStreamJSON},
		{string(thread), amp.FormatThread},
		{string(thread[:bytes.Index(thread, []byte(`"created"`))]), amp.FormatThread}, // cut after "id"
		{`{"messages":[`, amp.FormatThread},
		{"", ""},
		{"hello\n", ""},
		{`{"dir":"out","msg":{}}`, ""},
	}
	for _, c := range cases {
		if got := amp.Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%.40q) = %q, want %q", c.head, got, c.want)
		}
	}
}

// TestNew: the constructor contract (golden.CheckNew), and Format.
func TestNew(t *testing.T) {
	golden.CheckNew(t, amp.Formats(), amp.New)
	for _, f := range amp.Formats() {
		if tr, _ := amp.New(f.Name, universal.Options{}); tr.Format() != f.Name {
			t.Errorf("New(%s).Format() = %s", f.Name, tr.Format())
		}
	}
}

// TestThreadErrorState: an assistant message that ended in error (state
// type "error") is a failed message, an error event, and the thread's
// turn and session end in error.
func TestThreadErrorState(t *testing.T) {
	doc := `{"v":220,"id":"T-9","messages":[{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}]},{"role":"assistant","messageId":1,"content":[{"type":"text","text":"Partial"}],"state":{"type":"error","error":{"message":"overloaded"}}}]}`
	out := run(t, amp.FormatThread, lines(doc), nil)
	errs := golden.OfType(out, universal.TypeError)
	if len(errs) != 1 || errs[0].Data.(*universal.Error).Message != "overloaded" {
		t.Errorf("errors %+v", errs)
	}
	te := golden.OfType(out, universal.TypeTurnEnded)
	if len(te) != 1 || te[0].Data.(*universal.TurnEnded).Status != universal.TurnError {
		t.Errorf("turn ends %+v", te)
	}
	if d := ended(t, out); d.Reason != universal.EndError || d.Message != "overloaded" {
		t.Errorf("session ended %+v", d)
	}
	for _, it := range golden.NewTranscript(out).Items {
		if it.Role == universal.RoleAssistant && it.Status != universal.StatusFailed {
			t.Errorf("assistant message %s is %s", it.ItemID, it.Status)
		}
	}
}

// TestResultStrings: how a stream-json tool_result's content becomes the
// output: decoded when it is a known object (kept whole as a json part),
// as it is otherwise.
func TestResultStrings(t *testing.T) {
	cases := []struct {
		content  string // the JSON value of "content"
		isError  bool
		output   string
		failed   bool
		jsonPart bool
		meta     string
	}{
		{`"plain text"`, false, "plain text", false, false, ""},
		{`"[\"a\",\"b\"]"`, false, `["a","b"]`, false, false, ""},
		{`"{\"other\":1}"`, false, `{"other":1}`, false, false, ""},
		{`"{\"output\":\"x\\n\",\"exitCode\":0}"`, false, "x\n", false, true, `{"exit_code":0}`},
		{`"{\"exitCode\":3}"`, false, `{"exitCode":3}`, true, false, `{"exit_code":3,"native_is_error":false}`},
		{`"{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]}"`, false, "a\nb", false, true, ""},
		{`[{"type":"text","text":"block"}]`, false, "block", false, false, ""},
		{`"Tool execution cancelled: timeout"`, true, "Tool execution cancelled: timeout", true, false, `{"cancelled":true}`},
		{`"boom"`, true, "boom", true, false, ""},
	}
	call := `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},"session_id":"T-1"}`
	for _, c := range cases {
		t.Run(c.content, func(t *testing.T) {
			res := `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":` + c.content + `,"is_error":` + map[bool]string{true: "true", false: "false"}[c.isError] + `}]},"session_id":"T-1"}`
			out := run(t, amp.FormatStreamJSON, lines(initLine, echoLine, call, res), nil)
			var got *universal.Item
			for _, it := range golden.NewTranscript(out).Items {
				if it.Kind == universal.KindToolResult {
					got = &it
				}
			}
			if got == nil {
				t.Fatal("no tool result")
			}
			p := got.Content[0]
			hasJSON := slices.ContainsFunc(got.Content, func(q universal.Part) bool { return q.Type == universal.PartJSON })
			if p.Output != c.output || (got.Status == universal.StatusFailed) != c.failed || p.IsError != c.failed ||
				hasJSON != c.jsonPart || string(p.Metadata) != c.meta {
				t.Errorf("output %q failed %v is_error %v json %v meta %s", p.Output, got.Status, p.IsError, hasJSON, p.Metadata)
			}
		})
	}
}

// TestSubAgentError: a sub-agent's message that ended in error (a thread
// message with parentToolUseId) is not the session's failure: no error
// event, the turn and session end completed, and the Task call's result
// carries it in its metadata; one whose Task result came first is a status
// item under the call.
func TestSubAgentError(t *testing.T) {
	user := `{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}]}`
	task := `{"role":"assistant","messageId":1,"content":[{"type":"tool_use","complete":true,"id":"toolu_task","name":"Task","input":{"prompt":"look"}}],"state":{"type":"complete","stopReason":"tool_use"}}`
	sub := `{"role":"assistant","messageId":2,"parentToolUseId":"toolu_task","content":[{"type":"text","text":"Part"}],"state":{"type":"error","error":{"message":"sub overloaded"}}}`
	result := `{"role":"user","messageId":3,"content":[{"type":"tool_result","toolUseID":"toolu_task","run":{"status":"done","result":"the oracle failed"}}]}`
	answer := `{"role":"assistant","messageId":4,"content":[{"type":"text","text":"Sorry."}],"state":{"type":"complete","stopReason":"end_turn"}}`
	doc := func(msgs ...string) string {
		return `{"v":220,"id":"T-9","messages":[` + strings.Join(msgs, ",") + `]}`
	}
	check := func(t *testing.T, out []universal.Event) (call, res universal.Item, status []universal.Item) {
		t.Helper()
		if errs := golden.OfType(out, universal.TypeError); len(errs) != 0 {
			t.Errorf("%d error events, want none", len(errs))
		}
		for _, e := range golden.OfType(out, universal.TypeTurnEnded) {
			if st := e.Data.(*universal.TurnEnded).Status; st != universal.TurnCompleted {
				t.Errorf("turn ended %s, want completed", st)
			}
		}
		if d := ended(t, out); d.Reason != universal.EndCompleted {
			t.Errorf("session ended %+v, want completed", d)
		}
		for _, it := range golden.NewTranscript(out).Items {
			switch it.Kind {
			case universal.KindToolCall:
				call = it
			case universal.KindToolResult:
				res = it
			case universal.KindStatus:
				status = append(status, it)
			}
		}
		return call, res, status
	}
	t.Run("before the result", func(t *testing.T) {
		_, res, status := check(t, run(t, amp.FormatThread, lines(doc(user, task, sub, result, answer)), nil))
		if md := string(res.Content[0].Metadata); md != `{"sub_agent_error":{"message":"sub overloaded","code":"error","details":{"state":{"type":"error","error":{"message":"sub overloaded"}}}}}` {
			t.Errorf("result metadata %s", md)
		}
		if res.Status != universal.StatusCompleted || len(status) != 0 {
			t.Errorf("result %s, status items %+v: want completed (the Task call did not fail), none", res.Status, status)
		}
	})
	t.Run("after the result", func(t *testing.T) {
		call, res, status := check(t, run(t, amp.FormatThread, lines(doc(user, task, result, sub, answer)), nil))
		if len(res.Content[0].Metadata) != 0 {
			t.Errorf("result metadata %s, want none", res.Content[0].Metadata)
		}
		if len(status) != 1 || status[0].ParentID != call.ItemID || status[0].Content[0].Label != "sub_agent_error" || status[0].Content[0].Detail != "sub overloaded" {
			t.Errorf("status items %+v, want one sub_agent_error under %s", status, call.ItemID)
		}
	})
}

// TestUserShellCommand: a manual_bash_invocation (a command the user ran
// themselves) is a tool_call item with role user and its tool_result, linked
// by call id, with the exit code in metadata and failed when it is not 0.
func TestUserShellCommand(t *testing.T) {
	for _, exit := range []int{0, 1} {
		doc := `{"v":220,"id":"T-9","messages":[{"role":"info","messageId":0,"content":[{"type":"manual_bash_invocation","args":{"cmd":"make"},"toolRun":{"status":"done","result":{"output":"out\n","exitCode":` + strconv.Itoa(exit) + `}}}]}]}`
		items := golden.NewTranscript(run(t, amp.FormatThread, lines(doc), nil)).Items
		if len(items) != 2 {
			t.Fatalf("exit %d: %d items, want the call and its result", exit, len(items))
		}
		call, res := items[0], items[1]
		cp, rp := call.Content[0], res.Content[0]
		if call.Kind != universal.KindToolCall || call.Role != universal.RoleUser || cp.Name != "manual_bash_invocation" || cp.Arguments != `{"cmd":"make"}` {
			t.Errorf("call %+v", call)
		}
		failed := exit != 0
		if res.Role != universal.RoleTool || res.ParentID != call.ItemID || rp.CallID != cp.CallID || rp.Output != "out\n" ||
			rp.IsError != failed || (res.Status == universal.StatusFailed) != failed || !strings.Contains(string(rp.Metadata), `"exit_code":`+strconv.Itoa(exit)) {
			t.Errorf("exit %d: result %+v (metadata %s)", exit, res, rp.Metadata)
		}
	}
}

// TestThreadUsageLedger: a thread whose messages carry no usage (Amp's
// threads before January 2026) keeps its spend in usageLedger.events; its
// sum is the session's usage (scope session), with the number of events
// and the credits in the metadata. A thread whose messages carry usage
// keeps reporting those calls only. The ledger's shape is the one usage
// trackers read from real thread files: tokscale's
// packages/core/src/sessions/amp.rs (AmpUsageEvent: timestamp, model,
// credits, tokens {input, output, cacheReadInputTokens,
// cacheCreationInputTokens}, operationType), junhoyeo/tokscale at commit
// a496cca (MIT); the values here are made up.
func TestThreadUsageLedger(t *testing.T) {
	const msgs = `"messages":[{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}]},` +
		`{"role":"assistant","messageId":1,"content":[{"type":"text","text":"hello"}],"state":{"type":"complete","stopReason":"end_turn"}%s}]`
	const ledger = `"usageLedger":{"events":[` +
		`{"id":"e1","timestamp":"2025-12-01T10:00:01.000Z","model":"claude-sonnet-4-5-20250929","credits":0.0213,"tokens":{"input":10,"output":178,"cacheReadInputTokens":11372,"cacheCreationInputTokens":986},"operationType":"inference"},` +
		`{"id":"e2","timestamp":"2025-12-01T10:00:02.000Z","model":"claude-haiku-4-5","credits":0.001,"tokens":{"input":300,"output":20},"operationType":"title-generation"}]}`
	usages := func(doc string) []*universal.UsageUpdated {
		var out []*universal.UsageUpdated
		for _, e := range golden.OfType(run(t, amp.FormatThread, lines(doc), nil), universal.TypeUsageUpdated) {
			out = append(out, e.Data.(*universal.UsageUpdated))
		}
		return out
	}
	got := usages(`{"v":42,"id":"T-1",` + strings.Replace(msgs, "%s", "", 1) + `,` + ledger + `}`)
	if len(got) != 1 {
		t.Fatalf("%d usage events, want the ledger's one", len(got))
	}
	u := got[0]
	n := func(p *int64) int64 {
		if p == nil {
			return -1
		}
		return *p
	}
	if u.Scope != universal.ScopeSession || n(u.Usage.InputTokens) != 10+11372+986+300 || n(u.Usage.CachedInputTokens) != 11372 ||
		n(u.Usage.CacheWriteTokens) != 986 || n(u.Usage.OutputTokens) != 198 || n(u.Usage.TotalTokens) != 12668+198 {
		t.Errorf("ledger usage %+v scope %s", u.Usage, u.Scope)
	}
	if string(u.Metadata) != `{"basis":"usageLedger","events":2,"credits":0.0223}` {
		t.Errorf("metadata %s", u.Metadata)
	}
	got = usages(`{"v":220,"id":"T-2",` + strings.Replace(msgs, "%s", `,"usage":{"model":"m","inputTokens":1,"outputTokens":2,"credits":0.0042}`, 1) + `,` + ledger + `}`)
	if len(got) != 1 || got[0].Scope != universal.ScopeCall || string(got[0].Metadata) != `{"credits":0.0042,"model":"m"}` {
		t.Errorf("a thread with message usage: %d usage events (first %+v), want its one call with its credits and model", len(got), got)
	}
}
