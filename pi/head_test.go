package pi_test

import (
	"encoding/json"
	"fmt"
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
	var status []string
	for _, it := range completed(evs) {
		if it.Kind == universal.KindStatus {
			status = append(status, it.Content[0].Label+":"+it.Content[0].Detail+":"+it.NativeItemID)
		}
	}
	if got := fmt.Sprint(status); got != "[model:openai-codex/gpt-5.5:e3 thinking_level:low:e5]" {
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
