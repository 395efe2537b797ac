package acp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/internal/mcp"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// startTurn opens a universal turn (a live prompt, or a replayed one).
func (t *Translator) startTurn(dst []universal.Event, replay bool, src universal.Source, raw []byte) []universal.Event {
	dst = t.begin(dst)
	if t.st.Turn.Open {
		if t.st.Turn.Replay {
			dst = t.endTurn(dst, universal.TurnCompleted, nil, daemon, raw)
		} else {
			// A prompt while another runs (ACP allows one at a time):
			// the first one is over.
			dst = t.endTurn(dst, universal.TurnInterrupted, nil, daemon, raw)
		}
	}
	var md []byte
	if replay {
		md = []byte(`{"replay":true}`)
	}
	dst, _ = t.w.StartTurn(dst, "", md, src, raw)
	t.st.Turn = turnState{Open: true, Replay: replay}
	t.st.GrokEnded = false
	return dst
}

// endTurn closes what the turn left open and ends it.
func (t *Translator) endTurn(dst []universal.Event, status universal.TurnStatus, md []byte, src universal.Source, raw []byte) []universal.Event {
	if !t.st.Turn.Open {
		return dst
	}
	dst = t.flushTerminals(dst, raw)
	dst = t.resultLater(dst, raw)
	dst = t.closeUser(dst, raw)
	dst = t.closeMessages(dst, raw)
	dst = t.closeCalls(dst, raw)
	dst = t.closeCompactions(dst, false, raw)
	dst = t.w.EndTurn(dst, "", status, md, src, raw)
	t.st.Turn = turnState{}
	// Calls the turn left without a final status were completed as
	// failed by the stream; forget them all, and the messages.
	t.st.Tools = nil
	t.st.Ended = t.st.Order
	t.st.Order = nil
	t.st.Scopes, t.main = nil, nil
	t.st.Terminals = nil
	// A sub-agent's session stays known, under no call now: a late
	// update of it is not taken for a new sub-agent of a later call.
	for _, sid := range t.st.TurnSubs {
		t.st.SubSessions[sid] = ""
	}
	t.st.TurnSubs = nil
	return dst
}

// closeCalls completes, as failed, the tool_call items of calls that never
// ran (a cancel, a turn that ended before them, a denial the agent sent
// no update after), with what the updates told of them; a permission
// request of such a call still without an answer is resolved denied, as
// inferred (the call did not run). Stream.EndTurn then fails the results
// left open.
func (t *Translator) closeCalls(dst []universal.Event, raw []byte) []universal.Event {
	for _, id := range t.st.Order {
		tl := t.st.Tools[id]
		if tl == nil || !t.w.IsOpen(tl.Call) {
			continue
		}
		dst = t.resolveInferred(dst, tl, false, raw)
		p := t.callPart(tl)
		p.Arguments = tl.Input
		if p.Arguments == "" {
			p.Arguments = "{}"
		}
		dst = t.w.Complete(dst, universal.Item{
			ItemID:   tl.Call,
			ParentID: tl.Msg,
			Kind:     universal.KindToolCall,
			Role:     universal.RoleAssistant,
			Content:  []universal.Part{p},
			Status:   universal.StatusFailed,
		}, srcOf(raw), raw)
		if len(tl.Files) > 0 && !tl.Done {
			// The agent read or wrote files for the call before the
			// input ended: it ran, and those files are its result's
			// file_refs (a failed result, no output).
			tl.Status = "failed"
			dst = t.completeResult(dst, tl, jsonscan.Value{}, raw)
		}
	}
	return dst
}

// work makes sure a turn is open before agent content is translated: on
// the agent's side alone (or content outside a prompt), a turn the host
// started without it being seen; during session/load, a replayed turn.
func (t *Translator) work(dst []universal.Event, raw []byte) []universal.Event {
	dst = t.begin(dst)
	if t.st.Turn.Open {
		return dst
	}
	if t.st.Loading {
		return t.startTurn(dst, true, daemon, raw)
	}
	return t.liveTurn(dst, raw)
}

// liveTurn makes sure a live (not replayed) turn is open: one the host
// started without it being seen, with the prompt the host reported.
func (t *Translator) liveTurn(dst []universal.Event, raw []byte) []universal.Event {
	if t.st.Turn.Open && !t.st.Turn.Replay {
		return dst
	}
	dst = t.startTurn(dst, false, daemon, raw)
	if len(t.st.Prompts) > 0 {
		p := t.st.Prompts[0]
		t.st.Prompts = t.st.Prompts[1:]
		dst = t.syntheticPrompt(dst, p)
		t.st.Turn.Prompted = true
	}
	return dst
}

// syntheticPrompt emits a user message the host sent and the record does
// not show.
func (t *Translator) syntheticPrompt(dst []universal.Event, text string) []universal.Event {
	return t.w.Complete(dst, universal.Item{
		ItemID:  t.w.NewItemID(),
		Kind:    universal.KindMessage,
		Role:    universal.RoleUser,
		Content: []universal.Part{universal.Text(text)},
	}, daemon, nil)
}

// prompt translates session/prompt: a turn starts with the prompt's
// content blocks as its user message (the host's own input, seen live:
// marked as an echo).
func (t *Translator) prompt(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	dst = t.startTurn(dst, false, agent, in.raw)
	blocks := params.Sub("prompt")
	if !blocks.Exists() {
		blocks = params.Sub("content") // drafts before v1
	}
	parts := t.blocks(nil, blocks)
	if len(t.st.Prompts) > 0 {
		// The host reported the prompt too: the request shows it.
		t.st.Prompts = t.st.Prompts[1:]
	}
	t.st.Turn.Prompted = true
	return t.echoMessage(dst, parts, in.raw)
}

// echoMessage completes the user's message of parts, the host's input
// (marked echo).
func (t *Translator) echoMessage(dst []universal.Event, parts []universal.Part, raw []byte) []universal.Event {
	return t.w.Complete(dst, universal.Item{
		ItemID:  t.w.NewItemID(),
		Kind:    universal.KindMessage,
		Role:    universal.RoleUser,
		Content: universal.MarkEcho(parts),
	}, agent, raw)
}

// blocks converts ACP content blocks (an array, or one block) to parts.
func (t *Translator) blocks(parts []universal.Part, blocks jsonscan.Value) []universal.Part {
	add := func(b jsonscan.Value) {
		switch b.Get("type").Str {
		case "text":
			parts = append(parts, universal.Text(t.w.CopyValue(b.Get("text"))))
		case "image":
			if img, ok := t.image(b); ok {
				parts = append(parts, img)
				break
			}
			parts = append(parts, universal.Part{Type: universal.PartJSON, JSON: []byte(t.withoutData(b))})
		default:
			// audio, resource_link, resource: kept whole.
			parts = append(parts, universal.Part{Type: universal.PartJSON, JSON: []byte(t.withoutData(b))})
		}
	}
	if blocks.IsArray() {
		blocks.Each(func(_ gjson.Result, b jsonscan.Value) bool { add(b); return true })
	} else if blocks.IsObject() {
		add(blocks)
	}
	return parts
}

// image returns the image part of an image content block: its mime type
// and, for a file URI, its path (the data stays in raw); false when the
// block has neither.
func (t *Translator) image(b jsonscan.Value) (universal.Part, bool) {
	p := universal.Part{Type: universal.PartImage, Mime: t.copy(b.Get("mimeType").Str), Path: t.copy(fileURIPath(b.Get("uri").Str))}
	return p, p.Mime != "" || p.Path != ""
}

// withoutData returns a content block's JSON in stable memory, with
// base64 payloads (image and audio data, blob resources) replaced by
// their length (see package mcp): they stay in raw.
func (t *Translator) withoutData(b jsonscan.Value) string {
	if s, ok := mcp.WithoutData(b.Result()); ok {
		return t.copyJSON(s)
	}
	return b.OwnJSON(t.w.Copy)
}

// fileURIPath returns the path of a file:// URI, "" for other URIs.
func fileURIPath(uri string) string {
	if p, ok := strings.CutPrefix(uri, "file://"); ok {
		return p
	}
	return ""
}

// promptResult translates the response to session/prompt: the turn ends
// as its stop reason says.
func (t *Translator) promptResult(dst []universal.Event, in *input, result jsonscan.Value) []universal.Event {
	if !t.st.Turn.Open && t.st.GrokEnded {
		// Grok Build's turn_completed ended the turn already.
		t.st.GrokEnded = false
		return dst
	}
	dst = t.liveTurn(dst, in.raw)
	dst = t.closeUser(dst, in.raw)
	dst = t.closeMessages(dst, in.raw)
	reason := result.Get("stopReason").String()
	status := universal.TurnCompleted
	switch reason {
	case "cancelled":
		status = universal.TurnInterrupted
	case "end_turn", "max_tokens", "max_turn_requests", "refusal":
	default:
		if t.st.Turn.Cancelled {
			status = universal.TurnInterrupted
		}
	}
	if u := result.Sub("usage"); u.IsObject() {
		dst = t.usage(dst, u, t.promptUsageScope(), nil, in.raw)
	} else if u := result.Sub("_meta.usage"); u.IsObject() {
		dst = t.usage(dst, u, universal.ScopeTurn, nil, in.raw)
	} else if u := result.Sub("_meta.quota.token_count"); u.IsObject() {
		// Gemini CLI gives the turn's tokens only in its quota.
		dst = t.usage(dst, u, universal.ScopeTurn, nil, in.raw)
	}
	if reason == "end_turn" && t.st.Turn.Failed {
		// Copilot CLI told the failure as an "Error: " notice (its error
		// event already emitted) and answers end_turn.
		var md jsonw.Object
		md.String("stop_reason", "end_turn")
		t.st.Failed = true
		return t.endTurn(dst, universal.TurnError, md.Bytes(), agent, in.raw)
	}
	if reason == "error" && status != universal.TurnInterrupted {
		// The stop reason ACP v2 names ErrorStopReason ({error: a
		// JSON-RPC error}): the work failed. Some v1 agents answer a
		// failed prompt with it (DeepSeek Reasonix, without the error),
		// beyond v1's enum; it is read as an error response to the
		// prompt is, with the usage it brings.
		return t.agentError(dst, in, mPrompt, result.Sub("error"))
	}
	var md jsonw.Object
	md.OptString("stop_reason", t.copy(reason))
	if t.st.Turn.Cancelled {
		md.Bool("cancel_requested", true)
	}
	result.Sub("_meta.quota").AddTo(&md, "quota")
	var mdb []byte
	if md.Len() > 0 {
		mdb = md.Bytes()
	}
	t.st.Failed = false
	return t.endTurn(dst, status, mdb, agent, in.raw)
}

// update translates a session/update notification.
func (t *Translator) update(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	// One walk over params (of duplicate members the first counts, as in
	// a lookup).
	var u, sidV, kind jsonscan.Value
	params.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "update":
			jsonscan.KeepFirst(&u, v)
		case "sessionId":
			jsonscan.KeepFirst(&sidV, v)
		case "sessionUpdate":
			jsonscan.KeepFirst(&kind, v)
		}
		return true
	})
	if !u.IsObject() {
		if kind.Exists() {
			u = params // drafts before v1 put the update in params
		} else {
			return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: session/update without an update", errBadParams), in.raw)
		}
	}
	sid := sidV.Str()
	if t.w.Stamper().NativeSessionID() == "" && sid != "" {
		t.w.SetNativeSessionID(sid)
		t.ownSession(sid)
	}
	return t.sessionUpdate(dst, in, sid, u)
}

// childSessionMeta is the _meta key OpenCode 2.x names a sub-agent's
// session by ({id, parentID, title}) on the updates of it that it
// projects onto the session's.
const childSessionMeta = `opencode/child-session`

// childUpdate translates OpenCode 2.x's opencode/session/child_update
// (sent to a client that declares _meta "opencode/child-session-updates"):
// {rootSessionId, childSessionId, parentSessionId, depth, title?, type:
// "update", update} is one session/update of the sub-agent's session
// childSessionId; type "status" (created, running, completed, failed,
// interrupted) is the sub-agent's life, which its spawning call's result
// tells, and gives nothing.
func (t *Translator) childUpdate(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	child := params.Get("childSessionId").Str
	switch params.Get("type").Str {
	case "status":
		if child != "" {
			return dst
		}
	case "update":
		if u := params.Sub("update"); child != "" && u.IsObject() {
			return t.sessionUpdate(dst, in, child, u)
		}
	}
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: opencode/session/child_update without a childSessionId and an update or status", errBadParams), in.raw)
}

// sessionUpdate translates the update u of session sid.
func (t *Translator) sessionUpdate(dst []universal.Event, in *input, sid string, u jsonscan.Value) []universal.Event {
	// One walk over the update reads what a chunk (the frequent update)
	// needs; of duplicate members the first counts, as in a lookup.
	var kindV, content, mid, metaV jsonscan.Value
	meta := false
	u.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "sessionUpdate":
			jsonscan.KeepFirst(&kindV, v)
		case "content":
			jsonscan.KeepFirst(&content, v)
		case "messageId":
			jsonscan.KeepFirst(&mid, v)
		case "_meta":
			meta = true
			jsonscan.KeepFirst(&metaV, v)
		}
		return true
	})
	if meta {
		if child := metaV.Get(childSessionMeta + ".id").Str; child != "" {
			// OpenCode 2.x projects a sub-agent's update onto the
			// session's and names the sub-agent's session in _meta.
			sid = child
		}
	}
	t.sub, t.subKey = t.subCall(sid), ""
	if t.sub != nil {
		t.subKey = subScopePrefix + sid
	}
	kind := kindV.Str()
	if kind == "agent_message_chunk" || kind == "agent_thought_chunk" {
		// The frequent update, without the cost of a defer.
		dst = t.agentChunk(dst, in, u, chunk{content: content, messageID: mid.Str(), meta: meta}, kind == "agent_thought_chunk")
		t.sub, t.subKey = nil, ""
		return dst
	}
	defer func() { t.sub, t.subKey = nil, "" }()
	switch kind {
	case "user_message_chunk":
		return t.userChunk(dst, in, u)
	case "user_message":
		return t.userMessage(dst, in, u)
	case "state_update":
		return t.stateUpdate(dst, in, u)
	case "agent_message", "agent_thought":
		return t.agentMessage(dst, in, u, kind == "agent_thought")
	case "tool_call_content_chunk":
		return t.toolContentChunk(dst, in, u)
	case "tool_call":
		return t.toolCall(dst, in, u, true)
	case "tool_call_update":
		return t.toolCall(dst, in, u, false)
	case "plan":
		return t.plan(dst, in, u)
	case "available_commands_update":
		return t.sessionInfo(dst, in, "available_commands", u.Sub("availableCommands"), "")
	case "current_mode_update":
		v := u.Sub("currentModeId")
		return t.modeChange(dst, in, u.Get("currentModeId").String(), &v)
	case "current_model_update":
		return t.modelUpdate(dst, in, u)
	case "config_option_update":
		opts := u.Sub("configOptions")
		dst = t.sessionInfo(dst, in, "config_options", opts, "")
		if t.sub != nil {
			return dst
		}
		return t.configMode(dst, in, opts)
	case "session_info_update":
		dst = t.sessionInfoUpdate(dst, in, u)
		return t.kiroTurnCompletion(dst, in, sid, u)
	case "usage_update":
		return t.usageUpdate(dst, in, u)
	case "notice":
		// Unstable (RFD session-notices): advisory, live only.
		dst = t.begin(dst)
		var md jsonw.Object
		md.Raw("severity", u.Sub("severity").Raw()).Raw("description", u.Sub("description").Raw())
		return t.status(dst, "notice", u.Get("title").String(), md.Bytes(), "", in.raw)
	case "plan_update":
		return t.planUpdate(dst, in, u)
	case "plan_removed":
		return t.planRemoved(dst, in, u)
	case "compaction_update":
		return t.compactionUpdate(dst, in, u)
	case "compaction_summary_chunk":
		return t.compactionSummaryChunk(dst, in, u)
	case "subagent_spawned", "subagent_state_update", "subagent_update":
		return t.subagentUpdate(dst, in, kind, u)
	case "session_message":
		return t.sessionMessage(dst, in, sid, u)
	case "session_message_chunk":
		return t.sessionMessageChunk(dst, in, u)
	case "terminal_update", "terminal_output_chunk":
		return t.terminalUpdate(dst, in, u, kind == "terminal_output_chunk")
	case "async_task_spawned", "async_task_progress", "async_task_state_update":
		return t.asyncTask(dst, in, kind, u)
	case "_async_task_spawned", "_async_task_state_update":
		// @agentclientprotocol/codex-acp 2.x to an ACP v2 client: "same
		// payload as v1 under a `_`-prefixed tag".
		return t.asyncTask(dst, in, kind[1:], u)
	case "_subagent_update":
		// codex-acp 2.x's v2 form of subagent_spawned {subagentSessionId,
		// name, task, capabilities} and subagent_state_update
		// {subagentSessionId, state}.
		return t.subagentUpdate(dst, in, "subagent_update", u)
	case "session_end":
		// CodeBuddy's end of a prompt's turn {stopReason}, before the
		// prompt's response, which says the same.
		return dst
	}
	if extension(kind) {
		// "Values beginning with `_` are reserved for
		// implementation-specific extensions. … Receivers that do not
		// understand this update type should preserve the raw payload
		// … and otherwise ignore it or display it generically" (ACP
		// v2's SessionUpdate "other"): shown generically, a status item.
		dst = t.begin(dst)
		return t.status(dst, "extension_update", kind, t.rawObject("update", u), "", in.raw)
	}
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w %q", errUnknownKind, kind), in.raw)
}

// sessionInfo handles what the agent tells about the session outside the
// transcript: metadata of session.started before the session starts,
// else a status item.
func (t *Translator) sessionInfo(dst []universal.Event, in *input, label string, v jsonscan.Value, detail string) []universal.Event {
	if !t.w.Begun() {
		t.meta(label, v)
		return dst
	}
	return t.status(dst, label, detail, t.rawObject(label, v), "", in.raw)
}

// modelUpdate translates a current_model_update (not in the ACP schema;
// agents send it when the session's model changes: Cursor, Qoder, Kiro,
// Devin, Qwen Code), which names the model in one of the members agents
// use: currentModelId (the name session/new's models state gives it),
// modelId, currentModel (the id, or {modelId} or {id}), or model
// ({modelId, name, description}, Qwen Code's schema; or the id). Before
// the start it is the session's model, as session/new's current model is
// (metadata "model"); after it a status item labelled model whose detail
// is the id, as a set_model the agent accepted is. An empty id is no
// model: the update adds nothing. An update that names the model in none
// of these members is agent.unparsed.
func (t *Translator) modelUpdate(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	id, found := updatedModel(u)
	if !found {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: current_model_update names no model (currentModelId, modelId, currentModel, model)", errBadParams), in.raw)
	}
	if id.Str() == "" {
		return dst
	}
	return t.sessionInfo(dst, in, "model", id, id.Str())
}

// updatedModel returns the model id a current_model_update names (see
// modelUpdate), and whether one of its members names one (a string, empty
// or not).
func updatedModel(u jsonscan.Value) (jsonscan.Value, bool) {
	for _, k := range [...]string{"currentModelId", "modelId", "currentModel", "model"} {
		v := u.Sub(k)
		if v.Type() == gjson.String {
			return v, true
		}
		if k == "currentModel" || k == "model" {
			for _, kk := range [...]string{"modelId", "id"} {
				if id := v.Sub(kk); id.Type() == gjson.String {
					return id, true
				}
			}
		}
	}
	return jsonscan.Value{}, false
}

// sessionInfoRaw is sessionInfo for raw JSON.
func (t *Translator) sessionInfoRaw(dst []universal.Event, in *input, label, raw, detail string) []universal.Event {
	if !t.w.Begun() {
		t.metaRaw(label, raw)
		return dst
	}
	var md jsonw.Object
	md.Raw(label, raw)
	return t.status(dst, label, detail, md.Bytes(), "", in.raw)
}

// infoKind is the kind an agent's own _meta names a session_info_update
// by, {"_meta": {"<agent>": {"kind": "…"}}} (Kiro CLI: context_usage,
// turn_start, turn_end, turn_completion …): the detail of its status
// item, so that a client tells them apart without reading the metadata.
// "" when no agent's namespace names one, or more than one does.
func infoKind(u jsonscan.Value) string {
	kind, n := "", 0
	u.Sub("_meta").Members(func(_ string, v jsonscan.Value) bool {
		if k := v.Get("kind"); k.Type == gjson.String && k.Str != "" {
			kind = k.Str
			n++
		}
		return n < 2
	})
	if n != 1 {
		return ""
	}
	return kind
}

// sessionInfoUpdate translates a session_info_update: the session's
// title (and when it changed, updatedAt), or agent-specific state in
// _meta. A title that changes the one the session has is a status item
// labelled "title" whose detail is the title (before the session started,
// its metadata "title"), the update's other members in its metadata. The
// same title again is no change: what else the update has (but updatedAt)
// is a status item "session_info", as an update without a title is
// (metadata before the start), its detail the kind the agent's _meta
// names (see infoKind).
func (t *Translator) sessionInfoUpdate(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	if d, ok := t.kiroSummarization(dst, in, u); ok {
		return d
	}
	if e := u.Sub("_meta.codex.error"); e.IsObject() {
		var only bool
		if dst, only = t.codexError(dst, in, u, e); only {
			return dst
		}
	}
	goalOnly := false
	if g := u.Sub("_meta.goal"); g.Exists() {
		dst, goalOnly = t.goalUpdate(dst, in, u, g)
	}
	if !goalOnly {
		dst = t.sessionInfoItem(dst, in, u)
	}
	// codex-acp reports its thread's state as _meta.codex.threadStatus
	// {type: active|idle, activeFlags}: a goal's autonomous cycle runs
	// outside any prompt ("a later autonomous cycle may publish more
	// session updates outside that completed prompt", docs/goal-extension.md
	// at ba5bcc3) and ends when the thread is idle again.
	if ts := u.Sub("_meta.codex.threadStatus"); ts.Get("type").Str == "idle" {
		dst = t.endAutonomous(dst, in, "thread_status", ts)
	}
	return dst
}

// codexError translates the error codex-acp reports as a
// session_info_update's _meta.codex.error {message, codexErrorInfo,
// additionalDetails} (Codex's error notification): an error, retried when
// Codex says it reconnects ("Reconnecting... 1/5"), as package codex
// reads the same error; its code the codexErrorInfo's kind
// (responseStreamDisconnected, …), the rest in details. only says the
// update holds nothing else.
func (t *Translator) codexError(dst []universal.Event, in *input, u, e jsonscan.Value) ([]universal.Event, bool) {
	msg := e.Get("message").Str
	if msg == "" {
		return dst, false
	}
	dst = t.begin(dst)
	d := &universal.Error{Message: t.copy(msg), WillRetry: strings.HasPrefix(msg, "Reconnecting...")}
	switch info := e.Sub("codexErrorInfo"); info.Type() {
	case gjson.String:
		d.Code = t.copy(info.Str())
	case gjson.JSON:
		info.Members(func(k string, _ jsonscan.Value) bool {
			d.Code = t.copy(k)
			return false
		})
	}
	var md jsonw.Object
	md.Raw("codexErrorInfo", e.Sub("codexErrorInfo").Raw()).Raw("additionalDetails", e.Sub("additionalDetails").Raw())
	if b := md.Bytes(); len(b) > 2 {
		d.Details = b
	}
	dst = t.w.Emit(dst, universal.TypeError, agent, d, in.raw)
	members := func(v jsonscan.Value) int {
		n := 0
		v.Members(func(string, jsonscan.Value) bool { n++; return true })
		return n
	}
	return dst, members(u) == 2 && members(u.Sub("_meta")) == 1 && members(u.Sub("_meta.codex")) == 1
}

// sessionInfoItem is what sessionInfoUpdate shows of an update: its
// title or the other state it reports.
func (t *Translator) sessionInfoItem(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	title := u.Sub("title")
	named := title.Type() == gjson.String && title.Str() != ""
	changed := named && title.Str() != t.st.Title
	var md jsonw.Object
	rest := 0
	u.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "sessionUpdate" || named && k.Str == "title" {
			return true
		}
		md.Raw(k.Str, v.Raw)
		if k.Str != "updatedAt" {
			rest++
		}
		return true
	})
	if !changed {
		if named && rest == 0 {
			return dst
		}
		return t.sessionInfoRaw(dst, in, "session_info", string(md.Bytes()), infoKind(u))
	}
	t.st.Title = t.copy(title.Str())
	if !t.w.Begun() {
		t.setMeta("title", string(jsonw.AppendString(nil, t.st.Title)))
		if len(md.Bytes()) > 2 {
			t.metaRaw("session_info", string(md.Bytes()))
		}
		return dst
	}
	return t.status(dst, universal.LabelTitle, t.st.Title, md.Bytes(), "", in.raw)
}

// status emits a complete status item (parent: a call it is about, or
// none).
func (t *Translator) status(dst []universal.Event, label, detail string, md []byte, parent string, raw []byte) []universal.Event {
	dst = t.begin(dst)
	p := universal.Part{Type: universal.PartStatus, Label: label, Detail: t.copy(detail)}
	if len(md) > 2 {
		p.Metadata = md
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: parent,
		Kind:     universal.KindStatus,
		Content:  []universal.Part{p},
	}, agent, raw)
}

// plan translates a plan: the agent's todo list, shown whole each time
// as a status item labelled plan (entries in its metadata).
func (t *Translator) plan(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	entries := u.Sub("entries")
	var md jsonw.Object
	entries.AddTo(&md, "entries")
	return t.planStatus(dst, in, u, universal.LabelPlan, planChecklist(entries), md.Bytes())
}

// planStatus emits a plan's status item (plan, plan_update, plan_removed):
// work goes on, a user message being replayed ends, and the item goes
// under the tool call the update names, if any.
func (t *Translator) planStatus(dst []universal.Event, in *input, u jsonscan.Value, label, detail string, md []byte) []universal.Event {
	dst = t.work(dst, in.raw)
	dst = t.closeUser(dst, in.raw)
	parent := ""
	if p := t.parentCall(u); p != nil {
		parent = p.Call
	}
	return t.status(dst, label, detail, md, parent, in.raw)
}

// planChecklist is the detail of a plan's status item: its entries as a
// checklist (universal.AppendPlanStep), as every agent's plan is shown.
func planChecklist(entries jsonscan.Value) string {
	var list []byte
	entries.Each(func(_ gjson.Result, e jsonscan.Value) bool {
		list = universal.AppendPlanStep(list, universal.StepStateOf(e.Get("status").Str), e.Get("content").Str)
		return true
	})
	return string(list)
}

// usageUpdate translates usage_update: the context window's use and the
// session's cumulative cost.
func (t *Translator) usageUpdate(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	dst = t.begin(dst)
	// The event's data, its window and its cost in one allocation.
	one := new(struct {
		d      universal.UsageUpdated
		window int64
		cost   float64
	})
	d := &one.d
	d.TurnID, d.Scope = t.w.Turn(), universal.ScopeSession
	if r := u.Get("size"); r.Type == gjson.Number {
		one.window = r.Int()
		d.ContextWindow = &one.window
	}
	cost := u.Sub("cost")
	if cost.IsObject() && strings.EqualFold(cost.Get("currency").Str, "USD") {
		if r := cost.Get("amount"); r.Type == gjson.Number {
			one.cost = r.Float()
			d.CostUSD = &one.cost
		}
	}
	var md jsonw.Object
	u.Sub("used").AddTo(&md, "context_used")
	if cost.IsObject() && !strings.EqualFold(cost.Get("currency").Str, "USD") {
		cost.AddTo(&md, "cost")
	}
	u.Sub("_meta").AddTo(&md, "_meta")
	// claude-agent-acp sends one after each model call, naming its model.
	md.OptString("model", u.Sub("_meta").Get("_claude/model").Str)
	if md.Len() > 0 {
		d.Metadata = md.Bytes()
	}
	dst = t.w.Emit(dst, universal.TypeUsageUpdated, agent, d, in.raw)
	dst = t.vendorUsage(dst, u.Sub("_meta"), in.raw)
	return t.autonomousEnd(dst, in, u.Sub("_meta").Sub("_claude/origin"))
}

// autonomousOrigins are the origin kinds of Claude Code's results that
// mark a model cycle it started on its own (claude-agent-acp 0.101.0
// dist/acp-agent.js AUTONOMOUS_RESULT_ORIGINS: a task-notification
// followup, a peer, coordinator or observer message it handled).
var autonomousOrigins = map[string]bool{
	"task-notification": true, "peer": true, "coordinator": true, "observer": true, "observer-activity": true,
}

// autonomousEnd ends the turn of a model cycle Claude Code started on its
// own. claude-agent-acp sends such a cycle's updates outside any prompt
// (a background task's end wakes the model: no session/prompt, no
// response), and its result's usage_update carries the result's origin
// as _meta["_claude/origin"] {kind}; "a model cycle that Claude Code
// started on its own ends at its result, after its usage". The turn the
// translator opened for those updates (live, not replayed, with no
// prompt of the host waiting for its response, so only where the host's
// requests are seen) ends completed there, {"origin": …} in its
// metadata. A prompt of the host still waiting owns the turn (a turn the
// adapter holds open for its sub-agents' followups).
func (t *Translator) autonomousEnd(dst []universal.Event, in *input, origin jsonscan.Value) []universal.Event {
	if !origin.IsObject() || !autonomousOrigins[origin.Get("kind").Str] {
		return dst
	}
	return t.endAutonomous(dst, in, "origin", origin)
}

// endAutonomous ends, completed, the turn the translator opened for
// updates the agent sent outside any prompt, where the host's requests
// are seen and none of its prompts waits (see autonomousEnd), {k: v} in
// its metadata.
func (t *Translator) endAutonomous(dst []universal.Event, in *input, k string, v jsonscan.Value) []universal.Event {
	if !t.st.Turn.Open || t.st.Turn.Replay || t.format != FormatExchange && !t.st.BothSides || t.promptWaits() {
		return dst
	}
	dst = t.closeUser(dst, in.raw)
	dst = t.closeMessages(dst, in.raw)
	return t.endTurn(dst, universal.TurnCompleted, t.rawObject(k, v), agent, in.raw)
}

// vendorUsage emits the usage of the model call a usage_update follows
// when the agent puts its token counts in the update's _meta under names
// of its own namespace, as the extensibility page names custom _meta keys
// ("zed.dev/debugMode"): "<domain>/inputTokens" and the other names usage
// reads (Devin's cognition.ai/inputTokens, outputTokens, cachedReadTokens
// after each model request). Scope call: the update's context figures stay
// the session's.
func (t *Translator) vendorUsage(dst []universal.Event, meta jsonscan.Value, raw []byte) []universal.Event {
	if !meta.IsObject() {
		return dst
	}
	var counts map[string]gjson.Result
	meta.Members(func(k string, v jsonscan.Value) bool {
		i := strings.LastIndexByte(k, '/')
		if i <= 0 || v.Type() != gjson.Number || !usageNames[k[i+1:]] {
			return true
		}
		if counts == nil {
			counts = map[string]gjson.Result{}
		}
		if _, dup := counts[k[i+1:]]; !dup {
			counts[k[i+1:]] = v.Result()
		}
		return true
	})
	if counts == nil {
		return dst
	}
	return t.usageOf(dst, func(k string) gjson.Result { return counts[k] }, universal.ScopeCall, nil, raw)
}

// usageNames are the names usage reads counts by.
var usageNames = func() map[string]bool {
	m := map[string]bool{}
	for _, names := range usageKeys {
		for _, k := range names {
			m[k] = true
		}
	}
	return m
}()

// usageKeys are the names agents give a usage's counts (camelCase or
// snake_case; cache writes also as Grok Build's cacheCreationTokens,
// reasoning also as reasoningOutputTokens), in the order of
// universal.Usage's fields: input, output, cached input, cache writes,
// reasoning, total.
var usageKeys = [6][]string{
	{"inputTokens", "input_tokens", "promptTokens", "prompt_tokens"},
	{"outputTokens", "output_tokens", "completionTokens", "completion_tokens"},
	{"cachedReadTokens", "cachedInputTokens", "cache_read_input_tokens", "cached_tokens"},
	{"cachedWriteTokens", "cacheCreationTokens", "cacheWriteInputTokens", "cache_creation_input_tokens"},
	{"thoughtTokens", "reasoningTokens", "reasoningOutputTokens", "reasoning_tokens", "reasoning_output_tokens", "thoughts_tokens"},
	{"totalTokens", "total_tokens"},
}

// usage emits token usage from an ACP Usage object (unstable
// PromptResponse.usage) or the usage adapters put in _meta.
func (t *Translator) usage(dst []universal.Event, u jsonscan.Value, scope universal.UsageScope, md []byte, raw []byte) []universal.Event {
	return t.usageOf(dst, u.Get, scope, md, raw)
}

// usageOf is usage for counts read by get.
func (t *Translator) usageOf(dst []universal.Event, get func(string) gjson.Result, scope universal.UsageScope, md []byte, raw []byte) []universal.Event {
	return t.usageFor(dst, t.w.Turn(), get, scope, md, raw)
}

// usageFor is usageOf for the turn named turn: a sub-agent's own turn,
// which the session never started, for its calls' usage.
func (t *Translator) usageFor(dst []universal.Event, turn string, get func(string) gjson.Result, scope universal.UsageScope, md []byte, raw []byte) []universal.Event {
	dst = t.begin(dst)
	// The event's data and its counts in one allocation.
	one := new(struct {
		d universal.UsageUpdated
		n [len(usageKeys)]int64
	})
	num := func(i int) *int64 {
		for _, k := range usageKeys[i] {
			if r := get(k); r.Type == gjson.Number {
				one.n[i] = r.Int()
				return &one.n[i]
			}
		}
		return nil
	}
	d := &one.d
	d.TurnID, d.Scope = turn, scope
	d.Usage.InputTokens = num(0)
	d.Usage.OutputTokens = num(1)
	d.Usage.CachedInputTokens = num(2)
	d.Usage.CacheWriteTokens = num(3)
	d.Usage.ReasoningTokens = num(4)
	d.Usage.TotalTokens = num(5)
	if d.Usage.InputTokens == nil && d.Usage.OutputTokens == nil && d.Usage.TotalTokens == nil {
		return dst
	}
	disjointCounts(&d.Usage)
	orAbsent := func(p *int64) int64 { // -1 for a count not given
		if p == nil {
			return -1
		}
		return *p
	}
	counts := [2]int64{orAbsent(d.Usage.InputTokens), orAbsent(d.Usage.OutputTokens)}
	if tr := &t.st.Turn; tr.Open && turn == t.w.Turn() {
		switch scope {
		case universal.ScopeCall:
			tr.Calls++
			tr.LastCall = counts
		case universal.ScopeTurn:
			if tr.Calls >= 2 && counts == tr.LastCall {
				// The turn's "total" repeats its last call's report
				// (Devin's PromptResponse.usage): the calls' sum is
				// the turn's.
				return dst
			}
		}
	}
	d.Metadata = md
	return t.w.Emit(dst, universal.TypeUsageUpdated, agent, d, raw)
}

// disjointCounts makes the input count include the cache's reads and
// writes, and the output count the reasoning, as universal.Usage's do,
// when an agent counts them apart as the protocol's Usage has it
// (totalTokens "the sum of all token types"; OpenCode's agent: inputTokens
// 326, cachedReadTokens 71424, totalTokens 71781). The total tells which
// counts it adds up; without one, a cache read larger than the input is
// apart. Agents whose input includes the cache (Devin, claude-agent-acp)
// give a total of input and output alone, and stay as they are.
func disjointCounts(u *universal.Usage) {
	val := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	in, out := val(u.InputTokens), val(u.OutputTokens)
	cache, thought := val(u.CachedInputTokens)+val(u.CacheWriteTokens), val(u.ReasoningTokens)
	cacheApart, thoughtApart := u.InputTokens != nil && val(u.CachedInputTokens) > in, false
	if u.TotalTokens != nil {
		cacheApart = false
		for _, c := range [...][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			sum := in + out
			if c[0] {
				sum += cache
			}
			if c[1] {
				sum += thought
			}
			if sum == *u.TotalTokens {
				cacheApart, thoughtApart = c[0] && cache > 0, c[1] && thought > 0
				break
			}
		}
	}
	if cacheApart && u.InputTokens != nil {
		n := in + cache
		u.InputTokens = &n
	}
	if thoughtApart && u.OutputTokens != nil {
		n := out + thought
		u.OutputTokens = &n
	}
}

// scopeFor returns the scope of an update: the sub-agent of the call its
// _meta names as parent, else the session's.
func (t *Translator) scopeFor(u jsonscan.Value) (string, *scope) {
	return t.scope(t.parentCall(u))
}

// scope returns the scope of the sub-agent the call p spawned (nil: the
// session's own), made on first use.
func (t *Translator) scope(p *tool) (string, *scope) {
	key := ""
	if p != nil {
		key = p.ID
		if p == t.sub && t.subKey != "" {
			// A sub-agent session's own scope: sub-agents run in
			// parallel under one call, each its own conversation.
			key = t.subKey
		}
	} else if t.main != nil {
		return key, t.main
	}
	if t.st.Scopes == nil {
		t.st.Scopes = map[string]*scope{}
	}
	sc := t.st.Scopes[key]
	if sc == nil {
		sc = &scope{}
		if key != "" {
			sc.Parent = p.Call
		}
		t.st.Scopes[key] = sc
	}
	if key == "" {
		t.main = sc
	}
	return key, sc
}

// parentCall returns the call that spawned the sub-agent an update comes
// from, as the adapters' _meta says (Claude Code's adapter:
// _meta.claudeCode.parentToolUseId), when it is a call this session
// knows that can hold a sub-agent.
func (t *Translator) parentCall(u jsonscan.Value) *tool {
	if !u.Sub("_meta").Exists() {
		return t.sub // the common case: none of the paths below
	}
	id := u.Get("_meta.claudeCode.parentToolUseId").Str
	if id == "" {
		id = u.Get("_meta.parentToolUseId").Str
	}
	if id == "" {
		id = u.Get("_meta.parentToolCallId").Str
	}
	var copilot jsonscan.Value
	if id == "" {
		// Another agent's namespaced key, "<domain>/parentToolCallId"
		// (CodeBuddy's "codebuddy.ai/parentToolCallId" on its
		// sub-agents' messages and calls), as with the tool's name.
		// Copilot CLI's member, which names the sub-agent instead (see
		// copilotParent), is taken on the same walk: a path through its
		// dotted key would read the whole update again.
		u.Sub("_meta").Members(func(k string, v jsonscan.Value) bool {
			switch {
			case k == copilotMeta:
				jsonscan.KeepFirst(&copilot, v)
			case strings.HasSuffix(k, "/parentToolCallId") && v.Type() == gjson.String:
				id = v.Str()
			}
			return id == ""
		})
	}
	if id == "" {
		id = t.copilotParent(u, copilot)
	}
	if id == "" || id == u.Get("toolCallId").Str {
		return t.sub
	}
	p := t.st.Tools[id]
	if p == nil {
		return t.sub
	}
	if p.UKind != universal.ToolTask {
		if !t.w.IsOpen(p.Call) {
			return nil // completed as another kind: cannot hold items
		}
		p.UKind = universal.ToolTask
	}
	return p
}

// subScopePrefix starts the key of a sub-agent session's scope, followed
// by the session's id (a call's sub-agent scope is keyed by its
// toolCallId).
const subScopePrefix = "session:"

// ownSession records a session the host opened (or the first update
// named): its updates are the session's own.
func (t *Translator) ownSession(sid string) {
	if sid != "" && !t.st.Sessions[sid] {
		if t.st.Sessions == nil {
			t.st.Sessions = map[string]bool{}
		}
		t.st.Sessions[t.copy(sid)] = true
	}
}

// subCall returns the call an update of session sid goes under when sid
// is a session the agent opened itself, not one the host opened: Kiro
// CLI runs each sub-agent in a session of its own and streams its
// updates on the same connection, between the session's; OpenCode 2.x
// sends a sub-agent's updates as opencode/session/child_update or names
// its session in _meta. The first update of such a session decides, once:
// it goes under the session's latest running call that delegates (a
// task, or input naming an agent), else the latest running call of no
// particular kind whose item is open (the call that spawned it, which
// becomes a task); a call of another kind (read, edit, execute …) is
// never taken. Its later updates go there too, until the turn ends.
// Nil for the session's own updates, and for a session whose first
// update came while no such call ran: it is then the session's own (a
// session the host loaded, whose load response does not name it).
func (t *Translator) subCall(sid string) *tool {
	// The session's id (the common case, every chunk) is its own: no
	// lookup.
	if sid == "" || sid == t.w.Stamper().NativeSessionID() || len(t.st.Sessions) == 0 || t.st.Sessions[sid] {
		return nil
	}
	if p := t.announced(sid); p != nil {
		return p
	}
	if id, ok := t.st.SubSessions[sid]; ok {
		if id == "" {
			return nil
		}
		p := t.st.Tools[id]
		if p != nil && p.UKind != universal.ToolTask && t.w.IsOpen(p.Call) {
			p.UKind = universal.ToolTask
		}
		if p == nil || p.UKind != universal.ToolTask {
			return nil
		}
		return p
	}
	if t.st.SubSessions == nil {
		t.st.SubSessions = map[string]string{}
	}
	sid = t.copy(sid)
	p := t.spawner()
	if p == nil {
		t.st.SubSessions[sid] = ""
		return nil
	}
	p.UKind = universal.ToolTask
	t.st.SubSessions[sid] = p.ID
	t.st.TurnSubs = append(t.st.TurnSubs, sid)
	return p
}

// spawner returns the running call a new sub-agent session goes under
// (see subCall), nil when there is none.
func (t *Translator) spawner() *tool {
	var open *tool
	for i := len(t.st.Order) - 1; i >= 0; i-- {
		p := t.st.Tools[t.st.Order[i]]
		if p == nil || p.Scope != "" || p.Done {
			continue
		}
		if p.UKind == universal.ToolTask || delegates(p.Input) {
			return p
		}
		if open == nil && p.UKind == universal.ToolOther && t.w.IsOpen(p.Call) {
			open = p
		}
	}
	return open
}

// agentChunk translates agent_message_chunk and agent_thought_chunk: text
// of the current response's message (a new message when tool activity
// came between, or the messageId changed after another item started).
func (t *Translator) agentChunk(dst []universal.Event, in *input, u jsonscan.Value, ch chunk, thought bool) []universal.Event {
	if ch.meta && !thought {
		if cc := u.Sub("_meta.claudeCode"); cc.Get("kind").Str != "" {
			return t.transcriptNotice(dst, in, ch.content, cc)
		}
	}
	dst = t.work(dst, in.raw)
	dst = t.closeUser(dst, in.raw)
	t.st.Turn.Answered = true
	c := ch.content
	if ch.meta {
		if mu := u.Sub("_meta.usage"); mu.IsObject() {
			dst = t.usage(dst, mu, universal.ScopeCall, nil, in.raw)
		}
	}
	var typeV, textV jsonscan.Value
	c.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type":
			jsonscan.KeepFirst(&typeV, v)
		case "text":
			jsonscan.KeepFirst(&textV, v)
		}
		return true
	})
	isText := typeV.Str() == "text"
	var text string
	if isText {
		if text = textV.Str(); text == "" {
			return dst // an empty chunk (some carry only _meta)
		}
		if !thought {
			if d, ok := t.copilotNotice(dst, in, text); ok {
				return d
			}
		}
		if thought && c.Get("annotations._meta.heartbeat").Type == gjson.True {
			// Cursor's agent repeats its thinking placeholder with the
			// time waited ("… (12s)") while the model is silent: an
			// elapsed-time heartbeat, no reasoning.
			return dst
		}
	}
	var parent *tool
	if ch.meta || t.sub != nil {
		parent = t.parentCall(u)
	}
	_, sc := t.scope(parent)
	mid := ch.messageID
	if ch.meta && isText && !thought {
		if discrete, md := qwenDiscrete(u); discrete {
			return t.wholeMessage(dst, sc, mid, text, md, in.raw)
		}
	}
	another := false // the chunk starts another native message in this one
	switch {
	case !sc.Open:
		dst = t.newMessage(dst, sc, mid, in.raw)
	case mid != "" && sc.NativeID != "" && mid != sc.NativeID:
		if t.w.IsOpen(sc.Msg) && t.w.Stamper().State().Items == sc.Items {
			// Another messageId right after the message's own chunks,
			// nothing between: the same model response (OpenCode gives
			// its reasoning chunks the reasoning part's id, its text
			// the message's). Two messages with nothing between would
			// split one response; the message goes on, the other
			// message's text a part of its own (codex-acp's commentary
			// then final answer, two of Codex's agentMessage items).
			sc.NativeID = t.copy(mid)
			another = true
			break
		}
		dst = t.newMessage(dst, sc, mid, in.raw)
	}
	if !isText {
		parts := t.blocks(nil, c)
		for _, p := range parts {
			if thought && p.Type == universal.PartText {
				p = universal.Reasoning(p.Text, universal.VisibilityPublic)
			}
			var i int
			dst, i = t.w.AddPart(dst, sc.Msg, p)
			if i >= 0 {
				sc.Parts = append(sc.Parts, p.Type)
			}
		}
		return dst
	}
	typ := universal.PartText
	if thought {
		typ = universal.PartReasoning
	}
	t.scan.Mark(&t.delta, textV)
	i := len(sc.Parts) - 1
	if i < sc.Replaced || sc.Parts[i] != typ || another {
		sc.Parts = append(sc.Parts, typ)
		i = len(sc.Parts) - 1
	}
	if ch.meta && !thought {
		t.notePhase(sc, i, u)
	}
	return t.w.Delta(dst, sc.Msg, i, typ, text, agent, in.raw)
}

// notePhase keeps the phase codex-acp gives a text chunk,
// _meta.codex.phase (commentary: a progress note between tool calls;
// final_answer), for text part i of the scope's message: its first. The
// completed part carries it as metadata {"phase"}, as package codex's
// text parts of Codex's messages do.
func (t *Translator) notePhase(sc *scope, i int, u jsonscan.Value) {
	if i < len(sc.Phases) && sc.Phases[i] != "" {
		return // the part's first chunk said it: no lookup on every delta
	}
	ph := u.Sub("_meta.codex.phase")
	if ph.Type() != gjson.String || ph.Str() == "" {
		return
	}
	for len(sc.Phases) <= i {
		sc.Phases = append(sc.Phases, "")
	}
	sc.Phases[i] = t.copy(ph.Str())
}

// transcriptNotice translates a notice claude-agent-acp sends as an
// agent_message_chunk: to a client that does not declare
// clientCapabilities.session.notices, its noticeOrTranscriptUpdate
// (dist/session-notices.js, 0.101.0) renders the notice as a text chunk
// (its bold-label form, "**Title:** description") and marks it with
// _meta.claudeCode.kind, "so clients without the capability can still
// tell the line apart from Claude's reply": informational (the SDK's
// free-form notice, such as why a hook blocked the turn; level) and
// mcpServerStatus (an MCP server that failed or needs authentication;
// server, status). It is the notice update it stands for, not the model's
// text: a status item labelled notice (as the unstable notice update
// is), detail the text, the members of _meta.claudeCode in its
// metadata.
func (t *Translator) transcriptNotice(dst []universal.Event, in *input, c, cc jsonscan.Value) []universal.Event {
	var md jsonw.Object
	cc.Members(func(k string, v jsonscan.Value) bool {
		v.AddTo(&md, k)
		return true
	})
	detail := ""
	if c.Sub("type").Str() == "text" {
		detail = c.Sub("text").Str()
	} else if c.Exists() {
		c.AddTo(&md, "content")
	}
	return t.status(dst, "notice", detail, md.Bytes(), "", in.raw)
}

// chunk is what update read of an agent's chunk in its one walk over it.
type chunk struct {
	content   jsonscan.Value
	messageID string
	meta      bool // the update has _meta
}

// newMessage completes the scope's open message and starts another.
func (t *Translator) newMessage(dst []universal.Event, sc *scope, nativeID string, raw []byte) []universal.Event {
	if sc.Open && t.w.IsOpen(sc.Msg) {
		dst = t.closeMsg(dst, sc, agent, raw)
	}
	if sc.Inter != "" {
		// The agent's response goes on after the message between
		// sessions.
		dst = t.closeInter(dst, sc, agent, raw)
	}
	sc.Msg = t.w.NewItemID()
	sc.Open = true
	sc.Results = false
	sc.Parts, sc.Phases = sc.Parts[:0], nil // Parts are the scope's alone: its memory serves again
	sc.Replaced = 0
	sc.NativeID = t.copy(nativeID)
	sc.Items = t.w.Stamper().State().Items
	return t.w.StartItem(dst, universal.Item{
		ItemID:       sc.Msg,
		NativeItemID: sc.NativeID,
		ParentID:     sc.Parent,
		Kind:         universal.KindMessage,
		Role:         universal.RoleAssistant,
	}, agent, raw)
}

// closeMsg completes the scope's message item: with the parts an ACP v2
// upsert replaced (sc.Replaced) emptied, the final content consumers
// take in place of what streamed there (universal.Part.Rewritten), and
// the parts after them as they streamed.
func (t *Translator) closeMsg(dst []universal.Event, sc *scope, src universal.Source, raw []byte) []universal.Event {
	phases := sc.Phases
	sc.Phases = nil
	if sc.Replaced == 0 && phases == nil {
		return t.w.Close(dst, sc.Msg, universal.StatusCompleted, src, raw)
	}
	it, ok := t.w.Tracked(sc.Msg)
	if !ok {
		return dst
	}
	for i := 0; i < sc.Replaced && i < len(it.Content); i++ {
		typ := it.Content[i].Type
		if typ != universal.PartReasoning {
			typ = universal.PartText
		}
		it.Content[i] = universal.Part{Type: typ}
	}
	for i, ph := range phases {
		if ph == "" || i < sc.Replaced || i >= len(it.Content) {
			continue
		}
		if p := &it.Content[i]; p.Type == universal.PartText && p.Metadata == nil {
			var md jsonw.Object
			p.Metadata = md.String("phase", ph).Bytes()
		}
	}
	sc.Replaced = 0
	it.Status = universal.StatusCompleted
	return t.w.Complete(dst, it, src, raw)
}

// closeMessages completes the open message of every scope.
func (t *Translator) closeMessages(dst []universal.Event, raw []byte) []universal.Event {
	keys := make([]string, 0, len(t.st.Scopes))
	for k := range t.st.Scopes {
		keys = append(keys, k)
	}
	// In start order of their messages: item ids grow with the counter.
	sortByItem(keys, func(k string) string { return t.st.Scopes[k].Msg })
	for _, k := range keys {
		sc := t.st.Scopes[k]
		if sc.User != "" && t.w.IsOpen(sc.User) {
			dst = t.w.Close(dst, sc.User, universal.StatusCompleted, srcOf(raw), raw)
		}
		sc.User = ""
		if sc.Open && t.w.IsOpen(sc.Msg) {
			dst = t.closeMsg(dst, sc, srcOf(raw), raw)
		}
		sc.Open = false
		dst = t.closeInter(dst, sc, srcOf(raw), raw)
	}
	return dst
}

// sortByItem sorts keys by the numeric suffix of their item ids.
func sortByItem(keys []string, id func(string) string) {
	n := func(k string) int {
		s := id(k)
		i := strings.LastIndexByte(s, '_')
		v, _ := strconv.Atoi(s[i+1:])
		return v
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && (n(keys[j]) < n(keys[j-1]) || n(keys[j]) == n(keys[j-1]) && keys[j] < keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

// userChunk translates user_message_chunk: a user message the agent
// replays when it loads a session, or its echo of a prompt.
func (t *Translator) userChunk(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	return t.userContent(dst, in, u, u.Sub("content"))
}

// userContent translates one content block c of update u, a
// user_message_chunk's (or one of an ACP v2 user_message's blocks).
func (t *Translator) userContent(dst []universal.Event, in *input, u, c jsonscan.Value) []universal.Event {
	isText := c.Sub("type").Str() == "text"
	var text string
	if isText {
		text = c.Sub("text").Str()
	}
	if t.sub != nil {
		return t.subUserChunk(dst, in, c, isText, text)
	}
	if u.Get("_meta.hideFromScrollback").Bool() {
		// Grok Build's hidden reminder (a background task's end, a
		// monitor's line: what wakes the agent for a turn it starts
		// itself): the CLI's words to the model, not the user's.
		dst = t.work(dst, in.raw)
		dst = t.closeUser(dst, in.raw)
		return t.w.Complete(dst, universal.Item{
			ItemID: t.w.NewItemID(), Kind: universal.KindSystem, Role: universal.RoleSystem,
			Content: t.blocks(nil, c),
		}, agent, in.raw)
	}
	tr := &t.st.Turn
	mid := u.Sub("messageId").Str()
	switch {
	case tr.Open && !tr.Replay:
		if tr.Prompted && t.st.User == "" {
			// The agent echoes the prompt the host's request already
			// showed.
			return dst
		}
	case tr.Open && tr.Replay && !tr.Answered && !t.otherUserMessage(mid):
		// More of the replayed user message.
	case tr.Open && tr.Replay && qwenMidTurn(u):
		// Qwen Code's replay of a message the user sent while the turn
		// ran (qwenMidTurn): a message of the replayed turn, not a
		// turn of its own (live, its drain put it into the turn).
		dst = t.closeMessages(dst, in.raw)
	case !tr.Open && !t.st.Loading && t.format == FormatAgent && len(t.st.Prompts) > 0 &&
		isText && strings.HasPrefix(t.st.Prompts[0], text):
		// The agent's echo of the prompt the host reported.
		dst = t.startTurn(dst, false, daemon, in.raw)
		t.st.Prompts = t.st.Prompts[1:]
	default:
		// History: each replayed user message starts a replayed turn.
		dst = t.startTurn(dst, true, agent, in.raw)
	}
	if t.st.User == "" || !t.w.IsOpen(t.st.User) {
		t.st.User = t.w.NewItemID()
		t.st.UserID = t.copy(mid)
		tr.Prompted = true
		dst = t.w.StartItem(dst, universal.Item{ItemID: t.st.User, NativeItemID: t.st.UserID, Kind: universal.KindMessage, Role: universal.RoleUser}, agent, in.raw)
	}
	if isText {
		it, _ := t.w.Tracked(t.st.User)
		i := len(it.Content) - 1
		if i < 0 || it.Content[i].Type != universal.PartText {
			i = len(it.Content)
		}
		return t.w.Delta(dst, t.st.User, i, universal.PartText, text, agent, in.raw)
	}
	for _, p := range t.blocks(nil, c) {
		dst, _ = t.w.AddPart(dst, t.st.User, p)
	}
	return dst
}

// otherUserMessage tells that a user_message_chunk of messageId mid is
// not of the user message being streamed: both have a messageId, and
// they differ. The schema's ContentChunk.messageId: "All chunks
// belonging to the same message share the same messageId. A change in
// messageId indicates a new message has started." (Mistral Vibe replays
// each history entry's chunks under the entry's id; two prompts the
// agent never answered come back to back.)
func (t *Translator) otherUserMessage(mid string) bool {
	return mid != "" && t.st.UserID != "" && mid != t.st.UserID &&
		t.st.User != "" && t.w.IsOpen(t.st.User)
}

// closeUser completes the user message being streamed (an echo, live,
// is marked so).
func (t *Translator) closeUser(dst []universal.Event, raw []byte) []universal.Event {
	if t.sub != nil {
		// The sub-agent's prompt, before its response.
		if _, sc := t.scope(t.sub); sc.User != "" {
			id := sc.User
			sc.User = ""
			if t.w.IsOpen(id) {
				dst = t.w.Close(dst, id, universal.StatusCompleted, srcOf(raw), raw)
			}
		}
	}
	id := t.st.User
	t.st.User = ""
	if id == "" || !t.w.IsOpen(id) {
		return dst
	}
	it, _ := t.w.Tracked(id)
	if !t.st.Turn.Replay {
		universal.MarkEcho(it.Content)
	}
	it.Status = universal.StatusCompleted
	return t.w.Complete(dst, it, srcOf(raw), raw)
}

// subUserChunk translates a user_message_chunk of a sub-agent's session:
// the prompt the sub-agent was given (Grok Build's child sessions send
// it live, with _meta {modelId, promptIndex}), a user message under the
// sub-agent's call (or announcement), not a prompt of the session: it
// was a user message of the session's own conversation, or dropped as
// the echo of the host's prompt.
func (t *Translator) subUserChunk(dst []universal.Event, in *input, c jsonscan.Value, isText bool, text string) []universal.Event {
	dst = t.work(dst, in.raw)
	dst, sc := t.answerScope(dst, in)
	if sc.User == "" || !t.w.IsOpen(sc.User) {
		sc.User = t.w.NewItemID()
		dst = t.w.StartItem(dst, universal.Item{ItemID: sc.User, ParentID: sc.Parent, Kind: universal.KindMessage, Role: universal.RoleUser}, agent, in.raw)
	}
	if isText {
		it, _ := t.w.Tracked(sc.User)
		i := len(it.Content) - 1
		if i < 0 || it.Content[i].Type != universal.PartText {
			i = len(it.Content)
		}
		return t.w.Delta(dst, sc.User, i, universal.PartText, text, agent, in.raw)
	}
	for _, p := range t.blocks(nil, c) {
		dst, _ = t.w.AddPart(dst, sc.User, p)
	}
	return dst
}

// srcOf is the source of an event caused by a native payload: the agent
// when there is one, else the translator (the end of input).
func srcOf(raw []byte) universal.Source {
	if raw == nil {
		return daemon
	}
	return agent
}
