package codex

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// runMode is what a thread's turns run with: the collaboration mode
// (default, plan), the approval policy and the sandbox's type.
type runMode struct {
	Collaboration string `json:"collaboration,omitempty"`
	Approval      string `json:"approval,omitempty"`
	Sandbox       string `json:"sandbox,omitempty"`
}

// modeSettings takes the settings a root thread's turns run with, as a
// rollout's turn_context or thread_settings_applied and the app-server's
// thread/settings/updated name them: collab (collaboration_mode, {mode,
// settings} or the mode's name), approval (a policy's name) and sandbox
// (a policy object with its type, or the type). The first settings seen
// are what the session runs with (session.started metadata has the
// approval policy and sandbox). A change after them — plan mode left or
// entered, the approval policy or sandbox switched (/approvals, a turn's
// overrides) — is a status item labelled "mode", as Claude Code's
// permission mode and an ACP agent's current mode are: detail the new
// values that changed (the collaboration mode first), metadata the three
// values now (collaboration_mode, approval_policy, sandbox) and the ones
// they replace (previous).
func (t *Translator) modeSettings(dst []event, c *ctx, thread string, collab, approval, sandbox jsonscan.Value) []event {
	if !t.isRoot(thread) {
		return dst
	}
	next := runMode{Collaboration: modeName(collab), Approval: stringOf(approval), Sandbox: modeName(sandbox)}
	prev := t.st.Mode
	if prev == nil {
		m := next
		if m.Collaboration == "" && collab.Exists() {
			m.Collaboration = "default"
		}
		t.st.Mode = t.ownMode(m)
		return dst
	}
	// What the settings do not name stays as it was.
	if next.Collaboration == "" {
		next.Collaboration = prev.Collaboration
	}
	if next.Approval == "" {
		next.Approval = prev.Approval
	}
	if next.Sandbox == "" {
		next.Sandbox = prev.Sandbox
	}
	if next == *prev {
		return dst
	}
	var changed []string
	md := obj()
	was := obj()
	for _, f := range [...]struct{ key, now, before string }{
		{"collaboration_mode", next.Collaboration, prev.Collaboration},
		{"approval_policy", next.Approval, prev.Approval},
		{"sandbox", next.Sandbox, prev.Sandbox},
	} {
		md.OptString(f.key, f.now)
		if f.now != f.before {
			changed = append(changed, f.now)
			was.OptString(f.key, f.before)
		}
	}
	md.Raw("previous", string(was.Bytes()))
	t.st.Mode = t.ownMode(next)
	dst = t.ensureSession(dst, thread)
	return t.status(dst, "", t.copyThread(thread), universal.LabelMode, strings.Join(changed, ", "), md.Bytes(), agent, c.raw)
}

// ownMode returns m with its strings in the stream's memory.
func (t *Translator) ownMode(m runMode) *runMode {
	return &runMode{Collaboration: t.w.Copy(m.Collaboration), Approval: t.w.Copy(m.Approval), Sandbox: t.w.Copy(m.Sandbox)}
}

// modeName is a collaboration mode's or a sandbox policy's name: the
// string itself, or the object's mode or type.
func modeName(v jsonscan.Value) string {
	switch {
	case v.Type() == gjson.String:
		return v.Str()
	case v.IsObject():
		if m := v.Sub("mode"); m.Type() == gjson.String {
			return m.Str()
		}
		if ty := v.Sub("type"); ty.Type() == gjson.String {
			return ty.Str()
		}
	}
	return ""
}

// stringOf is v's text when v is a string, else "".
func stringOf(v jsonscan.Value) string {
	if v.Type() == gjson.String {
		return v.Str()
	}
	return ""
}
