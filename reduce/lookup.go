package reduce

import (
	"strings"

	"github.com/agentnorm/agentnorm/universal"
)

// ToolCall returns the tool_call item whose part has this call_id, nil if
// there is none. With ToolResult it links a call and its result, which the
// universal events keep as separate items with the same call_id. It scans
// the items from the newest; the pointer is valid until the next Apply.
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
	for i := len(s.Items) - 1; i >= 0; i-- {
		it := &s.Items[i]
		if it.Item.Kind != kind {
			continue
		}
		for _, p := range it.Item.Content {
			if (p.Type == universal.PartToolCall || p.Type == universal.PartToolResult) && p.CallID == callID {
				return it
			}
		}
	}
	return nil
}

// TurnText returns the assistant's text of a turn: the text parts of the
// turn's own assistant messages (not a sub-agent's), in order, separated by
// a blank line. A live display shows it as the answer so far; once the turn
// ended, it is the turn's answer.
func (s *Session) TurnText(turnID string) string {
	var b strings.Builder
	for i := range s.Items {
		it := &s.Items[i]
		if it.TurnID != turnID || it.Item.Kind != universal.KindMessage || it.Item.Role != universal.RoleAssistant {
			continue
		}
		if p := s.Item(it.Item.ParentID); p != nil && p.Item.Kind == universal.KindToolCall {
			continue // inside a sub-agent
		}
		if t := it.Text(); t != "" {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(t)
		}
	}
	return b.String()
}
