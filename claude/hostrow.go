package claude

import (
	"errors"
	"fmt"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// A transcript's host-row entry (Agent SDK 0.3.3xx: {rowUuid,
// ranByToolUseId, block, withheld, timestamp}) is one block of a tool a
// host ran on the session's behalf under a call of the model's (the call
// ranByToolUseId names, whose result stands for what the host did):
// block is a tool_use (the tool the host ran) or the tool_result of one.
// The session reader shows them after the message that made the call, as
// a tool call and its result. They are translated so: a tool_call item,
// or a tool_result item, whose parent is the message of the call
// ranByToolUseId (where the calls of that message go: only a task call
// has items under it; when the call is unknown, an empty assistant
// message as for a result whose call never showed), the part's metadata
// {"host_row": true, "ran_by_tool_use_id", "row_uuid"}. withheld true
// says the host kept back what it ran under that call (the reader then
// shows none of that call's rows): it is kept in the metadata
// ("withheld": true); a withheld row with no block is a completed status
// item labelled "host_rows_withheld" under the call.

// hostRow translates a host-row entry.
func (t *Translator) hostRow(dst events, r jsonscan.Value) events {
	ranBy := r.Get("ranByToolUseId").Str
	if ranBy == "" {
		return t.unparsed(dst, "ranByToolUseId", errors.New("host row without the call it ran under"))
	}
	withheld := r.Get("withheld").Bool()
	var o jsonw.Object
	o.Bool("host_row", true).String("ran_by_tool_use_id", ranBy).OptString("row_uuid", r.Get("rowUuid").Str)
	if withheld {
		o.Bool("withheld", true)
	}
	md := o.Bytes()
	// The status item of a withheld row goes under the call; the host's
	// calls and results go where the calls of the call's message go:
	// only a task call has items under it.
	parent, msg, scope := "", "", ""
	if call := t.toolFor(ranBy); call != nil {
		parent, msg, scope = call.ItemID, call.Msg, call.Scope
	}
	b := r.Sub("block")
	switch typ := b.Get("type").Str; {
	case !b.Exists() && withheld:
		return t.w.Complete(dst, universal.Item{
			ItemID: t.w.NewItemID(), ParentID: parent, Kind: universal.KindStatus,
			Content: []universal.Part{{Type: universal.PartStatus, Label: "host_rows_withheld",
				Detail: "the host withheld what it ran under call " + ranBy, Metadata: md}},
		}, universal.SourceAgent, t.raw)
	case typ == "tool_use":
		if msg == "" {
			dst, msg = t.orphanParent(dst, scope)
		}
		return t.hostTool(dst, b, msg, scope, md)
	case typ == "tool_result":
		if tl := t.toolFor(b.Get("tool_use_id").Str); tl != nil && tl.Msg != "" {
			msg = tl.Msg
		}
		if msg == "" {
			dst, msg = t.orphanParent(dst, scope)
		}
		t.rowMeta = md
		dst = t.toolResult(dst, r, b, scope, jsonscan.Value{}, msg)
		t.rowMeta = nil
		return dst
	default:
		return t.unparsed(dst, "block", fmt.Errorf("host row block of type %q", typ))
	}
}

// hostTool emits the tool_call item of a host row's tool_use block, under
// parent, the message of the call it ran under.
func (t *Translator) hostTool(dst events, b jsonscan.Value, parent, scope string, md []byte) events {
	id := b.Get("id").Str
	if id == "" {
		return t.unparsed(dst, "block", errors.New("tool_use block without an id"))
	}
	if t.toolFor(id) != nil {
		return dst // the same row again
	}
	dst = t.ensureTurn(dst, scope)
	name := t.w.Copy(b.Get("name").Str)
	tl := &tool{ItemID: t.w.NewItemID(), Msg: parent, Scope: scope, Name: name, Done: true}
	if t.s.Tools == nil {
		t.s.Tools = map[string]*tool{}
	}
	// Not among the calls that may wait for a permission: the host ran it.
	tl.Seq = len(t.s.Tools) + 1
	cid := t.w.Copy(id)
	t.s.Tools[cid] = tl
	part := t.toolPart(name, t.w.Copy(b.Sub("input").Compacted()), cid, md)
	tl.Kind, tl.Paths = part.ToolKind, part.ToolInput.Paths
	return t.w.Complete(dst, universal.Item{
		ItemID: tl.ItemID, NativeItemID: cid, ParentID: parent,
		Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: append(t.itemParts(1), part),
	}, universal.SourceAgent, t.raw)
}

// A transcript's derived-from entry (Agent SDK 0.3.3xx: {v: 1, sessionId,
// sessions: [{type: "claude_code_session" | "unknown", id, via: "fork" |
// "branch" | "clear" | "resume" | "compact" | …, started?}]}) names the
// sessions the session came from, the one it came from directly last
// (forkSession writes it after the copied history). It is session
// metadata: "derived_from" (the sessions as written) and, when the last
// came by a fork or a branch, "forked_from_id" (its id, as Codex names a
// fork's origin) — in session.started when the entry comes before the
// session starts, else a completed status item labelled "derived_from"
// with that metadata.

// derivedFrom translates a derived-from entry.
func (t *Translator) derivedFrom(dst events, r jsonscan.Value) events {
	sessions := r.Sub("sessions")
	if v := r.Get("v"); v.Int() != 1 || !sessions.IsArray() {
		return t.unparsed(dst, "", fmt.Errorf("derived-from of version %s or without a sessions array", v.Raw))
	}
	list := sessions.Result().Array()
	from := ""
	if n := len(list); n > 0 {
		if via := list[n-1].Get("via").Str; via == "fork" || via == "branch" {
			from = list[n-1].Get("id").Str
		}
	}
	var o jsonw.Object
	o.OptString("forked_from_id", from).Raw("derived_from", sessions.Compacted())
	if !t.w.Begun() {
		t.s.Derived = string(o.Bytes()) // shown when the session starts
		return dst
	}
	return t.derivedStatus(dst, o.Bytes(), from)
}

// derivedStatus emits the status item of a derived-from entry.
func (t *Translator) derivedStatus(dst events, md []byte, from string) events {
	detail := "derived from earlier sessions"
	if from != "" {
		detail = "forked from session " + from
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: "derived_from", Detail: t.w.Copy(detail), Metadata: md}},
	}, universal.SourceAgent, t.raw)
}

// heldDerived shows a derived-from entry held until the session started
// without a header (see Translate); its line is gone, so the item has no
// raw payload.
func (t *Translator) heldDerived(dst events) events {
	if t.s.Derived == "" || !t.w.Begun() {
		return dst
	}
	md := []byte(t.s.Derived)
	t.s.Derived = ""
	raw := t.raw
	t.raw = nil
	dst = t.derivedStatus(dst, md, gjson.GetBytes(md, "forked_from_id").Str)
	t.raw = raw
	return dst
}

// Rows a tool ran (Claude Code 2.1.33x, the REPL tool: a script's own
// tool calls). The CLI writes each call a script made under the model's
// call as a virtual assistant entry holding its tool_use block and a
// virtual user entry holding its tool_result; when a host can show the
// call, the assistant entry has ranByToolUseId (the model's call the
// script ran under) and either entry may have hostContent (the blocks the
// host shows for it, when they differ from the entry's); when it cannot,
// the assistant entry has hostHiddenToolUseIds naming the call, which the
// Agent SDK's session reader leaves out (sdk.mjs 0.3.332; the model's own
// calls of a host's tools, whose host rows stand for them, carry it too).
// They are translated as the entries they are (an assistant message with
// its calls, the results under it: the calls ran in the session), with
// what these members say in the parts' metadata: a call of an assistant
// entry with ranByToolUseId gets ran_by_tool_use_id (the items stay
// where calls of a message go: the call a script ran under is no task,
// whose items alone go under a call), a call named by
// hostHiddenToolUseIds host_hidden: true, and a call or result that a
// hostContent block shows (same id) host_content, that hostContent.

// hostMeta adds to o what a line's hostHiddenToolUseIds (hidden) and
// hostContent say of its block of that type whose key (id, tool_use_id)
// is id: host_hidden true when hidden names it, host_content the
// hostContent array when it holds a block of the type with that key.
func hostMeta(o *jsonw.Object, id, key, typ string, hidden, hostContent jsonscan.Value) {
	if id == "" {
		return
	}
	named := false
	hidden.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		named = v.Str() == id
		return !named
	})
	if named {
		o.Bool("host_hidden", true)
	}
	shown := false
	hostContent.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		shown = b.Get("type").Str == typ && b.Get(key).Str == id
		return !shown
	})
	if shown {
		o.Raw("host_content", hostContent.Compacted())
	}
}
