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

// treeLine is a session-file message entry: a user prompt or an answer.
func treeLine(id, parent, role, text string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	if role == "user" {
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":%q}],"timestamp":1}}`, id, p, text)
	}
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":%q}],"usage":{"input":10,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":11,"cost":{"total":0}},"stopReason":"stop","timestamp":2}}`, id, p, text)
}

const treeHeader = `{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w"}`

// TestTreeStreams: a v3 session file is translated as it comes, entry by
// entry, so a file being written can be followed live (the whole tree
// used to wait for the end of input).
func TestTreeStreams(t *testing.T) {
	tr, err := pi.New(pi.FormatSession, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for i, l := range []string{treeHeader, treeLine("u1", "", "user", "hi"), treeLine("a1", "u1", "assistant", "hello")} {
		evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
	}
	var texts []string
	for _, it := range completed(evs) {
		texts = append(texts, golden.TextOf(&it))
	}
	if strings.Join(texts, "|") != "hi|hello" {
		t.Errorf("before the end of input: items %q, want the prompt and the answer", texts)
	}
}

// TestTreeBranches: a new branch is announced by a "reverted" status item
// naming the first abandoned entry and its item, before the prompt's
// turn; abandoned entries stay in the output (their usage was spent). A
// branch growing from an entry abandoned earlier abandons what the path
// has after it, but does not put the earlier branch back: a later revert
// names the first entry on the path after its parent (u4, not u2).
func TestTreeBranches(t *testing.T) {
	events := translate(t, pi.FormatSession, lines(treeHeader,
		treeLine("u1", "", "user", "one"), treeLine("a1", "u1", "assistant", "1"),
		treeLine("u2", "a1", "user", "two"), treeLine("a2", "u2", "assistant", "2"),
		treeLine("u3", "a1", "user", "three"), treeLine("a3", "u3", "assistant", "3"), // abandons u2, a2
		treeLine("u4", "a2", "user", "four"), treeLine("a4", "u4", "assistant", "4"), // back on u2's branch: abandons u3, a3
		treeLine("u5", "a1", "user", "five"), // abandons u4, a4 (and u2, a2, abandoned already)
		`{"type":"label","id":"l1","parentId":"u5","timestamp":"t","targetId":"u5","label":"here"}`, // not a branch: u5 is the last entry
		treeLine("a5", "l1", "assistant", "5"),
	))
	byNative := map[string]string{}
	type notice struct{ before, entry, item string }
	var got []notice
	items := completed(events)
	for i, it := range items {
		byNative[it.NativeItemID] = it.ItemID
		if p := it.Content[0]; p.Label == "reverted" {
			var md struct{ EntryID, ItemID string }
			md.EntryID = jsonField(t, p.Metadata, "entry_id")
			md.ItemID = jsonField(t, p.Metadata, "item_id")
			got = append(got, notice{items[i+1].NativeItemID, md.EntryID, md.ItemID})
		}
	}
	want := []notice{{"u3", "u2", byNative["u2"]}, {"u4", "u3", byNative["u3"]}, {"u5", "u4", byNative["u4"]}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reverted notices (before, entry, item) %v, want %v", got, want)
	}
	for _, n := range []string{"a2", "a3", "a4", "a5"} {
		if byNative[n] == "" {
			t.Errorf("entry %s is missing from the output", n)
		}
	}
	// Each notice comes between the turns: after one ends, before the
	// prompt's starts.
	for i, ev := range events {
		if d, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted && d.Item.Content[0].Label == "reverted" {
			if events[i+1].Type != universal.TypeTurnStarted {
				t.Errorf("the notice at %d is followed by %s, want turn.started", i, events[i+1].Type)
			}
		}
	}
	if n := len(golden.OfType(events, universal.TypeUsageUpdated)); n < 5 {
		t.Errorf("%d usage.updated, want one per answer (5)", n)
	}
}

// TestTreeBranchInTurn: a branch that starts with an entry other than a
// prompt is announced where it comes, inside the open turn: here an
// answer growing from the prompt, which abandons a label written after
// the prompt.
func TestTreeBranchInTurn(t *testing.T) {
	events := translate(t, pi.FormatSession, lines(treeHeader,
		treeLine("u1", "", "user", "one"),
		`{"type":"label","id":"l1","parentId":"u1","timestamp":"t","targetId":"u1","label":"mark"}`,
		treeLine("a1", "u1", "assistant", "answer"),
	))
	if n := len(golden.OfType(events, universal.TypeTurnStarted)); n != 1 {
		t.Errorf("%d turns, want 1", n)
	}
	items := completed(events)
	if len(items) != 4 || items[2].Content[0].Label != "reverted" || jsonField(t, items[2].Content[0].Metadata, "entry_id") != "l1" || items[3].NativeItemID != "a1" {
		t.Errorf("want prompt, label, reverted naming l1, answer; got %+v", items)
	}
}

// TestTreeFirstPromptEdited: editing the first prompt goes back to its
// parent, a setting Pi writes after the header (which the session.started
// metadata takes), or, when the prompt is the root, makes a new root
// (parentId null): either way a new branch.
func TestTreeFirstPromptEdited(t *testing.T) {
	settings := []string{
		`{"type":"model_change","id":"m0","parentId":null,"timestamp":"t","provider":"p","modelId":"m"}`,
		`{"type":"thinking_level_change","id":"k0","parentId":"m0","timestamp":"t","thinkingLevel":"low"}`,
	}
	for _, c := range []struct {
		name   string
		lines  []string
		detail string
	}{
		{"after settings", append(settings[:2:2],
			treeLine("u1", "k0", "user", "one"), treeLine("a1", "u1", "assistant", "1"),
			treeLine("u1b", "k0", "user", "one, edited"), treeLine("a1b", "u1b", "assistant", "1b")),
			"reverted to after entry k0"},
		{"new root", []string{
			treeLine("u1", "", "user", "one"), treeLine("a1", "u1", "assistant", "1"),
			treeLine("u1b", "", "user", "one, edited"), treeLine("a1b", "u1b", "assistant", "1b")},
			"reverted to the start of the session"},
	} {
		t.Run(c.name, func(t *testing.T) {
			events := translate(t, pi.FormatSession, lines(append([]string{treeHeader}, c.lines...)...))
			var notices []universal.Item
			byNative := map[string]string{}
			for _, it := range completed(events) {
				byNative[it.NativeItemID] = it.ItemID
				if it.Content[0].Label == "reverted" {
					notices = append(notices, it)
				}
			}
			if len(notices) != 1 {
				t.Fatalf("%d reverted notices, want 1", len(notices))
			}
			p := notices[0].Content[0]
			if p.Detail != c.detail || jsonField(t, p.Metadata, "entry_id") != "u1" || jsonField(t, p.Metadata, "item_id") != byNative["u1"] {
				t.Errorf("notice %q %s, want %q naming u1 (%s)", p.Detail, p.Metadata, c.detail, byNative["u1"])
			}
		})
	}
}

func jsonField(t *testing.T, b []byte, key string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("metadata %s: %v", b, err)
	}
	s, _ := m[key].(string)
	return s
}
