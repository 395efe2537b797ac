package pi

import (
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// A v2/v3 session file is a tree: each entry names the entry before it
// (parentId), and the current branch is the path from the last entry up
// to the root. Navigating the tree (/tree, or editing an earlier prompt)
// only moves Pi's leaf, so the next entry names an older parent and the
// entries after that one on the old path are abandoned: on resume Pi
// shows only the new path. The file is translated in the order written,
// as it comes (a file being written is followed live); the first entry of
// a new branch is preceded by a status item labelled "reverted" (as
// Claude Code's rewinds, OpenCode's reverts and Codex's rollbacks are)
// naming the first abandoned entry and the first item made from the
// abandoned entries. When that entry is a prompt, the turn before ends
// first (a prompt starts a turn of its own); otherwise the notice comes
// where the entry does.

// node is an entry of a tree that has an id: its parentId and the first
// item its translation started.
type node struct {
	ID     string `json:"id"`
	Parent string `json:"parent,omitempty"`
	Item   string `json:"item,omitempty"`
}

// tree is the layout of a session file's tree read so far. Nodes are in
// file order; Path is the current branch, indexes into Nodes from the
// root to the last entry. byID and at (a node's place on the path plus
// one, 0 when off it) are rebuilt from them on restore.
type tree struct {
	Nodes []node  `json:"nodes,omitempty"`
	Path  []int32 `json:"path,omitempty"`
	byID  map[string]int32
	at    []int32
}

// index rebuilds byID and at from Nodes and Path (after a restore).
func (tr *tree) index() {
	tr.byID = make(map[string]int32, len(tr.Nodes))
	for i, n := range tr.Nodes {
		tr.byID[n.ID] = int32(i)
	}
	tr.at = make([]int32, len(tr.Nodes))
	for p, i := range tr.Path {
		tr.at[i] = int32(p + 1)
	}
}

// validate checks a restored tree: unique ids, and a path of nodes in
// file order.
func (tr *tree) validate() error {
	seen := make(map[string]bool, len(tr.Nodes))
	for i, n := range tr.Nodes {
		if n.ID == "" || seen[n.ID] {
			return fmt.Errorf("tree node %d: empty or repeated id %q", i, n.ID)
		}
		seen[n.ID] = true
	}
	for p, i := range tr.Path {
		if i < 0 || int(i) >= len(tr.Nodes) || p > 0 && i <= tr.Path[p-1] {
			return fmt.Errorf("tree path %d: node %d of %d, out of order", p, i, len(tr.Nodes))
		}
	}
	return nil
}

// branch emits the "reverted" status item when an entry (id, parent)
// starts a new branch: its parent was written before and is not the last
// entry. The nodes on the path after the place where the new branch
// leaves it are abandoned. A parent never written (or none) continues the
// path. prompt: the entry is a user message. It returns the node's index
// for placed, or -1 for an entry without an id or one read again.
func (t *Translator) branch(dst []universal.Event, id, parent string, prompt bool, raw []byte) ([]universal.Event, int32) {
	tr := &t.st.Session.Layout
	if _, dup := tr.byID[id]; id == "" || dup {
		return dst, -1
	}
	p, known := tr.byID[parent]
	if known && len(tr.Path) > 0 && p != tr.Path[len(tr.Path)-1] {
		// Up from the parent to the path: the nodes walked (an earlier
		// abandoned branch the new one grows from) join it again.
		var back []int32
		for tr.at[p] == 0 {
			back = append(back, p)
			q, ok := tr.byID[tr.Nodes[p].Parent]
			if !ok || q >= p {
				break // a root off the path
			}
			p = q
		}
		keep := 0
		if tr.at[p] != 0 {
			keep = int(tr.at[p])
		}
		if gone := tr.Path[keep:]; len(gone) > 0 {
			if prompt {
				dst = t.settle(dst, false, daemon, raw)
			}
			dst = t.reverted(dst, gone, parent, raw)
			for _, i := range gone {
				tr.at[i] = 0
			}
			tr.Path = tr.Path[:keep]
		}
		for k := len(back) - 1; k >= 0; k-- {
			tr.Path = append(tr.Path, back[k])
			tr.at[back[k]] = int32(len(tr.Path))
		}
	}
	i := int32(len(tr.Nodes))
	tr.Nodes = append(tr.Nodes, node{ID: t.w.Copy(id), Parent: t.w.Copy(parent)})
	tr.Path = append(tr.Path, i)
	tr.at = append(tr.at, int32(len(tr.Path)))
	if tr.byID == nil {
		tr.byID = map[string]int32{}
	}
	tr.byID[tr.Nodes[i].ID] = i
	return dst, i
}

// placed records the item made from an entry: the first its translation
// (evs) started with the entry's id as native id, or else the first the
// agent's record made (not a synthetic one, such as the prompt a turn
// without one gets).
func (t *Translator) placed(i int32, evs []universal.Event) {
	if i < 0 {
		return
	}
	n := &t.st.Session.Layout.Nodes[i]
	for k := range evs {
		if evs[k].Type != universal.TypeItemStarted {
			continue
		}
		it := &evs[k].Data.(*universal.ItemSnapshot).Item
		if it.NativeItemID == n.ID {
			n.Item = it.ItemID
			return
		}
		if n.Item == "" && !evs[k].Synthetic {
			n.Item = it.ItemID
		}
	}
}

// reverted emits the status item of a new branch: gone are the abandoned
// nodes in path order, parent the entry the new branch grows from.
func (t *Translator) reverted(dst []universal.Event, gone []int32, parent string, raw []byte) []universal.Event {
	tr := &t.st.Session.Layout
	var o jsonw.Object
	o.String("entry_id", tr.Nodes[gone[0]].ID)
	for _, i := range gone {
		if it := tr.Nodes[i].Item; it != "" {
			o.String("item_id", it)
			break
		}
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: "reverted",
			Detail: "reverted to after entry " + parent, Metadata: o.Bytes()}},
	}, agent, raw)
}
