package universal

import "strings"

// ItemInfo is what a consumer needs to route an item's deltas: its kind,
// role and parent.
type ItemInfo struct {
	Kind     Kind
	Role     Role
	ParentID string
}

// ItemIndex remembers the kind, role and parent of every item of a stream
// from the event that introduced it, so a live display can route an
// item.delta (assistant text to the chat, tool output under its call, a
// sub-agent's text under the spawning call) without folding the whole
// session. The zero value is ready to use; it is not safe for concurrent
// use.
type ItemIndex struct {
	m map[string]ItemInfo
}

// Observe records the item an item.started or item.completed introduces;
// other events change nothing. It keeps copies of the strings it keeps.
func (x *ItemIndex) Observe(ev *Event) {
	d, ok := ev.Data.(*ItemSnapshot)
	if !ok || d == nil {
		return
	}
	if _, seen := x.m[d.Item.ItemID]; seen {
		return // kind and role never change (a reducer keeps the first too)
	}
	if x.m == nil {
		x.m = map[string]ItemInfo{}
	}
	x.m[strings.Clone(d.Item.ItemID)] = ItemInfo{Kind: d.Item.Kind, Role: d.Item.Role, ParentID: strings.Clone(d.Item.ParentID)}
}

// Lookup returns what was recorded of an item.
func (x *ItemIndex) Lookup(itemID string) (ItemInfo, bool) {
	in, ok := x.m[itemID]
	return in, ok
}
