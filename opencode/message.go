package opencode

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

func role(r string) universal.Role {
	switch r {
	case "user":
		return universal.RoleUser
	case "assistant":
		return universal.RoleAssistant
	case "system":
		return universal.RoleSystem
	}
	return ""
}

// roleName returns a native role that does not alias the input.
func (t *Translator) roleName(r string) string {
	switch r {
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	}
	return t.w.Copy(r)
}

// newMessage starts the item of a message. A message first seen through
// one of its parts gets a stub (role unknown, source daemon) that its
// message.updated fills in later.
func (t *Translator) newMessage(dst []universal.Event, id, sid, r string, rt int, stub bool, raw []byte) ([]universal.Event, *msgState) {
	dst = t.completeDone(dst, sid)
	id = t.w.Copy(id)
	m := &msgState{ID: id, Item: t.w.NewItemID(), Session: t.w.Copy(sid), Role: t.roleName(r), Stub: stub}
	if rt == routeChild {
		m.Parent = t.st.Links[sid]
	}
	put(&t.st.Msgs, id, m)
	t.st.OpenMsgs = append(t.st.OpenMsgs, id)
	src := universal.SourceAgent
	if stub {
		src = universal.SourceDaemon
	}
	dst = t.w.StartItem(dst, universal.Item{
		ItemID:       m.Item,
		NativeItemID: id,
		ParentID:     m.Parent,
		Kind:         universal.KindMessage,
		Role:         role(r),
	}, src, raw)
	return dst, m
}

// onMessage handles a message's info (message.updated, or an entry of a
// message list), read by readInfo. complete: a completed info completes
// the item.
func (t *Translator) onMessage(dst []universal.Event, f *infoFields, raw []byte, complete bool) []universal.Event {
	info := f.info
	id := f.id.Str()
	sid := f.session.Str()
	r := f.role.Str()
	rt := t.route(sid, true)
	if rt == routeSkip {
		return dst
	}
	if rt == routeRoot && t.st.Cwd == "" {
		t.st.Cwd = t.w.CopyValue(info.Get("path.cwd"))
	}
	m := t.st.Msgs[id]
	first := r == "user" && (m == nil || m.Role == "")
	switch {
	case m == nil:
		if r == "user" && rt == routeRoot && !t.record() {
			// In a durable event log a prompt after the agent finished
			// starts the next turn (one that comes while it works joins
			// the turn it works on).
			dst = t.settleDurable(dst)
			// The response before it is complete, in the turn before.
			dst = t.completeDone(dst, sid)
			dst = t.startTurn(dst, universal.SourceAgent, raw)
		}
		if r != "user" {
			dst = t.completeUsers(dst, sid)
			if rt == routeRoot {
				t.st.Turn.Finished, t.st.Turn.Denied, t.st.Turn.Answered = false, false, true
			}
		}
		dst, m = t.newMessage(dst, id, sid, r, rt, false, raw)
	case m.Role == "" && r != "":
		// The message.updated of a message whose parts came first.
		m.Role = t.roleName(r)
		if r != "user" {
			dst = t.completeUsers(dst, sid)
			if rt == routeRoot {
				t.st.Turn.Finished, t.st.Turn.Denied, t.st.Turn.Answered = false, false, true
			}
		}
	}
	if rt == routeRoot {
		dst = t.agentMode(dst, f, raw)
	}
	if first {
		dst = t.userSystem(dst, m, info, raw)
	}
	if r == "assistant" {
		dst = t.assistantSystem(dst, m, info.Sub("system"), raw)
	}
	if v := f.model.Str(); v != "" && v != m.Model {
		m.Model = t.w.Copy(v)
	}
	if v := f.provider.Str(); v != "" && v != m.Provider {
		m.Provider = t.w.Copy(v)
	}
	if v := f.variant.Str(); v != "" && v != m.Variant {
		m.Variant = t.w.Copy(v)
	}
	if tok := f.tokens; tokensReported(tok) {
		// Reported when the message completes, unless its step-finish
		// parts report it.
		// Tokens and cost in one buffer, which the message's later
		// updates reuse.
		cost := ""
		if c := f.cost; c.Type() == gjson.Number {
			cost = c.Raw()
		}
		b := append(append(m.Tokens[:0], tok.Raw()...), cost...)
		n := len(tok.Raw())
		m.Tokens, m.Cost = b[:n], nil
		if cost != "" {
			m.Cost = b[n:]
		}
		if t.w.Stamper().IncludeRaw() {
			m.TokensRaw = append(m.TokensRaw[:0], raw...)
		}
	}
	if e := f.err; e.Exists() && !m.ErrSeen {
		m.ErrSeen = true
		child := ""
		if rt == routeChild {
			child = sid
		}
		dst = t.emitError(dst, e, child, raw)
	}
	if complete && f.completed() {
		dst = t.completeInfo(dst, id, m, f, rt, raw)
	}
	return dst
}

// completeInfo completes a message whose info says it is complete.
func (t *Translator) completeInfo(dst []universal.Event, id string, m *msgState, f *infoFields, rt int, raw []byte) []universal.Event {
	if !t.w.IsOpen(m.Item) {
		return dst
	}
	if rt == routeRoot && m.Role == "assistant" {
		// A message with no finish reason and nothing in it (an export's
		// step that never ran: no parts, no tokens) did not finish the
		// turn; without a reason, a message with content may have (lists
		// written by hand, builds before finish reasons).
		finish := f.finish.Str()
		t.st.Turn.Finished = !loops(finish) && !f.err.Exists() && (finish != "" || len(m.Parts) > 0 || m.Tools)
		t.st.Turn.BusyUntil = f.stamp("completed")
	}
	status := universal.StatusCompleted
	if f.err.Exists() {
		status = universal.StatusFailed
	}
	if len(m.Parts) == 0 && !m.Tools && !t.record() {
		// Complete before any part came (a stream that replays a message
		// out of order): its parts may follow, and belong in its item.
		m.Done, m.DoneFailed = true, status == universal.StatusFailed
		return dst
	}
	return t.completeMessage(dst, id, m, status, universal.SourceAgent, raw)
}

// completeDone completes the messages of session sid ("" for every
// session) whose info said they were complete before their parts came.
func (t *Translator) completeDone(dst []universal.Event, sid string) []universal.Event {
	// Collected first: completing a message takes it out of OpenMsgs.
	// Most calls find none, and copy nothing.
	var buf [4]string
	ids := buf[:0]
	for _, id := range t.st.OpenMsgs {
		if m := t.st.Msgs[id]; m.Done && (sid == "" || m.Session == sid) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		m := t.st.Msgs[id]
		dst = t.completeMessage(dst, id, m, m.doneStatus(), universal.SourceDaemon, nil)
	}
	return dst
}

// doneStatus is the status a message whose info said it was complete
// completes with.
func (m *msgState) doneStatus() universal.ItemStatus {
	if m.DoneFailed {
		return universal.StatusFailed
	}
	return universal.StatusCompleted
}

// completeUsers completes the open user messages of a session: an
// assistant message means the prompt is complete.
func (t *Translator) completeUsers(dst []universal.Event, sid string) []universal.Event {
	var buf [4]string // as in completeDone
	ids := buf[:0]
	for _, id := range t.st.OpenMsgs {
		if m := t.st.Msgs[id]; m.Role == "user" && m.Session == sid {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		dst = t.completeMessage(dst, id, t.st.Msgs[id], universal.StatusCompleted, universal.SourceDaemon, nil)
	}
	return dst
}

// completePrompts completes as the user's the open messages of m's
// session that no info named and that have text alone: a capture of part
// events alone tells a prompt so, by the assistant's message that follows
// it (one that has steps).
func (t *Translator) completePrompts(dst []universal.Event, m *msgState) []universal.Event {
	var buf [4]string // as in completeDone
	ids := buf[:0]
	for _, id := range t.st.OpenMsgs {
		if p := t.st.Msgs[id]; p != m && p.Stub && p.Role == "" && !p.Steps && !p.Tools && p.Session == m.Session {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		p := t.st.Msgs[id]
		p.Role = "user"
		dst = t.completeMessage(dst, id, p, universal.StatusCompleted, universal.SourceDaemon, nil)
	}
	return dst
}

// completeMessage completes a message item with its parts in their native
// order: the final text of its text and reasoning parts, and its
// non-streaming parts (a non-streaming part removed while the message was
// open leaves a status part "removed" in its place).
func (t *Translator) completeMessage(dst []universal.Event, id string, m *msgState, status universal.ItemStatus, src universal.Source, raw []byte) []universal.Event {
	if i := slices.Index(t.st.OpenMsgs, id); i >= 0 {
		t.st.OpenMsgs = slices.Delete(t.st.OpenMsgs, i, i+1)
	}
	if !t.w.IsOpen(m.Item) {
		return dst
	}
	dst = t.flushPending(dst, id)
	if len(m.Tokens) > 0 && !m.StepUsage && !m.InfoUsage {
		// Usage reported only in the message's info (no step-finish
		// part): the message is one model call.
		m.InfoUsage = true
		dst = t.emitUsage(dst, jsonscan.Wrap(gjson.ParseBytes(m.Tokens)), jsonscan.Wrap(gjson.ParseBytes(m.Cost)), m, m.TokensRaw)
	}
	content := t.parts[:0]
	var nth map[string]int // the slots of each non-streaming part so far
	for i, pid := range m.Parts {
		p := t.st.Parts[pid]
		if p.Type != "text" && p.Type != "reasoning" {
			if nth == nil {
				nth = map[string]int{}
			}
			k := nth[pid]
			nth[pid]++
			if x := m.extra(pid); x != nil && k < len(x.Content) {
				content = append(content, x.Content[k])
			} else {
				content = append(content, universal.Part{Type: universal.PartStatus, Label: "removed", Detail: "part " + pid})
			}
			continue
		}
		text := t.w.StreamedText(m.Item, i)
		if p.HasFinal {
			text = p.Final
		}
		if p.Removed {
			text = ""
		}
		content = append(content, textPart(p.Type, text, p.Meta))
	}
	if m.Role == "user" && t.st.HostPrompts != nil {
		if texts, ok := t.st.HostPrompts[m.ID]; ok && len(content) == 0 {
			for _, s := range texts {
				content = append(content, universal.Text(s))
			}
		}
		delete(t.st.HostPrompts, m.ID)
	}
	if t.echoes(m) {
		universal.MarkEcho(content)
	}
	t.parts = content
	r := m.Role
	if r == "" && m.Steps {
		// No info named the role; only an assistant's message has steps.
		r = "assistant"
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:       m.Item,
		NativeItemID: m.ID,
		ParentID:     m.Parent,
		Kind:         universal.KindMessage,
		Role:         role(r),
		Content:      content,
		Status:       status,
	}, src, raw)
}

// echoes reports whether a message's text is the live echo of a prompt:
// a user message of the followed session on the event stream (sse,
// events). A message list and the durable event log are records; a
// sub-agent's prompt is the parent agent's.
func (t *Translator) echoes(m *msgState) bool {
	return m.Role == "user" && m.Session == t.st.Session && !t.st.Durable && (t.format == FormatSSE || t.format == FormatEvents || t.format == FormatEventLines)
}

func textPart(typ, text string, meta []byte) universal.Part {
	if typ == "reasoning" {
		p := universal.Reasoning(text, universal.VisibilityPublic)
		p.Metadata = meta
		return p
	}
	p := universal.Text(text)
	p.Metadata = meta
	return p
}

// partKind tells the kinds of part whose type a later snapshot may not
// change: 1 for text and reasoning (one may follow the other: a part of
// deltas that came before it is taken for text), 2 for a tool, 0 for the
// rest.
func partKind(typ string) int {
	switch typ {
	case "text", "reasoning":
		return 1
	case "tool":
		return 2
	}
	return 0
}

// partType maps a text or reasoning part to its content type.
func partType(typ string) universal.PartType {
	if typ == "reasoning" {
		return universal.PartReasoning
	}
	return universal.PartText
}

// index returns the content index of a text or reasoning part, giving it
// the next one the first time.
func (t *Translator) index(m *msgState, pid string, p *partState) int {
	if p.Index < 0 {
		p.Index = len(m.Parts)
		m.Parts = append(m.Parts, p.ID)
	}
	return p.Index
}

// onPart handles a part snapshot (message.part.updated, a run line's
// part, an entry of a message's parts), read by readPart; its id and
// messageID are not empty. delta is the ≤1.1 delta field.
func (t *Translator) onPart(dst []universal.Event, f *partFields, delta string, e *event) []universal.Event {
	pid := f.id.Str()
	mid := f.msg.Str()
	sid := f.session.Str()
	if sid == "" {
		sid = e.props.Get("sessionID").Str
	}
	rt := t.route(sid, true)
	if rt == routeSkip {
		if !t.adopt(sid) {
			return dst
		}
		rt = routeChild
	}
	if p := t.st.Parts[pid]; p != nil && p.Msg != mid {
		// A part is in one message: its content went to the item of the
		// message it came with first (a stub when that id was unknown).
		// Taking this snapshot into another message's item would put a
		// reasoning part's text in a text part's place.
		return t.unparsed(dst, e, fmt.Errorf("part %q of message %q sent again under message %q", pid, p.Msg, mid))
	}
	if p := t.st.Parts[pid]; p != nil && partKind(p.Type) != partKind(f.typ.Str()) {
		// A part keeps the kind it came with (text or reasoning, a tool,
		// anything else): its content went where that kind goes, and
		// text and reasoning have a place among the message's parts that
		// a tool or step part has not.
		return t.unparsed(dst, e, fmt.Errorf("part %q of type %q sent again as type %q", pid, p.Type, f.typ.Str()))
	}
	m := t.st.Msgs[mid]
	if m == nil {
		if t.format == FormatRunJSON {
			// Run output prints only the assistant's parts.
			dst, m = t.newMessage(dst, mid, sid, "assistant", rt, false, e.raw)
		} else {
			dst, m = t.newMessage(dst, mid, sid, "", rt, true, e.raw)
		}
	}
	p := t.st.Parts[pid]
	fresh := p == nil
	typ := f.typ.Str()
	switch typ {
	case "step-start":
		if !m.Steps && m.Role == "" {
			// An assistant's message whose info did not come starts: the
			// session's open messages of text alone without info were
			// its prompt.
			dst = t.completePrompts(dst, m)
		}
		m.Steps, m.StepDone = true, false
	case "step-finish":
		m.Steps, m.StepDone = true, true
	case "reasoning", "tool", "patch", "snapshot":
		m.Steps = true
	}
	if fresh {
		pid = t.w.Copy(pid)
		p = &partState{ID: pid, Msg: t.w.Copy(mid), Type: t.w.Copy(typ), Index: -1}
		put(&t.st.Parts, pid, p)
		if typ != "text" && typ != "reasoning" {
			dst = t.dropPending(dst, pid, typ, e)
		}
	}
	switch typ {
	case "text", "reasoning":
		if fresh {
			dst = t.flushPart(dst, pid, p, m)
		}
		return t.onText(dst, m, pid, p, f, delta, e)
	case "tool":
		return t.onTool(dst, m, p, f, sid, e)
	case "step-start", "snapshot":
		// Step boundaries and git snapshots: nothing for the transcript.
		if typ == "step-start" && rt == routeRoot {
			t.st.Turn.StepOpen = true
		}
		return dst
	case "step-finish":
		if !fresh {
			// A step's usage is reported once, whatever is re-sent.
			return dst
		}
		return t.onStepFinish(dst, f, rt, e)
	case "retry":
		return t.retry(dst, f.part.Get("attempt").Int(), f.part.Get("error.data.message").Str, f.part.Raw(), e.raw)
	case "file", "patch", "agent", "subtask", "compaction":
		return t.onExtra(dst, mid, m, pid, p, extraContent(typ, f.part), e)
	}
	return t.unparsed(dst, e, fmt.Errorf("unknown part type %q", typ))
}

// onText handles a text or reasoning snapshot: the new suffix of the
// snapshot beyond what was emitted becomes a delta; a snapshot that does
// not extend it (trimmed, rewritten) is kept as the final text.
func (t *Translator) onText(dst []universal.Event, m *msgState, pid string, p *partState, f *partFields, delta string, e *event) []universal.Event {
	text := f.text
	if f.synthetic.Result().Bool() {
		return t.syntheticText(dst, m, pid, p, text.Str(), e)
	}
	if !t.w.IsOpen(m.Item) {
		return t.lateText(dst, m, p, f, e)
	}
	var add string
	if text.Exists() {
		emitted := ""
		if p.Index >= 0 {
			emitted = t.w.StreamedText(m.Item, p.Index)
		}
		if s := text.Str(); strings.HasPrefix(s, emitted) {
			add = s[len(emitted):]
			p.Final, p.HasFinal = "", false
		} else {
			p.Final, p.HasFinal = t.w.Copy(s), true
		}
	} else {
		add = delta
	}
	if add != "" {
		dst = t.w.Delta(dst, m.Item, t.index(m, pid, p), partType(p.Type), add, universal.SourceAgent, e.raw)
	}
	// A part's metadata is read from its final snapshot: the one with an
	// end time, or the only one a message list or export has (a part cut
	// short by an abort never gets an end time).
	if tm := f.time; !tm.Exists() || tm.Sub("end").Exists() || t.format == FormatMessages {
		p.Meta = t.textMetadata(f)
		if p.Index < 0 && p.Meta != nil {
			// A part with no text but provider metadata (a reasoning
			// part whose only content is OpenAI's encrypted reasoning or
			// Anthropic's redacted thinking) keeps its place, empty, so
			// that the metadata reaches the item like that of a part
			// with text.
			var i int
			if dst, i = t.w.AddPart(dst, m.Item, textPart(p.Type, "", nil)); i >= 0 {
				p.Index = i
				m.Parts = append(m.Parts, p.ID)
			}
		}
	}
	return dst
}

// textMetadata keeps a text, reasoning or tool part's provider metadata
// (signatures, encrypted reasoning, a function call's item id) and its
// ignored flag.
func (t *Translator) textMetadata(f *partFields) []byte {
	var o jsonw.Object
	if md := f.metadata; md.IsObject() && !emptyJSON(md.Raw()) {
		md.AddTo(&o, "metadata")
	}
	if f.ignored.Result().Bool() {
		o.Bool("ignored", true)
	}
	if o.Len() == 0 {
		return nil
	}
	return o.Bytes()
}

// userSystem maps the system prompt a user message carries (UserMessage
// system: the prompt request's own system text, which OpenCode gives the
// model with that prompt) to a system item under the message, metadata
// {source: system}, once: when the message is first known as a user's.
func (t *Translator) userSystem(dst []universal.Event, m *msgState, info jsonscan.Value, raw []byte) []universal.Event {
	s := info.Get("system")
	if s.Type != gjson.String || s.Str == "" {
		return dst
	}
	p := universal.Text(t.w.Copy(s.Str))
	p.Metadata = []byte(`{"source":"system"}`)
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: m.Item,
		Kind:     universal.KindSystem,
		Role:     universal.RoleSystem,
		Content:  []universal.Part{p},
	}, universal.SourceAgent, raw)
}

// assistantSystem maps the system prompt an assistant message of OpenCode
// before 1.0 carries (AssistantMessage system: the prompts OpenCode built
// for the call, an array of strings, sent again with every update of
// every message) to session information, as other agents' system prompts
// are (package universal): a completed status item labelled system_prompt
// under the message, metadata {system_prompt: the array as given}, when
// the session's prompt is new or changed, nothing when it repeats.
func (t *Translator) assistantSystem(dst []universal.Event, m *msgState, s jsonscan.Value, raw []byte) []universal.Event {
	if !s.IsArray() || s.Raw() == "[]" {
		return dst
	}
	// A hash of the raw array (a prompt is ~10 KB; not kept), the same
	// in every process, as checkpoint state must be.
	sum := t.system.sum
	if raw := s.Raw(); raw != t.system.raw {
		sum = systemHash(raw)
		t.system.raw, t.system.sum = strings.Clone(raw), sum
	}
	if t.st.SystemPrompts[m.Session] == sum {
		return dst
	}
	put(&t.st.SystemPrompts, m.Session, sum)
	var o jsonw.Object
	s.AddTo(&o, "system_prompt")
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: m.Item,
		Kind:     universal.KindStatus,
		Content:  []universal.Part{{Type: universal.PartStatus, Label: "system_prompt", Metadata: o.Bytes()}},
	}, universal.SourceAgent, raw)
}

// systemHash returns the 64-bit FNV-1a hash of a system prompt's raw
// array in base 36 (what hash/fnv's New64a gives, without copying the
// prompt into a byte slice first).
func systemHash(raw string) string {
	const offset64, prime64 = 14695981039346656037, 1099511628211
	h := uint64(offset64)
	for i := 0; i < len(raw); i++ {
		h ^= uint64(raw[i])
		h *= prime64
	}
	return strconv.FormatUint(h, 36)
}

// agentMode takes the agent a followed session's message is for: the
// primary agent the user picked (build, plan or one of their own), which
// a user message names as agent and an assistant message as agent and
// mode (a 2.x step as its agent); OpenCode's hidden agents (compaction,
// title, summary) are not. The first is the session's; a change
// (the user switched to plan, or back) is a status item labelled "mode"
// with the agent as its detail, as Claude Code's permission mode and an
// ACP agent's current mode are (opencode acp offers the agents as modes),
// metadata agent and previous {agent}.
func (t *Translator) agentMode(dst []universal.Event, f *infoFields, raw []byte) []universal.Event {
	a := f.agent
	if a.Type() != gjson.String {
		a = f.mode
	}
	name := ""
	if a.Type() == gjson.String {
		name = a.Str()
	}
	switch name {
	case "", t.st.Agent, "compaction", "title", "summary":
		// OpenCode's hidden agents write a compaction's summary, a
		// title, a session summary: no agent the user picked.
		return dst
	}
	prev := t.st.Agent
	t.st.Agent = t.w.Copy(name)
	if prev == "" {
		return dst
	}
	var o jsonw.Object
	o.String("agent", name).OptStringIn("previous", "agent", prev)
	return t.w.Complete(dst, universal.Item{
		ItemID:  t.w.NewItemID(),
		Kind:    universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: universal.LabelMode, Detail: t.st.Agent, Metadata: o.Bytes()}},
	}, universal.SourceAgent, raw)
}

// syntheticText maps a text part OpenCode generated itself (the content
// of an attached file, a tool call it made for the user) to a system item
// under the message, so that it is not mistaken for what the user typed.
func (t *Translator) syntheticText(dst []universal.Event, m *msgState, pid string, p *partState, text string, e *event) []universal.Event {
	if p.Late || text == "" {
		return dst
	}
	p.Late = true
	return t.w.Complete(dst, universal.Item{
		ItemID:       t.w.NewItemID(),
		NativeItemID: p.ID,
		ParentID:     m.Item,
		Kind:         universal.KindSystem,
		Role:         universal.RoleSystem,
		Content:      []universal.Part{universal.Text(t.w.Copy(text))},
	}, universal.SourceAgent, e.raw)
}

// lateText handles a text part that arrives after its message item
// completed: a part not seen before becomes an item of its own (same
// message, same role); a later snapshot of a part the completion already
// carried changes nothing.
func (t *Translator) lateText(dst []universal.Event, m *msgState, p *partState, f *partFields, e *event) []universal.Event {
	text := f.text.Str()
	if p.Late || p.Index >= 0 || text == "" {
		return dst
	}
	return t.lateItem(dst, m, p, []universal.Part{textPart(p.Type, t.w.Copy(text), t.textMetadata(f))}, e.raw)
}

// lateItem gives a part that arrived after its message completed an item
// of its own: same message (native id), same role and parent.
func (t *Translator) lateItem(dst []universal.Event, m *msgState, p *partState, content []universal.Part, raw []byte) []universal.Event {
	p.Late = true
	if t.echoes(m) {
		universal.MarkEcho(content)
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:       t.w.NewItemID(),
		NativeItemID: p.Msg,
		ParentID:     m.Parent,
		Kind:         universal.KindMessage,
		Role:         role(m.Role),
		Content:      content,
	}, universal.SourceAgent, raw)
}

// onDelta handles message.part.delta (1.2+): text appended to a part's
// field, which is "text" for reasoning parts too, so the part's own type
// decides. A delta before its part is kept until the part arrives.
func (t *Translator) onDelta(dst []universal.Event, e *event) []universal.Event {
	var sv, mv, pv, fv, dv jsonscan.Value
	e.props.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "sessionID":
			jsonscan.KeepFirst(&sv, v)
		case "messageID":
			jsonscan.KeepFirst(&mv, v)
		case "partID":
			jsonscan.KeepFirst(&pv, v)
		case "field":
			jsonscan.KeepFirst(&fv, v)
		case "delta":
			jsonscan.KeepFirst(&dv, v)
		}
		return true
	})
	if t.format == FormatSSE || t.format == FormatEventLines {
		// Only an event of its own message is marked: in an array of
		// events the mark would copy the document up to the delta. The
		// event id before it (OpenCode 1.18) changes with each event.
		t.scan.MarkVarying(&t.delta, dv, e.idv)
	}
	sid, mid, pid := sv.Str(), mv.Str(), pv.Str()
	if mid == "" || pid == "" {
		return t.unparsed(dst, e, errors.New("message.part.delta without messageID and partID"))
	}
	if f := fv.Str(); f != "text" {
		if t.route(sid, true) == routeSkip {
			return dst
		}
		return t.unparsed(dst, e, fmt.Errorf("delta of field %q", f))
	}
	return t.textDelta(dst, e, sid, mid, pid, dv.Str())
}

// textDelta appends delta to the text of part pid of message mid of
// session sid (message.part.delta, a 2.x text or reasoning delta).
func (t *Translator) textDelta(dst []universal.Event, e *event, sid, mid, pid, delta string) []universal.Event {
	rt := t.route(sid, true)
	if rt == routeSkip || delta == "" {
		return dst
	}
	if l := &t.last; l.p != nil && l.p.ID == pid {
		if !t.w.IsOpen(l.m.Item) {
			return dst
		}
		return t.w.Delta(dst, l.m.Item, t.index(l.m, pid, l.p), partType(l.p.Type), delta, universal.SourceAgent, e.raw)
	}
	p := t.st.Parts[pid]
	if p == nil {
		m := t.st.Msgs[mid]
		if m == nil {
			dst, _ = t.newMessage(dst, mid, sid, "", rt, true, e.raw)
		}
		pd := pendingDelta{Session: t.w.Copy(sid), Msg: t.w.Copy(mid), Part: t.w.Copy(pid), Text: t.w.Copy(delta)}
		if t.w.Stamper().IncludeRaw() {
			pd.Raw = append([]byte(nil), e.raw...)
		}
		t.st.Pending = append(t.st.Pending, pd)
		return dst
	}
	if p.Type != "text" && p.Type != "reasoning" {
		return t.unparsed(dst, e, fmt.Errorf("text delta for a %s part", p.Type))
	}
	m := t.st.Msgs[p.Msg]
	t.last.p, t.last.m = p, m
	if !t.w.IsOpen(m.Item) {
		// The message completed (or was closed at the end of its turn):
		// its completion already carries the part's final text.
		return dst
	}
	return t.w.Delta(dst, m.Item, t.index(m, pid, p), partType(p.Type), delta, universal.SourceAgent, e.raw)
}

// flushPart emits the deltas that came before the part's first snapshot.
func (t *Translator) flushPart(dst []universal.Event, pid string, p *partState, m *msgState) []universal.Event {
	if len(t.st.Pending) == 0 {
		return dst
	}
	kept := t.st.Pending[:0]
	for _, d := range t.st.Pending {
		if d.Part != pid {
			kept = append(kept, d)
			continue
		}
		if t.w.IsOpen(m.Item) {
			dst = t.w.Delta(dst, m.Item, t.index(m, pid, p), partType(p.Type), d.Text, universal.SourceAgent, d.Raw)
		}
	}
	t.st.Pending = kept
	return dst
}

// dropPending reports the deltas that came before the first snapshot of
// a part that does not stream text (a tool, a part of unknown type), as
// onDelta reports a delta for such a part that came after it: they are
// not text of the part, and flushing them later would give it a text
// index.
func (t *Translator) dropPending(dst []universal.Event, pid, typ string, e *event) []universal.Event {
	n := 0
	kept := t.st.Pending[:0]
	for _, d := range t.st.Pending {
		if d.Part == pid {
			n++
			continue
		}
		kept = append(kept, d)
	}
	t.st.Pending = kept
	if n == 0 {
		return dst
	}
	return t.unparsed(dst, e, fmt.Errorf("%d text deltas came before it for a part of type %q", n, typ))
}

// flushPending emits the buffered deltas of a message ("" for all) whose
// part never arrived, as text.
func (t *Translator) flushPending(dst []universal.Event, mid string) []universal.Event {
	if len(t.st.Pending) == 0 {
		return dst
	}
	var todo []pendingDelta
	kept := t.st.Pending[:0]
	for _, d := range t.st.Pending {
		if mid == "" || d.Msg == mid {
			todo = append(todo, d)
		} else {
			kept = append(kept, d)
		}
	}
	t.st.Pending = kept
	for _, d := range todo {
		p := t.st.Parts[d.Part]
		if p == nil {
			p = &partState{ID: d.Part, Msg: d.Msg, Type: "text", Index: -1}
			put(&t.st.Parts, d.Part, p)
		}
		// A part is in one message (see onPart): a delta goes to the
		// message its part came with first (as onDelta sends one that
		// comes after its part), whatever message it names; its index is
		// one of that message's parts.
		m := t.st.Msgs[p.Msg]
		if m != nil && t.w.IsOpen(m.Item) {
			dst = t.w.Delta(dst, m.Item, t.index(m, d.Part, p), partType(p.Type), d.Text, universal.SourceAgent, d.Raw)
		}
	}
	return dst
}

// extraContent maps a part that does not stream to content parts.
func extraContent(typ string, part jsonscan.Value) []universal.Part {
	switch typ {
	case "file":
		mime := part.Get("mime").Str
		url := part.Get("url").Str
		name := part.Get("filename").Str
		path := part.Get("source.path").Str
		if path == "" {
			if p, ok := strings.CutPrefix(url, "file://"); ok {
				path = p
			}
		}
		inline := path == "" && strings.HasPrefix(url, "data:") && strings.HasPrefix(mime, "image/")
		if path == "" && !inline {
			path = name
		}
		var o jsonw.Object
		o.OptString("filename", name)
		o.OptString("mime", mime)
		if !strings.HasPrefix(url, "data:") {
			o.OptString("url", url)
		} else {
			dataURLMeta(&o, url)
		}
		if src := part.Sub("source"); src.IsObject() {
			o.Raw("source", src.Raw())
		}
		if strings.HasPrefix(mime, "image/") {
			return []universal.Part{{Type: universal.PartImage, Path: strings.Clone(path), Mime: strings.Clone(mime), Metadata: o.Bytes()}}
		}
		return []universal.Part{{Type: universal.PartFileRef, Path: strings.Clone(path), Action: universal.FileRead, Metadata: o.Bytes()}}
	case "patch":
		var md jsonw.Object
		meta := md.OptString("hash", part.Get("hash").Str).Bytes()
		var ps []universal.Part
		part.Sub("files").ForEach(func(_, f gjson.Result) bool {
			ps = append(ps, universal.Part{Type: universal.PartFileRef, Path: strings.Clone(f.Str), Action: universal.FilePatch, Metadata: meta})
			return true
		})
		return ps
	case "agent":
		var o jsonw.Object
		o.Raw("source", part.Get("source").Raw)
		return []universal.Part{{Type: universal.PartStatus, Label: "agent", Detail: strings.Clone(part.Get("name").Str), Metadata: metaOrNil(&o)}}
	case "subtask":
		var o jsonw.Object
		o.OptString("agent", part.Get("agent").Str)
		o.OptString("prompt", part.Get("prompt").Str)
		o.OptString("command", part.Get("command").Str)
		if m := part.Get("model"); m.Raw != `""` { // an empty id names no model
			o.Raw("model", m.Raw)
		}
		return []universal.Part{{Type: universal.PartStatus, Label: "subtask", Detail: strings.Clone(part.Get("description").Str), Metadata: metaOrNil(&o)}}
	default: // compaction
		var o jsonw.Object
		o.Raw("auto", part.Get("auto").Raw)
		o.Raw("overflow", part.Get("overflow").Raw)
		o.OptString("tail_start_id", part.Get("tail_start_id").Str)
		detail := "compaction requested"
		if part.Get("auto").Bool() {
			detail = "automatic compaction"
		}
		return []universal.Part{{Type: universal.PartStatus, Label: universal.LabelCompaction, Detail: detail, Metadata: metaOrNil(&o)}}
	}
}

func metaOrNil(o *jsonw.Object) []byte {
	if o.Len() == 0 {
		return nil
	}
	return o.Bytes()
}

// onExtra records (or replaces) a non-streaming part of a message. Its
// content parts take their place among the message's parts at once
// (Stream.AddPart), so the completed item keeps the native part order.
// After the message completed, the part becomes an item of its own.
func (t *Translator) onExtra(dst []universal.Event, mid string, m *msgState, pid string, p *partState, content []universal.Part, e *event) []universal.Event {
	if !t.w.IsOpen(m.Item) {
		if p.Late || len(content) == 0 {
			return dst
		}
		return t.lateItem(dst, m, p, content, e.raw)
	}
	x := m.extra(pid)
	if x == nil {
		m.Extra = append(m.Extra, extraPart{Part: p.ID})
		x = &m.Extra[len(m.Extra)-1]
	}
	// Slots: one per content part; a part re-sent with more content parts
	// gets more (after the others).
	slots := 0
	for _, o := range m.Parts {
		if o == pid {
			slots++
		}
	}
	for ; slots < len(content); slots++ {
		var i int
		if dst, i = t.w.AddPart(dst, m.Item, content[slots]); i < 0 {
			return dst
		}
		m.Parts = append(m.Parts, p.ID)
	}
	x.Content = content
	return dst
}

// extra returns the non-streaming part pid of the message, nil if none.
func (m *msgState) extra(pid string) *extraPart {
	for i := range m.Extra {
		if m.Extra[i].Part == pid {
			return &m.Extra[i]
		}
	}
	return nil
}

// onMessageRemoved handles message.removed (a revert): an open item is
// completed as failed; a completed one gets a status item saying it was
// removed.
func (t *Translator) onMessageRemoved(dst []universal.Event, e *event) []universal.Event {
	sid := e.props.Get("sessionID").Str
	mid := e.props.Get("messageID").Str
	if t.route(sid, false) == routeSkip {
		return dst
	}
	t.revertFinal(sid)
	m := t.st.Msgs[mid]
	if m == nil {
		return dst
	}
	if t.w.IsOpen(m.Item) {
		return t.completeMessage(dst, mid, m, universal.StatusFailed, universal.SourceAgent, e.raw)
	}
	return t.removed(dst, m.Item, "message "+mid, e)
}

// onPartRemoved handles message.part.removed: the part of an open message
// ends empty (the completed item marks it rewritten), open tool items are
// completed as failed, and a part already completed gets a status item.
func (t *Translator) onPartRemoved(dst []universal.Event, e *event) []universal.Event {
	sid := e.props.Get("sessionID").Str
	pid := e.props.Get("partID").Str
	if t.route(sid, false) == routeSkip {
		return dst
	}
	t.revertFinal(sid)
	p := t.st.Parts[pid]
	if p == nil {
		return dst
	}
	m := t.st.Msgs[p.Msg]
	switch {
	case p.Type == "tool":
		closed := false
		for _, id := range []string{p.Result, p.Call} {
			if id != "" && t.w.IsOpen(id) {
				dst = t.w.Close(dst, id, universal.StatusFailed, universal.SourceAgent, e.raw)
				closed = true
			}
		}
		p.CallDone, p.ResultDone = true, true
		if !closed && p.Call != "" {
			dst = t.removed(dst, p.Call, "part "+pid, e)
		}
		return dst
	case m != nil && t.w.IsOpen(m.Item):
		p.Removed = true
		for i := range m.Extra {
			if m.Extra[i].Part == pid {
				m.Extra = slices.Delete(m.Extra, i, i+1)
				break
			}
		}
		return dst
	case m != nil:
		return t.removed(dst, m.Item, "part "+pid, e)
	}
	return dst
}

// revertFinal records that OpenCode removes messages or parts of a
// session with a revert point: it does so when a new prompt makes the
// revert final, so the revert point that then goes away was not undone.
func (t *Translator) revertFinal(sid string) {
	if r, ok := t.st.Reverts[sid]; ok && !r.Removed {
		r.Removed = true
		put(&t.st.Reverts, sid, r)
	}
}

// removed emits a status item recording that OpenCode removed something
// already completed.
func (t *Translator) removed(dst []universal.Event, item, what string, e *event) []universal.Event {
	var o jsonw.Object
	o.String("item_id", item)
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: item,
		Kind:     universal.KindStatus,
		Content:  []universal.Part{{Type: universal.PartStatus, Label: "removed", Detail: strings.Clone(what), Metadata: o.Bytes()}},
	}, universal.SourceAgent, e.raw)
}
