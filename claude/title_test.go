package claude_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// titles returns the title items of a stream as "detail source".
func titles(t *testing.T, evs []universal.Event) []string {
	t.Helper()
	var out []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		it := e.Data.(*universal.ItemSnapshot).Item
		if it.Kind != universal.KindStatus || it.Content[0].Label != "title" {
			continue
		}
		var md struct{ Source string }
		if err := json.Unmarshal(it.Content[0].Metadata, &md); err != nil {
			t.Fatalf("title metadata %s: %v", it.Content[0].Metadata, err)
		}
		out = append(out, it.Content[0].Detail+" "+md.Source)
	}
	return out
}

// TestTranscriptTitles: a transcript's ai-title entries (the title Claude
// Code generates, written again every few entries, as in
// testdata/claude/public/transcript_irrlicht_*) and custom-title (the
// user's /rename, transcript_irrlicht_issue-114-stuck-working-b_v2.1.98)
// were ignored. A title given before the session starts is its metadata;
// after, each change is a status item labelled title, and a generated
// title never replaces the user's.
func TestTranscriptTitles(t *testing.T) {
	const head = `"sessionId":"s1","version":"2.1.150","cwd":"/w"`
	user := func(uuid, parent, text string) string {
		return fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":%q,%s,"message":{"role":"user","content":%q}}`, uuid, parent, head, text)
	}
	aiTitle := func(s string) string { return fmt.Sprintf(`{"type":"ai-title","aiTitle":%q,"sessionId":"s1"}`, s) }
	evs := feed(t, claude.FormatTranscript, nil, nil,
		aiTitle("First"),
		user("u1", "", "hi"),
		aiTitle("First"),
		aiTitle("Second"),
		aiTitle("Second"),
		`{"type":"custom-title","customTitle":"mine","sessionId":"s1"}`,
		aiTitle("Third"),
		user("u2", "u1", "more"),
	)
	checkShape(t, evs)
	started := golden.OfType(evs, universal.TypeSessionStarted)
	var md struct{ Title string }
	if err := json.Unmarshal(started[0].Data.(*universal.SessionStarted).Metadata, &md); err != nil || md.Title != "First" {
		t.Errorf("session.started title %q (%v), want First", md.Title, err)
	}
	if got := fmt.Sprint(titles(t, evs)); got != "[Second agent mine user]" {
		t.Errorf("title items %s, want [Second agent mine user]", got)
	}
}
