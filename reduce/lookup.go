package reduce

import (
	"strings"

	"github.com/agentnorm/agentnorm/universal"
)

// ToolCall returns the tool_call item whose part has this call_id, nil if
// there is none; when several have it, the newest. With ToolResult it
// links a call and its result, which the universal events keep as separate
// items with the same call_id. It looks the call_id up in an index (no
// scan of the items); the pointer is valid until the next Apply.
func (s *Session) ToolCall(callID string) *Item { return s.byCallID(callID, universal.KindToolCall) }

// ToolResult returns the tool_result item for this call_id, nil if there is
// none (yet).
func (s *Session) ToolResult(callID string) *Item {
	return s.byCallID(callID, universal.KindToolResult)
}

func (s *Session) byCallID(callID string, kind universal.Kind) *Item {
	if callID == "" {
		return nil
	}
	ix := s.index()
	k := ix.callsByID.find(callID, ix.callKey)
	if k < 0 {
		return nil
	}
	c := ix.callList[k]
	i := c.call
	if kind == universal.KindToolResult {
		i = c.result
	}
	if i < 0 {
		return nil
	}
	if it := s.view(int(i)); hasCall(it, kind, callID) {
		return it
	}
	// The newest item that had the call_id lost it (a completion without
	// it, a rare anomaly): any older one is found the slow way.
	return s.scanCallID(callID, kind, int(i))
}

// hasCall reports whether it is of kind and has a call part with callID.
func hasCall(it *Item, kind universal.Kind, callID string) bool {
	if it.Item.Kind != kind {
		return false
	}
	for i := range it.Item.Content {
		p := &it.Item.Content[i]
		if (p.Type == universal.PartToolCall || p.Type == universal.PartToolResult) && p.CallID == callID {
			return true
		}
	}
	return false
}

// callID returns the session's copy of a call_id, making one the first
// time: the parts of a call, of its result and their native ids share it.
func (ix *index) callID(id string) string {
	return ix.callList[ix.callNumber(id)].id
}

// callNumber returns the number of a call_id in the call index, adding it
// the first time.
func (ix *index) callNumber(id string) int32 {
	if k := ix.findCall(id); k >= 0 {
		return k
	}
	return ix.newCall(id)
}

// findCall returns the number of a call_id in the call index, -1 if it has
// none; the call_id found or added last is tried first (see lastCall).
func (ix *index) findCall(id string) int32 {
	if k := ix.lastCall - 1; k >= 0 && ix.callList[k].id == id {
		return k
	}
	k := ix.callsByID.find(id, ix.callKey)
	if k >= 0 {
		ix.lastCall = k + 1
	}
	return k
}

// newCall adds a call_id the index does not have yet.
func (ix *index) newCall(id string) int32 {
	k := int32(len(ix.callList))
	ix.callList = append(grown(ix.callList), call{id: ix.arena.str(id), call: -1, result: -1})
	ix.callsByID.put(ix.callList[k].id, k, ix.callKey)
	ix.lastCall = k + 1
	return k
}

// scanCallID returns the newest item before end of kind with callID.
func (s *Session) scanCallID(callID string, kind universal.Kind, end int) *Item {
	for i := end - 1; i >= 0; i-- {
		if it := s.view(i); hasCall(it, kind, callID) {
			return it
		}
	}
	return nil
}

// register records in the call index the call_ids of it, item i, as it
// stands: called whenever its content or kind may have changed, so the
// index always holds, for each call_id, the newest item that ever had it
// (which ToolCall checks still has it).
func (ix *index) register(it *Item, i int) {
	if it.Item.Kind != universal.KindToolCall && it.Item.Kind != universal.KindToolResult {
		return
	}
	for j := range it.Item.Content {
		p := &it.Item.Content[j]
		if (p.Type != universal.PartToolCall && p.Type != universal.PartToolResult) || p.CallID == "" {
			continue
		}
		k := ix.callNumber(p.CallID)
		c := &ix.callList[k]
		at := &c.call
		if it.Item.Kind == universal.KindToolResult {
			at = &c.result
		}
		if int32(i) > *at {
			*at = int32(i)
		}
	}
}

// TurnItems returns the items of a turn (those that started while it was
// the innermost open turn; "" for those outside any), in the order they
// started, as ItemAt returns them. A session indexes its items by turn at the first
// call and keeps that up, so that looking at each turn as it ends stays
// linear in the session.
func (s *Session) TurnItems(turnID string) []*Item {
	ix := s.index()
	for i := ix.turned; i < len(s.items); i++ {
		if ix.byTurn == nil {
			ix.byTurn = map[string][]int32{}
		}
		id := s.turnOf(i)
		ix.byTurn[id] = append(ix.byTurn[id], int32(i))
	}
	ix.turned = len(s.items)
	at := ix.byTurn[turnID]
	items := make([]*Item, len(at))
	for j, i := range at {
		items[j] = s.view(int(i))
	}
	return items
}

// TurnText returns all the assistant said in a turn: the text parts of the
// turn's own assistant messages (not a sub-agent's), in order, separated by
// a blank line, what it wrote between tool calls included. LastText is
// the message the turn ends with.
func (s *Session) TurnText(turnID string) string {
	var b strings.Builder
	for _, it := range s.TurnItems(turnID) {
		if t := s.ownText(it); t != "" {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(t)
		}
	}
	return b.String()
}

// LastText returns the text of the last of a turn's own assistant messages
// (not a sub-agent's) that has text: once the turn ended, its answer, as a
// notification or a summary shows it; while it runs, the latest thing the
// assistant said. "" when no message of the turn has text.
func (s *Session) LastText(turnID string) string {
	items := s.TurnItems(turnID)
	for i := len(items) - 1; i >= 0; i-- {
		if t := s.ownText(items[i]); t != "" {
			return t
		}
	}
	return ""
}

// ownText is the text of an assistant message of the session's own, not
// inside a sub-agent; "" for any other item.
func (s *Session) ownText(it *Item) string {
	if it.Item.Kind != universal.KindMessage || it.Item.Role != universal.RoleAssistant {
		return ""
	}
	if p := s.Item(it.Item.ParentID); p != nil && p.Item.Kind == universal.KindToolCall {
		return "" // inside a sub-agent
	}
	return it.Text()
}
