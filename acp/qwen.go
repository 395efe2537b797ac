package acp

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// mQwenEndTurn is Qwen Code's notification that a turn it started itself
// ended (QwenLM/qwen-code packages/cli/src/acp-integration/session/
// Session.ts, #emitBackgroundNotificationEndTurn).
const mQwenEndTurn = "_qwencode/end_turn"

// mQwenSlashCommand is how Qwen Code before 0.21 sent a slash command's
// output (Session.ts #processSlashCommandResult, a "message" result;
// later versions send it as a discrete agent_message_chunk whose
// _meta.source is "slash_command").
const mQwenSlashCommand = "_qwencode/slash_command"

// qwenEndTurn translates Qwen Code's _qwencode/end_turn {sessionId,
// reason, source}. When a background agent, monitor or shell it runs
// ends, Qwen Code wakes the model with the task's notification on its
// own (source "background_notification"): no session/prompt, no
// response; the turn's updates come outside any prompt (the notification
// and the model's answer as discrete agent_message_chunks, its calls, its
// usage), and this notification alone ends it, with the prompt's stop
// reason (end_turn, cancelled when a prompt of the host or a
// session/cancel aborted it, or the reason a failed model call gave). So
// it ends the session's open live turn when no prompt of the host waits
// for its response (a prompt aborts the background turn, whose end then
// comes while the prompt's turn runs): by its reason, as a response
// would, {"stop_reason", "source"} in its metadata. Another session's
// (a sub-agent's) is not the session's turn.
func (t *Translator) qwenEndTurn(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	if !t.st.Turn.Open || t.st.Turn.Replay {
		return dst
	}
	if sid := params.Get("sessionId").Str; t.subCall(sid) != nil ||
		sid != "" && len(t.st.Sessions) > 0 && !t.st.Sessions[sid] && sid != t.w.Stamper().NativeSessionID() {
		return dst
	}
	if t.promptWaits() {
		return dst // the prompt's response ends the turn
	}
	reason := params.Get("reason")
	var md jsonw.Object
	if reason.Type == gjson.String {
		md.OptString("stop_reason", t.copy(reason.Str))
	}
	if s := params.Get("source"); s.Type == gjson.String {
		md.OptString("source", t.copy(s.Str))
	}
	return t.endOwnTurn(dst, in, reason.Str, jsonscan.Value{}, &md)
}

// qwenDiscrete reads a Qwen Code chunk's _meta.qwenDiscreteMessage: the
// chunk is a whole message of its own, not a piece of the response being
// streamed (a background task's notification and the model's answer to
// it, a slash command's output, the todo guard's continuation notice;
// Qwen Code's own clients keep each one apart, "keeps Qwen discrete
// messages separate when messageId is missing"). Its text part's
// metadata keeps _meta.source, _meta.backgroundTask (the task's id,
// status, kind and the call that started it) and _meta.rewritten: with
// its message rewrite middleware on, Qwen Code sends a rewritten summary
// of a message besides the original, both discrete, the copy marked
// rewritten "so consumers can distinguish the rewritten copy from the
// original chunk".
func qwenDiscrete(u jsonscan.Value) (bool, []byte) {
	m := u.Sub("_meta")
	if m.Get("qwenDiscreteMessage").Type != gjson.True {
		return false, nil
	}
	var md jsonw.Object
	if s := m.Get("source"); s.Type == gjson.String {
		md.String("source", s.Str)
	}
	m.Sub("backgroundTask").AddTo(&md, "background_task")
	if m.Get("rewritten").Type == gjson.True {
		md.Bool("rewritten", true)
	}
	if md.Len() == 0 {
		return true, nil
	}
	return true, md.Bytes()
}

// qwenSlashCommand translates Qwen Code's _qwencode/slash_command
// {sessionId, command, messageType: info|error, message}: the output of a
// slash command the prompt ran, which no model wrote and no
// session/update carries. It is an assistant message of its own, as the
// later versions' discrete chunk is, its text part's metadata {"source":
// "slash_command", "command", "message_type"}. An error's prompt then
// fails (its response is the JSON-RPC error).
func (t *Translator) qwenSlashCommand(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	msg := params.Get("message")
	if msg.Type != gjson.String || msg.Str == "" {
		return dst
	}
	if t.subCall(params.Get("sessionId").Str) != nil {
		return dst // not the session's own
	}
	dst = t.work(dst, in.raw)
	dst = t.closeUser(dst, in.raw)
	var md jsonw.Object
	md.String("source", "slash_command")
	if c := params.Get("command"); c.Type == gjson.String {
		md.String("command", c.Str)
	}
	if m := params.Get("messageType"); m.Type == gjson.String {
		md.String("message_type", m.Str)
	}
	_, sc := t.scope(nil)
	return t.wholeMessage(dst, sc, "", msg.Str, md.Bytes(), in.raw)
}

// wholeMessage emits a complete assistant message of the scope with one
// text part (metadata md): the scope's open message ends first, and the
// next chunk starts another.
func (t *Translator) wholeMessage(dst []universal.Event, sc *scope, nativeID, text string, md []byte, raw []byte) []universal.Event {
	t.st.Turn.Answered = true
	dst = t.newMessage(dst, sc, nativeID, raw)
	p := universal.Text(t.copy(text))
	p.Metadata = md
	var i int
	if dst, i = t.w.AddPart(dst, sc.Msg, p); i >= 0 {
		sc.Parts = append(sc.Parts, p.Type)
	}
	dst = t.closeMsg(dst, sc, agent, raw)
	sc.Open = false
	return dst
}
