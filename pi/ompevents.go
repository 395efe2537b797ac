package pi

import (
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

var errIrcMessage = errors.New("irc_message: message is not an object")

// isFalse reports a JSON false (not an absent field).
func isFalse(r gjson.Result) bool { return r.Type == gjson.False }

// number is the raw text of a JSON number, "" for anything else.
func number(r gjson.Result) string {
	if r.Type != gjson.Number {
		return ""
	}
	return r.Raw
}

// ompEvent translates the events only oh-my-pi (omp, the fork of Pi)
// writes to --mode json and --mode rpc: the members of its
// AgentSessionEvent union that Pi's lacks
// (packages/coding-agent/src/session/agent-session-events.ts of
// @oh-my-pi/pi-coding-agent 18.3.4) and the frames its rpc mode adds
// (modes/rpc/rpc-types.ts, rpc-mode.ts). Their names are not Pi's, so a
// line needs no other sign of which agent wrote it. ok is false for a
// type that is not one of them.
func (t *Translator) ompEvent(dst []universal.Event, in *input, typ string) (_ []universal.Event, ok bool) {
	var md jsonw.Object
	switch typ {
	case "notice":
		// {level: info | warning | error, message, source?}: what omp
		// shows the user as a warning or an error line (a session file
		// that could not be written, a credential signed out).
		t.addValue(&md, "level", in.sub("level"))
		t.addValue(&md, "source", in.sub("source"))
		return t.status(dst, "notice", in.get("message").Str, md.Bytes(), "", in.raw), true
	case "retry_fallback_applied":
		// {from, to, role, reason?}: a retry goes on with another model.
		for _, k := range [...]string{"from", "to", "role", "reason"} {
			t.addValue(&md, k, in.sub(k))
		}
		return t.status(dst, "model_rerouted", in.get("from").Str+" → "+in.get("to").Str, md.Bytes(), "", in.raw), true
	case "retry_fallback_succeeded":
		// {model, role}: the fallback model answered.
		t.addValue(&md, "role", in.sub("role"))
		return t.status(dst, "model_fallback_succeeded", in.get("model").Str, md.Bytes(), "", in.raw), true
	case "ttsr_triggered":
		// {rules: Rule[]}: rules whose condition the model's output
		// matched; omp interrupts the response and injects them.
		rules := in.sub("rules")
		var names []string
		rules.Each(func(_ gjson.Result, r jsonscan.Value) bool {
			names = append(names, r.Get("name").Str)
			return true
		})
		t.addValue(&md, "rules", rules)
		return t.status(dst, "ttsr_triggered", joinList(names), md.Bytes(), "", in.raw), true
	case "todo_reminder":
		// {todos: TodoItem[], attempt, maxAttempts}: the model stopped
		// with todos open and is reminded of them.
		todos := in.sub("todos")
		t.addValue(&md, "todos", todos)
		md.Raw("attempt", number(in.get("attempt"))).Raw("maxAttempts", number(in.get("maxAttempts")))
		var open []string
		todos.Each(func(_ gjson.Result, td jsonscan.Value) bool {
			open = append(open, td.Get("content").Str)
			return true
		})
		return t.status(dst, "todo_reminder", joinList(open), md.Bytes(), "", in.raw), true
	case "irc_message":
		// {message: CustomMessage}: a message another agent sent this
		// one (customType irc:incoming), or the observation of a relay.
		return t.ircMessage(dst, in), true
	case "goal_updated":
		// {goal: Goal | null, state?}: the goal /goal set or the
		// model's goal tool changed.
		return t.goal(dst, in), true
	case "session_settled":
		// rpc: the session went quiet after agent activity (the last run
		// yielded and no queued message or background job can wake it):
		// Pi's agent_settled.
		return t.settle(dst, false, agent, in.raw), true
	case "prompt_result":
		return t.promptResult(dst, in), true
	case "command_output":
		// rpc {text}: what a built-in slash command the host sent as a
		// prompt printed instead of running the agent.
		return t.status(dst, "command_output", in.get("text").Str, nil, "", in.raw), true
	case "session_info_update":
		// rpc {title, sessionId}: a slash command renamed the session.
		return t.title(dst, in.get("title").Str, nil, "", in.raw), true
	case "config_update":
		// rpc {model: Model, thinkingLevel}: a slash command changed
		// them.
		model := in.get("model.id").Str
		if p := in.get("model.provider").Str; p != "" && model != "" {
			model = p + "/" + model
		}
		t.addValue(&md, "thinkingLevel", in.sub("thinkingLevel"))
		return t.status(dst, "model", model, md.Bytes(), "", in.raw), true
	case "rpc_frame_error":
		// {originalType, error}: omp dropped a frame longer than its
		// transport allows (64 MiB, or 1 MiB before protocol version 2
		// when shrinking it did not help); what it carried is lost.
		t.addValue(&md, "originalType", in.sub("originalType"))
		return t.status(dst, "rpc_frame_error", in.get("error").Str, md.Bytes(), "", in.raw), true
	case "subagent_lifecycle", "subagent_event":
		return t.subagentFrame(dst, in, typ), true
	case "model_changed", "config_warnings_changed", "advisor_cost_changed", "advisor_yielded",
		"todo_auto_clear", "subagent_progress", "tool_stream_update", "ready", "available_commands_update",
		"host_tool_call", "host_tool_cancel", "host_uri_request", "host_uri_cancel":
		// On the ignore list (see the package documentation).
		return dst, true
	}
	return dst, false
}

// ompEventTypes and ompRPCTypes are ompEvent's types (the events of
// both modes, the frames only rpc mode writes), for the reader's checks
// before the session starts and for Detect.
var (
	ompEventTypes = map[string]bool{
		"notice": true, "retry_fallback_applied": true, "retry_fallback_succeeded": true, "ttsr_triggered": true,
		"todo_reminder": true, "irc_message": true, "goal_updated": true, "model_changed": true,
		"config_warnings_changed": true, "advisor_cost_changed": true, "advisor_yielded": true, "todo_auto_clear": true,
		"tool_stream_update": true,
	}
	ompRPCTypes = map[string]bool{
		"session_settled": true, "prompt_result": true, "command_output": true, "session_info_update": true,
		"config_update": true, "ready": true, "available_commands_update": true, "host_tool_call": true,
		"host_tool_cancel": true, "host_uri_request": true, "host_uri_cancel": true, "rpc_chunk": true,
		"rpc_frame_error": true, "subagent_lifecycle": true, "subagent_progress": true, "subagent_event": true,
	}
)

// maxIrc bounds the irc records remembered (see ircMessage).
const maxIrc = 16

// ircMessage translates irc_message: its custom message is a system
// item. omp may later put the same record into the model's context,
// which the stream shows as the message_end of a custom message: that
// one (same customType and timestamp) is not emitted again.
func (t *Translator) ircMessage(dst []universal.Event, in *input) []universal.Event {
	msg := in.sub("message")
	if !msg.IsObject() {
		return t.w.Unparsed(dst, in.where(), errIrcMessage, in.raw)
	}
	if len(t.st.Irc) >= maxIrc {
		t.st.Irc = append(t.st.Irc[:0], t.st.Irc[1:]...)
	}
	t.st.Irc = append(t.st.Irc, t.copy(ircKey(msg.Get("customType").Str, msg.Get("timestamp").Raw)))
	return t.custom(dst, in, msg, "")
}

// ircKey names an irc record.
func ircKey(customType, timestamp string) string { return customType + "\x00" + timestamp }

// ircSeen reports, and forgets, a custom message that an irc_message
// already showed.
func (t *Translator) ircSeen(customType, timestamp string) bool {
	if len(t.st.Irc) == 0 {
		return false
	}
	k := ircKey(customType, timestamp)
	for i, s := range t.st.Irc {
		if s == k {
			t.st.Irc = append(t.st.Irc[:i:i], t.st.Irc[i+1:]...)
			return true
		}
	}
	return false
}

// goal translates goal_updated {goal: Goal {id, objective, status,
// tokenBudget?, tokensUsed, timeUsedSeconds, createdAt, updatedAt} |
// null, state?: {enabled, mode, reason?, goal}} as Codex's goal updates
// are: a status item labelled "goal" (detail the objective and its
// status, the goal and the state in metadata) when the objective or the
// status changes (updates of the usage alone make none), and
// "goal_cleared" when a goal there was is gone.
func (t *Translator) goal(dst []universal.Event, in *input) []universal.Event {
	g := in.sub("goal")
	if !g.IsObject() {
		if t.st.Goal == "" {
			return dst
		}
		t.st.Goal = ""
		return t.status(dst, "goal_cleared", "", nil, "", in.raw)
	}
	objective, status := g.Get("objective").Str, g.Get("status").Str
	key := status + "\x00" + objective
	if key == t.st.Goal {
		return dst
	}
	t.st.Goal = t.copy(key)
	detail := objective
	if status != "" {
		detail += " (" + status + ")"
	}
	var md jsonw.Object
	t.addValue(&md, "goal", g)
	t.addValue(&md, "state", in.sub("state"))
	return t.status(dst, "goal", detail, md.Bytes(), "", in.raw)
}

// promptResult translates the rpc prompt_result {id?, agentInvoked,
// status: completed | aborted | error, error?: {message, provider?,
// model?, httpStatus?, retryable}, sessionSettled}, written once per
// accepted prompt after the work it caused yielded. Its status is read
// from the run's last assistant message, which the stream showed (a
// failed one left its error pending, an aborted one interrupts the
// turn): a prompt aborted ends the turn interrupted (a session switch
// aborts runs that end no other way); an error the turn does not have
// yet (the prompt failed before reaching the agent) is an error.
func (t *Translator) promptResult(dst []universal.Event, in *input) []universal.Event {
	switch in.get("status").Str {
	case "aborted":
		return t.settle(dst, true, agent, in.raw)
	case "error":
		tr := &t.st.Turn
		if t.inTurn() && (tr.ErrSet || tr.Errored) {
			return dst
		}
		var md jsonw.Object
		e := in.sub("error")
		md.Raw("http_status", number(e.Get("httpStatus")))
		t.addValue(&md, "retryable", e.Sub("retryable"))
		t.addValue(&md, "provider", e.Sub("provider"))
		t.addValue(&md, "model", e.Sub("model"))
		t.addValue(&md, "agentInvoked", in.sub("agentInvoked"))
		if t.inTurn() {
			tr.Errored = true
		}
		return t.error(dst, e.Get("message").Str, "prompt_result", md.Bytes(), false, agent, in.raw)
	}
	return dst
}

// joinList joins names for a status item's detail.
func joinList(names []string) string {
	n := 0
	for _, s := range names {
		n += len(s) + 2
	}
	b := make([]byte, 0, n)
	for i, s := range names {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, s...)
	}
	return string(b)
}

// maxChunked and maxChunks bound a frame reassembled from rpc chunks
// (oh-my-pi's MAX_RPC_REASSEMBLED_BYTES, and its chunks of 256 KiB).
const (
	maxChunked = 64 << 20
	maxChunks  = maxChunked / (256 << 10)
)

// chunk reads an rpc_chunk {chunkId, index, count, byteLength, data}: a
// frame longer than 1 MiB that oh-my-pi's rpc mode split, once the host
// negotiated protocol version 2 (its own RpcClient does), into lines each
// carrying the base64 of a piece of the frame's JSON text, one after the
// other. The pieces are decoded as they come and the frame, once whole,
// is translated as a line. A chunk out of sequence, or a line that
// interrupts a sequence (omp writes none: its own decoder refuses it),
// loses the frame: agent.unparsed, and the line that interrupted it is
// translated (typ is its type; "" when the line was consumed).
func (t *Translator) chunk(dst []universal.Event, in *input) (_ []universal.Event, typ string) {
	c := t.st.Chunk
	if in.typ.Str != "rpc_chunk" {
		t.st.Chunk = nil
		dst = t.w.Unparsed(dst, in.where(), fmt.Errorf("rpc_chunk %q: %d of %d chunks, then a %q line", c.ID, c.Next, c.Count, in.typ.Str), nil)
		return dst, in.typ.Str
	}
	id, index, count, length, data := in.get("chunkId"), in.get("index"), in.get("count"), in.get("byteLength"), in.get("data")
	ok := id.Type == gjson.String && id.Str != "" && data.Type == gjson.String && isInt(index) && isInt(count) && isInt(length) &&
		count.Int() >= 2 && count.Int() <= maxChunks && index.Int() >= 0 && index.Int() < count.Int() &&
		length.Int() > 0 && length.Int() <= maxChunked
	if ok && index.Int() == 0 {
		if c != nil {
			dst = t.w.Unparsed(dst, in.where(), fmt.Errorf("rpc_chunk %q: %d of %d chunks, then another frame", c.ID, c.Next, c.Count), nil)
		}
		c = &chunked{ID: t.copy(id.Str), Count: int(count.Int()), Length: int(length.Int())}
		t.st.Chunk = c
	}
	if !ok || c == nil || c.ID != id.Str || c.Count != int(count.Int()) || c.Length != int(length.Int()) || c.Next != int(index.Int()) {
		t.st.Chunk = nil
		return t.w.Unparsed(dst, in.where(), errChunk, in.raw), ""
	}
	var err error
	if c.Data, err = base64.StdEncoding.AppendDecode(c.Data, []byte(data.Str)); err != nil || len(c.Data) > c.Length {
		t.st.Chunk = nil
		return t.w.Unparsed(dst, in.where(), errChunk, in.raw), ""
	}
	c.Next++
	if c.Next < c.Count {
		return dst, ""
	}
	t.st.Chunk = nil
	if len(c.Data) != c.Length {
		return t.w.Unparsed(dst, in.where(), errChunk, in.raw), ""
	}
	return t.translate(dst, universal.Message{Data: c.Data, Line: in.line, Dir: in.dir, TimeMS: -1}), ""
}

var errChunk = errors.New("rpc_chunk out of sequence, malformed, or not its frame's length")

// isInt reports a JSON integer.
func isInt(r gjson.Result) bool {
	return r.Type == gjson.Number && float64(r.Int()) == r.Num
}
