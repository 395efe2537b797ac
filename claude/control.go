package claude

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// maxAsked bounds the unanswered control requests remembered.
const maxAsked = 64

// asked remembers the request_id of a control request.
func (t *Translator) asked(id string) {
	if id == "" {
		return
	}
	if len(t.s.Asked) == maxAsked {
		t.s.Asked = append(t.s.Asked[:0], t.s.Asked[1:]...)
	}
	t.s.Asked = append(t.s.Asked, t.w.Copy(id))
}

// answered forgets the request_id of a control request answered; false
// when no request with that id was seen.
func (t *Translator) answered(id string) bool {
	for i, a := range t.s.Asked {
		if a == id {
			t.s.Asked = append(t.s.Asked[:i], t.s.Asked[i+1:]...)
			return true
		}
	}
	return false
}

// cliAnswer translates the CLI's control_response to one of the host's
// requests (initialize, interrupt, …): nothing for the transcript, but
// in an exchange, where the host's requests show, one that answers no
// request is reported.
func (t *Translator) cliAnswer(dst events, r jsonscan.Value) events {
	id := r.Get("response.request_id").Str
	if !t.answered(id) && t.format == FormatExchange {
		return t.unparsed(dst, "response.request_id", fmt.Errorf("control_response to request %q, which the host never sent", id))
	}
	return dst
}

// controlRequest translates a control_request the CLI sent to the host.
func (t *Translator) controlRequest(dst events, r jsonscan.Value) events {
	t.asked(r.Get("request_id").Str)
	req := r.Sub("request")
	switch sub := req.Get("subtype").Str; sub {
	case "can_use_tool":
		return t.canUseTool(dst, r, req)
	case "elicitation":
		return t.elicitation(dst, r, req)
	case "hook_callback", "mcp_message", "request_user_dialog",
		// Credentials the CLI asks the host for (Agent SDK 0.3.33x's
		// handleControlRequest answers them).
		"oauth_token_refresh", "host_auth_token_refresh", "remote_control_work_secret",
		// A plugin's UI calls into the host's terminal or editor: copy to
		// the clipboard, read, fill, paint or suggest in the prompt box,
		// read the selection.
		"ui_copy", "ui_prompt_read", "ui_prompt_fill", "ui_prompt_paint", "ui_prompt_suggest", "ui_read_selection":
		// Hook and MCP plumbing between the CLI and an SDK host,
		// credentials and UI calls; not part of the session's content.
		return dst
	default:
		return t.unparsed(dst, "request.subtype", fmt.Errorf("unknown control request %q", sub))
	}
}

// hostRequest reports the control requests a host sends to the CLI. Their
// effects show in the CLI's own output; the requests are not mapped.
func hostRequest(sub string) bool {
	switch sub {
	case "initialize", "interrupt", "set_permission_mode", "set_model", "set_max_thinking_tokens",
		"mcp_status", "mcp_message", "mcp_set_servers", "mcp_reconnect", "mcp_toggle", "stop_task",
		"get_context_usage", "rewind_files", "reload_plugins", "apply_flag_settings", "get_settings",
		// The rest of the Agent SDK's SDKControlRequestInner (sdk.d.ts,
		// 2026), and side_question, which 2.1.283 answers on the wire.
		"rename_session", "set_color", "get_session_cost", "list_models", "get_usage", "get_binary_version",
		"mcp_call", "file_suggestions", "cancel_async_message", "read_file", "seed_read_state",
		"register_repo_root", "reload_skills", "reload_output_styles", "background_tasks", "get_task_output",
		"get_hooks_listing", "update_settings", "list_permission_rules", "mcp_read_resource", "side_question",
		"set_has_subscribers": // whether anybody watches the output (it sets how long stream events are held to be joined)
		return true
	}
	return false
}

// elicitKey is the Requests entry of an MCP elicitation (no tool_use id
// is one): its question is keyed by the request id, not by a tool call.
const elicitKey = "\x00elicitation:"

// elicitation maps an MCP server's request for user input, which the CLI
// hands to the host (SDKControlElicitationRequest {mcp_server_name,
// message, mode: form | url, url, elicitation_id, requested_schema, title,
// display_name, description}), to a question; the host's answer
// (ElicitResult {action: accept | decline | cancel, content}) resolves it,
// as codex's mcpServer/elicitation/request.
func (t *Translator) elicitation(dst events, r, req jsonscan.Value) events {
	reqID := r.Get("request_id").Str
	if reqID == "" {
		return t.unparsed(dst, "request_id", fmt.Errorf("elicitation without a request_id"))
	}
	if t.s.Requests == nil {
		t.s.Requests = map[string]string{}
	}
	if _, ok := t.s.Requests[reqID]; ok {
		return dst // a repeat
	}
	t.s.Requests[t.w.Copy(reqID)] = elicitKey
	if eid := req.Get("elicitation_id").Str; eid != "" && req.Get("mode").Str == "url" {
		if t.s.Elicits == nil {
			t.s.Elicits = map[string]string{}
		}
		t.s.Elicits[t.w.Copy(eid)] = t.w.Copy(reqID)
	}
	var o jsonw.Object
	o.String("method", "elicitation").
		OptString("server_name", req.Get("mcp_server_name").Str).
		OptString("mode", req.Get("mode").Str).
		OptString("url", req.Get("url").Str).
		OptString("elicitation_id", req.Get("elicitation_id").Str).
		OptString("title", req.Get("title").Str).
		Raw("requested_schema", jsonw.Compact(req.Get("requested_schema").Raw))
	dst = t.ensureTurn(dst, "")
	return t.w.AskQuestion(dst, universal.Question{
		QuestionID: t.w.Copy(reqID), Prompt: t.w.Copy(req.Get("message").Str), Metadata: o.Bytes(),
	}, universal.SourceAgent, t.raw)
}

// elicitationComplete: an MCP server confirmed that a URL-mode
// elicitation is complete (system/elicitation_complete {mcp_server_name,
// elicitation_id}, sent when the server's notifications/elicitation/complete
// arrives): the user finished what the URL asked for. The elicitation's
// question, when still pending (stream-json holds no host answer, which
// the host writes to stdin), is answered (response "complete"; metadata
// action complete, elicitation_id, server_name). One the host answered
// already is left as answered. A completion of no URL elicitation seen is
// ignored: it completes nothing this stream asked.
func (t *Translator) elicitationComplete(dst events, r jsonscan.Value) events {
	eid := r.Get("elicitation_id").Str
	reqID, ok := t.s.Elicits[eid]
	if !ok {
		return dst
	}
	delete(t.s.Elicits, eid)
	if !t.w.QuestionPending(reqID) {
		return dst
	}
	delete(t.s.Requests, reqID)
	var o jsonw.Object
	o.String("action", "complete").String("elicitation_id", eid).OptString("server_name", r.Get("mcp_server_name").Str)
	return t.w.ResolveQuestion(dst, universal.Question{
		QuestionID: reqID, Response: "complete", Status: universal.QuestionAnswered, Metadata: o.Bytes(),
	}, universal.SourceAgent, t.raw)
}

// resolveElicitation resolves an elicitation's question with the host's
// ElicitResult (nil: withdrawn) or error.
func (t *Translator) resolveElicitation(dst events, reqID string, result jsonscan.Value, errText string, cancelled bool) events {
	delete(t.s.Requests, reqID)
	if !t.w.QuestionPending(reqID) {
		// Resolved already: the host reported its answer (Report) before
		// the recorded answer, or a cancel crossed the answer.
		return dst
	}
	var o jsonw.Object
	status, resp := universal.QuestionRejected, ""
	switch {
	case cancelled:
		o.Bool("cancelled", true)
	case errText != "":
		o.String("error", errText)
	default:
		action := result.Get("action").Str
		content := result.Get("content")
		o.OptString("action", action).Raw("content", jsonw.Compact(content.Raw))
		if action == "accept" {
			status, resp = universal.QuestionAnswered, jsonw.Compact(content.Raw)
			if content.Type == gjson.String {
				resp = content.Str
			}
		}
	}
	return t.w.ResolveQuestion(dst, universal.Question{
		QuestionID: t.w.Copy(reqID), Response: t.w.Copy(resp), Status: status, Metadata: o.Bytes(),
	}, universal.SourceAgent, t.raw)
}

// canUseTool maps a permission request (--permission-prompt-tool stdio):
// a permission for the tool call, or a question for AskUserQuestion.
func (t *Translator) canUseTool(dst events, r jsonscan.Value, req jsonscan.Value) events {
	reqID := r.Get("request_id").Str
	if reqID == "" {
		return t.unparsed(dst, "request_id", fmt.Errorf("can_use_tool without a request_id"))
	}
	call := req.Get("tool_use_id").Str
	name := req.Get("tool_name").Str
	input := req.Get("input")
	if call == "" {
		call = t.waitingCall(name)
	}
	key := first(call, reqID)
	tl := t.toolFor(call)
	var prev *tool
	if tl != nil && tl.Result {
		// A call whose result came asks no permission: the request is
		// about a later call with the same id (see reused).
		prev, tl = tl, nil
	}
	if tl == nil && call != "" {
		// The request came before the call: show the call first.
		dst = t.ensureTurn(dst, "")
		tl = &tool{ItemID: t.w.NewItemID(), Name: t.w.Copy(name)}
		if prev != nil {
			t.reuse(call, prev, tl)
		}
		t.addTool(call, tl)
		dst = t.w.StartItem(dst, universal.Item{
			ItemID: tl.ItemID, NativeItemID: t.w.Copy(call), Kind: universal.KindToolCall, Role: universal.RoleAssistant,
			Content: []universal.Part{{Type: universal.PartToolCall, Name: tl.Name, Arguments: t.w.Copy(jsonw.Compact(input.Raw)), CallID: t.callLink(call)}},
		}, universal.SourceDaemon, t.raw)
	}
	if t.s.Requests == nil {
		t.s.Requests = map[string]string{}
	}
	t.s.Requests[t.w.Copy(reqID)] = t.w.Copy(key)
	if name == "AskUserQuestion" {
		if tl != nil && !tl.Question {
			dst = t.askQuestion(dst, tl, call, input, universal.SourceAgent)
		}
		return dst
	}
	if p := t.s.Perms[key]; p != nil && !p.Done {
		return dst // already asked
	}
	item := ""
	if tl != nil {
		item = tl.ItemID
	}
	var o jsonw.Object
	for _, k := range [...]string{"input", "description", "display_name", "title", "permission_suggestions",
		"blocked_path", "decision_reason", "decision_reason_type", "agent_id"} {
		req.Sub(k).AddTo(&o, k)
	}
	p := &perm{ID: t.w.Copy(reqID)}
	t.setPerm(key, p)
	return t.w.RequestPermission(dst, universal.Permission{
		PermissionID: p.ID, Action: t.w.Copy(name), ItemID: item, CallID: t.callLink(call), Metadata: o.Bytes(),
	}, universal.SourceAgent, t.raw)
}

// waitingCall finds the call a can_use_tool request without a tool_use_id
// (before 2.0.2x) asks about: the one call of that tool that has neither a
// result nor a permission yet. With none or several, the request stays
// unlinked.
func (t *Translator) waitingCall(name string) string {
	t.compactWaiting()
	found, n := "", 0
	for _, id := range t.s.Waiting {
		if tl := t.s.Tools[id]; tl.Name == name && !tl.Question {
			found = id
			n++
		}
	}
	if n != 1 {
		return ""
	}
	return found
}

// compactWaiting drops the calls that stopped waiting (a result, a
// permission) from Waiting, so that it holds about the calls that still
// may wait, not every call of the session.
func (t *Translator) compactWaiting() {
	keep := t.s.Waiting[:0]
	for _, id := range t.s.Waiting {
		if tl := t.s.Tools[id]; tl != nil && !tl.Result && t.s.Perms[id] == nil {
			keep = append(keep, id)
		}
	}
	clear(t.s.Waiting[len(keep):])
	t.s.Waiting = keep
}

func (t *Translator) setPerm(key string, p *perm) {
	if t.s.Perms == nil {
		t.s.Perms = map[string]*perm{}
	}
	t.s.Perms[t.w.Copy(key)] = p
}

// hostAnswer translates the host's control_response to a can_use_tool
// request: allow or deny (a question's answers ride on allow).
func (t *Translator) hostAnswer(dst events, r jsonscan.Value) events {
	resp := r.Sub("response")
	id := resp.Get("request_id").Str
	seen := t.answered(id)
	key, ok := t.s.Requests[id]
	if !ok {
		if !seen {
			return t.unparsed(dst, "response.request_id", fmt.Errorf("control_response to request %q, which the CLI never sent", id))
		}
		return dst // the answer to a request that is not mapped (hook callbacks, MCP)
	}
	inner := resp.Sub("response")
	errored := resp.Get("subtype").Str == "error"
	if key == elicitKey {
		errText := ""
		if errored {
			errText = first(resp.Get("error").Str, "error")
		}
		return t.resolveElicitation(dst, id, inner, errText, false)
	}
	allow := !errored && inner.Get("behavior").Str == "allow"
	tl := t.toolFor(key)
	if tl != nil && tl.Question {
		if tl.QDone {
			return dst
		}
		return t.resolveQuestion(dst, tl, key, inner.Get("updatedInput.answers"), inner.Get("updatedInput.questions"), first(inner.Get("message").Str, resp.Get("error").Str), !allow, universal.SourceAgent, t.raw)
	}
	decision := "deny"
	if allow {
		decision = "allow"
		if up := inner.Get("updatedPermissions"); up.IsArray() && len(up.Array()) > 0 {
			decision = "allow_always"
		}
	}
	var o jsonw.Object
	o.String("source", "host").String("decision", decision).
		OptString("message", first(inner.Get("message").Str, resp.Get("error").Str)).
		Raw("updated_permissions", inner.Get("updatedPermissions").Raw).
		Raw("interrupt", inner.Get("interrupt").Raw)
	return t.resolvePerm(dst, key, "", allow, o.Bytes(), universal.SourceAgent, t.raw)
}

// cancelRequest: a pending can_use_tool request withdrawn (by either side).
func (t *Translator) cancelRequest(dst events, r jsonscan.Value) events {
	id := r.Get("request_id").Str
	seen := t.answered(id)
	key, ok := t.s.Requests[id]
	if !ok {
		if !seen && t.format == FormatExchange {
			return t.unparsed(dst, "request_id", fmt.Errorf("control_cancel_request of request %q, which was never sent", id))
		}
		return dst
	}
	return t.withdraw(dst, id, key)
}

// withdraw resolves the pending request id (its Requests entry key) as
// withdrawn: a question or elicitation rejected, a permission denied
// with {source: cancelled, cancelled: true}. One resolved already stays
// as it is.
func (t *Translator) withdraw(dst events, id, key string) events {
	if key == elicitKey {
		return t.resolveElicitation(dst, id, jsonscan.Value{}, "", true)
	}
	if tl := t.toolFor(key); tl != nil && tl.Question {
		if tl.QDone {
			return dst
		}
		return t.resolveQuestion(dst, tl, key, gjson.Result{}, gjson.Result{}, "cancelled", true, universal.SourceAgent, t.raw)
	}
	if p := t.s.Perms[key]; p == nil || p.Done {
		return dst
	}
	return t.resolvePerm(dst, key, "", false, []byte(`{"source":"cancelled","cancelled":true}`), universal.SourceAgent, t.raw)
}

// asksSettled: a cloud worker's inherited_asks_settled {kept_request_ids}
// (2.1.332: "A cloud worker's report, before its first turn, of which
// asks it inherited and keeps. Any ask stored before this event that it
// does not name is over"). Every request still pending that it does not
// name is withdrawn, as by control_cancel_request, in the order of the
// request ids.
func (t *Translator) asksSettled(dst events, r jsonscan.Value) events {
	kept := r.Get("kept_request_ids")
	if !kept.IsArray() {
		return t.unparsed(dst, "kept_request_ids", errors.New("inherited_asks_settled without a kept_request_ids array"))
	}
	if len(t.s.Requests) == 0 {
		return dst
	}
	keep := map[string]bool{}
	kept.ForEach(func(_, v gjson.Result) bool {
		keep[v.Str] = true
		return true
	})
	ids := make([]string, 0, len(t.s.Requests))
	for id := range t.s.Requests {
		if !keep[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		dst = t.withdraw(dst, id, t.s.Requests[id])
	}
	return dst
}

// resolvePerm resolves the permission of a tool call, requesting it first
// (with the same metadata) when nothing asked for it visibly. A call gets
// at most one request and one resolution.
func (t *Translator) resolvePerm(dst events, call, action string, approved bool, md []byte, src universal.Source, raw []byte) events {
	if call == "" {
		return dst
	}
	p := t.s.Perms[call]
	if p != nil && p.Done {
		return dst
	}
	tl := t.toolFor(call)
	item := ""
	if tl != nil {
		item = tl.ItemID
		action = first(tl.Name, action)
	}
	action = t.w.Copy(action)
	callID := t.callLink(call)
	if p == nil {
		p = &perm{ID: callID}
		t.setPerm(call, p)
		dst = t.w.RequestPermission(dst, universal.Permission{
			PermissionID: p.ID, Action: action, ItemID: item, CallID: callID, Metadata: md,
		}, src, raw)
	}
	p.Done = true
	status := universal.PermissionDenied
	if approved {
		status = universal.PermissionApproved
	}
	return t.w.ResolvePermission(dst, universal.Permission{
		PermissionID: p.ID, Action: action, Status: status, ItemID: item, CallID: callID, Metadata: md,
	}, src, raw)
}

// decided applies the permission decision recorded with a tool result:
// a refusal always resolves the call's permission as denied; an approval
// only when a user gave it (rule-based approvals asked nobody) or a
// request is pending. Builds before the decision was recorded (2.1.2xx:
// tool_result_meta [{id, non_execution_kind}], a transcript's
// toolDenialKind alone) name only why a refused call did not run; a
// refusal kind is a refusal all the same.
func (t *Translator) decided(dst events, call, name string, decision gjson.Result, kind, output string) events {
	var dec, src string
	switch {
	case decision.IsObject():
		dec, src = decision.Get("decision").Str, decision.Get("source").Str
	case refusalKind(kind) && !stoppedRunning(output):
		dec = "reject"
	default:
		return dst
	}
	pending := false
	if p := t.s.Perms[call]; p != nil {
		if p.Done {
			return dst
		}
		pending = true
	}
	accept := dec == "accept" && (pending || strings.HasPrefix(src, "user"))
	if dec != "reject" && !accept {
		return dst // nothing to resolve: no metadata to build
	}
	var o jsonw.Object
	o.String("source", "tool_result").Raw("permission_decision", decision.Raw).OptString("non_execution_kind", kind)
	if !accept {
		o.String("message", output)
	}
	return t.resolvePerm(dst, call, name, accept, o.Bytes(), universal.SourceAgent, t.raw)
}

// refusalKind reports the non-execution kinds of a call a permission
// refused: a deny rule (or the host's permission tool denying it) and a
// user's rejection. Other kinds (a cancelled call) are no refusal.
func refusalKind(kind string) bool {
	return kind == "permission-rule" || kind == "user-rejected"
}

// stoppedRunning reports a result the CLI wrote for a call the user's
// interrupt stopped while it ran. 2.1.332 records that as the rejection
// text with kind user-rejected and no decision, and corrects the text for
// the model: "Correction to the text above: this call was stopped while
// running, not refused before it ran. … No permission prompt was
// involved." No permission was refused (a rejection the user gave at a
// prompt records its decision).
func stoppedRunning(output string) bool {
	return strings.Contains(output, "this call was stopped while running, not refused")
}

// denied maps a refusal the CLI applied itself (system/permission_denied,
// result.permission_denials).
func (t *Translator) denied(dst events, d jsonscan.Value, source string) events {
	var o jsonw.Object
	o.String("source", source).
		Raw("message", d.Get("message").Raw).
		Raw("decision_reason", d.Get("decision_reason").Raw).
		Raw("decision_reason_type", d.Get("decision_reason_type").Raw).
		// 2.1.276: a code a host can act on (classifier_transcript_too_long,
		// outside_reads_blocked, memory_paused).
		Raw("decision_reason_code", d.Get("decision_reason_code").Raw).
		Raw("tool_input", d.Get("tool_input").Raw).
		Raw("agent_id", d.Get("agent_id").Raw)
	return t.resolvePerm(dst, d.Get("tool_use_id").Str, d.Get("tool_name").Str, false, o.Bytes(), universal.SourceAgent, t.raw)
}

// deferredCall takes a result's deferred_tool_use ({id, name, input},
// with stop_reason and terminal_reason tool_deferred, 2.1.26x on): a
// PreToolUse hook answered permissionDecision "defer", so the turn ended
// with the call parked, its permission decision left to the host, and a
// --resume asks the hook again. It is a permission requested for the call
// (decision_reason_type hook), resolved as another request still open is:
// by the call's result in the resumed process (a successful one approves
// it), a refusal, or the host's reply. An AskUserQuestion call is a
// question already waiting for its answer.
func (t *Translator) deferredCall(dst events, d jsonscan.Value) events {
	call := d.Get("id").Str
	if call == "" {
		return dst
	}
	if p := t.s.Perms[call]; p != nil {
		return dst
	}
	tl := t.toolFor(call)
	name, item := d.Get("name").Str, ""
	if tl != nil {
		if tl.Question {
			return dst
		}
		item, name = tl.ItemID, first(tl.Name, name)
	}
	var o jsonw.Object
	o.String("source", "result.deferred_tool_use").String("decision_reason_type", "hook")
	d.Sub("input").AddTo(&o, "input")
	p := &perm{ID: t.callLink(call)}
	t.setPerm(call, p)
	return t.w.RequestPermission(dst, universal.Permission{
		PermissionID: p.ID, Action: t.w.Copy(name), ItemID: item, CallID: p.ID, Metadata: o.Bytes(),
	}, universal.SourceAgent, t.raw)
}

// reportPermission: the host answered a permission request.
// A reply that names no permission resolves nothing (an event needs its
// id), as a reply to an unknown one does in the other translators.
func (t *Translator) reportPermission(dst events, r universal.PermissionReply) events {
	if r.PermissionID == "" {
		return dst
	}
	var o jsonw.Object
	o.String("source", "host").OptString("decision", r.Decision).OptString("message", r.Message)
	for _, k := range sortedKeys(t.s.Perms) {
		if p := t.s.Perms[k]; p.ID == r.PermissionID {
			if p.Done {
				return dst
			}
			return t.resolvePerm(dst, k, "", r.Approved, o.Bytes(), universal.SourceDaemon, nil)
		}
	}
	status := universal.PermissionDenied
	if r.Approved {
		status = universal.PermissionApproved
	}
	return t.w.ResolvePermission(dst, universal.Permission{PermissionID: r.PermissionID, Status: status, Metadata: o.Bytes()}, universal.SourceDaemon, nil)
}

// askQuestion maps an AskUserQuestion call: every question with its
// header, options and multiSelect stays in metadata; prompt and options
// are the first question's.
func (t *Translator) askQuestion(dst events, tl *tool, call string, input gjson.Result, src universal.Source) events {
	qs := input.Get("questions")
	q := qs.Get("0")
	if !qs.IsArray() {
		q = input
	}
	tl.Question = true
	tl.QPrompt = t.w.Copy(q.Get("question").Str)
	tl.QOptions = nil
	q.Get("options").ForEach(func(_, o gjson.Result) bool {
		tl.QOptions = append(tl.QOptions, t.w.Copy(first(o.Get("label").Str, o.Str)))
		return true
	})
	var o jsonw.Object
	o.Raw("questions", qs.Raw)
	if !qs.IsArray() {
		o.Raw("input", input.Raw)
	}
	return t.w.AskQuestion(dst, universal.Question{
		QuestionID: t.w.Copy(call), Prompt: tl.QPrompt, Options: tl.QOptions, ItemID: tl.ItemID, Metadata: o.Bytes(),
	}, src, t.raw)
}

// resolveQuestion answers (or rejects) an AskUserQuestion call. The
// response is the answer of a single question, or "question: answer"
// lines for several; the answers object stays in metadata.
func (t *Translator) resolveQuestion(dst events, tl *tool, call string, answers, questions gjson.Result, text string, rejected bool, src universal.Source, raw []byte) events {
	tl.QDone = true
	var b strings.Builder
	n := 0
	answers.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	write := func(k, v gjson.Result) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if n > 1 {
			b.WriteString(k.Str)
			b.WriteString(": ")
		}
		if v.Type == gjson.String {
			b.WriteString(v.Str)
		} else {
			b.WriteString(v.Raw)
		}
	}
	// The answers object is keyed by question text, and an object's
	// members have no order (RFC 8259): the answers follow the questions'
	// order (the questions array beside them), then any answer to no
	// listed question in the object's order.
	var asked map[string]bool
	if n > 1 && questions.IsArray() {
		asked = map[string]bool{}
		questions.ForEach(func(_, q gjson.Result) bool {
			k := q.Get("question")
			if k.Type != gjson.String || asked[k.Str] {
				return true
			}
			answers.ForEach(func(ak, v gjson.Result) bool {
				if ak.Str != k.Str {
					return true
				}
				asked[k.Str] = true
				write(ak, v)
				return false
			})
			return true
		})
	}
	answers.ForEach(func(k, v gjson.Result) bool {
		if !asked[k.Str] {
			write(k, v)
		}
		return true
	})
	resp := b.String()
	var o jsonw.Object
	o.Raw("answers", answers.Raw)
	status := universal.QuestionAnswered
	switch {
	case rejected:
		status, resp = universal.QuestionRejected, ""
		o.OptString("message", text)
	case resp == "":
		resp = text
	}
	return t.w.ResolveQuestion(dst, universal.Question{
		QuestionID: t.w.Copy(call), Prompt: tl.QPrompt, Options: tl.QOptions, Response: t.w.Copy(resp),
		Status: status, ItemID: tl.ItemID, Metadata: o.Bytes(),
	}, src, raw)
}

// reportQuestion: the host answered a question.
func (t *Translator) reportQuestion(dst events, r universal.QuestionReply) events {
	if r.QuestionID == "" {
		return dst // names no question (see reportPermission)
	}
	if tl := t.toolFor(r.QuestionID); tl != nil && tl.Question {
		if tl.QDone {
			return dst
		}
		return t.resolveQuestion(dst, tl, r.QuestionID, gjson.Result{}, gjson.Result{}, r.Response, r.Rejected, universal.SourceDaemon, nil)
	}
	status := universal.QuestionAnswered
	if r.Rejected {
		status = universal.QuestionRejected
	}
	return t.w.ResolveQuestion(dst, universal.Question{QuestionID: r.QuestionID, Response: r.Response, Status: status}, universal.SourceDaemon, nil)
}
