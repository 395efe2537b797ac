package claude

import (
	"errors"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// Hook output that Claude Code gives the model (as a meta user message,
// "<hook name> hook success: …" or "… hook additional context: …" in a
// system reminder) is a system item: text the model was given that the
// user did not type. Output only shown to the user (errors, a hook's
// systemMessage, a permission decision, a timeout) and the output of
// hooks of other events (a PostToolUse hook's plain stdout goes to the
// debug log) are not. The rule is Claude Code's own (2.1.332's
// attachment-to-message conversion): a hook_success attachment reaches
// the model when its event is SessionStart, UserPromptSubmit or
// UserPromptExpansion and its content (the hook's stdout, trimmed) is not
// empty; a hook_additional_context attachment (hookSpecificOutput.
// additionalContext of any event's JSON output; one entry per hook)
// always does; so do a hook_blocking_error ("… hook blocking error from
// command: …": a PostToolUse hook that exited 2, its stderr), a
// hook_stopped_continuation ("… hook stopped continuation: <stopReason>",
// a hook whose JSON said continue false: the model reads it with the
// next prompt) and an async_hook_response (an async hook's output when
// it finished: its systemMessage and its additionalContext, each a
// reminder). hook_non_blocking_error, hook_error_during_execution,
// hook_cancelled, hook_permission_decision and async_hook_response_batch
// convert to nothing; hook_system_message (a hook's systemMessage, which
// only the user sees) is a notice (see hookNotice). A PreToolUse hook
// that exits 2 writes no attachment: its reason is the blocked call's
// error tool_result, which the model reads as the tool's output.

// contextEvent reports the hook events whose plain stdout Claude Code
// gives the model.
func contextEvent(event string) bool {
	switch event {
	case "SessionStart", "UserPromptSubmit", "UserPromptExpansion":
		return true
	}
	return false
}

// hookAttachment translates a transcript's hook attachment (hook_success,
// hook_additional_context, hook_blocking_error, hook_stopped_continuation,
// async_hook_response): each text the model was given is a system item
// (one per hook: an additional_context attachment gathers the contexts
// of all the event's hooks). Like a notice between turns, it opens no
// turn.
func (t *Translator) hookAttachment(dst events, r, a jsonscan.Value) events {
	var texts []string
	switch c := a.Get("content"); a.Get("type").Str {
	case "hook_success":
		if !contextEvent(a.Get("hookEvent").Str) || c.Type != gjson.String {
			return dst
		}
		texts = append(texts, c.Str)
	case "hook_blocking_error":
		// blockingError: "[<command>]: <stderr>" for an exit code 2;
		// the item is the hook's own text, as stream-json has it.
		b := a.Get("blockingError")
		s := b.Get("blockingError").Str
		if cmd := b.Get("command").Str; cmd != "" {
			s = strings.TrimPrefix(s, "["+cmd+"]: ")
		}
		texts = append(texts, strings.TrimSpace(s))
	case "hook_stopped_continuation":
		texts = append(texts, a.Get("message").Str)
	case "async_hook_response":
		resp := a.Get("response")
		texts = append(texts, resp.Get("systemMessage").Str, resp.Get("hookSpecificOutput.additionalContext").Str)
	default: // hook_additional_context: an array of strings (a string in some writers)
		if c.IsArray() {
			for _, s := range c.Array() {
				texts = append(texts, s.Str)
			}
		} else {
			texts = append(texts, c.Str)
		}
	}
	scope := t.lineScope(r)
	if t.orphan(scope) {
		return dst // documented: Ignored on purpose
	}
	md := hookMetadata(a.Get("hookName").Str, a.Get("hookEvent").Str)
	uuid := t.w.Copy(r.Get("uuid").Str)
	for _, s := range texts {
		if s == "" {
			continue
		}
		dst = t.hookItem(dst, uuid, t.scopeParent(scope), t.w.Copy(s), md)
	}
	return dst
}

// hookNotice translates a transcript's hook_system_message attachment
// {content, hookName, hookEvent, toolUseID}: a hook's systemMessage, which
// the user sees and the model does not. It is the notice stream-json gives
// as system/informational: a status item labelled notice, detail the
// text, metadata the hook's name and event and the tool use it ran for;
// under the sub-agent's call in a sub-agent's transcript. Without text it
// gives nothing; text that is not a string is agent.unparsed.
func (t *Translator) hookNotice(dst events, r, a jsonscan.Value) events {
	c := a.Get("content")
	if c.Exists() && c.Type != gjson.String && c.Type != gjson.Null {
		return t.unparsed(dst, "attachment.content", errors.New("hook_system_message whose content is not a string"))
	}
	scope := t.lineScope(r)
	if c.Str == "" || t.orphan(scope) {
		return dst
	}
	var md jsonw.Object
	md.OptString("hook_name", a.Get("hookName").Str).OptString("hook_event", a.Get("hookEvent").Str).
		OptString("tool_use_id", a.Get("toolUseID").Str)
	p := universal.Part{Type: universal.PartStatus, Label: "notice", Detail: t.w.CopyValue(c)}
	if md.Len() > 0 {
		p.Metadata = md.Bytes()
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r.Get("uuid").Str), ParentID: t.scopeParent(scope),
		Kind: universal.KindStatus, Content: []universal.Part{p},
	}, universal.SourceAgent, t.raw)
}

// hookResponse translates a stream-json system/hook_response: the text it
// gave the model, as the transcript's attachment has it. Claude Code
// writes hook_started / hook_response for SessionStart and Setup hooks
// (for every event with --include-hook-events), with the hook's raw
// stdout and stderr. A hook that exited 0 gives a context: its trimmed
// stdout (SessionStart, UserPromptSubmit, UserPromptExpansion), or, when
// stdout is a JSON object, its hookSpecificOutput.additionalContext (any
// event) — or, when that object says continue false, its stopReason
// instead (the hook_stopped_continuation of a tool or Stop hook). A
// PostToolUse, PostToolUseFailure or PostToolBatch hook that exited 2
// gives its trimmed stderr (hook_blocking_error); a PreToolUse hook's is
// the blocked call's error result, a UserPromptSubmit hook's only the
// user's. An async hook's systemMessage reaches the model too, but its
// hook_response does not say it was async: it is not shown. SessionStart
// hooks, and in print mode a prompt's UserPromptSubmit hooks, run before
// system/init: what arrives outside a turn is held until the next init
// has begun the session, and shown before its turn (a prompt's hooks: in
// it, after its prompt), where the transcript has them.
func (t *Translator) hookResponse(dst events, r jsonscan.Value) events {
	event := r.Get("hook_event").Str
	var text string
	switch code := r.Get("exit_code").Int(); {
	case code == 2 && blockingEvent(event):
		text = strings.TrimSpace(r.Get("stderr").Str)
	case code != 0:
		return dst
	default:
		if o := r.Get("outcome"); o.Exists() && o.Str != "success" {
			return dst
		}
		text = strings.TrimSpace(r.Get("stdout").Str)
		if strings.HasPrefix(text, "{") && gjson.Valid(text) {
			if out := gjson.Parse(text); out.Get("continue").Type == gjson.False {
				if !stopEvent(event) {
					return dst
				}
				text = out.Get("stopReason").Str
			} else {
				text = out.Get("hookSpecificOutput.additionalContext").Str
			}
		} else if !contextEvent(event) {
			return dst
		}
	}
	if text == "" {
		return dst
	}
	md := hookMetadata(r.Get("hook_name").Str, event)
	if !t.w.Begun() || t.s.Turn == nil {
		// Held across messages: the state owns its copies (the
		// message's bytes are reused).
		t.s.Hooks = append(t.s.Hooks, hook{UUID: strings.Clone(r.Get("uuid").Str), Text: strings.Clone(text),
			Metadata: string(md), Raw: string(t.raw), Prompt: promptEvent(event)})
		return dst
	}
	return t.hookItem(dst, t.w.Copy(r.Get("uuid").Str), t.scopeParent(t.lineScope(r)), t.w.Copy(text), md)
}

// blockingEvent reports the hook events whose exit code 2 (stderr) Claude
// Code gives the model as a hook_blocking_error.
func blockingEvent(event string) bool {
	switch event {
	case "PostToolUse", "PostToolUseFailure", "PostToolBatch":
		return true
	}
	return false
}

// stopEvent reports the hook events whose continue false Claude Code
// gives the model as a hook_stopped_continuation (its stopReason).
func stopEvent(event string) bool {
	switch event {
	case "PreToolUse", "PostToolUse", "PostToolBatch", "Stop", "SubagentStop":
		return true
	}
	return false
}

// promptEvent reports the hook events that run on a prompt: their
// context belongs to the prompt's turn, after it.
func promptEvent(event string) bool {
	return event == "UserPromptSubmit" || event == "UserPromptExpansion"
}

// heldHooks shows the hook contexts held until the session began: those
// of a prompt's hooks (prompt true), or the others.
func (t *Translator) heldHooks(dst events, prompt bool) events {
	saved := t.raw
	kept := t.s.Hooks[:0]
	for _, h := range t.s.Hooks {
		if h.Prompt != prompt {
			kept = append(kept, h)
			continue
		}
		var md []byte
		if h.Metadata != "" {
			md = []byte(h.Metadata)
		}
		t.raw = []byte(h.Raw)
		dst = t.hookItem(dst, h.UUID, "", h.Text, md)
	}
	t.raw = saved
	if t.s.Hooks = kept; len(kept) == 0 {
		t.s.Hooks = nil
	}
	return dst
}

// hookItem emits one hook context as a completed system item.
func (t *Translator) hookItem(dst events, uuid, parent, text string, md []byte) events {
	p := universal.Text(text)
	p.Metadata = md
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: uuid, ParentID: parent,
		Kind: universal.KindSystem, Role: universal.RoleSystem, Content: []universal.Part{p},
	}, universal.SourceAgent, t.raw)
}

// hookMetadata is a hook context's part metadata: the hook's name
// ("SessionStart:startup", "PostToolUse:Bash") and event.
func hookMetadata(name, event string) []byte {
	var o jsonw.Object
	o.OptString("hook_name", name).OptString("hook_event", event)
	if o.Len() == 0 {
		return nil
	}
	return o.Bytes()
}

// hook is a hook context held until the session begins.
type hook struct {
	UUID     string `json:"uuid,omitempty"`
	Text     string `json:"text"`
	Metadata string `json:"metadata,omitempty"`
	Raw      string `json:"raw,omitempty"`
	// Prompt: a UserPromptSubmit or UserPromptExpansion hook's, shown
	// in the turn of its prompt, after it.
	Prompt bool `json:"prompt,omitempty"`
}

// goalVerdict reports a transcript's goal_status attachment that is the
// evaluation of a response, not the sentinel /goal writes when it sets
// the goal (2.1.143 marks a met verdict sentinel too).
func goalVerdict(r jsonscan.Value) bool {
	a := r.Sub("attachment")
	return a.Get("type").Str == "goal_status" && goalState(a) != "set"
}

// goalState is a goal_status attachment's state: "met", "failed" (it can
// never be met), "set" (the sentinel, unmet) or "not met".
func goalState(a jsonscan.Value) string {
	switch {
	case a.Get("met").Bool():
		return "met"
	case a.Get("failed").Bool():
		return "failed"
	case a.Get("sentinel").Bool():
		return "set"
	}
	return "not met"
}

// goalStatus translates a transcript's goal_status attachment (2.1.2xx):
// /goal sets a condition that a session-scoped Stop hook evaluates after
// each response. It is a status item labelled "goal" whose detail is the
// condition and its state — "set" (the sentinel /goal writes), "met"
// (met true, sentinel or not), "not met" (the agent goes on), "failed"
// (it can never be met) — with
// the attachment (reason, iterations, durationMs, tokens) as the part's
// metadata goal, as the codex translator reports a thread's goal. A
// verdict belongs to the turn of the response it judged.
func (t *Translator) goalStatus(dst events, r, a jsonscan.Value) events {
	scope := t.lineScope(r)
	if t.orphan(scope) {
		return dst // documented: Ignored on purpose
	}
	state := goalState(a)
	detail := state
	if c := a.Get("condition").Str; c != "" {
		detail = c + " (" + state + ")"
	}
	var o jsonw.Object
	a.AddTo(&o, "goal")
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r.Get("uuid").Str), ParentID: t.scopeParent(scope), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: "goal", Detail: t.w.Copy(detail), Metadata: o.Bytes()}},
	}, universal.SourceAgent, t.raw)
}
