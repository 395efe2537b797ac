package pi_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSessionFileSettings: Pi writes the model and thinking level a
// session starts with as entries right after a session file's header
// (model_change, thinking_level_change; every recorded v3 file does).
// They were status items, and session.started named no model. They are
// its model, provider and reasoning_effort, as every agent's are; a
// later change, or one the header already named, stays a status item.
func TestSessionFileSettings(t *testing.T) {
	evs := translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","timestamp":"2026-05-25T02:02:03.450Z","cwd":"/w"}`,
		`{"type":"model_change","id":"e1","parentId":null,"timestamp":"t","provider":"openai-codex","modelId":"gpt-5.4-mini"}`,
		`{"type":"thinking_level_change","id":"e2","parentId":"e1","timestamp":"t","thinkingLevel":"xhigh"}`,
		`{"type":"model_change","id":"e3","parentId":"e2","timestamp":"t","provider":"openai-codex","modelId":"gpt-5.5"}`,
		`{"type":"message","id":"e4","parentId":"e3","message":{"role":"user","content":"hi"}}`,
		`{"type":"thinking_level_change","id":"e5","parentId":"e4","timestamp":"t","thinkingLevel":"low"}`,
	))
	var md map[string]any
	if err := json.Unmarshal(evs[0].Data.(*universal.SessionStarted).Metadata, &md); err != nil {
		t.Fatal(err)
	}
	if md["model"] != "gpt-5.4-mini" || md["provider"] != "openai-codex" || md["reasoning_effort"] != "xhigh" || md["cwd"] != "/w" {
		t.Errorf("session.started metadata %v", md)
	}
	if got := statusItems(evs); got != "[model:openai-codex/gpt-5.5:e3 thinking_level:low:e5]" {
		t.Errorf("status items %s", got)
	}
	// A file of a header and its settings alone still starts with them.
	evs = translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","cwd":"/w"}`,
		`{"type":"model_change","id":"e1","parentId":null,"provider":"p","modelId":"m"}`,
	))
	if md := string(golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted).Metadata); md != `{"agent":"pi","format":"session","session_version":3,"cwd":"/w","model":"m","provider":"p"}` {
		t.Errorf("header and settings only: metadata %s", md)
	}
	// A line that is not JSON after the header starts the session with
	// the header's metadata, then is reported.
	evs = translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","cwd":"/w"}`,
		`{"type":"model_change","id":"e1","parentId":null,"provider":"p","modelId":"m"`,
	))
	if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); md != `{"agent":"pi","format":"session","session_version":3,"cwd":"/w"}` || evs[1].Type != universal.TypeUnparsed {
		t.Errorf("a broken line after the header: %s, then %s", md, evs[1].Type)
	}
}

// TestSessionNameBeforeSettings: a session started with pi --name NAME
// (as ordishs/PRPilot launches Pi), or made by a host or an extension that
// names it (SessionManager.appendSessionInfo before the first prompt),
// has a file whose header is followed by session_info {name}, then
// model_change and thinking_level_change, as a real Pi v3 file PR Pilot
// committed (2026-08-13, anthropic/claude-opus-5) shows. The name ended the header's settings:
// the session started without model, provider and reasoning_effort, and
// the three became status items. The name is the session's title from the
// start (session.started metadata "title"), and the settings after it are
// still the session's; a later rename, and a name when the header has a
// title (oh-my-pi), stay status items. (Lines in that file's shape, with
// made-up values.)
func TestSessionNameBeforeSettings(t *testing.T) {
	evs := translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","timestamp":"2026-08-13T11:54:02.626Z","cwd":"/w"}`,
		`{"type":"session_info","id":"e0","parentId":null,"timestamp":"t","name":"issue-12"}`,
		`{"type":"model_change","id":"e1","parentId":"e0","timestamp":"t","provider":"anthropic","modelId":"claude-x"}`,
		`{"type":"thinking_level_change","id":"e2","parentId":"e1","timestamp":"t","thinkingLevel":"medium"}`,
		`{"type":"message","id":"e3","parentId":"e2","message":{"role":"user","content":"hi"}}`,
		`{"type":"session_info","id":"e4","parentId":"e3","timestamp":"t","name":"issue-12, renamed"}`,
	))
	if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); md != `{"agent":"pi","format":"session","session_version":3,"cwd":"/w","created_at":"2026-08-13T11:54:02.626Z","title":"issue-12","model":"claude-x","provider":"anthropic","reasoning_effort":"medium"}` {
		t.Errorf("session.started metadata %s", md)
	}
	if got := statusItems(evs); got != "[title:issue-12, renamed:e4]" {
		t.Errorf("status items %s", got)
	}
	// An empty name is not a title, and ends the header's settings as
	// any other entry does.
	evs = translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","cwd":"/w"}`,
		`{"type":"session_info","id":"e0","parentId":null,"name":""}`,
		`{"type":"model_change","id":"e1","parentId":"e0","provider":"p","modelId":"m"}`,
	))
	if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); md != `{"agent":"pi","format":"session","session_version":3,"cwd":"/w"}` {
		t.Errorf("an empty name: metadata %s", md)
	}
	// oh-my-pi's header has a title: a name after it is a rename.
	evs = translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","cwd":"/w","title":"first"}`,
		`{"type":"session_info","id":"e0","parentId":null,"name":"second"}`,
	))
	if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); md != `{"agent":"pi","format":"session","session_version":3,"cwd":"/w","title":"first"}` || len(completed(evs)) != 1 {
		t.Errorf("a header with a title: metadata %s, %d items", md, len(completed(evs)))
	}
}

// TestUsageEntry: Pi's usage entry {kind, provider, model, usage}
// records "model-attributed usage that is not an assistant message" (a
// cache warm-up: pi.dev/docs/latest/session-format, UsageEntry). Its
// tokens and cost were read but the model, provider and kind were
// dropped: they are the usage's metadata, as an assistant message's model
// and provider are.
func TestUsageEntry(t *testing.T) {
	evs := translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","cwd":"/w"}`,
		`{"type":"message","id":"u1","parentId":null,"message":{"role":"user","content":"hi"}}`,
		`{"type":"usage","id":"e1","parentId":"u1","timestamp":"t","kind":"cache_warm","provider":"anthropic","model":"claude-x","usage":{"input":0,"output":0,"cacheRead":50000,"cacheWrite":0,"totalTokens":50000,"cost":{"input":0,"output":0,"cacheRead":0.015,"cacheWrite":0,"total":0.015}}}`,
	))
	us := golden.OfType(evs, universal.TypeUsageUpdated)
	if len(us) != 1 {
		t.Fatalf("%d usage events, want 1", len(us))
	}
	u := us[0].Data.(*universal.UsageUpdated)
	if u.Usage.CachedInputTokens == nil || *u.Usage.CachedInputTokens != 50000 || u.CostUSD == nil || *u.CostUSD != 0.015 ||
		string(u.Metadata) != `{"model":"claude-x","provider":"anthropic","kind":"cache_warm"}` {
		t.Errorf("usage %+v %v %s", u.Usage, u.CostUSD, u.Metadata)
	}
}

// statusItems lists the completed status items as label:detail:native id.
func statusItems(evs []universal.Event) string {
	var status []string
	for _, it := range completed(evs) {
		if it.Kind == universal.KindStatus {
			status = append(status, it.Content[0].Label+":"+it.Content[0].Detail+":"+it.NativeItemID)
		}
	}
	return fmt.Sprint(status)
}

// TestNoiseBeforeSettings: a line that is not a JSON object (cut short,
// a wrapper's text) or a blank line between a session file's header and
// the settings Pi writes after it started the session at once: the
// model, provider and reasoning effort the session starts with became
// status items instead of session.started metadata. The line is
// reported (agent.unparsed, after session.started) and the settings are
// still the header's; past a few such lines the session starts as
// before. (Lines made up in the shape of TestSessionNameBeforeSettings.)
func TestNoiseBeforeSettings(t *testing.T) {
	const want = `{"agent":"pi","format":"session","session_version":3,"cwd":"/w","model":"claude-x","provider":"anthropic","reasoning_effort":"medium"}`
	for _, noise := range [][]string{
		{`{"type":"model_change","id":"e0","parentId":nul`},
		{"", "pi: warning: something", "   "},
		{`42`, `["not", "an", "entry"]`},
	} {
		in := append([]string{`{"type":"session","version":3,"id":"s","cwd":"/w"}`}, noise...)
		evs := translate(t, pi.FormatSession, lines(append(in,
			`{"type":"model_change","id":"e1","parentId":null,"provider":"anthropic","modelId":"claude-x"}`,
			`{"type":"thinking_level_change","id":"e2","parentId":"e1","thinkingLevel":"medium"}`,
			`{"type":"message","id":"e3","parentId":"e2","message":{"role":"user","content":"hi"}}`,
		)...))
		if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); md != want {
			t.Errorf("%q: session.started metadata %s", noise, md)
		}
		if got := statusItems(evs); got != "[]" {
			t.Errorf("%q: status items %s", noise, got)
		}
		bad := 0
		for _, l := range noise {
			if strings.TrimSpace(l) != "" {
				bad++
			}
		}
		if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != bad {
			t.Errorf("%q: %d agent.unparsed, want %d", noise, n, bad)
		}
	}
	// Many bad lines start the session, as any other line does.
	in := []string{`{"type":"session","version":3,"id":"s","cwd":"/w"}`}
	for range 6 {
		in = append(in, "garbage")
	}
	evs := translate(t, pi.FormatSession, lines(append(in,
		`{"type":"model_change","id":"e1","parentId":null,"provider":"anthropic","modelId":"claude-x"}`)...))
	if md := string(evs[0].Data.(*universal.SessionStarted).Metadata); md != `{"agent":"pi","format":"session","session_version":3,"cwd":"/w"}` {
		t.Errorf("six bad lines: session.started metadata %s", md)
	}
	if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != 6 {
		t.Errorf("six bad lines: %d agent.unparsed", n)
	}
}
