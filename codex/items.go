package codex

import (
	"fmt"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/internal/mcp"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// v2Item handles item/started (final false) and item/completed (final
// true) for an app-server v2 ThreadItem.
func (t *Translator) v2Item(dst []event, c *ctx, thread string, it jsonscan.Value, final bool) []event {
	typ := it.Sub("type").Str()
	id := it.Sub("id").Str()
	if id == "" && typ != "contextCompaction" {
		return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: %s item without an id", typ), c.raw)
	}
	key := t.key(thread, id)
	if t.st.Declined != "" && (t.st.Declined != key || !final) {
		dst = t.flushDeclined(dst)
	}
	if !final {
		t.freshCall(key)
		defer func() { t.uses = 0 }()
	}
	th := t.copyThread(thread)
	native := t.w.Copy(id)
	switch typ {
	case "userMessage":
		return t.userMessage(dst, c, key, native, th, it.Sub("content"), final, "text")
	case "agentMessage", "plan":
		m := msgSpec{native: native, thread: th, role: universal.RoleAssistant}
		// The stream copies the text where it keeps it (AddPart's delta,
		// finalize).
		p := universal.Text(t.msgStr(it.Sub("text")))
		p.Metadata = agentMessageMeta(it, typ)
		t.parts = append(t.parts[:0], p)
		m.parts = t.parts
		if !final {
			return t.startMessage(dst, key, kindMessage, m, agent, c.raw)
		}
		return t.completeMessage(dst, key, kindMessage, m, agent, c.raw)
	case "reasoning":
		return t.reasoningItem(dst, c, key, native, th, it.Sub("summary"), it.Sub("content"), final)
	case "commandExecution":
		return t.commandItem(dst, c, key, native, th, it, final)
	case "fileChange":
		spec := toolSpec{native: native, thread: th, callID: native, name: "file_change"}
		var refs []part
		spec.args, refs = t.fileChanges(it.Sub("changes"))
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		st := it.Get("status").Str
		res := patchResult(st)
		res.extra = refs
		return t.finishTool(dst, c, key, &spec, &res, st == "declined", st)
	case "mcpToolCall":
		spec := toolSpec{native: native, thread: th, callID: native,
			name: t.w.Copy(mcpToolName(it.Get("server").Str, it.Get("tool").Str)),
			args: t.w.Copy(argsJSON(it.Get("arguments"))), meta: mcpCallMeta(it)}
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		res := mcpResult(t, it.Get("result"), it.Get("error"), it.Get("status").Str, intPtr(it.Get("durationMs")), "structuredContent")
		return t.finishTool(dst, c, key, &spec, &res, false, "")
	case "dynamicToolCall":
		spec := dynamicToolSpec(t, th, id, it.Result())
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		out, images := t.dynamicOutput(it.Get("contentItems"), nil)
		res := resultSpec{output: t.w.Copy(out), meta: exitMeta(nil, intPtr(it.Get("durationMs")), nil), extra: images}
		if it.Get("success").Type == gjson.False || it.Get("status").Str == "failed" {
			res.isError, res.failed = true, true
		}
		return t.finishTool(dst, c, key, &spec, &res, false, "")
	case "collabAgentToolCall":
		return t.collabItem(dst, c, key, native, native, th, it.Result(), final, camelCollab)
	case "webSearch":
		spec := toolSpec{native: native, thread: th, callID: native, name: "web_search"}
		o := obj().String("query", it.Get("query").Str)
		o.Raw("action", it.Get("action").Raw)
		spec.args = t.str(o.Bytes())
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		res := t.webSearchResult(it.Get("results"))
		return t.finishTool(dst, c, key, &spec, &res, false, "")
	case "imageView":
		path := t.w.CopyValue(it.Get("path"))
		spec := toolSpec{native: native, thread: th, callID: native, name: "view_image",
			args: t.str(obj().String("path", path).Bytes())}
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		res := resultSpec{extra: t.imageParts(path, "")}
		return t.finishTool(dst, c, key, &spec, &res, false, "")
	case "imageGeneration":
		spec := toolSpec{native: native, thread: th, callID: native, name: "image_generation"}
		o := obj()
		o.OptString("revised_prompt", it.Get("revisedPrompt").Str)
		spec.args = t.str(o.Bytes())
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		st := it.Get("status").Str
		f := it.Get("failure")
		var md jsonw.Object
		if f.Exists() && f.Type != gjson.Null {
			md.Raw("failure", f.Raw)
		}
		if g := it.Get("generationId"); g.Type == gjson.String {
			md.String("generation_id", g.Str)
		}
		if b := it.Get("transparentBackground"); b.IsBool() {
			md.Raw("transparent_background", b.Raw)
		}
		res := resultSpec{}
		if md.Len() > 0 {
			res.meta = md.Bytes()
		}
		if (f.Exists() && f.Type != gjson.Null) || st == "failed" {
			res.isError, res.failed = true, true
		}
		res.extra = t.generatedImage(it.Get("savedPath").Str, it.Get("fileId").Str, it.Get("result").Str)
		res.extra = t.inputImages(res.extra, it.Get("inputImages"))
		return t.finishTool(dst, c, key, &spec, &res, false, "")
	case "enteredReviewMode", "exitedReviewMode", "contextCompaction", "subAgentActivity", "sleep", "hookPrompt", "functionCallOutput":
		if !final {
			// Shown once, when complete.
			return dst
		}
		return t.simpleItem(dst, c, native, th, typ, it.Result())
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown item type %q", typ), c.raw)
}

// mcpCallFields are the members of a v2 mcpToolCall kept in its call's
// metadata, with their names there: the plugin that provides the server
// (as a commandExecution's plugin_id), the app connector the call went
// through (McpToolCallAppContext: connectorId, appName, actionName, …),
// and what the tool's descriptor said of it: whether it only reads
// (readOnlyHint) and the app UI it renders in (mcpAppUi, and the legacy
// mcpAppResourceUri older histories have instead).
var mcpCallFields = [...][2]string{{"pluginId", "plugin_id"}, {"appContext", "app_context"},
	{"readOnlyHint", "read_only_hint"}, {"mcpAppUi", "mcp_app_ui"}, {"mcpAppResourceUri", "mcp_app_resource_uri"}}

// mcpCallMeta is the call metadata of a v2 mcpToolCall, nil when it has
// none of mcpCallFields.
func mcpCallMeta(it jsonscan.Value) []byte {
	var o jsonw.Object
	for _, f := range mcpCallFields {
		if v := it.Sub(f[0]); v.Exists() && v.Type() != gjson.Null {
			o.RawClean(f[1], v.Compacted())
		}
	}
	if o.Len() == 0 {
		return nil
	}
	return o.Bytes()
}

// inputImages appends to parts a file_ref (read) per local image an
// imageGeneration read as its input (inputImages: {path, sha256}, the
// files "successfully read for this exact image-generation request"),
// with sha256 in its metadata.
func (t *Translator) inputImages(parts []part, in gjson.Result) []part {
	in.ForEach(func(_, v gjson.Result) bool {
		path := v.Get("path").Str
		if path == "" {
			return true
		}
		p := part{Type: universal.PartFileRef, Path: t.w.Copy(universal.ResolvePath(t.st.Cwd, path)), Action: universal.FileRead}
		if h := v.Get("sha256"); h.Type == gjson.String {
			p.Metadata = obj().String("sha256", h.Str).Bytes()
		}
		parts = append(parts, p)
		return true
	})
	return parts
}

// agentMessageFields are the annotations of an agent message kept in its
// part's metadata, in the order written, with their names there.
var agentMessageFields = [...][2]string{{"phase", "phase"}, {"memoryCitation", "memory_citation"}, {"moderation", "moderation"}, {"delivery", "delivery"}, {"questions", "questions"}}

// agentMessageMeta keeps an agent message's phase and other annotations.
// One walk over the item's members finds them (the first of a repeated
// key, as a lookup finds it); values the scan saw compact are copied as
// they are, not compacted again.
func agentMessageMeta(it jsonscan.Value, typ string) []byte {
	var kept [len(agentMessageFields)]jsonscan.Value
	size := 0
	it.Members(func(k string, v jsonscan.Value) bool {
		for i, f := range agentMessageFields {
			if f[0] == k {
				if !kept[i].Exists() {
					kept[i] = v
					if v.Type() != gjson.Null {
						size += len(f[1]) + len(v.Raw()) + 4
					}
				}
				break
			}
		}
		return true
	})
	if typ == "plan" {
		size += len(`"type":"plan",`)
	}
	if size == 0 {
		return nil
	}
	var o jsonw.Object
	o.Grow(size + 2)
	if typ == "plan" {
		o.String("type", "plan")
	}
	for i, f := range agentMessageFields {
		if v := kept[i]; v.Exists() && v.Type() != gjson.Null {
			v.AddTo(&o, f[1])
		}
	}
	return o.Bytes()
}

func statusMeta(status string) []byte {
	if status == "" || status == "completed" {
		return nil
	}
	return obj().String("status", status).Bytes()
}

// userMessage maps a user message item (v2 userMessage content, or a
// rollout UserMessage) to a user message.
func (t *Translator) userMessage(dst []event, c *ctx, key, native, thread string, content jsonscan.Value, final bool, textType string) []event {
	if n := t.item(key); n != nil && n.Done {
		return dst
	}
	root := t.isRoot(thread)
	parts := t.parts[:0]
	var text strings.Builder
	var replies []string
	content.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		// An image without a path says nothing an image part can (one
		// with neither path nor mime is invalid): it is kept as it came,
		// as a json part, as other blocks are.
		path := ""
		switch v.Sub("type").Str() {
		case textType, "input_text":
			p := universal.Text("")
			if final {
				// A started message's text is empty (it streams): it is
				// read only when the message completes.
				s := v.Sub("text").Str()
				if root {
					if text.Len() > 0 {
						text.WriteByte('\n')
					}
					text.WriteString(s)
				}
				p.Text = t.w.Copy(s)
				if rp, list, ok := t.replyPart(s); ok {
					// The answers to the agent's asynchronous questions,
					// as a rollout shows them.
					p = rp
					replies = append(replies, list)
				}
			}
			parts = append(parts, p)
			return true
		case "image", "input_image":
			path = v.Get("url").Str
			if path == "" {
				path = v.Get("image_url").Str
			}
			if path == "" {
				path = v.Get("fileId").Str
			}
		case "localImage", "local_image":
			path = v.Get("path").Str
		}
		if path != "" {
			parts = append(parts, userImage(path, t.w.Copy))
		} else {
			parts = append(parts, part{Type: universal.PartJSON, JSON: bytesOf(t.w.Copy(v.Raw()))})
		}
		return true
	})
	t.parts = parts
	if root && t.format != FormatRollout {
		universal.MarkEcho(parts) // the live echo of the host's input
	}
	m := msgSpec{native: native, thread: thread, role: universal.RoleUser, parts: parts}
	if !final {
		return t.startMessage(dst, key, kindMessage, m, agent, c.raw)
	}
	if root {
		t.userSeen(text.String())
	}
	dst = t.completeMessage(dst, key, kindMessage, m, agent, c.raw)
	for _, list := range replies {
		dst = t.asyncAnswers(dst, list, agent, c.raw)
	}
	return dst
}

// reasoningItem starts or completes a reasoning item. Summary sections and
// raw content sections are separate reasoning parts (public and private),
// in the order they first streamed.
func (t *Translator) reasoningItem(dst []event, c *ctx, key, native, thread string, summary, content jsonscan.Value, final bool) []event {
	m := msgSpec{native: native, thread: thread, role: universal.RoleAssistant}
	if !final {
		return t.startMessage(dst, key, kindReasoning, m, agent, c.raw)
	}
	n := t.item(key)
	var sums, raws []string
	collect := func(r jsonscan.Value, out *[]string) {
		r.Each(func(_ gjson.Result, v jsonscan.Value) bool {
			if v.IsObject() {
				v = v.Sub("text")
			}
			*out = append(*out, t.msgStr(v)) // copied where kept (finalize)
			return true
		})
	}
	collect(summary, &sums)
	collect(content, &raws)
	m.parts = reasoningParts(n, sums, raws)
	return t.completeMessage(dst, key, kindReasoning, m, agent, c.raw)
}

// reasoningParts orders the final reasoning sections as they streamed.
func reasoningParts(n *nitem, sums, raws []string) []part {
	var parts []part
	usedS := make([]bool, len(sums))
	usedR := make([]bool, len(raws))
	add := func(idx int) {
		switch {
		case idx >= 0 && idx < len(sums):
			parts = append(parts, universal.Reasoning(sums[idx], universal.VisibilityPublic))
			usedS[idx] = true
		case idx >= 0:
			parts = append(parts, universal.Reasoning("", universal.VisibilityPublic))
		case -1-idx < len(raws):
			parts = append(parts, universal.Reasoning(raws[-1-idx], universal.VisibilityPrivate))
			usedR[-1-idx] = true
		default:
			parts = append(parts, universal.Reasoning("", universal.VisibilityPrivate))
		}
	}
	if n != nil {
		for _, idx := range n.Parts {
			add(idx)
		}
	}
	for i := range sums {
		if !usedS[i] {
			add(i)
		}
	}
	for i := range raws {
		if !usedR[i] {
			add(-1 - i)
		}
	}
	return parts
}

// reasoningDelta streams a summary (idx ≥ 0) or raw content (idx < 0)
// section of a reasoning item.
func (t *Translator) reasoningDelta(dst []event, c *ctx, thread, id string, idx int, text string) []event {
	if text == "" {
		return dst
	}
	key := t.key(thread, id)
	n := t.item(key)
	if n == nil {
		m := msgSpec{native: t.w.Copy(id), thread: t.copyThread(thread), role: universal.RoleAssistant}
		dst = t.startMessage(dst, key, kindReasoning, m, daemon, c.raw)
		if n = t.item(key); n == nil {
			return dst
		}
	}
	if n.Done || !t.w.IsOpen(n.ID) {
		return dst
	}
	r := t.respByID(n.ID)
	if r == nil {
		return dst
	}
	pi := -1
	for i, x := range n.Parts {
		if x == idx && i < len(n.PI) {
			pi = n.PI[i]
		}
	}
	if pi < 0 {
		// A new section: a part of the response's message, public for a
		// summary, private for raw content.
		vis := universal.VisibilityPublic
		if idx < 0 {
			vis = universal.VisibilityPrivate
		}
		if dst, pi = t.addPart(dst, r, universal.Reasoning("", vis)); pi < 0 {
			return dst
		}
		n.Parts = append(n.Parts, idx)
		n.PI = append(n.PI, pi)
	}
	return t.w.Delta(dst, n.ID, pi, universal.PartReasoning, text, agent, c.raw)
}

// commandFields are the members of a v2 commandExecution read, in the
// order its call's metadata writes the first five (with their names
// there).
var commandFields = [...][2]string{
	{"source", "source"}, {"processId", "process_id"}, {"commandActions", "command_actions"}, {"pluginId", "plugin_id"}, {"scriptPath", "script_path"},
	{"command"}, {"cwd"}, {"status"}, {"aggregatedOutput"}, {"exitCode"}, {"durationMs"},
}

// commandItem maps a v2 commandExecution. One walk over the item's members
// finds what it reads (the first of a repeated key, as a lookup finds it).
func (t *Translator) commandItem(dst []event, c *ctx, key, native, thread string, it jsonscan.Value, final bool) []event {
	var f [len(commandFields)]jsonscan.Value
	it.Members(func(k string, v jsonscan.Value) bool {
		for i := range commandFields {
			if commandFields[i][0] == k {
				jsonscan.KeepFirst(&f[i], v)
				break
			}
		}
		return true
	})
	source, command, cwd, status, output, exitCode, duration := f[0], f[5], f[6], f[7], f[8], f[9], f[10]
	args := commandArgs(command.Result(), cwd.Result())
	// The metadata is made at its size, as the arguments are.
	size := 0
	for i, v := range f[:5] {
		if v.Exists() && v.Type() != gjson.Null {
			size += len(commandFields[i][1]) + len(v.Raw()) + 4
		}
	}
	var meta jsonw.Object
	if size > 0 {
		meta.Grow(size + 1)
	}
	for i, v := range f[:5] {
		if v.Exists() && v.Type() != gjson.Null {
			meta.RawClean(commandFields[i][1], v.Compacted())
		}
	}
	spec := toolSpec{native: native, thread: thread, callID: native, name: "command_execution",
		args: args, user: userShell(source.Result())}
	if meta.Len() > 0 {
		spec.meta = meta.Bytes()
	}
	if !final {
		return t.toolCall(dst, key, &spec, false, agent, c.raw)
	}
	st := status.Str()
	if t.st.Declined == key {
		t.st.Declined, t.st.DeclinedRaw = "", "" // the second completion: its result follows
	} else if st == "declined" && output.Type() == gjson.Null && t.format != FormatRollout && t.st.Declined == "" {
		// A declined command with no output: the call completes and the
		// permission settles now; the result waits (see State.Declined).
		if n := t.item(key); n != nil && !n.RDone {
			dst = t.settlePermission(dst, n, true, st, c.raw)
			dst, _ = t.toolCallN(dst, key, &spec, true, agent, c.raw)
			t.st.Declined, t.st.DeclinedRaw = strings.Clone(key), string(c.raw)
			return dst
		}
	}
	res := t.commandResult(output.OwnStr(t.w.Copy), st, intPtr(exitCode.Result()), intPtr(duration.Result()))
	return t.finishTool(dst, c, key, &spec, &res, st == "declined", st)
}

// flushDeclined completes the result of a declined command held back
// (State.Declined) when the server moved on without completing it again.
func (t *Translator) flushDeclined(dst []event) []event {
	key, raw := t.st.Declined, []byte(t.st.DeclinedRaw)
	t.st.Declined, t.st.DeclinedRaw = "", ""
	n := t.item(key)
	if n == nil || n.RDone {
		return dst
	}
	res := t.commandResult("", "declined", nil, nil)
	return t.toolResult(dst, key, &toolSpec{native: n.CallID, thread: n.Thread, keep: true}, &res, agent, raw)
}

// finishTool completes a tool and settles a permission that waited for its
// outcome.
func (t *Translator) finishTool(dst []event, c *ctx, key string, spec *toolSpec, res *resultSpec, declined bool, status string) []event {
	if n := t.item(key); n != nil {
		dst = t.settlePermission(dst, n, declined, status, c.raw)
	}
	return t.toolResult(dst, key, spec, res, agent, c.raw)
}

// fileChanges maps the changes of a patch to the call's arguments and
// file_ref parts. It reads both the v2 shape (a list of {path, kind:{type},
// diff}) and the legacy one (an object path → {type, content|unified_diff}).
func (t *Translator) fileChanges(changes jsonscan.Value) (string, []part) {
	var refs []part
	var b []byte
	b = append(b, `{"changes":[`...)
	add := func(path string, kind string, diff string, move string) {
		if len(refs) > 0 {
			b = append(b, ',')
		}
		o := obj().String("path", path).String("kind", kind)
		o.OptString("move_path", move)
		b = append(b, o.Bytes()...)
		p := part{Type: universal.PartFileRef, Path: t.w.Copy(universal.ResolvePath(t.st.Cwd, path)), Action: universal.FilePatch, Diff: t.w.Copy(diff)}
		if kind == "add" || kind == "delete" {
			p.Action = universal.FileWrite
		}
		pm := obj().String("kind", kind)
		pm.OptString("move_path", move)
		p.Metadata = pm.Bytes()
		refs = append(refs, p)
	}
	if changes.IsArray() {
		changes.Each(func(_ gjson.Result, ch jsonscan.Value) bool {
			k := ch.Sub("kind")
			kind := k.Str()
			if k.IsObject() {
				kind = k.Get("type").Str
			}
			add(ch.Get("path").Str, kind, ch.Get("diff").Str, k.Get("move_path").Str)
			return true
		})
	} else {
		changes.Each(func(path gjson.Result, ch jsonscan.Value) bool {
			diff := ch.Get("unified_diff").Str
			if diff == "" {
				diff = ch.Get("content").Str
			}
			add(path.Str, ch.Get("type").Str, diff, ch.Get("move_path").Str)
			return true
		})
	}
	b = append(b, "]}"...)
	return t.str(b), refs
}

// argsJSON returns tool arguments as JSON text: a JSON string that holds
// JSON is unwrapped, anything else is kept as it is.
func argsJSON(a gjson.Result) string {
	switch a.Type {
	case gjson.String:
		if gjson.Valid(a.Str) {
			return a.Str
		}
		return a.Raw
	case gjson.Null:
		return "{}"
	}
	if !a.Exists() {
		return "{}"
	}
	return jsonw.Compact(a.Raw)
}

// mcpResult maps an MCP tool result: text content as output, structured
// content as metadata, an error as is_error.
func mcpResult(t *Translator, result, errv gjson.Result, status string, durationMS *int64, structured string) resultSpec {
	var res resultSpec
	text, errored := mcp.Text(result, errv)
	res.output = t.w.Copy(text)
	if errored {
		res.isError, res.failed = true, true
	}
	extra := map[string]string{}
	if s := result.Get(structured); s.Exists() && s.Type != gjson.Null {
		extra["structured_content"] = s.Raw
	}
	if result.Get("isError").Bool() {
		// The tool says it failed.
		res.isError, res.failed = true, true
	}
	if status == "failed" {
		res.isError, res.failed = true, true
	}
	res.meta = exitMeta(nil, durationMS, extra)
	res.extra = t.mcpContentParts(result.Get("content"))
	return res
}

// mcpContentParts returns the parts of an MCP tool result's content
// blocks other than text (whose text is the output): an image block
// ({type: image, data, mimeType}) is an image part with its MIME type
// ("image/*" when it names none, or the one its data's first bytes name)
// and data_length in its metadata, as Codex's own inline images are; the
// data is not copied. Any other block (audio, resource, resource_link, a
// type MCP adds later) is a json part holding the block, its data (data,
// resource.blob) replaced by data_length; content that is not a list, a
// json part of it. Nil when there are none.
func (t *Translator) mcpContentParts(content gjson.Result) []part {
	if !content.IsArray() {
		if !content.Exists() || content.Type == gjson.Null {
			return nil
		}
		// Not the list of blocks MCP gives: kept as it is.
		return []part{{Type: universal.PartJSON, JSON: []byte(t.w.Copy(withoutData(content)))}}
	}
	var parts []part
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			if b.Get("text").Type == gjson.String {
				return true
			}
		case "image":
			data := b.Get("data").Str
			mime := b.Get("mimeType").Str
			if mime == "" {
				mime = base64Mime(data)
			}
			var md jsonw.Object
			md.Int("data_length", int64(len(data)))
			parts = append(parts, part{Type: universal.PartImage, Mime: t.w.Copy(mime), Metadata: md.Bytes()})
			return true
		}
		parts = append(parts, part{Type: universal.PartJSON, JSON: []byte(t.w.Copy(withoutData(b)))})
		return true
	})
	return parts
}

// withoutData is an MCP content block's JSON with its data (data, and a
// resource's blob) replaced by data_length, the data's length (see
// package mcp).
func withoutData(b gjson.Result) string {
	if s, ok := mcp.WithoutData(b); ok {
		return s
	}
	return b.Raw
}

func dynamicToolSpec(t *Translator, thread, id string, it gjson.Result) toolSpec {
	name := it.Get("tool").Str
	if ns := it.Get("namespace").Str; ns != "" {
		name = ns + "__" + name
	}
	return toolSpec{native: t.w.Copy(id), thread: t.copyThread(thread), callID: t.w.Copy(id), name: t.w.Copy(name),
		args: t.w.Copy(argsJSON(it.Get("arguments")))}
}

// dynamicOutput returns a dynamic tool's output items: their text
// joined, and their images (see outputImages) appended to parts.
func (t *Translator) dynamicOutput(items gjson.Result, parts []part) (string, []part) {
	var b strings.Builder
	items.ForEach(func(_, v gjson.Result) bool {
		if s := v.Get("text").Str; s != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s)
		}
		return true
	})
	return b.String(), t.outputImages(items, parts)
}

// statesAnswer reports whether the receivers' states a sub-agent tool's
// completion carries are the receivers' answer to it: a wait's (and a
// spawn's, whose new agent has none yet). The others' (send_input,
// close_agent, resume_agent) are the states the call found.
func statesAnswer(tool string) bool {
	switch tool {
	case "send_input", "close_agent", "resume_agent":
		return false
	}
	return true
}

// collabFields names the fields of a collab tool call in one casing.
type collabFields struct {
	tool, prompt, receivers, agents, states, model, effort, status string
}

var (
	camelCollab = collabFields{"tool", "prompt", "receiverThreadIds", "receiverAgents", "agentsStates", "model", "reasoningEffort", "status"}
	snakeCollab = collabFields{"tool", "prompt", "receiver_thread_ids", "receiver_agents", "agents_states", "model", "reasoning_effort", "status"}
)

// collabItem maps a sub-agent tool call (spawn, send input, wait, close).
// Its receivers become the sub-agent threads whose items hang under it.
// callID is the call's id: the native id, but for exec's process-scoped key
// (exec ids restart at item_0 in every process).
func (t *Translator) collabItem(dst []event, c *ctx, key, native, callID, thread string, it gjson.Result, final bool, f collabFields) []event {
	tool := snake(it.Get(f.tool).Str)
	receivers := it.Get(f.receivers)
	args := obj()
	if p := it.Get(f.prompt); p.Type == gjson.String {
		args.String("prompt", p.Str)
	}
	args.Raw("receiver_thread_ids", rawOr(receivers, "[]"))
	if m := it.Get(f.model); m.Type == gjson.String && m.Str != "" {
		args.String("model", m.Str)
	}
	if e := it.Get(f.effort); e.Type == gjson.String {
		args.String("reasoning_effort", e.Str)
	}
	spec := toolSpec{native: native, thread: thread, callID: callID, name: t.w.Copy(tool), args: t.str(args.Bytes())}
	var ids []string
	receivers.ForEach(func(_, r gjson.Result) bool {
		ids = append(ids, r.Str)
		return true
	})
	dst, _ = t.collabCall(dst, c, key, &spec, final, ids)
	if !final {
		return dst
	}
	// The output: what the sub-agents said, else who they are. Only a
	// wait's states are their answer: those of a send_input, a close or a
	// resume are the receivers' states before the call (a send_input's
	// is the previous task's answer, not one to the input sent).
	var msgs []string
	states := it.Get(f.states)
	if statesAnswer(tool) {
		states.ForEach(func(_, s gjson.Result) bool {
			// In rollouts a state that is a plain string is only a status.
			if s.Type != gjson.String {
				msgs = agentMessages(s, msgs)
			}
			return true
		})
	}
	out := strings.Join(msgs, "\n")
	if out == "" {
		out = strings.Join(ids, "\n")
	}
	st := it.Get(f.status).Str
	res := resultSpec{output: t.w.Copy(out), failed: st == "failed"}
	res.isError = res.failed
	o := obj()
	if states.Exists() && states.Type != gjson.Null {
		o.Raw("agents_states", states.Raw)
	}
	// Who the receivers are (CollabAgentRef {thread_id, agent_nickname,
	// agent_role}), when the item names them.
	if ra := it.Get(f.agents); ra.IsArray() && ra.Get("0").Exists() {
		o.Raw("receiver_agents", ra.Raw)
	}
	if o.Len() > 0 {
		res.meta = o.Bytes()
	}
	if t.format == FormatRollout && callID != "" {
		// A rollout's CollabAgentToolCall comes before the call's
		// function_call_output, which says what the model saw (a wait's
		// timed_out; a multi-agent v2 wait's {message, timed_out}, whose
		// item has no states and no receivers): held for it, as the
		// collab *_end events' results are.
		return t.holdResult(dst, key, &spec, &res, c.raw)
	}
	return t.finishTool(dst, c, key, &spec, &res, false, st)
}

// simpleItem maps the items shown once: review mode, compaction, sub-agent
// activity, sleep (status items), hook prompts (system messages) and bare
// function call outputs (tool results).
func (t *Translator) simpleItem(dst []event, c *ctx, native, thread, typ string, it gjson.Result) []event {
	switch typ {
	case "enteredReviewMode":
		return t.status(dst, native, thread, "review_mode_entered", t.w.Copy(it.Get("review").String()), nil, agent, c.raw)
	case "exitedReviewMode":
		return t.status(dst, native, thread, "review_mode_exited", t.w.Copy(it.Get("review").String()), nil, agent, c.raw)
	case "contextCompaction":
		return t.status(dst, native, thread, universal.LabelCompaction, "", nil, agent, c.raw)
	case "subAgentActivity":
		return t.subAgentActivity(dst, c, native, thread, it.Get("kind").Str, it.Get("agentThreadId").Str, it.Get("agentPath"), it.Get("model").Str, it.Get("reasoningEffort").Str, "")
	case "sleep":
		return t.status(dst, native, thread, "sleep", t.w.Copy(it.Get("durationMs").Raw+" ms"), nil, agent, c.raw)
	case "hookPrompt":
		var b strings.Builder
		it.Get("fragments").ForEach(func(_, f gjson.Result) bool {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(f.Get("text").Str)
			return true
		})
		n := t.newItem("", kindMessage, thread)
		n.Done = true
		return t.w.Complete(dst, universal.Item{ItemID: n.ID, NativeItemID: native, ParentID: t.parentOf(thread),
			Kind: universal.KindSystem, Role: universal.RoleSystem, Content: []part{universal.Text(t.w.Copy(b.String()))}}, agent, c.raw)
	}
	// functionCallOutput
	out := it.Get("output")
	text := out.Str
	if out.IsArray() {
		text = joinTexts(jsonscan.Wrap(out), "text")
	} else if out.IsObject() {
		text = out.Get("text").Str
	}
	// A result without its call: under the open response.
	dst, r := t.response(dst, thread, "", false, daemon, nil)
	r.Calls, r.Resulted = true, true
	n := t.newItem("", kindTool, thread)
	n.Done, n.RDone = true, true
	p := part{Type: universal.PartToolResult, CallID: native, Output: t.w.Copy(text), Metadata: obj().String("name", it.Get("name").Str).Bytes()}
	return t.w.Complete(dst, universal.Item{ItemID: n.ID, NativeItemID: native, ParentID: r.ID,
		Kind: universal.KindToolResult, Role: universal.RoleTool, Content: []part{p}}, agent, c.raw)
}
