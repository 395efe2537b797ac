package codex

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/mcp"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// rpc translates one app-server JSON-RPC message (either direction).
func (t *Translator) rpc(dst []event, c *ctx, msg jsonscan.Value) []event {
	var methodV, idV, params, result, errV jsonscan.Value
	// One walk over the top-level members of the message's index (a
	// duplicate key: the first wins, as with gjson paths). Values, not
	// Results: a notification (a delta above all) reads only its method's
	// text.
	msg.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "method":
			jsonscan.KeepFirst(&methodV, v)
		case "id":
			jsonscan.KeepFirst(&idV, v)
		case "params":
			// Notifications read it through the index.
			jsonscan.KeepFirst(&params, v)
		case "result":
			// A thread/resume result holds the whole thread.
			jsonscan.KeepFirst(&result, v)
		case "error":
			jsonscan.KeepFirst(&errV, v)
		}
		return true
	})
	hasMethod := methodV.Exists()
	if hasMethod && methodV.Type() != gjson.String {
		return t.w.Unparsed(dst, c.loc(), errors.New("codex: JSON-RPC method is not a string"), c.raw)
	}
	method := methodV.Str()
	if t.st.Declined != "" && !c.in && method != "item/completed" && !strings.HasPrefix(method, "codex/event/") {
		dst = t.flushDeclined(dst)
	}
	switch {
	case c.in && hasMethod:
		return t.clientRequest(dst, c, method, idV.Result(), params.Result())
	case c.in && idV.Exists() && (result.Exists() || errV.Exists()):
		return t.clientResponse(dst, c, idV.Result(), result.Result(), errV.Result())
	case hasMethod && idV.Exists():
		return t.serverRequest(dst, c, method, idV.Result(), params)
	case hasMethod:
		return t.notification(dst, c, method, params)
	case idV.Exists() && (result.Exists() || errV.Exists()):
		return t.serverResponse(dst, c, idV.Result(), result, errV.Result())
	}
	return t.w.Unparsed(dst, c.loc(), errors.New("codex: not a JSON-RPC request, response or notification"), c.raw)
}

// key returns the native key of an item of a thread.
func (t *Translator) key(thread, id string) string {
	if thread == "" || thread == t.st.Thread {
		return id
	}
	return thread + "\x1f" + id
}

// sessionThread returns the thread a message of a thread belongs to: the
// root thread for a detached review's thread (Review) and another thread
// the host started (Hosted), the thread itself otherwise.
func (t *Translator) sessionThread(thread string) string {
	if thread != "" && (thread == t.st.Review || t.st.Hosted[thread]) {
		return t.st.Thread
	}
	return thread
}

// isRoot reports whether a thread is the session's root thread (or
// unknown, for messages that carry none).
func (t *Translator) isRoot(thread string) bool {
	return thread == "" || t.st.Thread == "" || thread == t.st.Thread
}

// ensureSession starts the session for a thread when nothing announced it
// (a stream picked up after thread/started).
func (t *Translator) ensureSession(dst []event, thread string) []event {
	if t.st.Thread == "" && thread != "" {
		t.st.Thread = t.w.Copy(thread)
		t.w.SetNativeSessionID(t.st.Thread)
	}
	if !t.w.Begun() {
		o := obj().String("agent", agentName)
		dst = t.w.BeginClean(dst, o.Bytes(), daemon, nil)
		dst = t.flushHeldNotices(dst)
	}
	return dst
}

// startsSession reports whether a host request starts the session when the
// server answers it: thread/start, resume and fork (newConversation before
// ~0.6x).
func startsSession(method string) bool {
	switch method {
	case "thread/start", "thread/resume", "thread/fork", "newConversation":
		return true
	}
	return false
}

// flushHeldNotices reports the notices held until the session started, and
// the refusals of the host's thread/start requests read before it (held
// as notices, in the order they came).
func (t *Translator) flushHeldNotices(dst []event) []event {
	for _, n := range t.st.HeldNotices {
		var meta []byte
		if n.Meta != "" {
			meta = []byte(n.Meta)
		}
		if n.Error {
			dst = t.emitError(dst, n.Detail, n.Code, meta, false, agent, []byte(n.Raw))
			continue
		}
		dst = t.status(dst, "", t.copyThread(n.Thread), n.Label, n.Detail, meta, agent, []byte(n.Raw))
	}
	t.st.HeldNotices = nil
	return dst
}

// ensureTurn opens the root thread's turn an item belongs to when the
// turn/started notification was not seen.
func (t *Translator) ensureTurn(dst []event, thread, turn string) []event {
	if !t.isRoot(thread) || turn == "" || t.w.Turn() == turn {
		return dst
	}
	return t.startTurn(dst, turn, nil, daemon, nil)
}

// clientRequest handles a request or notification the host sent.
func (t *Translator) clientRequest(dst []event, c *ctx, method string, id, params gjson.Result) []event {
	if id.Exists() {
		// In the stream's memory: a request costs no allocation of its
		// own, and neither do the settings kept from it below.
		put(&t.st.Client, t.w.Copy(id.Raw), t.w.Copy(method))
	}
	switch method {
	case "initialize":
		ci := params.Get("clientInfo")
		if ci.Exists() {
			put(&t.st.Meta, "client", t.w.Copy(ci.Raw))
		}
	case "thread/start", "thread/resume", "thread/fork", "newConversation":
		for _, f := range [...][2]string{{"approvalPolicy", "approval_policy"}, {"sandbox", "sandbox_mode"}, {"model", "model"}, {"cwd", "cwd"}} {
			if v := params.Get(f[0]); v.Exists() && v.Type != gjson.Null {
				put(&t.st.Meta, f[1], t.w.Copy(v.Raw))
			}
		}
	case "thread/revert":
		// Codex 0.16x: the notification thread/reverted that follows names
		// only the thread; the turn reverted to is the request's.
		if t.isRoot(params.Get("threadId").Str) {
			t.st.Revert = t.w.Copy(params.Get("beforeTurnId").Str)
		}
	case "thread/rollback":
		// Earlier app-servers: a rollback of the last numTurns turns,
		// reported when it succeeds (see serverResponse).
		if n := params.Get("numTurns"); id.Exists() && n.Type == gjson.Number && t.isRoot(params.Get("threadId").Str) {
			put(&t.st.Meta, "rollback:"+id.Raw, n.Raw)
		}
	case "tools/call":
		// codex mcp-server: the codex tool starts a session with the
		// prompt, codex-reply goes on with one.
		if n := params.Get("name").Str; n == "codex" || n == "codex-reply" {
			if text := params.Get("arguments.prompt").Str; text != "" {
				// Kept past this call: not a view of the host's line.
				text = t.w.Copy(text)
				t.st.addPrompt(text)
				if id.Exists() {
					// Dropped if the call is refused (see serverResponse).
					put(&t.st.Meta, "prompt:"+id.Raw, text)
				}
			}
		}
	case "turn/start", "turn/steer":
		if text := userInputText(params.Get("input")); text != "" {
			t.st.addPrompt(text)
			if id.Exists() {
				put(&t.st.Meta, "prompt:"+id.Raw, text)
			}
		}
	}
	// Every other host request (turn/interrupt, thread/list, model/list,
	// config, fs, plugin …) carries nothing for the transcript; its
	// response is recognised by id and skipped too.
	return dst
}

// userInputText joins the text items of a UserInput array.
func userInputText(input gjson.Result) string {
	var b strings.Builder
	input.ForEach(func(_, v gjson.Result) bool {
		if v.Get("type").Str == "text" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(v.Get("text").Str)
		}
		return true
	})
	return b.String()
}

// serverResponse handles the server's response to one of the host's
// requests (matched by the host's ids).
func (t *Translator) serverResponse(dst []event, c *ctx, id gjson.Result, result jsonscan.Value, rpcErr gjson.Result) []event {
	method, known := t.st.Client[id.Raw]
	rollback, hasRollback := t.st.Meta["rollback:"+id.Raw]
	if hasRollback {
		delete(t.st.Meta, "rollback:"+id.Raw)
	}
	prompt, hasPrompt := t.st.Meta["prompt:"+id.Raw]
	if hasPrompt {
		delete(t.st.Meta, "prompt:"+id.Raw)
		if rpcErr.Exists() || notStarted(result) {
			// The turn was refused: its input never reached the agent.
			t.st.dropPrompt(prompt)
		}
	}
	if known {
		delete(t.st.Client, id.Raw)
	} else if t.format == FormatExchange && !hasPrompt {
		// The exchange shows every host request: this answers none (or
		// one already answered).
		return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: response to no request (id %s)", idString(id)), c.raw)
	} else {
		// Server lines only: tell the response by its shape.
		switch {
		case result.Get("thread.id").Exists():
			method = threadResponse(result)
		case result.Get("turn.id").Exists():
			method = "turn/start"
		case result.Get("conversationId").Exists() && result.Get("rolloutPath").Exists():
			method = "newConversation"
		}
	}
	if result.Get("serverInfo.name").Str == "codex-mcp-server" {
		t.st.MCP = true
	}
	// Without the host's lines, a CallToolResult is codex mcp-server's
	// answer only on its stream: the app-server's own mcpServer/tool/call
	// answers with the same shape (McpServerToolCallResponse), a tool's
	// result and not the end of the agent's turn.
	if method == "tools/call" || (method == "" && t.st.MCP && !t.st.V2 && (result.Get("content").IsArray() || result.Get("error").Type == gjson.String)) {
		return t.toolCallResponse(dst, c, result, rpcErr)
	}
	if rpcErr.Exists() {
		if method == "thread/revert" {
			t.st.Revert = "" // refused: no thread/reverted names it
		}
		switch method {
		case "thread/start", "thread/resume", "thread/fork", "turn/start", "turn/steer", "review/start", "newConversation", "":
			msg := rpcErr.Get("message").Str
			if msg == "" {
				msg = "codex: JSON-RPC error"
			}
			o := obj().Raw("error", rpcErr.Raw)
			o.OptString("method", method)
			if startsSession(method) && !t.w.Begun() && len(t.st.HeldNotices) < maxHeldNotices {
				// A refused thread/start creates no thread: the session
				// starts with the thread a later request starts, whose
				// metadata and id it carries, and the refusal follows.
				t.st.HeldNotices = append(t.st.HeldNotices, heldNotice{Label: "error", Error: true,
					Detail: strings.Clone(msg), Code: strings.Clone(rpcErr.Get("code").Raw), Meta: string(o.Bytes()), Raw: string(c.raw)})
				return dst
			}
			return t.emitError(dst, t.w.Copy(msg), t.w.Copy(rpcErr.Get("code").Raw), o.Bytes(), false, agent, c.raw)
		}
		return dst
	}
	if rt := result.Get("reviewThreadId").Str; rt != "" && t.st.Thread != "" && rt != t.st.Thread {
		// A detached review (review/start's reviewThreadId names the new
		// thread it runs on, 0.100 ReviewStartResponse): that thread's
		// turn is the session's, not a sub-agent's.
		t.st.Review = t.w.Copy(rt)
		delete(t.st.Children, rt)
	}
	switch method {
	case "thread/start", "thread/resume", "thread/fork":
		if id := result.Get("thread.id").Str; known && id != "" && t.st.Thread != "" && id != t.st.Thread {
			// Another thread the host started on the connection (a
			// sub-agent's thread answers no request of the host's): no
			// sub-agent's, its turns are the session's. Only when the
			// host's request was seen: without it, a response is told
			// by its shape, which thread/read's shares.
			put(&t.st.Hosted, t.w.Copy(id), true)
			delete(t.st.Children, id)
			th := result.Get("thread")
			meta := obj().String("thread_id", id).String("method", method)
			meta.OptString("agent_version", th.Get("cliVersion").Str)
			meta.OptString("model", result.Get("model").Str)
			meta.OptString("provider", result.Get("modelProvider").Str)
			meta.OptString("cwd", result.Get("cwd").Str)
			meta.OptString("rollout_path", th.Get("path").Str)
			meta.OptString("forked_from_id", th.Get("forkedFromId").Str)
			return t.status(dst, "", "", "thread_started", t.w.Copy(id), meta.Bytes(), agent, c.raw)
		}
		if method == "thread/resume" {
			t.resumed(result.Get("thread.id").Str)
		}
		return t.threadStarted(dst, c, result.Sub("thread"), result, method)
	case "newConversation":
		return t.conversationStarted(dst, c, result)
	case "thread/rollback":
		if n, err := strconv.ParseInt(rollback, 10, 64); hasRollback && err == nil && n > 0 && t.w.Begun() {
			return t.reverted(dst, c, "", "", n)
		}
	}
	return dst
}

// compactionItem pairs an app-server contextCompaction item (started or
// completed) of a thread's turn with the legacy thread/compacted
// notification of the same compaction, and reports whether it is shown:
// not when the notification came first (then neither is the item's other
// half). The pairing is per thread (a sub-agent's compaction may come in
// between), and a pair once matched is done with: the thread's next
// compaction starts afresh (see state.Compactions).
func (t *Translator) compactionItem(thread, turn, id string) bool {
	slot := t.st.Compactions[thread]
	switch {
	case slot == "s"+id:
		return false
	case slot == "p"+id || slot == "i"+turn+"\x1f"+id:
		return true
	case slot == "l"+turn:
		put(&t.st.Compactions, t.w.Copy(thread), "s"+id)
		return false
	}
	put(&t.st.Compactions, t.w.Copy(thread), "i"+turn+"\x1f"+id)
	return true
}

// legacyCompaction pairs a thread/compacted notification with the
// contextCompaction item shown for the same compaction (see
// compactionItem) and reports whether it is shown: not when it is that
// item's other report.
func (t *Translator) legacyCompaction(thread, turn string) bool {
	slot := t.st.Compactions[thread]
	if rest, ok := strings.CutPrefix(slot, "i"+turn+"\x1f"); ok {
		put(&t.st.Compactions, t.w.Copy(thread), "p"+rest)
		return false
	}
	put(&t.st.Compactions, t.w.Copy(thread), "l"+turn)
	return true
}

// notStarted reports whether a CallToolResult is codex mcp-server's
// answer to a tools/call whose session failed to start (codex-rs
// mcp-server codex_tool_runner.rs): its prompt never reached Codex.
func notStarted(result jsonscan.Value) bool {
	return result.Get("isError").Type == gjson.True &&
		strings.HasPrefix(joinTexts(result.Sub("content"), "text"), "Failed to start Codex session")
}

// toolCallResponse handles codex mcp-server's answer to a tools/call of
// its codex or codex-reply tool (a CallToolResult {content, isError,
// structuredContent}; without the host's lines, a response of that shape).
// It ends the call's Codex session run (codex-rs/mcp-server
// codex_tool_runner.rs): with the last agent message when the task
// completed (the events before it said everything), and otherwise with an
// error the events may not have shown: a session that failed to start
// ("Failed to start Codex session: …", no event at all), a runtime error
// (isError, its text), an error event (result {"error": message}, after
// the error event itself), or a JSON-RPC error (bad arguments, an unknown
// tool). Such an answer is an error event unless an error already failed
// the open turn, and it ends that turn in error.
func (t *Translator) toolCallResponse(dst []event, c *ctx, result jsonscan.Value, rpcErr gjson.Result) []event {
	var msg string
	details := obj().String("method", "tools/call")
	switch {
	case rpcErr.Exists():
		msg = rpcErr.Get("message").Str
		if msg == "" {
			msg = "codex: JSON-RPC error"
		}
		details.Raw("error", rpcErr.Raw)
	case result.Get("isError").Type == gjson.True:
		msg = joinTexts(result.Sub("content"), "text")
		if msg == "" {
			msg = "codex: tool call failed"
		}
	case result.Get("error").Type == gjson.String:
		msg = result.Get("error").Str
	default:
		return dst
	}
	dst = t.ensureSession(dst, result.Get("structuredContent.threadId").Str)
	if !t.st.TurnErr {
		dst = t.emitError(dst, t.w.Copy(msg), t.w.Copy(rpcErr.Get("code").Raw), details.Bytes(), false, agent, c.raw)
	}
	if t.w.Turn() != "" {
		dst = t.endTurn(dst, "", universal.TurnError, nil, agent, c.raw)
	}
	return dst
}

// threadStarted begins the session with the root thread's metadata, or
// registers a sub-agent thread.
func (t *Translator) threadStarted(dst []event, c *ctx, thread, resp jsonscan.Value, method string) []event {
	t.st.V2 = true
	id := thread.Sub("id").Str()
	if id == "" {
		return t.w.Unparsed(dst, c.loc(), errors.New("codex: thread without an id"), c.raw)
	}
	if t.st.Thread != "" && id != t.st.Thread {
		if t.st.Hosted[id] || id == t.st.Review {
			return dst
		}
		if _, ok := t.st.Children[id]; !ok {
			put(&t.st.Children, t.w.Copy(id), t.pendingSpawn())
		}
		return dst
	}
	if t.w.Begun() {
		return dst
	}
	t.st.Thread = t.w.Copy(id)
	t.w.SetNativeSessionID(t.st.Thread)
	// Room for the metadata of most threads (about 400 bytes), which
	// grown from nothing took four allocations.
	o := obj().Grow(512).String("agent", agentName)
	if v := thread.Sub("cliVersion"); v.Type() == gjson.String {
		o.String("agent_version", v.Str())
	}
	str := func(k string, vs ...jsonscan.Value) {
		for _, v := range vs {
			if v.Type() == gjson.String && v.Raw() != `""` {
				o.String(k, v.Str())
				return
			}
		}
	}
	// The session tree's id, when the thread is not its root: a rollout's
	// session_meta session_id gives the same.
	if sid := thread.Sub("sessionId"); sid.Str() != id {
		str("root_session_id", sid)
	}
	str("model", resp.Sub("model"), thread.Sub("model"))
	str("provider", resp.Sub("modelProvider"), thread.Sub("modelProvider"))
	str("cwd", resp.Sub("cwd"), thread.Sub("cwd"))
	for _, v := range []jsonscan.Value{resp.Sub("cwd"), thread.Sub("cwd"), jsonscan.Wrap(gjson.Parse(t.st.Meta["cwd"]))} {
		if v.Type() == gjson.String && v.Raw() != `""` {
			t.st.Cwd = v.OwnStr(t.w.Copy)
			break
		}
	}
	if v := resp.Sub("approvalPolicy"); v.Exists() {
		o.Raw("approval_policy", v.Raw())
	} else {
		o.Raw("approval_policy", t.st.Meta["approval_policy"])
	}
	if v := resp.Sub("sandbox"); v.Exists() {
		o.Raw("sandbox", v.Raw())
	} else {
		o.Raw("sandbox_mode", t.st.Meta["sandbox_mode"])
	}
	str("approvals_reviewer", resp.Sub("approvalsReviewer"))
	str("reasoning_effort", resp.Sub("reasoningEffort"), thread.Sub("reasoningEffort"))
	str("originator", thread.Sub("originator"))
	if v := thread.Sub("source"); v.Exists() && v.Type() != gjson.Null {
		o.RawClean("source", v.Compacted())
	}
	str("thread_source", thread.Sub("threadSource"))
	str("rollout_path", thread.Sub("path"))
	str("forked_from_id", thread.Sub("forkedFromId"))
	str("parent_thread_id", thread.Sub("parentThreadId"))
	str("agent_nickname", thread.Sub("agentNickname"))
	str("agent_role", thread.Sub("agentRole"))
	str("git_branch", thread.Sub("gitInfo").Sub("branch"))
	str("history_mode", thread.Sub("historyMode"))
	str("title", thread.Sub("name"))
	t.st.Title = strings.Clone(thread.Get("name").Str)
	if v := thread.Sub("createdAt"); v.Type() == gjson.Number {
		if sec, err := strconv.ParseInt(v.Raw(), 10, 64); err == nil {
			o.String("created_at", time.Unix(sec, 0).UTC().Format(universal.TimeLayout))
		}
	}
	if method == "thread/resume" {
		o.Bool("resumed", true)
	}
	o.Raw("client", t.st.Meta["client"])
	return t.flushHeldNotices(t.w.BeginClean(dst, o.Bytes(), agent, c.raw))
}

// conversationStarted begins the session from the v1 app-server's
// newConversation response (Codex before ~0.6x, whose app-server has no
// thread/start): {conversationId, model, reasoningEffort, rolloutPath}, with
// the cwd, approval policy and sandbox of the host's request. The session's
// events then come as codex/event/* notifications.
func (t *Translator) conversationStarted(dst []event, c *ctx, resp jsonscan.Value) []event {
	id := resp.Sub("conversationId").Str()
	if id == "" || t.w.Begun() || (t.st.Thread != "" && id != t.st.Thread) {
		return dst
	}
	t.st.Thread = t.w.Copy(id)
	t.w.SetNativeSessionID(t.st.Thread)
	o := obj().String("agent", agentName)
	str := func(k string, v jsonscan.Value) {
		if v.Type() == gjson.String && v.Raw() != `""` {
			o.String(k, v.Str())
		}
	}
	str("model", resp.Sub("model"))
	// The model runs the conversation's calls: their usage (legacy
	// token_count) names it.
	t.setModel("", resp.Get("model").Str, resp.Get("reasoningEffort").Str)
	if cwd := gjson.Parse(t.st.Meta["cwd"]); cwd.Type == gjson.String && cwd.Str != "" {
		t.st.Cwd = strings.Clone(cwd.Str)
		o.String("cwd", cwd.Str)
	}
	o.Raw("approval_policy", t.st.Meta["approval_policy"])
	o.Raw("sandbox_mode", t.st.Meta["sandbox_mode"])
	str("reasoning_effort", resp.Sub("reasoningEffort"))
	str("rollout_path", resp.Sub("rolloutPath"))
	o.Raw("client", t.st.Meta["client"])
	return t.flushHeldNotices(t.w.BeginClean(dst, o.Bytes(), agent, c.raw))
}

// pendingSpawn returns the spawn call whose sub-agent is not yet known.
func (t *Translator) pendingSpawn() string {
	return t.st.Spawn
}

// child registers a thread other than the root one as a sub-agent thread
// and returns it.
func (t *Translator) child(thread string) {
	if thread == "" || t.isRoot(thread) {
		return
	}
	if _, ok := t.st.Children[thread]; !ok {
		put(&t.st.Children, t.w.Copy(thread), t.pendingSpawn())
	}
}

// serverRequest handles a request the server made of the host.
func (t *Translator) serverRequest(dst []event, c *ctx, method string, id gjson.Result, params jsonscan.Value) []event {
	key := "s" + id.Raw
	put(&t.st.Plumb, strings.Clone(key), true)
	rid := t.w.Copy(idString(id))
	thread := params.Get("threadId").Str
	if thread == "" {
		thread = params.Get("conversationId").Str
	}
	thread = t.sessionThread(thread)
	dst = t.ensureSession(dst, thread)
	t.child(thread)
	switch method {
	case "item/commandExecution/requestApproval", "item/fileChange/requestApproval", "item/permissions/requestApproval",
		"execCommandApproval", "applyPatchApproval":
		return t.approvalRequest(dst, c, key, rid, method, thread, params)
	case "item/tool/requestUserInput":
		return t.userInputRequest(dst, c, key, rid, thread, params.Result())
	case "mcpServer/elicitation/request":
		return t.elicitationRequest(dst, c, key, rid, thread, params.Result())
	case "elicitation/create":
		// codex mcp-server asks its MCP client to approve a command or a
		// patch with an MCP elicitation (codex-rs/mcp-server
		// exec_approval.rs, patch_approval.rs); another elicitation is a
		// question.
		switch params.Get("codex_elicitation").Str {
		case "exec-approval", "patch-approval":
			return t.mcpApprovalRequest(dst, c, key, rid, thread, params.Result())
		}
		return t.elicitationRequest(dst, c, key, rid, thread, params.Result())
	case "item/tool/call":
		callID := params.Get("callId").Str
		ik := t.key(thread, callID)
		spec := dynamicToolSpec(t, thread, callID, params.Result())
		put(&t.st.Reqs, key, &request{ID: rid, Kind: reqTool, Key: strings.Clone(ik), Method: strings.Clone(method)})
		return t.toolCall(dst, ik, &spec, false, agent, c.raw)
	case "account/chatgptAuthTokens/refresh", "attestation/generate", "currentTime/read":
		// Plumbing between Codex and its host, not session content.
		return dst
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown server request %q", method), c.raw)
}

// approvalFields are the members of an approval request kept in its
// metadata, in the order written, with their names there.
var approvalFields = [...][2]string{
	{"reason", "reason"}, {"kind", "kind"}, {"command", "command"}, {"cwd", "cwd"},
	{"commandActions", "command_actions"}, {"parsedCmd", "parsed_cmd"}, {"approvalId", "approval_id"},
	{"proposedExecpolicyAmendment", "proposed_execpolicy_amendment"},
	{"networkApprovalContext", "network_approval_context"},
	{"proposedNetworkPolicyAmendments", "proposed_network_policy_amendments"},
	{"availableDecisions", "available_decisions"}, {"grantRoot", "grant_root"},
	{"permissions", "permissions"}, {"fileChanges", "file_changes"},
}

func (t *Translator) approvalRequest(dst []event, c *ctx, key, rid, method, thread string, p jsonscan.Value) []event {
	itemID := p.Get("itemId").Str
	if itemID == "" {
		itemID = p.Get("callId").Str
	}
	ik := t.key(thread, itemID)
	req := &request{ID: rid, Method: method, Key: ik, CallID: t.linkOf(ik, itemID)}
	n := t.item(ik)
	if n == nil && method == "item/commandExecution/requestApproval" && itemID != "" && p.Get("command").Exists() {
		// In 0.100 (before ~0.13x) the request comes before the command's
		// item/started (the item starts once approved): the request
		// starts the call it guards.
		dst, n = t.requestedCommand(dst, c, ik, itemID, thread, p)
	}
	if n != nil {
		req.Item = n.ID
		// Unless the host's answer is seen, the guarded item's outcome
		// resolves the request (older versions send no
		// serverRequest/resolved).
		n.Perm = key
	}
	o := obj().String("method", method)
	o.OptString("thread_id", thread)
	o.OptString("turn_id", p.Get("turnId").Str)
	// One walk over the request's members finds those kept (the first of
	// a repeated key, as a lookup finds it), written in the table's order.
	var kept [len(approvalFields)]jsonscan.Value
	p.Members(func(k string, v jsonscan.Value) bool {
		for i, f := range approvalFields {
			if f[0] == k {
				jsonscan.KeepFirst(&kept[i], v)
				break
			}
		}
		return true
	})
	for i, f := range approvalFields {
		if v := kept[i]; v.Exists() && v.Type() != gjson.Null {
			o.Raw(f[1], v.Raw())
		}
	}
	switch method {
	case "item/commandExecution/requestApproval":
		req.Action = p.Get("command").Str
		if req.Action == "" && n != nil {
			req.Action = t.trackedCommand(n)
		}
		if req.Action == "" {
			req.Action = "command"
		}
	case "execCommandApproval":
		req.Action = joinArgv(p.Get("command"))
	case "item/fileChange/requestApproval":
		req.Action = t.trackedPaths(n)
	case "applyPatchApproval":
		var paths []string
		p.Get("fileChanges").ForEach(func(k, _ gjson.Result) bool {
			paths = append(paths, k.Str)
			return true
		})
		req.Action = "edit " + strings.Join(paths, ", ")
	case "item/permissions/requestApproval":
		req.Action = "permissions"
	}
	req.Action = t.w.Copy(req.Action)
	return t.requestPermission(dst, key, req, o.Bytes(), agent, c.raw)
}

// mcpApprovalRequest maps codex mcp-server's approval elicitation
// (elicitation/create {message, requestedSchema, threadId,
// codex_elicitation: exec-approval | patch-approval, codex_call_id,
// codex_command, codex_cwd, codex_parsed_cmd | codex_reason,
// codex_grant_root, codex_changes}) to permission.requested, as the
// app-server's v1 execCommandApproval and applyPatchApproval; the host
// answers {decision} (a ReviewDecision).
func (t *Translator) mcpApprovalRequest(dst []event, c *ctx, key, rid, thread string, p gjson.Result) []event {
	callID := p.Get("codex_call_id").Str
	ik := t.key(thread, "c:"+callID)
	req := &request{ID: rid, Method: "elicitation/create", Key: ik, CallID: t.w.Copy(callID)}
	if n := t.item(ik); n != nil {
		req.Item = n.ID
		n.Perm = key
	}
	kind := p.Get("codex_elicitation").Str
	o := obj().String("method", req.Method).String("elicitation", kind)
	o.OptString("thread_id", thread)
	o.OptString("message", p.Get("message").Str)
	for _, f := range [...][2]string{{"codex_command", "command"}, {"codex_cwd", "cwd"}, {"codex_parsed_cmd", "parsed_cmd"},
		{"codex_reason", "reason"}, {"codex_grant_root", "grant_root"}, {"codex_changes", "file_changes"}} {
		if v := p.Get(f[0]); v.Exists() && v.Type != gjson.Null {
			o.Raw(f[1], v.Raw)
		}
	}
	if kind == "exec-approval" {
		req.Action = joinArgv(p.Get("codex_command"))
	} else {
		var paths []string
		p.Get("codex_changes").ForEach(func(k, _ gjson.Result) bool {
			paths = append(paths, k.Str)
			return true
		})
		req.Action = "edit " + strings.Join(paths, ", ")
	}
	req.Action = t.w.Copy(req.Action)
	return t.requestPermission(dst, key, req, o.Bytes(), agent, c.raw)
}

// requestedCommand starts the command call an approval request names.
func (t *Translator) requestedCommand(dst []event, c *ctx, key, itemID, thread string, p jsonscan.Value) ([]event, *nitem) {
	spec := toolSpec{native: t.w.Copy(itemID), thread: thread, callID: t.w.Copy(itemID), name: "command_execution",
		args: commandArgs(p.Get("command"), p.Get("cwd"))}
	if a := p.Get("commandActions"); a.Exists() && a.Type != gjson.Null {
		spec.meta = obj().Raw("command_actions", a.Raw).Bytes()
	}
	dst = t.ensureTurn(dst, thread, p.Get("turnId").Str)
	return t.toolCallN(dst, key, &spec, false, agent, c.raw)
}

// trackedCommand returns the command of an open command call.
func (t *Translator) trackedCommand(n *nitem) string {
	it, ok := t.w.Tracked(n.ID)
	if !ok || len(it.Content) == 0 {
		return ""
	}
	return gjson.Get(it.Content[0].Arguments, "command").String()
}

// trackedPaths describes the files an open file change touches.
func (t *Translator) trackedPaths(n *nitem) string {
	if n == nil {
		return "file change"
	}
	it, ok := t.w.Tracked(n.ID)
	if !ok {
		return "file change"
	}
	var paths []string
	if len(it.Content) > 0 {
		gjson.Get(it.Content[0].Arguments, "changes").ForEach(func(_, ch gjson.Result) bool {
			if p := ch.Get("path").Str; p != "" {
				paths = append(paths, p)
			}
			return true
		})
	}
	if len(paths) == 0 {
		return "file change"
	}
	return "edit " + strings.Join(paths, ", ")
}

func joinArgv(r gjson.Result) string {
	if r.Type == gjson.String {
		return r.Str
	}
	var parts []string
	r.ForEach(func(_, v gjson.Result) bool {
		parts = append(parts, v.String())
		return true
	})
	return strings.Join(parts, " ")
}

func (t *Translator) userInputRequest(dst []event, c *ctx, key, rid, thread string, p gjson.Result) []event {
	qs := p.Get("questions")
	req := &request{ID: rid, Method: "item/tool/requestUserInput"}
	itemID := p.Get("itemId").Str
	if n := t.item(t.key(thread, itemID)); n != nil {
		req.Item = n.ID
	}
	var prompts []string
	count := 0
	qs.ForEach(func(_, q gjson.Result) bool {
		count++
		text := q.Get("question").Str
		if h := q.Get("header").Str; h != "" && text != "" {
			text = h + ": " + text
		} else if text == "" {
			text = h
		}
		prompts = append(prompts, text)
		return true
	})
	req.Prompt = t.w.Copy(strings.Join(prompts, "\n"))
	req.Options = []string{}
	if count == 1 {
		qs.Get("0.options").ForEach(func(_, o gjson.Result) bool {
			label := o.Get("label").Str
			if label == "" {
				label = o.String()
			}
			req.Options = append(req.Options, t.w.Copy(label))
			return true
		})
	}
	o := obj().String("method", req.Method)
	o.OptString("thread_id", thread)
	o.OptString("turn_id", p.Get("turnId").Str)
	o.OptString("item_id", itemID)
	o.Raw("questions", qs.Raw)
	o.Raw("is_blocking", p.Get("isBlocking").Raw)
	return t.askQuestion(dst, key, req, o.Bytes(), agent, c.raw)
}

func (t *Translator) elicitationRequest(dst []event, c *ctx, key, rid, thread string, p gjson.Result) []event {
	if m := p.Get("_meta"); m.Get("codex_approval_kind").Str == "mcp_tool_call" {
		return t.mcpToolApproval(dst, c, key, rid, thread, p, m)
	}
	req := &request{ID: rid, Method: "mcpServer/elicitation/request", Options: []string{}}
	req.Prompt = t.w.CopyValue(p.Get("message"))
	for _, f := range mcp.FormFields(p.Get("requestedSchema.properties")) {
		req.Fields = append(req.Fields, mcp.FormField{Key: t.w.Copy(f.Key), Label: t.w.Copy(f.Label)})
	}
	o := obj().String("method", req.Method)
	o.OptString("thread_id", thread)
	o.OptString("turn_id", p.Get("turnId").Str)
	o.OptString("server_name", p.Get("serverName").Str)
	o.OptString("mode", p.Get("mode").Str)
	o.Raw("requested_schema", p.Get("requestedSchema").Raw)
	o.OptString("url", p.Get("url").Str)
	return t.askQuestion(dst, key, req, o.Bytes(), agent, c.raw)
}

// mcpToolApproval maps the elicitation with which Codex asks to approve a
// call of an MCP tool (_meta {codex_approval_kind: "mcp_tool_call",
// persist: the scopes an approval may be remembered for, tool_title,
// tool_description, the arguments, a connector's id, name and
// description}; openai/codex's MCP tool approval, which codex-acp turns
// into a request for permission too) to permission.requested: its action
// is the server and the tool's title, the message and _meta in metadata.
// The host answers {action: accept | decline | cancel, _meta {persist}}.
// The request names no call (the MCP tool call item may not have started
// yet), so the permission names no item.
func (t *Translator) mcpToolApproval(dst []event, c *ctx, key, rid, thread string, p, m gjson.Result) []event {
	req := &request{ID: rid, Method: "mcpServer/elicitation/request"}
	server, title := p.Get("serverName").Str, m.Get("tool_title").Str
	switch {
	case server != "" && title != "":
		req.Action = server + ": " + title
	case title != "":
		req.Action = title
	default:
		req.Action = p.Get("message").Str
	}
	req.Action = t.w.Copy(req.Action)
	o := obj().String("method", req.Method)
	o.OptString("thread_id", thread)
	o.OptString("turn_id", p.Get("turnId").Str)
	o.OptString("server_name", server)
	o.OptString("message", p.Get("message").Str)
	o.Raw("approval", m.Raw)
	return t.requestPermission(dst, key, req, o.Bytes(), agent, c.raw)
}

// clientResponse handles the host's answer to a server request.
func (t *Translator) clientResponse(dst []event, c *ctx, id, result, rpcErr gjson.Result) []event {
	key := "s" + id.Raw
	if !t.st.Plumb[key] {
		// The exchange shows every server request: this answers none,
		// or one already answered.
		return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: response to no server request (id %s)", idString(id)), c.raw)
	}
	delete(t.st.Plumb, key)
	req := t.st.Reqs[key]
	if req == nil || req.Answered {
		// An answer to plumbing (auth refresh, attestation) or to a
		// request already settled.
		return dst
	}
	req.Answered = true
	switch req.Kind {
	case reqPermission:
		approved, meta := decision(result, rpcErr)
		dst = t.resolvePermission(dst, key, approved, meta, agent, c.raw)
	case reqQuestion:
		answered, response, meta := answer(req, result, rpcErr)
		dst = t.resolveQuestion(dst, key, answered, t.w.Copy(response), meta, agent, c.raw)
	case reqTool:
		n := t.item(req.Key)
		if n != nil {
			spec := toolSpec{native: n.CallID, callID: n.CallID, name: n.Name, keep: true}
			out, images := t.dynamicOutput(result.Get("contentItems"), nil)
			res := resultSpec{output: t.w.Copy(out), meta: []byte(nil), extra: images}
			if s := result.Get("success"); s.Type == gjson.False || rpcErr.Exists() {
				res.isError, res.failed = true, true
			}
			if rpcErr.Exists() {
				res.output = t.w.CopyValue(rpcErr.Get("message"))
			}
			dst = t.toolResult(dst, req.Key, &spec, &res, agent, c.raw)
		}
		t.st.dropPending(key)
	}
	return dst
}

// decision reads the host's answer to an approval request.
func decision(result, rpcErr gjson.Result) (bool, []byte) {
	if rpcErr.Exists() {
		return false, obj().String("decision", "error").Raw("error", rpcErr.Raw).Bytes()
	}
	d := result.Get("decision")
	o := obj()
	approved := false
	switch {
	case d.Type == gjson.String:
		o.String("decision", d.Str)
		switch d.Str {
		case "accept", "acceptForSession", "approved", "approved_for_session", "allow", "approve":
			approved = true
		}
		if s := result.Get("acceptSettings"); s.Exists() {
			o.Raw("accept_settings", s.Raw)
		}
	case d.IsObject():
		// {"acceptWithExecpolicyAmendment": …}, {"applyNetworkPolicyAmendment": …}
		d.ForEach(func(k, _ gjson.Result) bool {
			o.String("decision", k.Str)
			return false
		})
		o.Raw("amendment", d.Raw)
		approved = true
	case result.Get("action").Type == gjson.String:
		// An MCP tool approval's answer, an elicitation's: accept,
		// decline or cancel, with the scope it is remembered for.
		a := result.Get("action").Str
		o.String("decision", a)
		if v := result.Get("_meta.persist"); v.Exists() && v.Type != gjson.Null {
			o.Raw("persist", v.Raw)
		}
		approved = a == "accept"
	case result.Get("permissions").Exists():
		// item/permissions/requestApproval: the granted permissions.
		perms := result.Get("permissions")
		o.String("decision", "grant")
		o.Raw("permissions", perms.Raw)
		o.Raw("scope", result.Get("scope").Raw)
		approved = perms.Type != gjson.Null && perms.Raw != "{}" && perms.Raw != "[]"
	default:
		o.Raw("result", result.Raw)
	}
	return approved, o.Bytes()
}

// answer reads the host's answer to a question.
func answer(req *request, result, rpcErr gjson.Result) (bool, string, []byte) {
	if rpcErr.Exists() {
		return false, "", obj().Raw("error", rpcErr.Raw).Bytes()
	}
	if req.Method == "mcpServer/elicitation/request" {
		action := result.Get("action").Str
		o := obj().String("action", action)
		o.Raw("content", result.Get("content").Raw)
		if action != "accept" {
			return false, "", o.Bytes()
		}
		// What the user answered, the content object in metadata.
		return true, mcp.FormAnswer(result.Get("content"), req.Fields), o.Bytes()
	}
	var lines []string
	result.Get("answers").ForEach(func(_, a gjson.Result) bool {
		var vals []string
		a.Get("answers").ForEach(func(_, v gjson.Result) bool {
			vals = append(vals, v.String())
			return true
		})
		lines = append(lines, strings.Join(vals, ", "))
		return true
	})
	return true, strings.Join(lines, "\n"), obj().Raw("answers", result.Get("answers").Raw).Bytes()
}

// notification handles a server notification.
func (t *Translator) notification(dst []event, c *ctx, method string, p jsonscan.Value) []event {
	if method == "codex/event" || strings.HasPrefix(method, "codex/event/") {
		// The app-server's v1 notifications name their conversation;
		// codex mcp-server's codex/event (the same {id, msg} Event, one
		// method for every type) names it in _meta.threadId since
		// ~0.4x, and not at all before: the session_configured event
		// starts the session then.
		thread := p.Get("conversationId").Str
		if thread == "" {
			thread = p.Get("_meta.threadId").Str
		}
		if t.st.V2 {
			// The same facts come as v2 notifications on this connection,
			// but for the usage of a server that sends no
			// thread/tokenUsage/updated (0.63: its legacy token_count is
			// the only usage). Servers that send both send the legacy
			// copy first (0.77 … 0.100), so the first v2 one of the same
			// totals reports nothing new (see tokenUsage).
			if method == "codex/event/token_count" && !t.st.V2Usage {
				if info := p.Sub("msg").Sub("info"); info.IsObject() {
					return t.tokenCount(dst, c, info, thread)
				}
			}
			return dst
		}
		if method == "codex/event" || p.Get("_meta.requestId").Exists() {
			// codex mcp-server's (the app-server's v1 methods name the
			// event's type).
			t.st.MCP = true
		}
		msg := p.Sub("msg")
		if msg.Get("type").Str != "session_configured" {
			dst = t.ensureSession(dst, thread)
		}
		return t.eventMsg(dst, c, msg, live, thread)
	}
	// One walk over params reads what the frequent notifications (the
	// deltas) need; a duplicate key: the first wins, as with Get.
	var threadV, itemV, deltaV, indexV jsonscan.Value
	p.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "threadId":
			jsonscan.KeepFirst(&threadV, v)
		case "itemId":
			jsonscan.KeepFirst(&itemV, v)
		case "delta":
			jsonscan.KeepFirst(&deltaV, v)
		case "summaryIndex":
			if method == "item/reasoning/summaryTextDelta" {
				jsonscan.KeepFirst(&indexV, v)
			}
		case "contentIndex":
			if method == "item/reasoning/textDelta" {
				jsonscan.KeepFirst(&indexV, v)
			}
		}
		return true
	})
	thread := t.sessionThread(threadV.Str())
	if strings.HasPrefix(method, "item/") && method != "item/started" && method != "item/completed" && !itemV.Exists() &&
		!strings.HasPrefix(method, "item/autoApprovalReview/") {
		if _, ok := ignoredNotifications[method]; !ok {
			return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: %s without an itemId", method), c.raw)
		}
	}
	switch method {
	case "thread/started":
		return t.threadStarted(dst, c, p.Sub("thread"), jsonscan.Value{}, "")
	case "thread/reverted":
		if !t.isRoot(thread) {
			return dst
		}
		dst = t.ensureSession(dst, thread)
		first := t.st.Revert
		t.st.Revert = ""
		return t.reverted(dst, c, "", first, 0)
	case "thread/name/updated":
		if !t.isRoot(thread) {
			return dst // a sub-agent thread's name: not the session's title
		}
		dst = t.ensureSession(dst, thread)
		return t.title(dst, c, p.Sub("threadName"))
	case "turn/started":
		t.resumeStarted(thread)
		return t.turnStarted(dst, c, thread, p.Sub("turn"))
	case "turn/completed":
		return t.turnCompleted(dst, c, thread, p.Sub("turn"))
	case "item/started", "item/completed":
		t.st.V2 = true
		dst = t.ensureSession(dst, thread)
		t.child(thread)
		turn := p.Get("turnId").Str
		dst = t.ensureTurn(dst, thread, turn)
		if p.Get("item.type").Str == "contextCompaction" && !t.compactionItem(thread, turn, p.Get("item.id").Str) {
			return dst // thread/compacted reported it
		}
		return t.v2Item(dst, c, thread, p.Sub("item"), method == "item/completed")
	case "thread/compacted":
		// Deprecated since the contextCompaction item (openai/codex PR
		// 10016, January 2026), which reports the same compaction; before
		// it (0.6x–0.9x), the only trace of one.
		turn := p.Get("turnId").Str
		if !t.legacyCompaction(thread, turn) {
			return dst // its contextCompaction item reported it
		}
		dst = t.ensureSession(dst, thread)
		t.child(thread)
		dst = t.ensureTurn(dst, thread, turn)
		return t.status(dst, "", t.copyThread(thread), universal.LabelCompaction, "", nil, agent, c.raw)
	case "item/agentMessage/delta", "item/plan/delta":
		t.scan.Mark(&t.mark, deltaV)
		id := itemV.Str()
		// The spec is only used (and copied) when the item was never started.
		m := msgSpec{native: id, thread: thread, role: universal.RoleAssistant}
		return t.messageDelta(dst, t.key(thread, id), kindMessage, m, 0, universal.PartText, t.deltaText(deltaV), c.raw)
	case "item/reasoning/summaryTextDelta", "item/reasoning/textDelta":
		idx := int(indexV.Int())
		if method == "item/reasoning/textDelta" {
			idx = -1 - idx
		}
		t.scan.Mark(&t.mark, deltaV)
		return t.reasoningDelta(dst, c, thread, itemV.Str(), idx, t.deltaText(deltaV))
	case "item/reasoning/summaryPartAdded":
		// The part is created by its first delta.
		return dst
	case "item/commandExecution/outputDelta", "item/fileChange/outputDelta":
		t.scan.Mark(&t.mark, deltaV)
		return t.toolOutput(dst, t.key(thread, itemV.Str()), t.deltaText(deltaV), c.raw)
	case "thread/tokenUsage/updated":
		return t.tokenUsage(dst, c, thread, p)
	case "thread/settings/updated":
		// The thread's settings for its next turns (a turn/start's
		// overrides stick), as a rollout's thread_settings_applied:
		// the model and effort its calls run with.
		ts := p.Sub("threadSettings")
		t.setModel(thread, ts.Sub("model").Str(), ts.Sub("effort").Str())
		if cwd := ts.Sub("cwd").Str(); cwd != "" && cwd != t.st.Cwd && t.w.Begun() && t.isRoot(thread) {
			t.st.Cwd = strings.Clone(cwd)
		}
		return t.modeSettings(dst, c, thread, ts.Sub("collaborationMode"), ts.Sub("approvalPolicy"), ts.Sub("sandboxPolicy"))
	case "turn/plan/updated":
		return t.planStatus(dst, c, thread, p.Get("plan"), p.Get("explanation").Str, "")
	case "thread/goal/updated", "thread/goal/cleared":
		return t.goalStatus(dst, c, thread, p.Get("goal"), method == "thread/goal/cleared")
	case "error":
		return t.errorNotification(dst, c, thread, p.Result())
	case "serverRequest/resolved":
		return t.serverRequestResolved(dst, p.Get("requestId"))
	case "hook/completed":
		dst = t.ensureSession(dst, thread)
		t.child(thread)
		dst = t.ensureTurn(dst, thread, p.Get("turnId").Str)
		return t.hookContext(dst, c, t.copyThread(thread), p.Get("run"))
	case "item/autoApprovalReview/started", "item/autoApprovalReview/completed":
		return t.autoApprovalReview(dst, c, thread, p)
	case "model/rerouted":
		detail := p.Get("fromModel").Str + " → " + p.Get("toModel").Str
		return t.status(dst, "", t.copyThread(thread), "model_rerouted", t.w.Copy(detail), metaOf("reason", p.Get("reason")), agent, c.raw)
	case "warning", "guardianWarning":
		msg := p.Get("message").Str
		if msg == "" {
			msg = p.Get("summary").Str
		}
		return t.status(dst, "", t.copyThread(thread), snake(method), t.w.Copy(msg), nil, agent, c.raw)
	case "configWarning", "deprecationNotice":
		// Codex's own exec prints both as warnings (an error item of
		// "summary (details)"); a config warning also names the file.
		meta := cleanJSON(obj().Raw("path", p.Get("path").Raw).Raw("range", p.Get("range").Raw).Bytes())
		return t.notice(dst, c, thread, snake(method), noticeText(p.Get("summary").Str, p.Get("details").Str), meta)
	case "mcpServer/startupStatus/updated":
		// starting and ready say nothing for the transcript; a server
		// that failed to start (or whose start was cancelled) is a
		// notice, as codex-acp forwards it.
		st := p.Get("status").Str
		if st != "failed" && st != "cancelled" {
			return dst
		}
		name := p.Get("name").Str
		meta := obj().String("mcp_server", name).String("status", st).Raw("failure_reason", p.Get("failureReason").Raw)
		return t.notice(dst, c, thread, "notice", mcpStartupText(name, st, p.Get("error").Str), cleanJSON(meta.Bytes()))
	case "thread/closed":
		if t.isRoot(thread) && t.w.Begun() {
			dst = t.finish(dst)
			return t.w.End(dst, universal.SessionEnded{Reason: t.endReason(), TerminatedBy: universal.ByAgent}, agent, c.raw)
		}
		return t.closeChild(dst, thread)
	}
	if _, ok := ignoredNotifications[method]; ok {
		return dst
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown notification %q", method), c.raw)
}

// autoApprovalReview maps the automatic reviewer's review of an action
// (item/autoApprovalReview/started, /completed {threadId, turnId,
// reviewId, targetItemId, review {status, riskLevel, userAuthorization,
// rationale}, decisionSource, action}: app-server v2, approvalsReviewer
// "auto_review" or "guardian_subagent") as the rollout's
// guardian_assessment is mapped: the reviewer is asked, and decides.
func (t *Translator) autoApprovalReview(dst []event, c *ctx, thread string, p jsonscan.Value) []event {
	dst = t.ensureSession(dst, thread)
	t.child(thread)
	dst = t.ensureTurn(dst, thread, p.Get("turnId").Str)
	target := p.Get("targetItemId").Str
	review := p.Sub("review")
	r := autoReview{id: p.Get("reviewId").Str, item: t.key(thread, target), target: target,
		status: review.Get("status").Str, action: p.Sub("action")}
	r.fields[0], r.fields[1], r.fields[2] = review.Sub("riskLevel"), review.Sub("userAuthorization"), review.Sub("rationale")
	r.fields[3] = p.Sub("decisionSource")
	return t.reviewerPermission(dst, c, &r)
}

// ignoredNotifications are the app-server notifications that carry nothing
// for the transcript (see the package documentation).
var ignoredNotifications = map[string]struct{}{
	"thread/status/changed": {}, "thread/readState/changed": {}, "thread/archived": {}, "thread/deleted": {},
	"thread/unarchived": {}, "skills/changed": {},
	"thread/section/changed": {}, "thread/attachment/updated": {},
	"thread/prediction/updated": {}, "thread/queue/changed": {}, "project/changed": {},
	"thread/project/updated": {}, "thread/environment/connected": {}, "thread/environment/disconnected": {},
	"hook/started": {}, "turn/diff/updated": {},
	"autoApprovalReview/strictReviewRequired": {}, "command/exec/outputDelta": {}, "process/outputDelta": {},
	"process/exited": {}, "item/commandExecution/terminalInteraction": {}, "item/fileChange/patchUpdated": {},
	"item/mcpToolCall/progress": {}, "mcpServer/oauthLogin/completed": {},
	"mcpServer/event/stream/notification": {}, "account/updated": {}, "account/gatewayOAuth/changed": {},
	"account/rateLimits/updated": {}, "app/list/updated": {}, "remoteControl/status/changed": {},
	"externalAgentConfig/import/progress": {}, "externalAgentConfig/import/completed": {}, "fs/changed": {},
	"model/verification": {}, "modelProvider/authRecoveryStarted": {},
	"modelProvider/authRecoveryCompleted": {}, "turn/moderationMetadata": {}, "model/safetyBuffering/updated": {},
	"fuzzyFileSearch/sessionUpdated": {}, "fuzzyFileSearch/sessionCompleted": {}, "thread/search/partial": {},
	"thread/realtime/started": {}, "thread/realtime/itemAdded": {},
	"thread/realtime/item/started": {}, "thread/realtime/item/transcript/delta": {},
	"thread/realtime/item/completed": {}, "thread/realtime/transcript/delta": {},
	"thread/realtime/transcript/done": {}, "thread/realtime/outputAudio/delta": {}, "thread/realtime/sdp": {},
	"thread/realtime/error": {}, "thread/realtime/closed": {}, "windows/worldWritableWarning": {},
	"windowsSandbox/setupCompleted": {}, "account/login/completed": {}, "rawResponseItem/completed": {},
	"authStatusChange": {}, "loginChatGptComplete": {}, "sessionConfigured": {},
}

// notice emits a status item for a notice of Codex's own (a warning about
// its configuration, a deprecation, an MCP server that did not start):
// one that comes before the session started is held until it starts
// (Codex sends its config warnings before its thread/start response).
func (t *Translator) notice(dst []event, c *ctx, thread, label, text string, meta []byte) []event {
	if !t.w.Begun() && len(t.st.HeldNotices) < maxHeldNotices {
		n := heldNotice{Thread: strings.Clone(thread), Label: label, Detail: strings.Clone(text), Raw: string(c.raw)}
		if len(meta) > 0 && string(meta) != "{}" {
			n.Meta = string(meta)
		}
		t.st.HeldNotices = append(t.st.HeldNotices, n)
		return dst
	}
	return t.status(dst, "", t.copyThread(thread), label, t.w.Copy(text), meta, agent, c.raw)
}

// mcpStartupText says that an MCP server failed to start, as codex-acp
// words it, with the error.
func mcpStartupText(server, status, err string) string {
	s := "MCP server `" + server + "` failed to start"
	if status == "cancelled" {
		s = "MCP server `" + server + "` start was cancelled"
	}
	if err != "" {
		s += ": " + err
	}
	return s
}

// noticeText is a config warning's or deprecation notice's text as
// codex exec prints it: the summary, and its details in parentheses.
func noticeText(summary, details string) string {
	if details == "" {
		return summary
	}
	return summary + " (" + details + ")"
}

func (t *Translator) copyThread(thread string) string {
	if thread == "" || thread == t.st.Thread {
		return t.st.Thread
	}
	return t.w.Copy(thread)
}

func metaOf(k string, v gjson.Result) []byte {
	if !v.Exists() || v.Type == gjson.Null {
		return nil
	}
	return obj().Raw(k, v.Raw).Bytes()
}

func (t *Translator) turnStarted(dst []event, c *ctx, thread string, turn jsonscan.Value) []event {
	t.st.V2 = true
	dst = t.ensureSession(dst, thread)
	id := turn.Get("id").Str
	if !t.isRoot(thread) {
		t.child(thread)
		return dst
	}
	var meta []byte
	if root := turn.Get("rootTurnId").Str; root != "" && root != id {
		meta = obj().String("root_turn_id", root).Bytes()
	}
	return t.startTurn(dst, t.w.Copy(id), meta, agent, c.raw)
}

func (t *Translator) turnCompleted(dst []event, c *ctx, thread string, turn jsonscan.Value) []event {
	t.st.V2 = true
	dst = t.ensureSession(dst, thread)
	id := turn.Get("id").Str
	turnErr := turn.Get("error")
	hasErr := turnErr.Exists() && turnErr.Type != gjson.Null
	if !t.isRoot(thread) {
		dst = t.closeChild(dst, thread)
		if turn.Get("status").Str == "failed" {
			dst = t.subAgentError(dst, c, thread, "sub_agent_failed", turnErr.Get("message").Str, errorCode(turnErr.Get("codexErrorInfo")), errorDetails(turnErr))
		}
		return dst
	}
	status := universal.TurnCompleted
	switch turn.Get("status").Str {
	case "interrupted":
		status = universal.TurnInterrupted
	case "failed":
		status = universal.TurnError
	}
	if t.w.Turn() == "" || t.w.Turn() != id {
		dst = t.startTurn(dst, t.w.Copy(id), nil, daemon, nil)
	}
	dst = t.beforeAgentItem(dst, thread)
	if status == universal.TurnError && !t.st.TurnErr {
		msg := turnErr.Get("message").Str
		if msg == "" {
			msg = "codex: turn failed"
		}
		dst = t.emitError(dst, t.w.Copy(msg), errorCode(turnErr.Get("codexErrorInfo")), errorDetails(turnErr), false, agent, c.raw)
	}
	o := obj()
	if d := turn.Get("durationMs"); d.Type == gjson.Number {
		o.Int("duration_ms", d.Int())
	}
	if hasErr {
		o.Raw("error", turnErr.Raw)
	}
	var meta []byte
	if o.Len() > 0 {
		meta = o.Bytes()
	}
	return t.endTurn(dst, "", status, meta, agent, c.raw)
}

// errorCode returns codexErrorInfo when it is a plain string.
func errorCode(info gjson.Result) string {
	if info.Type == gjson.String {
		return info.Str
	}
	if info.IsObject() {
		code := ""
		info.ForEach(func(k, _ gjson.Result) bool {
			code = k.Str
			return false
		})
		return code
	}
	return ""
}

func errorDetails(e gjson.Result) []byte {
	o := obj()
	for _, f := range [...][2]string{{"codexErrorInfo", "codex_error_info"}, {"additionalDetails", "additional_details"}, {"misalignment", "misalignment"}} {
		if v := e.Get(f[0]); v.Exists() && v.Type != gjson.Null {
			o.Raw(f[1], v.Raw)
		}
	}
	if o.Len() == 0 {
		return nil
	}
	return o.Bytes()
}

func (t *Translator) errorNotification(dst []event, c *ctx, thread string, p gjson.Result) []event {
	dst = t.ensureSession(dst, thread)
	e := p.Get("error")
	msg := e.Get("message").Str
	if msg == "" {
		msg = p.Get("message").Str
	}
	retry := p.Get("willRetry").Bool()
	if !retry && !t.isRoot(thread) {
		return t.subAgentError(dst, c, thread, "sub_agent_error", msg, errorCode(e.Get("codexErrorInfo")), errorDetails(e))
	}
	return t.emitError(dst, t.w.Copy(msg), t.w.Copy(errorCode(e.Get("codexErrorInfo"))), errorDetails(e), retry, agent, c.raw)
}

// serverRequestResolved handles the server's note that a request was
// answered or cleared. When the host's answer was not visible, a
// permission is resolved from the guarded item's outcome and a question as
// answered (its answer unknown).
func (t *Translator) serverRequestResolved(dst []event, id gjson.Result) []event {
	key := "s" + id.Raw
	req := t.st.Reqs[key]
	if req == nil || req.Answered {
		return dst
	}
	switch req.Kind {
	case reqPermission:
		if n := t.item(req.Key); n != nil && !n.RDone {
			n.Perm = key
			return dst
		}
		return t.resolvePermission(dst, key, true, []byte(`{"decision":null,"inferred_from":"serverRequest/resolved"}`), daemon, nil)
	case reqQuestion:
		return t.resolveQuestion(dst, key, true, "", []byte(`{"inferred_from":"serverRequest/resolved","answer_visible":false}`), daemon, nil)
	}
	return dst
}

// settlePermission resolves a permission that waited for its item's
// outcome.
func (t *Translator) settlePermission(dst []event, n *nitem, declined bool, status string, raw []byte) []event {
	if n.Perm == "" {
		return dst
	}
	key := n.Perm
	n.Perm = ""
	meta := obj().String("inferred_from", "item status").String("item_status", status).Bytes()
	return t.resolvePermission(dst, key, !declined, meta, agent, raw)
}

func (t *Translator) tokenUsage(dst []event, c *ctx, thread string, p jsonscan.Value) []event {
	dst = t.ensureSession(dst, thread)
	tu := p.Sub("tokenUsage")
	total := tu.Sub("total")
	var cur counts
	if total.IsObject() {
		cur = readCounts(total, &camelUsage)
	}
	if cur.has != 0 {
		// The thread's running total (keyed apart from the legacy
		// token_count's): one that did not move reports no new call.
		// Codex re-sends the thread's usage when it is resumed (0.154:
		// after the thread/resume response, with the last turn's id),
		// which is no call of the session's.
		if !t.totalMoved("a:", thread, &cur) {
			return dst
		}
		if !t.st.V2Usage {
			// The first: the legacy token_count just before it, read
			// until now, may have reported the same totals.
			t.st.V2Usage = true
			if prev := t.lastTotal("t:", thread); prev != nil && prev.same(&cur) {
				return dst
			}
		}
	}
	turn := t.w.CopyValue(p.Get("turnId"))
	window := countOf(tu.Get("modelContextWindow"))
	if last := tu.Sub("last"); last.IsObject() && !t.resumeResent(thread) {
		dst = t.usageMD(dst, turn, universal.ScopeCall, readCounts(last, &camelUsage), window, t.callMD(thread), c.raw)
	}
	if !t.isRoot(thread) {
		// A sub-agent's running total is its own thread's: only its calls
		// count toward the session.
		return dst
	}
	if cur.has != 0 {
		dst = t.usage(dst, turn, universal.ScopeSession, cur, window, c.raw)
	}
	return dst
}

// goalStatus handles thread/goal/updated and thread/goal/cleared: the
// thread's goal, set by the user (thread/goal/set) or by the model
// (create_goal, update_goal: on the app-server the goal's only trace), is
// a goal status item with the objective and its status, and the goal
// object in metadata, when its objective or status changes, and a
// goal_cleared one when it is cleared; updates of its usage alone
// (tokensUsed, timeUsedSeconds, after each model response) make none.
func (t *Translator) goalStatus(dst []event, c *ctx, thread string, goal gjson.Result, cleared bool) []event {
	prev, had := t.st.Goals[thread]
	if cleared {
		if !had {
			return dst
		}
		delete(t.st.Goals, thread)
		dst = t.ensureSession(dst, thread)
		return t.status(dst, "", t.copyThread(thread), "goal_cleared", "", nil, agent, c.raw)
	}
	objective, status := goal.Get("objective").Str, goal.Get("status").Str
	key := status + "\x00" + objective
	if had && prev == key {
		return dst
	}
	if t.st.Goals == nil {
		t.st.Goals = map[string]string{}
	}
	t.st.Goals[t.w.Copy(thread)] = t.w.Copy(key)
	detail := objective
	if status != "" {
		detail += " (" + status + ")"
	}
	dst = t.ensureSession(dst, thread)
	return t.status(dst, "", t.copyThread(thread), "goal", detail, metaOf("goal", goal), agent, c.raw)
}

// planStatus emits a plan (todo list) snapshot as a status item.
func (t *Translator) planStatus(dst []event, c *ctx, thread string, plan gjson.Result, explanation, native string) []event {
	dst = t.ensureSession(dst, thread)
	var b []byte
	plan.ForEach(func(_, step gjson.Result) bool {
		text := step.Get("step").Str
		if text == "" {
			text = step.Get("text").Str
		}
		s := universal.StepStateOf(step.Get("status").Str)
		if step.Get("completed").Bool() {
			s = universal.StepCompleted
		}
		b = universal.AppendPlanStep(b, s, text)
		return true
	})
	o := obj().Raw("plan", rawOr(plan, "[]"))
	o.OptString("explanation", explanation)
	return t.status(dst, native, t.copyThread(thread), universal.LabelPlan, string(b), o.Bytes(), agent, c.raw)
}
