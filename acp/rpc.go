package acp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/apierror"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The ACP v1 methods (schema/v1/meta.json and meta.unstable.json).
const (
	mInitialize        = "initialize"
	mAuthenticate      = "authenticate"
	mLogout            = "logout"
	mNew               = "session/new"
	mLoad              = "session/load"
	mResume            = "session/resume"
	mFork              = "session/fork"
	mList              = "session/list"
	mDelete            = "session/delete"
	mClose             = "session/close"
	mSetMode           = "session/set_mode"
	mSetModel          = "session/set_model"
	mSetConfig         = "session/set_config_option"
	mPrompt            = "session/prompt"
	mCancel            = "session/cancel"
	mUpdate            = "session/update"
	mChildUpdate       = "opencode/session/child_update" // OpenCode 2.x's sub-agent updates
	mRequestPermission = "session/request_permission"
	mReadFile          = "fs/read_text_file"
	mWriteFile         = "fs/write_text_file"
	mTermCreate        = "terminal/create"
	mTermOutput        = "terminal/output"
	mTermRelease       = "terminal/release"
	mTermWait          = "terminal/wait_for_exit"
	mTermKill          = "terminal/kill"
	mElicit            = "elicitation/create"
	mElicitComplete    = "elicitation/complete"
	mCancelRequest     = "$/cancel_request"
	mSetTitle          = "session/set_title"
	mMcpMessage        = "mcp/message"
	// The unstable proxy chains (@agentclientprotocol/sdk 2.4.0's
	// schemas, the Proxy Chains RFD): a conductor initializes a proxy
	// with proxy/initialize, whose params and response are initialize's,
	// and the proxy's traffic with its successor goes wrapped in
	// proxy/successor {method, params}, both ways.
	mProxyInit      = "proxy/initialize"
	mProxySuccessor = "proxy/successor"
)

// ignoredMethods are requests and notifications that carry nothing for
// the transcript (see the package documentation): session management
// without content, and non-standard requests real agents send that
// clients answer with "method not found".
var ignoredMethods = map[string]bool{
	mAuthenticate: true, mLogout: true, mList: true, mDelete: true, mClose: true,
	mCancelRequest: true, mElicitComplete: true, mTermRelease: true, mTermKill: true,
	// The unstable auth/status_update (the agent's sign-in state,
	// {state, accounts}): nothing of the transcript.
	"auth/status_update": true,
	// Qwen Code's sign-in link while it authenticates with Qwen OAuth
	// ({_meta: {authUri}}, acpAgent.ts authenticate, sent without the
	// "_" of an extension method): nothing of the transcript.
	"authenticate/update": true,
	// Qwen Code's drain (its answer is read: qwenDrained) and todo
	// guard requests (qwen.go), and the host's release of the guard.
	mQwenDrain: true, mQwenClaimGuard: true, mQwenGuardRelease: true,
	// MCP over ACP (unstable, @agentclientprotocol/sdk 2.4.0's schemas:
	// MessageMcpRequest {serverId, requestId, method, params} and
	// MessageMcpNotification, either side the provider of an MCP server
	// declared with transport "acp"): the inner MCP traffic the
	// connection carries for that server, not the transcript. A tool call
	// the model makes through it is the agent's own tool_call update.
	// The agent opens and closes such a connection to a server the host
	// provides with mcp/connect {serverId} (answered {connectionId}) and
	// mcp/disconnect {connectionId} (the schemas' clientMethods, v1 and
	// v2 unstable): no content either.
	mMcpMessage: true, "mcp/connect": true, "mcp/disconnect": true,
	// A proxy's traffic with its successor (the agent after it in the
	// chain): what the proxy passes on to the host, or answers it, comes
	// as its own messages, which are read.
	mProxySuccessor: true,
}

// hostIgnored are the host's requests of the newest schemas
// (@agentclientprotocol/sdk 2.4.0: v1 unstable and v2) that carry nothing
// for the transcript: sign-in and providers, archiving and the status of
// sessions, and v2's tool_call/cancel and terminal/cancel (the call's own
// update says it was cancelled).
var hostIgnored = map[string]bool{
	"auth/status": true, "auth/login": true, "auth/logout": true,
	"providers/list": true, "providers/set": true, "providers/disable": true,
	"session/archive": true, "session/unarchive": true, "session/status": true,
	"tool_call/cancel": true, "terminal/cancel": true,
	mQwenGuardRelease: true,
	// Next edit suggestions (unstable, v1 and v2: the NES RFD): the
	// editor's inline edit predictions in an NES session of their own
	// (nes/start answers its sessionId), not the conversation:
	// nes/start, suggest and close, the nes/accept and nes/reject
	// notifications, and the document/* events that keep the agent's
	// copy of the open files.
	"nes/start": true, "nes/suggest": true, "nes/close": true, "nes/accept": true, "nes/reject": true,
	"document/didOpen": true, "document/didChange": true, "document/didClose": true,
	"document/didSave": true, "document/didFocus": true,
	// MCP over ACP: the host as the consumer of an MCP server the agent
	// provides (see ignoredMethods).
	mMcpMessage: true,
	// A proxy's successor's messages the conductor delivers (see
	// ignoredMethods).
	mProxySuccessor: true,
}

// extension reports whether a method is an ACP extension method (names
// starting with "_" are reserved for them): ignored, as the protocol says
// a peer that does not know one must.
func extension(method string) bool { return strings.HasPrefix(method, "_") }

// request translates a JSON-RPC request.
func (t *Translator) request(dst []universal.Event, in *input, method, id string) []universal.Event {
	if method == mProxyInit {
		method = mInitialize
	}
	params := in.params
	if in.dir == universal.In {
		return t.hostRequest(dst, in, method, id, params)
	}
	switch method {
	case mRequestPermission:
		return t.permissionRequest(dst, in, id, params)
	case mReadFile, mWriteFile:
		return t.fsRequest(dst, in, method, id, params)
	case mTermCreate, mTermOutput, mTermWait, mTermRelease, mTermKill:
		return t.terminalRequest(dst, in, method, id, params)
	case mElicit:
		return t.elicitation(dst, in, id, params)
	}
	if dst, ok := t.cursorMethod(dst, in, method, id); ok {
		return dst
	}
	t.remember(in.dir, id, request{Method: t.copy(method)})
	if ignoredMethods[method] || extension(method) {
		return dst
	}
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: request %q from the agent", errUnknown, method), in.raw)
}

// hostRequest translates a request of the host (client) to the agent.
func (t *Translator) hostRequest(dst []universal.Event, in *input, method, id string, params jsonscan.Value) []universal.Event {
	r := request{Method: t.copy(method)}
	switch method {
	case mInitialize:
		t.meta("client_info", params.Sub("clientInfo"))
		t.meta("client_capabilities", params.Sub("clientCapabilities"))
	case mNew, mLoad, mResume, mFork:
		cwd := params.Sub("cwd")
		if s := cwd.Str(); s != "" {
			t.st.Cwd = t.copy(s)
			t.meta("cwd", cwd)
		}
		if s := params.Sub("mcpServers"); s.IsArray() && s.Len() > 0 {
			t.meta("mcp_servers", s)
		}
		if sid := params.Get("sessionId").Str; sid != "" && method != mFork {
			t.w.SetNativeSessionID(sid)
			t.ownSession(sid)
		}
		if method == mLoad || method == mResume && t.resumeReplays(params) {
			t.st.Loading = true
			t.st.ReplayUses = nil
		}
	case mSetMode:
		r.Path = t.copy(params.Get("modeId").String())
	case mSetModel:
		r.Path = t.copy(params.Get("modelId").String())
	case mSetConfig:
		r.Path = t.copy(params.Get("configId").String())
	case mPrompt:
		t.remember(in.dir, id, r)
		return t.prompt(dst, in, params)
	case mSetTitle:
		r.Path = t.copy(params.Get("title").Str)
	case mSteering:
		// The message, read when the agent says it was delivered.
		r.Action = t.copyJSON(params.Sub("prompt").Raw())
	case mCancel, mQwenCancelPrompt:
		// Qwen Code's craft/cancelPendingPrompt is a session/cancel
		// the agent answers. session/cancel is a notification by the protocol; some hosts send it as a
		// request, with an id (an agent may answer it "Method not
		// found"): the cancel asked for all the same.
		if t.st.Turn.Open && !t.st.Turn.Replay {
			t.st.Turn.Cancelled = true
		}
	case mAuthenticate, mLogout, mList, mDelete, mClose:
	default:
		if hostIgnored[method] {
			break
		}
		t.remember(in.dir, id, r)
		if extension(method) {
			return dst
		}
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: request %q from the host", errUnknown, method), in.raw)
	}
	t.remember(in.dir, id, r)
	return dst
}

// notification translates a JSON-RPC notification.
func (t *Translator) notification(dst []universal.Event, in *input, method string) []universal.Event {
	params := in.params
	switch {
	case method == mUpdate && in.dir == universal.Out:
		return t.update(dst, in, params)
	case method == mChildUpdate && in.dir == universal.Out:
		return t.childUpdate(dst, in, params)
	case method == mCancel && in.dir == universal.In:
		if t.st.Turn.Open && !t.st.Turn.Replay {
			t.st.Turn.Cancelled = true
		}
		return dst
	case hostIgnored[method] && in.dir == universal.In:
		return dst
	case method == mKiroToolChunk && in.dir == universal.Out:
		return t.kiroToolChunk(dst, in)
	case method == mKiroMetadata && in.dir == universal.Out:
		return t.kiroMetadata(dst, in)
	case (method == mGrokNotification || method == mGrokUpdate || method == mGrokTaskCompleted ||
		method == mGrokMonitorEvent) && in.dir == universal.Out:
		return t.grokNotification(dst, in, params)
	case method == mGooseUpdate && in.dir == universal.Out:
		return t.gooseUpdate(dst, in, params)
	case method == mGrokTaskBackgrounded && in.dir == universal.Out:
		if u := params.Sub("update"); u.IsObject() {
			params = u
		}
		t.grokBackgrounded(params)
		return dst
	case method == mQwenEndTurn && in.dir == universal.Out:
		return t.qwenEndTurn(dst, in, params)
	case method == mQwenSlashCommand && in.dir == universal.Out:
		return t.qwenSlashCommand(dst, in, params)
	case strings.HasPrefix(method, mQwenNotify) && in.dir == universal.Out:
		return t.qwenNotify(dst, in, method, params)
	case ignoredMethods[method] || extension(method):
		return dst
	case in.dir == universal.Out:
		if dst, ok := t.cursorMethod(dst, in, method, ""); ok {
			return dst
		}
	}
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: notification %q from the %s", errUnknown, method, side(in.dir)), in.raw)
}

func side(d universal.Direction) string {
	if d == universal.In {
		return "host"
	}
	return "agent"
}

// response translates a JSON-RPC response: it answers the request of the
// other side with the same id.
func (t *Translator) response(dst []universal.Event, in *input, id string) []universal.Event {
	k := key(other(in.dir), id)
	r, ok := t.st.Requests[k]
	if ok {
		delete(t.st.Requests, k)
	}
	result, rpcErr := in.result, in.err
	if !ok {
		if in.dir == universal.In || t.format != FormatAgent {
			if t.format == FormatExchange && in.dir == universal.Out {
				// The host's request was not recorded: read the
				// response by its shape, as for the agent's side alone.
				return t.guessResponse(dst, in, result, rpcErr)
			}
			return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: id %s", errNoRequest, id), in.raw)
		}
		return t.guessResponse(dst, in, result, rpcErr)
	}
	if r.Method == mProxySuccessor {
		// The wrapped request's answer, forwarded unchanged: the
		// successor's business (see ignoredMethods).
		return dst
	}
	if in.dir == universal.In {
		return t.hostResponse(dst, in, r, result, rpcErr)
	}
	if rpcErr.Exists() {
		return t.agentError(dst, in, r.Method, rpcErr)
	}
	switch r.Method {
	case mInitialize:
		t.initialized(result)
	case mNew, mFork:
		t.sessionResult(result)
		if sid := result.Get("sessionId").Str; sid != "" {
			t.w.SetNativeSessionID(sid)
			t.ownSession(sid)
		}
	case mResume:
		t.sessionResult(result)
		if sid := result.Get("sessionId").Str; sid != "" {
			t.w.SetNativeSessionID(sid)
			t.ownSession(sid)
		}
		if t.st.Loading {
			// ACP v2's resume replayed the history (see resumeReplays).
			t.st.Loading = false
			if t.st.Turn.Open && t.st.Turn.Replay {
				dst = t.endTurn(dst, universal.TurnCompleted, nil, agent, in.raw)
			}
		}
	case mLoad:
		t.st.Loading = false
		t.sessionResult(result)
		if t.st.Turn.Open && t.st.Turn.Replay {
			dst = t.endTurn(dst, universal.TurnCompleted, nil, agent, in.raw)
		}
	case mPrompt:
		if t.promptAccepted(result) {
			return dst
		}
		return t.promptResult(dst, in, result)
	case mSetMode:
		return t.modeChange(dst, in, r.Path, nil)
	case mSetModel:
		return t.setting(dst, in, "model", r.Path)
	case mSetConfig:
		dst = t.setting(dst, in, "config_option", r.Path)
		return t.configMode(dst, in, result.Sub("configOptions"))
	case mSetTitle:
		return t.titleSet(dst, in, r.Path)
	case mSteering:
		return t.steered(dst, in, r.Action, result)
	}
	return dst
}

// titleSet translates the agent's acceptance of the host's
// session/set_title (unstable): the session's title, as a
// session_info_update's title (metadata "title" before the start, else a
// status item labelled title when it changes).
func (t *Translator) titleSet(dst []universal.Event, in *input, title string) []universal.Event {
	if title == "" || title == t.st.Title {
		return dst
	}
	t.st.Title = title
	if !t.w.Begun() {
		t.setMeta("title", string(jsonw.AppendString(nil, title)))
		return dst
	}
	return t.status(dst, universal.LabelTitle, title, nil, "", in.raw)
}

// guessResponse reads a response of the agent whose request is not
// known (the agent's side alone): by its shape.
func (t *Translator) guessResponse(dst []universal.Event, in *input, result, rpcErr jsonscan.Value) []universal.Event {
	switch {
	case rpcErr.Exists():
		method := ""
		if t.st.Turn.Open && !t.st.Turn.Replay || len(t.st.Prompts) > 0 {
			// An error during a turn, or while a prompt the host
			// reported waits for its answer, answers the prompt.
			method = mPrompt
		}
		return t.agentError(dst, in, method, rpcErr)
	case result.Get("stopReason").Exists():
		return t.promptResult(dst, in, result)
	case result.Get("protocolVersion").Exists() || result.Get("agentInfo").Exists() || result.Get("agentCapabilities").Exists():
		t.initialized(result)
	case result.Get("sessionId").Type == gjson.String:
		t.sessionResult(result)
		t.w.SetNativeSessionID(result.Get("sessionId").Str)
		t.ownSession(result.Get("sessionId").Str)
	default:
		// An empty result (session/load, set_mode, authenticate …): a
		// replayed history ends with the load's response.
		t.sessionResult(result)
		if t.st.Turn.Open && t.st.Turn.Replay {
			dst = t.endTurn(dst, universal.TurnCompleted, nil, agent, in.raw)
		}
	}
	return dst
}

// initialized keeps what the initialize response tells about the agent.
func (t *Translator) initialized(result jsonscan.Value) {
	info := result.Sub("agentInfo")
	caps := result.Sub("agentCapabilities")
	if !info.Exists() && !caps.Exists() {
		// ACP v2 names them info and capabilities.
		info, caps = result.Sub("info"), result.Sub("capabilities")
	}
	t.st.V2 = result.Get("protocolVersion").Int() >= 2
	switch name := info.Sub("name").Str(); name {
	case kimiAgent, vibeAgent:
		t.st.Agent = name
	case "@agentclientprotocol/claude-agent-acp", "@zed-industries/claude-agent-acp", "@zed-industries/claude-code-acp":
		t.st.Agent = claudeAgent
	default:
		// Another agent, named: not taken for Claude Code's adapter
		// by the _meta its updates carry (claudeAdapter).
		t.st.Agent = t.copy(name)
	}
	t.meta("agent_name", info.Sub("name"))
	t.meta("agent_title", info.Sub("title"))
	t.meta("agent_version", info.Sub("version"))
	t.meta("protocol_version", result.Sub("protocolVersion"))
	t.meta("agent_capabilities", caps)
	if a := result.Sub("authMethods"); a.IsArray() && a.Len() > 0 {
		t.meta("auth_methods", a)
	}
	t.meta("agent_meta", result.Sub("_meta"))
}

// sessionResult keeps what a session/new, load or resume response tells:
// modes, models, configuration options.
func (t *Translator) sessionResult(result jsonscan.Value) {
	opts := result.Sub("configOptions")
	modes, models := result.Sub("modes"), result.Sub("models")
	mode := current(modes, "currentModeId", opts, "mode")
	t.meta("mode", mode)
	if mode.Type() == gjson.String {
		t.st.Mode = t.copy(mode.Str())
	}
	if modes.IsObject() {
		t.meta("modes", modes.Sub("availableModes"))
	}
	t.meta("model", current(models, "currentModelId", opts, "model"))
	if models.IsObject() {
		t.meta("models", models.Sub("availableModels"))
	}
	t.meta("config_options", opts)
	t.meta("session_meta", result.Sub("_meta"))
}

// current returns the session's current mode or model: the id the
// unstable modes or models state gives (state.id), else the current value
// of the first select configuration option of the category. The stable
// schema's configuration options name the mode and model selectors so
// (categories mode and model) where the unstable state may be absent
// (Claude Code's adapter 0.101 sends its model only as an option).
func current(state jsonscan.Value, id string, opts jsonscan.Value, category string) jsonscan.Value {
	if state.IsObject() {
		// An empty id (Auggie 0.32's currentModelId "") names none.
		if c := state.Sub(id); c.Type() != gjson.Null && c.Raw() != `""` {
			return c
		}
	}
	var cur jsonscan.Value
	opts.Each(func(_ gjson.Result, o jsonscan.Value) bool {
		if o.Get("category").Str != category || o.Get("type").Str != "select" {
			return true
		}
		if c := o.Sub("currentValue"); c.Type() == gjson.String && c.Str() != "" {
			cur = c
			return false
		}
		return true
	})
	return cur
}

// setting shows a setting the host changed and the agent accepted.
func (t *Translator) setting(dst []universal.Event, in *input, label, value string) []universal.Event {
	if !t.w.Begun() {
		if value != "" { // an empty id names no mode or model
			t.metaRaw(label, strconv.Quote(value))
		}
		return dst
	}
	return t.status(dst, label, value, nil, "", in.raw)
}

// modeChange shows that the session's mode is now mode (a set_mode the
// agent accepted, or its current_mode_update, whose value is v): before
// the start the session's metadata "mode"; after it a status item
// labelled mode, its metadata {"mode"} and, when the mode it replaces is
// known, {"previous": {"mode"}}, as other translators report a change.
// The mode the session is in already is no change: agents confirm a
// set_mode with an update that names the same mode. A sub-agent's
// update is shown as it comes.
func (t *Translator) modeChange(dst []universal.Event, in *input, mode string, v *jsonscan.Value) []universal.Event {
	if t.sub != nil && v != nil {
		return t.sessionInfo(dst, in, universal.LabelMode, *v, mode)
	}
	if mode == "" || mode == t.st.Mode {
		if v != nil && !t.w.Begun() {
			t.meta(universal.LabelMode, *v)
		}
		return dst
	}
	prev := t.st.Mode
	t.st.Mode = t.copy(mode)
	if !t.w.Begun() {
		if v != nil {
			t.meta(universal.LabelMode, *v)
		} else {
			t.metaRaw(universal.LabelMode, strconv.Quote(mode))
		}
		return dst
	}
	// The metadata's shape is the other translators': the mode's own
	// keys, and "previous" with the values they replace.
	var md jsonw.Object
	if v != nil {
		v.AddTo(&md, universal.LabelMode)
	} else {
		md.String(universal.LabelMode, mode)
	}
	md.OptStringIn("previous", universal.LabelMode, prev)
	return t.status(dst, universal.LabelMode, mode, md.Bytes(), "", in.raw)
}

// configMode shows the mode that configuration options name (the
// current value of the option of category mode), when they name one:
// agents that moved to configuration options (Copilot CLI, Kiro) name the
// mode there, in a config_option_update or the response to a
// set_config_option.
func (t *Translator) configMode(dst []universal.Event, in *input, opts jsonscan.Value) []universal.Event {
	if m := current(jsonscan.Value{}, "", opts, "mode"); m.Type() == gjson.String {
		return t.modeChange(dst, in, m.Str(), &m)
	}
	return dst
}

// agentError translates an error response of the agent to a host request.
func (t *Translator) agentError(dst []universal.Event, in *input, method string, e jsonscan.Value) []universal.Event {
	dst = t.begin(dst)
	msg := errorCause(e.Get("message").String(), e)
	if msg == "" {
		msg = "error"
	}
	code := e.Sub("code").Raw()
	var details jsonw.Object
	details.OptString("method", method).Raw("data", e.Sub("data").Raw())
	switch method {
	case mPrompt:
		dst = t.liveTurn(dst, in.raw)
		msg = apiError(msg, &details)
		dst = t.error(dst, msg, code, details.Bytes(), in.raw)
		t.st.Failed = true
		return t.endTurn(dst, universal.TurnError, nil, agent, in.raw)
	case mInitialize, mNew, mLoad, mResume, mFork, "":
		// The session could not be set up (or, on the agent's side
		// alone, a request failed outside a turn).
		t.st.Loading = false
		if t.st.Turn.Open && t.st.Turn.Replay {
			dst = t.endTurn(dst, universal.TurnCompleted, nil, daemon, nil)
		}
		t.st.Failed = true
		msg = apiError(msg, &details)
		return t.error(dst, msg, code, details.Bytes(), in.raw)
	}
	// A setting or a session-management request failed: the session goes
	// on.
	var md jsonw.Object
	md.OptString("method", method).Raw("code", code).Raw("data", e.Sub("data").Raw())
	return t.status(dst, "request_failed", msg, md.Bytes(), "", in.raw)
}

// apiError is an error's message, unwrapped when the agent passed on a
// model API's response as its text ("Internal error: API Error: 400 {…}"
// from Claude Code's adapter, see package internal/apierror): the API's
// message, with http_status and the body as api_error added to details,
// as the native translators report such errors. Claude Code's form with
// a plain message after the status ("API Error: 400 due to tool use
// concurrency issues.") keeps its text, with http_status in details.
func apiError(msg string, details *jsonw.Object) string {
	b, ok := apierror.Parse(msg)
	if !ok {
		if st, ok := apierror.Status(msg); ok {
			details.Int("http_status", st)
		}
		return msg
	}
	b.AddTo(details)
	return b.Message
}

// error emits a terminal error event.
func (t *Translator) error(dst []universal.Event, msg, code string, details []byte, raw []byte) []universal.Event {
	d := &universal.Error{Message: t.copy(msg), Code: t.copy(code)}
	if len(details) > 2 {
		d.Details = details
	}
	return t.w.Emit(dst, universal.TypeError, agent, d, raw)
}

// hostResponse translates the host's response to a request of the agent.
func (t *Translator) hostResponse(dst []universal.Event, in *input, r request, result, rpcErr jsonscan.Value) []universal.Event {
	switch r.Method {
	case mRequestPermission:
		return t.permissionResult(dst, in, r, result, rpcErr)
	case mElicit:
		return t.elicitationResult(dst, in, r, result, rpcErr)
	case mCursorAsk, mCursorPlan:
		return t.cursorAnswer(dst, in, r, result, rpcErr)
	case mTermCreate:
		if tid := result.Get("terminalId").Str; tid != "" && r.Call != "" {
			if t.st.Terminals == nil {
				t.st.Terminals = map[string]string{}
			}
			t.st.Terminals[t.copy(tid)] = r.Call
		}
	case mTermOutput, mTermWait:
		return t.terminalResult(dst, in, r, result)
	case mQwenDrain:
		return t.qwenDrained(dst, in, result, rpcErr)
	}
	// fs results, errors the agent handles itself, and answers to
	// requests the host did not know carry nothing more.
	return dst
}

// meta adds a value of the message to the session.started metadata while
// it is still gathered; later it is dropped (status items show what
// changes).
func (t *Translator) meta(k string, v jsonscan.Value) {
	if t.w.Begun() || v.Type() == gjson.Null { // absent values too
		return
	}
	if raw, ok := v.CleanRaw(); ok {
		t.setMeta(k, strings.Clone(raw))
		return
	}
	t.metaRaw(k, v.Raw())
}

// metaRaw is meta for raw JSON.
func (t *Translator) metaRaw(k, raw string) {
	if raw == "" || raw == "null" || t.w.Begun() {
		return
	}
	t.setMeta(k, string(jsonw.AppendRaw(nil, raw)))
}

// setMeta sets a metadata field to v, JSON as jsonw writes it.
func (t *Translator) setMeta(k, v string) {
	for i := range t.st.Meta {
		if t.st.Meta[i].K == k {
			t.st.Meta[i].V = v
			return
		}
	}
	if t.st.Meta == nil {
		// Room for the fields a session gathers before it starts (about
		// a dozen), where growing from nothing took four or five
		// allocations.
		t.st.Meta = make([]field, 0, 16)
	}
	t.st.Meta = append(t.st.Meta, field{K: k, V: v})
}

// begin emits session.started with the metadata gathered so far.
func (t *Translator) begin(dst []universal.Event) []universal.Event {
	if t.w.Begun() {
		return dst
	}
	n := 64
	for _, f := range t.st.Meta {
		n += len(f.K) + len(f.V) + 4 // ,"k":v
	}
	var md jsonw.Object
	md.Grow(n).String("agent", agentName).String("format", t.format)
	for _, f := range t.st.Meta {
		md.RawClean(f.K, f.V) // kept as jsonw writes them (meta)
	}
	t.st.Meta = nil
	return t.w.BeginClean(dst, md.Bytes(), daemon, nil)
}
