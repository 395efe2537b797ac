package pi

import (
	"errors"
	"fmt"
	"slices"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// A v2/v3 session file is a tree: each entry names the entry before it
// (parentId), and the current branch is the path from the last entry up
// to the root. Navigating the tree (/tree, or editing an earlier prompt)
// only moves Pi's leaf, so the next entry names an older parent (or none:
// a new root, when the first prompt is edited) and the entries after that
// one on the old path are abandoned: on resume Pi shows only the new
// path. The file is translated in the order written, as it comes (a file
// being written is followed live); the first entry of a new branch is
// preceded by a status item labelled "reverted" (as Claude Code's
// rewinds, OpenCode's reverts and Codex's rollbacks are) naming the first
// abandoned entry and the first item made from the abandoned entries.
// When that entry is a prompt, the turn before ends first (a prompt
// starts a turn of its own); otherwise the notice comes where the entry
// does.
//
// The path is kept as positions in the file: the entries abandoned are
// those on the path written after the new branch's parent. That costs a
// binary search per branch and never walks the tree. A branch that grows
// from an entry abandoned earlier is not put back on the path (no event
// could tell a client that hid those entries to show them again).

// node is an entry of a tree that has an id, in file order, and the first
// item its translation started.
type node struct {
	ID   string `json:"id"`
	Item string `json:"item,omitempty"`
}

// tree is the layout of a session file's tree read so far: its nodes in
// file order, and the current branch as indexes into Nodes, ascending.
// byID indexes Nodes once there are more than treeLinear (see find); it is
// rebuilt from Nodes on restore.
type tree struct {
	Nodes []node  `json:"nodes,omitempty"`
	Path  []int32 `json:"path,omitempty"`
	byID  map[string]int32
}

// treeLinear is the most nodes looked for without byID: most files have a
// few dozen entries, and an entry's parent is most often the one before,
// found first by a search from the end.
const treeLinear = 32

// index rebuilds byID from Nodes (after a restore, or once they are more
// than treeLinear).
func (tr *tree) index() {
	if len(tr.Nodes) <= treeLinear {
		tr.byID = nil
		return
	}
	tr.byID = make(map[string]int32, 2*len(tr.Nodes))
	for i, n := range tr.Nodes {
		tr.byID[n.ID] = int32(i)
	}
}

// find returns the index of the node of that id.
func (tr *tree) find(id string) (int32, bool) {
	if tr.byID != nil {
		i, ok := tr.byID[id]
		return i, ok
	}
	for i := len(tr.Nodes) - 1; i >= 0; i-- {
		if tr.Nodes[i].ID == id {
			return int32(i), true
		}
	}
	return 0, false
}

// validate checks a restored tree: unique ids, items the stream knows, a
// path of nodes in file order.
func (tr *tree) validate(w *universal.Stream) error {
	seen := make(map[string]bool, len(tr.Nodes))
	for i, n := range tr.Nodes {
		if n.ID == "" || seen[n.ID] {
			return fmt.Errorf("tree node %d: empty or repeated id %q", i, n.ID)
		}
		if n.Item != "" && !w.Known(n.Item) {
			return fmt.Errorf("tree node %d: item %q was never started", i, n.Item)
		}
		seen[n.ID] = true
	}
	for p, i := range tr.Path {
		if i < 0 || int(i) >= len(tr.Nodes) || p > 0 && i <= tr.Path[p-1] {
			return fmt.Errorf("tree path %d: node %d of %d, out of order", p, i, len(tr.Nodes))
		}
	}
	if len(tr.Nodes) > 0 && (len(tr.Path) == 0 || int(tr.Path[len(tr.Path)-1]) != len(tr.Nodes)-1) {
		return errors.New("tree path does not end at the last node")
	}
	return nil
}

// branch emits the "reverted" status item when an entry starts a new
// branch: its parent was written before and is not the last entry, or it
// has none (root: its parentId is null) after other entries. The nodes on
// the path written after the parent are abandoned. A parent never written
// continues the path. prompt: the entry is a user message. It returns the
// node's index for placed, or -1 for an entry without an id or one read
// again.
func (t *Translator) branch(dst []universal.Event, id, parent string, root, prompt bool, raw []byte) ([]universal.Event, int32) {
	tr := &t.st.Session.Layout
	if _, dup := tr.find(id); id == "" || dup {
		return dst, -1
	}
	keep := len(tr.Path)
	if p, known := tr.find(parent); known {
		keep, _ = slices.BinarySearch(tr.Path, p+1)
	} else if root {
		keep = 0
	}
	if keep < len(tr.Path) {
		if prompt {
			dst = t.settle(dst, false, daemon, raw)
		}
		dst = t.reverted(dst, tr.Path[keep:], parent, raw)
		tr.Path = tr.Path[:keep]
	}
	return dst, t.addNode(id)
}

// addNode appends a node to the tree and to the current path, and
// returns its index; -1 for an entry without an id or one read again.
func (t *Translator) addNode(id string) int32 {
	tr := &t.st.Session.Layout
	if _, dup := tr.find(id); id == "" || dup {
		return -1
	}
	i := int32(len(tr.Nodes))
	if tr.Nodes == nil {
		// Room for a short file's entries: grown from nothing, the lists
		// took a few allocations each.
		tr.Nodes, tr.Path = make([]node, 0, 16), make([]int32, 0, 16)
	}
	tr.Nodes = append(tr.Nodes, node{ID: t.w.Copy(id)})
	tr.Path = append(tr.Path, i)
	switch {
	case tr.byID != nil:
		tr.byID[tr.Nodes[i].ID] = i
	case len(tr.Nodes) > treeLinear:
		tr.index()
	}
	return i
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
// nodes in path order, parent the entry the new branch grows from ("" for
// a new root).
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
	detail := "reverted to the start of the session"
	if parent != "" {
		detail = "reverted to after entry " + parent
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: universal.LabelReverted,
			Detail: detail, Metadata: o.Bytes()}},
	}, agent, raw)
}
