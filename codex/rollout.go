package codex

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/internal/uninit"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// A rollout stores the conversation twice: as event_msg lines (what the
// user typed and saw) and as response_item lines (the model's history,
// with injected context). Per kind of message, the first copy that shows
// up decides which one the file is read from.
const (
	lockUser = iota
	lockAssistant
	lockReasoning
)

const (
	lockEvent    uint8 = 1
	lockResponse uint8 = 2
)

// The sources of held user messages.
const (
	srcEvent    = "event"
	srcResponse = "response"
	srcPrompt   = "prompt"
	// srcReply is the model-history copy of an answer to an
	// asynchronous question, shown whichever copy the user's other
	// messages are shown from: Codex writes an event copy of few of them.
	srcReply = "reply"
)

// rollout translates one line of a rollout file.
func (t *Translator) rollout(dst []event, c *ctx, line jsonscan.Value) []event {
	// One walk over the line's few top-level members (a duplicate key:
	// the first wins, as with Sub).
	var typ, payload, ord jsonscan.Value
	line.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type":
			jsonscan.KeepFirst(&typ, v)
		case "payload":
			jsonscan.KeepFirst(&payload, v)
		case "ordinal":
			jsonscan.KeepFirst(&ord, v)
		}
		return true
	})
	t.ordinal = -1
	if ord.Type() == gjson.Number {
		if n := ord.Int(); n >= 0 {
			t.ordinal = n
		}
	}
	// The ordinal is the line's only: reset after it, without a defer
	// (the line's many returns would run one through the runtime).
	dst = t.rolloutLine(dst, c, line, typ, payload)
	t.ordinal = -1
	return dst
}

// rolloutLine translates a rollout line whose type and payload rollout
// read.
func (t *Translator) rolloutLine(dst []event, c *ctx, line, typ, payload jsonscan.Value) []event {
	if !payload.Exists() {
		// The pre-envelope layout (≤ ~0.34): a bare header, state markers,
		// bare response items.
		switch {
		case line.Get("record_type").Exists():
			return dst
		case typ.Type() == gjson.String:
			dst = t.rolloutBegin(dst)
			return t.responseItem(dst, c, line)
		case line.Get("id").Exists() && line.Get("timestamp").Exists():
			return t.sessionMeta(dst, c, line)
		}
		return t.w.Unparsed(dst, c.loc(), errors.New("codex: rollout line without type and payload"), c.raw)
	}
	if t.st.Fork != nil {
		// A fork's copy of its parent's history (fork.go).
		var replayed bool
		if dst, replayed = t.replayLine(dst, typ.Str(), payload, line.Get("timestamp").Str); replayed {
			return dst
		}
	}
	// The payload's type, read once (a lookup, not a gjson.Result).
	ptyp := payload.Sub("type").Str()
	switch typ.Str() {
	case "session_meta":
		return t.sessionMeta(dst, c, payload)
	case "turn_context":
		t.mergeSettings(payload, "approval_policy", "sandbox_policy", "effort")
		t.setModel(t.st.Cur, payload.Sub("model").Str(), payload.Sub("effort").Str())
		if cwd := payload.Sub("cwd").Str(); cwd != "" && cwd != t.st.Cwd && t.w.Begun() && t.isRoot(t.st.Cur) {
			// A turn that runs in another directory (turn/start's cwd
			// override): its tools' relative paths are that directory's.
			t.st.Cwd = strings.Clone(cwd)
		}
		return t.modeSettings(dst, c, t.st.Cur, payload.Sub("collaboration_mode"), payload.Sub("approval_policy"), payload.Sub("sandbox_policy"))
	case "response_item":
		if ptyp != "message" || payload.Sub("role").Str() == "assistant" {
			// User messages are held, instructions skipped: neither starts
			// the session, so a turn_context after them can still add the
			// model to its metadata.
			dst = t.rolloutBegin(dst)
		}
		return t.responseItem(dst, c, payload)
	case "event_msg":
		if ptyp == "thread_settings_applied" {
			t.mergeSettings(payload.Sub("thread_settings"), "approval_policy", "permission_profile", "reasoning_effort")
			ts := payload.Sub("thread_settings")
			t.setModel(t.st.Cur, ts.Sub("model").Str(), ts.Sub("reasoning_effort").Str())
			// Its permission_profile is not a sandbox policy: the
			// sandbox is the turn_context's.
			return t.modeSettings(dst, c, t.st.Cur, ts.Sub("collaboration_mode"), ts.Sub("approval_policy"), jsonscan.Value{})
		}
		switch ptyp {
		case "task_started", "user_message", "thread_goal_updated":
			// Held (see eventMsg): the session waits for a turn_context's
			// model.
		case "item_completed":
			if payload.Sub("item.type").Str() != "UserMessage" {
				dst = t.rolloutBegin(dst)
			}
		default:
			dst = t.rolloutBegin(dst)
		}
		return t.eventMsg(dst, c, payload, rest, "")
	case "compacted":
		// Compaction replaced the model's context with a summary; the
		// replacement history is not new conversation.
		dst = t.rolloutBegin(dst)
		return t.status(dst, "", t.copyThread(t.st.Cur), universal.LabelCompaction, t.w.CopyValue(payload.Get("message")), nil, agent, c.raw)
	case "token_usage_record":
		dst = t.rolloutBegin(dst)
		return t.usageRecord(dst, c, payload)
	case "inter_agent_communication":
		// A message between agents as rollouts wrote it before the
		// agent_message response item (openai/codex PR 29829): content
		// is a string.
		dst = t.rolloutBegin(dst)
		return t.interAgentMessage(dst, c, payload, payload.Get("content").Str, t.copyThread(t.st.Cur))
	case "world_state", "inter_agent_communication_metadata":
		// Model context snapshots and multi-agent routing.
		return dst
	case "retained_context", "security_risk_score", "realtime_item":
		// Host bookkeeping the model never sees (openai/codex,
		// codex-rs/history): retained_context keeps for Guardian review
		// the answers to a request_user_input call (its output is in the
		// rollout) or an assistant message already in the history;
		// security_risk_score a classifier's scores of an action;
		// realtime_item the voice session's presentation, which the
		// app-server's thread/realtime/* notifications carry live.
		return dst
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown rollout line type %q", typ.Str()), c.raw)
}

// The session metadata fields, in the order session.started writes them.
// The thread's id is the envelope's native_session_id, not a field.
var metaFields = [...]string{"agent_version", "root_session_id", "model", "provider", "cwd",
	"approval_policy", "sandbox", "reasoning_effort", "originator", "source", "thread_source",
	"parent_thread_id", "forked_from_id", "agent_nickname", "agent_path", "multi_agent_version", "git_branch", "git",
	"runtime_workspace_roots", "history_mode", "context_window_id", "created_at", "system_prompt", "instructions", "dynamic_tools"}

// Indices in metaFields of the fields a session_meta or a turn_context
// sets one by one.
const (
	fieldAgentVersion = iota
	fieldRootSession
	fieldModel
	fieldProvider
	fieldCwd
	fieldApproval
	fieldSandbox
	fieldEffort
)

// metaStart opens the session's metadata object: {"agent":"codex".
var metaStart = string(jsonw.AppendString([]byte(`{"agent":`), agentName))

// metaKeys are the keys of state.Meta that hold metaFields until the
// session starts.
var metaKeys = func() (ks [len(metaFields)]string) {
	for i, f := range metaFields {
		if f == "provider" {
			f = "model_provider" // the key a checkpoint of an earlier version holds
		}
		ks[i] = "md." + f
	}
	return ks
}()

// sessionMeta handles session_meta: the first one describes the session
// (it starts when the next line needs it, so a turn_context can add the
// model); later ones with another id switch to that thread (a sub-agent's
// file read after its parent's, a fork's replayed parent).
func (t *Translator) sessionMeta(dst []event, c *ctx, p jsonscan.Value) []event {
	id := p.Get("id").Str
	if t.st.Thread == "" && !t.w.Begun() {
		if id == "" {
			return t.w.Unparsed(dst, c.loc(), errors.New("codex: session_meta without an id"), c.raw)
		}
		t.st.Thread = t.w.Copy(id)
		t.st.Cur = t.st.Thread
		t.w.SetNativeSessionID(t.st.Thread)
		// The values are kept raw: reading them as Values takes neither a
		// scan (base_instructions.text is the whole system prompt) nor an
		// unescaped copy of a long string.
		if t.st.Meta == nil {
			// Made at the size of the fields it holds until the session
			// starts (grown from nothing it took an allocation at each
			// step).
			t.st.Meta = make(map[string]string, len(metaFields))
		}
		// metaFields[i] is set to v, in the stream's memory (the session
		// starts with it).
		set := func(i int, v jsonscan.Value) {
			if v.Exists() && v.Type() != gjson.Null && v.Raw() != `""` {
				put(&t.st.Meta, metaKeys[i], v.OwnJSON(t.w.Copy))
			}
		}
		set(fieldAgentVersion, p.Sub("cli_version"))
		if sid := p.Sub("session_id"); sid.Str() != id {
			set(fieldRootSession, sid)
		}
		set(fieldProvider, p.Sub("model_provider"))
		cwd := p.Sub("cwd")
		set(fieldCwd, cwd)
		t.st.Cwd = cwd.OwnStr(t.w.Copy)
		// The session's instructions are metadata too: the base
		// instructions (system prompt), the user's instructions, the
		// host's dynamic tools.
		bi := p.Sub("base_instructions")
		if bi.IsObject() {
			bi = bi.Sub("text")
		}
		t.metaTail(&[len(metaFields) - metaTail]jsonscan.Value{p.Sub("originator"), p.Sub("source"), p.Sub("thread_source"),
			p.Sub("parent_thread_id"), p.Sub("forked_from_id"), p.Sub("agent_nickname"), p.Sub("agent_path"), p.Sub("multi_agent_version"),
			p.Sub("git").Sub("branch"), p.Sub("git"), p.Sub("runtime_workspace_roots"), p.Sub("history_mode"), p.Sub("context_window").Sub("window_id"), p.Sub("timestamp"),
			bi, p.Sub("instructions"), p.Sub("dynamic_tools")})
		t.holdRaw("raw", c.raw)
		t.forkMeta(p, id)
		return dst
	}
	if t.startsReplay(id) {
		// The parent's history follows: context of the fork (fork.go).
		dst = t.flushHeldUsers(dst)
		t.st.Fork = &forkReplay{Thread: t.st.ForkID, From: t.st.ForkFrom, Time: t.st.ForkTime, Cont: t.st.ForkCont,
			Threads: []string{strings.Clone(id)}, Lines: 1}
		return dst
	}
	if id == "" || id == t.st.Cur {
		if id != "" && id == t.st.Thread {
			return t.historyBase(dst, c, p.Sub("history_base"))
		}
		return dst
	}
	dst = t.flushHeldUsers(dst)
	t.st.ForkFrom, t.st.ForkID, t.st.ForkCont = "", "", false
	if id == t.st.Thread {
		t.st.Cur = t.st.Thread
		return dst
	}
	if from := p.Get("forked_from_id").Str; from != "" && from == t.st.Thread && !subAgentMeta(p) {
		// The user's fork of the session's thread, read after it: the
		// conversation goes on in the fork (fork.go).
		t.st.Cur = t.st.Thread
		t.forkMeta(p, id)
		t.st.ForkCont = true
		return dst
	}
	t.st.Cur = t.w.Copy(id)
	t.child(t.st.Cur)
	t.forkMeta(p, id)
	return dst
}

// historyBase reads the session_meta of a paginated thread's next page
// (a rollout file that goes on from another, read after it): its
// history_base {thread_id, end_ordinal_exclusive, end_byte_offset} says
// its history is that thread's records before end_ordinal_exclusive. A
// page of the session's own thread that keeps fewer records than the
// pages before it wrote (Codex's thread/revert in paginated history
// starts a page so) abandons the turns started at or after that ordinal:
// a completed status item labelled "reverted" names the first of them
// (metadata turn_id), as a rollback does. A page that goes on from the
// last record is no revert.
func (t *Translator) historyBase(dst []event, c *ctx, hb jsonscan.Value) []event {
	end := hb.Get("end_ordinal_exclusive")
	if hb.Get("thread_id").Str != t.st.Thread || end.Type != gjson.Number {
		return dst
	}
	e := end.Int()
	for i, o := range t.st.TurnOrdinals {
		if o >= e {
			return t.reverted(dst, c, t.st.Thread, t.st.Turns[i], 0)
		}
	}
	return dst
}

// metaTail is the index in metaFields of the first field that only a
// session_meta sets (originator): a turn_context adds none from there on.
const metaTail = fieldEffort + 1

// metaHeadroom is the room metaTail leaves for the start of the metadata
// object, up to its fields before metaTail: an agent, a version, ids, a
// model, a cwd and policies fit in it.
const metaHeadroom = 1024

// metaTail keeps the values of the metadata fields from metaTail on (in
// vs, absent where the session_meta has none) as set kept them, in
// state.Meta. They are written where the metadata object will have them,
// after metaHeadroom bytes for its start (t.metaBuf), and state.Meta
// holds them there: rolloutBegin writes the object's start in front of
// them and copies none of them (a system prompt is ~20 KB).
func (t *Translator) metaTail(vs *[len(metaFields) - metaTail]jsonscan.Value) {
	n := metaHeadroom + 1
	for i, v := range vs {
		n += len(metaFields[metaTail+i]) + 4 + len(v.Raw())
	}
	b := uninit.Bytes(n)[:metaHeadroom]
	var at [len(vs)][2]int
	for i, v := range vs {
		if !v.Exists() || v.Type() == gjson.Null || v.Raw() == `""` {
			at[i][0] = -1
			continue
		}
		mark := len(b)
		b = append(append(append(b, ',', '"'), metaFields[metaTail+i]...), '"', ':')
		start := len(b)
		if raw, ok := v.CleanRaw(); ok {
			b = append(b, raw...)
		} else {
			b = jsonw.AppendRaw(b, v.Raw())
		}
		at[i] = [2]int{start, len(b)}
		if start == len(b) {
			b = b[:mark] // as rolloutBegin writes an empty value: not at all
		}
	}
	b = append(b, '}')
	// The values are taken out of b as it ends up (its memory moves if it
	// outgrew n).
	for i, a := range at {
		switch {
		case a[0] < 0:
		case a[0] == a[1]:
			put(&t.st.Meta, metaKeys[metaTail+i], "")
		default:
			put(&t.st.Meta, metaKeys[metaTail+i], unsafe.String(&b[a[0]], a[1]-a[0]))
		}
	}
	t.metaBuf = b
}

// holdRaw keeps a message's bytes under key k of state.Meta for an event
// emitted later, only when events carry their native payload: a
// session_meta line holds the whole system prompt.
func (t *Translator) holdRaw(k string, raw []byte) {
	if t.w.Stamper().IncludeRaw() {
		put(&t.st.Meta, k, string(raw))
	}
}

// mergeSettings adds the model and policies of a turn_context or
// thread_settings_applied line to a session that has not started yet.
func (t *Translator) mergeSettings(p jsonscan.Value, approval, sandbox, effort string) {
	if t.w.Begun() || t.st.Thread == "" {
		return
	}
	// Each member and the metaFields index of what it sets.
	for _, f := range [...]struct {
		member string
		field  int
	}{{"model", fieldModel}, {approval, fieldApproval}, {sandbox, fieldSandbox}, {effort, fieldEffort}, {"cwd", fieldCwd}} {
		if v := p.Sub(f.member); v.Exists() && v.Type() != gjson.Null && !(f.field == fieldModel && v.Raw() == `""`) { // an empty id names no model
			k := metaKeys[f.field]
			if _, ok := t.st.Meta[k]; !ok {
				put(&t.st.Meta, k, v.OwnJSON(t.w.Copy))
			}
			if f.field == fieldCwd && t.st.Cwd == "" {
				t.st.Cwd = v.OwnStr(t.w.Copy)
			}
		}
	}
}

// setModel records the model and reasoning effort a rollout's
// turn_context or thread_settings_applied names for the root thread:
// Codex runs that thread's next calls with them. (The effort goes with
// the model: settings that name a model and no effort leave it unknown.)
func (t *Translator) setModel(thread, m, effort string) {
	if m == "" || !t.isRoot(thread) {
		return
	}
	if m != t.st.Model {
		t.st.Model = strings.Clone(m)
	}
	if effort != t.st.Effort {
		t.st.Effort = strings.Clone(effort)
	}
}

// callMD is the metadata of a call-scoped usage of thread: the model the
// rollout last named for the root thread ({"model": …}, with
// "reasoning_effort" when the settings named one), else nil. It is made
// once a model and effort (events may share it: nothing writes to it),
// not once a call, as claude's is.
func (t *Translator) callMD(thread string) []byte {
	if t.st.Model == "" || !t.isRoot(thread) {
		return nil
	}
	if t.md == nil || t.mdFor != t.st.Model || t.mdEffort != t.st.Effort {
		md := obj().Grow(len(`{"model":"","reasoning_effort":""}`)+len(t.st.Model)+len(t.st.Effort)).
			String("model", t.st.Model).OptString("reasoning_effort", t.st.Effort).Bytes()
		t.md, t.mdFor, t.mdEffort = md[:len(md):len(md)], t.st.Model, t.st.Effort
	}
	return t.md
}

// rolloutBegin starts the session described by the first session_meta.
func (t *Translator) rolloutBegin(dst []event) []event {
	if t.w.Begun() || t.st.Thread == "" {
		return dst
	}
	// The object is written as a jsonw.Object writes it. The fields from
	// metaTail on are in t.metaBuf already, as they will be in the object
	// (see metaTail): the start is written in front of them.
	last := len(metaFields)
	if t.metaBuf != nil && !t.restored {
		last = metaTail
	}
	var head [metaHeadroom]byte
	b := append(head[:0], metaStart...)
	for i, k := range metaFields[:last] {
		if v := t.st.Meta[metaKeys[i]]; v != "" {
			b = append(append(append(b, ',', '"'), k...), '"', ':')
			// The values were kept as jsonw writes them (compact): a
			// system prompt is not scanned again here.
			if t.restored {
				b = jsonw.AppendRaw(b, v) // an earlier version's checkpoint may hold raw values
			} else {
				b = append(b, v...)
			}
		}
	}
	for _, k := range metaKeys {
		delete(t.st.Meta, k)
	}
	var md []byte
	switch tail := t.metaBuf[min(metaHeadroom, len(t.metaBuf)):]; {
	case last == len(metaFields):
		md = append(b[:len(b):len(b)], '}')
	case len(b) <= metaHeadroom:
		md = t.metaBuf[metaHeadroom-len(b):]
		copy(md, b)
	default:
		md = append(b[:len(b):len(b)], tail...)
	}
	t.metaBuf = nil
	raw := bytesOf(t.st.Meta["raw"])
	delete(t.st.Meta, "raw")
	dst = t.w.BeginClean(dst, md, agent, raw)
	dst = t.forkStatus(dst)
	for _, g := range t.st.HeldGoals {
		dst = t.goalStatus(dst, &ctx{raw: []byte(g.Raw)}, g.Thread, gjson.Parse(g.Goal), false)
	}
	t.st.HeldGoals = nil
	if id, ok := t.st.Meta["task"]; ok {
		raw := bytesOf(t.st.Meta["task_raw"])
		delete(t.st.Meta, "task")
		delete(t.st.Meta, "task_raw")
		dst = t.startTurn(dst, t.w.Copy(id), nil, agent, raw)
	}
	return dst
}

// responseItem maps a response_item payload (a Responses API item).
func (t *Translator) responseItem(dst []event, c *ctx, p jsonscan.Value) []event {
	thread := t.copyThread(t.st.Cur)
	typ := p.Sub("type").Str()
	switch typ {
	case "message":
		switch p.Sub("role").Str() {
		case "user":
			return t.userResponse(dst, c, p, thread)
		case "assistant":
			// The sources an answer cites (url_citation …) are in this
			// copy only.
			ann := annotations(p.Sub("content"))
			if t.otherCopy(lockAssistant, lockResponse) {
				// (The tag's name alone: a writer may have escaped its
				// angle brackets.)
				if ann == "" && !strings.Contains(p.Raw(), "oai-mem-citation") {
					return dst
				}
				text := t.msgTexts(p.Sub("content"), "text")
				if ann != "" {
					t.annotate(p.Get("id").Str, thread, text, "annotations", ann)
				}
				// Codex takes a memory citation out of the text it
				// shows and keeps it in the message's memory_citation;
				// a plan's has no such place, so this copy holds it.
				if cit := memoryCitation(text); cit != "" {
					t.annotate(p.Get("id").Str, thread, text, "memory_citation", cit)
				}
				return dst
			}
			text := t.msgTexts(p.Sub("content"), "text")
			return t.assistantCopy(dst, c, lockResponse, p.Get("id").Str, text, withMember(messagePhaseMeta(p), "annotations", ann), thread)
		}
		// developer and system messages: instructions, not conversation.
		return dst
	case "reasoning":
		if t.otherCopy(lockReasoning, lockResponse) {
			return dst
		}
		parts := t.parts[:0]
		p.Sub("summary").Each(func(_ gjson.Result, v jsonscan.Value) bool {
			parts = append(parts, universal.Reasoning(t.msgStr(v.Sub("text")), universal.VisibilityPublic))
			return true
		})
		p.Sub("content").Each(func(_ gjson.Result, v jsonscan.Value) bool {
			parts = append(parts, universal.Reasoning(t.msgStr(v.Sub("text")), universal.VisibilityPrivate))
			return true
		})
		t.parts = parts
		return t.reasoningCopy(dst, c, lockResponse, p.Get("id").Str, parts, thread)
	case "function_call", "custom_tool_call", "local_shell_call", "tool_search_call":
		return t.functionCall(dst, c, p, typ, thread)
	case "function_call_output", "custom_tool_call_output", "tool_search_output":
		return t.functionOutput(dst, c, p, typ, thread)
	case "web_search_call", "image_generation_call":
		id := p.Get("id").Str
		name := "web_search"
		args := obj()
		if typ == "image_generation_call" {
			name = "image_generation"
			args.OptString("revised_prompt", p.Get("revised_prompt").Str)
		} else {
			args.Raw("action", p.Get("action").Raw)
		}
		spec := toolSpec{native: t.w.Copy(id), thread: thread, callID: t.w.Copy(id), name: name, args: t.str(args.Bytes())}
		key := "c:" + id
		if id == "" {
			key = ""
			if typ == "web_search_call" && t.searchSeen(p.Sub("action")) {
				// The record of a search the web_search_end before it
				// made a call of already (0.136 writes no id here).
				return dst
			}
		}
		st := p.Get("status").Str
		res := resultSpec{failed: st == "failed", isError: st == "failed", meta: statusMeta(st)}
		if typ == "image_generation_call" && st != "failed" {
			if key != "" {
				// Codex saves the image after recording this item, and
				// the image_generation_end that follows names the file.
				return t.holdImage(dst, key, &spec, &res, p.Get("result").Str, c.raw)
			}
			res.extra = t.generatedImage("", "", p.Get("result").Str)
		}
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "agent_message":
		// A message between agents (multi-agent v2).
		return t.interAgentMessage(dst, c, p, joinTexts(p.Sub("content"), "text"), thread)
	case "ghost_snapshot", "compaction", "context_compaction", "compaction_summary", "additional_tools", "configuration_update", "other":
		// Git bookkeeping, encrypted compaction state, tool lists.
		return dst
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown response item type %q", typ), c.raw)
}

// annotations gives the annotations of a message's output_text parts
// (url_citation: the url, title and span of a source the text cites), as
// one JSON array, "" when none has any.
func annotations(content jsonscan.Value) string {
	var b []byte
	content.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		v.Get("annotations").ForEach(func(_, a gjson.Result) bool {
			if b == nil {
				b = append(b, '[')
			} else {
				b = append(b, ',')
			}
			// Compacted: the metadata keeps the CleanJSON promise
			// however the line was spaced.
			b = jsonw.AppendRaw(b, a.Raw)
			return true
		})
		return true
	})
	if b == nil {
		return ""
	}
	return string(append(b, ']'))
}

// withMember adds the member key with the JSON value raw to a text
// part's metadata meta (nil: none), once: a meta that has the key
// already keeps its own. raw "" adds nothing.
func withMember(meta []byte, key, raw string) []byte {
	switch {
	case raw == "" || bytes.Contains(meta, []byte(`"`+key+`":`)):
		return meta
	case len(meta) == 0:
		return obj().Raw(key, raw).Bytes()
	}
	out := make([]byte, 0, len(meta)+len(key)+len(`,"":`)+len(raw))
	out = append(out, meta[:len(meta)-1]...)
	out = append(out, `,"`...)
	out = append(out, key...)
	out = append(out, `":`...)
	out = append(out, raw...)
	return append(out, '}')
}

// annotate adds what only the model-history copy of an assistant message
// has (the member key with the JSON value raw: its annotations, its memory
// citation) to the text part the other copy made while its response's
// message is open: the part of the item_completed copy of the same id, or
// else (an agent_message event has no id, a plan item another) the
// thread's open response's last text part that text holds (the other copy
// shows the text without the markup Codex hides: a citation, a plan's
// tags).
func (t *Translator) annotate(native, thread, text, key, raw string) {
	var r *resp
	i := -1
	if n := t.item("m:" + native); native != "" && n != nil && len(n.PI) > 0 {
		r, i = t.respByID(n.ID), n.PI[0]
	} else if r = t.openResp(thread); r != nil {
		if it, ok := t.w.Tracked(r.ID); ok {
			for j := len(it.Content) - 1; j >= 0 && i < 0; j-- {
				if p := it.Content[j]; p.Type == universal.PartText && p.Text != "" && strings.Contains(text, p.Text) {
					i = j
				}
			}
		}
	}
	if r == nil || i < 0 {
		return
	}
	for j := range r.Final {
		if f := &r.Final[j]; f.I == i {
			if f.Meta == nil {
				f.Meta = t.partMeta(r.ID, i)
			}
			f.Meta = withMember(f.Meta, key, raw)
			return
		}
	}
	r.Final = append(r.Final, finalPart{I: i, Meta: withMember(t.partMeta(r.ID, i), key, raw)})
}

// partMeta gives the metadata of part i of an open item.
func (t *Translator) partMeta(itemID string, i int) []byte {
	if it, ok := t.w.Tracked(itemID); ok && i < len(it.Content) {
		return it.Content[i].Metadata
	}
	return nil
}

// interAgentMessage maps a message between agents (multi-agent v2), an
// agent_message response item or an older rollout's
// inter_agent_communication line, to a system item with its text, author
// and recipient.
func (t *Translator) interAgentMessage(dst []event, c *ctx, p jsonscan.Value, text, thread string) []event {
	meta := obj()
	meta.OptString("author", p.Get("author").Str)
	meta.OptString("recipient", p.Get("recipient").Str)
	if encryptedPayload(p.Result()) {
		meta.Bool("encrypted", true)
	}
	dst = t.beforeAgentItem(dst, thread)
	n := t.newItem("", kindMessage, thread)
	n.Done = true
	pt := universal.Text(t.w.Copy(text))
	pt.Metadata = meta.Bytes()
	return t.w.Complete(dst, universal.Item{ItemID: n.ID, NativeItemID: t.w.CopyValue(p.Get("id")), ParentID: t.parentOf(thread),
		Kind: universal.KindSystem, Role: universal.RoleSystem, Content: []part{pt}}, agent, c.raw)
}

// encryptedPayload reports whether a message between agents carries an
// encrypted payload, which the item cannot show: multi-agent v2 keeps the
// task text a model sends only as ciphertext (openai/codex PR 26210),
// InterAgentCommunication's encrypted_content (its plaintext content
// empty), an encrypted_content part of the agent_message item (after the
// plaintext envelope "Message Type: …\nPayload:\n", PR 28368).
func encryptedPayload(p gjson.Result) bool {
	if p.Get("encrypted_content").Str != "" {
		return true
	}
	enc := false
	p.Get("content").ForEach(func(_, v gjson.Result) bool {
		enc = v.Get("type").Str == "encrypted_content"
		return !enc
	})
	return enc
}

// injected reports whether a user-role model message is context Codex
// injected (environment, AGENTS.md, skills, instructions, notifications)
// rather than the user's words. Its texts are unescaped into buf, a
// buffer of the caller's: they are only looked at.
func injected(p jsonscan.Value, buf *[]byte) bool {
	harness := false
	p.Sub("internal_chat_message_metadata_passthrough.content_item_metadata").Each(func(_ gjson.Result, v jsonscan.Value) bool {
		if pt := v.Get("provenance.type").Str; pt != "" && pt != "user" {
			harness = true
		}
		return !harness
	})
	if harness {
		return true
	}
	all := true
	any := false
	p.Sub("content").Each(func(_ gjson.Result, v jsonscan.Value) bool {
		if v.Get("type").Str != "input_text" {
			return true
		}
		any = true
		*buf = v.Sub("text").AppendStr((*buf)[:0])
		s := strings.TrimSpace(view(*buf))
		switch {
		case strings.HasPrefix(s, "# AGENTS.md instructions"), strings.HasPrefix(s, "<INSTRUCTIONS>"):
		case len(s) > 2 && s[0] == '<' && s[len(s)-1] == '>' && isTagStart(s[1]):
		default:
			all = false
		}
		return all
	})
	return any && all
}

func isTagStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// userResponse holds a user message of the model history until the event
// copy of it shows (or something else shows there is none).
func (t *Translator) userResponse(dst []event, c *ctx, p jsonscan.Value, thread string) []event {
	if text, ok := hookPromptMessage(p); ok {
		return t.hookPrompt(dst, c, p.Get("id").Str, text, thread)
	}
	src := srcResponse
	if strings.Contains(p.Raw(), "send_user_message_question_reply") && isQuestionReply(t.msgTexts(p.Sub("content"), "text")) {
		src = srcReply
	} else if t.st.Lock[lockUser] == lockEvent || injected(p, &t.text) {
		return dst
	}
	// The texts are unescaped where they are joined.
	text := t.text[:0]
	var images []string
	p.Sub("content").Each(func(_ gjson.Result, v jsonscan.Value) bool {
		switch v.Get("type").Str {
		case "input_text":
			if len(text) > 0 {
				text = append(text, '\n')
			}
			text = v.Sub("text").AppendStr(text)
		case "input_image":
			if u := v.Get("image_url").Str; u != "" {
				images = append(images, u)
			}
		}
		return true
	})
	t.text = text
	t.st.Held = append(t.st.Held, held{Text: string(text), Raw: string(c.raw), Src: src, Thread: thread,
		Native: strings.Clone(p.Get("id").Str), Aux: imagesJSON(images)})
	return dst
}

// hookPrompt maps what a hook gave the model to continue with (a Stop
// hook's block reason: Codex's HookPromptItem), from the rollout's user
// message that carries it or from its item_completed copy (0.155 on, the
// message's id): a system message, as the app-server's hookPrompt item. A
// copy whose id was already shown adds nothing.
func (t *Translator) hookPrompt(dst []event, c *ctx, native, text, thread string) []event {
	key := ""
	if native != "" {
		key = "h:" + native
		if t.item(key) != nil {
			return dst
		}
	}
	dst = t.rolloutBegin(dst)
	dst = t.flushHeldUsers(dst)
	dst = t.endResponse(dst, thread)
	n := t.newItem(key, kindMessage, thread)
	n.Done = true
	return t.w.Complete(dst, universal.Item{ItemID: n.ID, NativeItemID: t.w.Copy(native), ParentID: t.parentOf(thread),
		Kind: universal.KindSystem, Role: universal.RoleSystem, Content: []part{universal.Text(t.w.Copy(text))}}, agent, c.raw)
}

// hookPromptMessage returns the text of a user message of the model
// history that is a hook prompt: every part an input_text that is one
// <hook_prompt hook_run_id="…">…</hook_prompt> fragment (Codex's
// build_hook_prompt_message, XML-escaped), the fragments' texts one a
// line.
func hookPromptMessage(p jsonscan.Value) (string, bool) {
	var b strings.Builder
	n := 0
	ok := true
	p.Sub("content").Each(func(_ gjson.Result, v jsonscan.Value) bool {
		var text string
		if v.Get("type").Str == "input_text" && mayBeHookPrompt(v.Sub("text")) {
			text, ok = hookPromptFragment(v.Get("text").Str)
		} else {
			ok = false
		}
		if ok {
			if n > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(text)
			n++
		}
		return ok
	})
	return b.String(), ok && n > 0
}

// mayBeHookPrompt reports whether v may be a string whose text
// hookPromptFragment accepts, from its JSON: false when the text, after
// the whitespace TrimSpace trims, certainly does not start with
// "<hook_prompt". Every user message of the model history is asked, and
// most are a prompt or injected context of kilobytes, which Str would
// unescape into a new string for nothing. Whitespace written as an escape
// other than \t, \n, \r and \f, a non-ASCII byte before the tag, or an
// escape among its first bytes is left to hookPromptFragment.
func mayBeHookPrompt(v jsonscan.Value) bool {
	raw := v.Raw()
	if v.Type() != gjson.String || len(raw) < 2 {
		return false // Str is "": no fragment
	}
	s := raw[1 : len(raw)-1]
	i := 0
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			i++
		case c == '\\' && i+1 < len(s) && (s[i+1] == 't' || s[i+1] == 'n' || s[i+1] == 'r' || s[i+1] == 'f'):
			i += 2
		case c == '\\' || c >= 0x80:
			return true
		default:
			head := s[i:min(i+len(hookPromptTag), len(s))]
			return strings.HasPrefix(head, hookPromptTag) || strings.IndexByte(head, '\\') >= 0
		}
	}
	return false // whitespace alone: TrimSpace leaves ""
}

// hookPromptTag starts a hook prompt fragment.
const hookPromptTag = "<hook_prompt"

// hookPromptFragment returns the text of one <hook_prompt
// hook_run_id="…">…</hook_prompt> element (unescaped), ok false when s is
// not one or names no hook run, as Codex's parse_hook_prompt_fragment.
func hookPromptFragment(s string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), hookPromptTag)
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\n' && rest[0] != '\r') {
		return "", false
	}
	// The start tag ends at the first '>' outside a quoted value.
	end := -1
	var q byte
	for i := 0; i < len(rest) && end < 0; i++ {
		switch c := rest[i]; {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '>':
			end = i
		}
	}
	if end < 0 {
		return "", false
	}
	attrs, body := rest[:end], rest[end+1:]
	if strings.HasSuffix(attrs, "/") {
		// An empty element: <hook_prompt hook_run_id="…"/>.
		if body != "" {
			return "", false
		}
		attrs = attrs[:len(attrs)-1]
	} else if body, ok = strings.CutSuffix(body, "</hook_prompt>"); !ok {
		return "", false
	}
	if strings.TrimSpace(html.UnescapeString(xmlAttr(attrs, "hook_run_id"))) == "" {
		return "", false
	}
	return html.UnescapeString(body), true
}

// xmlAttr returns the raw (escaped) value of an attribute of a start
// tag's attribute list, "" when it has none.
func xmlAttr(attrs, name string) string {
	for attrs != "" {
		attrs = strings.TrimLeft(attrs, " \t\r\n")
		eq := strings.IndexByte(attrs, '=')
		if eq < 0 {
			return ""
		}
		key := strings.TrimSpace(attrs[:eq])
		v := strings.TrimLeft(attrs[eq+1:], " \t\r\n")
		if v == "" || (v[0] != '"' && v[0] != '\'') {
			return ""
		}
		j := strings.IndexByte(v[1:], v[0])
		if j < 0 {
			return ""
		}
		if key == name {
			return v[1 : j+1]
		}
		attrs = v[j+2:]
	}
	return ""
}

// imagesJSON makes a held message's Aux: its image paths, then others,
// JSON values as they are: a string is an image path, anything else a
// part kept as it came.
func imagesJSON(images []string, others ...string) string {
	if len(images) == 0 && len(others) == 0 {
		return ""
	}
	var b []byte
	b = append(b, '[')
	for i, s := range images {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.AppendString(b, s)
	}
	for i, s := range others {
		if i > 0 || len(images) > 0 {
			b = append(b, ',')
		}
		b = append(b, s...)
	}
	return string(append(b, ']'))
}

// userEvent holds the event copy of a user message (it replaces a held
// model-history copy); it is emitted when the turn it opens starts or
// when the agent answers.
func (t *Translator) userEvent(dst []event, c *ctx, text string, m jsonscan.Value, thread string, others ...string) []event {
	return t.userEventFrom(dst, c, text, "", m, thread, others...)
}

// userEventFrom is userEvent for a message that source injected (see
// injected_message), "" for the user's own.
func (t *Translator) userEventFrom(dst []event, c *ctx, text, source string, m jsonscan.Value, thread string, others ...string) []event {
	switch {
	case t.st.Lock[lockUser] != lockResponse:
		t.st.Lock[lockUser] = lockEvent
		kept := t.st.Held[:0]
		for _, h := range t.st.Held {
			if h.Src == srcResponse || ((h.Src == srcPrompt || h.Src == srcReply) && strings.TrimSpace(h.Text) == strings.TrimSpace(text)) {
				continue
			}
			kept = append(kept, h)
		}
		t.st.Held = kept
	case source == "":
		return dst // the user's messages are shown from their model-history copies
	}
	// An injected message is shown from its event whichever copy the
	// user's own are shown from: its model-history copy is injected
	// context, never shown.
	var images []string
	for _, f := range [...]string{"images", "local_images"} {
		m.Sub(f).ForEach(func(_, v gjson.Result) bool {
			if v.Type == gjson.String {
				images = append(images, v.Str)
			} else if p := v.Get("path").Str; p != "" {
				images = append(images, p)
			}
			return true
		})
	}
	t.st.Held = append(t.st.Held, held{Text: strings.Clone(text), Raw: string(c.raw), Src: srcEvent, Thread: thread,
		Native: strings.Clone(m.Get("id").Str), Aux: imagesJSON(images, others...), Source: strings.Clone(source)})
	if t.format != FormatRollout && t.w.Turn() != "" {
		// A live stream shows the user message inside its turn.
		return t.flushHeldUsers(dst)
	}
	return dst
}

// questionReply reads a user message that answers the agent's
// asynchronous questions (request_user_input_async, whose call returns at
// once): the Codex app sends the answers as
// <send_user_message_question_reply>\n[{questionItemId, question,
// answer}…]\n</send_user_message_question_reply>. It returns the answers,
// one a line as a question's answers are shown, and the list as it came;
// ok false when text is not such a message.
func questionReply(text string) (answers, list string, ok bool) {
	const open, end = "<send_user_message_question_reply>", "</send_user_message_question_reply>"
	body, ok := strings.CutPrefix(strings.TrimSpace(text), open)
	if !ok {
		return "", "", false
	}
	body = strings.TrimSpace(body)
	body = strings.TrimSpace(strings.TrimSuffix(body, end))
	v := gjson.Parse(body)
	if !v.IsArray() || !gjson.Valid(body) {
		return "", "", false
	}
	var b strings.Builder
	n := 0
	v.ForEach(func(_, e gjson.Result) bool {
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Get("answer").String())
		n++
		return true
	})
	return b.String(), body, true
}

func isQuestionReply(text string) bool {
	_, _, ok := questionReply(text)
	return ok
}

// replyPart returns the text part of a user message that answers the
// agent's asynchronous questions (see questionReply), in every format
// alike: the answers, one a line, with the list in metadata
// question_reply; and the list. ok is false for any other text.
func (t *Translator) replyPart(text string) (p part, list string, ok bool) {
	answers, list, ok := questionReply(text)
	if !ok {
		return part{}, "", false
	}
	p = universal.Text(t.w.Copy(answers))
	p.Metadata = obj().Raw("question_reply", list).Bytes()
	return p, list, true
}

// asyncAnswers gives each answer of a reply to asynchronous questions
// (list, see questionReply) as a question, asked and answered at once
// (question.requested from the daemon, then question.resolved answered
// from src): request_user_input_async returns {"accepted":true} at once
// and Codex waits for no answer, so nothing is pending while no reply
// came. An answer names its question
// ["request_user_input_async", <call id>, <index>] (questionItemId, the
// question id); the call id is the tool call's (a rollout's
// function_call) and the agentMessage's (the app-server's), whose item
// the question names. A question already answered is not asked again.
func (t *Translator) asyncAnswers(dst []event, list string, src universal.Source, raw []byte) []event {
	gjson.Parse(list).ForEach(func(_, e gjson.Result) bool {
		id := e.Get("questionItemId").Str
		ref := gjson.Parse(id)
		if !ref.IsArray() || ref.Get("0").Str != "request_user_input_async" || t.st.Meta["aq:"+id] != "" || t.w.QuestionPending(id) {
			return true
		}
		id = t.w.Copy(id)
		put(&t.st.Meta, "aq:"+id, "1")
		call := ref.Get("1").Str
		o := obj().String("delivery", "async").OptString("call_id", call)
		if i := ref.Get("2"); i.Type == gjson.Number {
			o.Int("index", i.Int())
		}
		item := ""
		if call != "" {
			if n := t.item("c:" + call); n != nil {
				item = n.ID
			} else if n := t.item(call); n != nil {
				item = n.ID
			}
		}
		q := universal.Question{QuestionID: id, Prompt: t.w.Copy(e.Get("question").String()), ItemID: item, Metadata: o.Bytes()}
		dst = t.w.AskQuestion(dst, q, daemon, nil)
		q.Response, q.Status = t.w.Copy(e.Get("answer").String()), universal.QuestionAnswered
		dst = t.w.ResolveQuestion(dst, q, src, raw)
		return true
	})
	return dst
}

// ideContext splits the context the VS Code extension prepends to a
// prompt from the request itself.
func ideContext(text string) (request, context string) {
	const head, mark = "# Context from my IDE setup:", "## My request for Codex:"
	if !strings.HasPrefix(text, head) {
		return text, ""
	}
	i := strings.Index(text, mark)
	if i < 0 {
		return text, ""
	}
	return strings.TrimLeft(text[i+len(mark):], "\n"), strings.TrimSpace(text[:i])
}

// flushHeldUsers emits the held user messages. In a rollout without
// task_started lines, each user message starts a turn.
func (t *Translator) flushHeldUsers(dst []event) []event {
	if len(t.st.Held) == 0 {
		return dst
	}
	if t.format == FormatRollout {
		dst = t.rolloutBegin(dst)
	}
	hs := t.st.Held
	t.st.Held = nil
	for _, h := range hs {
		if h.Src == srcResponse {
			if t.st.Lock[lockUser] == lockEvent {
				continue
			}
			t.st.Lock[lockUser] = lockResponse
		}
		root := t.isRoot(h.Thread)
		if root && t.format == FormatRollout && !t.st.TaskMode {
			if t.st.Inferred != "" {
				dst = t.endTurn(dst, t.st.Inferred, universal.TurnCompleted, nil, daemon, nil)
			}
			dst = t.startTurn(dst, "", nil, daemon, nil)
			t.st.Inferred = t.w.Turn()
		}
		req, ctxText := ideContext(h.Text)
		p, reply, isReply := t.replyPart(h.Text)
		if !isReply {
			p = universal.Text(t.w.Copy(req))
		}
		if ctxText != "" {
			p.Metadata = obj().String("ide_context", ctxText).Bytes()
		}
		parts := []part{p}
		missing := int64(0)
		gjson.Parse(h.Aux).ForEach(func(_, v gjson.Result) bool {
			if v.Type == gjson.JSON {
				parts = append(parts, part{Type: universal.PartJSON, JSON: []byte(t.w.Copy(v.Raw))})
				return true
			}
			if v.Str == "" {
				// An image without a path (nor a mime): no valid part
				// says it; the text's metadata counts it.
				missing++
				return true
			}
			parts = append(parts, userImage(v.Str, t.w.Copy))
			return true
		})
		if missing > 0 || h.Source != "" {
			o := obj()
			o.OptString("ide_context", ctxText)
			if isReply {
				o.Raw("question_reply", reply)
			}
			if missing > 0 {
				o.Int("images_without_path", missing)
			}
			parts[0].Metadata = o.OptString("source", h.Source).Bytes()
		}
		if root {
			t.userSeen(h.Text)
			if t.format != FormatRollout {
				// A live stream's user_message (or the pre-0.44 exec
				// prompt line) echoes the host's input.
				universal.MarkEcho(parts)
			}
		}
		dst = t.endResponse(dst, h.Thread)
		n := t.newItem("", kindMessage, h.Thread)
		n.Done = true
		dst = t.w.Complete(dst, universal.Item{ItemID: n.ID, NativeItemID: t.w.Copy(h.Native), ParentID: t.parentOf(h.Thread),
			Kind: universal.KindMessage, Role: universal.RoleUser, Content: parts}, agent, bytesOf(h.Raw))
		if isReply {
			dst = t.asyncAnswers(dst, reply, agent, bytesOf(h.Raw))
		}
	}
	return dst
}

// assistantCopy emits an assistant message from one copy of the
// conversation, unless the file is read from the other copy.
func (t *Translator) assistantCopy(dst []event, c *ctx, src uint8, native, text string, meta []byte, thread string) []event {
	l := &t.st.Lock[lockAssistant]
	if (*l != 0 && *l != src) || text == "" {
		return dst
	}
	*l = src
	key := ""
	if native != "" {
		key = "m:" + native
	}
	p := universal.Text(text) // copied where it is kept (finalize)
	p.Metadata = meta
	t.parts = append(t.parts[:0], p)
	return t.completeMessage(dst, key, kindMessage, msgSpec{native: t.w.Copy(native), thread: thread, role: universal.RoleAssistant, parts: t.parts}, agent, c.raw)
}

// otherCopy reports whether the messages of a kind (lockUser …) are read
// from the other copy of the conversation than src: this one is not read.
func (t *Translator) otherCopy(kind int, src uint8) bool {
	l := t.st.Lock[kind]
	return l != 0 && l != src
}

// reasoningCopy emits reasoning from one copy of the conversation; an item
// with no text (encrypted reasoning only) emits nothing. parts may be
// t.parts: an assistant's parts are read into its response's message,
// never kept.
func (t *Translator) reasoningCopy(dst []event, c *ctx, src uint8, native string, parts []part, thread string) []event {
	l := &t.st.Lock[lockReasoning]
	if *l != 0 && *l != src {
		return dst
	}
	empty := true
	for _, p := range parts {
		if p.Text != "" {
			empty = false
		}
	}
	if empty {
		// Encrypted reasoning only: nothing to show, but a new response.
		return t.nextResponse(dst, thread)
	}
	*l = src
	key := ""
	if native != "" {
		key = "r:" + native
	}
	return t.completeMessage(dst, key, kindReasoning, msgSpec{native: t.w.Copy(native), thread: thread, role: universal.RoleAssistant, parts: parts}, agent, c.raw)
}

// functionCall maps a model tool call of the history.
func (t *Translator) functionCall(dst []event, c *ctx, p jsonscan.Value, typ, thread string) []event {
	id := p.Get("call_id").Str
	if id == "" {
		id = p.Get("id").Str
	}
	name := p.Get("name").Str
	spec := toolSpec{native: t.w.Copy(id), thread: thread, callID: t.w.Copy(id)}
	var patch string
	switch typ {
	case "function_call":
		spec.args = t.argsText(p.Sub("arguments"))
		if name == "apply_patch" {
			patch = gjson.Get(spec.args, "input").Str
			if patch == "" {
				patch = gjson.Get(spec.args, "patch").Str
			}
		}
		if ns := p.Get("namespace").Str; ns != "" {
			spec.meta = obj().String("namespace", ns).Bytes()
			name = mcpNamespaced(ns, name)
		}
	case "custom_tool_call":
		in := p.Get("input").Str
		spec.args = t.str(jsonw.AppendString(nil, in))
		if name == "apply_patch" {
			patch = in
		}
	case "local_shell_call":
		name = "local_shell"
		spec.args = t.w.Copy(jsonw.Compact(rawOr(p.Get("action"), "{}")))
	case "tool_search_call":
		name = "tool_search"
		spec.args = t.argsText(p.Sub("arguments"))
	}
	if sp, ok := shellPatch(name, spec.args); ok && patch == "" {
		patch = sp
	}
	spec.name = t.w.Copy(name)
	key := ""
	if id != "" {
		key = "c:" + id
	}
	t.freshCall(key)
	dst, n := t.toolCallN(dst, key, &spec, true, agent, c.raw)
	t.uses = 0
	if n != nil && !n.RDone && typ == "custom_tool_call" && name == "exec" {
		// Code mode: the tools its script calls come before its output.
		put(&t.st.Code, thread, t.w.Copy(key))
	}
	if n != nil && !n.RDone {
		// The files and image the result shows.
		if patch != "" {
			n.Patch = strings.Clone(patch)
		}
		if name == "view_image" {
			n.Image = strings.Clone(gjson.Get(spec.args, "path").Str)
		}
	}
	return dst
}

// mcpNamespaced names a model call of a tool in namespace ns: Codex
// (0.17x) offers an MCP server's tools in the namespace "mcp__<server>"
// (behind tool_search), and such a call is named as its McpToolCall item
// is everywhere, "mcp__<server>__<tool>". A call in any other namespace
// keeps its name.
func mcpNamespaced(ns, name string) string {
	server, ok := strings.CutPrefix(strings.TrimRight(ns, "_"), "mcp__")
	if !ok || server == "" || name == "" {
		return name
	}
	if _, prefix, cut := strings.Cut(server, "__"); cut && prefix != "" && strings.HasPrefix(name, "_") {
		// An app connector's tools (0.14x): the namespace is the
		// server's and the connector's, "mcp__codex_apps__github", and
		// the name goes on from it, "_create_issue": the tool is
		// Codex's "mcp__codex_apps__github_create_issue".
		return "mcp__" + server + name
	}
	return "mcp__" + server + "__" + name
}

// mcpToolName names a call of an MCP server's tool as the model calls it,
// "mcp__<server>__<tool>". An app connector's tool (server codex_apps) is
// "<connector>.<tool>" in Codex's MCP items and events
// ("github.fetch_pr", 0.14x and later; "github_fetch_pr" before), and
// "mcp__codex_apps__github_fetch_pr" to the model (a rollout's
// function_call in the namespace "mcp__codex_apps__github", see
// mcpNamespaced): the dot is written as the model's name has it, so
// that a connector's call has one name in every format.
func mcpToolName(server, tool string) string {
	if server == "codex_apps" {
		if c, t, ok := strings.Cut(tool, "."); ok && c != "" && t != "" {
			return "mcp__" + server + "__" + c + "_" + t
		}
	}
	return "mcp__" + server + "__" + tool
}

// toolSearchFound is the text of a tool_search_output: the tools it
// found, one a line, each named as a call of it is (a namespace's tools
// by mcpNamespaced, a namespace that lists none by its own name).
func toolSearchFound(tools jsonscan.Value) string {
	var b strings.Builder
	line := func(s string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	tools.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		ns := v.Get("name").Str
		n := 0
		v.Sub("tools").Each(func(_ gjson.Result, f jsonscan.Value) bool {
			if name := f.Get("name").Str; name != "" {
				line(mcpNamespaced(ns, name))
				n++
			}
			return true
		})
		if n == 0 {
			line(ns)
		}
		return true
	})
	return b.String()
}

// argsText returns argsJSON of a model call's arguments, copied. Their
// string of JSON text (the common case) is unescaped into a buffer the
// translator reuses and checked there, not into a string of its own that
// the copy then drops.
func (t *Translator) argsText(a jsonscan.Value) string {
	if a.Type() != gjson.String {
		return t.w.Copy(argsJSON(a.Result()))
	}
	t.text = a.AppendStr(t.text[:0])
	if !gjson.Valid(view(t.text)) {
		return t.w.Copy(a.Raw())
	}
	return t.str(t.text)
}

// functionOutput maps the output of a model tool call.
func (t *Translator) functionOutput(dst []event, c *ctx, p jsonscan.Value, typ, thread string) []event {
	id := p.Get("call_id").Str
	key := t.callKey(id)
	n := t.item(key)
	if n != nil && n.RDone && n.Held == nil && id != "" && n.Name != "spawn_agent" {
		// The call's result is complete (its item_completed or
		// exec_command_end came first) and toolResult leaves it as it
		// is: the output, as long as the line, is not read for nothing.
		// (A spawn_agent output still names its sub-agent's thread.)
		return dst
	}
	spec := toolSpec{native: t.w.Copy(id), thread: thread, callID: t.w.Copy(id)}
	if n != nil {
		spec.name = n.Name
	} else {
		// An output Codex adds on its own, with no call before it, names
		// what it is (0.17x: "goal_objective" after create_goal).
		spec.name = t.w.Copy(p.Get("name").Str)
	}
	var res resultSpec
	header := ""
	aborted := false
	if typ == "tool_search_output" {
		res.output = t.w.Copy(toolSearchFound(p.Sub("tools")))
	} else {
		// Read once: a string output is unescaped on every read. It is
		// unescaped into a buffer the translator reuses, as the output
		// is copied to the stream below.
		var o gjson.Result
		if ov := p.Sub("output"); ov.Type() == gjson.String {
			t.text = ov.AppendStr(t.text[:0])
			o = gjson.Result{Type: gjson.String, Raw: ov.Raw(), Str: view(t.text)}
		} else {
			o = ov.Result()
		}
		out, code, dur, failed := toolOutputText(o, &t.inner)
		aborted = abortedOutput(out)
		mime := ""
		if n != nil && n.Image != "" {
			// Only an image a call read is described by the output's
			// mime: other outputs are not searched for one.
			mime = imageMime(o)
		}
		var extra map[string]string
		if body, h, hcode, hdur, ok := outputHeader(out); ok {
			header = h
			// The command's output without the header Codex wrote for
			// the model (which is kept in metadata).
			out, code, dur = body, hcode, hdur
			extra = map[string]string{"output_header": string(jsonw.AppendString(nil, h))}
		}
		if n != nil {
			out, extra = t.collabOutput(n, out, extra)
		}
		res.output = t.w.Copy(out)
		res.failed = failed || (code != nil && *code != 0)
		res.isError = res.failed
		res.meta = exitMeta(code, dur, extra)
		if n != nil && !failed {
			// A call that did not run touched no file.
			res.extra = t.touched(n, mime)
		}
		if o.IsArray() && (n == nil || n.Image == "") {
			// Images among the output's content items (a code-mode
			// script's, an MCP tool's): a view_image's are its file's
			// (touched above).
			res.extra = t.outputImages(o, res.extra)
		}
	}
	if id == "" {
		key = ""
	} else if n != nil && n.Held != nil {
		// The command's end record held its output for this one.
		if raw, held := t.takeHeld(key, n, &spec, &res); held {
			return t.toolResult(dst, key, &spec, &res, agent, raw)
		}
	} else if t.holdRunning(key, n, &spec, &res, header, c.raw) {
		return dst
	}
	dst = t.toolResult(dst, key, &spec, &res, agent, c.raw)
	if n := t.item(key); aborted && n != nil && t.format == FormatRollout {
		n.Aborted = true
	}
	return dst
}

// touched returns the parts after a tool's result that show the files it
// touched: an apply_patch's files (each with its section of the patch), a
// view_image's file and the image (its data stays in raw).
func (t *Translator) touched(n *nitem, mime string) []part {
	var out []part
	if n.Patch != "" {
		out = t.patchRefs(n.Patch)
	}
	if n.Image != "" {
		out = append(out, t.imageParts(n.Image, mime)...)
	}
	return out
}

// imageParts returns the parts of an image a tool read: the file read and
// the image (mime from the output, else the file name; no data). Without
// a path (a native record missing it) there is neither.
func (t *Translator) imageParts(path, mime string) []part {
	if path == "" {
		return nil
	}
	path = t.w.Copy(universal.ResolvePath(t.st.Cwd, path))
	if mime == "" {
		mime = mimeOf(path)
	}
	return []part{{Type: universal.PartFileRef, Path: path, Action: universal.FileRead},
		{Type: universal.PartImage, Path: path, Mime: t.w.Copy(mime)}}
}

// outputImages appends to dst an image part for each image among a tool
// output's content items (a rollout's input_image {image_url}, a dynamic
// tool's inputImage {imageUrl}: an item with an image URL and no text), as
// a user message's image is given: a path or URL as the part's path, a
// data: URL without its data (the raw payload has it).
func (t *Translator) outputImages(items gjson.Result, dst []part) []part {
	items.ForEach(func(_, v gjson.Result) bool {
		u := v.Get("imageUrl")
		if !u.Exists() {
			u = v.Get("image_url")
		}
		if u.Type == gjson.String && u.Str != "" && v.Get("text").Type != gjson.String {
			dst = append(dst, userImage(u.Str, t.w.Copy))
		}
		return true
	})
	return dst
}

// imageMime returns the mime type of the first image in a tool output's
// content items (an input_image with a data URL), "" when there is none.
func imageMime(o gjson.Result) string {
	if o.Type == gjson.String {
		if len(o.Str) > 0 && o.Str[0] == '[' {
			o = gjson.Parse(o.Str)
		} else if !strings.Contains(o.Str, "image_url") {
			// ForEach below gives the string itself, whose Get reads its
			// quoted text (from its first '{' or '['). A member named
			// image_url is found there only where the text has that key,
			// its letters literal or \u escapes (gjson's other escapes
			// make no letters), which the unescaped text then has: a
			// plain command output has none, and is not scanned again.
			return ""
		}
	}
	mime := ""
	o.ForEach(func(_, v gjson.Result) bool {
		u := v.Get("image_url").Str
		if rest, ok := strings.CutPrefix(u, "data:"); ok {
			if m, _, ok := strings.Cut(rest, ";"); ok {
				mime = m
				return false
			}
		}
		return true
	})
	return mime
}

// mimeOf returns the image mime type a file name's extension says, ""
// when it says none.
func mimeOf(path string) string {
	ext := strings.ToLower(path[strings.LastIndexByte(path, '.')+1:])
	switch ext {
	case "png", "gif", "webp", "bmp", "tiff":
		return "image/" + ext
	case "jpg", "jpeg":
		return "image/jpeg"
	case "svg":
		return "image/svg+xml"
	}
	return ""
}

// collabOutput reads the JSON outputs of the multi-agent tools as their
// items show them (rollouts before ~0.16x have no item_completed
// CollabAgentToolCall; the live formats and newer rollouts give the item):
// spawn_agent's {"agent_id","nickname"} → the agent's thread id (and the
// thread becomes a sub-agent thread of the call), wait_agent's
// {"status":{<thread id>:{<status>:<message>}},"timed_out"} → what the
// sub-agents said, with agents_states in metadata. Other outputs are kept.
func (t *Translator) collabOutput(n *nitem, out string, extra map[string]string) (string, map[string]string) {
	if len(out) == 0 || out[0] != '{' {
		return out, extra
	}
	o := gjson.Parse(out)
	set := func(k, raw string) {
		if extra == nil {
			extra = map[string]string{}
		}
		extra[k] = raw
	}
	switch n.Name {
	case "spawn_agent":
		child := o.Get("agent_id").Str
		if child == "" {
			return out, extra
		}
		if par, ok := t.st.Children[child]; !ok || par == "" {
			put(&t.st.Children, t.w.Copy(child), n.ID)
		}
		set("spawn_result", o.Raw)
		return child, extra
	case "wait_agent", "wait":
		st := o.Get("status")
		if !st.IsObject() {
			return out, extra
		}
		var msgs []string
		st.ForEach(func(_, s gjson.Result) bool {
			// A plain string ("running", "not_found") is only a status.
			if s.Type != gjson.String {
				msgs = agentMessages(s, msgs)
			}
			return true
		})
		set("agents_states", st.Raw)
		if to := o.Get("timed_out"); to.IsBool() {
			set("timed_out", to.Raw)
		}
		return strings.Join(msgs, "\n"), extra
	}
	return out, extra
}

// toolOutputText reads a function call output in any of its encodings: a
// JSON-encoded {"output","metadata":{"exit_code","duration_seconds"}}
// (≤ 0.4x), plain text with an "Exit code: N" or "Process exited with code
// N" line, an array or object of content items, {"content","success"}.
//
// sc indexes an output that is JSON text: one pass validates it and finds
// its fields (it must not be the scanner of the message o is read from).
func toolOutputText(o gjson.Result, sc *jsonscan.Scanner) (string, *int64, *int64, bool) {
	switch {
	case o.Type == gjson.String:
		s := o.Str
		if len(s) > 0 && s[0] == '{' && sc.ScanString(s) {
			j := sc.Root()
			if out := j.Get("output"); out.Type == gjson.String {
				var dur *int64
				if d := j.Get("metadata.duration_seconds"); d.Type == gjson.Number {
					ms := int64(d.Float() * 1000)
					dur = &ms
				}
				return out.Str, intPtr(j.Get("metadata.exit_code")), dur, false
			}
		}
		return s, exitCodeOf(s), nil, toolFailed(s)
	case o.IsArray():
		// A code-mode script's output says first whether it failed.
		s := joinTexts(jsonscan.Wrap(o), "text")
		return s, nil, nil, strings.HasPrefix(s, "Script failed\n")
	case o.IsObject():
		if c := o.Get("content"); c.Type == gjson.String {
			return c.Str, exitCodeOf(c.Str), nil, o.Get("success").Type == gjson.False
		}
		return o.Get("text").Str, nil, nil, false
	}
	return "", nil, nil, false
}

// outputHeader splits a command's output from the header Codex wrote
// before it for the model: "Exit code: N\nWall time: S seconds\nOutput:\n"
// (~0.5x+) or unified exec's "[Command: …\n]Chunk ID: …\nWall time: S seconds\nProcess
// exited with code N\nOriginal token count: N\nOutput:\n" (or "Process
// running with session ID N"). Rollouts without item_completed command
// items (before ~0.16x) carry only this text; the live formats and newer
// rollouts give the output alone. It returns the output, the header, the
// exit code and the wall time in milliseconds; ok is false when s does not
// start with such a header (only these lines, then "Output:").
func outputHeader(s string) (body, header string, code, durMS *int64, ok bool) {
	rest := s
	for n := 0; n < 8; n++ {
		line, after, found := strings.Cut(rest, "\n")
		if line == "Output:" {
			if n == 0 {
				return "", "", nil, nil, false
			}
			return after, strings.TrimSuffix(s[:len(s)-len(rest)], "\n"), code, durMS, true
		}
		if !found {
			return "", "", nil, nil, false
		}
		switch {
		case strings.HasPrefix(line, "Exit code: "), strings.HasPrefix(line, "Process exited with code "):
			if code = exitCodeOf(line); code == nil {
				return "", "", nil, nil, false
			}
		case strings.HasPrefix(line, "Wall time: "):
			secs, err := strconv.ParseFloat(strings.TrimSuffix(line[len("Wall time: "):], " seconds"), 64)
			if err != nil {
				return "", "", nil, nil, false
			}
			ms := int64(secs * 1000)
			durMS = &ms
		case n == 0 && strings.HasPrefix(line, "Command: "):
			// 0.11x names the command first.
		case strings.HasPrefix(line, "Chunk ID: "), strings.HasPrefix(line, "Original token count: "),
			strings.HasPrefix(line, "Process running with session ID "):
		default:
			return "", "", nil, nil, false
		}
		rest = after
	}
	return "", "", nil, nil, false
}

// exitCodeOf finds the exit code in a tool output's header lines.
func exitCodeOf(s string) *int64 {
	for _, prefix := range [...]string{"Exit code: ", "Process exited with code "} {
		i := strings.Index(s, prefix)
		if i < 0 || (i > 0 && s[i-1] != '\n') {
			continue
		}
		var n int64
		j := i + len(prefix)
		neg := j < len(s) && s[j] == '-'
		if neg {
			j++
		}
		start := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' && j-start < 10 {
			n = n*10 + int64(s[j]-'0')
			j++
		}
		if j == start {
			continue
		}
		if neg {
			n = -n
		}
		return &n
	}
	return nil
}

// patchRefs lists the files an apply_patch text touches as file_ref
// parts, each with its section of the patch.
func (t *Translator) patchRefs(patch string) []part {
	var refs []part
	var sec strings.Builder
	flush := func() {
		if len(refs) > 0 && sec.Len() > 0 {
			refs[len(refs)-1].Diff = t.w.Copy(sec.String())
		}
		sec.Reset()
	}
	for line := range strings.Lines(patch) {
		l := strings.TrimRight(line, "\r\n")
		var kind string
		switch {
		case strings.HasPrefix(l, "*** Add File: "):
			kind = "add"
		case strings.HasPrefix(l, "*** Update File: "):
			kind = "update"
		case strings.HasPrefix(l, "*** Delete File: "):
			kind = "delete"
		case strings.HasPrefix(l, "*** Move to: ") && len(refs) > 0:
			refs[len(refs)-1].Metadata = obj().String("kind", "update").String("move_path", l[len("*** Move to: "):]).Bytes()
			continue
		case strings.HasPrefix(l, "*** End Patch"), strings.HasPrefix(l, "*** Begin Patch"):
			flush()
			continue
		default:
			if len(refs) > 0 {
				sec.WriteString(line)
			}
			continue
		}
		flush()
		path := l[strings.Index(l, ": ")+2:]
		p := part{Type: universal.PartFileRef, Path: t.w.Copy(universal.ResolvePath(t.st.Cwd, path)), Action: universal.FilePatch, Metadata: obj().String("kind", kind).Bytes()}
		if kind != "update" {
			p.Action = universal.FileWrite
		}
		refs = append(refs, p)
	}
	flush()
	return refs
}

// turnItem maps an item_completed event of a rollout (PascalCase items).
func (t *Translator) turnItem(dst []event, c *ctx, it jsonscan.Value, thread string) []event {
	typ := it.Get("type").Str
	id := it.Get("id").Str
	key := t.callKey(id)
	native := t.w.Copy(id)
	switch typ {
	case "UserMessage":
		// content is a list of UserInput (text, image, local_image,
		// skill…): the images are image parts, other inputs are kept as
		// they came (json parts), as the app-server's userMessage keeps
		// them.
		var text strings.Builder
		var others []string
		it.Sub("content").Each(func(_ gjson.Result, v jsonscan.Value) bool {
			switch v.Get("type").Str {
			case "text":
				if text.Len() > 0 {
					text.WriteByte('\n')
				}
				text.WriteString(v.Get("text").Str)
			case "image":
				others = append(others, string(jsonw.AppendString(nil, v.Get("image_url").Str)))
			case "local_image":
				others = append(others, string(jsonw.AppendString(nil, v.Get("path").Str)))
			default:
				others = append(others, v.Raw())
			}
			return true
		})
		return t.userEvent(dst, c, text.String(), it, thread, others...)
	case "AgentMessage", "Plan":
		if t.otherCopy(lockAssistant, lockEvent) {
			return dst
		}
		var text string
		if typ == "AgentMessage" {
			text = t.msgTexts(it.Sub("content"), "text")
		} else {
			text = t.msgStr(it.Sub("text"))
		}
		meta := messagePhaseMeta(it)
		if typ == "Plan" {
			meta = []byte(`{"type":"plan"}`)
		}
		return t.assistantCopy(dst, c, lockEvent, id, text, meta, thread)
	case "Reasoning":
		parts := t.parts[:0]
		it.Sub("summary_text").Each(func(_ gjson.Result, v jsonscan.Value) bool {
			parts = append(parts, universal.Reasoning(t.msgStr(v), universal.VisibilityPublic))
			return true
		})
		it.Sub("raw_content").Each(func(_ gjson.Result, v jsonscan.Value) bool {
			parts = append(parts, universal.Reasoning(t.msgStr(v), universal.VisibilityPrivate))
			return true
		})
		t.parts = parts
		return t.reasoningCopy(dst, c, lockEvent, id, parts, thread)
	case "CommandExecution":
		args := commandArgs(it.Get("command"), it.Get("cwd"))
		spec := toolSpec{native: native, thread: thread, callID: native, name: "command_execution", args: args}
		res := t.commandResult(t.turnItemOutput(it), it.Get("status").Str, intPtr(it.Get("exit_code")), durationMS(it.Get("duration")))
		return t.commandEnd(dst, key, &spec, &res, c.raw)
	case "FileChange":
		spec := toolSpec{native: native, thread: thread, callID: native, name: "file_change"}
		var refs []part
		spec.args, refs = t.fileChanges(it.Sub("changes"))
		res := patchResult(it.Get("status").Str)
		res.extra = refs
		res.output = t.w.Copy(it.Get("stdout").Str + it.Get("stderr").Str)
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "McpToolCall":
		spec := toolSpec{native: native, thread: thread, callID: native,
			name: t.w.Copy(mcpToolName(it.Get("server").Str, it.Get("tool").Str)), args: t.w.Copy(argsJSON(it.Get("arguments")))}
		structured := "structured_content"
		if it.Get("result.structuredContent").Exists() {
			structured = "structuredContent"
		}
		res := mcpResult(t, it.Get("result"), it.Get("error"), it.Get("status").Str, durationMS(it.Get("duration")), structured)
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "CollabAgentToolCall":
		return t.collabItem(dst, c, key, native, native, thread, it.Result(), true, snakeCollab)
	case "WebSearch", "Extension":
		name := "web_search"
		if typ == "Extension" {
			name = "extension"
		}
		args := obj().String("query", it.Get("query").Str)
		args.Raw("action", it.Get("action").Raw)
		spec := toolSpec{native: native, thread: thread, callID: native, name: name, args: t.str(args.Bytes())}
		if k := it.Get("kind").Str; k != "" {
			spec.meta = obj().String("kind", k).Bytes()
		}
		res := t.webSearchResult(it.Get("results"))
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "ImageView":
		// The view_image call (ImageViewItem {id, path}: the call id, and
		// a PathUri, written as a file:// URI), as view_image_tool_call
		// gives it; once only when both lines come (same key).
		path := t.w.Copy(pathOfURI(it.Get("path").Str))
		spec := toolSpec{native: native, thread: thread, callID: native, name: "view_image",
			args: t.str(obj().String("path", path).Bytes())}
		return t.toolResult(dst, key, &spec, &resultSpec{extra: t.imageParts(path, "")}, agent, c.raw)
	case "HookPrompt":
		var text strings.Builder
		it.Sub("fragments").Each(func(_ gjson.Result, f jsonscan.Value) bool {
			if text.Len() > 0 {
				text.WriteByte('\n')
			}
			text.WriteString(f.Get("text").Str)
			return true
		})
		return t.hookPrompt(dst, c, id, text.String(), thread)
	case "SubAgentActivity":
		// SubAgentActivity {id, kind, agent_thread_id, agent_path}: the
		// only line that names a multi-agent v2 sub-agent's thread in
		// rollouts that write no sub_agent_activity event (0.157); the id
		// of a started one is its spawn_agent call's id, as the event's
		// event_id is.
		if t.st.Activity == lockEvent {
			return dst
		}
		t.st.Activity = lockResponse
		return t.subAgentActivity(dst, c, native, thread, it.Get("kind").Str, it.Get("agent_thread_id").Str, it.Get("agent_path"), it.Get("model").Str, "", key)
	case "ImageGeneration", "DynamicToolCall", "ContextCompaction", "EnteredReviewMode", "ExitedReviewMode", "Sleep":
		// Carried by the response items and the *_end, compacted and
		// review lines of the same file.
		return dst
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown rollout item type %q", typ), c.raw)
}

// pathOfURI returns the path of a PathUri as Codex writes it (file://
// and the percent-encoded path); other strings are returned as they are.
func pathOfURI(s string) string {
	p, ok := strings.CutPrefix(s, "file://")
	if !ok {
		return s
	}
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

// turnItemOutput is the output of a CommandExecution TurnItem, whose
// stdout, stderr, aggregated_output and formatted_output are each
// optional (0.153 wrote stdout alone): aggregated_output, or stdout and
// stderr, or formatted_output.
func (t *Translator) turnItemOutput(it jsonscan.Value) string {
	if agg := it.Sub("aggregated_output"); agg.Type() == gjson.String {
		return agg.OwnStr(t.w.Copy)
	}
	if out := it.Get("stdout").Str + it.Get("stderr").Str; out != "" {
		return t.w.Copy(out)
	}
	return it.Sub("formatted_output").OwnStr(t.w.Copy)
}

// usageRecord maps token_usage_record (0.169): one per model response,
// with the call's usage and the thread's running total.
func (t *Translator) usageRecord(dst []event, c *ctx, p jsonscan.Value) []event {
	t.st.Records = true
	thread := p.Get("thread_id").Str
	turn := t.w.Turn()
	window := int64(-1) // the record does not give it: the root's, known from task_started or token_count
	if t.st.Window > 0 && t.isRoot(thread) {
		window = t.st.Window
	}
	if u := p.Sub("usage"); u.IsObject() {
		dst = t.usageMD(dst, turn, universal.ScopeCall, readCounts(u, &snakeUsage), window, t.callMD(thread), c.raw)
	}
	if !t.isRoot(thread) || !t.isRoot(t.st.Cur) {
		return dst
	}
	if u := p.Sub("thread_token_usage"); u.IsObject() {
		dst = t.usage(dst, turn, universal.ScopeSession, readCounts(u, &snakeUsage), window, c.raw)
	}
	return dst
}

// toolFailed reports whether a tool output says the call failed before it
// ran ("exec_command failed: …", "apply_patch failed: …", and in 0.130–0.145
// "exec_command failed for `<command>`: …"; "apply_patch verification
// failed: …", a patch Codex could not check against the files, 0.171
// observed, which the live formats do not print), or that Codex had no handler
// for it ("unsupported call: <name>", "unsupported custom tool call:
// <name>", e.g. 0.100's answer to a freeform apply_patch), or that the
// call was refused ("patch rejected by user", "exec command rejected by
// user", "approval policy is Never; reject command …"), or that the
// sandbox denied it ("failed in sandbox <type> with execution error: …",
// 0.28 observed, where the live output has exit code -1): such outputs
// have no exit code of their own.
func toolFailed(s string) bool {
	if abortedOutput(s) {
		return true
	}
	for _, prefix := range [...]string{"unsupported call: ", "unsupported custom tool call: ",
		"apply_patch verification failed: ", "patch rejected by user", "exec command rejected by user", "approval policy is Never; reject command",
		"failed in sandbox ", "collab spawn failed: "} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	i := strings.IndexByte(s, ' ')
	if i <= 0 || i > 40 {
		return false
	}
	for _, c := range s[:i] {
		if !(c >= 'a' && c <= 'z' || c == '_') {
			return false
		}
	}
	return strings.HasPrefix(s[i:], " failed: ") || strings.HasPrefix(s[i:], " failed for `")
}

// abortedOutput reports the output Codex gives the model for a call an
// interrupt stopped (tools/parallel.rs, abort_message): "Wall time: S
// seconds\naborted by user" for a shell or unified exec command, "aborted
// by user after Ss" for other tools.
func abortedOutput(s string) bool {
	if strings.HasPrefix(s, "aborted by user after ") {
		return !strings.Contains(s, "\n")
	}
	head, ok := strings.CutSuffix(s, " seconds\naborted by user")
	return ok && strings.HasPrefix(head, "Wall time: ") && !strings.Contains(head, "\n")
}

// generatedImage is the image part of an image generation's result: the
// saved file (savedPath, saved_path) when Codex saved one; else the image
// the result holds (ImageGenerationThreadItem: "either inline
// generated-image data or its durable attachment-store identity", a
// fileId), without its data (the raw payload has it), as package anthropic
// keeps an inline image: the mime type read from the data's first bytes
// ("image/*" when they name none), its length as data_length, or the
// fileId as file_id. nil when there is no image (a failed generation).
func (t *Translator) generatedImage(saved, fileID, data string) []part {
	if saved != "" {
		return []part{{Type: universal.PartImage, Path: t.w.Copy(saved), Mime: mimeOf(saved)}}
	}
	if fileID != "" {
		var md jsonw.Object
		md.String("file_id", fileID)
		return []part{{Type: universal.PartImage, Mime: base64Mime(data), Metadata: md.Bytes()}}
	}
	return inlineImage(base64Mime(data), int64(len(data)))
}

// inlineImage is the image part of inline image data of the type and
// length given (nil for none).
func inlineImage(mime string, n int64) []part {
	if n <= 0 {
		return nil
	}
	var md jsonw.Object
	md.Int("data_length", n)
	return []part{{Type: universal.PartImage, Mime: mime, Metadata: md.Bytes()}}
}

// holdImage completes a rollout's image_generation_call and holds its
// result for the image_generation_end of the same call, whose saved_path
// names the file Codex saved the image to (it saves it after recording
// the item): that event's result replaces the held one; without it (older
// rollouts, a response or turn that ends first) the held result completes
// with the inline image. The inline image part keeps the data's mime and
// length, never the data, so the held result keeps no more: not the line
// either (its base64 image is often megabytes, and it would sit in every
// checkpoint until the end event), unless events carry their native
// payloads (universal.Options.IncludeRaw), which the result's must then be.
func (t *Translator) holdImage(dst []event, key string, s *toolSpec, r *resultSpec, data string, raw []byte) []event {
	n := t.item(key)
	if n != nil && (n.RDone || n.Held != nil) {
		return dst
	}
	if n == nil || !n.Done {
		dst, n = t.toolCallN(dst, key, s, true, agent, raw)
	}
	t.resulted(n)
	var keep string
	if t.w.Stamper().IncludeRaw() {
		keep = string(raw)
	}
	n.Held = &heldResult{Native: s.native, Meta: r.meta, Raw: keep, ImageMime: base64Mime(data), ImageLen: int64(len(data))}
	t.st.HeldRes = append(t.st.HeldRes, key)
	return dst
}

// base64Mime names the image type of base64 data by the encoding of its
// format's signature; "image/*" for any other.
func base64Mime(data string) string {
	for _, s := range [...][2]string{{"iVBORw0KGgo", "image/png"}, {"/9j/", "image/jpeg"}, {"R0lGOD", "image/gif"}, {"UklGR", "image/webp"}} {
		if strings.HasPrefix(data, s[0]) {
			return s[1]
		}
	}
	return "image/*"
}
