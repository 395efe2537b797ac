package codex

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// msgMode says where a core EventMsg comes from.
type msgMode uint8

const (
	// live: the legacy live streams (pre-0.44 exec {"id","msg"} lines and
	// app-server v1 codex/event/* notifications), where tools are begin/end
	// pairs and messages stream as deltas.
	live msgMode = iota
	// rest: rollout event_msg lines, completed facts that repeat what the
	// file's response_item lines hold.
	rest
)

// ignoredEventMsgs are core events that carry nothing for the transcript
// (see the package documentation).
var ignoredEventMsgs = map[string]struct{}{
	"mcp_startup_complete": {}, "turn_diff": {},
	"get_history_entry_response": {}, "mcp_list_tools_response": {}, "list_custom_prompts_response": {},
	"list_skills_response": {}, "list_remote_skills_response": {}, "remote_skill_downloaded": {},
	"skills_update_available": {}, "undo_started": {}, "undo_completed": {},
	"shutdown_complete": {}, "raw_response_item": {}, "thread_settings_applied": {},
	"terminal_interaction": {}, "plan_delta": {}, "item_started": {}, "hook_started": {},
	"model_verification": {}, "turn_moderation_metadata": {}, "safety_buffering": {}, "patch_apply_updated": {},
	"request_permissions": {}, "realtime_conversation_started": {}, "realtime_conversation_sdp": {},
	"realtime_conversation_realtime": {}, "realtime_conversation_closed": {},
	"realtime_conversation_list_voices_response": {},
}

// eventMsg translates one core EventMsg.
func (t *Translator) eventMsg(dst []event, c *ctx, m jsonscan.Value, mode msgMode, thread string) []event {
	typ := m.Sub("type").Str()
	if mode == rest && !t.isRoot(t.st.Cur) {
		thread = t.st.Cur
	}
	root := t.isRoot(thread)
	th := t.copyThread(thread)
	switch typ {
	case "session_configured":
		return t.sessionConfigured(dst, c, m)
	case "thread_name_updated":
		if !root {
			return dst // a sub-agent thread's name: not the session's title
		}
		return t.title(dst, c, m.Sub("thread_name"))
	case "task_started", "turn_started":
		if !root {
			return dst
		}
		t.st.TaskMode = true
		if w := countOf(m.Get("model_context_window")); w > 0 {
			t.st.Window = w
		}
		if t.st.Inferred != "" {
			dst = t.endTurn(dst, t.st.Inferred, universal.TurnCompleted, nil, daemon, nil)
			t.st.Inferred = ""
		}
		id := m.Get("turn_id").Str
		if id == "" {
			id = m.Get("turnId").Str
		}
		if mode == rest && !t.w.Begun() && t.st.Thread != "" {
			// The session starts with the next line, once the turn_context
			// after this line has told the model.
			put(&t.st.Meta, "task", strings.Clone(id))
			t.holdRaw("task_raw", c.raw)
			return dst
		}
		dst = t.startTurn(dst, t.w.Copy(id), nil, agent, c.raw)
		return t.flushHeldUsers(dst)
	case "task_complete", "turn_complete":
		if !root {
			return t.closeChild(dst, thread)
		}
		dst = t.flushHeldUsers(dst)
		if t.w.Turn() == "" {
			return dst
		}
		status := universal.TurnCompleted
		if t.st.TurnErr {
			// The turn's error came before (an error event: the v1
			// app-server of 0.50 follows it with a task_complete
			// without one).
			status = universal.TurnError
		}
		e := m.Get("error")
		if e.Exists() && e.Type != gjson.Null {
			status = universal.TurnError
			if !t.st.TurnErr {
				dst = t.emitError(dst, t.w.CopyValue(e.Get("message")), t.w.Copy(errorCode(e.Get("codex_error_info"))), metaOf("error", e), false, agent, c.raw)
			}
		}
		o := obj()
		if d := m.Get("duration_ms"); d.Type == gjson.Number {
			o.Int("duration_ms", d.Int())
		}
		var meta []byte
		if o.Len() > 0 {
			meta = o.Bytes()
		}
		dst = t.endTurn(dst, "", status, meta, agent, c.raw)
		t.st.Inferred = ""
		return dst
	case "turn_aborted":
		if !root {
			return t.closeChild(dst, thread)
		}
		dst = t.flushHeldUsers(dst)
		if t.w.Turn() == "" {
			return dst
		}
		t.st.Inferred = ""
		return t.endTurn(dst, "", universal.TurnInterrupted, metaOf("reason", m.Get("reason")), agent, c.raw)
	case "user_message":
		if prompt, id, ok := timerFired(m.Get("message").Str); ok {
			// A thread timer's prompt (pre-release builds, before
			// injected_message): the user message is the prompt, the
			// timer its source, as injected_message names it.
			return t.userEventFrom(dst, c, prompt, "timer "+id, m, th)
		}
		return t.userEvent(dst, c, m.Get("message").Str, m, th)
	case "injected_message":
		// A message Codex put into the thread for someone else than the
		// user at the prompt (a thread timer firing, another program's
		// message: InjectedMessageEvent {content, source}); the model
		// reads it as a user message wrapped in tags (<codex_message>,
		// a timer's or an external message's), which the model-history
		// copy skips as injected context. It is the user message, its
		// source in the text's metadata.
		content, source := m.Get("content"), m.Get("source")
		if content.Type != gjson.String || source.Exists() && source.Type != gjson.String {
			return t.w.Unparsed(dst, c.loc(), errors.New("codex: injected_message whose content or source is not a string"), c.raw)
		}
		return t.userEventFrom(dst, c, content.Str, source.Str, m, th)
	case "agent_message":
		if mode == live {
			return t.liveMessageEnd(dst, c, "live:msg", kindMessage, m.Get("message").Str, universal.PartText, th, messagePhaseMeta(m))
		}
		if t.otherCopy(lockAssistant, lockEvent) {
			return dst
		}
		return t.assistantCopy(dst, c, lockEvent, "", t.msgStr(m.Sub("message")), messagePhaseMeta(m), th)
	case "agent_message_delta", "agent_message_content_delta":
		d := m.Field("delta")
		t.scan.Mark(&t.mark, d) // the next delta line is scanned from its text on
		return t.liveDelta(dst, c, "live:msg", kindMessage, 0, universal.PartText, t.deltaText(d), th)
	case "agent_reasoning", "agent_reasoning_raw_content":
		vis := universal.VisibilityPublic
		if typ == "agent_reasoning_raw_content" {
			vis = universal.VisibilityPrivate
		}
		if mode == live {
			return t.liveMessageEnd(dst, c, "live:"+string(vis), kindReasoning, m.Get("text").Str, universal.PartReasoning, th, nil)
		}
		if t.otherCopy(lockReasoning, lockEvent) {
			return dst
		}
		t.parts = append(t.parts[:0], universal.Reasoning(t.msgStr(m.Sub("text")), vis))
		return t.reasoningCopy(dst, c, lockEvent, "", t.parts, th)
	case "agent_reasoning_delta", "reasoning_content_delta":
		d := m.Field("delta")
		t.scan.Mark(&t.mark, d)
		return t.liveDelta(dst, c, "live:public", kindReasoning, 0, universal.PartReasoning, t.deltaText(d), th)
	case "agent_reasoning_raw_content_delta", "reasoning_raw_content_delta":
		d := m.Field("delta")
		t.scan.Mark(&t.mark, d)
		return t.liveDelta(dst, c, "live:private", kindReasoning, 0, universal.PartReasoning, t.deltaText(d), th)
	case "agent_reasoning_section_break":
		// A new summary section: the next deltas start a new reasoning
		// part of the response.
		if n := t.item("live:public"); n != nil && !n.Done {
			t.settleNative(n, t.respByID(n.ID))
		}
		delete(t.st.Items, "live:public")
		return dst
	case "exec_command_begin":
		spec := t.execCommandSpec(m, th)
		key := "c:" + m.Get("call_id").Str
		t.freshCall(key)
		dst = t.toolCall(dst, key, &spec, false, agent, c.raw)
		t.uses = 0
		return dst
	case "exec_command_output_delta":
		chunk := m.Get("chunk").Str
		b, err := base64.StdEncoding.DecodeString(chunk)
		if err != nil {
			b = []byte(chunk)
		}
		return t.toolOutput(dst, "c:"+m.Get("call_id").Str, view(b), c.raw)
	case "exec_command_end":
		spec := t.execCommandSpec(m, th)
		out := m.Sub("aggregated_output").OwnStr(t.w.Copy)
		if out == "" {
			out = t.w.Copy(m.Get("stdout").Str + m.Get("stderr").Str)
		}
		res := t.commandResult(out, m.Get("status").Str, intPtr(m.Get("exit_code")), durationMS(m.Get("duration")))
		spec.keep = true
		return t.commandEnd(dst, "c:"+m.Get("call_id").Str, &spec, &res, c.raw)
	case "patch_apply_begin", "patch_apply_end":
		spec := toolSpec{native: t.w.CopyValue(m.Get("call_id")), thread: th, callID: t.w.CopyValue(m.Get("call_id")), name: "file_change"}
		changes := m.Sub("changes")
		key := "c:" + m.Get("call_id").Str
		if n := t.item(key); n != nil && !changes.Exists() && n.Changes != "" {
			// The end event of older versions has no changes: the begin's.
			changes = jsonscan.Wrap(gjson.Parse(n.Changes))
		}
		var refs []part
		spec.args, refs = t.fileChanges(changes)
		if typ == "patch_apply_begin" {
			t.freshCall(key)
			dst, n := t.toolCallN(dst, key, &spec, false, agent, c.raw)
			t.uses = 0
			if n != nil && changes.Exists() {
				n.Changes = strings.Clone(changes.Raw())
			}
			return dst
		}
		ok := m.Get("success").Bool()
		out := m.Get("stdout").Str + m.Get("stderr").Str
		res := resultSpec{output: t.w.Copy(out), failed: !ok, isError: !ok, extra: refs}
		spec.keep = true
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "mcp_tool_call_begin", "mcp_tool_call_end":
		inv := m.Get("invocation")
		spec := toolSpec{native: t.w.CopyValue(m.Get("call_id")), thread: th, callID: t.w.CopyValue(m.Get("call_id")),
			name: t.w.Copy(mcpToolName(inv.Get("server").Str, inv.Get("tool").Str)),
			args: t.w.Copy(argsJSON(inv.Get("arguments")))}
		key := "c:" + m.Get("call_id").Str
		if typ == "mcp_tool_call_begin" {
			t.freshCall(key)
			dst = t.toolCall(dst, key, &spec, false, agent, c.raw)
			t.uses = 0
			return dst
		}
		result := m.Get("result")
		spec.keep = true
		var res resultSpec
		if e := result.Get("Err"); e.Exists() {
			res = mcpResult(t, gjson.Result{}, e, "", durationMS(m.Get("duration")), "structuredContent")
		} else {
			ok := result.Get("Ok")
			if !ok.Exists() {
				ok = result
			}
			res = mcpResult(t, ok, gjson.Result{}, "", durationMS(m.Get("duration")), "structuredContent")
		}
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "web_search_begin", "web_search_end":
		spec := toolSpec{native: t.w.CopyValue(m.Get("call_id")), thread: th, callID: t.w.CopyValue(m.Get("call_id")), name: "web_search"}
		o := obj().String("query", m.Get("query").Str)
		o.Raw("action", m.Get("action").Raw)
		spec.args = t.str(o.Bytes())
		key := "c:" + m.Get("call_id").Str
		if typ == "web_search_begin" {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		res := t.webSearchResult(m.Get("results"))
		if a := m.Sub("action"); t.format == FormatRollout && a.IsObject() {
			t.searched(a.Compacted())
		}
		if n := t.item(key); t.format == FormatRollout && n != nil && n.Done && !n.User && !n.RDone && n.Held == nil {
			// The model's own call (0.145+: web.run, a function_call of
			// the same call_id): its function_call_output, which follows,
			// holds the pages the model read, where this event lists only
			// their titles, urls and snippets.
			dst = t.holdResult(dst, key, &spec, &res, c.raw)
			if n := t.item(key); n != nil && n.Held != nil {
				n.Held.Search = true
			}
			return dst
		}
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "view_image_tool_call":
		path := t.w.CopyValue(m.Get("path"))
		spec := toolSpec{native: t.w.CopyValue(m.Get("call_id")), thread: th, callID: t.w.CopyValue(m.Get("call_id")), name: "view_image",
			args: t.str(obj().String("path", path).Bytes())}
		return t.toolResult(dst, "c:"+m.Get("call_id").Str, &spec, &resultSpec{extra: t.imageParts(path, "")}, agent, c.raw)
	case "image_generation_begin", "image_generation_end":
		spec := toolSpec{native: t.w.CopyValue(m.Get("call_id")), thread: th, callID: t.w.CopyValue(m.Get("call_id")), name: "image_generation"}
		o := obj()
		o.OptString("revised_prompt", m.Get("revised_prompt").Str)
		spec.args = t.str(o.Bytes())
		key := "c:" + m.Get("call_id").Str
		if typ == "image_generation_begin" {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		res := resultSpec{meta: metaOf("failure", m.Get("failure"))}
		if f := m.Get("failure"); (f.Exists() && f.Type != gjson.Null) || m.Get("status").Str == "failed" {
			res.isError, res.failed = true, true
		}
		res.extra = t.generatedImage(m.Get("saved_path").Str, "", m.Get("result").Str)
		if n := t.item(key); n != nil && n.Held != nil {
			// The image_generation_call's result waited for this one.
			n.Held = nil
			t.dropHeld(key)
		}
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "collab_agent_spawn_begin", "collab_agent_spawn_end", "collab_agent_interaction_begin", "collab_agent_interaction_end",
		"collab_waiting_begin", "collab_waiting_end", "collab_close_begin", "collab_close_end", "collab_resume_begin", "collab_resume_end":
		return t.collabEvent(dst, c, typ, m, th)
	case "dynamic_tool_call_request", "dynamic_tool_call_response":
		id := m.Get("call_id").Str
		if id == "" {
			id = m.Get("callId").Str
		}
		spec := dynamicToolSpec(t, th, id, m.Result())
		key := "c:" + id
		if typ == "dynamic_tool_call_request" {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		out, images := t.dynamicOutput(m.Get("content_items"), nil)
		res := resultSpec{output: t.w.Copy(out), meta: exitMeta(nil, durationMS(m.Get("duration")), nil), extra: images}
		spec.keep = true
		if m.Get("success").Type == gjson.False {
			res.isError, res.failed = true, true
		}
		if e := m.Get("error"); e.Type == gjson.String {
			res.output = t.w.CopyValue(e)
		}
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "exec_approval_request", "apply_patch_approval_request", "request_user_input", "elicitation_request":
		if t.format != FormatExec {
			// On the app-server the matching server request (which the host
			// must answer) carries the same fact.
			return dst
		}
		return t.legacyRequest(dst, c, typ, m, th)
	case "guardian_assessment":
		return t.guardian(dst, c, m)
	case "token_count":
		if info := m.Sub("info"); info.Exists() {
			return t.tokenCount(dst, c, info, th)
		}
		return t.callTokenCount(dst, c, m, th)
	case "error":
		if !root {
			return t.subAgentError(dst, c, th, "sub_agent_error", m.Get("message").Str, errorCode(m.Get("codex_error_info")), metaOf("codex_error_info", m.Get("codex_error_info")))
		}
		return t.emitError(dst, t.w.CopyValue(m.Get("message")), t.w.Copy(errorCode(m.Get("codex_error_info"))), metaOf("codex_error_info", m.Get("codex_error_info")), false, agent, c.raw)
	case "stream_error":
		o := obj()
		o.Raw("codex_error_info", m.Get("codex_error_info").Raw)
		o.Raw("additional_details", m.Get("additional_details").Raw)
		return t.emitError(dst, t.w.CopyValue(m.Get("message")), t.w.Copy(errorCode(m.Get("codex_error_info"))), cleanJSON(o.Bytes()), true, agent, c.raw)
	case "warning", "background_event", "guardian_warning":
		return t.status(dst, "", th, typ, t.w.CopyValue(m.Get("message")), nil, agent, c.raw)
	case "mcp_startup_update":
		// {server, status: {state: starting | ready | failed |
		// cancelled, error}}; mcp_startup_complete sums them up.
		st := m.Get("status.state").Str
		if st != "failed" && st != "cancelled" {
			return dst
		}
		name := m.Get("server").Str
		meta := obj().String("mcp_server", name).String("status", st)
		return t.status(dst, "", th, "notice", t.w.Copy(mcpStartupText(name, st, m.Get("status.error").Str)), meta.Bytes(), agent, c.raw)
	case "deprecation_notice":
		return t.status(dst, "", th, typ, t.w.Copy(noticeText(m.Get("summary").Str, m.Get("details").Str)), nil, agent, c.raw)
	case "model_reroute":
		detail := m.Get("from_model").Str + " → " + m.Get("to_model").Str
		return t.status(dst, "", th, "model_rerouted", t.w.Copy(detail), metaOf("reason", m.Get("reason")), agent, c.raw)
	case "context_compacted":
		if mode == rest {
			// The compacted line marks it.
			return dst
		}
		return t.status(dst, "", th, universal.LabelCompaction, "", nil, agent, c.raw)
	case "entered_review_mode":
		detail := m.Get("user_facing_hint").Str
		return t.status(dst, t.w.CopyValue(m.Get("item_id")), th, "review_mode_entered", t.w.Copy(detail), metaOf("target", m.Get("target")), agent, c.raw)
	case "exited_review_mode":
		ro := m.Get("review_output")
		return t.status(dst, t.w.CopyValue(m.Get("item_id")), th, "review_mode_exited", t.w.CopyValue(ro.Get("overall_explanation")), metaOf("review_output", ro), agent, c.raw)
	case "plan_update":
		return t.planStatus(dst, c, th, m.Get("plan"), m.Get("explanation").Str, "")
	case "thread_rolled_back":
		return t.reverted(dst, c, th, "", m.Get("num_turns").Int())
	case "sub_agent_activity":
		if t.st.Activity == lockResponse {
			return dst
		}
		t.st.Activity = lockEvent
		return t.subAgentActivity(dst, c, "", th, m.Get("kind").Str, m.Get("agent_thread_id").Str, m.Get("agent_path"), m.Get("model").Str, "", "c:"+m.Get("event_id").Str)
	case "hook_completed":
		return t.hookContext(dst, c, th, m.Get("run"))
	case "thread_goal_updated":
		// ThreadGoalUpdatedEvent {threadId, turnId?, goal} (camelCase, as
		// thread/goal/updated carries it), which rollouts persist
		// (codex-rs/rollout policy.rs, should_persist_event_msg): the goal
		// /goal set, or the model's create_goal and update_goal, whose
		// continuation turns open with an injected prompt, not the user's.
		if mode == rest && !t.w.Begun() && t.st.Thread != "" && len(t.st.HeldGoals) < maxHeldGoals {
			// The session starts once a turn_context has told the model
			// (task_started above): the goal waits for it.
			t.st.HeldGoals = append(t.st.HeldGoals, heldGoal{Thread: strings.Clone(thread), Goal: strings.Clone(m.Get("goal").Raw), Raw: string(c.raw)})
			return dst
		}
		return t.goalStatus(dst, c, thread, m.Get("goal"), false)
	case "item_completed":
		if mode == live {
			// The legacy events of the same stream carry these facts.
			return dst
		}
		return t.turnItem(dst, c, m.Sub("item"), th)
	}
	if _, ok := ignoredEventMsgs[typ]; ok {
		return dst
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown event %q", typ), c.raw)
}

func messagePhaseMeta(m jsonscan.Value) []byte {
	p, mc := m.Get("phase"), m.Get("memory_citation")
	phase, citation := p.Type == gjson.String, mc.Exists() && mc.Type != gjson.Null
	if !phase && !citation {
		return nil
	}
	// Made at about its size: grown by its fields, it took an allocation
	// each.
	o := obj().Grow(len(`{"phase":,"memory_citation":}`) + len(p.Raw) + len(mc.Raw))
	if phase {
		o.String("phase", p.Str)
	}
	if citation {
		o.Raw("memory_citation", mc.Raw)
	}
	return o.Bytes()
}

// durationMS reads a {secs, nanos} duration in milliseconds.
func durationMS(d gjson.Result) *int64 {
	if !d.IsObject() {
		return nil
	}
	ms := d.Get("secs").Int()*1000 + d.Get("nanos").Int()/1_000_000
	return &ms
}

func (t *Translator) execCommandSpec(m jsonscan.Value, thread string) toolSpec {
	id := m.Get("call_id").Str
	args := commandArgs(m.Get("command"), m.Get("cwd"))
	meta := obj()
	for _, f := range [...][2]string{{"source", "source"}, {"process_id", "process_id"}, {"parsed_cmd", "parsed_cmd"}} {
		if v := m.Sub(f[0]); v.Exists() && v.Type() != gjson.Null {
			meta.RawClean(f[1], v.Compacted())
		}
	}
	s := toolSpec{native: t.w.Copy(id), thread: thread, callID: t.w.Copy(id), name: "command_execution", args: args,
		user: userShell(m.Get("source"))}
	if meta.Len() > 0 {
		s.meta = meta.Bytes()
	}
	return s
}

// sessionConfigured starts the session from a legacy session_configured
// event.
func (t *Translator) sessionConfigured(dst []event, c *ctx, m jsonscan.Value) []event {
	if t.w.Begun() {
		return dst
	}
	id := m.Get("session_id").Str
	if id != "" {
		t.st.Thread = t.w.Copy(id)
		t.w.SetNativeSessionID(t.st.Thread)
	}
	o := obj().String("agent", agentName)
	for _, f := range [...][2]string{{"model", "model"}, {"model_provider_id", "provider"}, {"cwd", "cwd"},
		{"approval_policy", "approval_policy"}, {"sandbox_policy", "sandbox"}, {"reasoning_effort", "reasoning_effort"},
		{"rollout_path", "rollout_path"}, {"forked_from_id", "forked_from_id"}, {"thread_name", "title"}} {
		if v := m.Sub(f[0]); v.Exists() && v.Type() != gjson.Null && !(f[0] == "model" && v.Raw() == `""`) { // an empty id names no model
			o.RawClean(f[1], v.Compacted())
		}
	}
	o.Raw("config", t.st.Meta["config"])
	t.st.Cwd = strings.Clone(m.Get("cwd").Str)
	t.st.Title = strings.Clone(m.Get("thread_name").Str)
	return t.w.BeginClean(dst, o.Bytes(), agent, c.raw)
}

// liveDelta streams text into the open live message or reasoning item of
// a legacy stream (its deltas carry no item id).
func (t *Translator) liveDelta(dst []event, c *ctx, key string, kind uint8, i int, typ universal.PartType, text, thread string) []event {
	n := t.item(key)
	if n != nil && n.Done {
		delete(t.st.Items, key)
		n = nil
	}
	m := msgSpec{thread: thread, role: universal.RoleAssistant}
	if n == nil && typ == universal.PartReasoning {
		vis := universal.VisibilityPublic
		if key == "live:private" {
			vis = universal.VisibilityPrivate
		}
		m.parts = []part{universal.Reasoning("", vis)}
		dst = t.startMessage(dst, key, kind, m, agent, c.raw)
	}
	return t.messageDelta(dst, key, kind, m, i, typ, text, c.raw)
}

// liveMessageEnd completes the open live item with the full text.
func (t *Translator) liveMessageEnd(dst []event, c *ctx, key string, kind uint8, text string, typ universal.PartType, thread string, meta []byte) []event {
	p := part{Type: typ, Metadata: meta}
	if typ == universal.PartReasoning {
		p.Visibility = universal.VisibilityPublic
		if key == "live:private" {
			p.Visibility = universal.VisibilityPrivate
		}
	}
	p.SetStreamed(text) // copied where it is kept (finalize)
	if n := t.item(key); n != nil && n.Done {
		delete(t.st.Items, key)
	}
	dst = t.completeMessage(dst, key, kind, msgSpec{thread: thread, role: universal.RoleAssistant, parts: []part{p}}, agent, c.raw)
	delete(t.st.Items, key)
	return dst
}

// collabEvent maps the begin/end events of sub-agent tools.
func (t *Translator) collabEvent(dst []event, c *ctx, typ string, m jsonscan.Value, thread string) []event {
	id := m.Get("call_id").Str
	key := "c:" + id
	name := "send_input"
	switch {
	case strings.HasPrefix(typ, "collab_agent_spawn"):
		name = "spawn_agent"
	case strings.HasPrefix(typ, "collab_waiting"):
		name = "wait"
	case strings.HasPrefix(typ, "collab_close"):
		name = "close_agent"
	case strings.HasPrefix(typ, "collab_resume"):
		name = "resume_agent"
	}
	args := obj()
	if p := m.Get("prompt"); p.Type == gjson.String {
		args.String("prompt", p.Str)
	}
	var receivers []string
	for _, f := range [...]string{"receiver_thread_id", "new_thread_id"} {
		if r := m.Get(f); r.Type == gjson.String && r.Str != "" {
			receivers = append(receivers, r.Str)
		}
	}
	m.Get("receiver_thread_ids").ForEach(func(_, r gjson.Result) bool {
		receivers = append(receivers, r.Str)
		return true
	})
	if len(receivers) > 0 && !strings.HasPrefix(typ, "collab_agent_spawn") {
		args.Strings("receiver_thread_ids", receivers)
	}
	spec := toolSpec{native: t.w.Copy(id), thread: thread, callID: t.w.Copy(id), name: name, args: t.str(args.Bytes())}
	dst, _ = t.collabCall(dst, c, key, &spec, !strings.HasSuffix(typ, "_begin"), receivers)
	if strings.HasSuffix(typ, "_begin") {
		return dst
	}
	// The output: what the agents said, or whom the call reached. Only
	// a wait's states are the agents' answer (see statesAnswer): those of
	// a send_input, a close or a resume are what the call found (a
	// send_input's, the receiver's answer to its previous task), kept in
	// metadata.
	var msgs []string
	answer := statesAnswer(name)
	m.Get("agent_statuses").ForEach(func(_, a gjson.Result) bool {
		msgs = agentMessages(a.Get("status"), msgs)
		return true
	})
	if len(msgs) == 0 {
		// The same states by thread id (0.118–0.146 write both).
		m.Get("statuses").ForEach(func(_, st gjson.Result) bool {
			msgs = agentMessages(st, msgs)
			return true
		})
	}
	if len(msgs) == 0 {
		msgs = agentMessages(m.Get("status"), msgs)
	}
	var md []byte
	if !answer {
		msgs = msgs[:0]
		for _, k := range [...]string{"agent_statuses", "statuses", "status"} {
			if st := m.Get(k); st.Exists() && st.Type != gjson.Null && st.Raw != "{}" && st.Raw != "[]" {
				md = obj().Raw("agents_states", st.Raw).Bytes()
				break
			}
		}
	}
	out := strings.Join(msgs, "\n")
	if out == "" {
		out = strings.Join(receivers, "\n")
	}
	res := resultSpec{output: t.w.Copy(out), meta: md}
	spec.keep = true
	switch typ {
	case "collab_agent_spawn_end":
		res = t.spawnEnd(m, receivers)
		if t.format == FormatRollout && id != "" {
			// The function_call_output that follows says what the model
			// saw (the agent's id and nickname, or why the spawn failed).
			return t.holdResult(dst, key, &spec, &res, c.raw)
		}
	case "collab_waiting_end", "collab_agent_interaction_end", "collab_close_end", "collab_resume_end":
		if t.format == FormatRollout && id != "" {
			// The function_call_output that follows has the agents'
			// states and whether the wait timed out (an end with no
			// statuses: the event alone says nothing of it).
			return t.holdResult(dst, key, &spec, &res, c.raw)
		}
	}
	return t.toolResult(dst, key, &spec, &res, agent, c.raw)
}

// spawnEnd describes the result of a collab_agent_spawn_end: the new
// agent's thread id (its status, a plain string such as "pending_init",
// is only a status), or a failure when no thread was made ("not_found"),
// with the new agent's thread id, nickname, role, model and reasoning
// effort and the status in metadata.
func (t *Translator) spawnEnd(m jsonscan.Value, receivers []string) resultSpec {
	var msgs []string
	if st := m.Get("status"); st.Type != gjson.String {
		msgs = agentMessages(st, msgs)
	}
	out := strings.Join(msgs, "\n")
	if out == "" {
		out = strings.Join(receivers, "\n")
	}
	o := obj()
	for _, f := range [...]string{"new_thread_id", "new_agent_nickname", "new_agent_role", "model", "reasoning_effort", "status"} {
		if v := m.Sub(f); v.Exists() && v.Type() != gjson.Null && !(v.Type() == gjson.String && v.Raw() == `""`) {
			o.RawClean(f, v.Compacted())
		}
	}
	res := resultSpec{output: t.w.Copy(out)}
	if o.Len() > 0 {
		res.meta = o.Bytes()
	}
	if len(receivers) == 0 {
		// No agent was made.
		res.failed, res.isError = true, true
	}
	return res
}

// legacyRequest maps the approval and question events of the pre-0.44 exec
// stream (it has no server requests).
func (t *Translator) legacyRequest(dst []event, c *ctx, typ string, m jsonscan.Value, thread string) []event {
	id := m.Get("call_id").Str
	if id == "" {
		id = m.Get("id").Str
	}
	key := "e" + typ + ":" + id
	req := &request{ID: t.w.Copy(id), Method: typ, CallID: t.w.CopyValue(m.Get("call_id"))}
	if n := t.item("c:" + req.CallID); n != nil {
		req.Item = n.ID
		if n.Uses > 0 {
			req.CallID = n.CallID
		}
	}
	o := obj().String("event", typ)
	for _, f := range [...]string{"reason", "cwd", "command", "changes", "grant_root", "questions", "server_name", "message"} {
		if v := m.Sub(f); v.Exists() && v.Type() != gjson.Null {
			o.RawClean(f, v.Compacted())
		}
	}
	switch typ {
	case "exec_approval_request":
		req.Action = t.w.Copy(joinArgv(m.Get("command")))
		return t.requestPermission(dst, key, req, o.Bytes(), agent, c.raw)
	case "apply_patch_approval_request":
		var paths []string
		m.Get("changes").ForEach(func(k, _ gjson.Result) bool {
			paths = append(paths, k.Str)
			return true
		})
		req.Action = t.w.Copy("edit " + strings.Join(paths, ", "))
		return t.requestPermission(dst, key, req, o.Bytes(), agent, c.raw)
	case "request_user_input":
		var qs []string
		m.Get("questions").ForEach(func(_, q gjson.Result) bool {
			qs = append(qs, q.Get("question").Str)
			return true
		})
		req.Prompt = t.w.Copy(strings.Join(qs, "\n"))
	default:
		req.Prompt = t.w.CopyValue(m.Get("message"))
	}
	req.Options = []string{}
	_ = thread
	return t.askQuestion(dst, key, req, o.Bytes(), agent, c.raw)
}

// guardian maps the automatic reviewer's assessment of an action (the
// rollout's guardian_assessment event): a permission asked of the
// reviewer and its decision.
func (t *Translator) guardian(dst []event, c *ctx, m jsonscan.Value) []event {
	target := m.Get("target_item_id").Str
	r := autoReview{id: m.Get("id").Str, item: "c:" + target, target: target, status: m.Get("status").Str, action: m.Sub("action")}
	for i, f := range reviewFields {
		r.fields[i] = m.Sub(f)
	}
	return t.reviewerPermission(dst, c, &r)
}

// autoReview is one assessment of Codex's automatic approval reviewer
// ("guardian", "auto-review"): a rollout's guardian_assessment event and
// the app-server's item/autoApprovalReview/started and /completed
// notifications carry the same facts, in snake_case and in camelCase.
type autoReview struct {
	id     string // the review's stable id
	item   string // the reviewed item's key
	target string // the reviewed item's native id ("" for a network access)
	status string
	action jsonscan.Value
	fields [len(reviewFields)]jsonscan.Value
}

// reviewFields are the reviewer's verdict kept in a review's metadata,
// under these names (a rollout's own; the app-server's are read into
// them).
var reviewFields = [...]string{"risk_level", "user_authorization", "rationale", "decision_source"}

// reviewerPermission reports a review as a permission the reviewer was
// asked ("guardian:<review id>", decided_by "reviewer", the reviewed
// action in metadata) and, once it decided, its resolution: approved, or
// denied (denied, timed out, aborted). A review without an item (a
// network access) is a permission of its own.
func (t *Translator) reviewerPermission(dst []event, c *ctx, r *autoReview) []event {
	key := "g" + r.id
	req := &request{ID: t.w.Copy("guardian:" + r.id), Action: t.w.Copy(reviewAction(r.action)), CallID: t.w.Copy(r.target)}
	if n := t.item(r.item); n != nil && r.target != "" {
		req.Item = n.ID
	}
	if q := t.st.Reqs[key]; q != nil {
		req = q
	}
	meta := obj().String("decided_by", "reviewer")
	meta.OptString("status", r.status)
	for i, f := range reviewFields {
		if v := r.fields[i]; v.Exists() && v.Type() != gjson.Null {
			meta.RawClean(f, v.Compacted())
		}
	}
	meta.Raw("action", r.action.Raw())
	md := meta.Bytes() // once: Bytes hands the buffer over
	if !t.w.PermissionPending(req.ID) {
		dst = t.requestPermission(dst, key, req, md, agent, c.raw)
	}
	switch r.status {
	case "approved":
		return t.resolvePermission(dst, key, true, md, agent, c.raw)
	case "denied", "timed_out", "timedOut", "aborted":
		return t.resolvePermission(dst, key, false, md, agent, c.raw)
	}
	return dst
}

// reviewAction names the action a review is about, as the approval
// request of the same action is named: the command, "edit <files>", the
// MCP tool's call name, "network <target>", "permissions", or the
// action's type. Both spellings of its type and members are read.
func reviewAction(a jsonscan.Value) string {
	get := func(snake, camel string) gjson.Result {
		if v := a.Get(snake); v.Exists() {
			return v
		}
		return a.Get(camel)
	}
	switch typ := a.Get("type").Str; typ {
	case "command":
		return joinArgv(a.Get("command"))
	case "execve":
		if s := joinArgv(a.Get("argv")); s != "" {
			return s
		}
		return a.Get("program").Str
	case "apply_patch", "applyPatch":
		var paths []string
		a.Get("files").ForEach(func(_, f gjson.Result) bool {
			paths = append(paths, f.String())
			return true
		})
		return "edit " + strings.Join(paths, ", ")
	case "mcp_tool_call", "mcpToolCall":
		return mcpToolName(a.Get("server").Str, get("tool_name", "toolName").Str)
	case "mcp_elicitation", "mcpElicitation":
		return get("server_name", "serverName").Str + ": " + a.Get("message").Str
	case "network_access", "networkAccess":
		if s := a.Get("target").Str; s != "" {
			return "network " + s
		}
		return "network " + a.Get("host").Str
	case "request_permissions", "requestPermissions":
		return "permissions"
	case "write_stdin", "writeStdin":
		return "write to process " + get("process_id", "processId").String()
	case "":
		// An action without its type (the first guardian releases read
		// its command whatever the type said): the command, if any.
		return joinArgv(a.Get("command"))
	default:
		return typ
	}
}

// callTokenCount maps a token_count event of the first releases (up to
// ~0.2x, the codex proto, codex mcp and pre-0.44 exec --json streams),
// whose msg was the usage of the model call just answered, flat
// ({"type":"token_count","input_tokens":…,"cached_input_tokens":…,
// "output_tokens":…,"reasoning_output_tokens":…,"total_tokens":…}: the
// protocol's EventMsg::TokenCount(TokenUsage), before TokenCountEvent
// put the running total and the last call under info). It is one call's
// usage, so it is reported as such; a turn's are summed.
func (t *Translator) callTokenCount(dst []event, c *ctx, m jsonscan.Value, thread string) []event {
	if t.st.Records {
		return dst
	}
	u := readCounts(m, &snakeUsage)
	if u.has == 0 {
		return dst
	}
	return t.usageMD(dst, t.w.Turn(), universal.ScopeCall, u, -1, t.callMD(thread), c.raw)
}

// tokenCount maps a token_count event: only a running total that moved is
// reported (the same totals are re-sent many times).
func (t *Translator) tokenCount(dst []event, c *ctx, info jsonscan.Value, thread string) []event {
	if !info.IsObject() {
		return dst
	}
	if w := countOf(info.Get("model_context_window")); w > 0 && t.isRoot(thread) {
		t.st.Window = w
	}
	if t.st.Records {
		return dst // token_usage_record gave the counts
	}
	cur := readCounts(info.Sub("total_token_usage"), &snakeUsage)
	if cur.has == 0 {
		return dst
	}
	root := t.isRoot(thread)
	if prev := t.lastTotal("t:", thread); root && prev != nil && prev.above(&cur) {
		// The running total went down: Codex counts from 0 again (a
		// resumed process writes on in the same rollout), and the
		// session's total is what it counted before plus the new one.
		if t.st.UsageBase == nil {
			t.st.UsageBase = new(usageVals)
		}
		base := t.st.UsageBase.counts()
		base.add(prev.counts())
		t.st.UsageBase.set(&base)
	}
	if !t.totalMoved("t:", thread, &cur) {
		return dst
	}
	window := countOf(info.Get("model_context_window"))
	turn := t.w.Turn()
	if last := info.Sub("last_token_usage"); last.IsObject() {
		dst = t.usageMD(dst, turn, universal.ScopeCall, readCounts(last, &snakeUsage), window, t.callMD(thread), c.raw)
	}
	if !root {
		return dst
	}
	if t.st.UsageBase != nil {
		cur.add(t.st.UsageBase.counts())
	}
	return t.usage(dst, turn, universal.ScopeSession, cur, window, c.raw)
}

// timerFired reads the user message a thread timer of pre-release Codex
// builds put into the thread, one <timer_fired> block {id, trigger,
// delivery, recurring, prompt, instructions} (openai/codex: the core's
// timer_prompt_input_item, the TUI's parse_timer_fired_user_message,
// which shows the prompt alone): its prompt and the timer's id; false for
// any other message.
func timerFired(msg string) (prompt, id string, ok bool) {
	s := strings.TrimSpace(msg)
	const open, end = "<timer_fired>", "</timer_fired>"
	if !strings.HasPrefix(s, open) || !strings.HasSuffix(s, end) {
		return "", "", false
	}
	s = s[len(open) : len(s)-len(end)]
	tag := func(name string) (string, bool) {
		_, rest, ok := strings.Cut(s, "<"+name+">")
		if !ok {
			return "", false
		}
		v, _, ok := strings.Cut(rest, "</"+name+">")
		return v, ok
	}
	prompt, ok = tag("prompt")
	if !ok {
		return "", "", false
	}
	id, _ = tag("id")
	return strings.Trim(prompt, "\n"), strings.TrimSpace(id), true
}

// totalMoved records cur as the running total of a thread's usage (keyed
// by kind, "t:" for the legacy token_count and "a:" for the app-server's
// thread/tokenUsage/updated, and the thread) and reports whether it moved
// from the last one: a total that did not move reports no new call. The
// last total is looked up without making its key: most totals repeat the
// last one, and a thread's key is made once.
func (t *Translator) totalMoved(kind, thread string, cur *counts) bool {
	prev := t.lastTotal(kind, thread)
	if prev != nil && prev.same(cur) {
		return false
	}
	if prev != nil {
		prev.set(cur) // events copy the counts: the state's are its own
	} else {
		first := cur.vals()
		put(&t.st.Usage, kind+thread, &first)
	}
	return true
}

// lastTotal returns the last running total of a thread (state.Usage, by
// kind as totalMoved keeps them), looked up without making its key: a
// key made by concatenation is a new string each time once it is longer
// than the compiler's buffer for it (a thread id is 36 bytes), and a
// token_count line looks its thread's total up twice.
func (t *Translator) lastTotal(kind, thread string) *usageVals {
	var kb [64]byte
	k := append(append(kb[:0], kind...), thread...)
	return t.st.Usage[string(k)]
}

// maxSearches bounds the web searches remembered for their records.
const maxSearches = 16

// searched remembers the action of a web_search_end (see searchSeen).
func (t *Translator) searched(action string) {
	if len(t.st.Searches) == maxSearches {
		t.st.Searches = append(t.st.Searches[:0], t.st.Searches[1:]...)
	}
	t.st.Searches = append(t.st.Searches, strings.Clone(action))
}

// searchSeen reports whether a web_search_call without an id records a
// search a web_search_end translated already: the same action, which it
// then forgets. Codex 0.136 writes the event (with its call_id) and then
// the response item (without one) for each search; a search whose action
// the event names {"type":"other"} has a response item without an action
// (0.118).
func (t *Translator) searchSeen(action jsonscan.Value) bool {
	a := `{"type":"other"}`
	switch {
	case action.IsObject():
		a = action.Compacted()
	case action.Exists() && action.Type() != gjson.Null:
		return false
	}
	for i, s := range t.st.Searches {
		if s == a {
			t.st.Searches = append(t.st.Searches[:i], t.st.Searches[i+1:]...)
			return true
		}
	}
	return false
}
