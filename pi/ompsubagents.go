package pi

import (
	"errors"
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// An oh-my-pi rpc host that sent set_subagent_subscription (level
// progress or events) gets the sub-agents of the task tool as frames
// (modes/rpc/rpc-subagents.ts, rpc-types.ts of @oh-my-pi/pi-coding-agent
// 18.3.4; the payloads of @oh-my-pi/pi-tui's session-observer-registry.ts
// and task.ts):
//
//   - subagent_lifecycle {payload: {id, agent, agentSource, description?,
//     status: started | completed | failed | aborted, sessionFile?,
//     parentToolCallId?, index, detached?}}: a completed status item
//     labelled sub_agent_<status> (sub_agent_state for a status omp does
//     not name), under the task call parentToolCallId names when the
//     translator knows it, detail the description (else the agent),
//     metadata the payload's fields (subagent_id, agent, agent_source,
//     description, status, session_file, parent_tool_call_id, index,
//     detached), as the ACP translator reports an announced sub-agent. A
//     sub-agent's failure is not the session's: no error event.
//   - subagent_event {payload: {id, event: AgentSessionEvent}}: the
//     sub-agent's own session events. Its messages are read from their
//     message_end, each complete at once, as the runs Pi's subagent
//     extension records are replayed (subAgentItems): its prompt (user)
//     and assistant messages under the spawning call's tool_call item
//     (under the sub_agent_started item when the call is not known), the
//     calls an assistant message makes and their results (toolResult
//     messages) under that message. Its other events repeat what those
//     carry (message_update, tool_execution_*), mark its run's steps
//     (agent_*, turn_*) or concern it alone (its retries and notices: its
//     failure shows in its lifecycle status and its failed message); its
//     usage is not emitted (the task call's result bills it).
//   - subagent_progress: ignored (see the package documentation).

// maxSubagents bounds the sub-agents followed at once, maxSubCalls the
// calls without a result remembered for one: the oldest are forgotten
// (a result of a forgotten call goes under the sub-agent's last
// message).
const (
	maxSubagents = 64
	maxSubCalls  = 64
)

// subagent is an oh-my-pi sub-agent the rpc frames announced.
type subagent struct {
	ID string `json:"id"`
	// Call is the tool_call item of the call that spawned it ("" when not
	// known); Item its sub_agent_started status item ("" when its first
	// frame was no start). Its items go under Call, else Item.
	Call string `json:"call,omitempty"`
	Item string `json:"item,omitempty"`
	// Calls are the calls of its messages awaiting their results, oldest
	// first; LastMsg its last assistant message item.
	Calls   []tool `json:"calls,omitempty"`
	LastMsg string `json:"last_msg,omitempty"`
}

// parent is the item a sub-agent's items go under.
func (s *subagent) parent() string { return first(s.Call, s.Item) }

// first returns a if it is not empty, else b.
func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

var (
	errSubagentPayload = errors.New("sub-agent frame without a payload object with an id")
	errSubagentEvent   = errors.New("subagent_event without an event object")
)

// subagentFrame translates subagent_lifecycle and subagent_event.
func (t *Translator) subagentFrame(dst []universal.Event, in *input, typ string) []universal.Event {
	p := in.sub("payload")
	id := p.Get("id").Str
	if !p.IsObject() || id == "" {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%s: %w", typ, errSubagentPayload), in.raw)
	}
	if typ == "subagent_lifecycle" {
		return t.subagentLifecycle(dst, in, p, id)
	}
	ev := p.Sub("event")
	if !ev.IsObject() {
		return t.w.Unparsed(dst, in.where(), errSubagentEvent, in.raw)
	}
	if ev.Get("type").Str != "message_end" {
		return dst
	}
	m := ev.Sub("message")
	switch m.Get("role").Str {
	case "user", "assistant", "toolResult":
	default:
		return dst
	}
	s := t.subagent(id)
	if s == nil {
		// Its start was not seen (the host subscribed while it ran): a
		// start stands for it, so that its items have a parent.
		dst, s = t.announceSubagent(dst, in, jsonscan.Value{}, id, "")
	}
	return t.subMessage(dst, &s.Calls, &s.LastMsg, s.parent(), m, in.raw)
}

// subagent returns the sub-agent followed under the id, nil if none.
func (t *Translator) subagent(id string) *subagent {
	for i := range t.st.Subagents {
		if t.st.Subagents[i].ID == id {
			return &t.st.Subagents[i]
		}
	}
	return nil
}

// subagentLifecycle translates subagent_lifecycle.
func (t *Translator) subagentLifecycle(dst []universal.Event, in *input, p jsonscan.Value, id string) []universal.Event {
	status := p.Get("status").Str
	s := t.subagent(id)
	if status == "started" {
		if s != nil {
			// A start again (a resumed run): reported, same sub-agent.
			return t.subagentStatus(dst, in, p, id, "sub_agent_started", s.Call)
		}
		dst, _ = t.announceSubagent(dst, in, p, id, "sub_agent_started")
		return dst
	}
	label := "sub_agent_state"
	switch status {
	case "completed", "failed", "aborted":
		label = "sub_agent_" + status
	}
	call := ""
	if s != nil {
		call = s.Call
		// It ended: forgotten (omp sends nothing more of it).
		for i := range t.st.Subagents {
			if t.st.Subagents[i].ID == id {
				t.st.Subagents = append(t.st.Subagents[:i:i], t.st.Subagents[i+1:]...)
				break
			}
		}
	} else {
		call = t.spawner(p)
	}
	return t.subagentStatus(dst, in, p, id, label, call)
}

// spawner is the tool_call item of the call a lifecycle payload names as
// the sub-agent's spawner, "" when the translator does not know it.
func (t *Translator) spawner(p jsonscan.Value) string {
	if tl := t.tool(p.Get("parentToolCallId").Str); tl != nil && tl.Call != "" && t.w.Known(tl.Call) {
		return tl.Call
	}
	return ""
}

// announceSubagent starts following a sub-agent: its sub_agent_started
// status item (p absent: a start made up for a sub-agent whose start was
// not seen, source daemon).
func (t *Translator) announceSubagent(dst []universal.Event, in *input, p jsonscan.Value, id, label string) ([]universal.Event, *subagent) {
	if len(t.st.Subagents) >= maxSubagents {
		t.st.Subagents = append(t.st.Subagents[:0], t.st.Subagents[1:]...)
	}
	s := subagent{ID: t.copy(id), Call: t.spawner(p)}
	if label != "" || s.Call == "" {
		s.Item = t.w.NewItemID()
		var md jsonw.Object
		if label == "" {
			md.String("subagent_id", id)
			dst = t.w.Complete(dst, universal.Item{
				ItemID: s.Item, Kind: universal.KindStatus,
				Content: []universal.Part{withMetadata(universal.Part{Type: universal.PartStatus, Label: "sub_agent_started", Detail: s.ID}, md.Bytes())},
			}, daemon, in.raw)
		} else {
			dst = t.subagentItem(dst, in, p, id, label, s.Call, s.Item)
		}
	}
	t.st.Subagents = append(t.st.Subagents, s)
	return dst, &t.st.Subagents[len(t.st.Subagents)-1]
}

// subagentStatus emits a lifecycle status item under the spawning call.
func (t *Translator) subagentStatus(dst []universal.Event, in *input, p jsonscan.Value, id, label, call string) []universal.Event {
	return t.subagentItem(dst, in, p, id, label, call, t.w.NewItemID())
}

// subagentFields are the lifecycle payload's members its status item
// keeps, with their metadata names.
var subagentFields = [...][2]string{{"agent", "agent"}, {"agentSource", "agent_source"}, {"description", "description"},
	{"status", "status"}, {"sessionFile", "session_file"}, {"parentToolCallId", "parent_tool_call_id"},
	{"index", "index"}, {"detached", "detached"}}

func (t *Translator) subagentItem(dst []universal.Event, in *input, p jsonscan.Value, id, label, parent, item string) []universal.Event {
	var md jsonw.Object
	md.String("subagent_id", id)
	for _, f := range subagentFields {
		t.addValue(&md, f[1], p.Sub(f[0]))
	}
	detail := p.Get("description").Str
	if detail == "" {
		detail = p.Get("agent").Str
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: item, ParentID: parent, Kind: universal.KindStatus,
		Content: []universal.Part{withMetadata(universal.Part{Type: universal.PartStatus, Label: label, Detail: t.copy(detail)}, md.Bytes())},
	}, agent, in.raw)
}

// subMessage translates one message of a sub-agent's run, complete: a
// user message (its prompt) or an assistant message (text and
// reasoning; failed when its stop reason is error or aborted) under
// parent, the calls an assistant message makes under it (added to
// calls), and a toolResult under the message that made its call (taken
// from calls), else under lastMsg, else under orphan (when orphan is ""
// such a result is left out: a result of no call of the run). raw is the
// native payload of every item, nil for each its own block's.
func (t *Translator) subMessage(dst []universal.Event, calls *[]tool, lastMsg *string, parent string, m jsonscan.Value, raw []byte) []universal.Event {
	rawOf := func(v jsonscan.Value) []byte {
		if raw != nil {
			return raw
		}
		return []byte(v.Raw())
	}
	switch m.Get("role").Str {
	case "user":
		dst = t.w.Complete(dst, universal.Item{
			ItemID: t.w.NewItemID(), ParentID: parent, Content: t.subParts(m.Sub("content")), Kind: universal.KindMessage, Role: universal.RoleUser,
		}, agent, rawOf(m))
	case "assistant":
		id := t.w.NewItemID()
		*lastMsg = id
		parts := t.subParts(m.Sub("content"))
		status := universal.StatusCompleted
		if stop := m.Get("stopReason").Str; stop == "error" || stop == "aborted" {
			status = universal.StatusFailed
			parts = append(parts, universal.Part{Type: universal.PartStatus, Label: t.copy(stop), Detail: t.copy(m.Get("errorMessage").Str)})
		}
		dst = t.w.Complete(dst, universal.Item{
			ItemID: id, ParentID: parent, Kind: universal.KindMessage, Role: universal.RoleAssistant, Content: parts, Status: status,
		}, agent, rawOf(m))
		m.Sub("content").Each(func(_ gjson.Result, c jsonscan.Value) bool {
			if c.Get("type").Str != "toolCall" {
				return true
			}
			sub := tool{CallID: t.copy(c.Get("id").Str), Name: t.copy(c.Get("name").Str), Msg: id, Call: t.w.NewItemID()}
			it := t.toolCallItem(sub.Call, id, sub.CallID, "", sub.Name, t.copyJSON(c.Sub("arguments")))
			if sub.Name == "" {
				it.Content[0].ToolKind, it.Content[0].ToolInput = universal.ToolOther, &universal.ToolInput{}
			}
			sub.Kind, sub.Paths = it.Content[0].ToolKind, it.Content[0].ToolInput.Paths
			if raw != nil && len(*calls) >= maxSubCalls {
				*calls = append((*calls)[:0], (*calls)[1:]...)
			}
			*calls = append(*calls, sub)
			dst = t.w.Complete(dst, it, agent, rawOf(c))
			return true
		})
	case "toolResult":
		f := fields(m, "toolCallId", "toolName", "content", "details", "durationMs", "isError")
		var sub tool
		for i, c := range *calls {
			if c.CallID == f[0].Str() {
				sub = c
				*calls = append((*calls)[:i:i], (*calls)[i+1:]...)
				break
			}
		}
		if sub.Msg == "" {
			msg := first(*lastMsg, orphanOf(raw, parent))
			if msg == "" {
				return dst // a result of no call of the run
			}
			sub = tool{CallID: t.copy(f[0].Str()), Name: t.copy(f[1].Str()), Msg: msg}
			sub.Kind, _ = t.describe(sub.Name, "")
		}
		sub.Result = t.w.NewItemID()
		text := t.output(t.render(f[2]))
		var md jsonw.Object
		t.addValue(&md, "details", f[3])
		t.addValue(&md, "durationMs", f[4])
		md.Raw("sub_agent_error", subAgentError(sub.Name, f[3]))
		dst = t.completeResult(dst, &sub, "", text, f[5].Result().Bool(), md, f[2], f[3], rawOf(m))
	}
	return dst
}

// orphanOf is where a sub-agent's result of no known call goes: under
// the sub-agent (parent) for a live frame (raw set), nowhere for a
// replayed run (whose results follow their calls).
func orphanOf(raw []byte, parent string) string {
	if raw == nil {
		return ""
	}
	return parent
}

// validateSubagents checks the sub-agents of a checkpoint: every item
// they name exists.
func (s *state) validateSubagents(w *universal.Stream) error {
	if len(s.Subagents) > maxSubagents {
		return fmt.Errorf("%d sub-agents followed, at most %d", len(s.Subagents), maxSubagents)
	}
	known := func(id string) bool { return id == "" || w.Known(id) }
	for _, sa := range s.Subagents {
		if sa.ID == "" || sa.parent() == "" || !known(sa.Call) || !known(sa.Item) || !known(sa.LastMsg) || len(sa.Calls) > maxSubCalls {
			return fmt.Errorf("sub-agent %q: no id, no parent, an item never started or too many calls", sa.ID)
		}
		for _, c := range sa.Calls {
			if c.Msg == "" || c.Call == "" || c.Result != "" || !known(c.Msg) || !known(c.Call) {
				return fmt.Errorf("sub-agent %q: call %q of an item never started", sa.ID, c.CallID)
			}
		}
	}
	return nil
}
