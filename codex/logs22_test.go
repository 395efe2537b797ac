package codex_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// TestDetectHostSideRecorder: orquester's replay fixtures of codex
// app-server 0.154.0 (testdata/codex/public/app-server/orquester-*) are
// exchanges recorded from the host's side, {"t", "dir": "send" | "recv" |
// "stderr" | "note", "frame"}, and open with the recorder's notes and a
// line of Codex's stderr. The format was not detected (the first line, a
// note, decided) and the records were not read.
func TestDetectHostSideRecorder(t *testing.T) {
	b, err := os.ReadFile(public + "/app-server/orquester-0.154.0-01-text-turn.exchange.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := codex.Detect(b); got != codex.FormatExchange {
		t.Errorf("Detect = %q, want %q", got, codex.FormatExchange)
	}
	for _, head := range []string{
		`{"t":6,"dir":"note","frame":"spawn: codex app-server"}` + "\n" + `{"t":7,"dir":"note","frame":"scenario 1"}`,
		`{"t":6,"dir":"note","frame":"spawn"}` + "\n" + `{"type":"system","subtype":"init","session_id":"s"}`,
	} {
		if got := codex.Detect([]byte(head)); got != "" {
			t.Errorf("Detect(%q) = %q, want none", head, got)
		}
	}
}

// TestHostSideRecorderStderr: the stderr lines such a recorder keeps
// (codex app-server 0.154.0's tracing log, ANSI colours and all) are the
// session's stderr, as exec's non-JSON lines are; neither a note nor a
// stderr line is agent.unparsed.
func TestHostSideRecorderStderr(t *testing.T) {
	const rec = `{"t":7,"dir":"send","frame":{"id":1,"method":"initialize","params":{"clientInfo":{"name":"orquester","title":"Orquester","version":"0.0.0"},"capabilities":{"experimentalApi":true}}}}
{"t":329,"dir":"stderr","frame":"\u001b[2m2026-09-21T01:39:54.103145Z\u001b[0m \u001b[31mERROR\u001b[0m \u001b[2mcodex_app_server\u001b[0m\u001b[2m:\u001b[0m Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces."}
{"t":425,"dir":"recv","frame":{"id":1,"result":{"userAgent":"orquester/0.154.0 (Ubuntu 24.4.0; x86_64) tmux-256color (orquester; 0.0.0)","codexHome":"~/.codex","platformFamily":"unix","platformOs":"linux"}}}
{"t":7427,"dir":"note","frame":"child exit code=0 signal=null"}
`
	tr, err := codex.New(codex.FormatExchange, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	for m, err := range universal.Messages(universal.NewExchangeReader(strings.NewReader(rec), 0)) {
		if err != nil {
			t.Fatal(err)
		}
		out = tr.Translate(out, m)
	}
	out = tr.Report(out, universal.EndOfInput{})
	if err := universal.CheckStream(out); err != nil {
		t.Fatal(err)
	}
	end := out[len(out)-1]
	d, ok := end.Data.(*universal.SessionEnded)
	if end.Type != universal.TypeSessionEnded || !ok || !strings.Contains(d.Stderr, "Codex's Linux sandbox uses bubblewrap") {
		t.Fatalf("last event %s %+v, want session.ended with the stderr line", end.Type, end.Data)
	}
	for _, e := range out {
		if e.Type == universal.TypeUnparsed {
			t.Errorf("agent.unparsed: %+v", e.Data)
		}
	}
}

// TestConfigWarningAndDeprecationNotice: the app-server's configWarning
// {summary, details, path?, range?} and deprecationNotice {summary,
// details} (openai/codex app-server-protocol v2: "Concise summary of the
// warning", "Optional extra guidance or error details", "Optional path to
// the config file that triggered the warning"), which codex exec prints
// as error items of "summary (details)", were ignored. orquester's 0.154.0
// captures (lines quoted) hold one of each: a config warning sent before
// the thread/start response, and a deprecation notice after a
// thread/rollback. They are status items config_warning and
// deprecation_notice now, a notice before the session started held until
// it starts; so is the core deprecation_notice event.
func TestConfigWarningAndDeprecationNotice(t *testing.T) {
	const (
		warning    = `{"method":"configWarning","params":{"summary":"Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.","details":null},"emittedAtMs":1789954794202}`
		deprecated = `{"method":"deprecationNotice","params":{"summary":"thread/rollback is deprecated and will be removed soon","details":null}}`
		located    = `{"method":"configWarning","params":{"summary":"unknown feature key in config","details":"builtin_mcp","path":"/home/u/.codex/config.toml","range":{"start":{"line":3,"column":1},"end":{"line":3,"column":12}}}}`
		started    = `{"id":2,"result":{"thread":{"id":"01a0c19e-a2ec-7bc0-bb96-49a226d1fb15","cliVersion":"0.154.0","model":"gpt-5.5","cwd":"/w"},"model":"gpt-5.5","cwd":"/w"}}`
	)
	type status struct{ label, detail, meta string }
	statuses := func(evs []universal.Event) (got []status, firstSeq int64) {
		for _, e := range evs {
			if e.Type != universal.TypeItemCompleted {
				continue
			}
			it := e.Data.(*universal.ItemSnapshot).Item
			if it.Kind != universal.KindStatus {
				continue
			}
			if firstSeq == 0 {
				firstSeq = e.Sequence
			}
			p := it.Content[0]
			got = append(got, status{p.Label, p.Detail, string(p.Metadata)})
		}
		return got, firstSeq
	}
	cases := []struct {
		name   string
		format string
		lines  []string
		want   []status
	}{
		{"before the session", codex.FormatExchange,
			[]string{`in {"id":2,"method":"thread/start","params":{"cwd":"/w","model":"gpt-5.5"}}`, warning, started, deprecated, located},
			[]status{
				{"config_warning", "Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.", ""},
				{"deprecation_notice", "thread/rollback is deprecated and will be removed soon", ""},
				{"config_warning", "unknown feature key in config (builtin_mcp)", `{"path":"/home/u/.codex/config.toml","range":{"start":{"line":3,"column":1},"end":{"line":3,"column":12}}}`},
			}},
		{"no session ever", codex.FormatAppServer, []string{warning},
			[]status{{"config_warning", "Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.", ""}}},
		{"core event", codex.FormatRollout,
			[]string{
				`{"timestamp":"2026-09-21T01:39:54.000Z","type":"session_meta","payload":{"id":"01a0c19e-a2ec-7bc0-bb96-49a226d1fb15","cwd":"/w","cli_version":"0.154.0"}}`,
				`{"timestamp":"2026-09-21T01:39:55.000Z","type":"event_msg","payload":{"type":"deprecation_notice","summary":"[features].web_search_request is deprecated","details":"Use web_search instead."}}`,
			},
			[]status{{"deprecation_notice", "[features].web_search_request is deprecated (Use web_search instead.)", ""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := run(t, c.format, nil, c.lines)
			got, first := statuses(evs)
			for i := range got {
				if got[i].meta == "{}" || got[i].meta == "null" {
					got[i].meta = ""
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("status items:\n got %q\nwant %q", got, c.want)
			}
			if evs[0].Type != universal.TypeSessionStarted || first != 0 && first < evs[0].Sequence {
				t.Errorf("a notice before session.started")
			}
			if c.name == "before the session" {
				md := string(evs[0].Data.(*universal.SessionStarted).Metadata)
				if !strings.Contains(md, `"agent_version":"0.154.0"`) {
					t.Errorf("the held notice started the session without the thread/start response's metadata: %s", md)
				}
			}
		})
	}
}

// TestMCPToolApprovalElicitation: Codex asks the host to approve a call of
// a write-capable MCP tool with mcpServer/elicitation/request whose _meta
// says so (codex_approval_kind "mcp_tool_call", persist, tool_title,
// tool_description, arguments; openai/codex's MCP tool approval prompt,
// codex_approval_kind and persist keys shared with codex-acp, which turns
// it into a request for permission). It was a question whose _meta was
// dropped; it is a permission now, resolved by the host's {action}.
// Request and answers as orquester's notes on its 0.154.0 capture
// (15-mcp-elicitation-approval) quote them, its tool description shortened.
func TestMCPToolApprovalElicitation(t *testing.T) {
	const (
		request = `{"method":"mcpServer/elicitation/request","id":1,"params":{"threadId":"th1","turnId":"tu1","serverName":"serena","mode":"form","_meta":{"codex_approval_kind":"mcp_tool_call","persist":["session","always"],"tool_title":"Replace In Files","tool_description":"Replaces occurrences of a pattern across multiple files in ONE call.","arguments":[{"name":"relative_path","value":"a.ts","display_name":"relative_path"},{"name":"repl","value":"export const a = 4;","display_name":"repl"}]},"message":"Allow the serena MCP server to run tool \"replace_in_files\"?","requestedSchema":{"type":"object","properties":{}}}}`
		accept  = `in {"id":1,"result":{"action":"accept","content":null,"_meta":null}}`
		decline = `in {"id":1,"result":{"action":"decline","content":null,"_meta":null}}`
		always  = `in {"id":1,"result":{"action":"accept","content":null,"_meta":{"persist":"always"}}}`
	)
	for _, c := range []struct {
		answer, status, decision string
	}{
		{accept, "approved", `"decision":"accept"`},
		{decline, "denied", `"decision":"decline"`},
		{always, "approved", `"persist":"always"`},
	} {
		evs := run(t, codex.FormatExchange, nil, []string{thStarted, turnStarted, request, c.answer, turnDone})
		var req, res *universal.Permission
		for _, e := range evs {
			switch e.Type {
			case universal.TypePermissionRequested:
				req = e.Data.(*universal.Permission)
			case universal.TypePermissionResolved:
				res = e.Data.(*universal.Permission)
			case universal.TypeQuestionRequested:
				t.Errorf("the approval is a question")
			}
		}
		if req == nil || res == nil {
			t.Fatalf("%s: no permission requested and resolved", c.answer)
		}
		if req.Action != "serena: Replace In Files" || !strings.Contains(string(req.Metadata), `"tool_description":"Replaces occurrences`) ||
			!strings.Contains(string(req.Metadata), `"persist":["session","always"]`) {
			t.Errorf("request %q %s", req.Action, req.Metadata)
		}
		if string(res.Status) != c.status || !strings.Contains(string(res.Metadata), c.decision) {
			t.Errorf("%s: resolved %s %s, want %s with %s", c.answer, res.Status, res.Metadata, c.status, c.decision)
		}
	}
}

// TestMCPStartupFailureNotice: an MCP server that failed to start (or whose
// start was cancelled) was dropped: the app-server's
// mcpServer/startupStatus/updated {threadId, name, status: starting | ready
// | failed | cancelled, error, failureReason} (orquester's 0.154.0
// captures: 190 of them, the ready and starting ones quoted here) and the
// core mcp_startup_update {server, status: {state, error}} (openai/codex
// protocol McpStartupUpdateEvent) were ignored whole. A failure is a
// notice status item now, as the acp translator shows codex-acp's
// forwarding of the same fact; starting and ready stay ignored.
func TestMCPStartupFailureNotice(t *testing.T) {
	const (
		starting = `{"method":"mcpServer/startupStatus/updated","params":{"threadId":"th1","name":"agent-browser","status":"starting","error":null,"failureReason":null},"emittedAtMs":1789954794412}`
		ready    = `{"method":"mcpServer/startupStatus/updated","params":{"threadId":"th1","name":"agent-browser","status":"ready","error":null,"failureReason":null},"emittedAtMs":1789954794413}`
		failed   = `{"method":"mcpServer/startupStatus/updated","params":{"threadId":"th1","name":"pockode","status":"failed","error":"handshaking with MCP server failed: connection closed: initialize response","failureReason":"startupError"},"emittedAtMs":1789954794414}`
		canceled = `{"method":"mcpServer/startupStatus/updated","params":{"threadId":"th1","name":"jira","status":"cancelled","error":null,"failureReason":null}}`
	)
	type status struct{ label, detail string }
	collect := func(evs []universal.Event) (got []status, meta []string) {
		for _, e := range evs {
			if e.Type != universal.TypeItemCompleted {
				continue
			}
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindStatus {
				got = append(got, status{it.Content[0].Label, it.Content[0].Detail})
				meta = append(meta, string(it.Content[0].Metadata))
			}
		}
		return got, meta
	}
	evs := run(t, codex.FormatAppServer, nil, []string{thStarted, starting, ready, failed, canceled, turnStarted, turnDone})
	got, meta := collect(evs)
	want := []status{
		{"notice", "MCP server `pockode` failed to start: handshaking with MCP server failed: connection closed: initialize response"},
		{"notice", "MCP server `jira` start was cancelled"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("status items:\n got %q\nwant %q", got, want)
	}
	if meta[0] != `{"mcp_server":"pockode","status":"failed","failure_reason":"startupError"}` {
		t.Errorf("metadata %s", meta[0])
	}
	evs = run(t, codex.FormatRollout, nil, []string{
		`{"timestamp":"2026-09-21T01:39:54.000Z","type":"session_meta","payload":{"id":"01a0c19e-a2ec-7bc0-bb96-49a226d1fb15","cwd":"/w","cli_version":"0.154.0"}}`,
		`{"timestamp":"2026-09-21T01:39:55.000Z","type":"event_msg","payload":{"type":"mcp_startup_update","server":"pockode","status":{"state":"starting"}}}`,
		`{"timestamp":"2026-09-21T01:39:56.000Z","type":"event_msg","payload":{"type":"mcp_startup_update","server":"pockode","status":{"state":"failed","error":"handshaking with MCP server failed"}}}`,
		`{"timestamp":"2026-09-21T01:39:56.000Z","type":"event_msg","payload":{"type":"mcp_startup_complete","ready":[],"failed":[{"server":"pockode","error":"handshaking with MCP server failed"}],"cancelled":[]}}`,
	})
	if got, _ := collect(evs); !slices.Equal(got, []status{{"notice", "MCP server `pockode` failed to start: handshaking with MCP server failed"}}) {
		t.Errorf("core events: %q", got)
	}
}

// TestMCPElicitationFormAnswer: an MCP server's form (mcpServer/
// elicitation/request, mode form) accepted with {action: accept, content}
// was answered with the content's JSON ({"env":"prod"}); the answer is what
// the user answered, "label: value" lines for several fields in the form's
// order (the field's title, else its key), as the acp translator reads the
// same MCP form (claude-agent-acp's, a public agent-shell capture) and as
// request_user_input's answers read. The content stays in metadata.
func TestMCPElicitationFormAnswer(t *testing.T) {
	request := `{"method":"mcpServer/elicitation/request","id":1,"params":{"threadId":"th1","turnId":"tu1","serverName":"deploy","mode":"form","message":"Where to deploy?","requestedSchema":{"type":"object","properties":{"env":{"type":"string","title":"Environment","enum":["staging","prod"]},"regions":{"type":"array","items":{"enum":["eu","us"]}}}}}}`
	for _, c := range []struct{ content, want string }{
		{`{"env":"prod"}`, "prod"},
		{`{"regions":["eu","us"],"env":"staging"}`, "Environment: staging\nregions: eu, us"},
	} {
		answer := `in {"id":1,"result":{"action":"accept","content":` + c.content + `}}`
		evs := run(t, codex.FormatExchange, nil, []string{thStarted, turnStarted, request, answer, turnDone})
		var got []string
		for _, e := range evs {
			if q, ok := e.Data.(*universal.Question); ok && e.Type == universal.TypeQuestionResolved {
				got = append(got, q.Response)
				if !strings.Contains(string(q.Metadata), `"content":`+c.content) {
					t.Errorf("%s: the content is not in metadata: %s", c.content, q.Metadata)
				}
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: answered %q, want [%q]", c.content, got, c.want)
		}
	}
}
