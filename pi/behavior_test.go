package pi_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/conformance"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// translate runs a whole input through a fresh translator.
func translate(t testing.TB, format string, input []byte, reports ...universal.Report) []universal.Event {
	t.Helper()
	tr, err := pi.New(format, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	for _, r := range reports {
		out = tr.Report(out, r)
	}
	rd := universal.NewReader(bytes.NewReader(input), framing(format), 0)
	for m, err := range universal.Messages(rd) {
		if err != nil {
			t.Fatal(err)
		}
		out = tr.Translate(out, m)
	}
	out = tr.Report(out, universal.EndOfInput{})
	if err := universal.CheckStream(out); err != nil {
		t.Errorf("stream checker:\n%v", err)
	}
	return out
}

// translateClean is translate for input that must translate whole: the
// events keep the canonical shape and none is agent.unparsed.
func translateClean(t testing.TB, format string, input []byte) []universal.Event {
	t.Helper()
	evs := translate(t, format, input)
	if vs := conformance.Check(evs); len(vs) > 0 {
		t.Errorf("conformance: %v", vs)
	}
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v", u[0].Data)
	}
	return evs
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// completed returns the final snapshot of every item, in start order.
func completed(events []universal.Event) []universal.Item {
	return golden.NewTranscript(events).Items
}

// messages returns the session's own messages of a role (a sub-agent's,
// under its call, are left out).
func messages(items []universal.Item, role universal.Role) []universal.Item {
	var out []universal.Item
	for _, it := range items {
		if it.Kind == universal.KindMessage && it.Role == role && it.ParentID == "" {
			out = append(out, it)
		}
	}
	return out
}

// nativeLines counts the native output lines of a type (and role).
func nativeLines(t testing.TB, input []byte, format, typ, role string) int {
	n := 0
	for line := range bytes.Lines(input) {
		var v struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if format == pi.FormatExchange {
			if json.Unmarshal(line, &v) != nil || v.Dir != "out" {
				continue
			}
			line = v.Msg
		}
		var e struct {
			Type    string `json:"type"`
			Message struct {
				Role string `json:"role"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &e) == nil && e.Type == typ && (role == "" || e.Message.Role == role) {
			n++
		}
	}
	return n
}

// TestPromptsEchoedOnce: the host's prompts (reported, and visible as rpc
// commands in the exchange) are never emitted a second time next to Pi's
// echo, and every echo is a user message from the agent.
func TestPromptsEchoedOnce(t *testing.T) {
	for _, c := range recorded(t) {
		if c.format == pi.FormatSession {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			input := read(t, c.input)
			// Reported prompts too in the exchange, where the rpc prompt
			// commands also show them: still one user message per echo.
			rs := golden.PromptReports(t, c.meta)
			events := translate(t, c.format, input, rs...)
			users := messages(completed(events), universal.RoleUser)
			if want := nativeLines(t, input, c.format, "message_end", "user"); len(users) != want {
				t.Errorf("%d user messages, want %d (the echoes)", len(users), want)
			}
			for _, e := range golden.OfType(events, universal.TypeItemStarted) {
				if it := e.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleUser && it.Kind == universal.KindMessage && e.Source != universal.SourceAgent {
					t.Errorf("synthetic user message %s although Pi echoed every prompt", it.ItemID)
				}
			}
		})
	}
}

// TestEchoConvention: Pi's live echoes of the host's prompts (json, rpc,
// exchange) have their text marked echo; a session file's user messages
// (a record) and a synthetic prompt do not.
func TestEchoConvention(t *testing.T) {
	for _, c := range recorded(t) {
		events := translate(t, c.format, read(t, c.input))
		users := messages(completed(events), universal.RoleUser)
		if len(users) == 0 {
			t.Errorf("%s: no user message", c.name())
		}
		for _, u := range users {
			if got, want := golden.Echoed(&u), c.format != pi.FormatSession; got != want {
				t.Errorf("%s: user message %s: echo %v, want %v", c.name(), u.ItemID, got, want)
			}
		}
	}
	events := translate(t, pi.FormatRPC, nil, universal.Prompt{Text: "hello?"})
	if users := messages(completed(events), universal.RoleUser); len(users) != 1 || golden.Echoed(&users[0]) {
		t.Errorf("synthetic prompt %+v: want one, not marked echo", users)
	}
}

// TestPromptSynthesisedWithoutEcho: when Pi does not echo a prompt the
// host reported, it becomes a synthetic user message before the reply.
func TestPromptSynthesisedWithoutEcho(t *testing.T) {
	var kept [][]byte
	for line := range bytes.Lines(read(t, filepath.Join(testdata, "1.5.2", "s02-tool.json.jsonl"))) {
		if !bytes.Contains(line, []byte(`"role":"user"`)) {
			kept = append(kept, line)
		}
	}
	events := translate(t, pi.FormatJSON, bytes.Join(kept, nil), universal.Prompt{Text: "Run echo hello-from-tool"})
	items := completed(events)
	users := messages(items, universal.RoleUser)
	if len(users) != 1 || golden.TextOf(&users[0]) != "Run echo hello-from-tool" {
		t.Fatalf("user messages %+v, want the reported prompt once", users)
	}
	for _, e := range golden.OfType(events, universal.TypeItemStarted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Role == universal.RoleUser && e.Source != universal.SourceDaemon {
			t.Errorf("the prompt should be synthetic, got source %s", e.Source)
		}
		if it.Role == universal.RoleAssistant && it.ItemID < users[0].ItemID {
			t.Errorf("assistant item %s started before the prompt %s", it.ItemID, users[0].ItemID)
		}
	}
	// A prompt for which nothing ever came is still emitted at the end.
	events = translate(t, pi.FormatRPC, nil, universal.Prompt{Text: "hello?"})
	if users := messages(completed(events), universal.RoleUser); len(users) != 1 {
		t.Errorf("prompt with no output: %d user messages, want 1", len(users))
	}
}

// TestTurnsPerPrompt: a universal turn is one prompt until Pi settles;
// retries, compactions, steering and follow-ups stay in it, and Pi's own
// turn_start/turn_end (one per model call) are not turns.
func TestTurnsPerPrompt(t *testing.T) {
	for _, c := range recorded(t) {
		if c.format == pi.FormatSession {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			ps, err := golden.Prompts(c.meta)
			if err != nil {
				t.Fatal(err)
			}
			events := translate(t, c.format, read(t, c.input))
			if got := len(golden.OfType(events, universal.TypeTurnStarted)); got != len(ps) {
				t.Errorf("%d turns, want %d (one per prompt)", got, len(ps))
			}
		})
	}
}

// TestSessionTurns: in a session file every user message starts a turn
// (a file does not tell steering from prompts).
func TestSessionTurns(t *testing.T) {
	for _, c := range recorded(t) {
		if c.format != pi.FormatSession {
			continue
		}
		input := read(t, c.input)
		events := translate(t, c.format, input)
		if got, want := len(golden.OfType(events, universal.TypeTurnStarted)), nativeLines(t, input, c.format, "message", "user"); got != want {
			t.Errorf("%s: %d turns, want %d", c.name(), got, want)
		}
	}
}

// TestPermissions: the permission-gate dialog after a tool start is a
// permission for that tool, resolved by the host's answer (exchange) or
// by the tool's outcome (stdout only); json mode has no dialog.
func TestPermissions(t *testing.T) {
	cases := []struct {
		file   string
		format string
		want   universal.PermissionStatus // "" = no permission
		source string
	}{
		{"0.73.1/s07-permission.rpc.exchange.jsonl", pi.FormatExchange, universal.PermissionDenied, "user"},
		{"0.73.1/s07-permission.rpc.jsonl", pi.FormatRPC, universal.PermissionDenied, "tool_outcome"},
		{"0.73.1/s07-permission.json.jsonl", pi.FormatJSON, "", ""},
		{"1.5.2/s07-permission.rpc.exchange.jsonl", pi.FormatExchange, universal.PermissionDenied, "user"},
		{"1.5.2/s07-permission.rpc.jsonl", pi.FormatRPC, universal.PermissionDenied, "tool_outcome"},
		{"1.5.2/s07-permission-allow.rpc.exchange.jsonl", pi.FormatExchange, universal.PermissionApproved, "user"},
		{"1.5.2/s07-permission-allow.rpc.jsonl", pi.FormatRPC, universal.PermissionApproved, "tool_outcome"},
		{"1.5.2/s07-permission.json.jsonl", pi.FormatJSON, "", ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			events := translate(t, c.format, read(t, filepath.Join(testdata, c.file)))
			req, res := golden.OfType(events, universal.TypePermissionRequested), golden.OfType(events, universal.TypePermissionResolved)
			if c.want == "" {
				if len(req)+len(res) != 0 {
					t.Fatalf("%d requests, %d resolutions, want none", len(req), len(res))
				}
				return
			}
			if len(req) != 1 || len(res) != 1 {
				t.Fatalf("%d requests, %d resolutions, want 1 each", len(req), len(res))
			}
			p := req[0].Data.(*universal.Permission)
			var call *universal.Item
			for _, it := range completed(events) {
				if it.Kind == universal.KindToolCall && it.Content[0].CallID == p.CallID {
					call = &it
				}
			}
			if call == nil || p.ItemID != call.ItemID || p.Action != "bash" || !strings.Contains(string(p.Metadata), "rm -rf build-cache") {
				t.Errorf("request %+v does not guard the bash tool call %+v", p, call)
			}
			r := res[0].Data.(*universal.Permission)
			if r.Status != c.want || !strings.Contains(string(r.Metadata), `"source":"`+c.source+`"`) || r.ItemID != p.ItemID {
				t.Errorf("resolution %s %s, want %s by %s", r.Status, r.Metadata, c.want, c.source)
			}
		})
	}
}

// TestRoles: tool results and system messages are never assistant
// messages; tool items hang off the assistant message that called them.
func TestRoles(t *testing.T) {
	for _, c := range recorded(t) {
		events := translate(t, c.format, read(t, c.input))
		items := completed(events)
		byID := map[string]universal.Item{}
		for _, it := range items {
			byID[it.ItemID] = it
		}
		for _, it := range items {
			switch it.Kind {
			case universal.KindMessage:
				for _, p := range it.Content {
					if p.Type == universal.PartToolResult || p.Type == universal.PartJSON {
						t.Errorf("%s: message %s holds a %s part", c.name(), it.ItemID, p.Type)
					}
				}
			case universal.KindToolCall, universal.KindToolResult:
				parent := byID[it.ParentID]
				if parent.Kind != universal.KindMessage || parent.Role != universal.RoleAssistant {
					t.Errorf("%s: %s %s has parent %q (%s %s), want the assistant message", c.name(), it.Kind, it.ItemID, it.ParentID, parent.Kind, parent.Role)
				}
			case universal.KindSystem:
				if it.Role != universal.RoleSystem {
					t.Errorf("%s: system item %s has role %s", c.name(), it.ItemID, it.Role)
				}
			}
		}
		if strings.HasPrefix(c.name(), "1.5.2") && !strings.Contains(c.name(), "s11") {
			// The 1.x system message is turn metadata, never an item.
			n := 0
			for _, ev := range golden.OfType(events, universal.TypeTurnStarted) {
				if gjson.GetBytes(ev.Data.(*universal.TurnStarted).Metadata, "system_prompt.sections.preamble").Str != "" {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s: the 1.x system message is not in turn.started metadata", c.name())
			}
			for _, it := range items {
				if it.Kind == universal.KindSystem && len(it.Content) > 0 && it.Content[len(it.Content)-1].Type == universal.PartJSON {
					t.Errorf("%s: system item %s holds JSON", c.name(), it.ItemID)
				}
			}
		}
	}
}

// TestUsagePerMessage: one call-scoped usage.updated per assistant
// message that reported usage, with Pi's disjoint input counters added and
// the message's model and provider in its metadata.
func TestUsagePerMessage(t *testing.T) {
	for _, c := range recorded(t) {
		input := read(t, c.input)
		events := translate(t, c.format, input)
		want := 0
		var models []string // "model provider" per usage, in order
		for line := range bytes.Lines(input) {
			if c.format == pi.FormatExchange {
				var v struct{ Msg json.RawMessage }
				json.Unmarshal(line, &v)
				line = v.Msg
			}
			var e struct {
				Type    string
				Message struct {
					Role, Model, Provider string
					Usage                 struct{ Input, Output, CacheRead, CacheWrite, TotalTokens int64 }
				}
				Result struct{ Usage *struct{ TotalTokens int64 } }
			}
			if json.Unmarshal(line, &e) != nil {
				continue
			}
			if (e.Type == "message_end" || e.Type == "message") && e.Message.Role == "assistant" && e.Message.Usage.TotalTokens > 0 {
				want++
				models = append(models, e.Message.Model+" "+e.Message.Provider)
			}
			if e.Type == "compaction_end" && e.Result.Usage != nil {
				want++
				models = append(models, " ")
			}
			if e.Type == "compaction" && bytes.Contains(line, []byte(`"usage"`)) {
				want++
				models = append(models, " ")
			}
		}
		got := golden.OfType(events, universal.TypeUsageUpdated)
		if len(got) != want {
			t.Errorf("%s: %d usage events, want %d", c.name(), len(got), want)
		}
		for i, e := range got {
			u := e.Data.(*universal.UsageUpdated)
			if u.Scope != universal.ScopeCall || u.Usage.InputTokens == nil || u.Usage.TotalTokens == nil ||
				*u.Usage.InputTokens+*u.Usage.OutputTokens != *u.Usage.TotalTokens {
				t.Errorf("%s: usage %+v: input+output != total", c.name(), u.Usage)
			}
			var md struct{ Model, Provider string }
			if u.Metadata != nil {
				if err := json.Unmarshal(u.Metadata, &md); err != nil {
					t.Fatal(err)
				}
			}
			if i < len(models) && md.Model+" "+md.Provider != models[i] {
				t.Errorf("%s: usage %d names model and provider %q, want %q", c.name(), i, md.Model+" "+md.Provider, models[i])
			}
		}
	}
}

// TestSessionNativeIDs: items of a v3 session file carry the entry id.
func TestSessionNativeIDs(t *testing.T) {
	input := read(t, filepath.Join(testdata, "1.5.2", "s02-tool.json.session.jsonl"))
	ids := map[string]bool{}
	leading := true
	for line := range bytes.Lines(input) {
		var e struct{ Type, ID string }
		json.Unmarshal(line, &e)
		// The system message is turn metadata, not an item, and so are
		// the settings right after the header (session metadata).
		settings := e.Type == "model_change" || e.Type == "thinking_level_change"
		leading = leading && (e.Type == "session" || settings)
		if e.Type != "session" && gjson.GetBytes(line, "message.role").Str != "system" && !(leading && settings) {
			ids[e.ID] = true
		}
	}
	n := 0
	for _, it := range completed(translate(t, pi.FormatSession, input)) {
		switch it.Kind {
		case universal.KindMessage, universal.KindSystem, universal.KindStatus, universal.KindToolResult:
			if !ids[it.NativeItemID] {
				t.Errorf("%s %s: native id %q is not an entry id", it.Kind, it.ItemID, it.NativeItemID)
			}
			n++
		}
	}
	if n != len(ids) {
		t.Errorf("%d items for %d entries", n, len(ids))
	}
}

// TestConcatenatedLine: the real defect of two objects on one line
// loses nothing.
func TestConcatenatedLine(t *testing.T) {
	for _, f := range []string{"pi-mono-compact.v1-session-concatenated-line.jsonl", "pi-mono-session-2025-12-17.v1-session-concatenated-line.jsonl"} {
		input := read(t, filepath.Join(testdata, "public", f))
		events := translate(t, pi.FormatSession, input)
		if n := len(golden.OfType(events, universal.TypeUnparsed)); n != 0 {
			t.Errorf("%s: %d unparsed", f, n)
		}
		want := bytes.Count(input, []byte(`{"type":"compaction"`))
		got := 0
		for _, it := range completed(events) {
			if it.Kind == universal.KindSystem && it.Content[0].Label == "compaction" && strings.Contains(it.Content[1].Text, "Summary") {
				got++
			}
		}
		if got != want || want < 1 {
			t.Errorf("%s: %d compaction items, want %d", f, got, want)
		}
	}
}

// TestRetries: a retried failure is an error with will_retry, and the
// recovered prompt has no terminal error.
func TestRetries(t *testing.T) {
	for _, c := range recorded(t) {
		if !strings.Contains(c.name(), "s05-error") {
			continue
		}
		events := translate(t, c.format, read(t, c.input))
		var retry, final int
		for _, e := range golden.OfType(events, universal.TypeError) {
			if e.Data.(*universal.Error).WillRetry {
				retry++
			} else {
				final++
			}
		}
		wantFinal := 1
		if strings.Contains(c.name(), "recover") {
			wantFinal = 0
		}
		if retry != 1 || final != wantFinal {
			t.Errorf("%s: %d retried errors, %d final; want 1 and %d", c.name(), retry, final, wantFinal)
		}
		ended := golden.OfType(events, universal.TypeTurnEnded)
		status := ended[len(ended)-1].Data.(*universal.TurnEnded).Status
		if (wantFinal == 1) != (status == universal.TurnError) {
			t.Errorf("%s: turn ended %s", c.name(), status)
		}
	}
}

// TestAssistantMessageSample: the public AssistantMessage object (thinking,
// text, tool call) as a message_end.
func TestAssistantMessageSample(t *testing.T) {
	msg := read(t, filepath.Join(testdata, "public", "pi-mono-assistant-message-with-thinking-code.json"))
	var compact bytes.Buffer
	if err := json.Compact(&compact, msg); err != nil {
		t.Fatal(err)
	}
	line := append(append([]byte(`{"type":"message_end","message":`), compact.Bytes()...), "}\n"...)
	events := translate(t, pi.FormatJSON, line)
	if n := len(golden.OfType(events, universal.TypeUnparsed)); n != 0 {
		t.Fatalf("%d unparsed", n)
	}
	var m struct {
		Content []struct{ Type, Thinking, Text, ID, Name string }
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatal(err)
	}
	items := completed(events)
	var reasoning, text, calls int
	for _, it := range items {
		for _, p := range it.Content {
			switch {
			case it.Kind == universal.KindMessage && p.Type == universal.PartReasoning:
				reasoning++
			case it.Kind == universal.KindMessage && p.Type == universal.PartText:
				text++
			case it.Kind == universal.KindToolCall:
				calls++
			}
		}
	}
	var want [3]int
	for _, c := range m.Content {
		switch c.Type {
		case "thinking":
			want[0]++
		case "text":
			want[1]++
		case "toolCall":
			want[2]++
		}
	}
	if [3]int{reasoning, text, calls} != want {
		t.Errorf("reasoning/text/tool calls = %d/%d/%d, want %v", reasoning, text, calls, want)
	}
}

// TestDetect: every capture is recognised as its format.
func TestDetect(t *testing.T) {
	for _, c := range append(recorded(t), public()...) {
		head := read(t, c.input)
		if len(head) > 64<<10 {
			head = head[:64<<10]
		}
		if got := pi.Detect(head); got != c.format {
			t.Errorf("%s: Detect = %q, want %q", c.name(), got, c.format)
		}
	}
	for _, head := range []string{"", "hello\n", `{"foo":1}`} {
		if got := pi.Detect([]byte(head)); got != "" {
			t.Errorf("Detect(%q) = %q, want \"\"", head, got)
		}
	}
	// json mode's first line is a session file's header: a versioned
	// header alone does not tell (a session file is followed from its
	// first line on), the line after it does.
	const header = `{"type":"session","version":3,"id":"s","timestamp":"2026-11-21T12:11:17.769Z","cwd":"/w"}` + "\n"
	for _, c := range []struct{ head, want string }{
		{header, ""},
		{header + `{"type":"agent_start"}` + "\n", pi.FormatJSON},
		{header + `{"type":"model_change","id":"a","parentId":null,"provider":"p","modelId":"m"}` + "\n", pi.FormatSession},
		{`{"type":"session","id":"s","timestamp":"2026-11-21T12:11:17.769Z","cwd":"/w"}` + "\n", pi.FormatSession}, // v1: no version
	} {
		if got := pi.Detect([]byte(c.head)); got != c.want {
			t.Errorf("Detect(%q) = %q, want %q", c.head, got, c.want)
		}
	}
}

// TestUnknownInput: what the translator cannot map is reported, never
// dropped, and the stream stays well-formed.
func TestUnknownInput(t *testing.T) {
	input := strings.Join([]string{
		`not json`,
		`{"type":"agent_start"}`,
		`{"type":"brand_new_event","x":1}`,
		`{"type":"message_end","message":{"role":"narrator","content":"?"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":99999999,"delta":"x"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"sparkle_delta","contentIndex":0,"delta":"x"}}`,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"hologram"}],"stopReason":"stop"}}`,
		`{"type":"extension_ui_request","id":"u1","method":"teleport"}`,
		`{"no_type":true}`,
		`[1,2]`,
		`{"type":"agent_settled"}`,
	}, "\n")
	events := translate(t, pi.FormatRPC, []byte(input))
	var got []string
	for _, e := range golden.OfType(events, universal.TypeUnparsed) {
		got = append(got, e.Data.(*universal.Unparsed).Location)
	}
	want := []string{"pi: line 1", "pi: line 3", "pi: line 4", "pi: line 5", "pi: line 6", "pi: line 7: message.content[0]", "pi: line 8", "pi: line 9", "pi: line 10"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("unparsed at %q, want %q", got, want)
	}
}

// TestTerminate: a run stopped by the host ends interrupted, its open
// items failed; a settled run keeps its status.
func TestTerminate(t *testing.T) {
	input := read(t, filepath.Join(testdata, "1.5.2", "s02-tool.json.jsonl"))
	lines := bytes.SplitAfter(input, []byte("\n"))
	for _, c := range []struct {
		name  string
		cut   int // lines kept
		end   universal.Report
		want  universal.TurnStatus
		ended universal.EndReason
	}{
		// A run cut short stays open until the session ends: Stream.End
		// interrupts it (session_ending) and the session fails.
		{"terminated mid-run", 12, universal.Terminate{Message: "stop"}, universal.TurnInterrupted, universal.EndTerminated},
		{"crashed mid-run", 12, universal.Exit{Code: 1, Stderr: "boom"}, universal.TurnInterrupted, universal.EndError},
		{"cut mid-run", 12, universal.EndOfInput{}, universal.TurnInterrupted, universal.EndError},
		{"terminated after settling", len(lines), universal.Terminate{}, universal.TurnCompleted, universal.EndTerminated},
	} {
		tr, _ := pi.New(pi.FormatJSON, golden.Options())
		var out []universal.Event
		for i, l := range lines[:c.cut] {
			out = tr.Translate(out, universal.Message{Data: bytes.TrimSuffix(l, []byte("\n")), Line: int64(i + 1), TimeMS: -1})
		}
		out = tr.Report(out, c.end)
		if err := universal.CheckStream(out); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		ended := golden.OfType(out, universal.TypeTurnEnded)
		if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != c.want {
			t.Errorf("%s: turn ended %+v, want %s", c.name, ended, c.want)
		}
		if d := out[len(out)-1].Data.(*universal.SessionEnded); d.Reason != c.ended {
			t.Errorf("%s: session ended %s, want %s", c.name, d.Reason, c.ended)
		}
		if c.cut < len(lines) && len(ended) == 1 && !ended[0].Data.(*universal.TurnEnded).SessionEnding() {
			t.Errorf("%s: the open turn is not marked session_ending", c.name)
		}
		if c.cut < len(lines) {
			failed := 0
			for _, it := range completed(out) {
				if it.Status == universal.StatusFailed {
					failed++
				}
			}
			if failed == 0 {
				t.Errorf("%s: no item left open was failed", c.name)
			}
		}
	}
}

// TestNew: unknown formats and checkpoints of another format are refused.
func TestNew(t *testing.T) { golden.CheckNew(t, pi.Formats(), pi.New) }

// TestShapes: shapes the captures do not show but the types allow.
func TestShapes(t *testing.T) {
	input := strings.Join([]string{
		// An assistant message whose content is a plain string.
		`{"type":"message_end","message":{"role":"assistant","content":"plain answer","stopReason":"stop"}}`,
		// A 0.84.0-0.84.2 tool call: toolcall_start without id and name,
		// no partial; the name and id arrive at toolcall_end.
		`{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"pending"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","contentIndex":0,"delta":"{\"path\":\"a\"}"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_end","contentIndex":0,"toolCall":{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a"}}}}`,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a"}}],"stopReason":"toolUse"}}`,
		// A tool result given only as a toolResult message.
		`{"type":"message_end","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":"file a","isError":false}}`,
	}, "\n")
	items := completed(translate(t, pi.FormatRPC, []byte(input)))
	var texts, calls, results []string
	for _, it := range items {
		switch it.Kind {
		case universal.KindMessage:
			texts = append(texts, golden.TextOf(&it))
		case universal.KindToolCall:
			calls = append(calls, it.Content[0].Name+" "+it.Content[0].CallID+" "+it.Content[0].Arguments)
		case universal.KindToolResult:
			results = append(results, it.Content[0].CallID+" "+it.Content[0].Output)
		}
	}
	if strings.Join(texts, "|") != "plain answer|" || strings.Join(calls, "|") != `read c1 {"path":"a"}` || strings.Join(results, "|") != "c1 file a" {
		t.Errorf("texts %q, calls %q, results %q", texts, calls, results)
	}
}

// TestSubAgentError: a failed run of the subagent extension's tool is not
// an error of the session: no error event, and its tool result carries
// sub_agent_error {message, code} next to the details (failed because the
// tool reported isError); a successful run adds nothing.
func TestSubAgentError(t *testing.T) {
	stream := func(results string, isError bool) []byte {
		e := "false"
		if isError {
			e = "true"
		}
		return []byte(strings.Join([]string{
			`{"type":"agent_start"}`,
			`{"type":"message_start","message":{"role":"assistant","content":[]}}`,
			`{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_1","name":"subagent","arguments":{"agent":"helper","task":"count"}}],"stopReason":"toolUse"}}`,
			`{"type":"tool_execution_start","toolCallId":"call_1","toolName":"subagent","args":{}}`,
			`{"type":"tool_execution_end","toolCallId":"call_1","toolName":"subagent","result":{"content":[{"type":"text","text":"done"}],"details":{"mode":"single","results":[` + results + `]}},"isError":` + e + `}`,
			`{"type":"message_start","message":{"role":"assistant","content":[]}}`,
			`{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"stopReason":"stop"}}`,
			`{"type":"agent_end","messages":[]}`,
		}, "\n") + "\n")
	}
	result := func(events []universal.Event) universal.Item {
		t.Helper()
		if errs := golden.OfType(events, universal.TypeError); len(errs) != 0 {
			t.Errorf("%d error events, want none", len(errs))
		}
		if end := events[len(events)-1].Data.(*universal.SessionEnded); end.Reason != universal.EndCompleted {
			t.Errorf("session ended %s, want completed", end.Reason)
		}
		for _, it := range completed(events) {
			if it.Kind == universal.KindToolResult {
				return it
			}
		}
		t.Fatal("no tool result")
		return universal.Item{}
	}
	failed := result(translate(t, pi.FormatRPC, stream(`{"agent":"helper","exitCode":1,"stopReason":"error","errorMessage":"model overloaded","messages":[]},{"agent":"other","exitCode":0,"stopReason":"stop","messages":[]}`, true)))
	md := gjson.GetBytes(failed.Content[0].Metadata, "sub_agent_error")
	if md.Get("message").Str != "helper: model overloaded" || md.Get("code").Str != "error" {
		t.Errorf("metadata %s, want sub_agent_error for helper only", failed.Content[0].Metadata)
	}
	if failed.Status != universal.StatusFailed || !gjson.GetBytes(failed.Content[0].Metadata, "details.results").IsArray() {
		t.Errorf("result %s, metadata %s: want failed, details kept", failed.Status, failed.Content[0].Metadata)
	}
	ok := result(translate(t, pi.FormatRPC, stream(`{"agent":"helper","exitCode":0,"stopReason":"stop","messages":[]}`, false)))
	if gjson.GetBytes(ok.Content[0].Metadata, "sub_agent_error").Exists() || ok.Status != universal.StatusCompleted {
		t.Errorf("successful run: %s, metadata %s", ok.Status, ok.Content[0].Metadata)
	}
}

// TestUserShellCommand: a bashExecution (a command the user ran with !) is
// a tool_call item with role user and its tool_result, linked by call id;
// the result fails when the exit code is not 0 or the command was
// cancelled.
func TestUserShellCommand(t *testing.T) {
	cases := []struct {
		fields string
		failed bool
		meta   string
	}{
		{`"exitCode":0,"cancelled":false`, false, `{"exit_code":0,"cancelled":false}`},
		{`"exitCode":2,"cancelled":false`, true, `{"exit_code":2,"cancelled":false}`},
		{`"cancelled":true`, true, `{"cancelled":true}`},
	}
	for _, c := range cases {
		line := `{"type":"message_end","message":{"role":"bashExecution","command":"make test","output":"out\n",` + c.fields + `,"timestamp":4}}`
		items := completed(translate(t, pi.FormatRPC, []byte(line+"\n")))
		if len(items) != 2 {
			t.Fatalf("%s: %d items, want the call and its result", c.fields, len(items))
		}
		call, res := items[0], items[1]
		cp, rp := call.Content[0], res.Content[0]
		if call.Kind != universal.KindToolCall || call.Role != universal.RoleUser || cp.Name != "bashExecution" || cp.Arguments != `{"command":"make test"}` || cp.CallID != call.ItemID {
			t.Errorf("%s: call %+v", c.fields, call)
		}
		if res.Kind != universal.KindToolResult || res.Role != universal.RoleTool || res.ParentID != call.ItemID || rp.CallID != cp.CallID ||
			rp.Output != "out\n" || rp.IsError != c.failed || (res.Status == universal.StatusFailed) != c.failed || string(rp.Metadata) != c.meta {
			t.Errorf("%s: result %+v (metadata %s)", c.fields, res, rp.Metadata)
		}
	}
}

// TestAbortReportedAsError: Pi 0.84.0–1.5.0 end a run whose tool the host
// aborted with an assistant message in error whose errorMessage is the
// abort's (recorded with 0.84.0, 0.84.4, 1.0.3, 1.4.0; 1.5.1 says
// aborted). That is an interruption, not a failure; a real model error
// with the same stop reason still ends the turn in error.
func TestAbortReportedAsError(t *testing.T) {
	stream := func(stop, msg string) []byte {
		return []byte(`{"type":"agent_start"}
{"type":"turn_start"}
{"type":"message_start","message":{"role":"assistant","content":[],"api":"openai-completions","provider":"mock","model":"m","stopReason":"pending","timestamp":1}}
{"type":"message_end","message":{"role":"assistant","content":[],"api":"openai-completions","provider":"mock","model":"m","stopReason":"` + stop + `","errorMessage":"` + msg + `","timestamp":1}}
{"type":"turn_end","toolResults":[]}
{"type":"agent_end","messages":[]}
{"type":"agent_settled"}
`)
	}
	for _, c := range []struct {
		stop, msg  string
		status     universal.TurnStatus
		label      string
		errors     int
		nativeStop bool
	}{
		{"error", "This operation was aborted", universal.TurnInterrupted, "aborted", 0, true},
		{"error", "Request was aborted.", universal.TurnInterrupted, "aborted", 0, true},
		{"error", "Request aborted", universal.TurnInterrupted, "aborted", 0, true},
		{"aborted", "This operation was aborted", universal.TurnInterrupted, "aborted", 0, false},
		{"error", `400: {\"message\":\"bad request\"}`, universal.TurnError, "error", 1, false},
		{"error", "The operation was aborted due to timeout", universal.TurnError, "error", 1, false},
	} {
		events := translate(t, pi.FormatRPC, stream(c.stop, c.msg))
		ended := golden.OfType(events, universal.TypeTurnEnded)
		if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != c.status {
			t.Errorf("%s %q: turns ended %v, want one %s", c.stop, c.msg, ended, c.status)
		}
		if n := len(golden.OfType(events, universal.TypeError)); n != c.errors {
			t.Errorf("%s %q: %d error events, want %d", c.stop, c.msg, n, c.errors)
		}
		msgs := messages(completed(events), universal.RoleAssistant)
		if len(msgs) != 1 || len(msgs[0].Content) != 1 {
			t.Fatalf("%s %q: assistant messages %+v", c.stop, c.msg, msgs)
		}
		p := msgs[0].Content[0]
		if msgs[0].Status != universal.StatusFailed || p.Type != universal.PartStatus || p.Label != c.label {
			t.Errorf("%s %q: message %s with part %s %q, want failed with status %q", c.stop, c.msg, msgs[0].Status, p.Type, p.Label, c.label)
		}
		if got := gjson.GetBytes(p.Metadata, "native_stop_reason").Str == "error"; got != c.nativeStop {
			t.Errorf("%s %q: part metadata %s", c.stop, c.msg, p.Metadata)
		}
	}
}

// TestCompactionFailures: Pi 0.70 ran two threshold compactions at once
// in print mode (two compaction_start, then a compaction_end with the
// summary and one with "Auto-compaction failed: …"). Each end completes
// the oldest open compaction; one Pi gives up on fails its item, not the
// session; one it retries is a transient error.
func TestCompactionFailures(t *testing.T) {
	const run = `{"type":"agent_start"}
{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}}
{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}}
{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"stop","timestamp":2}}
{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"stopReason":"stop","timestamp":2}}
{"type":"agent_end","messages":[]}
`
	for _, c := range []struct {
		name      string
		lines     string
		statuses  []universal.ItemStatus // of the compaction items, in start order
		errors    []bool                 // will_retry of each error event
		turnFinal universal.TurnStatus
	}{
		{"overlapping, the second fails", `{"type":"compaction_start","reason":"threshold"}
{"type":"compaction_start","reason":"threshold"}
{"type":"compaction_end","reason":"threshold","result":{"summary":"S","firstKeptEntryId":"a","tokensBefore":9},"aborted":false,"willRetry":false}
{"type":"compaction_end","reason":"threshold","aborted":false,"willRetry":false,"errorMessage":"Auto-compaction failed: boom"}
`, []universal.ItemStatus{universal.StatusCompleted, universal.StatusFailed}, nil, universal.TurnCompleted},
		{"retried", `{"type":"compaction_start","reason":"overflow"}
{"type":"compaction_end","reason":"overflow","aborted":false,"willRetry":true,"errorMessage":"Summarization failed"}
`, []universal.ItemStatus{universal.StatusFailed}, []bool{true}, universal.TurnInterrupted}, // the announced retry never came: the turn stays open until the session's end
	} {
		events := translate(t, pi.FormatJSON, []byte(run+c.lines))
		var statuses []universal.ItemStatus
		for _, it := range completed(events) {
			if len(it.Content) > 0 && it.Content[0].Label == "compaction" {
				statuses = append(statuses, it.Status)
				if it.Status == universal.StatusCompleted && len(it.Content) != 2 {
					t.Errorf("%s: completed compaction without its summary: %+v", c.name, it.Content)
				}
				if it.Status == universal.StatusFailed && gjson.GetBytes(it.Content[0].Metadata, "errorMessage").Str == "" {
					t.Errorf("%s: failed compaction without its error: %s", c.name, it.Content[0].Metadata)
				}
			}
		}
		if !slices.Equal(statuses, c.statuses) {
			t.Errorf("%s: compaction items %v, want %v", c.name, statuses, c.statuses)
		}
		var retries []bool
		for _, e := range golden.OfType(events, universal.TypeError) {
			retries = append(retries, e.Data.(*universal.Error).WillRetry)
		}
		if !slices.Equal(retries, c.errors) {
			t.Errorf("%s: errors with will_retry %v, want %v", c.name, retries, c.errors)
		}
		ended := golden.OfType(events, universal.TypeTurnEnded)
		if len(ended) != 1 || ended[0].Data.(*universal.TurnEnded).Status != c.turnFinal {
			t.Errorf("%s: turns ended %v", c.name, ended)
		}
	}
}

// lines joins native lines into an input.
func lines(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// TestSystemPromptMetadata: Pi's system prompt (1.x system message) is
// session information: the turn.started metadata of the run it arrives
// in, the session.started metadata when it comes first, a session file's
// next turn; a changed one during a turn is a status item, a repeat
// nothing. Never a system item.
func TestSystemPromptMetadata(t *testing.T) {
	sys := func(preamble string) string {
		return `{"type":"message_end","message":{"role":"system","content":"","sections":{"preamble":"` + preamble + `","cwd":"<cwd>\n/w\n</cwd>"},"toolsAdded":[],"toolsRemoved":[]}}`
	}
	run := []string{
		`{"type":"agent_start"}`,
		`{"type":"turn_start"}`,
		strings.Replace(sys("P1"), "message_end", "message_start", 1),
		sys("P1"),
		`{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`,
		sys("P1"), // a repeat: nothing
		sys("P2"), // changed during the turn: a status item
		`{"type":"message_start","message":{"role":"assistant","content":[]}}`,
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.txt"}}],"stopReason":"toolUse"}}`,
		`{"type":"agent_end","messages":[]}`,
		`{"type":"agent_settled"}`,
	}
	events := translate(t, pi.FormatRPC, lines(run...))
	started := golden.OfType(events, universal.TypeTurnStarted)
	if len(started) != 1 || gjson.GetBytes(started[0].Data.(*universal.TurnStarted).Metadata, "system_prompt.sections.preamble").Str != "P1" {
		t.Fatalf("turn.started %v: want the system prompt in its metadata", started)
	}
	if started[0].Source != universal.SourceAgent {
		t.Errorf("turn.started source %s, want agent (agent_start)", started[0].Source)
	}
	var notices []string
	for _, it := range completed(events) {
		if it.Kind == universal.KindSystem {
			t.Errorf("system item %s: %+v", it.ItemID, it.Content)
		}
		if it.Kind == universal.KindStatus && it.Content[0].Label == "system_prompt" {
			notices = append(notices, gjson.GetBytes(it.Content[0].Metadata, "system_prompt.sections.preamble").Str)
		}
		if it.Kind == universal.KindToolCall {
			// The cwd section resolves paths when no header gave one.
			if in := it.Content[0].ToolInput; in == nil || len(in.Paths) != 1 || in.Paths[0] != "/w/a.txt" {
				t.Errorf("read call input %+v, want /w/a.txt", in)
			}
		}
	}
	if !slices.Equal(notices, []string{"P2"}) {
		t.Errorf("system prompt notices %q, want only the changed one", notices)
	}

	// First thing of the input: session metadata.
	events = translate(t, pi.FormatRPC, lines(sys("P0")))
	if md := events[0].Data.(*universal.SessionStarted).Metadata; gjson.GetBytes(md, "system_prompt.sections.preamble").Str != "P0" {
		t.Errorf("session.started metadata %s: want the system prompt", md)
	}

	// A session file writes it before the prompt: the next turn's.
	events = translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","cwd":"/w"}`,
		`{"type":"message","id":"e1","parentId":null,"message":`+gjson.Get(sys("P1"), "message").Raw+`}`,
		`{"type":"message","id":"e2","parentId":"e1","message":{"role":"user","content":"hi"}}`,
		`{"type":"message","id":"e3","parentId":"e2","message":{"role":"assistant","content":[{"type":"text","text":"yo"}],"stopReason":"stop"}}`,
	))
	started = golden.OfType(events, universal.TypeTurnStarted)
	if len(started) != 1 || gjson.GetBytes(started[0].Data.(*universal.TurnStarted).Metadata, "system_prompt.sections.preamble").Str != "P1" {
		t.Errorf("session file turn.started %v: want the system prompt", started)
	}
}

// TestToolVocabulary: every tool call has its kind and normalized input
// (paths resolved against the header's cwd); a non-zero bash exit is a
// failed result with exit_code; a read, write or edit names its file in a
// file_ref part (an edit with its unified patch); an image a read returns
// is an image part with the file's path.
func TestToolVocabulary(t *testing.T) {
	call := func(id, name, args string) string {
		return `{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"` + id + `","name":"` + name + `","arguments":` + args + `}],"stopReason":"toolUse"}}`
	}
	end := func(id, name, result string, isError bool) string {
		e := "false"
		if isError {
			e = "true"
		}
		return `{"type":"tool_execution_end","toolCallId":"` + id + `","toolName":"` + name + `","result":` + result + `,"isError":` + e + `}`
	}
	events := translate(t, pi.FormatJSON, lines(
		`{"type":"session","version":3,"id":"s","cwd":"/w"}`,
		`{"type":"agent_start"}`,
		`{"type":"message_end","message":{"role":"user","content":"go"}}`,
		call("b", "bash", `{"command":"false"}`),
		end("b", "bash", `{"content":[{"type":"text","text":"(no output)\n\nCommand exited with code 2"}]}`, true),
		call("r", "read", `{"path":"pic.png"}`),
		end("r", "read", `{"content":[{"type":"text","text":"Read image file [image/png]"},{"type":"image","data":"AAAA","mimeType":"image/png"}]}`, false),
		call("e", "edit", `{"path":"a.go","edits":[{"oldText":"x","newText":"y"}]}`),
		end("e", "edit", `{"content":[{"type":"text","text":"ok"}],"details":{"diff":"-1 x\n+1 y","patch":"--- a.go\n+++ a.go\n@@ -1 +1 @@\n-x\n+y\n"}}`, false),
		call("w", "write", `{"path":"/abs/n.md","content":"hi"}`),
		end("w", "write", `{"content":[{"type":"text","text":"ok"}]}`, false),
		call("g", "grep", `{"pattern":"TODO","path":"src"}`),
		end("g", "grep", `{"content":[{"type":"text","text":"none"}]}`, false),
		call("s", "subagent", `{"agent":"helper","task":"count"}`),
		end("s", "subagent", `{"content":[{"type":"text","text":"3"}],"details":{"mode":"single","results":[]}}`, false),
		call("x", "mcp_thing", `{"q":1}`),
		end("x", "mcp_thing", `{"content":[{"type":"text","text":"ok"}]}`, false),
		`{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop"}}`,
		`{"type":"agent_end","messages":[]}`,
	))
	kinds := map[string]string{}
	results := map[string]universal.Item{}
	for _, it := range completed(events) {
		switch it.Kind {
		case universal.KindToolCall:
			p := it.Content[0]
			var b []byte
			kinds[p.CallID] = string(p.ToolKind) + " " + string(p.ToolInput.AppendJSON(b))
		case universal.KindToolResult:
			results[it.Content[0].CallID] = it
		}
	}
	want := map[string]string{
		"b": `execute {"command":"false"}`,
		"r": `read {"paths":["/w/pic.png"]}`,
		"e": `edit {"paths":["/w/a.go"]}`,
		"w": `edit {"paths":["/abs/n.md"]}`,
		"g": `search {"paths":["/w/src"],"query":"TODO"}`,
		"s": `task {"prompt":"count","agent":"helper"}`,
		"x": `other {}`,
	}
	for id, w := range want {
		if kinds[id] != w {
			t.Errorf("call %s: %s, want %s", id, kinds[id], w)
		}
	}
	if b := results["b"]; b.Status != universal.StatusFailed || !b.Content[0].IsError || gjson.GetBytes(b.Content[0].Metadata, "exit_code").Int() != 2 {
		t.Errorf("bash result %s, metadata %s: want failed with exit_code 2", b.Status, b.Content[0].Metadata)
	}
	r := results["r"].Content
	if len(r) != 3 || r[1].Type != universal.PartFileRef || r[1].Action != universal.FileRead || r[1].Path != "/w/pic.png" ||
		r[2].Type != universal.PartImage || r[2].Mime != "image/png" || r[2].Path != "/w/pic.png" {
		t.Errorf("read result parts %+v: want tool_result, file_ref read, image with the path", r)
	}
	e := results["e"].Content
	if len(e) != 2 || e[1].Action != universal.FilePatch || e[1].Path != "/w/a.go" || !strings.HasPrefix(e[1].Diff, "--- a.go") {
		t.Errorf("edit result parts %+v: want a file_ref patch with the unified diff", e)
	}
	if w := results["w"].Content; len(w) != 2 || w[1].Action != universal.FileWrite || w[1].Path != "/abs/n.md" {
		t.Errorf("write result parts %+v: want a file_ref write", w)
	}
	if g := results["g"].Content; len(g) != 1 {
		t.Errorf("grep result parts %+v: want no file_ref", g)
	}
}

// TestToolWithoutItsMessage: a tool whose calling message was not seen
// (a stream picked up late) goes under the turn's last assistant message,
// or a new empty one; its result goes under the same message.
func TestToolWithoutItsMessage(t *testing.T) {
	events := translate(t, pi.FormatJSON, lines(
		`{"type":"agent_start"}`,
		`{"type":"tool_execution_start","toolCallId":"t1","toolName":"bash","args":{"command":"ls"}}`,
		`{"type":"tool_execution_end","toolCallId":"t1","toolName":"bash","result":{"content":[{"type":"text","text":"a"}]},"isError":false}`,
		`{"type":"tool_execution_start","toolCallId":"t2","toolName":"read","args":{"path":"a"}}`,
		`{"type":"tool_execution_end","toolCallId":"t2","toolName":"read","result":{"content":[{"type":"text","text":"x"}]},"isError":false}`,
		`{"type":"agent_end","messages":[]}`,
	))
	items := completed(events)
	assistants := messages(items, universal.RoleAssistant)
	if len(assistants) != 1 || len(assistants[0].Content) != 0 {
		t.Fatalf("assistant messages %+v: want one empty message for the calls", assistants)
	}
	for _, it := range items {
		if (it.Kind == universal.KindToolCall || it.Kind == universal.KindToolResult) && it.ParentID != assistants[0].ItemID {
			t.Errorf("%s %s under %q, want %s", it.Kind, it.ItemID, it.ParentID, assistants[0].ItemID)
		}
	}
}

// TestSessionFileEnding: a session file ends its last turn completed only
// when the record shows the agent answered; otherwise the turn stays open
// and the session's end interrupts it. A response whose prompt the file
// lacks gets its own turn with an empty user message.
func TestSessionFileEnding(t *testing.T) {
	head := []string{
		`{"type":"session","version":1,"cwd":"/w"}`,
		`{"type":"message","message":{"role":"user","content":"go"}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"bash","arguments":{"command":"ls"}}],"stopReason":"toolUse"}}`,
		`{"type":"message","message":{"role":"toolResult","toolCallId":"c","toolName":"bash","content":"a","isError":false}}`,
	}
	open := translate(t, pi.FormatSession, lines(head...))
	ended := golden.OfType(open, universal.TypeTurnEnded)
	if len(ended) != 1 || !ended[0].Data.(*universal.TurnEnded).SessionEnding() || open[len(open)-1].Data.(*universal.SessionEnded).Reason != universal.EndError {
		t.Errorf("file ending on a tool result: turns ended %v, session %v: want the turn left to the session's end", ended, open[len(open)-1].Data)
	}
	done := translate(t, pi.FormatSession, lines(append(head,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"a"}],"stopReason":"stop"}}`,
		`{"type":"thinking_level_change","thinkingLevel":"high"}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"b"}],"stopReason":"stop"}}`)...))
	ended = golden.OfType(done, universal.TypeTurnEnded)
	if len(ended) != 2 {
		t.Fatalf("turns ended %v, want 2", ended)
	}
	for _, e := range ended {
		if d := e.Data.(*universal.TurnEnded); d.Status != universal.TurnCompleted || d.SessionEnding() {
			t.Errorf("turn ended %+v, want completed", d)
		}
	}
	if d := done[len(done)-1].Data.(*universal.SessionEnded); d.Reason != universal.EndCompleted {
		t.Errorf("session ended %s, want completed", d.Reason)
	}
	users := messages(completed(done), universal.RoleUser)
	if len(users) != 2 || len(users[1].Content) != 0 {
		t.Errorf("user messages %+v: want the prompt and an empty one for the unrecorded prompt", users)
	}
}

// TestSubAgentItems: the subagent tool's runs, recorded in its result's
// details, are items under the spawning call: the sub-agent's prompt and
// messages, and its own calls and results under its messages.
func TestSubAgentItems(t *testing.T) {
	for _, name := range []string{"s10-subagent.json.jsonl", "s10-subagent.json.session.jsonl"} {
		f := filepath.Join(testdata, "1.5.2", name)
		format := pi.FormatJSON
		if strings.HasSuffix(name, ".session.jsonl") {
			format = pi.FormatSession
		}
		items := completed(translate(t, format, read(t, f)))
		byID := map[string]universal.Item{}
		spawn := ""
		for _, it := range items {
			byID[it.ItemID] = it
			if it.Kind == universal.KindToolCall && it.Content[0].ToolKind == universal.ToolTask {
				spawn = it.ItemID
			}
		}
		var under []string
		for _, it := range items {
			if it.ParentID == spawn && spawn != "" {
				under = append(under, string(it.Role))
			}
			if p, ok := byID[it.ParentID]; ok && p.ParentID == spawn && (it.Kind == universal.KindToolCall || it.Kind == universal.KindToolResult) {
				if p.Kind != universal.KindMessage || p.Role != universal.RoleAssistant {
					t.Errorf("%s: sub-agent %s under %s %s", name, it.Kind, p.Kind, p.Role)
				}
				under = append(under, "  "+string(it.Kind))
			}
		}
		if got := strings.Join(under, ","); got != "user,assistant,  tool_call,  tool_result,assistant" {
			t.Errorf("%s: under the subagent call: %s", name, got)
		}
	}
}

// TestRepeatedUIRequest: a second extension UI request with the id of one
// still pending is reported, not shown as a second question under the same
// id (its answer could not tell them apart, and a checkpoint holding both
// would not restore).
func TestRepeatedUIRequest(t *testing.T) {
	req := `{"type":"extension_ui_request","id":"q1","method":"confirm","title":"Ship it?"}`
	events := translate(t, pi.FormatRPC, lines(`{"type":"agent_start"}`, req, req, `{"type":"agent_end","messages":[]}`))
	if n := len(golden.OfType(events, universal.TypeQuestionRequested)); n != 1 {
		t.Errorf("%d questions, want 1", n)
	}
	var got []string
	for _, e := range golden.OfType(events, universal.TypeUnparsed) {
		got = append(got, e.Data.(*universal.Unparsed).Location)
	}
	if strings.Join(got, "|") != "pi: line 3" {
		t.Errorf("unparsed at %q, want the repeat (line 3)", got)
	}
}

// TestArgumentsReordered: a tool call's final arguments object with its
// members in another order than the streamed text's (a log re-serialized
// with sorted keys reorders the object, not the delta strings) is the
// same arguments: the streamed text is kept, the part is not rewritten.
// Other arguments than the streamed ones still rewrite it.
func TestArgumentsReordered(t *testing.T) {
	for _, c := range []struct {
		final     string
		rewritten bool
	}{
		{`{"path":"a.py","content":"x"}`, false},
		{`{"content":"x","path":"a.py"}`, false},
		{`{"content":"y","path":"a.py"}`, true},
	} {
		input := strings.Join([]string{
			`{"type":"message_start","message":{"role":"assistant","content":[],"stopReason":"pending"}}`,
			`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0}}`,
			`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","contentIndex":0,"delta":"{\"path\":\"a.py\","}}`,
			`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","contentIndex":0,"delta":"\"content\":\"x\"}"}}`,
			`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_end","contentIndex":0,"toolCall":{"type":"toolCall","id":"c1","name":"write","arguments":` + c.final + `}}}`,
			`{"type":"message_end","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"write","arguments":` + c.final + `}],"stopReason":"toolUse"}}`,
		}, "\n")
		var calls int
		for _, it := range completed(translate(t, pi.FormatRPC, []byte(input))) {
			if it.Kind != universal.KindToolCall {
				continue
			}
			calls++
			p := it.Content[0]
			if p.Rewritten != c.rewritten || !jsonscan.Same(p.Arguments, c.final) {
				t.Errorf("final %s: arguments %s, rewritten %v; want the same arguments, rewritten %v", c.final, p.Arguments, p.Rewritten, c.rewritten)
			}
		}
		if calls != 1 {
			t.Errorf("final %s: %d tool calls", c.final, calls)
		}
	}
}
