package pi

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// entry translates one entry of a session file as it comes. A v1 file
// (no ids) is a plain log. A v2/v3 file is a tree (id/parentId) whose new
// branches are announced (see tree.go).
func (t *Translator) entry(dst []universal.Event, in *input) []universal.Event {
	switch in.typ.Str {
	case "session":
		return t.header(dst, in)
	case "title":
		if !t.w.Begun() && t.st.Session.Head == "" {
			// oh-my-pi's title slot, the physical first line before the
			// header: the current title, which the header's metadata
			// takes.
			ss := &t.st.Session
			ss.Title, ss.TitleSource = t.copy(in.get("title").Str), t.copy(in.get("source").Str)
			return dst
		}
	}
	ss := &t.st.Session
	if !t.w.Begun() && !entryTypes[in.typ.Str] && in.typ.Str != "title" {
		// Noise before the session (a wrapper's JSON log line, a type
		// this version does not know) neither starts it nor tells a
		// tree from a list. Reported once it starts.
		return t.unknown(dst, in, "session entry")
	}
	id := in.get("id")
	if !ss.Decided {
		ss.Decided = true
		ss.Tree = id.Str != ""
	}
	if t.headSetting(in) {
		if ss.Tree {
			// Still an entry of the tree: the first prompt's parent, to
			// which an edit of that prompt goes back.
			t.addNode(id.Str)
		}
		return dst
	}
	dst = t.begin(dst)
	if ss.Tree {
		prompt := in.typ.Str == "message" && in.get("message.role").Str == "user"
		parent := in.get("parentId")
		dst, n := t.branch(dst, id.Str, parent.Str, parent.Type == gjson.Null, prompt, in.raw)
		from := len(dst)
		dst = t.replayEntry(dst, in)
		t.placed(n, dst[from:])
		return dst
	}
	return t.replayEntry(dst, in)
}

// headSetting takes a setting entry that follows a session file's header
// before any other entry into the held header's metadata, and reports
// whether it did: Pi writes the model (model_change {provider, modelId})
// and thinking level (thinking_level_change {thinkingLevel}) a session
// starts with right after the header, and they are its session.started
// model, provider and reasoning_effort, as every agent's are; a name the
// session is created with (session_info {name}, which pi --name writes
// before them) is its title. oh-my-pi's model_change {model:
// "provider/modelId"} without a role is its model and provider too, and
// its thinking_level_change with configured null. A later change, and an
// entry with more than these (oh-my-pi's model role, its configured
// selector), stays a status item.
func (t *Translator) headSetting(in *input) bool {
	ss := &t.st.Session
	if ss.Head == "" || t.w.Begun() {
		return false
	}
	e := in.root()
	var add [][2]string
	switch in.typ.Str {
	case "model_change":
		if e.Get("role").Exists() || e.Get("resolvedModelIsFallback").Exists() {
			return false
		}
		p, m := e.Get("provider"), e.Get("modelId")
		if om := e.Get("model"); om.Exists() {
			// oh-my-pi's: "provider/modelId" in model, a model of no
			// role (the default one).
			if p.Exists() || m.Exists() || om.Type != gjson.String {
				return false
			}
			prov, id, ok := strings.Cut(om.Str, "/")
			if !ok || prov == "" || id == "" {
				return false
			}
			add = [][2]string{{"model", id}, {"provider", prov}}
			break
		}
		if p.Type != gjson.String || m.Type != gjson.String || m.Str == "" {
			return false // an empty id names no model: a status item shows the entry
		}
		add = [][2]string{{"model", m.Str}, {"provider", p.Str}}
	case "thinking_level_change":
		// oh-my-pi's configured selector, when it names one ("auto"),
		// is more than the level: a status item keeps it.
		l, c := e.Get("thinkingLevel"), e.Get("configured")
		if l.Type != gjson.String || c.Exists() && c.Type != gjson.Null {
			return false
		}
		add = [][2]string{{"reasoning_effort", l.Str}}
	case "session_info":
		// The name a session is created with (pi --name NAME, or a host
		// or extension calling SessionManager.appendSessionInfo as it
		// makes the session, writes it before the model): the session's
		// title from the start, not a rename.
		n := e.Get("name")
		if n.Type != gjson.String || n.Str == "" {
			return false
		}
		add = [][2]string{{"title", n.Str}}
	default:
		return false
	}
	for _, kv := range add {
		if gjson.Get(ss.Head, kv[0]).Exists() {
			return false // the header named it: this entry changes it
		}
	}
	// The new metadata in one allocation, which no one writes again.
	n := len(ss.Head)
	for _, kv := range add {
		n += len(kv[0]) + len(kv[1]) + 6
	}
	head := append(make([]byte, 0, n), ss.Head[:len(ss.Head)-1]...) // without its closing brace
	for _, kv := range add {
		head = append(head, ',')
		head = jsonw.AppendString(head, kv[0])
		head = append(head, ':')
		head = jsonw.AppendString(head, kv[1])
	}
	ss.Head = view(append(head, '}'))
	if in.typ.Str == "session_info" {
		t.st.Title = t.copy(add[0][1])
	}
	return true
}

// replayEntry translates one session entry.
func (t *Translator) replayEntry(dst []universal.Event, in *input) []universal.Event {
	if in.typ.Str == "message" {
		return t.message(dst, in, in.sub("message"), in.get("id").Str)
	}
	return t.entryItem(dst, in, in.root())
}

// entryItem translates a session entry other than a message: from a
// session file, or from entry_appended.
func (t *Translator) entryItem(dst []universal.Event, in *input, e jsonscan.Value) []universal.Event {
	id := e.Get("id").Str
	typ := e.Get("type")
	var md jsonw.Object
	switch typ.Str {
	case "model_change":
		detail := e.Get("modelId").Str
		if p := e.Get("provider").Str; p != "" && detail != "" {
			detail = p + "/" + detail
		} else if detail == "" {
			// oh-my-pi: "provider/modelId" in model, and the model's role.
			detail = e.Get("model").Str
			t.addValue(&md, "role", e.Sub("role"))
			t.addValue(&md, "resolvedModelIsFallback", e.Sub("resolvedModelIsFallback"))
		}
		return t.status(dst, "model", detail, md.Bytes(), id, in.raw)
	case "thinking_level_change":
		t.addValue(&md, "configured", e.Sub("configured")) // oh-my-pi
		return t.status(dst, "thinking_level", e.Get("thinkingLevel").Str, md.Bytes(), id, in.raw)
	case "session_info":
		return t.title(dst, e.Get("name").Str, nil, id, in.raw)
	case "label":
		t.addValue(&md, "targetId", e.Sub("targetId"))
		return t.status(dst, "label", e.Get("label").Str, md.Bytes(), id, in.raw)
	case "custom":
		t.addValue(&md, "data", e.Sub("data"))
		return t.status(dst, "custom", e.Get("customType").Str, md.Bytes(), id, in.raw)
	case "context_edit":
		t.addValue(&md, "targetId", e.Sub("targetId"))
		t.addValue(&md, "replacement", e.Sub("replacement"))
		return t.status(dst, "context_edit", e.Get("targetId").Str, md.Bytes(), id, in.raw)
	case "custom_message":
		return t.custom(dst, in, e, id)
	case "compaction":
		for _, k := range [...]string{
			"firstKeptEntryId", "firstKeptEntryIndex", "tokensBefore", "details", "fromHook",
			// oh-my-pi's
			"shortSummary", "tokensAfter", "method", "providerReplayThroughEntryId", "preserveData", "fromExtension", "warning",
		} {
			t.addValue(&md, k, e.Sub(k))
		}
		dst = t.summary(dst, universal.LabelCompaction, "", md.Bytes(), e.Get("summary").Str, id, in.raw)
		return t.usage(dst, e.Sub("usage"), nil, in.raw)
	case "branch_summary":
		t.addValue(&md, "fromId", e.Sub("fromId"))
		t.addValue(&md, "details", e.Sub("details"))
		t.addValue(&md, "fromExtension", e.Sub("fromExtension")) // oh-my-pi
		dst = t.summary(dst, "branch_summary", e.Get("fromId").Str, md.Bytes(), e.Get("summary").Str, id, in.raw)
		return t.usage(dst, e.Sub("usage"), nil, in.raw)
	case "usage", "model_usage":
		// Usage of a model call that is no message (Pi's usage {kind:
		// "cache_warm", …}; oh-my-pi's model_usage of a call outside the
		// transcript, a title, a summary): the call's model, provider
		// and what it was for in the usage's metadata.
		md.OptString("model", e.Get("model").Str).OptString("provider", e.Get("provider").Str)
		for _, k := range [...]string{"kind", "purpose", "role", "api", "stopReason", "errorMessage"} {
			t.addValue(&md, k, e.Sub(k))
		}
		return t.usage(dst, e.Sub("usage"), md.Bytes(), in.raw)
	// oh-my-pi's entries.
	case "title_change", "title":
		// A rename (Pi's session_info); "title" is a title slot that
		// came after the header.
		for _, k := range [...]string{"previousTitle", "source", "trigger"} {
			t.addValue(&md, k, e.Sub(k))
		}
		return t.title(dst, e.Get("title").Str, md.Bytes(), id, in.raw)
	case "service_tier_change":
		tier := e.Sub("serviceTier")
		t.addValue(&md, "serviceTier", tier)
		detail := tier.Str()
		if tier.IsObject() {
			detail = t.compact(tier)
		}
		return t.status(dst, "service_tier", detail, md.Bytes(), id, in.raw)
	case "mode_change":
		// The metadata's shape is the other translators' mode items':
		// the mode, and "previous" {"mode"} when an earlier change named
		// the mode it replaces.
		mode := e.Get("mode").Str
		md.OptString(universal.LabelMode, mode).OptStringIn("previous", universal.LabelMode, t.st.Mode)
		t.st.Mode = t.copy(mode)
		t.addValue(&md, "data", e.Sub("data"))
		return t.status(dst, universal.LabelMode, t.st.Mode, md.Bytes(), id, in.raw)
	case "ttsr_injection":
		rules := e.Sub("injectedRules")
		t.addValue(&md, "injectedRules", rules)
		return t.status(dst, "ttsr_injection", joinStrings(rules), md.Bytes(), id, in.raw)
	case "credential_pin":
		t.addValue(&md, "hash", e.Sub("hash"))
		return t.status(dst, "credential_pin", e.Get("provider").Str, md.Bytes(), id, in.raw)
	case "reset_boundary":
		return t.status(dst, "reset_boundary", "context cleared", nil, id, in.raw)
	case "archive":
		// A branch hidden from view (archived false: shown again); the
		// entries stay in the file.
		t.addValue(&md, "archived", e.Sub("archived"))
		return t.status(dst, "archive", e.Get("targetId").Str, md.Bytes(), id, in.raw)
	case "mcp_tool_selection":
		// The MCP tools selected in discovery mode (older files).
		tools := e.Sub("selectedToolNames")
		t.addValue(&md, "selectedToolNames", tools)
		t.addValue(&md, "selectedDiscoveredBuiltinToolNames", e.Sub("selectedDiscoveredBuiltinToolNames"))
		return t.status(dst, "mcp_tool_selection", joinStrings(tools), md.Bytes(), id, in.raw)
	case "active_tools_change":
		// Pi up to 0.84 (setActiveTools: the tools the model is given
		// from then on; Pi 0.85 writes it no more).
		tools := e.Sub("activeToolNames")
		if !tools.IsArray() {
			return t.w.Unparsed(dst, in.where(), fmt.Errorf("session entry %q without an activeToolNames array", typ.Str), in.raw)
		}
		t.addValue(&md, "activeToolNames", tools)
		return t.status(dst, "active_tools", joinStrings(tools), md.Bytes(), id, in.raw)
	case "session_init":
		return t.sessionInit(dst, in, e)
	}
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: session entry %q", errUnknownType, typ.Str), in.raw)
}

// summary emits a system item with a status part and a summary text.
func (t *Translator) summary(dst []universal.Event, label, detail string, md []byte, text, nativeID string, raw []byte) []universal.Event {
	st := withMetadata(universal.Part{Type: universal.PartStatus, Label: label, Detail: t.copy(detail)}, md)
	return t.newItem(dst, universal.KindSystem, universal.RoleSystem, nativeID, []universal.Part{st, universal.Text(t.copy(text))}, raw)
}

// joinStrings is the strings of an array, comma-separated, for a status
// item's detail (the names it lists).
func joinStrings(list jsonscan.Value) string {
	var names []string
	list.Each(func(_ gjson.Result, r jsonscan.Value) bool {
		names = append(names, r.Str())
		return true
	})
	return strings.Join(names, ", ")
}
