package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/reduce"
	"github.com/agentnorm/agentnorm/universal"
)

// Project folds a stream with package reduce and returns the part of its
// state that a client depends on, as text, one fact a line:
//
//	status idle→running→idle→completed
//	end completed by agent
//	turn completed
//	  user
//	  assistant
//	    execute call → ok
//	  assistant
//	permission approved
//	error
//
// It keeps turns and their statuses; per turn the user and assistant
// messages in order, with the tool calls under each message (tool kind and
// whether their result succeeded, failed or never came); whether the
// session had a terminal error and permissions (with their outcomes); the
// reducer's status transitions and how the session ended. It leaves out
// what the Conventions call optional: parts (reasoning, text chunks,
// json), usage, ids, metadata, status and system items, retried errors,
// and the items inside a sub-agent.
func Project(events []universal.Event) (string, error) {
	var s reduce.Session
	var b strings.Builder
	statuses := []string{string(reduce.StatusIdle)}
	for i := range events {
		ch, err := s.Apply(&events[i])
		if err != nil {
			return "", fmt.Errorf("event %d: %w", events[i].Sequence, err)
		}
		if ch.Has(reduce.StatusChanged) {
			statuses = append(statuses, string(ch.To))
		}
	}
	fmt.Fprintf(&b, "status %s\n", strings.Join(statuses, "→"))
	if s.End != nil {
		fmt.Fprintf(&b, "end %s by %s\n", s.End.Reason, s.End.TerminatedBy)
	} else {
		b.WriteString("end none\n")
	}

	byID := map[string]*reduce.Item{}
	children := map[string][]*reduce.Item{}
	results := map[string]*reduce.Item{} // call_id → result
	calls := map[string]bool{}           // call_ids of calls
	var items []*reduce.Item
	for _, x := range s.Items() {
		items = append(items, x)
		byID[x.Item.ItemID] = x
	}
	for _, x := range items {
		children[x.Item.ParentID] = append(children[x.Item.ParentID], x)
		if x.Item.Kind == universal.KindToolCall {
			calls[callID(&x.Item)] = true
		}
		if x.Item.Kind == universal.KindToolResult {
			if id := callID(&x.Item); id != "" {
				if _, ok := results[id]; !ok {
					results[id] = x
				}
			}
		}
	}
	callLine := func(x *reduce.Item, depth int) string {
		it := &x.Item
		switch it.Kind {
		case universal.KindToolCall:
			outcome := "none"
			if r := results[callID(it)]; r != nil {
				outcome = "ok"
				if r.Item.Status == universal.StatusFailed {
					outcome = "failed"
				}
			}
			who := ""
			if it.Role == universal.RoleUser {
				who = "user's "
			}
			return fmt.Sprintf("%s%s%s call → %s\n", strings.Repeat("  ", depth), who, toolKind(it), outcome)
		case universal.KindToolResult:
			if callID(it) == "" || !calls[callID(it)] {
				outcome := "ok"
				if it.Status == universal.StatusFailed {
					outcome = "failed"
				}
				return fmt.Sprintf("%sresult without a call: %s\n", strings.Repeat("  ", depth), outcome)
			}
		}
		return ""
	}
	line := func(x *reduce.Item, depth int) {
		it := &x.Item
		indent := strings.Repeat("  ", depth)
		switch it.Kind {
		case universal.KindMessage:
			role := string(it.Role)
			if it.Status == universal.StatusFailed {
				role += " (failed)"
			}
			fmt.Fprintf(&b, "%s%s\n", indent, role)
		case universal.KindToolCall:
			b.WriteString(callLine(x, depth))
			return
		case universal.KindToolResult:
			if callID(it) == "" || !calls[callID(it)] {
				outcome := "ok"
				if it.Status == universal.StatusFailed {
					outcome = "failed"
				}
				fmt.Fprintf(&b, "%sresult without a call: %s\n", indent, outcome)
			}
			return
		default:
			return // status and system items are optional notices
		}
		if it.Kind == universal.KindToolCall {
			return // a sub-agent's items are optional
		}
		// The calls of one response in a fixed order: records that print
		// a call when it finishes (OpenCode's run output) order parallel
		// calls by their end, not by the model's order.
		if it.Kind == universal.KindMessage {
			var lines []string
			for _, c := range children[it.ItemID] {
				if l := callLine(c, depth+1); l != "" {
					lines = append(lines, l)
				}
			}
			slices.Sort(lines)
			for _, l := range lines {
				b.WriteString(l)
			}
		}
	}
	turnOf := func(x *reduce.Item) string { return x.TurnID }
	top := children[""]
	printed := map[string]bool{}
	for _, t := range s.Turns {
		fmt.Fprintf(&b, "turn %s\n", t.Status)
		for _, x := range top {
			if turnOf(x) == t.TurnID {
				line(x, 1)
				printed[x.Item.ItemID] = true
			}
		}
	}
	var loose []*reduce.Item
	for _, x := range top {
		// Status and system items are optional notices: one outside the
		// turns (an ACP agent's command list re-sent after a turn) is no
		// fact a client depends on.
		if k := x.Item.Kind; k == universal.KindStatus || k == universal.KindSystem {
			continue
		}
		if !printed[x.Item.ItemID] {
			loose = append(loose, x)
		}
	}
	if len(loose) > 0 {
		b.WriteString("outside turns\n")
		for _, x := range loose {
			line(x, 1)
		}
	}
	var perms []string
	for _, p := range s.Permissions {
		perms = append(perms, string(p.Status))
	}
	slices.Sort(perms)
	for _, p := range perms {
		fmt.Fprintf(&b, "permission %s\n", p)
	}
	for _, e := range s.Errors {
		if !e.WillRetry {
			b.WriteString("error\n")
			break
		}
	}
	return b.String(), nil
}
