package amp

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

var (
	// redactedMeta marks a reasoning part whose text the provider
	// encrypted.
	redactedMeta = []byte(`{"redacted":true}`)
	// serverToolMeta marks a call of a tool the model provider runs
	// (web search).
	serverToolMeta = []byte(`{"block_type":"server_tool_use"}`)
)

// answer translates the content of one assistant message (a stream-json
// line's message.content, a thread message's content): one message item
// with its text and reasoning parts in block order, then one tool_call
// item per tool_use block. A message with neither (content [] of a
// thinking-only message whose thinking was not requested) makes no item.
// ended is "complete" unless the message ended early.
//
// A message that only thinks (reasoning parts, nothing else) is the
// start of a response Amp continues with the next message: its item is
// held open, and the next assistant message of the same scope adds its
// parts to it, so that the response is one message item; anything else
// completes the held item (release).
//
// phase is a thread message's meta.openAIResponsePhase ("commentary",
// "final_answer": which of a GPT model's outputs the text is), kept on
// each text part as Codex keeps an agent message's phase; "" in
// stream-json, which does not carry it.
func (t *Translator) answer(dst events, content jsonscan.Value, native, parent, ended, phase string) events {
	parts := t.msgParts[:0]
	calls := 0
	if content.Type() == gjson.String {
		parts = append(parts, universal.Text(t.str(content)))
		content = jsonscan.Value{} // (Each would visit the string itself)
	}
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		switch typeOf(b) {
		case "text":
			p := universal.Text(t.str(b.Field("text")))
			if phase != "" {
				var md jsonw.Object
				p.Metadata = md.String("phase", phase).Bytes()
			}
			parts = append(parts, p)
		case "thinking":
			p := universal.Reasoning(t.str(b.Field("thinking")), universal.VisibilityPublic)
			p.Signature = t.str(b.Field("signature"))
			p.Metadata = thinkingMeta(b, p.Signature)
			parts = append(parts, p)
		case "redacted_thinking":
			p := universal.Reasoning("", universal.VisibilityPrivate)
			p.Metadata = redactedMeta
			parts = append(parts, p)
		case "tool_use", "server_tool_use":
			calls++
		default:
			parts = append(parts, t.valuePart(b))
		}
		return true
	})
	t.msgParts = parts
	if len(parts) == 0 && calls == 0 {
		return dst
	}
	status := universal.StatusCompleted
	if ended != "complete" {
		status = universal.StatusFailed
	}
	thinking := calls == 0 && status == universal.StatusCompleted && onlyReasoning(parts)
	if t.s.Held != "" && t.s.HeldParent != parent {
		dst = t.release(dst)
	}
	id := t.s.Held
	switch {
	case id != "":
		// The continuation of a held response.
		dst = t.appendParts(dst, id, parts)
		if thinking {
			return dst
		}
		t.s.Held, t.s.HeldParent = "", ""
		dst = t.w.Close(dst, id, status, universal.SourceAgent, t.raw)
	case thinking:
		id = t.w.NewItemID()
		if parent == "" {
			t.s.LastMsg = id
		}
		t.s.Held, t.s.HeldParent = id, parent
		dst = t.w.StartItem(dst, universal.Item{
			ItemID: id, NativeItemID: native, ParentID: parent,
			Kind: universal.KindMessage, Role: universal.RoleAssistant,
		}, universal.SourceAgent, t.raw)
		return t.appendParts(dst, id, parts)
	default:
		id = t.w.NewItemID()
		if parent == "" {
			t.s.LastMsg = id
		}
		dst = t.w.Complete(dst, universal.Item{
			ItemID: id, NativeItemID: native, ParentID: parent,
			Kind: universal.KindMessage, Role: universal.RoleAssistant, Content: parts, Status: status,
		}, universal.SourceAgent, t.raw)
	}
	if calls == 0 {
		return dst
	}
	i := -1
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		i++
		if typ := typeOf(b); typ == "tool_use" || typ == "server_tool_use" {
			dst = t.toolCall(dst, b, id, i)
		}
		return true
	})
	return dst
}

// onlyReasoning reports whether parts are all reasoning.
func onlyReasoning(parts []universal.Part) bool {
	for i := range parts {
		if parts[i].Type != universal.PartReasoning {
			return false
		}
	}
	return len(parts) > 0
}

// appendParts adds parts to the held message item: each part, then its
// text as one delta (how universal.Stream streams a message that arrives whole).
func (t *Translator) appendParts(dst events, id string, parts []universal.Part) events {
	for _, p := range parts {
		text := p.Streamed()
		p.SetStreamed("")
		var i int
		if dst, i = t.w.AddPart(dst, id, p); i >= 0 {
			dst = t.w.Delta(dst, id, i, p.Type, text, universal.SourceDaemon, t.raw)
		}
	}
	return dst
}

// release completes the held message item: what came next shows that the
// response it started is over.
func (t *Translator) release(dst events) events {
	if t.s.Held == "" {
		return dst
	}
	id := t.s.Held
	t.s.Held, t.s.HeldParent = "", ""
	return t.w.Close(dst, id, universal.StatusCompleted, universal.SourceDaemon, nil)
}

// thinkingMeta keeps what a thread's thinking block says of the provider
// that thought: provider ("openai") and, for OpenAI models, the Responses
// API reasoning item it came from (openAIReasoning {id, encryptedContent}:
// its id; the encrypted content only when it is not already the part's
// signature, as Amp 0.0.1785170481 writes it). nil when it says neither.
func thinkingMeta(b jsonscan.Value, signature string) []byte {
	var md jsonw.Object
	md.Raw("provider", b.Get("provider").Raw)
	if r := b.Field("openAIReasoning"); r.IsObject() {
		var ro jsonw.Object
		ro.Raw("id", r.Get("id").Raw)
		if enc := r.Get("encryptedContent"); enc.Str != signature {
			ro.Raw("encrypted_content", enc.Raw)
		}
		if ro.Len() > 0 {
			md.RawBytes("openai_reasoning", ro.Bytes())
		}
	}
	if md.Len() == 0 {
		return nil
	}
	return md.Bytes()
}

// toolCall translates a tool_use block into a tool_call item under the
// message item msg. Its input is complete, so the item is completed at
// once, unless a thread marks the block incomplete ("complete": false):
// then it stays open until its result (or the turn's end).
func (t *Translator) toolCall(dst events, b jsonscan.Value, msg string, index int) events {
	// One walk over the block's members instead of a lookup each.
	var typ, idv, name, input, complete, provider jsonscan.Value
	b.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type":
			jsonscan.KeepFirst(&typ, v)
		case "id":
			jsonscan.KeepFirst(&idv, v)
		case "name":
			jsonscan.KeepFirst(&name, v)
		case "input":
			jsonscan.KeepFirst(&input, v)
		case "complete":
			jsonscan.KeepFirst(&complete, v)
		case "providerToolUseId":
			jsonscan.KeepFirst(&provider, v)
		}
		return true
	})
	id := idv.Str()
	if id == "" || t.s.Calls[id] != nil {
		field := "content[" + strconv.Itoa(index) + "]"
		if t.at == 0 {
			field = "message." + field // a stream-json line
		}
		if id == "" {
			return t.unparsed(dst, field, errors.New("tool_use without an id"))
		}
		return t.unparsed(dst, field, fmt.Errorf("tool_use id %q %w", id, errRepeated))
	}
	args := "{}"
	if input.Exists() {
		args = t.ownJSON(input)
	}
	c := &call{Item: t.w.NewItemID(), Msg: msg, Name: t.str(name),
		Path: universal.ResolvePath(t.s.Cwd, t.str(input.Field("path")))}
	callID := t.w.Copy(id)
	if t.s.Calls == nil {
		t.s.Calls = map[string]*call{}
	}
	t.s.Calls[callID] = c
	p := universal.Part{Type: universal.PartToolCall, Name: c.Name, Arguments: args, CallID: callID}
	p.ToolKind, p.ToolInput = t.describe(c.Name, args)
	if typ.Str() == "server_tool_use" {
		// Run by the model provider: its result is a block of the same
		// message, never a tool_result.
		p.Metadata, c.Done = serverToolMeta, true
	} else {
		t.s.Pending = append(t.s.Pending, callID)
	}
	if provider.Type() == gjson.String {
		// The model provider's own id of the call (OpenAI's call_…),
		// which a thread keeps beside Amp's TU-… id.
		var md jsonw.Object
		if p.Metadata != nil {
			md.String("block_type", "server_tool_use")
		}
		p.Metadata = md.Raw("provider_tool_use_id", provider.Raw()).Bytes()
	}
	t.parts = append(t.parts[:0], p)
	it := universal.Item{
		ItemID: c.Item, NativeItemID: callID, ParentID: msg, Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: t.parts,
	}
	if complete.Type() == gjson.False {
		return t.w.StartItem(dst, it, universal.SourceAgent, t.raw)
	}
	return t.w.Complete(dst, it, universal.SourceAgent, t.raw)
}

// toolOut is one tool result as read from either format.
type toolOut struct {
	call      string // the tool_use id
	output    string // what a person reads
	isError   bool   // what Amp says
	exit      int64  // the exit code, when hasExit
	hasExit   bool
	cancelled bool
	rejected  bool           // refused by the user, or by policy
	byRule    bool           // refused by a permission rule (Amp says is_error false)
	status    string         // a thread's run.status
	manual    bool           // a shell command the user ran: not part of a turn's work
	obj       jsonscan.Value // the structured result, if any
	extra     []universal.Part
	subThread string // the thread a sub-agent ran in (a thread's run.progress.threadID)
	open      bool   // the run had not finished (stream-json "Tool status: in-progress"): no outcome yet
}

const (
	rejectedPrefix  = "Tool execution rejected by user"
	cancelledPrefix = "Tool execution cancelled"
	// ruleRejectedPrefix starts the result of a call a permission rule
	// refused in execute mode ("Tool rejected by plugin: Matches user
	// permissions rule 0: ask shell_command …"), which Amp sends with
	// is_error false although the tool never ran.
	ruleRejectedPrefix = "Tool rejected by plugin"
	// runStatusPrefix starts the result stream-json prints for a call
	// whose run had not finished when its message reached the thread
	// (Amp's printer, for any run status but done, error, cancelled and
	// rejected-by-user: "Tool status: <run.status>", is_error false). It
	// prints that message once: no other result of the call follows.
	runStatusPrefix = "Tool status: "
)

// streamResult translates a stream-json tool_result block. Its content
// is a string: the tool's text, or the JSON text of a structured result.
func (t *Translator) streamResult(dst events, b jsonscan.Value, scope string) events {
	var id, isErr, content jsonscan.Value
	b.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "tool_use_id":
			jsonscan.KeepFirst(&id, v)
		case "is_error":
			jsonscan.KeepFirst(&isErr, v)
		case "content":
			jsonscan.KeepFirst(&content, v)
		}
		return true
	})
	o := toolOut{call: id.Str(), isError: isErr.Result().Bool()}
	c := t.s.Calls[o.call]
	if content.Type() == gjson.String {
		t.decodeString(&o, content)
	} else {
		o.output, o.extra = anthropic.ToolResult(content.Result(), t.w.Copy)
	}
	if o.isError {
		o.rejected = strings.HasPrefix(o.output, rejectedPrefix)
		o.cancelled = strings.HasPrefix(o.output, cancelledPrefix)
	} else if content.Type() == gjson.String && strings.HasPrefix(o.output, runStatusPrefix) {
		switch s := o.output[len(runStatusPrefix):]; s {
		case "blocked-on-user":
			if c != nil && o.call != "" {
				// Waiting for an approval, as in a thread: pending, for
				// the approval error that ends the run to deny.
				return t.askUser(dst, c, o.call, s)
			}
			o.status, o.open = s, true
		case "in-progress", "queued":
			o.status, o.open = s, true
		case "cancellation-requested":
			o.status, o.cancelled = s, true
		}
	}
	return t.toolResult(dst, c, &o, scope)
}

// decodeString reads a result string: when it is the JSON text of a
// result object Amp knows (see structured), the output is the part a
// person reads and the string is kept whole as a json part; otherwise the
// string is the output.
//
// The JSON text is validated and indexed in one pass of the inner
// scanner, which leaves the message's index alone.
func (t *Translator) decodeString(o *toolOut, v jsonscan.Value) {
	s := v.OwnStr(t.w.Copy)
	if trimmed := strings.TrimSpace(s); strings.HasPrefix(trimmed, "{") && t.sc.inner.ScanString(trimmed) {
		if out, ok := t.structured(o, t.sc.inner.Root()); ok {
			o.output = out
			if inner := &t.sc.inner; inner.Compact() && inner.Depth() <= jsonw.MaxDepth {
				// Already what jsonw writes for it (s is text of a
				// message read as valid UTF-8), and memory of its own
				// that nobody writes, as events are.
				o.extra = append(o.extra, universal.Part{Type: universal.PartJSON, JSON: bytesOf(trimmed)})
			} else {
				o.extra = append(o.extra, anthropic.JSONPart(trimmed))
			}
			return
		}
	}
	o.output = s
}

// structured reads a structured tool result (the object a thread's
// run.result holds, whose JSON text stream-json sends) and returns the
// text a person reads: output (shell commands, with exitCode), summary
// (apply_patch, with files), content (a file read; a skill's block array),
// diff (edit_file). ok is false for an object of none of these shapes.
func (t *Translator) structured(o *toolOut, obj jsonscan.Value) (out string, ok bool) {
	var exit, output, summary, content, diff jsonscan.Value
	obj.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "exitCode":
			jsonscan.KeepFirst(&exit, v)
		case "output":
			jsonscan.KeepFirst(&output, v)
		case "summary":
			jsonscan.KeepFirst(&summary, v)
		case "content":
			jsonscan.KeepFirst(&content, v)
		case "diff":
			jsonscan.KeepFirst(&diff, v)
		}
		return true
	})
	if e := exit.Result(); e.Type == gjson.Number {
		o.exit, o.hasExit = e.Int(), true
	}
	switch {
	case output.Type() == gjson.String:
		out, ok = output.OwnStr(t.w.Copy), true
	case summary.Type() == gjson.String:
		out, ok = summary.OwnStr(t.w.Copy), true
	case content.Type() == gjson.String:
		out, ok = content.OwnStr(t.w.Copy), true
	case content.IsArray():
		var extra []universal.Part
		out, extra = anthropic.ToolResult(content.Result(), t.w.Copy)
		o.extra, ok = append(o.extra, extra...), true
	case diff.Type() == gjson.String:
		out, ok = diff.OwnStr(t.w.Copy), true
	}
	if ok {
		o.obj = obj
	}
	return out, ok
}

// fileRefs returns the file references of a successful result (obj is
// its structured form, if any): one per entry of apply_patch's files[]
// (add → write, update and delete → patch, with the diff), the file
// edit_file patched (with its diff), the file create_file wrote, the file
// Read read.
func (t *Translator) fileRefs(c *call, obj jsonscan.Value) []universal.Part {
	var refs []universal.Part
	files := obj.Sub("files")
	if !files.IsArray() {
		files = jsonscan.Value{}
	}
	files.Each(func(_ gjson.Result, f jsonscan.Value) bool {
		p := universal.Part{Type: universal.PartFileRef, Path: t.w.Copy(filePath(f.Get("uri").Str)), Action: universal.FilePatch,
			Diff: t.str(f.Field("diff"))}
		if f.Get("type").Str == "add" {
			p.Action = universal.FileWrite
		}
		var md jsonw.Object
		md.Raw("change", f.Get("type").Raw).Raw("additions", f.Get("additions").Raw).Raw("deletions", f.Get("deletions").Raw)
		if md.Len() > 0 {
			p.Metadata = md.Bytes()
		}
		refs = append(refs, p)
		return true
	})
	if c == nil || len(refs) > 0 {
		return refs
	}
	path := c.Path
	if p := obj.Get("absolutePath").Str; p != "" {
		path = t.w.Copy(p)
	}
	if path == "" {
		return nil
	}
	switch c.Name {
	case "edit_file":
		if d := obj.Get("diff").Str; d != "" {
			return []universal.Part{{Type: universal.PartFileRef, Path: path, Action: universal.FilePatch, Diff: t.w.Copy(unfence(d))}}
		}
	case "create_file":
		return []universal.Part{{Type: universal.PartFileRef, Path: path, Action: universal.FileWrite}}
	case "Read", "read", "read_file":
		if obj.Get("isDirectory").Bool() {
			return nil
		}
		return []universal.Part{{Type: universal.PartFileRef, Path: path, Action: universal.FileRead}}
	}
	return nil
}

// filePath returns the path of a file: URI, or the string itself when it
// is not one.
func filePath(uri string) string {
	if !strings.HasPrefix(uri, "file://") {
		return uri
	}
	if u, err := url.Parse(uri); err == nil && u.Path != "" {
		return u.Path
	}
	return strings.TrimPrefix(uri, "file://")
}

// unfence strips the markdown code fence edit_file puts around its diff.
func unfence(d string) string {
	if rest, ok := strings.CutPrefix(d, "```diff\n"); ok {
		return strings.TrimSuffix(strings.TrimSuffix(rest, "```"), "\n")
	}
	return d
}

// toolResult emits one tool result: a tool_result item (role tool, parent
// the message that made the call, or the sub-agent's Task call) that is
// failed when Amp says is_error or a command exited non-zero; before it,
// for a call the user (or policy) refused, a permission request and its
// denial.
func (t *Translator) toolResult(dst events, c *call, o *toolOut, scope string) events {
	if c != nil && c.Done {
		return t.unparsed(dst, "tool_result", errors.New("a second result for tool call "+strconv.Quote(o.call)))
	}
	if scope == "" && !o.manual {
		dst = t.ensureTurn(dst)
		t.s.LastRole = "user"
	}
	if !o.hasExit && strings.HasPrefix(o.output, ruleRejectedPrefix) {
		o.rejected, o.byRule = true, true
	}
	failed := o.isError || o.cancelled || o.rejected || (o.hasExit && o.exit != 0)
	var md jsonw.Object
	if o.hasExit {
		md.Int("exit_code", o.exit)
	}
	if tr := o.obj.Get("truncation"); tr.IsObject() {
		// Amp cut the output ({"prefixLinesOmitted": n}): the output is
		// all there is, and a reader should know it is not whole.
		md.Bool("truncated", true).Raw("truncation", tr.Raw)
	}
	if failed && !o.isError {
		md.Bool("native_is_error", false) // Amp reports a failed command as no error
	}
	if o.status != "" && o.status != "done" {
		md.String("run_status", o.status)
	}
	if o.cancelled {
		md.Bool("cancelled", true)
	}
	switch {
	case o.byRule:
		md.Bool("rejected_by_rule", true)
	case o.rejected:
		md.Bool("rejected_by_user", true)
	}
	if c != nil {
		md.Raw("sub_agent_error", c.SubErr)
	}
	md.OptString("sub_agent_thread_id", o.subThread)
	parent, name := t.scopeItem(scope), ""
	switch {
	case c != nil:
		parent, name = c.Msg, c.Name
	case scope == "" && !o.manual:
		// A call this translator never saw (a stream picked up
		// mid-turn): most likely the last response's.
		parent = t.s.LastMsg
	}
	callID := t.w.Copy(o.call)
	if o.rejected {
		source := "user"
		if o.byRule || strings.Contains(o.output, "stream-json execute-mode") {
			source = "policy" // newer builds refuse the approval themselves
		}
		dst = t.denyCall(dst, callID, name, source, o.output, "")
	}
	status := universal.StatusCompleted
	if o.open {
		status = universal.StatusInProgress
	} else if failed {
		status = universal.StatusFailed
	} else if refs := t.fileRefs(c, o.obj); len(refs) > 0 {
		o.extra = append(refs, o.extra...)
	}
	if c != nil && c.Path != "" {
		// An image the tool returns is the file the call names.
		for i := range o.extra {
			if o.extra[i].Type == universal.PartImage && o.extra[i].Path == "" {
				o.extra[i].Path = c.Path
			}
		}
	}
	if c != nil && !o.open {
		c.Done = true
		t.s.done(o.call)
		if t.w.IsOpen(c.Item) {
			dst = t.w.Close(dst, c.Item, status, universal.SourceDaemon, t.raw)
		}
	}
	rp := universal.Part{Type: universal.PartToolResult, CallID: callID, Output: o.output, IsError: failed}
	if md.Len() > 0 {
		rp.Metadata = md.Bytes()
	}
	t.parts = append(append(t.parts[:0], rp), o.extra...)
	it := universal.Item{
		ItemID: t.w.NewItemID(), ParentID: parent, Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: t.parts, Status: status,
	}
	if o.open {
		// Amp prints no outcome for this run: the result stays open
		// until its turn ends, which completes it as failed.
		return t.w.StartItem(dst, it, universal.SourceAgent, t.raw)
	}
	return t.w.Complete(dst, it, universal.SourceAgent, t.raw)
}

// denyCall emits a permission request and its denial for a tool call Amp
// did not run: refused by the user (source "user") or, in stream-json
// mode, which cannot ask, stopped by policy ("policy"). The permission id
// is the call id, or a made-up one when the call is unknown. nativeRaw is
// a native record of the denial to keep in metadata ("" for none).
func (t *Translator) denyCall(dst events, callID, name, source, reason, nativeRaw string) events {
	name, callID = t.w.Copy(name), t.w.Copy(callID)
	if name != "" {
		t.s.Denied = append(t.s.Denied, name)
	}
	id, item := callID, ""
	if c := t.s.Calls[callID]; c != nil {
		item = c.Item
		if name == "" {
			name = c.Name
		}
	}
	if id == "" {
		t.s.Perms++
		id = "amp_approval_" + strconv.Itoa(t.s.Perms)
	}
	if !t.w.PermissionPending(id) { // (a thread's blocked-on-user call is pending already)
		var req jsonw.Object
		req.Grow(24).String("source", source)
		dst = t.w.RequestPermission(dst, universal.Permission{
			PermissionID: id, Action: name, ItemID: item, CallID: callID, Metadata: req.Bytes(),
		}, universal.SourceDaemon, t.raw)
	}
	var md jsonw.Object
	md.Grow(48+len(reason)+len(nativeRaw)).String("source", source).String("reason", reason).Raw("native", nativeRaw)
	return t.w.ResolvePermission(dst, universal.Permission{
		PermissionID: id, Action: name, Status: universal.PermissionDenied, ItemID: item, CallID: callID,
		Metadata: md.Bytes(),
	}, universal.SourceDaemon, t.raw)
}
