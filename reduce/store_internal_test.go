package reduce

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestPackRoundTrip: an item packed and read back is the item, field for
// field: constants and values that are not, nil and empty lists, the ids
// packed as references (call_ids, a parent, a turn) and those that only
// look like one, raw JSON in canonical form, and long strings; and items
// packed one after the other in one arena do not disturb each other.
func TestPackRoundTrip(t *testing.T) {
	str := rapid.OneOf(rapid.SampledFrom([]string{"", "a", "call_1", "call_2", "itm_1", "t1", "é\x00\xff"}),
		rapid.StringN(0, 40, -1), rapid.Custom(func(t *rapid.T) string {
			return strings.Repeat("x", rapid.IntRange(100, 70000).Draw(t, "long"))
		}))
	enum := func(known ...string) *rapid.Generator[string] {
		return rapid.OneOf(rapid.SampledFrom(known), str)
	}
	raw := rapid.SampledFrom([]json.RawMessage{nil, json.RawMessage(`null`), json.RawMessage(`{"a":1}`),
		json.RawMessage(`[1, 2]`), json.RawMessage(`"\u003c"`), json.RawMessage(`not json`)})
	fields := rapid.Custom(func(t *rapid.T) []universal.Field {
		if rapid.Bool().Draw(t, "nil") {
			return nil
		}
		fs := make([]universal.Field, rapid.IntRange(0, 2).Draw(t, "fields"))
		for i := range fs {
			fs[i] = universal.Field{Name: str.Draw(t, "name"), Value: raw.Draw(t, "value")}
		}
		return fs
	})
	part := rapid.Custom(func(t *rapid.T) universal.Part {
		p := universal.Part{
			Type:       universal.PartType(enum("text", "json", "tool_call", "tool_result", "file_ref", "reasoning", "image", "status").Draw(t, "type")),
			Text:       str.Draw(t, "text"),
			Visibility: universal.Visibility(enum("public", "private").Draw(t, "visibility")),
			Signature:  str.Draw(t, "signature"),
			JSON:       raw.Draw(t, "json"),
			Name:       str.Draw(t, "name"),
			Arguments:  str.Draw(t, "arguments"),
			CallID:     str.Draw(t, "call_id"),
			ToolKind:   universal.ToolKind(enum("read", "execute", "other").Draw(t, "tool_kind")),
			Output:     str.Draw(t, "output"),
			IsError:    rapid.Bool().Draw(t, "is_error"),
			Path:       str.Draw(t, "path"),
			Action:     universal.FileAction(enum("read", "write", "patch").Draw(t, "action")),
			Diff:       str.Draw(t, "diff"),
			Mime:       str.Draw(t, "mime"),
			Label:      str.Draw(t, "label"),
			Detail:     str.Draw(t, "detail"),
			Metadata:   raw.Draw(t, "metadata"),
			Rewritten:  rapid.Bool().Draw(t, "rewritten"),
			Extra:      fields.Draw(t, "extra"),
		}
		if rapid.Bool().Draw(t, "tool_input") {
			in := &universal.ToolInput{Command: str.Draw(t, "command"), Query: str.Draw(t, "query"), URL: str.Draw(t, "url"),
				Prompt: str.Draw(t, "prompt"), Agent: str.Draw(t, "agent")}
			if rapid.Bool().Draw(t, "paths") {
				in.Paths = rapid.SliceOfN(str, 0, 3).Draw(t, "paths")
			}
			p.ToolInput = in
		}
		return p
	})
	rapid.Check(t, func(t *rapid.T) {
		var s Session
		s.index()
		s.Turns = []Turn{{TurnID: "t1"}, {TurnID: "t2"}} // found by a search: a short list
		var want []Item
		for n := rapid.IntRange(1, 6).Draw(t, "items"); len(want) < n; {
			it := Item{
				TurnID:     str.Draw(t, "turn"),
				StartedSeq: rapid.Int64Range(0, 1<<40).Draw(t, "started"),
				Item: universal.Item{
					ItemID:       str.Draw(t, "id"),
					NativeItemID: str.Draw(t, "native"),
					ParentID:     str.Draw(t, "parent"),
					Kind:         universal.Kind(enum("message", "tool_call", "tool_result", "system", "status", "unknown").Draw(t, "kind")),
					Role:         universal.Role(enum("user", "assistant", "system", "tool").Draw(t, "role")),
					Status:       universal.ItemStatus(enum("in_progress", "completed", "failed").Draw(t, "status")),
					Extra:        fields.Draw(t, "extra"),
				},
			}
			if s.itemPos(it.Item.ItemID) >= 0 {
				continue // ids are unique in a session
			}
			it.CompletedSeq = it.StartedSeq + rapid.Int64Range(0, 1000).Draw(t, "completed")
			if !rapid.Bool().Draw(t, "nil content") {
				it.Item.Content = rapid.SliceOfN(part, 0, 3).Draw(t, "content")
			}
			i := s.addItem(&Item{Item: universal.Item{ItemID: it.Item.ItemID}}, &Change{})
			s.pack(i, &it, nil, false, false)
			// What the session keeps is the canonical form of raw JSON.
			c := it
			c.Item.Extra = canon(it.Item.Extra)
			if it.Item.Content != nil {
				c.Item.Content = make([]universal.Part, len(it.Item.Content))
				for j, p := range it.Item.Content {
					p.JSON, p.Metadata, p.Extra = cleanRaw(p.JSON), cleanRaw(p.Metadata), canon(p.Extra)
					c.Item.Content[j] = p
				}
			}
			want = append(want, c)
		}
		for i := range want {
			if s.open(i) != nil {
				t.Fatalf("item %d is open", i)
			}
			if diff := cmp.Diff(want[i], *s.ItemAt(i)); diff != "" {
				t.Fatalf("item %d (-want +got):\n%s", i, diff)
			}
			if s.itemPos(want[i].Item.ItemID) != i {
				t.Fatalf("item %q not found at %d", want[i].Item.ItemID, i)
			}
		}
	})
}

func canon(fs []universal.Field) []universal.Field {
	if fs == nil {
		return nil
	}
	out := make([]universal.Field, len(fs))
	for i, f := range fs {
		out[i] = universal.Field{Name: f.Name, Value: cleanRaw(f.Value)}
	}
	return out
}

// TestPackedSize: over every golden stream, each completed item packs in
// at most its strings and raw JSON written out, plus a few bytes a field
// (ids that are references cost less than written out), and the arena's
// unused room stays a small part of what it holds: the compact form the
// memory figures rest on, checked by size, not by the heap.
func TestPackedSize(t *testing.T) {
	var files []string
	filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".golden.ndjson") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) < 100 {
		t.Fatalf("%d golden streams under ../testdata", len(files))
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var s Session
		r := universal.NewEventReader(f)
		for {
			ev, err := r.Next()
			if err != nil {
				break
			}
			if _, err := s.Apply(&ev); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		f.Close()
		if len(s.items) == 0 {
			continue
		}
		used := 0
		for i := range s.items {
			if s.open(i) != nil {
				continue
			}
			n := len(s.data(i))
			used += n
			if limit := writtenOut(s.view(i)); n > limit {
				t.Errorf("%s: item %d packs in %d bytes, more than its %d written out", path, i, n, limit)
			}
		}
		for _, c := range s.idx.callList {
			used += len(c.id)
		}
		if a := &s.idx.arena; a.total > used+used/4+arenaMax {
			t.Errorf("%s: the arena holds %d bytes for %d used", path, a.total, used)
		}
	}
}

// writtenOut is what an item takes with every string written out (a length
// of up to 3 bytes, then the bytes), a byte for each enumeration and
// mask, and the sequences in full.
func writtenOut(it *Item) int {
	str := func(s string) int { return 3 + len(s) }
	fields := func(fs []universal.Field) int {
		n := 1
		for _, f := range fs {
			n += str(f.Name) + str(string(f.Value))
		}
		return n
	}
	u := &it.Item
	n := 20 + str(it.TurnID) + str(u.ItemID) + str(u.NativeItemID) + str(u.ParentID) + 4 + fields(u.Extra) + 1
	for _, p := range u.Content {
		n += 2 + 3 + 4 // type, mask, enumerations
		for _, s := range []string{p.Text, p.Signature, string(p.JSON), p.Name, p.Arguments, p.CallID, p.Output,
			p.Path, p.Diff, p.Mime, p.Label, p.Detail, string(p.Metadata)} {
			if s != "" {
				n += str(s)
			}
		}
		n += fields(p.Extra)
		if in := p.ToolInput; in != nil {
			n += 1 + str(in.Command) + str(in.Query) + str(in.URL) + str(in.Prompt) + str(in.Agent) + 3
			for _, s := range in.Paths {
				n += str(s)
			}
		}
	}
	return n
}

// TestTrimOnEnd: an ended session gives back what its lists hold beyond
// their length (a log analyser keeps many), and still folds what comes.
func TestTrimOnEnd(t *testing.T) {
	st := universal.NewStamper(universal.Options{SessionID: "s"})
	var evs []universal.Event
	evs = st.Emit(evs, universal.TypeSessionStarted, universal.SourceAgent, &universal.SessionStarted{}, nil)
	for i := range 9 {
		id := fmt.Sprintf("t%d", i)
		evs = st.Emit(evs, universal.TypeTurnStarted, universal.SourceAgent, &universal.TurnStarted{TurnID: id}, nil)
		evs = st.Emit(evs, universal.TypeItemCompleted, universal.SourceAgent, &universal.ItemSnapshot{Item: universal.Item{
			ItemID: "i" + id, Kind: universal.KindMessage, Role: universal.RoleAssistant, Status: universal.StatusCompleted,
			Content: []universal.Part{universal.Text(strings.Repeat("x", 200))},
		}}, nil)
		evs = st.Emit(evs, universal.TypeTurnEnded, universal.SourceAgent, &universal.TurnEnded{TurnID: id, Status: universal.TurnCompleted}, nil)
	}
	evs = st.Emit(evs, universal.TypeSessionEnded, universal.SourceAgent, &universal.SessionEnded{Reason: universal.EndCompleted}, nil)
	var s Session
	for i := range evs {
		if _, err := s.Apply(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string][2]int{
		"turns": {len(s.Turns), cap(s.Turns)}, "items": {len(s.items), cap(s.items)},
		"blocks": {len(s.idx.arena.blocks), cap(s.idx.arena.blocks)},
	} {
		if c[1]-c[0] > c[0]/8 {
			t.Errorf("%s: length %d, capacity %d after the session ended", name, c[0], c[1])
		}
	}
	evs = st.Emit(evs[:0], universal.TypeItemCompleted, universal.SourceAgent, &universal.ItemSnapshot{Item: universal.Item{
		ItemID: "late", Kind: universal.KindStatus, Status: universal.StatusCompleted,
	}}, nil)
	if _, err := s.Apply(&evs[0]); err != nil || s.Item("late") == nil || s.Item("it3").Text() != strings.Repeat("x", 200) {
		t.Errorf("after the end: %v, late %v", err, s.Item("late"))
	}
}
