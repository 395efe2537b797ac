package acp

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// goalUpdate translates the goal extension's snapshot, a
// session_info_update's _meta.goal (codex-acp's provider-neutral goal
// extension, docs/goal-extension.md; claude-agent-acp advertises the same
// _meta.goal {controlMethod: "_session/goal"} in its initialize response):
// {objective, status: active | paused | blocked | limited | complete,
// usage, budget, timestamps}, null when the goal is cleared. As package
// codex reads Codex's own goal: a status item labelled "goal" whose
// detail is the objective and its status, the snapshot in metadata, when
// the objective or the status changes (snapshots that only count usage
// make none), and "goal_cleared" when a goal is cleared (every snapshot
// was a "session_info" status item before). The second result says
// whether the update holds nothing but the goal.
func (t *Translator) goalUpdate(dst []universal.Event, in *input, u, g jsonscan.Value) ([]universal.Event, bool) {
	only := u.Len() == 2 && u.Sub("_meta").Len() == 1
	switch {
	case g.Type() == gjson.Null:
		if t.st.Goal == "" {
			return dst, only
		}
		t.st.Goal = ""
		return t.status(dst, "goal_cleared", "", nil, "", in.raw), only
	case !g.IsObject():
		return dst, false
	}
	objective, status := g.Get("objective").Str, g.Get("status").Str
	key := status + "\x00" + objective
	if key == t.st.Goal {
		return dst, only
	}
	t.st.Goal = t.copy(key)
	detail := objective
	if status != "" {
		detail += " (" + status + ")"
	}
	var md jsonw.Object
	md.Raw("goal", g.Raw())
	return t.status(dst, "goal", detail, md.Bytes(), "", in.raw), only
}
