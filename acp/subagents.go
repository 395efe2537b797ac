package acp

import (
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// subagent is a sub-agent session the agent announced (the subagents
// RFD's subagent_spawned or subagent_update).
type subagent struct {
	// Item is the status item that announced it: the sub-agent's items
	// go under it when no call of the session is named as its spawner.
	Item string `json:"item"`
	// Call is the toolCallId of the call that spawned it, when the
	// announcement named one the session knows (its items go under that
	// call, as an unannounced sub-agent session's do; see subCall).
	Call string `json:"call,omitempty"`
	// Parent is the item the announcement went under ("" the session's).
	Parent string `json:"parent,omitempty"`
	// Ended: a terminal state was reported.
	Ended bool `json:"ended,omitempty"`
	// tool stands for the sub-agent's spawner when Call is "": a task
	// call whose item is Item, for the scope of the sub-agent's session
	// (made on first use, not saved).
	tool *tool
}

// subagentStates are the lifecycle states of the subagents RFD: running,
// and the terminal ones.
var subagentStates = map[string]bool{"running": false, "completed": true, "failed": true, "cancelled": true, "disconnected": true,
	// The schema's StateUpdate (unstable v1 of the SDK 2.x): a
	// reusable child's foreground work; idle does not end the child.
	"idle": false, "requires_action": false, "unknown": false}

// subagentKeys are the metadata names of a sub-agent update's members.
var subagentKeys = map[string]string{"name": "name", "task": "task", "title": "title", "description": "description",
	"state": "state", "capabilities": "capabilities", "error": "error", "cwd": "cwd",
	"additionalDirectories": "additional_directories", "_meta": "_meta"}

// subagentUpdate translates the unstable sub-agent updates (the
// subagents RFD of the ACP repository, docs/rfds/subagents.mdx; sent only
// to a client declaring clientCapabilities.subagents): subagent_spawned
// {subagentSessionId, name, task, capabilities} and subagent_state_update
// {subagentSessionId, state} (the RFD's first form, which
// @agentclientprotocol/codex-acp, claude-agent-acp and Cursor send), and
// subagent_update, the same fields as an upsert (the RFD's later form:
// the first for a session announces it). Each is a completed status
// item: sub_agent_started for the announcement, sub_agent_<state> for a
// state (completed, failed, cancelled, disconnected, running),
// sub_agent_updated for a later update without one; its detail the
// sub-agent's name (else its task), its metadata the update's fields
// (subagent_session_id, name, task, state, capabilities, error, _meta).
// The announcement ends the text of the announcing session's response,
// as a tool call does. The announced session's updates go under the call
// the announcement names (_meta.cursor.toolCallId, _meta.parentToolCallId,
// parentToolCallId) when the session knows it and it can hold them (a
// task, or a call whose item is open, which becomes a task), else under
// the sub_agent_started item (itself under the named call): each
// sub-agent a conversation of its own, never the session's. A terminal state completes the sub-agent's open
// message; a sub-agent's failure is not the session's (no error event).
func (t *Translator) subagentUpdate(dst []universal.Event, in *input, kind string, u jsonscan.Value) []universal.Event {
	child := u.Get("subagentSessionId").Str
	if child == "" && kind == "subagent_update" {
		// The schema's subagent_update (SDK 2.x): the child is sessionId.
		child = u.Get("sessionId").Str
	}
	if child == "" {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: %s without a subagentSessionId", errBadParams, kind), in.raw)
	}
	dst = t.work(dst, in.raw)
	dst = t.closeUser(dst, in.raw)
	t.st.Turn.Answered = true
	stateV := u.Sub("state")
	state := stateV.Str()
	if stateV.IsObject() {
		// The schema's StateUpdate snapshot {state, stopReason, error,
		// usage, _meta}.
		state = stateV.Get("state").Str
	}
	terminal, known := subagentStates[state]
	sa := t.st.Subagents[child]
	parent := ""
	if sa != nil {
		parent = sa.Parent
	} else if t.sub != nil {
		_, sc := t.scope(t.sub)
		parent = sc.Parent
	}
	var call *tool
	if sa == nil && kind != "subagent_state_update" {
		if p := t.namedSpawner(u); p != nil {
			// The announcement is about that call; the sub-agent's
			// items go under it when it can hold them (a task, or a
			// call whose item is open, which becomes one), else under
			// the announcement.
			parent = p.Call
			if p.UKind == universal.ToolTask || t.w.IsOpen(p.Call) {
				call = p
			}
		}
		// The delegation ends the text of the announcing session's
		// response, as a call does.
		if _, sc := t.scope(t.sub); sc.Open && t.w.IsOpen(sc.Msg) {
			dst = t.closeMsg(dst, sc, agent, in.raw)
			sc.Open = false
		}
	}
	var md jsonw.Object
	md.String("subagent_session_id", child)
	for _, k := range []string{"name", "task", "title", "description", "state", "capabilities", "error", "cwd", "additionalDirectories", "_meta"} {
		if v := u.Sub(k); v.Exists() && v.Type() != gjson.Null {
			v.AddTo(&md, subagentKeys[k])
		}
	}
	detail := u.Get("name").Str
	if detail == "" {
		detail = u.Get("title").Str
	}
	if detail == "" {
		detail = u.Get("task").Str
	}
	if detail == "" {
		detail = u.Get("description").Str
	}
	if msg := stateV.Get("error.message").Str; msg != "" && stateV.IsObject() {
		// An idle state of stopReason error names the failure.
		detail = msg
	}
	// A session the host opened is no sub-agent of this one.
	own := t.st.Sessions[child] || child == t.w.Stamper().NativeSessionID()
	announce := sa == nil && kind != "subagent_state_update"
	label := "sub_agent_updated"
	switch {
	case announce:
		label = "sub_agent_started"
	case known:
		label = "sub_agent_" + state
	case state != "":
		label = "sub_agent_state"
	}
	if announce {
		id := t.w.NewItemID()
		dst = t.statusItem(dst, id, label, detail, md.Bytes(), parent, in.raw)
		if own {
			return dst
		}
		sa = &subagent{Item: id, Parent: parent}
		if call != nil {
			sa.Call = call.ID
			call.UKind = universal.ToolTask
			if t.st.SubSessions == nil {
				t.st.SubSessions = map[string]string{}
			}
			c := t.copy(child)
			t.st.SubSessions[c] = call.ID
			t.st.TurnSubs = append(t.st.TurnSubs, c)
		}
		if t.st.Subagents == nil {
			t.st.Subagents = map[string]*subagent{}
		}
		t.st.Subagents[t.copy(child)] = sa
		if !(known && terminal) {
			return dst
		}
		// An upsert that announces a sub-agent already ended.
		label, detail = "sub_agent_"+state, ""
	}
	if sa != nil && known && (terminal || state == "idle") {
		// idle: the sub-agent's foreground work ended (it may be
		// prompted again, and then speaks in a new message).
		sa.Ended = sa.Ended || terminal
		// The terminal state comes after all of the sub-agent's updates.
		if sc := t.st.Scopes[subScopePrefix+child]; sc != nil && sc.Open && t.w.IsOpen(sc.Msg) {
			dst = t.closeMsg(dst, sc, agent, in.raw)
			sc.Open = false
		}
	}
	return t.statusItem(dst, t.w.NewItemID(), label, detail, md.Bytes(), parent, in.raw)
}

// statusItem emits the complete status item id.
func (t *Translator) statusItem(dst []universal.Event, id, label, detail string, md []byte, parent string, raw []byte) []universal.Event {
	p := universal.Part{Type: universal.PartStatus, Label: label, Detail: t.copy(detail)}
	if len(md) > 2 {
		p.Metadata = md
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:   id,
		ParentID: parent,
		Kind:     universal.KindStatus,
		Content:  []universal.Part{p},
	}, agent, raw)
}

// namedSpawner returns the call of the session a sub-agent announcement
// names as the one that spawned it (Cursor: _meta.cursor.toolCallId;
// _meta.parentToolCallId; parentToolCallId), when the session knows it.
func (t *Translator) namedSpawner(u jsonscan.Value) *tool {
	id := u.Get("_meta.cursor.toolCallId").Str
	if id == "" {
		id = u.Get("_meta.parentToolCallId").Str
	}
	if id == "" {
		id = u.Get("parentToolCallId").Str
	}
	if id == "" {
		return nil
	}
	return t.st.Tools[id]
}

// announced returns the call an update of the announced sub-agent session
// sid goes under: a stand-in task call whose item is its sub_agent_started
// item, when no call of the session spawned it or its call's turn has
// ended (a sub-agent left running in the background); nil otherwise (its
// call holds it, see subCall).
func (t *Translator) announced(sid string) *tool {
	sa := t.st.Subagents[sid]
	if sa == nil || sa.Call != "" && t.st.Tools[sa.Call] != nil {
		return nil
	}
	if sa.tool == nil {
		sa.tool = &tool{ID: subScopePrefix + sid, Call: sa.Item, UKind: universal.ToolTask, Done: true}
	}
	return sa.tool
}

// sessionMessageKeys are the members of a session_message kept in its
// part's metadata, and their names there.
var sessionMessageKeys = [][2]string{{"senderSessionId", "sender_session_id"}, {"recipientSessionId", "recipient_session_id"},
	{"senderMessageId", "sender_message_id"}, {"recipientMessageId", "recipient_message_id"}, {"_meta", "_meta"}}

// sessionMessage translates session_message (unstable, the subagents
// RFD; SDK 2.x's schema): an upsert of an inter-session message
// {messageId, senderSessionId, recipientSessionId, senderMessageId,
// recipientMessageId, content, _meta} in the transcript of the update's
// session sid. claude-agent-acp sends them to a client declaring
// clientCapabilities.subagents in place of the Agent/Task call: the
// delegation's prompt as the parent's outgoing view and the child's
// incoming one, the child's reply as the parent's incoming view. Each is
// a completed message (native id the messageId) in the scope of its
// session (a sub-agent's under the sub-agent): role assistant when the
// session sent it (its agent wrote it), else user (the session's agent
// was given it, as a prompt); its blocks as a prompt's, the members but
// content in the first part's metadata as "session_message" (message_id,
// sender_session_id, recipient_session_id, sender_message_id,
// recipient_message_id, _meta). An upsert without content (one that
// patches the references) is a status item labelled session_message with
// that metadata.
func (t *Translator) sessionMessage(dst []universal.Event, in *input, sid string, u jsonscan.Value) []universal.Event {
	mid := u.Sub("messageId")
	if mid.Type() != gjson.String || mid.Str() == "" {
		return t.unsettled(dst, in, "session_message")
	}
	dst, sc := t.interScope(dst, in)
	var md jsonw.Object
	md.String("message_id", mid.Str())
	for _, k := range sessionMessageKeys {
		if v := u.Sub(k[0]); v.Exists() && v.Type() != gjson.Null {
			v.AddTo(&md, k[1])
		}
	}
	var parts []universal.Part
	c := u.Sub("content")
	if c.IsArray() {
		parts = t.blocks(nil, c)
	}
	role := universal.Role("")
	if s := u.Get("senderSessionId"); s.Type == gjson.String {
		role = universal.RoleUser
		if s.Str != "" && s.Str == sid && u.Get("recipientSessionId").Str != sid {
			role = universal.RoleAssistant
		}
	}
	if mid.Str() == sc.InterID {
		// An upsert of the message session_message_chunk streams (or
		// will): its references, and a content that replaces the chunks.
		sc.InterRefs = string(md.Bytes())
		if role != "" {
			sc.InterRole = role
		}
		if sc.Inter != "" && t.w.IsOpen(sc.Inter) && c.Exists() {
			if len(parts) == 0 {
				parts = []universal.Part{universal.Text("")} // null or []: cleared
			}
			return t.closeInterWith(dst, sc, parts, agent, in.raw)
		}
		if sc.Inter != "" && t.w.IsOpen(sc.Inter) {
			return dst
		}
	} else if len(parts) == 0 {
		// The references of a message whose chunks may follow.
		dst = t.closeInter(dst, sc, agent, in.raw)
		sc.InterID, sc.InterRefs, sc.InterRole = t.copy(mid.Str()), string(md.Bytes()), role
	}
	if len(parts) == 0 {
		return t.statusItem(dst, t.w.NewItemID(), "session_message", "", md.Bytes(), sc.Parent, in.raw)
	}
	var pm jsonw.Object
	pm.RawBytes("session_message", md.Bytes())
	parts[0].Metadata = pm.Bytes()
	if role == "" {
		role = universal.RoleUser
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:       t.w.NewItemID(),
		NativeItemID: t.copy(mid.Str()),
		ParentID:     sc.Parent,
		Kind:         universal.KindMessage,
		Role:         role,
		Content:      parts,
		Status:       universal.StatusCompleted,
	}, agent, in.raw)
}

// sessionMessageChunk translates session_message_chunk (unstable, the
// subagents RFD; SDK 2.4.0's schemas, v1 and v2): {messageId, content} "a
// streamed content block of an inter-session message"; "the message's
// participants and references come from session_message upserts, which
// can arrive before, between, or after its chunks". The chunks of one
// messageId stream one message item (native id the messageId) in the
// scope of the update's session, as the agent's chunks do: text grows its
// last text part, other blocks add parts. A session_message of that
// messageId gives its references (role and metadata, as sessionMessage
// says); one with content replaces what streamed and completes it. The
// message completes when the scope's next message starts, a chunk of
// another messageId comes, or the turn ends: role user unless an upsert
// said its session sent it, the references (else the messageId) in the
// first part's metadata "session_message".
func (t *Translator) sessionMessageChunk(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	mid := u.Sub("messageId")
	c := u.Sub("content")
	if mid.Type() != gjson.String || mid.Str() == "" || !c.IsObject() {
		return t.unsettled(dst, in, "session_message_chunk")
	}
	dst, sc := t.interScope(dst, in)
	if sc.Inter == "" || !t.w.IsOpen(sc.Inter) || sc.InterID != mid.Str() {
		if sc.InterID != mid.Str() {
			dst = t.closeInter(dst, sc, agent, in.raw)
			sc.InterID, sc.InterRefs, sc.InterRole = t.copy(mid.Str()), "", ""
		}
		sc.Inter = t.w.NewItemID()
		dst = t.w.StartItem(dst, universal.Item{ItemID: sc.Inter, NativeItemID: sc.InterID, ParentID: sc.Parent,
			Kind: universal.KindMessage, Role: sc.InterRole}, agent, in.raw)
	}
	if c.Sub("type").Str() == "text" {
		it, _ := t.w.Tracked(sc.Inter)
		i := len(it.Content) - 1
		if i < 0 || it.Content[i].Type != universal.PartText {
			i = len(it.Content)
		}
		return t.w.Delta(dst, sc.Inter, i, universal.PartText, c.Sub("text").Str(), agent, in.raw)
	}
	for _, p := range t.blocks(nil, c) {
		dst, _ = t.w.AddPart(dst, sc.Inter, p)
	}
	return dst
}

// interScope readies the scope of the update's session for a message
// between sessions: the turn works and is answered, and the message ends
// the text of the response, as a call does.
func (t *Translator) interScope(dst []universal.Event, in *input) ([]universal.Event, *scope) {
	dst = t.work(dst, in.raw)
	dst = t.closeUser(dst, in.raw)
	return t.answerScope(dst, in)
}

// answerScope marks the turn answered and ends the text of the response
// in the scope of the update's session, as a call does; it returns that
// scope.
func (t *Translator) answerScope(dst []universal.Event, in *input) ([]universal.Event, *scope) {
	t.st.Turn.Answered = true
	_, sc := t.scope(t.sub)
	if sc.Open && t.w.IsOpen(sc.Msg) {
		dst = t.closeMsg(dst, sc, agent, in.raw)
		sc.Open = false
	}
	return dst, sc
}

// closeInter completes the scope's inter-session message being streamed,
// with what streamed.
func (t *Translator) closeInter(dst []universal.Event, sc *scope, src universal.Source, raw []byte) []universal.Event {
	if sc.Inter == "" || !t.w.IsOpen(sc.Inter) {
		sc.Inter, sc.InterID, sc.InterRefs, sc.InterRole = "", "", "", ""
		return dst
	}
	it, _ := t.w.Tracked(sc.Inter)
	return t.closeInterWith(dst, sc, it.Content, src, raw)
}

// closeInterWith completes the scope's inter-session message with the
// parts given, its references in the first one's metadata, and forgets
// it.
func (t *Translator) closeInterWith(dst []universal.Event, sc *scope, parts []universal.Part, src universal.Source, raw []byte) []universal.Event {
	id, refs, role := sc.Inter, sc.InterRefs, sc.InterRole
	sc.Inter, sc.InterID, sc.InterRefs, sc.InterRole = "", "", "", ""
	it, _ := t.w.Tracked(id)
	if it.Role != "" {
		role = it.Role
	} else if role == "" {
		role = universal.RoleUser
	}
	if len(parts) == 0 {
		parts = []universal.Part{universal.Text("")}
	}
	var pm jsonw.Object
	if refs != "" {
		pm.Raw("session_message", refs)
	} else {
		var md jsonw.Object
		md.String("message_id", it.NativeItemID)
		pm.RawBytes("session_message", md.Bytes())
	}
	parts[0].Metadata = pm.Bytes()
	return t.w.Complete(dst, universal.Item{
		ItemID:       id,
		NativeItemID: it.NativeItemID,
		ParentID:     it.ParentID,
		Kind:         universal.KindMessage,
		Role:         role,
		Content:      parts,
		Status:       universal.StatusCompleted,
	}, src, raw)
}
