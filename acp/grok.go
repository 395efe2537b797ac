package acp

import (
	"strconv"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Grok Build's vendor twins of session/update: the same envelope
// {sessionId, update: {sessionUpdate, …}}, carrying the kinds ACP does
// not define (_x.ai/session_notification; _x.ai/session/update in other
// builds, as public clients of Grok read both).
const (
	mGrokNotification = "_x.ai/session_notification"
	mGrokUpdate       = "_x.ai/session/update"
	// Methods of their own for a background task's end and a monitor's
	// line, in the same envelope; the task's move to the background
	// names the call it came from.
	mGrokTaskCompleted    = "_x.ai/task_completed"
	mGrokMonitorEvent     = "_x.ai/monitor_event"
	mGrokTaskBackgrounded = "_x.ai/task_backgrounded"
)

// grokNotification translates Grok Build's vendor session notifications.
// Of their kinds (model_changed, session_summary_generated,
// tool_call_delta_chunk, pending_interaction, interaction_resolved,
// response_completed, turn_completed, retry_state, background_tasks …),
// the sub-agent lifecycle is read: subagent_spawned {subagent_id,
// child_session_id, parent_session_id, subagent_type, description,
// model, …}, which names no tool call (it follows the spawn_subagent
// call), and subagent_finished {subagent_id, child_session_id?, status,
// output, tool_calls, turns, duration_ms, tokens_used, will_wake}, the
// child's id being its subagent_id, as public projects' notes of live
// grok 1.0.x runs and their clients' tests record them. They are the
// subagents RFD's subagent_spawned {subagentSessionId, name, task}
// (named by the session's running task call, when one runs: the child's
// updates go under it, as they do unannounced) and subagent_state_update
// {subagentSessionId, state}, Grok's update kept whole in the status
// item's _meta["x.ai/update"] (see subagentUpdate): a sub-agent spawned in
// the background, whose call has ended, is announced and its updates
// go under the announcement, not into the session's own response. The
// other kinds are ignored, as the protocol says of "_" methods (the
// prompt's answer repeats their usage and stop reason).
func (t *Translator) grokNotification(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	u := params.Sub("update")
	kind := u.Get("sessionUpdate").Str
	switch kind {
	case "task_completed", "monitor_event":
		return t.grokTask(dst, in, kind, u)
	case "task_backgrounded":
		t.grokBackgrounded(u)
		return dst
	case "turn_completed":
		return t.grokTurnCompleted(dst, in, params.Get("sessionId").Str, u)
	case "response_completed":
		return t.grokCallUsage(dst, in, params.Get("sessionId").Str, u)
	}
	if kind != "subagent_spawned" && kind != "subagent_finished" {
		return dst
	}
	child := u.Get("child_session_id").Str
	if child == "" {
		child = u.Get("subagent_id").Str
	}
	if child == "" {
		return dst
	}
	var o jsonw.Object
	if kind == "subagent_spawned" {
		o.String("sessionUpdate", "subagent_spawned").String("subagentSessionId", child)
		for _, f := range [...][2]string{{"name", "subagent_type"}, {"task", "description"}} {
			if v := u.Get(f[1]); v.Type == gjson.String {
				o.String(f[0], v.Str)
			}
		}
		// The session's own running task call spawned it (a sub-agent
		// of a sub-agent is not named by the session's calls).
		if t.subCall(params.Get("sessionId").Str) == nil {
			if p := t.spawner(); p != nil && p.UKind == universal.ToolTask {
				o.String("parentToolCallId", p.ID)
			}
		}
	} else {
		o.String("sessionUpdate", "subagent_state_update").String("subagentSessionId", child)
		if v := u.Get("status"); v.Type == gjson.String {
			o.String("state", v.Str)
		}
	}
	var meta jsonw.Object
	u.AddTo(&meta, "x.ai/update")
	o.RawBytes("_meta", meta.Bytes())
	return t.sessionUpdate(dst, in, params.Get("sessionId").Str, jsonscan.Wrap(gjson.ParseBytes(o.Bytes())))
}

// grokBackgrounded records which call a background task came from:
// _x.ai/task_backgrounded {tool_call_id, task_id, command, output_file,
// description, …} (the task id is a new one, or the call's own when a
// command ran past its foreground budget), read in its update or in its
// params.
func (t *Translator) grokBackgrounded(u jsonscan.Value) {
	task, call := u.Get("task_id").String(), u.Get("tool_call_id").String()
	if task == "" || call == "" || task == call {
		return
	}
	if t.st.GrokTasks == nil {
		t.st.GrokTasks = map[string]string{}
	}
	if len(t.st.GrokTasks) >= 1024 {
		clear(t.st.GrokTasks) // bounded: a session of endless tasks
	}
	t.st.GrokTasks[t.copy(task)] = t.copy(call)
}

// grokTask translates the end of a background task (task_completed
// {task_snapshot {task_id, command, cwd, output, truncated, exit_code,
// signal, kind: bash|monitor, explicitly_killed, description, …},
// will_wake}) and a monitor's line (monitor_event {task_id, description,
// event_text}), which Grok Build sends after the call that started the
// task answered (BackgroundTaskStarted, Monitor): a status item labelled
// with the kind, detail the output or the line, under the call while its
// turn runs; its metadata the task id, the call's id when known, the exit
// code and signal, will_wake and the snapshot (task_snapshot).
func (t *Translator) grokTask(dst []universal.Event, in *input, kind string, u jsonscan.Value) []universal.Event {
	snap := u
	detail := u.Get("event_text").Str
	if kind == "task_completed" {
		snap = u.Sub("task_snapshot")
		if !snap.IsObject() {
			snap = u // older builds: the snapshot's fields in the update
		}
		detail = snap.Get("output").Str
	}
	task := snap.Get("task_id").String()
	call := task
	if c, ok := t.st.GrokTasks[task]; ok {
		call = c
	}
	var md jsonw.Object
	md.OptString("task_id", task)
	parent := ""
	if tl := t.st.Tools[call]; tl != nil {
		parent = tl.Call
		md.String("tool_call_id", call)
	} else if call != task {
		md.String("tool_call_id", call)
	}
	if kind == "task_completed" {
		if c := snap.Get("exit_code"); c.Type == gjson.Number {
			md.Int("exit_code", c.Int())
		}
		if s := snap.Get("signal"); s.Type == gjson.String {
			md.String("signal", s.Str)
		}
		if w := u.Get("will_wake"); w.IsBool() {
			md.Bool("will_wake", w.Bool())
		}
		if snap.IsObject() && snap.Raw() != u.Raw() {
			snap.AddTo(&md, "task_snapshot")
		}
	} else {
		md.OptString("description", u.Get("description").Str)
	}
	return t.status(dst, kind, detail, md.Bytes(), parent, in.raw)
}

// grokTurnCompleted translates Grok Build's turn_completed {prompt_id,
// stop_reason, usage, elapsed_ms}, the end of each of the session's
// turns. A prompt the host sent ends with its response, which says the
// same; a turn Grok Build starts itself (a background task's or
// sub-agent's end, a monitor's line wakes the agent: no session/prompt,
// no response) ends only here. So it ends the session's open live turn
// when no prompt of the host waits for its response (on the agent's side
// alone, a response that comes after it then adds nothing): by its stop
// reason, as a response would, with its usage (scope turn). A sub-agent's
// session's turn_completed is the sub-agent's.
func (t *Translator) grokTurnCompleted(dst []universal.Event, in *input, sid string, u jsonscan.Value) []universal.Event {
	if !t.st.Turn.Open && (sid == "" || t.st.Sessions[sid] && t.subCall(sid) == nil) {
		// A turn that ended before it began (a prompt cancelled before
		// any update): its response, still to come, ends it. The turn
		// ended last was then one Grok started itself, which no
		// response follows.
		t.st.GrokEnded = false
		return dst
	}
	if !t.st.Turn.Open || t.st.Turn.Replay || sid != "" && (!t.st.Sessions[sid] || t.subCall(sid) != nil) || t.promptWaits() {
		return dst
	}
	reason := u.Get("stop_reason").String()
	var md jsonw.Object
	md.OptString("stop_reason", t.copy(reason)).OptString("prompt_id", t.copy(u.Get("prompt_id").String()))
	dst = t.endOwnTurn(dst, in, reason, u.Sub("usage"), &md)
	t.st.GrokEnded = true
	return dst
}

// promptWaits reports whether a prompt of the host waits for its
// response, which ends the turn.
func (t *Translator) promptWaits() bool {
	for _, r := range t.st.Requests {
		if r.Method == mPrompt {
			return true
		}
	}
	return false
}

// endOwnTurn ends the open live turn the agent started on its own, which
// no response ends (Grok Build's turn_completed, Qwen Code's end_turn):
// by its stop reason, as a response's would, with its usage (scope turn)
// when usage is an object, md its metadata.
func (t *Translator) endOwnTurn(dst []universal.Event, in *input, reason string, usage jsonscan.Value, md *jsonw.Object) []universal.Event {
	dst = t.closeUser(dst, in.raw)
	dst = t.closeMessages(dst, in.raw)
	status := universal.TurnCompleted
	if reason == "cancelled" || reason != "end_turn" && t.st.Turn.Cancelled {
		status = universal.TurnInterrupted
	}
	if usage.IsObject() {
		dst = t.usage(dst, usage, universal.ScopeTurn, nil, in.raw)
	}
	var mdb []byte
	if md.Len() > 0 {
		mdb = md.Bytes()
	}
	t.st.Failed = false
	return t.endTurn(dst, status, mdb, agent, in.raw)
}

// grokCallUsage translates Grok Build's response_completed {usage
// {input_tokens, output_tokens, cache_read_input_tokens,
// cache_creation_input_tokens, reasoning_tokens}}, sent after each model
// call (turn_completed's usage sums a turn's calls): usage.updated scope
// call. Its input_tokens leaves out the cache's reads and writes, as
// Anthropic's do, so the universal input is their sum. A sub-agent's
// session's calls are the sub-agent's: scope call of a turn the session
// never started, named by the sub-agent's session id (as a Codex
// sub-agent thread's calls are of its own turns), so that they count in
// the session's sum over turns apart from its turns'; the sub-agent's
// turn_completed adds nothing (its usage sums these calls).
func (t *Translator) grokCallUsage(dst []universal.Event, in *input, sid string, u jsonscan.Value) []universal.Event {
	us := u.Sub("usage")
	if !us.IsObject() {
		return dst
	}
	turn := ""
	if sid != "" && !t.st.Sessions[sid] {
		if t.subCall(sid) == nil {
			return dst // a session this connection did not announce
		}
		turn = t.copy(sid)
	}
	get := func(k string) gjson.Result {
		v := us.Get(k)
		if k == "input_tokens" && v.Type == gjson.Number {
			n := v.Int() + us.Get("cache_read_input_tokens").Int() + us.Get("cache_creation_input_tokens").Int()
			return gjson.Result{Type: gjson.Number, Num: float64(n), Raw: strconv.FormatInt(n, 10)}
		}
		return v
	}
	if turn != "" {
		return t.usageFor(dst, turn, get, universal.ScopeCall, nil, in.raw)
	}
	return t.usageOf(dst, get, universal.ScopeCall, nil, in.raw)
}
