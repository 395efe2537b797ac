package pi_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// The tests below read oh-my-pi (omp, github.com/can1357/oh-my-pi), the
// fork of Pi, whose session files (~/.omp/agent/sessions/…/*.jsonl) are
// Pi's v3 files with more: lines written to its type definitions
// (packages/coding-agent/src/session/session-entries.ts at
// 841651204b3aa3ac0f3a98e6041ff4226c52ff9c, messages.ts,
// packages/ai/src/types.ts, docs/session.md at
// 034bf224d70a459ea9c562916f18df9f834de371). testdata/pi/handwritten/omp*
// are whole files of them.

// ompHeader is an omp session's first lines: its title slot (256 bytes
// with the newline in the real files; the padding does not matter here)
// and its header.
const ompHeader = `{"type":"title","v":1,"title":"Current title","source":"user","updatedAt":"2026-09-20T10:14:02.118Z","pad":"   "}
{"type":"session","version":3,"id":"s1","title":"Old title","titleSource":"auto","timestamp":"2026-09-20T10:00:00.000Z","cwd":"/w","additionalDirectories":["/x"]}
`

// ompRun translates an omp session file made of ompHeader and lines; no
// line may be agent.unparsed.
func ompRun(t *testing.T, ls ...string) []universal.Event {
	t.Helper()
	events := translate(t, pi.FormatSession, append([]byte(ompHeader), lines(ls...)...))
	for _, e := range golden.OfType(events, universal.TypeUnparsed) {
		t.Errorf("unparsed: %+v", e.Data)
	}
	return events
}

// ompUser and ompAnswer are a prompt and its answer.
const (
	ompUser   = `{"type":"message","id":"u1","parentId":null,"timestamp":"2026-09-20T10:01:00.000Z","message":{"role":"user","content":[{"type":"text","text":"hi"}],"attribution":"user","timestamp":1}}`
	ompAnswer = `{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-09-20T10:01:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"total":0}},"stopReason":"stop","timestamp":2}}`
)

// item returns the final snapshot of the item with that native id.
func item(t *testing.T, events []universal.Event, native string) universal.Item {
	t.Helper()
	for _, it := range completed(events) {
		if it.NativeItemID == native {
			return it
		}
	}
	t.Fatalf("no item %s", native)
	return universal.Item{}
}

// TestOmpTitleSlot: the title slot before the header is the session's
// current title, and the header's other fields are session metadata; the
// file is still a v3 tree (a new branch is announced).
func TestOmpTitleSlot(t *testing.T) {
	events := ompRun(t, ompUser, ompAnswer,
		`{"type":"message","id":"x1","parentId":"u1","timestamp":"2026-09-20T10:01:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"abandoned"}],"stopReason":"stop","timestamp":2}}`,
		`{"type":"label","id":"l1","parentId":"a1","timestamp":"2026-09-20T10:01:02.000Z","targetId":"a1","label":"ok"}`)
	started := golden.OfType(events, universal.TypeSessionStarted)
	if len(started) != 1 {
		t.Fatalf("%d session.started", len(started))
	}
	var md map[string]any
	if err := json.Unmarshal(started[0].Data.(*universal.SessionStarted).Metadata, &md); err != nil {
		t.Fatal(err)
	}
	if md["title"] != "Current title" || md["title_source"] != "user" || md["cwd"] != "/w" || md["additional_directories"] == nil {
		t.Errorf("session metadata %v", md)
	}
	// x1 branched off u1; the label grows from a1 again: a1's branch is
	// current once more, and x1 is abandoned.
	items := completed(events)
	if n := len(items); n < 2 || items[n-2].Content[0].Label != "reverted" || items[n-3].NativeItemID != "x1" {
		t.Errorf("want x1, then reverted before the label; got %+v", items)
	} else if md := string(items[n-2].Content[0].Metadata); md != `{"entry_id":"x1","item_id":"`+items[n-3].ItemID+`"}` {
		t.Errorf("reverted metadata %s", md)
	}
	for _, head := range []string{ompHeader, ompHeader + ompUser + "\n"} {
		if got := pi.Detect([]byte(head)); got != pi.FormatSession {
			t.Errorf("Detect = %q, want session, for %q", got, head)
		}
	}
}

// TestOmpEntries: omp's entry types are status items (Pi's session_info
// for title_change), with their fields in the metadata; model_change
// names the model in its model field.
func TestOmpEntries(t *testing.T) {
	for _, c := range []struct{ line, label, detail, md string }{
		{`{"type":"model_change","id":"e","parentId":null,"timestamp":"t","model":"openai/gpt-5","role":"smol","resolvedModelIsFallback":false}`,
			"model", "openai/gpt-5", `{"role":"smol","resolvedModelIsFallback":false}`},
		{`{"type":"thinking_level_change","id":"e","parentId":null,"timestamp":"t","thinkingLevel":"high","configured":"auto"}`,
			"thinking_level", "high", `{"configured":"auto"}`},
		{`{"type":"service_tier_change","id":"e","parentId":null,"timestamp":"t","serviceTier":{"openai":"flex"}}`,
			"service_tier", `{"openai":"flex"}`, `{"serviceTier":{"openai":"flex"}}`},
		{`{"type":"service_tier_change","id":"e","parentId":null,"timestamp":"t","serviceTier":null}`,
			"service_tier", "", `{"serviceTier":null}`},
		{`{"type":"title_change","id":"e","parentId":null,"timestamp":"t","title":"New","previousTitle":"Old","source":"user","trigger":"rename"}`,
			"title", "New", `{"previousTitle":"Old","source":"user","trigger":"rename"}`},
		{`{"type":"ttsr_injection","id":"e","parentId":null,"timestamp":"t","injectedRules":["a","b"]}`,
			"ttsr_injection", "a, b", `{"injectedRules":["a","b"]}`},
		{`{"type":"credential_pin","id":"e","parentId":null,"timestamp":"t","provider":"anthropic","hash":"h"}`,
			"credential_pin", "anthropic", `{"hash":"h"}`},
		{`{"type":"mode_change","id":"e","parentId":null,"timestamp":"t","mode":"plan","data":{"planFile":"/p.md"}}`,
			"mode", "plan", `{"mode":"plan","data":{"planFile":"/p.md"}}`},
		{`{"type":"reset_boundary","id":"e","parentId":null,"timestamp":"t"}`,
			"reset_boundary", "context cleared", ``},
	} {
		it := item(t, ompRun(t, c.line), "e")
		p := it.Content[0]
		if it.Kind != universal.KindStatus || p.Label != c.label || p.Detail != c.detail || string(p.Metadata) != c.md {
			t.Errorf("%s: %s %q %s, want %s %q %s", c.line, p.Label, p.Detail, p.Metadata, c.label, c.detail, c.md)
		}
	}
}

// TestOmpSessionInit: the session_init entry of a sub-agent's session is
// its system prompt information, in the metadata of the turn it opens.
func TestOmpSessionInit(t *testing.T) {
	events := ompRun(t,
		`{"type":"session_init","id":"i1","parentId":null,"timestamp":"t","systemPrompt":"You are scout.","task":"hi","tools":["read"],"agent":"scout"}`,
		strings.Replace(ompUser, `"parentId":null`, `"parentId":"i1"`, 1), ompAnswer)
	turns := golden.OfType(events, universal.TypeTurnStarted)
	if len(turns) != 1 {
		t.Fatalf("%d turns", len(turns))
	}
	want := `{"system_prompt":{"content":"You are scout.","task":"hi","tools":["read"],"agent":"scout"}}`
	if got := string(turns[0].Data.(*universal.TurnStarted).Metadata); got != want {
		t.Errorf("turn metadata %s, want %s", got, want)
	}
}

// TestOmpMessages: omp's roles and content blocks. developer is a system
// item (like custom); fileMention belongs to the prompt (a user message
// of file_refs and contents, no new turn); pythonExecution is a command
// the user ran, like bashExecution; redactedThinking is private
// reasoning; toolCall intent, user synthetic and attribution are kept.
func TestOmpMessages(t *testing.T) {
	events := ompRun(t, ompUser,
		`{"type":"message","id":"f1","parentId":"u1","timestamp":"t","message":{"role":"fileMention","files":[{"path":"a.ts","content":"1: x","lineCount":1}],"timestamp":1}}`,
		`{"type":"message","id":"d1","parentId":"f1","timestamp":"t","message":{"role":"developer","content":[{"type":"text","text":"plan mode"}],"attribution":"agent","timestamp":1}}`,
		`{"type":"message","id":"a0","parentId":"d1","timestamp":"t","message":{"role":"assistant","content":[{"type":"redactedThinking","data":"ENC"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.ts"},"intent":"look"}],"stopReason":"toolUse","timestamp":2}}`,
		`{"type":"message","id":"r1","parentId":"a0","timestamp":"t","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"x"}],"isError":false,"prunedAt":5,"timestamp":3}}`,
		strings.Replace(ompAnswer, `"parentId":"u1"`, `"parentId":"r1"`, 1),
		`{"type":"message","id":"p1","parentId":"a1","timestamp":"t","message":{"role":"pythonExecution","code":"print(1)","output":"1\n","exitCode":0,"cancelled":false,"truncated":false,"timestamp":4}}`,
		`{"type":"message","id":"u2","parentId":"p1","timestamp":"t","message":{"role":"user","content":"Continue.","synthetic":true,"attribution":"agent","timestamp":5}}`)
	if n := len(golden.OfType(events, universal.TypeTurnStarted)); n != 2 {
		t.Errorf("%d turns, want 2 (a file mention is no prompt)", n)
	}
	f := item(t, events, "f1")
	if f.Kind != universal.KindMessage || f.Role != universal.RoleUser || len(f.Content) != 2 ||
		f.Content[0].Type != universal.PartFileRef || f.Content[0].Path != "/w/a.ts" || f.Content[1].Text != "1: x" {
		t.Errorf("file mention %+v", f)
	}
	if d := item(t, events, "d1"); d.Kind != universal.KindSystem || d.Content[0].Text != "plan mode" ||
		string(d.Content[0].Metadata) != `{"role":"developer","attribution":"agent"}` {
		t.Errorf("developer %+v", d)
	}
	if a := item(t, events, "a0"); len(a.Content) != 1 || a.Content[0].Type != universal.PartReasoning ||
		a.Content[0].Visibility != universal.VisibilityPrivate || a.Content[0].Signature != "ENC" {
		t.Errorf("redacted thinking %+v", a)
	}
	if c := item(t, events, "c1"); string(c.Content[0].Metadata) != `{"intent":"look"}` {
		t.Errorf("tool call %+v", c)
	}
	if r := item(t, events, "r1"); !strings.Contains(string(r.Content[0].Metadata), `"prunedAt":5`) {
		t.Errorf("tool result %+v", r)
	}
	var py []universal.Item
	for _, it := range completed(events) {
		if it.NativeItemID == "p1" {
			py = append(py, it)
		}
	}
	if len(py) != 2 || py[0].Content[0].Name != "pythonExecution" || py[0].Content[0].Arguments != `{"code":"print(1)"}` ||
		py[0].Content[0].ToolKind != universal.ToolExecute || py[1].Content[0].Output != "1\n" {
		t.Errorf("python execution %+v", py)
	}
	if u := item(t, events, "u2"); string(u.Content[0].Metadata) != `{"synthetic":true,"attribution":"agent"}` {
		t.Errorf("synthetic prompt %+v", u)
	}
}

// TestOmpPersistence: what omp does to large content when it writes the
// file. An image's data in its blob store is a reference that the image
// part keeps (its path, metadata blob); a string cut to 500,000
// characters ends with its notice and is kept as it is, marked
// truncated.
func TestOmpPersistence(t *testing.T) {
	const ref = "blob:sha256:5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"
	const cut = `x\n\n[Session persistence truncated large content]`
	events := ompRun(t,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"`+cut+`"},{"type":"image","data":"`+ref+`","mimeType":"image/png"}],"timestamp":1}}`,
		`{"type":"message","id":"a0","parentId":"u1","timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"stopReason":"toolUse","timestamp":2}}`,
		`{"type":"message","id":"r1","parentId":"a0","timestamp":"t","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"`+cut+`"}],"isError":false,"timestamp":3}}`)
	u := item(t, events, "u1")
	if len(u.Content) != 2 || string(u.Content[0].Metadata) != `{"truncated":true}` || !strings.HasSuffix(u.Content[0].Text, "content]") {
		t.Errorf("truncated prompt %+v", u.Content)
	}
	if img := u.Content[1]; img.Type != universal.PartImage || img.Path != ref || img.Mime != "image/png" || string(img.Metadata) != `{"blob":"`+ref+`"}` {
		t.Errorf("image %+v", img)
	}
	if r := item(t, events, "r1"); !strings.Contains(string(r.Content[0].Metadata), `"truncated":true`) || !strings.HasSuffix(r.Content[0].Output, "content]") {
		t.Errorf("truncated result %+v", r.Content)
	}
}

// TestOmpTools: oh-my-pi's own tools get their kinds and inputs: a task
// call's first assignment is its prompt, ast_grep's pattern its query,
// ssh's command its command.
func TestOmpTools(t *testing.T) {
	call := func(id, parent, name, args string) string {
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-09-20T10:01:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c_` + id +
			`","name":"` + name + `","arguments":` + args + `}],"api":"anthropic-messages","provider":"anthropic","model":"m","stopReason":"toolUse","timestamp":2}}`
	}
	events := ompRun(t, ompUser,
		call("a1", "u1", "task", `{"agent":"explore","context":"c","tasks":[{"id":"One","description":"d","assignment":"Find the parser."}]}`),
		call("a2", "a1", "ast_grep", `{"pat":"foo($A)","path":"src"}`),
		call("a3", "a2", "ssh", `{"host":"box","command":"uptime"}`))
	for _, c := range []struct {
		native string
		kind   universal.ToolKind
		check  func(*universal.ToolInput) bool
	}{
		{"c_a1", universal.ToolTask, func(in *universal.ToolInput) bool { return in.Prompt == "Find the parser." && in.Agent == "explore" }},
		{"c_a2", universal.ToolSearch, func(in *universal.ToolInput) bool {
			return in.Query == "foo($A)" && len(in.Paths) == 1 && in.Paths[0] == "/w/src"
		}},
		{"c_a3", universal.ToolExecute, func(in *universal.ToolInput) bool { return in.Command == "uptime" }},
	} {
		p := item(t, events, c.native).Content[0]
		if p.ToolKind != c.kind || p.ToolInput == nil || !c.check(p.ToolInput) {
			t.Errorf("%s: kind %s input %+v", c.native, p.ToolKind, p.ToolInput)
		}
	}
}

// TestOmpNewerEntries: entries of omp's session-entries.ts (can1357/oh-my-pi
// at 01d016c) that were agent.unparsed: model_usage (usage of a model
// call outside the transcript, a title or a summary: its tokens and cost
// were lost) is usage with the call's model, provider, purpose and role in
// the metadata; archive (a branch hidden from view) and the older
// mcp_tool_selection (MCP tools selected in discovery mode, still read by
// omp) are status items.
func TestOmpNewerEntries(t *testing.T) {
	events := ompRun(t, ompUser, ompAnswer,
		`{"type":"model_usage","id":"mu","parentId":"a1","timestamp":"t","purpose":"title","role":"smol","api":"anthropic-messages","provider":"anthropic","model":"claude-haiku","usage":{"input":100,"output":10,"cacheRead":5,"cacheWrite":0,"totalTokens":115,"cost":{"total":0.25}},"stopReason":"stop"}`,
		`{"type":"archive","id":"ar","parentId":"mu","timestamp":"t","targetId":"u1","archived":true}`,
		`{"type":"mcp_tool_selection","id":"ms","parentId":"ar","timestamp":"t","selectedToolNames":["mcp__docs_search","mcp__x"]}`,
	)
	us := golden.OfType(events, universal.TypeUsageUpdated)
	if len(us) != 2 {
		t.Fatalf("%d usage events, want the answer's and model_usage's", len(us))
	}
	u := us[1].Data.(*universal.UsageUpdated)
	if u.Usage.InputTokens == nil || *u.Usage.InputTokens != 105 || u.Usage.OutputTokens == nil || *u.Usage.OutputTokens != 10 ||
		u.CostUSD == nil || *u.CostUSD != 0.25 ||
		string(u.Metadata) != `{"model":"claude-haiku","provider":"anthropic","purpose":"title","role":"smol","api":"anthropic-messages","stopReason":"stop"}` {
		t.Errorf("model_usage: %+v %s", u.Usage, u.Metadata)
	}
	for _, c := range []struct{ id, label, detail, md string }{
		{"ar", "archive", "u1", `{"archived":true}`},
		{"ms", "mcp_tool_selection", "mcp__docs_search, mcp__x", `{"selectedToolNames":["mcp__docs_search","mcp__x"]}`},
	} {
		it := item(t, events, c.id)
		p := it.Content[0]
		if it.Kind != universal.KindStatus || p.Label != c.label || p.Detail != c.detail || string(p.Metadata) != c.md {
			t.Errorf("%s: %s %q %s, want %s %q %s", c.id, p.Label, p.Detail, p.Metadata, c.label, c.detail, c.md)
		}
	}
}

// TestOmpSessionSettings: omp starts a session file with the model of no
// role (model_change {model: "provider/modelId"}) and its thinking level
// (thinking_level_change with configured null), as redacted real omp
// lines (2026-08-19, quoted in a public project's tests) show. They were
// status items, and session.started named no model: they are its model,
// provider and reasoning_effort, as Pi's are. A model with a role, or a
// configured selector, stays a status item. (Lines in that shape, with
// made-up values.)
func TestOmpSessionSettings(t *testing.T) {
	events := ompRun(t,
		`{"type":"model_change","id":"m1","parentId":null,"timestamp":"t","model":"mc-openai/org/model-27b"}`,
		`{"type":"thinking_level_change","id":"t1","parentId":"m1","timestamp":"t","thinkingLevel":"high","configured":null}`,
		strings.Replace(ompUser, `"parentId":null`, `"parentId":"t1"`, 1), ompAnswer)
	var md map[string]any
	if err := json.Unmarshal(events[0].Data.(*universal.SessionStarted).Metadata, &md); err != nil {
		t.Fatal(err)
	}
	if md["model"] != "org/model-27b" || md["provider"] != "mc-openai" || md["reasoning_effort"] != "high" {
		t.Errorf("session.started metadata %v", md)
	}
	for _, it := range completed(events) {
		if it.Kind == universal.KindStatus {
			t.Errorf("status item %+v", it.Content[0])
		}
	}
	for _, ls := range [][]string{
		{`{"type":"model_change","id":"m1","parentId":null,"timestamp":"t","model":"anthropic/claude-x","role":"default"}`},
		{`{"type":"model_change","id":"m1","parentId":null,"timestamp":"t","model":"no-slash"}`},
		{`{"type":"thinking_level_change","id":"m1","parentId":null,"timestamp":"t","thinkingLevel":"high","configured":"auto"}`},
	} {
		events := ompRun(t, ls...)
		if len(completed(events)) != 1 {
			t.Errorf("%s: not a status item", ls[0])
		}
	}
}

// TestOmpErrorStatus: oh-my-pi's assistant message of a failed model call
// carries the provider's HTTP status and its kind of the error
// (AssistantMessage errorStatus, errorKind), as its jsonl output of a turn
// refused with 429 shows (yorch/pi-harness-delegate's
// tests/fixtures/amp-error.jsonl, kept as
// public/pi-harness-delegate__omp-429-error.jsonl). Both were dropped;
// they are the error status part's metadata (http_status, error_kind) and
// the details of the error the failed message ends its turn with.
func TestOmpErrorStatus(t *testing.T) {
	data := read(t, filepath.Join(testdata, "public", "pi-harness-delegate__omp-429-error.jsonl"))
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.Contains(l, `"type":"auto_retry_end"`) {
			continue // the turn's error is then the message's own
		}
		lines = append(lines, strings.Replace(l, `"errorId":659456,`, `"errorId":659456,"errorKind":"rate_limit",`, 1))
	}
	evs := translate(t, pi.FormatJSON, []byte(strings.Join(lines, "\n")+"\n"))
	var md []byte
	for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := ev.Data.(*universal.ItemSnapshot).Item
		for _, p := range it.Content {
			if p.Type == universal.PartStatus && p.Label == "error" {
				md = p.Metadata
			}
		}
	}
	if string(md) != `{"http_status":429,"error_kind":"rate_limit"}` {
		t.Errorf("error status metadata %s", md)
	}
	errs := golden.OfType(evs, universal.TypeError)
	if len(errs) != 1 || string(errs[0].Data.(*universal.Error).Details) != `{"http_status":429,"error_kind":"rate_limit"}` {
		t.Errorf("errors %+v", errs)
	}
}

// TestOmpModePrevious: an oh-my-pi mode_change names the mode it replaces
// when an earlier one named it (metadata previous {"mode"}), as the other
// agents' mode items do; the first one does not know it.
func TestOmpModePrevious(t *testing.T) {
	evs := ompRun(t,
		`{"type":"mode_change","id":"m1","parentId":null,"timestamp":"t","mode":"plan"}`,
		`{"type":"mode_change","id":"m2","parentId":"m1","timestamp":"t","mode":"none"}`)
	for _, c := range []struct{ id, md string }{
		{"m1", `{"mode":"plan"}`},
		{"m2", `{"mode":"none","previous":{"mode":"plan"}}`},
	} {
		if p := item(t, evs, c.id).Content[0]; p.Label != universal.LabelMode || string(p.Metadata) != c.md {
			t.Errorf("%s: %s %s, want mode %s", c.id, p.Label, p.Metadata, c.md)
		}
	}
}
