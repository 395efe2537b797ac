package claude

import (
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
// always does.

// contextEvent reports the hook events whose plain stdout Claude Code
// gives the model.
func contextEvent(event string) bool {
	switch event {
	case "SessionStart", "UserPromptSubmit", "UserPromptExpansion":
		return true
	}
	return false
}

// hookAttachment translates a transcript's hook_success or
// hook_additional_context attachment: each text the model was given is a
// system item (one per hook: an additional_context attachment gathers
// the contexts of all the event's hooks). Like a notice between turns, it
// opens no turn.
func (t *Translator) hookAttachment(dst events, r, a jsonscan.Value) events {
	var texts []string
	switch c := a.Get("content"); a.Get("type").Str {
	case "hook_success":
		if !contextEvent(a.Get("hookEvent").Str) || c.Type != gjson.String {
			return dst
		}
		texts = append(texts, c.Str)
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

// hookResponse translates a stream-json system/hook_response: the text it
// gave the model, as the transcript's attachment has it. Claude Code
// writes hook_started / hook_response for SessionStart and Setup hooks
// (for every event with --include-hook-events), with the hook's raw
// stdout: a context is its trimmed stdout (SessionStart, UserPromptSubmit,
// UserPromptExpansion), or, when stdout is a JSON object, its
// hookSpecificOutput.additionalContext (any event). Only a hook that
// exited 0 gives either. SessionStart hooks, and in print mode a prompt's
// UserPromptSubmit hooks, run before system/init: what arrives outside a
// turn is held until the next init has begun the session, and shown
// before its turn (a prompt's hooks: in it, after its prompt), where the
// transcript has them.
func (t *Translator) hookResponse(dst events, r jsonscan.Value) events {
	if o := r.Get("outcome"); r.Get("exit_code").Int() != 0 || o.Exists() && o.Str != "success" {
		return dst
	}
	event := r.Get("hook_event").Str
	text := strings.TrimSpace(r.Get("stdout").Str)
	if strings.HasPrefix(text, "{") && gjson.Valid(text) {
		text = gjson.Get(text, "hookSpecificOutput.additionalContext").Str
	} else if !contextEvent(event) {
		return dst
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
