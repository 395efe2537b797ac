package acp

import (
	"strings"

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

// Qwen Code's requests without the "_" of an extension method
// (QwenLM/qwen-code packages/acp-bridge bridgeTypes.ts; Session.ts calls
// the first two, the host the others).
//
// No "_" form of these or of mQwenNotify's names is read, because none
// is sent: the releases that have them (0.21.10, 0.23.4, 0.24.4, read in
// their npm packages) bundle @agentclientprotocol/sdk 0.13 or later,
// whose extMethod and extNotification send the name as given (up to
// 0.12.0 the SDK put a "_" before it), and their agent answers the
// host's only under the plain name (acpAgent's check of the method), so
// a "_craft/…" would go unanswered there too. A "_"-prefixed name stays
// an extension method, ignored as the protocol says.
//
//   - craft/drainMidTurnQueue {sessionId}, the agent's: between tool rounds
//     it pulls the messages the user typed while the turn ran, which the
//     host answers {items: [{content: [ContentBlock], displayText?}]} or
//     {messages: [string]} (hasQueuedPrompt beside them); each becomes
//     user input of the running turn, sent to the model with the tool
//     results, and no update echoes it (a session/load replays it as a
//     user_message_chunk). A host that does not know it answers "method
//     not found", and the agent stops asking.
//   - craft/claimTodoStopGuardContinuation {sessionId, promptId?}, the
//     agent's ({claimed, hasQueuedPrompt}): which queued prompt its todo
//     guard's continuation belongs to; no content.
//   - craft/cancelPendingPrompt {sessionId}, the host's: a session/cancel
//     the agent answers ({cancelled: true}).
//   - craft/todoStopGuardQueueReleased {sessionId, promptId}, the host's:
//     the prompt the todo guard waited for left the host's queue; no
//     content.
const (
	mQwenDrain        = "craft/drainMidTurnQueue"
	mQwenClaimGuard   = "craft/claimTodoStopGuardContinuation"
	mQwenCancelPrompt = "craft/cancelPendingPrompt"
	mQwenGuardRelease = "craft/todoStopGuardQueueReleased"
)

// qwenDrained translates the host's answer to Qwen Code's
// craft/drainMidTurnQueue: each message it hands over is the user's
// message in the running turn (the steering extension's injected
// message: text parts' metadata {"steering": "injected"}), in order; the
// items form, when present, is read before the messages form, as Qwen
// Code does, and an item without content blocks or a blank message is
// none. It was dropped: the drain was ignored whole, so a message the
// user sent during the turn showed nowhere while the answer to it did.
func (t *Translator) qwenDrained(dst []universal.Event, in *input, result, rpcErr jsonscan.Value) []universal.Event {
	if rpcErr.Exists() {
		return dst
	}
	if items := result.Sub("items"); items.IsArray() {
		items.Each(func(_ gjson.Result, item jsonscan.Value) bool {
			if c := item.Sub("content"); c.IsArray() && c.Len() > 0 {
				dst = t.injected(dst, in, t.blocks(nil, c), "injected")
			}
			return true
		})
		return dst
	}
	if msgs := result.Sub("messages"); msgs.IsArray() {
		msgs.ForEach(func(_, m gjson.Result) bool {
			if m.Type == gjson.String && strings.TrimSpace(m.Str) != "" {
				dst = t.injected(dst, in, []universal.Part{universal.Text(t.w.CopyValue(m))}, "injected")
			}
			return true
		})
	}
	return dst
}

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
	if !t.qwenOwn(params.Get("sessionId").Str) {
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

// qwenOwn reports whether a session id Qwen Code's notification names is
// the session's own (or none): not a sub-agent's nor another session's.
func (t *Translator) qwenOwn(sid string) bool {
	return t.subCall(sid) == nil &&
		(sid == "" || len(t.st.Sessions) == 0 || t.st.Sessions[sid] || sid == t.w.Stamper().NativeSessionID())
}

// mQwenNotify starts the names of Qwen Code's notifications to its host,
// sent without the "_" of an extension method
// (qwen/notify/session/<what> {v, sessionId, …}, QwenLM/qwen-code
// Session.ts and acpAgent.ts, which its own daemon's bridge reads).
const mQwenNotify = "qwen/notify/"

// qwenNotify translates Qwen Code's notifications (mQwenNotify): of the
// session's own,
//
//   - session/title-update {title, titleSource}, the title Qwen Code
//     gives the session (its automatic one, which no session_info_update
//     carries), is the session's title, as a session_info_update's;
//   - session/model-update {currentModelId} (a session/set_model or
//     set_config_option switched the model; ACP v1 has no update for
//     it) is a current_model_update, but while the host's request waits
//     for its response, which says the same;
//
// and the others carry nothing for the transcript: mode-update repeats
// the current_mode_update it sends ("legacyFrameSent": true),
// prompt-suggestion is a next prompt it suggests, recording-degraded,
// sources-changed, artifact-event, terminal-sequence and
// mcp-budget-event are its daemon's business. They were agent.unparsed
// (but mode-update), and the title was lost.
func (t *Translator) qwenNotify(dst []universal.Event, in *input, method string, params jsonscan.Value) []universal.Event {
	if !t.qwenOwn(params.Get("sessionId").Str) {
		return dst
	}
	switch method[len(mQwenNotify):] {
	case "session/title-update":
		return t.titleSet(dst, in, t.copy(params.Get("title").Str))
	case "session/model-update":
		if t.hostSetsModel() {
			return dst
		}
		if _, ok := updatedModel(params); ok {
			return t.modelUpdate(dst, in, params)
		}
	}
	return dst
}

// hostSetsModel reports whether a session/set_model or
// set_config_option of the host waits for its response.
func (t *Translator) hostSetsModel() bool {
	for k, r := range t.st.Requests {
		if (r.Method == mSetModel || r.Method == mSetConfig) && strings.HasPrefix(k, key(universal.In, "")) {
			return true
		}
	}
	return false
}

// qwenMidTurn reports whether a user_message_chunk is Qwen Code's replay
// of a message the user sent during a turn (one its
// craft/drainMidTurnQueue handed over): _meta {source:
// "mid_turn_message_injected", qwenDiscreteMessage: true} (its
// transcript replay of a mid_turn_user_message record, each of the
// message's blocks a chunk).
func qwenMidTurn(u jsonscan.Value) bool {
	return u.Get("_meta.source").Str == "mid_turn_message_injected"
}
