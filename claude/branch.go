package claude

import (
	"cmp"
	"slices"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// A transcript is a tree: each entry names the entry before it
// (parentUuid). When the user rewinds (/rewind or Esc-Esc, editing an
// earlier prompt, --resume with --resume-session-at, a retry after a
// failed send), Claude Code appends a prompt whose parent is an entry
// written earlier, and the conversation entries written after that one
// on the old path are abandoned: on resume it shows only the path from
// the latest leaf. The entries stay in the file, which is translated in
// the order written; the prompt that starts the new branch is preceded
// by a status item labelled "reverted" (as OpenCode's reverts and Codex's
// rollbacks are) naming the first abandoned entry.

// convEntry is a conversation entry (a user or assistant line) of the
// main chain on the path shown: its position among the main-chain
// entries, its uuid and the first item made from it.
type convEntry struct {
	Pos  int64  `json:"pos"`
	UUID string `json:"uuid"`
	Item string `json:"item,omitempty"`
}

// entry translates a main-chain transcript entry (not a sidechain's, not
// a sub-agent file's) and records its position: every entry with a uuid
// gets the next one (Entries), a conversation entry also joins the path
// (Conv) with the first item its translation started (an assistant line
// that only adds a part: its message's item). An entry read
// again (a resumed session's file repeating history) keeps its place.
func (t *Translator) entry(dst events, r jsonscan.Value) events {
	uuid := r.Get("uuid").Str
	if _, dup := t.s.Entries[uuid]; uuid == "" || dup {
		return t.object(dst, r)
	}
	t.mainEntry, t.itemFrom = true, len(dst)
	dst = t.object(dst, r)
	t.mainEntry = false
	if t.s.Entries == nil {
		t.s.Entries = map[string]int64{}
	}
	pos := int64(len(t.s.Entries))
	uuid = t.w.Copy(uuid)
	t.s.Entries[uuid] = pos
	if typ := r.Get("type").Str; typ == "user" || typ == "assistant" {
		e := convEntry{Pos: pos, UUID: uuid}
		for _, ev := range dst[min(t.itemFrom, len(dst)):] {
			if ev.Type == universal.TypeItemStarted {
				e.Item = ev.Data.(*universal.ItemSnapshot).Item.ItemID
				break
			}
		}
		if e.Item == "" && typ == "assistant" {
			// A line that adds a part to its response's message: that
			// message's item.
			for _, m := range t.scopeMsgs("") {
				if m.Last == uuid && m.Started {
					e.Item = m.ItemID
				}
			}
		}
		t.s.Conv = append(t.s.Conv, e)
	}
	return dst
}

// rewound emits, before the turn of a prompt of the main chain, the
// status item "reverted" when the prompt's parent (r's parentUuid) was
// written before the latest conversation entry on the path: the
// conversation entries after it were abandoned. Its detail names the
// parent, its metadata the first abandoned entry ("uuid") and the item
// made from it ("item_id", when known); the abandoned entries leave the
// path, so that a later rewind names what it abandons itself. A parent
// never written (or written later, as a hook's or an attachment's entry
// is), or none, is no rewind.
func (t *Translator) rewound(dst events, r jsonscan.Value) events {
	if !t.mainEntry || len(t.s.Conv) == 0 {
		return dst
	}
	parent := r.Get("parentUuid").Str
	pos, ok := t.s.Entries[parent]
	if !ok || pos >= t.s.Conv[len(t.s.Conv)-1].Pos {
		return dst
	}
	i, _ := slices.BinarySearchFunc(t.s.Conv, pos+1, byPos)
	first := t.s.Conv[i]
	t.s.Conv = t.s.Conv[:i]
	var o jsonw.Object
	o.String("uuid", first.UUID).OptString("item_id", first.Item)
	return t.reverted(dst, "reverted to after entry "+parent, o.Bytes())
}

// reverted emits the completed status item labelled "reverted" of a
// rewind or of retracted messages (see supersede.go): under no item, with
// no native id of its own.
func (t *Translator) reverted(dst events, detail string, md []byte) events {
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: universal.LabelReverted,
			Detail: detail, Metadata: md}},
	}, universal.SourceAgent, t.raw)
}

// byPos orders the entries of Conv by their position, for a binary search
// of a position.
func byPos(e convEntry, p int64) int { return cmp.Compare(e.Pos, p) }
