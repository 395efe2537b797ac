package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// system translates a system line by its subtype.
func (t *Translator) system(dst events, r jsonscan.Value, sub string) events {
	switch sub {
	case "init":
		return t.init(dst, r)
	case "api_retry":
		return t.apiRetry(dst, r)
	case "api_error":
		return t.apiError(dst, r)
	case "permission_denied":
		dst = t.ensureTurn(dst, "")
		return t.denied(dst, r, "permission_denied")
	case "task_started":
		return t.taskStarted(dst, r)
	case "task_notification":
		return t.taskNotification(dst, r)
	case "status":
		// A permission mode named is the mode from now on (a change is
		// reported); requesting / compacting are progress the outcome
		// shows elsewhere; a compaction that failed shows nowhere else
		// (an automatic one leaves no command output), so it is a failed
		// status item.
		dst = t.permissionMode(dst, r.Get("permissionMode").Str)
		if r.Get("compact_result").Str != "failed" {
			return dst
		}
		return t.failedStatus(dst, universal.LabelCompaction, first(r.Get("compact_error").Str, "compaction failed"))
	case "session_title_changed":
		// Stream-json's title (2.1.28x: {title, source: ai | custom},
		// what ai-title and custom-title entries are in a transcript).
		return t.setTitle(dst, r.Get("title").Str, r.Get("source").Str == "custom")
	case "compact_boundary":
		md := r.Get("compact_metadata")
		if !md.Exists() {
			md = r.Get("compactMetadata")
		}
		return t.status(dst, universal.LabelCompaction, first(md.Get("trigger").Str, r.Get("content").Str), md.Raw)
	case "microcompact_boundary":
		// 2.1.12–2.1.22: older tool results were cleared from the
		// context (content "Context microcompacted"); the metadata holds
		// the trigger, the tokens before and saved, and the ids of the
		// tool calls whose results went.
		return t.status(dst, universal.LabelCompaction, "microcompact", r.Get("microcompactMetadata").Raw)
	case "model_refusal_fallback", "model_refusal_no_fallback":
		// The model refused (stop_reason refusal): the turn was retried on
		// a fallback model, for the session or for one sub-agent or side
		// question (scope), or was not; content is the notice the CLI
		// shows. Metadata: the models, the refusal's category and the
		// API's explanation, the messages retracted (their uuids) and the
		// prompt refused.
		return t.status(dst, sub, first(r.Get("message").Str, r.Get("content").Str), fieldsOf(r, refusalFields[:]))
	case "local_command", "away_summary":
		// away_summary: the recap Claude Code writes when the user comes
		// back to an idle session ("Goal: … Next: …"), in content (summary
		// in some recordings).
		return t.w.Complete(dst, universal.Item{
			ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r.Get("uuid").Str), Kind: universal.KindSystem, Role: universal.RoleSystem,
			Content: []universal.Part{universal.Text(t.w.Copy(first(r.Get("content").Str, r.Get("summary").Str)))},
		}, universal.SourceAgent, t.raw)
	case "bridge_status":
		// Remote Control (/remote-control): the session is bridged to
		// claude.ai/code, written once per process start; content says
		// so, url is the web session's link.
		md := ""
		if u := r.Get("url").Str; u != "" {
			var o jsonw.Object
			md = string(o.String("url", u).Bytes())
		}
		return t.status(dst, "remote_control", r.Get("content").Str, md)
	case "hook_response":
		return t.hookResponse(dst, r)
	case "turn_preempted":
		// 2.1.273: the CLI stopped the running turn so that a follow-up
		// sent quickly is answered at once (reason rapid_followup,
		// preempted_by_uuid the follow-up's message); the stopped turn's
		// result follows. A status item as a user's interruption is.
		md := ""
		if u := r.Get("preempted_by_uuid").Str; u != "" {
			var o jsonw.Object
			md = string(o.String("preempted_by_uuid", u).Bytes())
		}
		return t.status(dst, "interrupted", first(r.Get("reason").Str, "preempted"), md)
	case "file_attachments_missing":
		// 2.1.290: files attached to a user message (message_uuid) that
		// did not reach the model, each {file_uuid, reason} (too_large,
		// …): part of the prompt was lost, which shows nowhere else.
		var reasons []string
		for _, m := range r.Get("missing").Array() {
			if why := m.Get("reason").Str; why != "" && !slices.Contains(reasons, why) {
				reasons = append(reasons, why)
			}
		}
		detail := "attached files not sent"
		if len(reasons) > 0 {
			detail += ": " + strings.Join(reasons, ", ")
		}
		return t.status(dst, sub, detail, r.Get("missing").Raw)
	case "elicitation_complete":
		return t.elicitationComplete(dst, r)
	case "model_fallback", "model_consent_fallback":
		// 2.1.332: the turn went on with the configured fallback model
		// because the primary failed (model_fallback, trigger
		// model_not_found, overloaded, …; for the turn only), or a
		// consent gate swapped the session off the requested model
		// (model_consent_fallback, choice consent | switch_default |
		// cancelled). As model_refusal_fallback: detail the notice,
		// metadata the models and why.
		return t.status(dst, sub, r.Get("content").Str, fieldsOf(r, fallbackFields[:]))
	case "memory_saved":
		// 2.1.332: the memory subsystem wrote memories to written_paths
		// ("<verb> N memories", verb Saved by default).
		// A transcript's entry has the CLI's own writtenPaths.
		paths := r.Get("written_paths")
		if !paths.Exists() {
			paths = r.Get("writtenPaths")
		}
		if !paths.IsArray() {
			return t.unparsed(dst, "written_paths", errors.New("memory_saved without a written_paths array"))
		}
		verb := first(r.Get("verb").Str, "Saved")
		detail := fmt.Sprintf("%s %d memories", verb, len(paths.Array()))
		var o jsonw.Object
		o.Raw("written_paths", jsonw.Compact(paths.Raw)).Raw("team_count", r.Get("team_count").Raw).Raw("verb", r.Get("verb").Raw)
		return t.status(dst, sub, detail, string(o.Bytes()))
	case "inherited_asks_settled":
		return t.asksSettled(dst, r)
	case "memory_recall":
		return t.memoryRecall(dst, r.Get("mode"), r.Get("memories"))
	case "agents_killed":
		// 2.1.332: background agents were stopped (an interrupt).
		return t.status(dst, sub, "background agents stopped", "")
	case "scheduled_task_fire", "permission_retry":
		// 2.1.332: a scheduled (cron) task fired; tools run again after a
		// permission-mode change allowed commands denied before
		// (commands, their names). Detail the notice the CLI shows.
		// A transcript's scheduled_task_fire also names the task
		// (taskId, cron, prompt, taskKind, cronKind).
		return t.status(dst, sub, r.Get("content").Str, fieldsOf(r, []string{"commands", "taskId", "cron", "prompt", "taskKind", "cronKind"}))
	case "cloud_session_status":
		// A transcript's notice of a cloud session (content, url, entry),
		// written as bridge_status is for Remote Control.
		return t.status(dst, "cloud_session", r.Get("content").Str, fieldsOf(r, []string{"url", "entry"}))
	case "bridge_state":
		// 2.1.332 stream-json: the Remote Control bridge's state
		// (connected, failed, policy_disabled, …; detail, failure_kind,
		// recovered, bridge_epoch), beside bridge_status.
		detail := r.Get("state").Str
		if d := r.Get("detail").Str; d != "" {
			detail += ": " + d
		}
		return t.status(dst, "remote_control", detail, fieldsOf(r, []string{"state", "detail", "failure_kind", "recovered", "bridge_epoch"}))
	case "late_allow_not_run":
		// 2.1.332: a cloud worker will not run the call of a permission
		// card on a late Allow (reason: declined, expired, …).
		return t.status(dst, sub, first(r.Get("reason").Str, "not run"), fieldsOf(r, []string{"request_id", "tool_use_id", "reason"}))
	case "local_command_output":
		return t.localCommandOutput(dst, r)
	case "informational", "notification":
		return t.notice(dst, r, sub)
	case "tool_host_result":
		return t.toolHostResult(dst, r)
	case "task_list_statuses":
		return t.taskListStatuses(dst, r)
	case "session_metadata":
		return t.sessionMetadata(dst, r)
	case "turn_duration":
		if t.transcript {
			return t.endTranscriptTurn(dst, universal.SourceAgent)
		}
		return dst
	case "":
		return t.unparsed(dst, "subtype", errors.New("system line without a subtype"))
	default:
		if ignoredSystem(sub) {
			return dst
		}
		return t.unparsed(dst, "subtype", fmt.Errorf("unknown system subtype %q", sub))
	}
}

// taskListStatuses: 2.1.332's task_list_statuses {statuses: [{id,
// status: pending | in_progress | completed}]}, the statuses of tasks on
// the task list that Claude Code set itself, with no TaskUpdate call to
// show the change (it sets the tasks it names; the others keep theirs).
// A status item labelled task_list_statuses: detail the tasks it names as
// a checklist of their ids (universal.AppendPlanStep, as a plan's), the
// statuses as metadata. It is not a plan item: it names only the tasks
// that changed, by id, not the list.
func (t *Translator) taskListStatuses(dst events, r jsonscan.Value) events {
	st := r.Get("statuses")
	if !st.IsArray() {
		return t.unparsed(dst, "statuses", errors.New("task_list_statuses without a statuses array"))
	}
	var list []byte
	st.ForEach(func(_, e gjson.Result) bool {
		list = universal.AppendPlanStep(list, universal.StepStateOf(e.Get("status").Str), e.Get("id").String())
		return true
	})
	var o jsonw.Object
	o.Raw("statuses", jsonw.Compact(st.Raw))
	return t.status(dst, "task_list_statuses", string(list), string(o.Bytes()))
}

// toolHostResult: 2.1.332's tool_host_result {tool_use_id, host: {name,
// working_dir?}, disposition?, label?, unverified?, lines: [string]}, the
// CLI's note that a call ran on a tool host (another machine serving the
// session's tools): where, and what the result says of it (lines). A
// completed status item labelled tool_host_result under the call's item
// (when the call is known), detail the lines (else the label), metadata
// the members but tool_use_id. A transcript has it as the attachment it
// is made from (toolHostLines).
func (t *Translator) toolHostResult(dst events, r jsonscan.Value) events {
	return t.toolHostStatus(dst, r.Get("tool_use_id").Str, r.Get("lines"), r.Get("label").Str,
		fieldsOf(r, []string{"host", "disposition", "label", "unverified", "lines"}))
}

// toolHostLines translates a transcript's tool_host_result_lines
// attachment {toolUseID, host (its name), workingDir?, disposition?,
// label?, unverified?, lines}, what stream-json prints as
// tool_host_result, into the same status item.
func (t *Translator) toolHostLines(dst events, a jsonscan.Value) events {
	var host, o jsonw.Object
	host.OptString("name", a.Get("host").Str).OptString("working_dir", a.Get("workingDir").Str)
	if host.Len() > 0 {
		o.Raw("host", string(host.Bytes()))
	}
	for _, k := range [...]string{"disposition", "label", "unverified", "lines"} {
		o.Raw(k, jsonw.Compact(a.Get(k).Raw))
	}
	md := ""
	if o.Len() > 0 {
		md = string(o.Bytes())
	}
	return t.toolHostStatus(dst, a.Get("toolUseID").Str, a.Get("lines"), a.Get("label").Str, md)
}

// toolHostStatus emits the status item of a call a tool host ran.
func (t *Translator) toolHostStatus(dst events, call string, lines gjson.Result, label, md string) events {
	if call == "" {
		return t.unparsed(dst, "tool_use_id", errors.New("tool host result without the call's id"))
	}
	var detail []byte
	lines.ForEach(func(_, l gjson.Result) bool {
		if l.Type == gjson.String && l.Str != "" {
			if len(detail) > 0 {
				detail = append(detail, '\n')
			}
			detail = append(detail, l.Str...)
		}
		return true
	})
	if len(detail) == 0 {
		detail = append(detail, label...)
	}
	parent := ""
	if tl := t.toolFor(call); tl != nil {
		parent = tl.ItemID
	}
	p := universal.Part{Type: universal.PartStatus, Label: "tool_host_result", Detail: string(detail)}
	if md != "" {
		p.Metadata = []byte(md)
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r0(t.raw)), ParentID: parent, Kind: universal.KindStatus, Content: []universal.Part{p},
	}, universal.SourceAgent, t.raw)
}

// sessionMetadata: 2.1.332's session_metadata {metadata: {artifacts:
// [{url, title, favicon, kind: frame, updated_at}] | null}}, the
// session's published artifacts (the whole list on each change, null
// once empty) as a cloud session's summary has them. A status item
// labelled session_metadata: detail an artifact a line (its title, then
// its url), "no artifacts" for null, the native metadata object as
// metadata (so keys added later are kept).
func (t *Translator) sessionMetadata(dst events, r jsonscan.Value) events {
	md := r.Get("metadata")
	if !md.IsObject() {
		return t.unparsed(dst, "metadata", errors.New("session_metadata without a metadata object"))
	}
	var detail []byte
	if a := md.Get("artifacts"); a.Type == gjson.Null && a.Exists() {
		detail = append(detail, "no artifacts"...)
	} else {
		a.ForEach(func(_, e gjson.Result) bool {
			if len(detail) > 0 {
				detail = append(detail, '\n')
			}
			if title := e.Get("title").Str; title != "" {
				detail = append(append(detail, title...), ' ')
			}
			detail = append(detail, e.Get("url").Str...)
			return true
		})
	}
	return t.status(dst, "session_metadata", string(detail), jsonw.Compact(md.Raw))
}

// fallbackFields are the members of a model_fallback or
// model_consent_fallback line (2.1.332) that its status item keeps.
var fallbackFields = [...]string{"trigger", "choice", "original_model", "original_model_name", "fallback_model", "persisted_as_default"}

// fieldsOf returns the members of r named by keys (stream-json's
// snake_case names), as a JSON object, "" when it has none. A member
// missing under its name is looked up under its camelCase spelling, the
// one a transcript's system entry has (the CLI writes its own message
// there: originalModel for stream-json's original_model); it is kept
// under the stream-json name either way.
func fieldsOf(r jsonscan.Value, keys []string) string {
	var o jsonw.Object
	for _, k := range keys {
		v := r.Get(k)
		if !v.Exists() && strings.IndexByte(k, '_') > 0 {
			v = r.Get(camel(k))
		}
		o.Raw(k, jsonw.Compact(v.Raw))
	}
	if o.Len() == 0 {
		return ""
	}
	return string(o.Bytes())
}

// camel returns the camelCase spelling of a snake_case name.
func camel(k string) string {
	b := make([]byte, 0, len(k))
	up := false
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c == '_':
			up = true
		case up && c >= 'a' && c <= 'z':
			b = append(b, c-'a'+'A')
			up = false
		default:
			b = append(b, c)
			up = false
		}
	}
	return string(b)
}

// refusalFields are the members of a model_refusal_fallback or
// model_refusal_no_fallback line that its status part keeps as metadata
// (the Agent SDK's SDKModelRefusalFallbackMessage, 0.3.332).
var refusalFields = [...]string{"original_model", "fallback_model", "scope", "api_refusal_category",
	"api_refusal_explanation", "retracted_message_uuids", "refused_user_message_uuid"}

// init: the first starts the session; each one not inside an open turn
// starts a turn (one per prompt in stdin mode, one per process with
// --resume). An init inside an open turn (a background sub-agent's
// continuation) folds its result into that turn.
func (t *Translator) init(dst events, r jsonscan.Value) events {
	// One walk finds the members an init reads (the first of duplicates,
	// as Get finds); the session metadata takes them in this order.
	const (
		model = iota
		cwd
		sessionID
		permissionMode
		tools
		mcpServers
		agents
		skills
		plugins
		outputStyle
		apiKeySource
		claudeVersion
		qwenVersion
		slashCommands
		capabilities
		memoryPaths
		additionalDirs
		originalCwd
		sandboxEnabled
		fastModeState
		pluginErrors
		effort
		nFields
	)
	var f [nFields]jsonscan.Value
	r.Members(func(k string, v jsonscan.Value) bool {
		i := -1
		switch k {
		case "model":
			i = model
		case "cwd":
			i = cwd
		case "session_id":
			i = sessionID
		case "permissionMode", "permission_mode":
			// Qwen Code writes permission_mode.
			i = permissionMode
		case "tools":
			i = tools
		case "mcp_servers":
			i = mcpServers
		case "agents":
			i = agents
		case "skills":
			i = skills
		case "plugins":
			i = plugins
		case "output_style":
			i = outputStyle
		case "apiKeySource":
			i = apiKeySource
		case "claude_code_version":
			i = claudeVersion
		case "qwen_code_version":
			i = qwenVersion
		case "slash_commands":
			i = slashCommands
		case "capabilities":
			i = capabilities
		case "memory_paths":
			i = memoryPaths
		case "additional_directories":
			i = additionalDirs
		case "original_cwd":
			i = originalCwd
		case "sandbox_enabled":
			i = sandboxEnabled
		case "fast_mode_state":
			i = fastModeState
		case "plugin_errors":
			// Plugins that did not load, or loaded without one of their
			// components ({plugin, type, message, path, managed_lock}):
			// the init's only trace of them.
			i = pluginErrors
		case "effort":
			// The effort level the session's next request is sent with
			// (null: none is sent), the reasoning effort other agents'
			// session and turn metadata name.
			i = effort
		}
		if i >= 0 && !f[i].Exists() {
			f[i] = v
		}
		return true
	})
	if sid := f[sessionID].Str(); sid != "" {
		if t.w.Begun() && t.s.Turn != nil && t.s.Turn.Results == 0 && sid != t.w.Stamper().NativeSessionID() {
			// Another session's run (runs appended to one log) while
			// the run before is inside a turn: that run stopped
			// before its result (killed, cut off).
			dst = t.cutTurn(dst)
		}
		t.w.SetNativeSessionID(sid)
	}
	reasoningEffort := ""
	if f[effort].Type() == gjson.String {
		reasoningEffort = f[effort].Compacted()
	}
	modelID := f[model].Compacted()
	if modelID == `""` {
		modelID = "" // an empty id names no model
	}
	if !t.w.Begun() {
		name, version := "", f[claudeVersion]
		if f[qwenVersion].Exists() {
			// Qwen Code writes this format too: say which program did,
			// as the acp translator's agent_name does.
			name, version = `"qwen-code"`, f[qwenVersion]
		}
		md := cleanObject([2]string{"agent", `"` + agentName + `"`}, [2]string{"agent_name", name},
			[2]string{"agent_version", version.Compacted()},
			[2]string{"model", modelID}, [2]string{"reasoning_effort", reasoningEffort},
			[2]string{"cwd", f[cwd].Compacted()},
			[2]string{"permission_mode", f[permissionMode].Compacted()},
			[2]string{"tools", f[tools].Compacted()}, [2]string{"mcp_servers", f[mcpServers].Compacted()},
			[2]string{"agents", f[agents].Compacted()}, [2]string{"skills", f[skills].Compacted()},
			[2]string{"plugins", f[plugins].Compacted()}, [2]string{"plugin_errors", f[pluginErrors].Compacted()},
			[2]string{"output_style", f[outputStyle].Compacted()},
			[2]string{"api_key_source", f[apiKeySource].Compacted()},
			[2]string{"slash_commands", f[slashCommands].Compacted()}, [2]string{"capabilities", f[capabilities].Compacted()},
			[2]string{"memory_paths", f[memoryPaths].Compacted()}, [2]string{"additional_directories", f[additionalDirs].Compacted()},
			[2]string{"original_cwd", f[originalCwd].Compacted()}, [2]string{"sandbox_enabled", f[sandboxEnabled].Compacted()},
			[2]string{"fast_mode_state", f[fastModeState].Compacted()})
		dst = t.w.BeginClean(dst, md, universal.SourceAgent, t.raw)
	}
	if t.s.Cwd == "" {
		t.s.Cwd = f[cwd].OwnStr(t.w.Copy)
	}
	// Each init names the mode its turn runs in (the turn's metadata):
	// a change from the turn before is reported before the turn.
	dst = t.permissionMode(dst, f[permissionMode].Str())
	dst = t.heldTurn(dst)
	dst = t.heldHooks(dst, false)
	if t.s.Turn != nil {
		t.s.Turn.Extra++
		return t.heldHooks(dst, true)
	}
	md := cleanObject([2]string{"model", modelID}, [2]string{"reasoning_effort", reasoningEffort},
		[2]string{"permission_mode", f[permissionMode].Compacted()})
	dst = t.startTurn(dst, universal.SourceAgent, md, true)
	return t.heldHooks(dst, true)
}

// header starts a transcript's session from the first entry that names
// the session and the CLI version.
func (t *Translator) header(dst events, r jsonscan.Value) events {
	sid, version := r.Get("sessionId").Str, r.Get("version").Str
	if sid == "" || version == "" {
		return dst
	}
	t.w.SetNativeSessionID(sid)
	var o jsonw.Object
	o.String("agent", agentName).String("agent_version", version).
		Raw("cwd", r.Get("cwd").Raw).
		Raw("git_branch", r.Get("gitBranch").Raw).
		Raw("entrypoint", r.Get("entrypoint").Raw).
		Raw("slug", r.Get("slug").Raw).
		OptString("agent_setting", t.s.AgentSetting).
		OptString("permission_mode", t.s.Mode).
		OptString("title", t.s.Title).
		Raw("created_at", r.Get("timestamp").Raw)
	// A fork's copied entries name the session and entry each was copied
	// from (forkedFrom: {sessionId, messageUuid}); a derived-from entry
	// read before the first message says more.
	derived := t.s.Derived
	if fork := r.Get("forkedFrom.sessionId").Str; fork != "" && !gjson.Get(derived, "forked_from_id").Exists() {
		o.String("forked_from_id", fork)
	}
	if len(derived) > 2 {
		o.RawMembers(derived[1 : len(derived)-1])
	}
	t.s.Derived = ""
	t.s.Cwd = t.w.Copy(r.Get("cwd").Str)
	t.s.Continues = continuesAfterBackground(version)
	dst = t.w.BeginClean(dst, o.Bytes(), universal.SourceAgent, t.raw)
	return t.heldCollapses(dst)
}

func (t *Translator) apiRetry(dst events, r jsonscan.Value) events {
	status := r.Get("error_status")
	var o jsonw.Object
	o.Raw("attempt", r.Get("attempt").Raw).
		Raw("max_retries", r.Get("max_retries").Raw).
		Raw("retry_delay_ms", r.Get("retry_delay_ms").Raw).
		Raw("error_status", status.Raw).
		Raw("error", r.Get("error").Raw).
		Raw("no_response", r.Get("no_response").Raw)
	return t.retrying(dst, "API request", r.Get("error").Str, status, o.Bytes())
}

// retrying emits the error of an API request that failed and is retried
// (will_retry): the message names what failed and why (the cause, else
// the HTTP status), the code is the status when there is one, else the
// cause.
func (t *Translator) retrying(dst events, what, cause string, status gjson.Result, details []byte) events {
	code := cause
	if status.Type == gjson.Number {
		code = status.Raw
	}
	return t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
		Message: t.w.Copy(what + " failed (" + first(cause, status.Raw, "no response") + "); retrying"),
		Code:    t.w.Copy(code), Details: details, WillRetry: true,
	}, t.raw)
}

// toolProgress: tool_progress lines are elapsed-time heartbeats of a
// running tool (a Bash call, a sub-agent's Agent call) and the REPL
// tool's inner calls (repl_call {inner_tool_name, inner_tool_input,
// inner_tool_use_id, phase}, no result), ignored; but one that carries
// subagent_retry {agent_id, attempt, max_retries, retry_delay_ms,
// error_status, error_category} (2.1.2xx and later: the CLI's
// agent_api_retry progress, a sub-agent's API request failed and is
// retried, which stream-json shows nowhere else) is an error with
// will_retry, as the session's own system/api_retry is: a retried error
// is not terminal, so it is not the session's failure either.
func (t *Translator) toolProgress(dst events, r jsonscan.Value) events {
	sr := r.Get("subagent_retry")
	if !sr.IsObject() {
		return dst
	}
	status := sr.Get("error_status")
	var o jsonw.Object
	o.Raw("attempt", sr.Get("attempt").Raw).
		Raw("max_retries", sr.Get("max_retries").Raw).
		Raw("retry_delay_ms", sr.Get("retry_delay_ms").Raw).
		Raw("error_status", status.Raw).
		Raw("error_category", sr.Get("error_category").Raw).
		Raw("agent_id", sr.Get("agent_id").Raw).
		Raw("subagent_type", r.Get("subagent_type").Raw).
		Raw("tool_use_id", r.Get("tool_use_id").Raw)
	return t.retrying(dst, "sub-agent API request", sr.Get("error_category").Str, status, o.Bytes())
}

// apiError is the transcript's record of a failed API request.
func (t *Translator) apiError(dst events, r jsonscan.Value) events {
	e := r.Get("error")
	retry := r.Get("retryInMs").Exists() &&
		(!r.Get("maxRetries").Exists() || r.Get("retryAttempt").Int() <= r.Get("maxRetries").Int())
	var o jsonw.Object
	o.Raw("error", e.Raw).
		Raw("retry_in_ms", r.Get("retryInMs").Raw).
		Raw("retry_attempt", r.Get("retryAttempt").Raw).
		Raw("max_retries", r.Get("maxRetries").Raw)
	// 2.1.330 writes formatted and message; 2.1.1xx wrote the SDK's
	// error object as it was (status, headers, requestID, and the API's
	// response body under error: {type:"error", error:{type, message}}).
	msg := first(e.Get("formatted").Str, e.Get("message").Str, e.Str, e.Get("error.error.message").Str, "API error")
	scope := t.lineScope(r)
	if t.orphan(scope) {
		return dst
	}
	if !t.ownThread(scope) && !retry {
		// A sub-agent's failure is not the session's.
		return t.subAgentError(dst, scope, msg, e.Get("status").Raw, o.Bytes())
	}
	emsg, code := unwrapAPIError(msg, e.Get("status").Raw, &o)
	return t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
		Message: t.w.Copy(emsg), Code: t.w.Copy(code), Details: o.Bytes(), WillRetry: retry,
	}, t.raw)
}

// title takes a transcript's title entry (ai-title: the title Claude
// Code generated; custom-title: the one the user gave). Before the session
// starts it is session metadata; after, a change is a status item labelled
// "title" whose detail is the new title. Claude Code writes the same title
// again every few entries, and a generated title never replaces the
// user's: neither is a change.
func (t *Translator) title(dst events, r jsonscan.Value, byUser bool) events {
	key := "aiTitle"
	if byUser {
		key = "customTitle"
	}
	return t.setTitle(dst, r.Get(key).Str, byUser)
}

// permissionMode takes a permission mode the CLI names (default,
// acceptEdits, plan, bypassPermissions, dontAsk, auto): the first one is
// session.started metadata permission_mode (as an init's), every turn's
// metadata says the mode it runs in, and a change after the session
// started (plan mode left, a mode switched between turns or while the
// model works) is a status item labelled "mode" (universal.LabelMode)
// with the mode as its detail and metadata permission_mode and previous
// {permission_mode}, as the other translators report a mode change.
func (t *Translator) permissionMode(dst events, mode string) events {
	if mode == "" || mode == t.s.Mode {
		return dst
	}
	prev := t.s.Mode
	t.s.Mode = t.w.Copy(mode)
	if !t.w.Begun() || prev == "" && t.s.Turn == nil {
		return dst
	}
	md := jsonw.Object{}
	md.String("permission_mode", mode).OptStringIn("previous", "permission_mode", prev)
	return t.status(dst, universal.LabelMode, mode, string(md.Bytes()))
}

// setTitle reports the session's title: one the user gave is kept over
// the ones Claude Code generates.
func (t *Translator) setTitle(dst events, title string, byUser bool) events {
	if title == "" || title == t.s.Title || t.s.TitleByUser && !byUser {
		return dst
	}
	t.s.Title, t.s.TitleByUser = t.w.Copy(title), t.s.TitleByUser || byUser
	if !t.w.Begun() {
		return dst
	}
	source := `{"source":"agent"}`
	if byUser {
		source = `{"source":"user"}`
	}
	return t.status(dst, universal.LabelTitle, title, source)
}

// collapse takes a transcript's marble-origami-commit entry (context
// collapse, 2.1.1xx on: {collapseId, summaryUuid, summaryContent,
// summary, firstArchivedUuid, lastArchivedUuid}): the entries from
// firstArchivedUuid to lastArchivedUuid leave the model's context and
// the summary stands for them, as after a compaction. It is a status
// item labelled "compaction", detail "collapse", the commit in metadata.
func (t *Translator) collapse(dst events, r jsonscan.Value) events {
	var o jsonw.Object
	o.OptString("collapse_id", r.Get("collapseId").Str).
		OptString("summary", r.Get("summary").Str).
		OptString("summary_content", r.Get("summaryContent").Str).
		OptString("summary_uuid", r.Get("summaryUuid").Str).
		OptString("first_archived_uuid", r.Get("firstArchivedUuid").Str).
		OptString("last_archived_uuid", r.Get("lastArchivedUuid").Str)
	if !t.w.Begun() {
		// Ahead of the session's first message (a resumed or forked
		// session's file can start with the commits of its context): held
		// until the session starts, as its title is. Beyond the bound
		// the entry is reported instead of lost.
		if len(t.s.Collapses) >= maxCollapses {
			return t.unparsed(dst, "", fmt.Errorf("more than %d context-collapse commits before the session started", maxCollapses))
		}
		t.s.Collapses = append(t.s.Collapses, string(o.Bytes()))
		return dst
	}
	return t.status(dst, universal.LabelCompaction, "collapse", string(o.Bytes()))
}

// maxCollapses bounds the context-collapse commits held before the
// session started.
const maxCollapses = 16

// heldCollapses shows the context-collapse commits held until the session
// started (see collapse), right after session.started; their entries'
// lines are gone, so the items carry no raw payload of their own.
func (t *Translator) heldCollapses(dst events) events {
	if len(t.s.Collapses) == 0 || !t.w.Begun() {
		return dst
	}
	raw := t.raw
	t.raw = nil
	for _, md := range t.s.Collapses {
		dst = t.status(dst, universal.LabelCompaction, "collapse", md)
	}
	t.raw = raw
	t.s.Collapses = nil
	return dst
}

// noticeFields are the members of an informational line its notice keeps
// as metadata: its render level (info, notice, suggestion, warning), the
// tool use whose repeated progress it is (toolUseID in a transcript),
// whether execution stops after it (a hook denied continuation), a
// feature tag, and the prompt a refusal concerns (the Agent SDK's
// SDKInformationalMessage, 0.3.332).
var noticeFields = [...]string{"level", "tool_use_id", "prevent_continuation", "tag", "refused_user_message_uuid"}

// notice translates the CLI's text banners for the user: informational
// {content, level, …} (hook feedback such as a UserPromptSubmit or Stop
// hook's block reason or systemMessage, a safety classifier's stop, a
// usage limit's automatic continue; in transcripts too) and notification
// {key, text, priority} (the REPL's notification queue: stop-hook-error,
// a usage warning). Neither is the model's text nor reaches the model: a
// status item labelled notice, as claude-agent-acp's rendering of the
// same informational line is in the acp translator, detail the text,
// the fields above (key and priority for a notification) in its
// metadata. A banner without text carries nothing and is dropped; one
// whose text is not a string is agent.unparsed.
func (t *Translator) notice(dst events, r jsonscan.Value, sub string) events {
	key := "content"
	if sub == "notification" {
		key = "text"
	}
	v := r.Get(key)
	if v.Exists() && v.Type != gjson.String && v.Type != gjson.Null {
		return t.unparsed(dst, key, fmt.Errorf("%s whose %s is not a string", sub, key))
	}
	text := v.Str
	if text == "" {
		return dst
	}
	if sub == "notification" {
		return t.status(dst, "notice", text, fieldsOf(r, []string{"key", "priority"}))
	}
	var o jsonw.Object
	for _, k := range noticeFields {
		v := r.Get(k)
		if !v.Exists() {
			v = r.Get(camel(k))
		}
		if !v.Exists() && k == "tool_use_id" {
			v = r.Get("toolUseID")
		}
		o.Raw(k, jsonw.Compact(v.Raw))
	}
	md := ""
	if o.Len() > 0 {
		md = string(o.Bytes())
	}
	return t.status(dst, "notice", text, md)
}

// memoryRecall: memories the CLI's memory recall put into the turn's
// context, which it shows the user as "Recalled from memory" (2.1.332
// stream-json system/memory_recall {mode select | synthesize, memories
// [{path, scope, content?}]}, "mirrors the CLI relevant_memories
// attachment so SDK renderers can show 'Recalled from memory' inline";
// a transcript's relevant_memories attachment {memories [{path, content,
// mtimeMs}]}). A status item labelled memory_recall, as memory_saved's
// is: detail "Recalled from memory: " and the paths, metadata mode and
// the memories as given. None recalled: nothing.
func (t *Translator) memoryRecall(dst events, mode, memories gjson.Result) events {
	if !memories.Exists() || memories.Type == gjson.Null {
		return dst
	}
	if !memories.IsArray() {
		return t.unparsed(dst, "memories", errors.New("memory recall whose memories are not an array"))
	}
	var detail strings.Builder
	n := 0
	memories.ForEach(func(_, m gjson.Result) bool {
		if n == 0 {
			detail.WriteString("Recalled from memory: ")
		} else {
			detail.WriteString(", ")
		}
		n++
		if p := m.Get("path"); p.Type == gjson.String && p.Str != "" {
			detail.WriteString(p.Str)
		} else {
			detail.WriteString("(no path)")
		}
		return true
	})
	if n == 0 {
		return dst
	}
	var o jsonw.Object
	o.Raw("mode", jsonw.Compact(mode.Raw)).Raw("memories", jsonw.Compact(memories.Raw))
	return t.status(dst, "memory_recall", detail.String(), string(o.Bytes()))
}

// status emits a completed status item.
func (t *Translator) status(dst events, label, detail, md string) events {
	p := universal.Part{Type: universal.PartStatus, Label: t.w.Copy(label), Detail: t.w.Copy(detail)}
	if md != "" {
		p.Metadata = jsonw.AppendRaw(nil, md)
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r0(t.raw)), Kind: universal.KindStatus, Content: []universal.Part{p},
	}, universal.SourceAgent, t.raw)
}

// failedStatus emits a complete status item that failed.
func (t *Translator) failedStatus(dst events, label, detail string) events {
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r0(t.raw)), Kind: universal.KindStatus, Status: universal.StatusFailed,
		Content: []universal.Part{{Type: universal.PartStatus, Label: label, Detail: t.w.Copy(detail)}},
	}, universal.SourceAgent, t.raw)
}

// r0 returns the uuid of the current line.
func r0(raw []byte) string { return gjson.GetBytes(raw, "uuid").Str }

// taskStarted opens the status item of a task (a sub-agent, a background
// shell…), under the tool call that started it.
func (t *Translator) taskStarted(dst events, r jsonscan.Value) events {
	task := r.Get("task_id").Str
	call := r.Get("tool_use_id").Str
	t.learnAgent(task, call)
	if _, ok := t.s.Tasks[task]; ok || task == "" {
		return dst
	}
	id := t.w.NewItemID()
	if t.s.Tasks == nil {
		t.s.Tasks = map[string]string{}
	}
	t.s.Tasks[t.w.Copy(task)] = id
	return t.w.StartItem(dst, universal.Item{
		ItemID: id, NativeItemID: t.w.Copy(task), ParentID: t.scopeParent(call), Kind: universal.KindStatus,
		Content: []universal.Part{t.taskPart(r, "running")},
	}, universal.SourceAgent, t.raw)
}

// taskFields are the members of a task's line that its status part keeps
// as metadata, in the order written. 2.1.273 to 2.1.293 added the task
// that started this one (parent_task_id), a resumed sub-agent's run the
// caller waits for (awaited), why a task ended otherwise than by
// completing, failing or being stopped (reason: worker_restart), and a
// sub-agent's hand-back (handback: flagged, withheld; its report {text,
// warning}). The Agent SDK's types (0.3.33x) add a workflow task's script
// name (workflow_name), a housekeeping task a transcript hides
// (skip_transcript), and the files a backgrounded MCP task returned by
// reference (resource_links, on task_notification: its tool result is a
// placeholder, so this is the only trace of them).
var taskFields = [...]string{"task_type", "subagent_type", "is_backgrounded", "run_id", "usage", "output_file",
	"parent_task_id", "awaited", "reason", "handback", "handback_report", "workflow_name", "skip_transcript",
	"resource_links"}

func (t *Translator) taskPart(r jsonscan.Value, label string) universal.Part {
	// One walk finds them all (the first of duplicate members, as a
	// lookup does), not a lookup that walks the line for each.
	var vals [len(taskFields)]jsonscan.Value
	var summary, description, call, prompt jsonscan.Value
	r.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "summary":
			jsonscan.KeepFirst(&summary, v)
		case "description":
			jsonscan.KeepFirst(&description, v)
		case "tool_use_id":
			jsonscan.KeepFirst(&call, v)
		case "prompt":
			jsonscan.KeepFirst(&prompt, v)
		default:
			if i := slices.Index(taskFields[:], k); i >= 0 {
				jsonscan.KeepFirst(&vals[i], v)
			}
		}
		return true
	})
	var o jsonw.Object
	for i, k := range taskFields {
		o.Raw(k, vals[i].Raw())
	}
	if call.Str() == "" && prompt.Type() == gjson.String && prompt.Str() != "" {
		// A task no tool call started (a skill run forked, 2.1.277): its
		// prompt is nowhere else; a sub-agent's is its call's input.
		o.Raw("prompt", prompt.Raw())
	}
	p := universal.Part{Type: universal.PartStatus, Label: t.w.Copy(label), Detail: t.w.Copy(first(summary.Str(), description.Str()))}
	if o.Len() > 0 {
		p.Metadata = o.Bytes()
	}
	return p
}

// taskNotification completes a task's status item with its final state;
// a background sub-agent's messages are complete too.
func (t *Translator) taskNotification(dst events, r jsonscan.Value) events {
	task := r.Get("task_id").Str
	call := first(r.Get("tool_use_id").Str, t.s.Agents[task])
	state := first(r.Get("status").Str, "completed")
	status := universal.StatusCompleted
	if state != "completed" {
		status = universal.StatusFailed
	}
	id, ok := t.s.Tasks[task]
	if !ok || !t.w.IsOpen(id) {
		id = t.w.NewItemID()
	}
	delete(t.s.Tasks, task)
	dst = t.backgroundDone(dst, call)
	if call != "" {
		dst = t.closeMsgs(dst, inScope(call), nil)
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: id, NativeItemID: t.w.Copy(task), ParentID: t.scopeParent(call), Kind: universal.KindStatus,
		Content: []universal.Part{t.taskPart(r, state)}, Status: status,
	}, universal.SourceAgent, t.raw)
}

// handedBack ends the task a foreground sub-agent call started when the
// call's result comes with the task's status item still open: 2.1.61
// writes task_started for a foreground sub-agent but no
// task_notification (2.1.90 and later write it before the result). The
// result is the task's end: completed, or failed with an error result
// (the item keeps what task_started said; its label is the outcome).
func (t *Translator) handedBack(dst events, call string, isErr bool) events {
	if call == "" {
		return dst
	}
	for _, task := range slices.Sorted(maps.Keys(t.s.Tasks)) {
		id := t.s.Tasks[task]
		if t.s.Agents[task] != call || !t.w.IsOpen(id) {
			continue
		}
		it, ok := t.w.Tracked(id)
		if !ok || len(it.Content) == 0 || it.Content[0].Type != universal.PartStatus {
			continue
		}
		delete(t.s.Tasks, task)
		it.Content = slices.Clone(it.Content)
		it.Content[0].Label, it.Status = "completed", universal.StatusCompleted
		if isErr {
			it.Content[0].Label, it.Status = "failed", universal.StatusFailed
		}
		dst = t.w.Complete(dst, it, universal.SourceDaemon, t.raw)
	}
	return dst
}

// resultFields are the members of a result line that every result reads.
type resultFields struct {
	sessionID, subtype, isError, errors, terminalReason, denials, cost, models, usage, sinceLast,
	stopReason, numTurns, duration, durationAPI, resultIndex, origin, localCommand, deferred jsonscan.Value
	// What a result says of its turn beside its outcome (the Agent SDK's
	// SDKResultSuccess / SDKResultError, 0.3.332; subagent_stats as
	// 2.1.2xx writes it): the client uuids of the user messages it
	// answers (user_message_uuid, the last; user_message_uuids, every
	// one it consumed), why it continued a turn a worker restart cut
	// (resume_reason), the user sends still queued behind it
	// (queued_turn_count: more than 0, another turn follows without
	// input), the sub-agents it spawned, finished, lost or was refused
	// (subagent_stats), and its latencies (ttft_ms, ttft_stream_ms,
	// time_to_request_ms).
	userMessage, userMessages, resumeReason, queued, subagents, ttft, ttftStream, toRequest jsonscan.Value
	// oldCost is cost_usd, what total_cost_usd was called before Claude
	// Code renamed it (mid-2025, ~1.0.3x; the SDKs followed: "Rename
	// cost_usd to total_cost_usd", claude-code-sdk-python 0.0.13): the
	// cost of the whole process then too.
	oldCost jsonscan.Value
}

// read finds the fields in one walk of r's members (the first of
// duplicates, as Get finds), where a Get each would walk them again.
func (f *resultFields) read(r jsonscan.Value) {
	r.Members(func(k string, v jsonscan.Value) bool {
		var p *jsonscan.Value
		switch k {
		case "session_id":
			p = &f.sessionID
		case "subtype":
			p = &f.subtype
		case "is_error":
			p = &f.isError
		case "errors":
			p = &f.errors
		case "terminal_reason":
			p = &f.terminalReason
		case "permission_denials":
			p = &f.denials
		case "total_cost_usd":
			p = &f.cost
		case "cost_usd":
			p = &f.oldCost
		case "modelUsage":
			p = &f.models
		case "usage":
			p = &f.usage
		case "model_usage_since_last_result":
			p = &f.sinceLast
		case "stop_reason":
			p = &f.stopReason
		case "num_turns":
			p = &f.numTurns
		case "duration_ms":
			p = &f.duration
		case "duration_api_ms":
			p = &f.durationAPI
		case "result_index":
			p = &f.resultIndex
		case "origin":
			p = &f.origin
		case "local_command":
			p = &f.localCommand
		case "deferred_tool_use":
			p = &f.deferred
		case "user_message_uuid":
			p = &f.userMessage
		case "user_message_uuids":
			p = &f.userMessages
		case "resume_reason":
			p = &f.resumeReason
		case "queued_turn_count":
			p = &f.queued
		case "subagent_stats":
			p = &f.subagents
		case "ttft_ms":
			p = &f.ttft
		case "ttft_stream_ms":
			p = &f.ttftStream
		case "time_to_request_ms":
			p = &f.toRequest
		}
		if p != nil {
			jsonscan.KeepFirst(p, v)
		}
		return true
	})
}

// result ends the turn: its status (never from subtype alone), an error
// when it failed, the turn's usage and the session's running totals.
func (t *Translator) result(dst events, r jsonscan.Value) events {
	var f resultFields
	f.read(r)
	if sid := f.sessionID.Str(); sid != "" && t.w.Stamper().NativeSessionID() == "" {
		t.w.SetNativeSessionID(sid)
	}
	if t.s.Turn == nil {
		dst = t.startTurn(dst, universal.SourceDaemon, nil, true)
	}
	tn := t.s.Turn
	// The API loop this result ends is over: its messages are complete,
	// except one whose stream never reached message_stop (2.0.x ends a
	// broken stream with the result alone): it was cut off.
	for _, m := range t.scopeMsgs("") {
		if m.Live {
			m.Failed = true
		}
	}
	dst = t.closeMsgs(dst, inScope(""), nil)
	status := resultStatus(&f)
	if status == universal.TurnCompleted {
		dst = t.resultAnswer(dst, r)
	}
	if status == universal.TurnError {
		msg := resultMessage(r)
		if tn.ErrMsg == "" {
			tn.ErrMsg = t.w.Copy(msg)
		}
		if !tn.Errored {
			tn.Errored = true
			var o jsonw.Object
			o.Raw("subtype", f.subtype.Raw()).
				Raw("terminal_reason", f.terminalReason.Raw()).
				Raw("api_error_status", r.Get("api_error_status").Raw).
				Raw("api_error_type", r.Get("api_error_type").Raw).
				Raw("errors", f.errors.Raw())
			// What 2.1.266 and later say of a failure beside the text:
			// the API error's kind (api_error, as api_error_kind: an
			// "API Error: NNN {…}" text's body is api_error) and the
			// server's own code (api_error_code), a known startup failure
			// (startup_failure_reason, the run refused before any
			// model call) and the self-hosted runner's report of a
			// session process that failed to start or exited
			// abnormally (runner_exit {phase, exit_code, signal}); with
			// startup_failure_reason config_file_invalid, the file that
			// did not parse and its backup (invalid_config_file {path,
			// is_global, backup_searched, backup_path}: the Agent SDK's
			// SDKResultError, whose paths a host reads from here).
			failure := r.Get("startup_failure_reason")
			o.Raw("api_error_kind", r.Get("api_error").Raw).
				Raw("api_error_code", r.Get("api_error_code").Raw).
				Raw("startup_failure_reason", failure.Raw).
				Raw("invalid_config_file", r.Get("invalid_config_file").Raw).
				Raw("runner_exit", r.Get("runner_exit").Raw)
			emsg, code := unwrapAPIError(msg, first(f.terminalReason.Str(), failure.Str, f.subtype.Str()), &o)
			dst = t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
				Message: t.w.Copy(emsg), Code: t.w.Copy(code), Details: o.Bytes(),
			}, t.raw)
		}
	}
	f.denials.Each(func(_ gjson.Result, d jsonscan.Value) bool {
		dst = t.denied(dst, d, "result.permission_denials")
		return true
	})
	if f.deferred.IsObject() {
		dst = t.deferredCall(dst, f.deferred)
	}
	cost := f.cost
	if !cost.Exists() {
		cost = f.oldCost
	}
	dst = t.sessionUsage(dst, cost, f.models)
	if tk, ok := anthropic.ReadUsage(f.usage); ok {
		if tn.Usage != nil {
			u := anthropic.AddUsage(*tn.Usage, tk.Usage())
			tn.Usage = &u
		} else {
			tn.Usage = keptUsage(&tk)
		}
	}
	tn.Status = worse(tn.Status, status)
	t.s.Last = outcome{Failed: tn.Status == universal.TurnError, Message: tn.ErrMsg}
	tn.Results++
	since := ""
	if mu := f.sinceLast; mu.IsObject() {
		if since = mu.Compacted(); since == "{}" {
			since = "" // an empty object, however it was spaced
		}
	}
	u := cleanObject([2]string{"basis", `"main_loop"`}, [2]string{"model_usage_since_last_result", since})
	o := cleanObject([2]string{"subtype", f.subtype.Compacted()}, [2]string{"is_error", f.isError.Compacted()},
		[2]string{"stop_reason", f.stopReason.Compacted()}, [2]string{"terminal_reason", f.terminalReason.Compacted()},
		[2]string{"num_turns", f.numTurns.Compacted()}, [2]string{"duration_ms", f.duration.Compacted()},
		[2]string{"duration_api_ms", f.durationAPI.Compacted()}, [2]string{"result_index", f.resultIndex.Compacted()},
		[2]string{"origin", f.origin.Compacted()}, [2]string{"local_command", f.localCommand.Compacted()},
		[2]string{"user_message_uuid", f.userMessage.Compacted()}, [2]string{"user_message_uuids", f.userMessages.Compacted()},
		[2]string{"resume_reason", f.resumeReason.Compacted()}, [2]string{"queued_turn_count", f.queued.Compacted()},
		[2]string{"subagent_stats", f.subagents.Compacted()}, [2]string{"ttft_ms", f.ttft.Compacted()},
		[2]string{"ttft_stream_ms", f.ttftStream.Compacted()}, [2]string{"time_to_request_ms", f.toRequest.Compacted()})
	if tn.Extra > 0 {
		// More results are due; should none come, the turn ends with
		// this one's metadata (see heldTurn).
		tn.Extra--
		tn.EndMD, tn.UsageMD = string(o), string(u)
		return dst
	}
	return t.endResultTurn(dst, o, u, universal.SourceAgent, t.raw)
}

// resultAnswer gives a completed turn that showed no message of the
// session its result's text as an assistant message: claude -p
// --output-format json without verbose output prints the result alone, and
// its text is then the only copy of the answer (in stream-json the result
// repeats the last message's text, which the turn has shown). With
// --json-schema the result carries structured_output, the object the
// model gave its StructuredOutput call: when the turn showed no such call
// of the session, the message gets it as a json part (after the text);
// a turn that showed its answer's text but not the call gets a message
// with the json part alone.
func (t *Translator) resultAnswer(dst events, r jsonscan.Value) events {
	tn := t.s.Turn
	var parts []universal.Part
	if text := r.Field("result"); !tn.Answered && text.Type() == gjson.String && text.Str() != "" {
		parts = append(parts, universal.Text(text.OwnStr(t.w.Copy)))
	}
	if so := r.Field("structured_output"); !tn.Structured && so.Exists() && so.Type() != gjson.Null {
		if js := so.OwnJSON(t.w.Copy); js != "" {
			parts = append(parts, universal.Part{Type: universal.PartJSON, JSON: json.RawMessage(js)})
		}
	}
	if len(parts) == 0 {
		return dst
	}
	tn.Answered = true
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r.Field("uuid").Str()), Kind: universal.KindMessage, Role: universal.RoleAssistant,
		Content: parts, Status: universal.StatusCompleted,
	}, universal.SourceAgent, t.raw)
}

// endResultTurn ends the open turn with the results folded into it: the
// turn's usage (metadata usageMD), then turn.ended (metadata endMD).
func (t *Translator) endResultTurn(dst events, endMD, usageMD []byte, src universal.Source, raw []byte) events {
	tn := t.s.Turn
	dst = t.closeMsgs(dst, everyMsg, nil)
	if tn.Usage != nil {
		d := &universal.UsageUpdated{TurnID: tn.ID, Scope: universal.ScopeTurn, Usage: *tn.Usage, Metadata: usageMD}
		dst = t.w.Emit(dst, universal.TypeUsageUpdated, src, d, raw)
	}
	dst = t.w.EndTurn(dst, tn.ID, tn.Status, endMD, src, raw)
	t.s.Turn = nil
	return dst
}

// cutTurn ends the open turn of a run whose output stopped before its
// result, interrupted: a message still streaming was cut off, and items
// left open fail.
func (t *Translator) cutTurn(dst events) events {
	for _, m := range t.s.Msgs {
		if m.Live {
			m.Failed = true
		}
	}
	dst = t.closeMsgs(dst, everyMsg, nil)
	dst = t.w.EndTurn(dst, t.s.Turn.ID, universal.TurnInterrupted, nil, universal.SourceDaemon, nil)
	t.s.Turn = nil
	return dst
}

// heldTurn ends a turn that got a result but still waits for the result of
// a continuation (a system/init inside it) that the CLI never writes:
// 2.1.50 to 2.1.120 write a single result for a turn whose background
// sub-agent continued it, 2.1.41, 2.1.44 and 2.1.330 one per init. It ends when the next turn's init
// arrives or the input ends, with the last result's metadata.
func (t *Translator) heldTurn(dst events) events {
	tn := t.s.Turn
	if tn == nil || tn.Results == 0 {
		return dst
	}
	return t.endResultTurn(dst, []byte(tn.EndMD), []byte(tn.UsageMD), universal.SourceDaemon, nil)
}

// resultStatus decides how a turn ended from is_error, errors,
// terminal_reason and an error subtype. Subtype "success" proves nothing
// (the CLI writes it with is_error true on API failures), but an error
// subtype is a failure even with is_error false (2.0.x ends a broken
// stream with error_during_execution, is_error false, errors [] and no
// terminal_reason; 1.0.0 wrote error_max_turns with is_error false).
func resultStatus(f *resultFields) universal.TurnStatus {
	tr := f.terminalReason.Str()
	switch {
	case strings.HasPrefix(tr, "aborted"):
		return universal.TurnInterrupted
	case f.isError.Result().Bool(), f.errors.Exists() && len(f.errors.Result().Array()) > 0, failureReason(tr),
		strings.HasPrefix(f.subtype.Str(), "error"):
		return universal.TurnError
	}
	return universal.TurnCompleted
}

// failureReason reports terminal reasons that mean the turn failed.
func failureReason(tr string) bool {
	switch tr {
	case "api_error", "prompt_too_long", "max_turns", "budget_exhausted":
		return true
	}
	return strings.Contains(tr, "error")
}

func resultMessage(r jsonscan.Value) string {
	if s := r.Get("result").Str; s != "" {
		return s
	}
	var msgs []string
	r.Get("errors").ForEach(func(_, e gjson.Result) bool {
		msgs = append(msgs, first(e.Str, e.Raw))
		return true
	})
	if len(msgs) > 0 {
		return strings.Join(msgs, "; ")
	}
	if s := r.Get("error.message").Str; s != "" {
		return s // Qwen Code: "error":{"message":"[API Error: …]"}
	}
	if x := r.Get("runner_exit"); x.IsObject() {
		// The runner's synthesized result (2.1.266): the session
		// process failed to start (phase setup) or exited abnormally.
		how := "the session process exited"
		if ph := x.Get("phase").Str; ph != "" {
			how += " in " + ph
		}
		if sig := x.Get("signal").Str; sig != "" {
			return how + " (signal " + sig + ")"
		}
		if c := x.Get("exit_code"); c.Type == gjson.Number {
			return how + " (exit code " + c.Raw + ")"
		}
		return how
	}
	return "the turn failed (" + first(r.Get("terminal_reason").Str, r.Get("subtype").Str, "is_error") + ")"
}

// worse returns the more severe of two turn statuses.
func worse(a, b universal.TurnStatus) universal.TurnStatus {
	rank := func(s universal.TurnStatus) int {
		switch s {
		case universal.TurnError:
			return 3
		case universal.TurnInterrupted:
			return 2
		case universal.TurnCompleted:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// sessionUsage emits the CLI's running totals: total_cost_usd and
// modelUsage cover the whole process (sub-agents and helper models
// included) and never go down while it runs. They are scope "session":
// they replace, never add up. A process resumed with --resume starts from
// the session's totals from 2.1.277 on (restored from the transcript's
// cost-state entry); 2.1.276 and older start every process from zero. So
// in a stream of several processes of one session (the stdout of each
// appended to one file), a total lower than the one before it (see lower)
// is a new process's own: the processes before it spent their last
// totals, which are carried (metadata earlier_processes) and added to it
// and to every later total of the session. A new process whose own
// totals are already higher than the last ones of the process before it,
// for every model, cannot be told from the same process going on: its
// totals replace the earlier ones as the CLI gives them.
func (t *Translator) sessionUsage(dst events, cost, models jsonscan.Value) events {
	// The sums by value: carry and usage copy them on.
	sums := anthropic.ReadModelUsage(models)
	mt := sums.Totals()
	var c *float64
	if cost.Type() == gjson.Number {
		v := cost.Result().Num
		c = &v
	}
	if c == nil && mt.Models == 0 {
		return dst
	}
	md := cleanObject([2]string{"basis", `"process_total"`}, [2]string{"model_usage", models.Compacted()})
	u, c, carried := t.carry(mt.Usage, c, models)
	if carried != nil {
		md = cleanObject([2]string{"basis", `"process_total"`}, [2]string{"model_usage", models.Compacted()},
			[2]string{"earlier_processes", string(carried)})
	}
	return t.usage(dst, universal.ScopeSession, u, c, mt.ContextWindow, md, universal.SourceAgent)
}

// carry records a process's running totals u and cost, and returns them
// with what earlier processes of the session carried added, and the
// carried totals as a JSON object (nil when nothing is carried): a total
// lower than the last one of the same native session starts a process
// that did not restore the session's totals, and the last ones are
// carried from then on.
func (t *Translator) carry(u universal.Usage, cost *float64, models jsonscan.Value) (universal.Usage, *float64, []byte) {
	sid := t.w.Stamper().NativeSessionID()
	now := addTotals(nil, &totals{Usage: u, Cost: cost}) // counts of its own
	if last := t.s.Totals; last != nil && last.Session == sid {
		now.Session = last.Session // its copy serves
	} else {
		now.Session = strings.Clone(sid)
	}
	if m := models.Compacted(); models.IsObject() && len(m) <= maxModels {
		now.Models = strings.Clone(m) // may be the line's own bytes
	}
	if last := t.s.Totals; last != nil {
		switch {
		case last.Session != sid:
			t.s.Carried = nil // another session: its runs add up in reduce
		case lower(now, last):
			t.s.Carried = addTotals(t.s.Carried, last)
		}
	}
	t.s.Totals = now
	k := t.s.Carried
	if k == nil {
		return u, cost, nil
	}
	sum := addTotals(now, k)
	var o jsonw.Object
	for _, f := range usageFields(&k.Usage) {
		if *f.p != nil {
			o.Int(f.name, **f.p)
		}
	}
	if k.Cost != nil {
		o.Float("cost_usd", *k.Cost)
	}
	return sum.Usage, sum.Cost, o.Bytes()
}

// usageField is one count of a universal.Usage, by its JSON name.
type usageField struct {
	name string
	p    **int64
}

func usageFields(u *universal.Usage) [6]usageField {
	return [6]usageField{
		{"input_tokens", &u.InputTokens}, {"cached_input_tokens", &u.CachedInputTokens},
		{"cache_write_tokens", &u.CacheWriteTokens}, {"output_tokens", &u.OutputTokens},
		{"reasoning_tokens", &u.ReasoningTokens}, {"total_tokens", &u.TotalTokens},
	}
}

// maxModels is the most modelUsage text kept to compare per model (a
// session's calls name a few models; a longer map is compared by its sums
// only).
const maxModels = 1 << 14

// lower reports whether a total went down from last's: some count or the
// cost, given both times, is lower, or one model's (modelUsage: a model
// named before is gone, or one of its counts or its cost is lower). The
// per-model totals tell a new process whose other models already spent
// more (a helper model's call, made by the new process only).
func lower(now, last *totals) bool {
	n, w := usageFields(&now.Usage), usageFields(&last.Usage)
	for i := range n {
		if *n[i].p != nil && *w[i].p != nil && **n[i].p < **w[i].p {
			return true
		}
	}
	if now.Cost != nil && last.Cost != nil && *now.Cost < *last.Cost {
		return true
	}
	if now.Models == "" || last.Models == "" {
		return false
	}
	// A session's calls name a model or a few: now's are kept in a list
	// on the stack and found by a walk from its end (the last of
	// duplicate names, as a map built in order would give); a long map
	// is indexed. Each model's counts are read in one walk of its
	// members.
	type model struct {
		name string
		v    gjson.Result
	}
	var few [8]model
	cur := few[:0]
	gjson.Parse(now.Models).ForEach(func(k, v gjson.Result) bool {
		cur = append(cur, model{k.Str, v})
		return true
	})
	var index map[string]gjson.Result
	if len(cur) > len(few) {
		index = make(map[string]gjson.Result, len(cur))
		for _, m := range cur {
			index[m.name] = m.v
		}
	}
	find := func(name string) (gjson.Result, bool) {
		if index != nil {
			v, ok := index[name]
			return v, ok
		}
		for i := len(cur) - 1; i >= 0; i-- {
			if cur[i].name == name {
				return cur[i].v, true
			}
		}
		return gjson.Result{}, false
	}
	down := false
	gjson.Parse(last.Models).ForEach(func(k, was gjson.Result) bool {
		if !was.IsObject() {
			return true
		}
		is, ok := find(k.Str)
		if !ok {
			down = true
			return false
		}
		a, b := modelCounts(is), modelCounts(was)
		for i := range a {
			if a[i].Type == gjson.Number && b[i].Type == gjson.Number && a[i].Num < b[i].Num {
				down = true
				return false
			}
		}
		return true
	})
	return down
}

// modelCounts reads the counts of one model's entry in modelUsage that
// lower compares, in one walk of its members (the first of duplicates,
// as a lookup finds): inputTokens, outputTokens, cacheReadInputTokens,
// cacheCreationInputTokens and costUSD. An entry that is not an object
// has none.
func modelCounts(m gjson.Result) (c [5]gjson.Result) {
	if !m.IsObject() {
		return c
	}
	m.ForEach(func(k, v gjson.Result) bool {
		i := -1
		switch k.Str {
		case "inputTokens":
			i = 0
		case "outputTokens":
			i = 1
		case "cacheReadInputTokens":
			i = 2
		case "cacheCreationInputTokens":
			i = 3
		case "costUSD":
			i = 4
		}
		if i >= 0 && !c[i].Exists() {
			c[i] = v
		}
		return true
	})
	return c
}

// addTotals returns new totals a+b, where an absent count or cost adds
// nothing (absent in both stays absent); a may be nil.
// The totals, their counts and their cost take one allocation (a
// result's totals are made anew at every result).
func addTotals(a, b *totals) *totals {
	if a == nil {
		a = &totals{}
	}
	one := new(struct {
		s    totals
		n    [6]int64
		cost float64
	})
	s := &one.s
	sum, x, y := usageFields(&s.Usage), usageFields(&a.Usage), usageFields(&b.Usage)
	for i := range sum {
		if *x[i].p == nil && *y[i].p == nil {
			continue
		}
		v := &one.n[i]
		if *x[i].p != nil {
			*v += **x[i].p
		}
		if *y[i].p != nil {
			*v += **y[i].p
		}
		*sum[i].p = v
	}
	if a.Cost != nil || b.Cost != nil {
		s.Cost = &one.cost
		if a.Cost != nil {
			*s.Cost += *a.Cost
		}
		if b.Cost != nil {
			*s.Cost += *b.Cost
		}
	}
	return s
}

// costState is the transcript's record of the running totals.
func (t *Translator) costState(dst events, r jsonscan.Value) events {
	return t.sessionUsage(dst, r.Sub("totalCostUSD"), r.Sub("modelUsage"))
}

// usage emits usage.updated for the current turn with md as its metadata.
// syntheticModel is the model Claude Code names on the messages it makes
// itself (slash command output, API errors): no model made them.
const syntheticModel = "<synthetic>"

// callMD is the metadata of a message's call usage: {"model": …} when the
// message named its model, with "reasoning_effort" when its line named
// one, the line's attribution (attribution_agent, …), the message's
// diagnostics and its call's duration_ms (a transcript's durationMs,
// before 1.0.9) when it has them, else nil. A session's calls name one model or a few, so the last
// one made is given again while the model and effort are the same
// (capped, so that an append to one event's copy never writes another's).
func (t *Translator) callMD(m *message) []byte {
	if m.Attrib != "" || m.Diag != "" || m.Duration > 0 {
		// Per call: made for this one.
		var o jsonw.Object
		o.OptString("model", m.Model).OptString("reasoning_effort", m.Effort)
		o.RawMembers(m.Attrib).RawClean("diagnostics", m.Diag)
		if m.Duration > 0 {
			o.Int("duration_ms", m.Duration)
		}
		return o.Bytes()
	}
	if m.Model == "" {
		return nil
	}
	if m.Model != t.mdModel || m.Effort != t.mdEffort {
		var o jsonw.Object
		md := o.Grow(len(m.Model)+len(m.Effort)+34).String("model", m.Model).OptString("reasoning_effort", m.Effort).Bytes()
		t.md, t.mdModel, t.mdEffort = md[:len(md):len(md)], m.Model, m.Effort
	}
	return t.md
}

// The event's data and its numbers come in one allocation: u's counts,
// cost and window are copied, so they may point into the caller's memory
// (a usage read by value, a sum made on the way), which then needs none
// of its own. (Usage.Extra is not carried: the translator sets none, and
// a slice kept from u would make all of u's memory the heap's.)
func (t *Translator) usage(dst events, scope universal.UsageScope, u universal.Usage, cost *float64, window *int64, md []byte, src universal.Source) events {
	one := new(struct {
		d    universal.UsageUpdated
		n    [7]int64
		cost float64
	})
	own := func(i int, p *int64) *int64 {
		if p == nil {
			return nil
		}
		one.n[i] = *p
		return &one.n[i]
	}
	d := &one.d
	d.TurnID, d.Scope, d.Metadata = t.turnID(), scope, md
	d.Usage = universal.Usage{
		InputTokens: own(0, u.InputTokens), CachedInputTokens: own(1, u.CachedInputTokens), CacheWriteTokens: own(2, u.CacheWriteTokens),
		OutputTokens: own(3, u.OutputTokens), ReasoningTokens: own(4, u.ReasoningTokens), TotalTokens: own(5, u.TotalTokens),
	}
	d.ContextWindow = own(6, window)
	if cost != nil {
		one.cost = *cost
		d.CostUSD = &one.cost
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, src, d, t.raw)
}

// progress translates a transcript progress entry: a sub-agent's message
// nested under the tool call that spawned it (agent_progress); the other
// kinds are progress heartbeats.
func (t *Translator) progress(dst events, r jsonscan.Value) events {
	data := r.Sub("data")
	switch dt := data.Get("type").Str; dt {
	case "agent_progress":
		scope := r.Get("parentToolUseID").Str
		t.learnAgent(data.Get("agentId").Str, scope)
		nested := data.Sub("message")
		switch nested.Get("type").Str {
		case "assistant":
			return t.assistant(dst, nested, scope)
		case "user":
			return t.user(dst, nested, scope)
		}
		return t.unparsed(dst, "data.message.type", fmt.Errorf("unknown agent_progress message type %q", nested.Get("type").Str))
	default:
		if ignoredProgress(dt) {
			return dst
		}
		return t.unparsed(dst, "data.type", fmt.Errorf("unknown progress type %q", dt))
	}
}

// seen reports whether a transcript entry with this uuid was translated
// already (a sub-agent message both nested in progress entries and in its
// own file, a resumed session's file repeating history).
func (t *Translator) seen(r jsonscan.Value) bool {
	if !t.transcript {
		return false
	}
	return t.seenID(r.Get("uuid").Str)
}

// seenID is seen for the line's uuid.
func (t *Translator) seenID(id string) bool {
	if !t.transcript || id == "" {
		return false
	}
	if t.s.Seen[id] {
		return true
	}
	if t.s.Seen == nil {
		t.s.Seen = map[string]bool{}
	}
	t.s.Seen[t.w.Copy(id)] = true
	return false
}
