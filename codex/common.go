package codex

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"strings"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/internal/apierror"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Shorthands for the universal constants used everywhere.
const (
	agent  = universal.SourceAgent
	daemon = universal.SourceDaemon
)

type (
	event = universal.Event
	part  = universal.Part
)

// startTurn opens a turn of the root thread.
func (t *Translator) startTurn(dst []event, id string, meta []byte, src universal.Source, raw []byte) []event {
	if t.w.Turn() != "" && t.w.Turn() != id && id != "" {
		// A turn that never said it ended (a killed process, a stream cut
		// short) ends when the next one starts.
		dst = t.endTurn(dst, "", universal.TurnInterrupted, nil, daemon, nil)
	}
	if id != "" && t.w.Turn() == id {
		return dst
	}
	before := len(dst)
	dst, _ = t.w.StartTurn(dst, id, meta, src, raw)
	t.st.TurnErr = false
	if n := len(dst); n > before && dst[n-1].Type == universal.TypeTurnStarted {
		// A turn started (a stream that ended starts none).
		started := dst[n-1].Data.(*universal.TurnStarted).TurnID
		if k := len(t.st.Turns); k > 0 && t.st.Turns[k-1] == started {
			// The turn that started last starts again (an item of it
			// after its end): it is still one turn of the list, as a
			// rollback counts them (and as a restored state must hold).
			return dst
		}
		t.st.Turns = append(t.st.Turns, started)
		if t.ordinal >= 0 || len(t.st.TurnOrdinals) > 0 {
			for len(t.st.TurnOrdinals) < len(t.st.Turns)-1 {
				t.st.TurnOrdinals = append(t.st.TurnOrdinals, -1)
			}
			t.st.TurnOrdinals = append(t.st.TurnOrdinals, t.ordinal)
		}
	}
	return dst
}

// reverted reports that the conversation was reverted (a rollback of the
// last turns, a revert to before a turn) as a completed status item
// labelled "reverted", the label OpenCode's reverts have too, with the
// first turn it removes as metadata "turn_id" when that turn is known:
// a client hides that turn's items and every later turn's. The removed
// turns leave t.st.Turns, so that a second rollback counts from the
// turns that remain.
func (t *Translator) reverted(dst []event, c *ctx, thread, first string, n int64) []event {
	// Turns lists the root thread's turns; a sub-agent's are not kept.
	if first == "" && n > 0 && int64(len(t.st.Turns)) >= n && t.isRoot(thread) {
		first = t.st.Turns[int64(len(t.st.Turns))-n]
	}
	detail := "reverted"
	switch {
	case n == 1:
		detail = "reverted the last turn"
	case n > 1:
		detail = "reverted the last " + strconv.FormatInt(n, 10) + " turns"
	case first != "":
		detail = "reverted to before turn " + first
	}
	o := obj()
	if n > 0 {
		o.Int("num_turns", n)
	}
	if first != "" {
		o.String("turn_id", first)
		if i := slices.Index(t.st.Turns, first); i >= 0 {
			t.st.Turns = t.st.Turns[:i]
			t.st.TurnOrdinals = t.st.TurnOrdinals[:min(i, len(t.st.TurnOrdinals))]
		}
	}
	var meta []byte
	if o.Len() > 0 {
		meta = o.Bytes()
	}
	return t.status(dst, "", thread, universal.LabelReverted, detail, meta, agent, c.raw)
}

// endTurn ends a turn: requests still waiting are cancelled, open items
// fail.
func (t *Translator) endTurn(dst []event, id string, status universal.TurnStatus, meta []byte, src universal.Source, raw []byte) []event {
	if id == "" {
		id = t.w.Turn()
	}
	if id == "" && !t.w.Begun() {
		return dst
	}
	// The turn's responses end with it (and the results they held).
	dst = t.flushHeld(dst, "")
	if status == universal.TurnInterrupted && (t.format == FormatAppServer || t.format == FormatExchange) {
		dst = t.interruptCalls(dst, id)
	}
	dst = t.endResponses(dst, status == universal.TurnError)
	dst = t.cancelPending(dst, id)
	dst = t.w.EndTurn(dst, id, status, meta, src, raw)
	// The stream closed the turn's open items (as failed).
	t.markClosed()
	t.st.Failed = status == universal.TurnError
	t.st.TurnErr = false
	if t.st.PromptTurn == id {
		t.st.PromptTurn = ""
	}
	return dst
}

// interruptCalls gives each call of an interrupted app-server turn that
// has no result a failed one, with the output it streamed so far: the
// app-server sends no item/completed for a command the interrupt stopped
// (it stays inProgress; only the rollout records an output for it, "Wall
// time: S seconds\naborted by user", which may follow turn_aborted there),
// so the call ended without an outcome. The calls go in the order they
// started (state.open is in the map's order after a restore).
func (t *Translator) interruptCalls(dst []event, turn string) []event {
	stopped := map[*nitem]bool{}
	for _, n := range t.st.open {
		if n.Kind == kindTool && !n.RDone && n.Turn == turn && (n.Thread == "" || n.Thread == t.st.Thread) {
			stopped[n] = true
		}
	}
	if len(stopped) == 0 {
		return dst
	}
	// Their keys in Items, which toolResult takes.
	type call struct {
		key string
		n   *nitem
	}
	var todo []call
	for k, n := range t.st.Items {
		if stopped[n] {
			todo = append(todo, call{k, n})
		}
	}
	slices.SortFunc(todo, func(a, b call) int {
		return cmp.Or(cmp.Compare(len(a.n.ID), len(b.n.ID)), strings.Compare(a.n.ID, b.n.ID))
	})
	for _, c := range todo {
		res := resultSpec{isError: true, failed: true, meta: []byte(`{"status":"interrupted"}`)}
		if c.n.Result != "" {
			res.output = t.w.StreamedText(c.n.Result, 0)
		}
		dst = t.toolResult(dst, c.key, &toolSpec{native: c.n.CallID, thread: c.n.Thread, keep: true}, &res, daemon, nil)
	}
	return dst
}

// flushPrompts emits the oldest prompt the agent did not echo as a
// synthetic user message.
func (t *Translator) flushPrompts(dst []event, _ []byte) []event {
	if len(t.st.Prompts) == 0 {
		return dst
	}
	p := t.st.Prompts[0]
	t.st.Prompts = t.st.Prompts[1:]
	if t.st.PromptTurn == "" {
		t.st.PromptTurn = t.w.Turn()
	}
	dst = t.endResponse(dst, "")
	text, list, reply := t.replyPart(p)
	if !reply {
		text = universal.Text(p)
	}
	dst = t.w.Complete(dst, universal.Item{
		ItemID:  t.w.NewItemID(),
		Kind:    universal.KindMessage,
		Role:    universal.RoleUser,
		Content: []part{text},
	}, daemon, nil)
	if reply {
		dst = t.asyncAnswers(dst, list, daemon, nil)
	}
	return dst
}

// userSeen records that the open turn has its user message, and drops the
// host prompt it echoes.
func (t *Translator) userSeen(text string) {
	if !t.st.consumePrompt(text) && len(t.st.Prompts) > 0 && t.w.Turn() != "" && t.st.PromptTurn != t.w.Turn() {
		// The turn's first user message is the echo of the host's prompt
		// even when the texts differ (attachments, trimming).
		t.st.Prompts = t.st.Prompts[1:]
	}
	if t.st.PromptTurn == "" {
		t.st.PromptTurn = t.w.Turn()
	}
}

// beforeAgentItem runs before an agent item of the root thread starts:
// a prompt the host sent that the agent did not echo in this turn becomes
// a synthetic user message first.
func (t *Translator) beforeAgentItem(dst []event, thread string) []event {
	if len(t.st.Held) > 0 {
		dst = t.flushHeldUsers(dst)
	}
	if thread != "" && thread != t.st.Thread {
		return dst
	}
	if len(t.st.Prompts) > 0 && t.w.Turn() != "" && t.st.PromptTurn != t.w.Turn() {
		dst = t.flushPrompts(dst, nil)
	}
	return dst
}

// item returns the native item with the key, nil if unknown.
func (t *Translator) item(key string) *nitem { return t.st.Items[key] }

// newItem registers a native item and returns it.
func (t *Translator) newItem(key string, kind uint8, thread string) *nitem {
	n := t.items.Alloc(2, itemBlock)
	*n = nitem{ID: t.w.NewItemID(), Kind: kind, Thread: t.copyThread(thread), Turn: t.w.Turn()}
	if key != "" {
		t.st.addItem(t.w.Copy(key), n)
	}
	if thread != "" && thread != t.st.Thread {
		t.st.ChildItems = append(t.st.ChildItems, childItem{Thread: n.Thread, ID: n.ID})
	}
	return n
}

// parentOf returns the item a thread's items hang under: the item that
// spawned a sub-agent thread, "" for the root thread.
func (t *Translator) parentOf(thread string) string {
	if thread == "" || thread == t.st.Thread {
		return ""
	}
	return t.st.Children[thread]
}

// msgSpec describes a message or reasoning item.
type msgSpec struct {
	native string
	thread string
	role   universal.Role
	parts  []part
}

// startMessage starts a message item (text empty: it streams): a user
// message is an item of its own (it ends the thread's response); an
// assistant message or reasoning item becomes parts of its response's
// message.
func (t *Translator) startMessage(dst []event, key string, kind uint8, m msgSpec, src universal.Source, raw []byte) []event {
	if t.item(key) != nil {
		return dst
	}
	if m.role == universal.RoleUser {
		dst = t.endResponse(dst, m.thread)
		n := t.newItem(key, kind, m.thread)
		return t.w.StartItem(dst, universal.Item{
			ItemID:       n.ID,
			NativeItemID: m.native,
			ParentID:     t.parentOf(m.thread),
			Kind:         universal.KindMessage,
			Role:         m.role,
			Content:      m.parts,
		}, src, raw)
	}
	dst, r := t.response(dst, m.thread, m.native, true, src, raw)
	if !t.w.IsOpen(r.ID) {
		return dst
	}
	n := t.nativeIn(key, kind, m.thread, r)
	for _, p := range m.parts {
		// Text the native start already has (Codex sends none, a
		// damaged line may) goes out as the part's first delta.
		var i int
		if dst, i = t.addPart(dst, r, p); i < 0 {
			break
		}
		n.PI = append(n.PI, i)
	}
	return dst
}

// completeMessage completes a message item with its final parts, starting
// it first when it was never started: a user message's own item, or the
// parts of an assistant message or reasoning item in its response's
// message (by position: a native item's first part is its first part
// there). A message completed twice (two copies of it) is left as it was.
func (t *Translator) completeMessage(dst []event, key string, kind uint8, m msgSpec, src universal.Source, raw []byte) []event {
	n := t.item(key)
	if n != nil && n.Done {
		return dst
	}
	if m.role == universal.RoleUser {
		if n == nil {
			dst = t.endResponse(dst, m.thread)
			n = t.newItem(key, kind, m.thread)
		}
		n.Done = true
		return t.w.Complete(dst, universal.Item{
			ItemID:       n.ID,
			NativeItemID: m.native,
			ParentID:     t.parentOf(m.thread),
			Kind:         universal.KindMessage,
			Role:         m.role,
			Content:      m.parts,
		}, src, raw)
	}
	var r *resp
	if n != nil && t.w.IsOpen(n.ID) {
		r = t.respByID(n.ID)
	}
	if r == nil {
		// Never started, or its response ended before it completed: it
		// goes to the thread's response.
		dst, r = t.response(dst, m.thread, m.native, true, src, raw)
		if !t.w.IsOpen(r.ID) {
			return dst
		}
		n = t.nativeIn(key, kind, m.thread, r)
	}
	t.settleNative(n, r)
	for i := range m.parts {
		var idx int
		if dst, idx = t.partFor(dst, n, r, i, m.parts[i]); idx < 0 {
			break
		}
		dst = t.finalize(dst, r, idx, &m.parts[i], raw)
	}
	return dst
}

// messageDelta appends text to part i of a native message or reasoning
// item; a delta for an item never started starts a stub first (synthetic).
func (t *Translator) messageDelta(dst []event, key string, kind uint8, m msgSpec, i int, typ universal.PartType, text string, raw []byte) []event {
	if text == "" {
		return dst
	}
	n := t.item(key)
	if n == nil {
		m.native, m.thread = t.w.Copy(m.native), t.copyThread(m.thread)
		dst = t.startMessage(dst, key, kind, m, daemon, raw)
		if n = t.item(key); n == nil {
			return dst
		}
	}
	if n.Done || !t.w.IsOpen(n.ID) {
		return dst
	}
	r := t.respByID(n.ID)
	if r == nil {
		return dst
	}
	if i >= 0 && i < len(n.PI) {
		// The part exists (every delta after a part's first): no part
		// is built, a large value partFor would copy.
		return t.w.Delta(dst, n.ID, n.PI[i], typ, text, agent, raw)
	}
	p := part{Type: typ}
	if typ == universal.PartReasoning {
		p.Visibility = universal.VisibilityPublic
	}
	dst, idx := t.partFor(dst, n, r, i, p)
	if idx < 0 {
		return dst
	}
	return t.w.Delta(dst, n.ID, idx, typ, text, agent, raw)
}

// toolSpec describes the call side of a native tool.
type toolSpec struct {
	native string
	thread string
	callID string
	name   string
	args   string
	meta   []byte
	// user: a command the user ran themselves (source userShell): the call
	// item has role user.
	user bool
	// keep says the spec comes from the result side (an *_end event): a
	// call already started keeps what it started with.
	keep bool
}

// resultSpec describes the result side of a native tool.
type resultSpec struct {
	output  string
	isError bool
	failed  bool
	meta    []byte
	extra   []part
}

func (t *Translator) callItem(n *nitem, s *toolSpec) universal.Item {
	kind, in := t.describe(s.name, s.args)
	callID := s.callID
	if callID == "" || n.Uses > 0 {
		callID = n.CallID
	}
	meta := s.meta
	if n.Caller != "" {
		meta = joinMeta(meta, obj().String("caller_call_id", n.Caller).Bytes())
	}
	t.call[0] = part{Type: universal.PartToolCall, Name: s.name, Arguments: s.args, CallID: callID, Metadata: meta,
		ToolKind: kind, ToolInput: in}
	content := t.call[:]
	role := universal.RoleAssistant
	if s.user {
		role = universal.RoleUser
	}
	return universal.Item{
		ItemID:       n.ID,
		NativeItemID: s.native,
		ParentID:     n.Parent,
		Kind:         universal.KindToolCall,
		Role:         role,
		Content:      content,
	}
}

// userShell reports whether a command's source says the user ran it
// (v2 "userShell", core events "user_shell").
func userShell(source gjson.Result) bool {
	return source.Str == "userShell" || source.Str == "user_shell"
}

// codeCall returns the thread's code-mode exec call whose output has not
// come, nil for none.
func (t *Translator) codeCall(thread string) *nitem {
	key, ok := t.st.Code[thread]
	if !ok {
		return nil
	}
	if n := t.item(key); n != nil && !n.RDone {
		return n
	}
	delete(t.st.Code, thread)
	return nil
}

// toolCall starts the call item of a native tool, or with final set
// completes it (starting it first if needed). A call already completed is
// left as it is: the same call seen again (another copy of it) adds
// nothing.
func (t *Translator) toolCall(dst []event, key string, s *toolSpec, final bool, src universal.Source, raw []byte) []event {
	dst, _ = t.toolCallN(dst, key, s, final, src, raw)
	return dst
}

// freshCall prepares the call a record announces (a model's call record,
// an app-server item/started) under key: when the key's tool already has
// its result, the record is another call with the same native id.
// Providers behind Codex's chat-completions or OSS support that number
// each response's calls from 0 (call_0, Kimi K2's functions.shell:0)
// reuse an id in a later response. The new call takes the key (the
// events, output and requests that name the id are its own) and, made by
// toolCallN right after, the call_id id#n for the session's n-th call with
// the id (t.uses, which the caller resets); its native id stays the id.
// A repeated record of the same call comes before its result, or is no
// call record (a result, a turn's item list, a resumed thread's history).
func (t *Translator) freshCall(key string) {
	if key == "" {
		return
	}
	if prev := t.item(key); prev != nil && prev.Kind == kindTool && prev.RDone {
		t.uses = max(prev.Uses, 1) + 1
		delete(t.st.Items, key)
	}
}

// linkOf returns the call_id of the call under key, native (a copy) for
// a call whose native id no earlier call had or an unknown one.
func (t *Translator) linkOf(key, native string) string {
	if n := t.item(key); n != nil && n.Uses > 0 {
		return n.CallID
	}
	return t.w.Copy(native)
}

// toolCallN is toolCall that also returns the native item (keyless tools
// are not registered).
func (t *Translator) toolCallN(dst []event, key string, s *toolSpec, final bool, src universal.Source, raw []byte) ([]event, *nitem) {
	n := t.item(key)
	switch {
	case n == nil:
		dst = t.beforeAgentItem(dst, s.thread)
		parent, caller := t.parentOf(s.thread), ""
		if s.user {
			// The user's own command: no model response.
			dst = t.endResponse(dst, s.thread)
		} else {
			var r *resp
			dst, r = t.response(dst, s.thread, "", false, daemon, nil)
			parent = r.ID
			r.Calls = true
			if code := t.codeCall(s.thread); code != nil {
				// A tool the model's script called: beside the exec
				// call, under the message of the response that made
				// it, naming the exec call (see callItem).
				caller = code.CallID
				if code.Parent != "" {
					parent = code.Parent
				}
			}
		}
		n = t.newItem(key, kindTool, s.thread)
		n.CallID, n.Name, n.Parent, n.User, n.Caller = s.callID, s.name, parent, s.user, caller
		if n.CallID == "" {
			// A call without a native id (a web_search_call of some
			// versions): its item id links it with its result.
			n.CallID = n.ID
		}
		if t.uses > 0 {
			// Another call with the id of an earlier one (freshCall).
			n.Uses, n.CallID = t.uses, universal.ReusedCallID(n.CallID, t.uses)
			t.uses = 0
		}
		if !final {
			return t.w.StartItem(dst, t.callItem(n, s), src, raw), n
		}
	case n.Done:
		return dst, n
	case !final:
		return dst, n
	}
	n.Done = true
	if n.Name == "" {
		n.Name = s.name
	}
	return t.w.Complete(dst, t.callItem(n, s), src, raw), n
}

// toolOutput streams output of a running tool into its result item.
func (t *Translator) toolOutput(dst []event, key string, text string, raw []byte) []event {
	n := t.item(key)
	if n == nil || n.Kind != kindTool || n.RDone {
		return dst
	}
	text = n.carry(text)
	if text == "" {
		return dst
	}
	if n.Result == "" {
		t.resulted(n)
		n.Result = t.w.NewItemID()
		t.st.list(n)
		dst = t.w.StartItem(dst, universal.Item{
			ItemID:       n.Result,
			NativeItemID: t.nativeOf(n),
			ParentID:     resultParent(n),
			Kind:         universal.KindToolResult,
			Role:         universal.RoleTool,
			Content:      []part{{Type: universal.PartToolResult, CallID: n.CallID}},
		}, daemon, raw)
		if n.Thread != "" && n.Thread != t.st.Thread {
			t.st.ChildItems = append(t.st.ChildItems, childItem{Thread: n.Thread, ID: n.Result})
		}
	}
	return t.w.Delta(dst, n.Result, 0, universal.PartToolResult, text, agent, raw)
}

// resultParent returns the parent of a tool's result: the message of the
// response that made the call, or for the user's own command the call.
func resultParent(n *nitem) string {
	if n.User || n.Parent == "" {
		return n.ID
	}
	return n.Parent
}

// carry returns the part of text that ends on a UTF-8 boundary, keeping an
// incomplete sequence at its end for the next chunk.
func (n *nitem) carry(text string) string {
	if len(n.Carry) > 0 {
		text = string(n.Carry) + text
		n.Carry = nil
	}
	end := len(text)
	for i := 1; i <= 3 && i <= len(text); i++ {
		c := text[len(text)-i]
		if c < 0x80 {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRuneInString(text[len(text)-i:]) {
				end = len(text) - i
			}
			break
		}
	}
	if end < len(text) {
		n.Carry = []byte(text[end:])
		text = text[:end]
	}
	return text
}

func (t *Translator) nativeOf(n *nitem) string {
	if t.w.IsOpen(n.ID) {
		if it, ok := t.w.Tracked(n.ID); ok {
			return it.NativeItemID
		}
	}
	return n.CallID
}

// toolResult completes a native tool: the call (started from s when it
// never was) and its result. A result already completed is left as it is.
func (t *Translator) toolResult(dst []event, key string, s *toolSpec, r *resultSpec, src universal.Source, raw []byte) []event {
	n := t.item(key)
	if n != nil && n.RDone {
		return dst
	}
	switch {
	case n != nil && !n.Done && s.keep && t.w.IsOpen(n.ID):
		n.Done = true
		dst = t.w.Close(dst, n.ID, universal.StatusCompleted, src, raw)
	case n == nil || !n.Done:
		dst, n = t.toolCallN(dst, key, s, true, src, raw)
	}
	t.resulted(n)
	if n.Result == "" {
		n.Result = t.w.NewItemID()
		t.st.list(n)
		if n.Thread != "" && n.Thread != t.st.Thread {
			t.st.ChildItems = append(t.st.ChildItems, childItem{Thread: n.Thread, ID: n.Result})
		}
	}
	n.RDone = true
	n.Carry = nil
	n.Patch, n.Changes, n.Image = "", "", ""
	status := universal.StatusCompleted
	if r.failed {
		status = universal.StatusFailed
	}
	content := append(t.result[:0], part{Type: universal.PartToolResult, CallID: n.CallID, Output: r.output, IsError: r.isError || r.failed, Metadata: r.meta})
	content = append(content, r.extra...)
	t.result = content
	return t.w.Complete(dst, universal.Item{
		ItemID:       n.Result,
		NativeItemID: s.native,
		ParentID:     resultParent(n),
		Kind:         universal.KindToolResult,
		Role:         universal.RoleTool,
		Content:      content,
		Status:       status,
	}, src, raw)
}

// title reports a new name of the session's thread (thread_name_updated,
// thread/name/updated) as a status item labelled "title" whose detail is
// the name, when it changes the title the session has (session.started's,
// or the last one reported). A name removed (null) is not reported.
func (t *Translator) title(dst []event, c *ctx, name jsonscan.Value) []event {
	s := name.Str()
	if name.Type() != gjson.String || s == "" || s == t.st.Title {
		return dst
	}
	t.st.Title = t.w.Copy(s)
	return t.status(dst, "", "", universal.LabelTitle, t.st.Title, nil, agent, c.raw)
}

// status emits a completed status item.
func (t *Translator) status(dst []event, native, thread, label, detail string, meta []byte, src universal.Source, raw []byte) []event {
	dst, _ = t.statusItem(dst, native, thread, label, detail, meta, src, raw)
	return dst
}

// statusItem emits a completed status item and returns its id.
func (t *Translator) statusItem(dst []event, native, thread, label, detail string, meta []byte, src universal.Source, raw []byte) ([]event, string) {
	return t.statusUnder(dst, native, thread, t.parentOf(thread), label, detail, meta, src, raw)
}

// statusUnder is statusItem under the item parent.
func (t *Translator) statusUnder(dst []event, native, thread, parent, label, detail string, meta []byte, src universal.Source, raw []byte) ([]event, string) {
	dst = t.beforeAgentItem(dst, thread)
	n := t.newItem("", kindStatus, thread)
	n.Done = true
	return t.w.Complete(dst, universal.Item{
		ItemID:       n.ID,
		NativeItemID: native,
		ParentID:     parent,
		Kind:         universal.KindStatus,
		Content:      []part{{Type: universal.PartStatus, Label: t.w.Copy(label), Detail: t.w.Copy(detail), Metadata: meta}},
	}, src, raw), n.ID
}

// subAgentActivity maps a sub-agent's activity (multi-agent v2: the
// app-server's subAgentActivity item, a rollout's sub_agent_activity
// event {kind: started | interacted | interrupted | completed,
// agent_thread_id, agent_path, event_id}) to a status item. Multi-agent v2
// names a spawned thread nowhere else (the spawn_agent call's output is
// {task_name}; on the app-server no collab spawn call is shown), so a
// thread it names that no spawn call claimed becomes a sub-agent thread:
// its items hang under the spawn call the activity names (a rollout's
// event_id is the spawn_agent call id), else under the status item.
func (t *Translator) subAgentActivity(dst []event, c *ctx, native, thread, kind, child string, path gjson.Result, model, effort, spawnKey string) []event {
	meta := obj().String("agent_thread_id", child)
	meta.OptString("model", model).OptString("reasoning_effort", effort)
	dst, id := t.statusItem(dst, native, thread, "sub_agent_"+snake(kind), t.w.CopyValue(path), meta.Bytes(), agent, c.raw)
	if child == "" || child == t.st.Thread || child == thread {
		return dst
	}
	if p, ok := t.st.Children[child]; ok && p != "" {
		return dst
	}
	if n := t.item(spawnKey); spawnKey != "" && n != nil && n.Kind == kindTool {
		id = n.ID
	}
	put(&t.st.Children, t.w.Copy(child), id)
	return dst
}

// subAgentError reports the error or failed turn (label sub_agent_error,
// sub_agent_failed) of a sub-agent thread by the sub-agent convention of
// package universal: not an error of the session, so no error event, but a
// status item under the call that spawned the thread, with
// {message, code, details, thread_id} in its metadata. (A thread outlives
// its spawn call, whose result is complete by then.)
func (t *Translator) subAgentError(dst []event, c *ctx, thread, label, msg, code string, details []byte) []event {
	o := obj().String("message", msg).OptString("code", code)
	o.RawBytes("details", details).String("thread_id", thread)
	return t.status(dst, "", t.w.Copy(thread), label, t.w.Copy(msg), o.Bytes(), agent, c.raw)
}

// closeChild fails the items a sub-agent thread left open and forgets
// them.
func (t *Translator) closeChild(dst []event, thread string) []event {
	dst = t.endResponse(dst, thread)
	kept := t.st.ChildItems[:0]
	for _, c := range t.st.ChildItems {
		if c.Thread != thread {
			kept = append(kept, c)
			continue
		}
		if t.w.IsOpen(c.ID) {
			dst = t.w.Close(dst, c.ID, universal.StatusFailed, daemon, nil)
		}
	}
	clear(t.st.ChildItems[len(kept):])
	t.st.ChildItems = kept
	t.markClosed()
	return dst
}

// markClosed marks done the items and results that the stream closed when
// a turn or a sub-agent's thread ended before they completed: a later copy
// of them (their native completion under another turn, output that comes
// after) adds nothing, and must not reach the stream as a delta or a
// completion of a closed item. It looks at the unsettled items only, and
// forgets those that are settled now: a turn's end costs what is still
// open, not every item of the session.
func (t *Translator) markClosed() {
	kept := t.st.open[:0]
	for _, n := range t.st.open {
		if !n.Done && !t.w.IsOpen(n.ID) {
			n.Done = true
		}
		if n.Result != "" && !n.RDone && !t.w.IsOpen(n.Result) {
			n.RDone = true
		}
		if n.settled() {
			n.listed = false
			continue
		}
		kept = append(kept, n)
	}
	clear(t.st.open[len(kept):])
	t.st.open = kept
}

// counts are token counts as readCounts reads them, before they are
// allocated (usageVals): n[i] is a count where has has bit i.
type counts struct {
	n   [6]int64
	has uint8
}

// readCounts reads token counts with the given field names (input,
// cached, cache write, output, reasoning, total) in one walk of the
// object's index: a count is read from its digits. The first of repeated
// names counts, as a lookup finds it. Nothing is allocated: a running
// total that did not move is compared and dropped for free (vals makes
// the usageVals the state keeps).
func readCounts(r jsonscan.Value, names *[6]string) counts {
	var vals [6]jsonscan.Value
	r.Members(func(k string, v jsonscan.Value) bool {
		for i, name := range names {
			if k == name {
				jsonscan.KeepFirst(&vals[i], v)
				break
			}
		}
		return true
	})
	var c counts
	for i, v := range vals {
		if v.Type() != gjson.Number {
			continue
		}
		if n := v.Int(); n >= 0 {
			c.n[i] = n
			c.has |= 1 << i
		}
	}
	return c
}

// vals returns the counts as usageVals, sharing one allocation.
func (c *counts) vals() usageVals {
	var u usageVals
	if c.has == 0 {
		return u
	}
	n := new([6]int64)
	*n = c.n
	for i, p := range u.fields() {
		if c.has&(1<<i) != 0 {
			*p = &n[i]
		}
	}
	return u
}

// set makes u hold exactly the counts c, in the memory u has for them
// where it has some.
func (u *usageVals) set(c *counts) {
	for i, p := range u.fields() {
		switch {
		case c.has&(1<<i) == 0:
			*p = nil
		case *p == nil:
			n := c.n[i]
			*p = &n
		default:
			**p = c.n[i]
		}
	}
}

// counts returns u as counts.
func (u *usageVals) counts() counts {
	var c counts
	for i, p := range u.fields() {
		if *p != nil {
			c.n[i] = **p
			c.has |= 1 << i
		}
	}
	return c
}

// fields are u's counts, in the order of the field names readCounts takes.
func (u *usageVals) fields() [6]**int64 {
	return [6]**int64{&u.Input, &u.Cached, &u.CacheWrite, &u.Output, &u.Reasoning, &u.Total}
}

// above reports whether a count of u is above the same count of c: a
// running total that went down.
func (u *usageVals) above(c *counts) bool {
	for i, p := range u.fields() {
		if *p != nil && c.has&(1<<i) != 0 && **p > c.n[i] {
			return true
		}
	}
	return false
}

// add adds the counts of o to c (a count either has).
func (c *counts) add(o counts) {
	for i := range c.n {
		if o.has&(1<<i) != 0 {
			c.n[i] += o.n[i]
			c.has |= 1 << i
		}
	}
}

// same reports whether u holds exactly the counts c.
func (u *usageVals) same(c *counts) bool {
	for i, p := range u.fields() {
		if (*p != nil) != (c.has&(1<<i) != 0) || *p != nil && **p != c.n[i] {
			return false
		}
	}
	return true
}

var (
	camelUsage = [6]string{"inputTokens", "cachedInputTokens", "cacheWriteInputTokens", "outputTokens", "reasoningOutputTokens", "totalTokens"}
	snakeUsage = [6]string{"input_tokens", "cached_input_tokens", "cache_write_input_tokens", "output_tokens", "reasoning_output_tokens", "total_tokens"}
)

// minus returns c - prev count by count (none where either is missing);
// ok is false when a count went down (not the same running total).
func (c *counts) minus(prev counts) (d counts, ok bool) {
	ok = true
	d.has = c.has & prev.has
	for i := range d.n {
		if d.has&(1<<i) != 0 {
			if d.n[i] = c.n[i] - prev.n[i]; d.n[i] < 0 {
				ok = false
			}
		}
	}
	return d, ok
}

// usage emits usage.updated.
func (t *Translator) usage(dst []event, turn string, scope universal.UsageScope, c counts, window int64, raw []byte) []event {
	return t.usageMD(dst, turn, scope, c, window, nil, raw)
}

// usageData is the data of a usage.updated event with the counts and
// the context window it points to.
type usageData struct {
	universal.UsageUpdated
	n      [6]int64
	window int64
}

// Block sizes (see slab.Slab): the most values of each kind one allocation
// makes.
const (
	usageBlock = 32
	itemBlock  = 16
	respBlock  = 16
)

// usageMD emits usage.updated with the counts c, the context window
// (none when negative) and metadata md (nil: none). The event's data and
// its counts are one value, handed out from blocks (a token report is
// two events, and rollouts and app-server output have one every model
// call).
func (t *Translator) usageMD(dst []event, turn string, scope universal.UsageScope, c counts, window int64, md []byte, raw []byte) []event {
	d := t.usages.Alloc(2, usageBlock)
	d.TurnID, d.Scope, d.Metadata = turn, scope, md
	d.n = c.n
	u := &d.Usage
	for i, p := range [6]**int64{&u.InputTokens, &u.CachedInputTokens, &u.CacheWriteTokens, &u.OutputTokens, &u.ReasoningTokens, &u.TotalTokens} {
		if c.has&(1<<i) != 0 {
			*p = &d.n[i]
		}
	}
	if window >= 0 {
		d.window = window
		d.ContextWindow = &d.window
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, agent, &d.UsageUpdated, raw)
}

// countOf reads a token count: -1 when missing or negative (not a
// count).
func countOf(r gjson.Result) int64 {
	if r.Type != gjson.Number {
		return -1
	}
	return max(r.Int(), -1)
}

func intPtr(r gjson.Result) *int64 {
	if r.Type != gjson.Number {
		return nil
	}
	n := r.Int()
	return &n
}

// emitError emits an error event. A terminal one marks the turn.
func (t *Translator) emitError(dst []event, msg, code string, details []byte, retry bool, src universal.Source, raw []byte) []event {
	if !retry {
		t.st.TurnErr = true
		t.st.Failed = true
	}
	if msg == "" {
		msg = "codex: error without a message"
	}
	msg, code, details = apiError(msg, code, details)
	return t.w.Emit(dst, universal.TypeError, src, &universal.Error{Message: t.w.Copy(msg), Code: t.w.Copy(code), Details: cleanJSON(details), WillRetry: retry}, raw)
}

// cleanJSON returns b when it is a JSON value worth keeping (not null).
// apiError unwraps an error message that is a model API's error body
// ({"error": {"message", "type", "code", "param"}, "status"}, compact or
// pretty-printed; see package internal/apierror): Codex passes the
// Responses API's 4xx bodies on as the message of its error, turn.failed
// and app-server errors. The body's error.message is the event's message,
// its error.code (else error.type) the code when the event has none, and
// the body goes into the details as api_error, so that nothing is lost.
// Any other message is kept as it is.
func apiError(msg, code string, details []byte) (string, string, []byte) {
	b, ok := apierror.Parse(msg)
	if !ok {
		return msg, code, details
	}
	if code == "" {
		code = b.Code
	}
	var o jsonw.Object
	if d := strings.TrimSpace(string(details)); len(d) >= 2 && d[0] == '{' && d[len(d)-1] == '}' {
		o.RawMembers(strings.TrimSpace(d[1 : len(d)-1]))
	}
	b.AddTo(&o)
	return b.Message, code, o.Bytes()
}

func cleanJSON(b []byte) json.RawMessage {
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	return b
}

// requestPermission emits permission.requested and remembers the request.
func (t *Translator) requestPermission(dst []event, key string, r *request, meta []byte, src universal.Source, raw []byte) []event {
	if r.ID == "" {
		r.ID = t.w.Copy("permission_" + key) // never an empty permission id
	}
	if _, ok := t.st.Reqs[key]; ok && t.w.PermissionPending(r.ID) {
		return dst
	}
	t.track(key, r, reqPermission)
	return t.w.RequestPermission(dst, universal.Permission{
		PermissionID: r.ID,
		Action:       r.Action,
		Metadata:     meta,
		ItemID:       r.Item,
		CallID:       r.CallID,
	}, src, raw)
}

// resolvePermission emits permission.resolved for a pending request.
func (t *Translator) resolvePermission(dst []event, key string, approved bool, meta []byte, src universal.Source, raw []byte) []event {
	r := t.settle(key, reqPermission)
	if r == nil {
		return dst
	}
	st := universal.PermissionDenied
	if approved {
		st = universal.PermissionApproved
	}
	return t.w.ResolvePermission(dst, universal.Permission{
		PermissionID: r.ID,
		Action:       r.Action,
		Status:       st,
		Metadata:     meta,
		ItemID:       r.Item,
		CallID:       r.CallID,
	}, src, raw)
}

// askQuestion emits question.requested and remembers the request.
func (t *Translator) askQuestion(dst []event, key string, r *request, meta []byte, src universal.Source, raw []byte) []event {
	if _, ok := t.st.Reqs[key]; ok && t.w.QuestionPending(r.ID) {
		return dst
	}
	if r.ID == "" {
		r.ID = t.w.Copy("question_" + key) // never an empty question id
	}
	t.track(key, r, reqQuestion)
	return t.w.AskQuestion(dst, universal.Question{
		QuestionID: r.ID,
		Prompt:     r.Prompt,
		Options:    r.Options,
		ItemID:     r.Item,
		Metadata:   meta,
	}, src, raw)
}

// resolveQuestion emits question.resolved for a pending question.
func (t *Translator) resolveQuestion(dst []event, key string, answered bool, response string, meta []byte, src universal.Source, raw []byte) []event {
	r := t.settle(key, reqQuestion)
	if r == nil {
		return dst
	}
	st := universal.QuestionRejected
	if answered {
		st = universal.QuestionAnswered
	}
	return t.w.ResolveQuestion(dst, universal.Question{
		QuestionID: r.ID,
		Prompt:     r.Prompt,
		Options:    r.Options,
		Response:   response,
		Status:     st,
		ItemID:     r.Item,
		Metadata:   meta,
	}, src, raw)
}

// track remembers a request made in the open turn until it is answered.
func (t *Translator) track(key string, r *request, kind uint8) {
	r.Kind = kind
	r.Turn = t.w.Turn()
	r.Key, r.Method = t.w.Copy(r.Key), t.w.Copy(r.Method) // no allocation a request
	put(&t.st.Reqs, key, r)
	t.st.Pending = append(t.st.Pending, key)
}

// patchResult describes the result of a file change with its status.
func patchResult(status string) resultSpec {
	res := resultSpec{failed: status == "failed" || status == "declined", meta: statusMeta(status)}
	res.isError = res.failed
	return res
}

// agentMessages collects what sub-agents said from their states: a plain
// string, {"status", "message"} (app-server, exec) or {"<status>":
// "<message>"} (rollouts, legacy events).
func agentMessages(st gjson.Result, out []string) []string {
	switch {
	case st.Type == gjson.String:
		out = append(out, st.Str)
	case st.Get("status").Exists():
		if m := st.Get("message"); m.Type == gjson.String {
			out = append(out, m.Str)
		}
	case st.IsObject():
		st.ForEach(func(_, v gjson.Result) bool {
			if v.Type == gjson.String {
				out = append(out, v.Str)
			}
			return true
		})
	}
	return out
}

// settle marks a pending request of the kind answered and returns it; nil
// when there is none waiting.
func (t *Translator) settle(key string, kind uint8) *request {
	r := t.st.Reqs[key]
	if r == nil || r.Kind != kind {
		return nil
	}
	if (kind == reqPermission && !t.w.PermissionPending(r.ID)) || (kind == reqQuestion && !t.w.QuestionPending(r.ID)) {
		return nil
	}
	r.Answered = true
	t.st.dropPending(key)
	return r
}

// commandResult describes the result of a command execution. output is in
// stable memory already (Stream.Copy or CopyValue): a command's output can
// be the biggest string of a session, copied once.
func (t *Translator) commandResult(output, status string, code, durationMS *int64) resultSpec {
	res := resultSpec{output: output}
	// A command that exits with another code than 0 failed.
	res.failed = status == "failed" || status == "declined" || (code != nil && *code != 0)
	res.isError = res.failed
	var extra map[string]string
	if status != "" && status != "completed" {
		extra = map[string]string{"status": string(jsonw.AppendString(nil, status))}
	}
	res.meta = exitMeta(code, durationMS, extra)
	return res
}

// collabCall starts or completes the call of a sub-agent tool. A spawn
// call waits for its sub-agent's thread id; the threads a call reaches
// first become sub-agent threads whose items hang under it.
func (t *Translator) collabCall(dst []event, c *ctx, key string, spec *toolSpec, final bool, receivers []string) ([]event, *nitem) {
	dst, n := t.toolCallN(dst, key, spec, final, agent, c.raw)
	if n == nil {
		return dst, nil
	}
	if !final {
		if spec.name == "spawn_agent" {
			t.st.Spawn = n.ID
		}
		return dst, n
	}
	if kind, _ := t.describe(n.Name, ""); kind == universal.ToolTask {
		// The threads a spawn reaches are its sub-agents: their items go
		// under it (other collab tools only talk to them).
		for _, r := range receivers {
			if p, ok := t.st.Children[r]; !ok || p == "" {
				put(&t.st.Children, t.w.Copy(r), n.ID)
			}
		}
	}
	if t.st.Spawn == n.ID {
		t.st.Spawn = ""
	}
	return dst, n
}

// cancelPending resolves the requests still waiting when their turn ends
// (turn "" = all): Codex clears them, nobody answered.
func (t *Translator) cancelPending(dst []event, turn string) []event {
	if len(t.st.Pending) == 0 {
		return dst
	}
	keys := append([]string(nil), t.st.Pending...)
	meta := []byte(`{"decision":"cancel","reason":"the turn ended before an answer was seen"}`)
	if turn == "" {
		meta = []byte(`{"decision":"cancel","reason":"the input ended before an answer was seen"}`)
	}
	for _, k := range keys {
		r := t.st.Reqs[k]
		if r == nil || (turn != "" && r.Turn != turn) {
			continue
		}
		switch r.Kind {
		case reqPermission:
			dst = t.resolvePermission(dst, k, false, meta, daemon, nil)
		case reqQuestion:
			dst = t.resolveQuestion(dst, k, false, "", meta, daemon, nil)
		default:
			t.st.dropPending(k)
		}
	}
	return dst
}

// replyPermission handles the host's report of a permission answer.
func (t *Translator) replyPermission(dst []event, r universal.PermissionReply) []event {
	for _, k := range t.st.Pending {
		req := t.st.Reqs[k]
		if req == nil || req.Kind != reqPermission || req.ID != r.PermissionID {
			continue
		}
		o := obj()
		o.OptString("decision", r.Decision)
		o.OptString("message", r.Message)
		o.Bool("reported_by_host", true)
		return t.resolvePermission(dst, k, r.Approved, o.Bytes(), daemon, nil)
	}
	return dst
}

// replyQuestion handles the host's report of a question answer.
func (t *Translator) replyQuestion(dst []event, r universal.QuestionReply) []event {
	for _, k := range t.st.Pending {
		req := t.st.Reqs[k]
		if req == nil || req.Kind != reqQuestion || req.ID != r.QuestionID {
			continue
		}
		return t.resolveQuestion(dst, k, !r.Rejected, r.Response, []byte(`{"reported_by_host":true}`), daemon, nil)
	}
	return dst
}

// snake turns a camelCase name into snake_case ("spawnAgent" →
// "spawn_agent"); snake_case names are returned unchanged.
func snake(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b = append(b, '_')
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// idString returns a JSON-RPC id in string form: a string's value, a
// number's digits.
func idString(r gjson.Result) string {
	if r.Type == gjson.String {
		return r.Str
	}
	return r.Raw
}

// rawOr returns r's raw JSON, or def when r is missing.
func rawOr(r gjson.Result, def string) string {
	if r.Exists() {
		return r.Raw
	}
	return def
}

// joinTexts joins the "text" fields of an array of content items.
func joinTexts(r jsonscan.Value, field string) string {
	var b strings.Builder
	r.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		if s := v.Get(field); s.Type == gjson.String {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s.Str)
		}
		return true
	})
	return b.String()
}

// exitMeta builds tool result metadata with an exit code and duration.
func exitMeta(code *int64, durationMS *int64, extra map[string]string) []byte {
	if code == nil && durationMS == nil && len(extra) == 0 {
		return nil
	}
	// Made at its size: grown by its fields, it took an allocation each.
	n := len(`{"exit_code":,"duration_ms":}`) + 40
	for k, v := range extra {
		n += len(k) + len(v) + 4
	}
	o := obj().Grow(n)
	if code != nil {
		o.Int("exit_code", *code)
	}
	if durationMS != nil {
		o.Int("duration_ms", *durationMS)
	}
	for _, k := range sortedKeys(extra) {
		o.Raw(k, extra[k])
	}
	if o.Len() == 0 {
		return nil
	}
	return o.Bytes()
}

func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// hookContext maps a completed hook run (the app-server's hook/completed
// {threadId, turnId, run: HookRunSummary}, camelCase; the core event
// hook_completed {turn_id, run} of legacy streams and rollouts, snake_case)
// to what the model was given: the run's entries of kind "context" (a
// hook's additionalContext, or a SessionStart hook's plain stdout, which
// Codex adds to the model's context; codex-rs/hooks/src/events, common::
// append_additional_context) make one system item, its text part's
// metadata naming hook_event and hook_id. The other entries (warning, stop,
// feedback, error) and the run's status are shown to the user only, or
// reach the model another way (a Stop hook's continuation is a hookPrompt
// item): not content, as with Claude Code's hooks.
func (t *Translator) hookContext(dst []event, c *ctx, thread string, run gjson.Result) []event {
	var b strings.Builder
	run.Get("entries").ForEach(func(_, e gjson.Result) bool {
		if e.Get("kind").Str == "context" && e.Get("text").Str != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(e.Get("text").Str)
		}
		return true
	})
	if b.Len() == 0 {
		return dst
	}
	event := run.Get("eventName").Str
	if event == "" {
		event = run.Get("event_name").Str
	}
	if len(t.st.Held) > 0 {
		// The user message it follows (a rollout holds it for its copy).
		dst = t.flushHeldUsers(dst)
	}
	md := obj()
	md.OptString("hook_event", event)
	md.OptString("hook_id", run.Get("id").Str)
	pt := universal.Text(t.w.Copy(b.String()))
	pt.Metadata = md.Bytes()
	n := t.newItem("", kindMessage, thread)
	n.Done = true
	return t.w.Complete(dst, universal.Item{ItemID: n.ID, ParentID: t.parentOf(thread),
		Kind: universal.KindSystem, Role: universal.RoleSystem, Content: []part{pt}}, agent, c.raw)
}
