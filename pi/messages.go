package pi

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

// errServerTool: an oh-my-pi anthropicServerTool content block whose
// block is not an object.
var errServerTool = errors.New("anthropicServerTool block without its block object")

// message translates a complete Pi message: message_end in a stream, or a
// message entry of a session file (nativeID is then the entry id).
func (t *Translator) message(dst []universal.Event, in *input, msg jsonscan.Value, nativeID string) []universal.Event {
	role := msg.Get("role")
	switch role.Str {
	case "assistant":
		return t.assistant(dst, in, msg, nativeID)
	case "user":
		return t.user(dst, in, msg, nativeID)
	case "toolResult":
		return t.toolResult(dst, in, msg, nativeID)
	case "system":
		return t.system(dst, in, msg, nativeID)
	case "custom", "hookMessage", "developer":
		// developer: oh-my-pi's harness instructions (role developer).
		return t.custom(dst, in, msg, nativeID)
	case "branchSummary", "compactionSummary":
		var md jsonw.Object
		md.String("role", role.Str).Raw("fromId", msg.Get("fromId").Raw).Raw("tokensBefore", msg.Get("tokensBefore").Raw)
		return t.systemText(dst, msg.Get("summary").Str, md.Bytes(), nativeID, in.raw)
	case "bashExecution":
		return t.bash(dst, msg, nativeID, bashExecution, "command", in.raw)
	case "pythonExecution":
		// oh-my-pi: Python the user ran ($code), as bashExecution.
		return t.bash(dst, msg, nativeID, pythonExecution, "code", in.raw)
	case "fileMention":
		return t.fileMention(dst, msg, nativeID, in.raw)
	}
	if !msg.IsObject() {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%s without a message", in.typ.Str), in.raw)
	}
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: message role %q", errUnknownType, role.Str), in.raw)
}

// assistant completes an assistant message (streamed or not) with its
// authoritative content, its tool calls and its usage.
func (t *Translator) assistant(dst []universal.Event, in *input, msg jsonscan.Value, nativeID string) []universal.Event {
	if t.format == FormatSession && !t.inTurn() {
		// A response outside a turn: the file does not record the
		// prompt it answers (real v1 files lack some). Its turn gets an
		// empty user message (source daemon) for the missing prompt.
		dst = t.startTurn(dst, daemon, in.raw)
		t.st.Turn.PromptSeen = true
		dst = t.w.Complete(dst, universal.Item{ItemID: t.w.NewItemID(), Kind: universal.KindMessage, Role: universal.RoleUser}, daemon, in.raw)
	}
	if t.st.Msg == nil || !t.w.IsOpen(t.st.Msg.Item) {
		dst = t.beforeAssistant(dst, in.raw)
		dst = t.startAssistant(dst, nativeID, in.raw)
	}
	m := t.st.Msg
	f := fields(msg, "content", "stopReason", "errorMessage", "usage", "api", "provider", "model", "errorStatus", "errorKind", "deferred", "stopDetails", "diagnostics", "responseModel",
		"thinkingLevel", "providerThinkingLevel", "responseId", "durationMs")
	content, stopR, errR, usage, api, provider, model := f[0], f[1], f[2], f[3], f[4], f[5], f[6]
	call := callFacts{effort: f[13].Str(), providerEffort: f[14].Str(), responseID: f[15].Str(), duration: -1}
	if d := f[16]; d.Type() == gjson.Number && d.Result().Num >= 0 {
		call.duration = d.Result().Int()
	}
	parts := slices.Grow(t.msgParts[:0], len(m.Parts))[:len(m.Parts)]
	have := make([]bool, len(m.Parts))
	ci := 0
	calls := false
	if content.Type() == gjson.String {
		// Not what Pi writes, but its user messages allow it: one text.
		content = jsonscan.Wrap(gjson.Parse(`[{"type":"text","text":` + content.Raw() + `}]`))
	}
	content.Each(func(_ gjson.Result, c jsonscan.Value) bool {
		b := m.block(ci)
		var p universal.Part
		switch c.Get("type").Str {
		case "text":
			p = t.text(c.Get("text"))
		case "thinking":
			p = universal.Reasoning(t.copyValue(c.Get("thinking")), universal.VisibilityPublic)
			if c.Get("redacted").Bool() {
				p.Visibility = universal.VisibilityPrivate
			}
			p.Signature = t.copy(c.Get("thinkingSignature").Str)
		case "redactedThinking":
			// oh-my-pi: redacted thinking, its encrypted data alone (Pi
			// writes a thinking block with redacted and the data as its
			// signature).
			p = universal.Reasoning("", universal.VisibilityPrivate)
			p.Signature = t.copy(c.Get("data").Str)
		case "toolCall":
			dst = t.toolCallFinal(dst, m, b, c, in.raw)
			calls = true
			ci++
			return true
		case "image":
			p = t.image(c)
		case "fallback":
			// oh-my-pi: Anthropic's server-side fallback answered with
			// another model ({from: {model}, to: {model}}).
			var md jsonw.Object
			md.String("type", "fallback")
			p = withMetadata(universal.Part{Type: universal.PartStatus, Label: "model_rerouted",
				Detail: t.copy(c.Get("from.model").Str + " → " + c.Get("to.model").Str)}, md.Bytes())
		case "anthropicServerTool":
			// oh-my-pi: an Anthropic server tool's call (server_tool_use
			// {id, name, input}) or result (web_search_tool_result,
			// tool_search_tool_result {tool_use_id, content}), which the
			// provider ran: the block as it is, as Claude Code's other
			// blocks are.
			block := c.Sub("block")
			if !block.IsObject() {
				dst = t.w.Unparsed(dst, fmt.Sprintf("%s: message.content[%d]", in.where(), ci), errServerTool, in.raw)
				ci++
				return true
			}
			var md jsonw.Object
			md.String("type", "anthropicServerTool")
			t.addValue(&md, "block_type", block.Sub("type"))
			t.addValue(&md, "name", block.Sub("name"))
			p = withMetadata(universal.Part{Type: universal.PartJSON, JSON: []byte(t.compact(block))}, md.Bytes())
		default:
			dst = t.w.Unparsed(dst, fmt.Sprintf("%s: message.content[%d]", in.where(), ci), fmt.Errorf("%w: content block %q", errUnknownType, c.Get("type").Str), in.raw)
			ci++
			return true
		}
		if b.Part > 0 && m.Parts[b.Part-1] == p.Type && !have[b.Part-1] {
			parts[b.Part-1] = p
			have[b.Part-1] = true
		} else {
			parts = append(parts, p)
		}
		ci++
		return true
	})
	for i := range have {
		if !have[i] {
			// Streamed, but missing from the final message: keep it.
			parts[i] = universal.Part{Type: m.Parts[i]}
			if m.Parts[i] == universal.PartReasoning {
				parts[i].Visibility = universal.VisibilityPublic
			}
			parts[i].SetStreamed(t.w.StreamedText(m.Item, i))
		}
	}
	stop := stopR.Str()
	t.st.Turn.Unfinished = stop == "toolUse" || calls
	if !t.st.Turn.Unfinished && t.format == FormatSession {
		t.st.Turn.EndRaw = t.keepRaw(in.raw)
	}
	status := universal.StatusCompleted
	errMsg := errR.Str()
	var errMD jsonw.Object
	if stop == "error" && abortError(errMsg) {
		// Pi 0.84.0–1.5.0 (recorded 0.84.0, 0.84.4, 1.0.3, 1.4.0) end a
		// run whose tool the host aborted with a message in error whose
		// text is the abort's; 1.5.1 calls it aborted (pi #8635). It is
		// an interruption.
		stop = "aborted"
		errMD.String("native_stop_reason", "error")
	}
	if stop == "error" {
		// oh-my-pi: the provider's HTTP status and its kind of the error
		// (AssistantMessage errorStatus, errorKind).
		if f[7].Type() == gjson.Number && f[7].Int() > 0 {
			errMD.Int("http_status", f[7].Int())
		}
		if k := f[8].Str(); k != "" {
			errMD.String("error_kind", k)
		}
		// oh-my-pi: Anthropic's stop_details of an error-class stop (a
		// refusal's type, category and explanation), kept whole so the
		// category is not only inside errorMessage's prose.
		if d := f[10]; d.IsObject() {
			t.addValue(&errMD, "stop_details", d)
		}
	}
	if stop == "error" || stop == "aborted" {
		// pi-ai: which response failed (responseId, when the provider
		// answered before the failure) and how long the request ran
		// (durationMs): a failed request's usage is zeros and not
		// emitted, so its failure keeps them.
		errMD.OptString("response_id", call.responseID)
		if call.duration >= 0 {
			errMD.Int("duration_ms", call.duration)
		}
	}
	if d := f[11]; (stop == "error" || stop == "aborted") && diagnosticsList(d) {
		// pi-ai: what the provider client ran into (a failed WebSocket,
		// whose error code the socket's text lacks), kept with the
		// failure and its error event.
		t.addValue(&errMD, "diagnostics", d)
	}
	var stopMD []byte
	if errMD.Len() > 0 {
		stopMD = errMD.Bytes()
	}
	if stop == "error" || stop == "aborted" {
		status = universal.StatusFailed
		parts = append(parts, withMetadata(universal.Part{Type: universal.PartStatus, Label: t.copy(stop), Detail: t.copy(errMsg)}, stopMD))
	} else if d := f[11]; diagnosticsList(d) {
		parts = append(parts, t.diagnosticsPart(d))
	}
	if stop == "length" {
		// The response reached the output token limit: its text or a
		// tool call's arguments were cut off (the call then fails its
		// validation), which the turn's end does not tell when more
		// follows in the turn.
		parts = append(parts, universal.Part{Type: universal.PartStatus, Label: "length", Detail: "the response reached the output token limit"})
	}
	if stop == "deferred" {
		// pi-ai 0.84.0 on: the provider took the request to answer it
		// later (a deferred request) and gave a handle {provider,
		// modelId, api, id, expiresAt?, pollAfterMs?, data?} to fetch the
		// answer with; the message has no answer, and the agent loop
		// ends the run (it does not fetch it). A status part says so,
		// the handle in its metadata; the turn ends interrupted.
		d := f[9]
		var md jsonw.Object
		if d.IsObject() {
			t.addValue(&md, "deferred", d)
		}
		parts = append(parts, withMetadata(universal.Part{Type: universal.PartStatus, Label: "deferred", Detail: t.copy(d.Get("id").Str)}, md.Bytes()))
	}
	dst = t.w.Complete(dst, universal.Item{
		ItemID:       m.Item,
		NativeItemID: t.copy(nativeID),
		Kind:         universal.KindMessage,
		Role:         universal.RoleAssistant,
		Content:      parts,
		Status:       status,
	}, agent, in.raw)
	t.keepParts(parts)
	t.st.Msg = nil
	dst = t.usage(dst, usage, t.callMD(model.Str(), provider.Str(), f[12].Str(), &call), in.raw)
	tr := &t.st.Turn
	tr.LastStop = t.copy(stop)
	if s := api.Str(); s != "" {
		tr.API = t.copy(s)
	}
	if s := provider.Str(); s != "" {
		tr.Provider = t.copy(s)
	}
	if s := model.Str(); s != "" {
		tr.Model = t.copy(s)
	}
	if stop == "error" {
		tr.Err, tr.ErrSet, tr.ErrDetails = t.copy(errMsg), true, rawText(stopMD)
	}
	if t.format == FormatSession && !tr.Unfinished && status != universal.StatusFailed {
		// The record shows the agent answered: the turn ends here (a
		// failed message may still be retried in the same turn).
		dst = t.settle(dst, false, agent, in.raw)
	}
	return dst
}

// diagnosticsList reports whether an assistant message's diagnostics
// (pi-ai's AssistantMessageDiagnostic[]) has any.
func diagnosticsList(d jsonscan.Value) bool {
	return d.IsArray() && d.Get("#").Int() > 0
}

// diagnosticsPart is the status part of the diagnostics of an assistant
// message that did not fail (pi-ai 1.x: {type, timestamp, error?: {name?,
// message, stack?, code?}, details?}, what its provider client ran into
// and handled: a WebSocket that failed before an SSE fallback, a
// strict-tools or thread fallback, input the provider's API made it
// transform): labelled diagnostics, its detail each one's type (and its
// error's message) joined by "; ", the list whole in metadata
// diagnostics. A failed message keeps them with its error instead.
func (t *Translator) diagnosticsPart(d jsonscan.Value) universal.Part {
	var b strings.Builder
	d.Each(func(_ gjson.Result, e jsonscan.Value) bool {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Get("type").Str)
		if m := e.Get("error.message").Str; m != "" {
			b.WriteString(": ")
			b.WriteString(m)
		}
		return true
	})
	var md jsonw.Object
	t.addValue(&md, "diagnostics", d)
	return withMetadata(universal.Part{Type: universal.PartStatus, Label: "diagnostics", Detail: b.String()}, md.Bytes())
}

// abortError reports whether an assistant message's errorMessage is the
// text of an abort (the host's abort command, Ctrl-C): Node's AbortError
// ("This operation was aborted") or Pi's and its provider clients' ("Request
// was aborted" with or without a period, "Request aborted" in 0.82–0.83).
// A run that was aborted, not failed.
func abortError(msg string) bool {
	switch strings.TrimSpace(msg) {
	case "This operation was aborted", "Request was aborted", "Request was aborted.", "Request aborted":
		return true
	}
	return false
}

// image maps an image content block. The base64 data is not carried; its
// length is kept in the metadata. oh-my-pi writes the data of a large
// image to its blob store and a reference in its place
// ("blob:sha256:<hash>", the file ~/.omp/agent/blobs/<hash>): the
// reference is the part's path (a tool's result image gets the path read
// instead) and metadata blob. A block without a MIME type (not what Pi
// writes) gets "image/*", as in package anthropic: an image part needs a
// path or a MIME type, and a tool's result image may get its path only
// later.
func (t *Translator) image(c jsonscan.Value) universal.Part {
	var md jsonw.Object
	p := universal.Part{Type: universal.PartImage}
	f := fields(c, "data", "mimeType")
	if data := f[0].Str(); strings.HasPrefix(data, blobPrefix) {
		p.Path = t.copy(data)
		md.String("blob", p.Path)
	} else {
		md.Int("data_length", int64(len(data)))
	}
	p.Mime = t.copy(f[1].Str())
	if p.Mime == "" {
		p.Mime = "image/*"
	}
	p.Metadata = md.Bytes()
	return p
}

// blobPrefix starts oh-my-pi's reference to data in its blob store.
const blobPrefix = "blob:sha256:"

// truncationNotice ends a string oh-my-pi cut to 500,000 characters when
// it wrote the session file.
const truncationNotice = "[Session persistence truncated large content]"

// text returns a text part; one that oh-my-pi cut when it wrote the file
// (it ends with its notice) is kept as it is, marked truncated.
func (t *Translator) text(v gjson.Result) universal.Part {
	p := universal.Text(t.copyValue(v))
	if strings.HasSuffix(p.Text, truncationNotice) {
		p.Metadata = truncatedMD
	}
	return p
}

// mergeMD returns the members of two metadata objects in one; nil when
// both are empty. The first is not changed.
func mergeMD(a, b []byte) []byte {
	switch {
	case len(a) <= 2:
		return b
	case len(b) <= 2:
		return a
	}
	return append(append(append(make([]byte, 0, len(a)+len(b)), a[:len(a)-1]...), ','), b[1:]...)
}

// truncatedMD is the metadata of a part whose text was truncated.
var truncatedMD = []byte(`{"truncated":true}`)

// toolCallStart starts the tool_call item of a toolCall block, once.
func (t *Translator) toolCallStart(dst []universal.Event, m *message, b *block, callID, name string, raw []byte) []universal.Event {
	if b.Tool != "" {
		return dst
	}
	b.Tool = t.w.NewItemID()
	link := ""
	if callID != "" {
		link = t.addTool(callID, name, m.Item, b.Tool).link()
	}
	return t.w.StartItem(dst, t.toolCallItem(b.Tool, m.Item, callID, link, name, ""), agent, raw)
}

// toolCallItem returns a tool_call item: its native id is callID, its
// call_id link (see tool.Link), callID when link is "". Its tool kind and
// input are set once the tool's name is known.
func (t *Translator) toolCallItem(id, parent, callID, link, name, args string) universal.Item {
	callID = t.copy(callID)
	if link == "" {
		link = callID
	}
	var kind universal.ToolKind
	var input *universal.ToolInput
	if name != "" {
		kind, input = t.describe(name, args)
	}
	// The part in the translator's memory: StartItem and Complete copy
	// it, and an item is emitted before the next is built.
	t.callPart[0] = universal.Part{
		Type:      universal.PartToolCall,
		Name:      t.copy(name),
		Arguments: args,
		CallID:    link,
		ToolKind:  kind,
		ToolInput: input,
	}
	return universal.Item{
		ItemID:       id,
		NativeItemID: callID,
		ParentID:     parent,
		Kind:         universal.KindToolCall,
		Role:         universal.RoleAssistant,
		Content:      t.callPart[:],
	}
}

// toolCallFinal completes the tool_call item of a toolCall block with the
// final call (toolcall_end, or the block in message_end). It is started
// first when it never streamed.
func (t *Translator) toolCallFinal(dst []universal.Event, m *message, b *block, tc jsonscan.Value, raw []byte) []universal.Event {
	if b.Tool != "" && !t.w.IsOpen(b.Tool) {
		return dst // completed at toolcall_end
	}
	f := fields(tc, "id", "name", "arguments", "intent")
	callID, name := f[0].Str(), f[1].Str()
	tl := t.tool(callID)
	parent := m.Item
	if t.late && tl != nil && b.Tool == "" {
		// The message comes after the call ran (see stepEnd).
		if tl.Call != "" {
			return dst // announced by tool_execution_start: its item is there
		}
		if tl.Result != "" && tl.Msg != "" {
			// Only its result was seen: the call goes under the same
			// message as the result.
			parent = tl.Msg
			b.Tool = t.w.NewItemID()
			tl.Call = b.Tool
		}
	}
	if b.Tool == "" {
		b.Tool = t.w.NewItemID()
	}
	if callID != "" && (tl == nil || tl.Call != b.Tool) {
		tl = t.addTool(callID, name, m.Item, b.Tool)
	}
	if tl != nil && name != "" {
		tl.Name = t.copy(name)
	}
	args := t.arguments(b.Tool, f[2])
	link := ""
	if tl != nil {
		link = tl.link()
	}
	it := t.toolCallItem(b.Tool, parent, callID, link, name, args)
	if name == "" {
		// Unnamed: still a call, of no known kind.
		it.Content[0].ToolKind, it.Content[0].ToolInput = universal.ToolOther, &universal.ToolInput{}
	}
	if f[3].Exists() {
		// oh-my-pi: what the model said the call is for.
		var md jsonw.Object
		t.addValue(&md, "intent", f[3])
		it.Content[0].Metadata = md.Bytes()
	}
	if tl != nil {
		tl.Kind, tl.Paths = it.Content[0].ToolKind, it.Content[0].ToolInput.Paths
	}
	return t.w.Complete(dst, it, agent, raw)
}

// arguments returns the final arguments text of a tool call: the JSON
// text that streamed when it is the same JSON value as the final
// arguments object, its members in any order (so no text is rewritten),
// else the final object in compact form.
func (t *Translator) arguments(item string, final jsonscan.Value) string {
	streamed := t.w.StreamedText(item, 0)
	if final.Raw() == "" {
		if streamed != "" {
			return streamed
		}
		return "{}"
	}
	fin := t.compact(final)
	if streamed != "" {
		if streamed == fin {
			return streamed // compact already, so compacting it gives fin
		}
		c, ok := jsonw.AppendValue(t.cmp[:0], streamed)
		t.cmp = c
		if ok && (string(c) == fin || jsonscan.Same(string(c), fin)) {
			// The same value, its members perhaps in another order (a
			// log re-serialized with sorted keys reorders the final
			// object, not the streamed text).
			return streamed
		}
	}
	return t.w.Copy(fin)
}

// tool returns the latest tool entry for a call id.
func (t *Translator) tool(callID string) *tool {
	if callID == "" {
		return nil
	}
	for i := len(t.st.Tools) - 1; i >= 0; i-- {
		if t.st.Tools[i].CallID == callID {
			return &t.st.Tools[i]
		}
	}
	return nil
}

// addTool adds the tool entry of a new call (its item call, or one made
// right after) with native id callID.
func (t *Translator) addTool(callID, name, msg, call string) *tool {
	// The id is copied first: a map key must not alias the input.
	callID = t.copy(callID)
	if t.st.CallUses == nil {
		t.st.CallUses = map[string]int{}
	}
	t.st.CallUses[callID]++
	return t.addEntry(callID, name, msg, call)
}

// addResultTool adds the tool entry of a result whose call was not seen:
// it links to the session's last call with its native id.
func (t *Translator) addResultTool(callID, name string) *tool {
	return t.addEntry(t.copy(callID), name, "", "")
}

// addEntry adds a tool entry; callID is a copy already.
func (t *Translator) addEntry(callID, name, msg, call string) *tool {
	t.st.Tools = append(t.st.Tools, tool{CallID: callID, Link: t.callLink(callID), Name: t.copy(name), Msg: msg, Call: call})
	return &t.st.Tools[len(t.st.Tools)-1]
}

// callLink returns the call_id of the session's latest call with native
// id callID, "" for callID itself: the provider's id is only unique
// within one response for some (Kimi K2 numbers each response's calls
// from 0, functions.bash:0), and a call_id shared by two calls links each
// result to both. The first call keeps the native id, the n-th is
// callID#n.
func (t *Translator) callLink(callID string) string {
	if n := t.st.CallUses[callID]; n > 1 {
		return universal.ReusedCallID(callID, n)
	}
	return ""
}

// link returns the call_id the call and its result carry.
func (tl *tool) link() string {
	if tl.Link != "" {
		return tl.Link
	}
	return tl.CallID
}

// user translates a user message: Pi's echo of the host's prompt (or a
// steering/follow-up message), or a prompt in a session file.
func (t *Translator) user(dst []universal.Event, in *input, msg jsonscan.Value, nativeID string) []universal.Event {
	if t.format == FormatSession && t.inTurn() {
		// In a session file every user message starts a turn. The turn
		// before was not answered (an answer ends it): where the agent
		// was at work in it (its last message called tools), the user
		// wrote while it worked, and it ends interrupted; a failed
		// message's ends in error.
		stop := t.st.Turn.LastStop
		dst = t.settle(dst, stop != "" && stop != "error", daemon, in.raw)
	}
	if !t.inTurn() {
		dst = t.startTurn(dst, daemon, in.raw)
	}
	f := fields(msg, "content", "synthetic", "attribution", "customType", "display", "details")
	parts, dst := t.parts(dst, in, f[0])
	if f[1].Exists() || f[2].Exists() || f[3].Exists() {
		// oh-my-pi: injected by the harness (synthetic, an auto-continue),
		// who initiated it (user or agent), and the custom message's
		// fields of a skill's prompt.
		var md jsonw.Object
		t.addValue(&md, "synthetic", f[1])
		t.addValue(&md, "attribution", f[2])
		t.addValue(&md, "customType", f[3])
		t.addValue(&md, "display", f[4])
		t.addValue(&md, "details", f[5])
		if len(parts) == 0 {
			parts = append(parts, universal.Text(""))
		}
		parts[0].Metadata = mergeMD(parts[0].Metadata, md.Bytes())
	}
	text := joinText(parts)
	// The echo answers the host's prompt (or queued message) with the same
	// text; the first echo of a turn otherwise answers the oldest pending
	// prompt, which Pi may have expanded (a template, a skill).
	tr := &t.st.Turn
	if i := indexOf(t.st.Prompts, text); i >= 0 {
		t.st.Prompts = remove(t.st.Prompts, i)
	} else if i := indexOf(t.st.Queued, text); i >= 0 {
		t.st.Queued = remove(t.st.Queued, i)
	} else if !tr.PromptSeen && len(t.st.Prompts) > 0 {
		t.st.Prompts = t.st.Prompts[1:]
	}
	tr.PromptSeen = true
	tr.Unfinished = true
	if t.format != FormatSession {
		universal.MarkEcho(parts) // a live echo; a session file is a record
	}
	dst = t.newItem(dst, universal.KindMessage, universal.RoleUser, nativeID, parts, in.raw)
	t.keepParts(parts)
	return dst
}

func joinText(parts []universal.Part) string {
	n := 0
	for i := range parts {
		if parts[i].Type == universal.PartText {
			if n > 0 {
				return concatText(parts)
			}
			n++
		}
	}
	for i := range parts {
		if parts[i].Type == universal.PartText {
			return parts[i].Text
		}
	}
	return ""
}

func concatText(parts []universal.Part) string {
	var b []byte
	for i := range parts {
		if parts[i].Type == universal.PartText {
			b = append(b, parts[i].Text...)
		}
	}
	return string(b)
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func remove(s []string, i int) []string {
	return append(s[:i:i], s[i+1:]...)
}

// parts maps message content (a string, or text and image blocks) to
// parts, in the translator's scratch memory: the caller emits them (the
// stream copies them) and gives the memory back (keepParts) before parts
// is called again.
func (t *Translator) parts(dst []universal.Event, in *input, c jsonscan.Value) ([]universal.Part, []universal.Event) {
	parts := t.msgParts[:0]
	if c.Type() == gjson.String {
		return append(parts, universal.Text(t.copyValue(c.Result()))), dst
	}
	i := 0
	c.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		switch b.Get("type").Str {
		case "text":
			parts = append(parts, t.text(b.Get("text")))
		case "image":
			parts = append(parts, t.image(b))
		default:
			dst = t.w.Unparsed(dst, fmt.Sprintf("%s: content[%d]", in.where(), i), fmt.Errorf("%w: content block %q", errUnknownType, b.Get("type").Str), in.raw)
		}
		i++
		return true
	})
	return parts, dst
}

// keepParts takes back the scratch memory parts returned, once the parts
// were emitted.
func (t *Translator) keepParts(parts []universal.Part) {
	clear(parts) // their strings are not kept
	t.msgParts = parts[:0]
}

// custom translates an extension's message (role custom; hookMessage in
// v2 session files).
func (t *Translator) custom(dst []universal.Event, in *input, msg jsonscan.Value, nativeID string) []universal.Event {
	f := fields(msg, "content", "customType", "display", "details", "attribution", "role")
	if f[4].Str() == "user" && f[5].Str() != "developer" {
		switch f[1].Str() {
		case "skill-prompt", "collab-prompt":
			// oh-my-pi: the prompt of a skill the user invoked (its
			// expanded text; what was typed in details.prompt), or one
			// a collaborator sent: the user's message of its turn, as
			// hosts of omp take it.
			return t.user(dst, in, msg, nativeID)
		}
	}
	parts, dst := t.parts(dst, in, f[0])
	var md jsonw.Object
	if f[5].Str() == "developer" {
		md.String("role", "developer")
	}
	t.addValue(&md, "customType", f[1])
	t.addValue(&md, "display", f[2])
	t.addValue(&md, "details", f[3])
	t.addValue(&md, "attribution", f[4]) // oh-my-pi
	if len(parts) == 0 {
		parts = append(parts, universal.Text(""))
	}
	parts[0].Metadata = mergeMD(parts[0].Metadata, md.Bytes())
	dst = t.newItem(dst, universal.KindSystem, universal.RoleSystem, nativeID, parts, in.raw)
	t.keepParts(parts)
	return dst
}

// systemText emits a system item with one text part (summaries).
func (t *Translator) systemText(dst []universal.Event, text string, md []byte, nativeID string, raw []byte) []universal.Event {
	p := withMetadata(universal.Text(t.copy(text)), md)
	return t.newItem(dst, universal.KindSystem, universal.RoleSystem, nativeID, []universal.Part{p}, raw)
}

// newItem emits a complete new item from a native payload.
func (t *Translator) newItem(dst []universal.Event, kind universal.Kind, role universal.Role, nativeID string, parts []universal.Part, raw []byte) []universal.Event {
	return t.w.Complete(dst, universal.Item{
		ItemID:       t.w.NewItemID(),
		NativeItemID: t.copy(nativeID),
		Kind:         kind,
		Role:         role,
		Content:      parts,
	}, agent, raw)
}

// withMetadata sets a part's metadata unless it is an empty object.
func withMetadata(p universal.Part, md []byte) universal.Part {
	if len(md) > 2 {
		p.Metadata = md
	}
	return p
}

// bash translates a bashExecution message: a shell command the user ran
// (!cmd, or the rpc bash command), whose output went into the context. By
// the user-command convention of package universal it is a tool_call item
// (role user, name bashExecution, arguments {"command"}, call_id its own
// item id: Pi gives the command none) and its tool_result (output, exit
// code and Pi's flags in metadata; failed when the exit code is not 0 or
// the command was cancelled).
func (t *Translator) bash(dst []universal.Event, msg jsonscan.Value, nativeID, name, arg string, raw []byte) []universal.Event {
	var args jsonw.Object
	args.String(arg, fields(msg, arg)[0].Str())
	return t.userCommand(dst, msg, nativeID, name, string(args.Bytes()), raw)
}

// userCommand emits a command the user ran, argText its arguments, msg
// its result {output, exitCode, cancelled, truncated, fullOutputPath,
// excludeFromContext, meta}: see bash.
func (t *Translator) userCommand(dst []universal.Event, msg jsonscan.Value, nativeID, name, argText string, raw []byte) []universal.Event {
	f := fields(msg, "output", "exitCode", "cancelled", "truncated", "fullOutputPath", "excludeFromContext", "meta")
	call := t.w.NewItemID()
	native := t.copy(nativeID)
	kind, input := t.describe(name, argText)
	dst = t.w.Complete(dst, universal.Item{
		ItemID: call, NativeItemID: native, Kind: universal.KindToolCall, Role: universal.RoleUser,
		Content: []universal.Part{{Type: universal.PartToolCall, Name: name, Arguments: argText, CallID: call, ToolKind: kind, ToolInput: input}},
	}, agent, raw)
	var md jsonw.Object
	failed := f[2].Result().Bool()
	if code := f[1].Result(); code.Type == gjson.Number {
		md.Int("exit_code", code.Int())
		failed = failed || code.Int() != 0
	}
	for i, k := range [...]string{"cancelled", "truncated", "fullOutputPath", "excludeFromContext"} {
		md.Raw(k, f[2+i].Raw())
	}
	if m := f[6]; m.IsObject() && m.Raw() != "{}" {
		t.addValue(&md, "meta", m) // oh-my-pi's output limits and truncation
	}
	status := universal.StatusCompleted
	if failed {
		status = universal.StatusFailed
	}
	p := withMetadata(universal.Part{Type: universal.PartToolResult, CallID: call, Output: t.copy(f[0].Str()), IsError: failed}, md.Bytes())
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: native, ParentID: call, Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{p}, Status: status,
	}, agent, raw)
}

// bashExecution is the tool name of a command the user ran: the name of
// Pi's record of it; pythonExecution is oh-my-pi's for Python the user ran.
const (
	bashExecution   = "bashExecution"
	pythonExecution = "pythonExecution"
)

// fileMention translates oh-my-pi's fileMention message: the files an
// @path in the prompt made it read into the context, for the prompt. It
// is part of the user's message, not a prompt of its own (it does not
// start a turn): a user message item with, for each file, a file_ref
// (action read; lineCount, byteSize and skippedReason in its metadata),
// its content as text and its image, if any.
func (t *Translator) fileMention(dst []universal.Event, msg jsonscan.Value, nativeID string, raw []byte) []universal.Event {
	var parts []universal.Part
	msg.Sub("files").Each(func(_ gjson.Result, file jsonscan.Value) bool {
		f := fields(file, "path", "content", "lineCount", "byteSize", "skippedReason", "image")
		var md jsonw.Object
		for i, k := range [...]string{"line_count", "byte_size", "skipped_reason"} {
			t.addValue(&md, k, f[2+i])
		}
		path := t.copy(universal.ResolvePath(t.st.Cwd, f[0].Str()))
		parts = append(parts, withMetadata(universal.Part{Type: universal.PartFileRef, Path: path, Action: universal.FileRead}, md.Bytes()))
		if c := f[1].Result(); c.Str != "" {
			parts = append(parts, t.text(c))
		}
		if img := f[5]; img.IsObject() {
			p := t.image(img) // a blob reference stays in its metadata
			if path != "" {
				p.Path = path
			}
			parts = append(parts, p)
		}
		return true
	})
	return t.newItem(dst, universal.KindMessage, universal.RoleUser, nativeID, parts, raw)
}

// callFacts are what a pi-ai AssistantMessage tells of its model call
// beside the model (pi-ai 0.62 on: responseId; 1.0 on: thinkingLevel,
// providerThinkingLevel; 1.4 on: durationMs): the Pi thinking level the
// agent loop asked for, the provider's own effort value it was sent as,
// the provider's id of the response, and the milliseconds from the
// request's start to the response's end (-1: not given).
type callFacts struct {
	effort, providerEffort, responseID string
	duration                           int64
}

// per reports whether the facts are the call's own (an id, a duration),
// so that its metadata is made for it and not shared.
func (c *callFacts) per() bool {
	return c != nil && (c.responseID != "" || c.duration >= 0)
}

// callMD is the metadata of an assistant message's call usage: the model
// and provider it names, and the model the provider says answered (pi-ai
// 0.87+ responseModel: a dated snapshot of an alias, a router's choice)
// as response_model when it is another; then the call's facts (see
// callFacts): reasoning_effort (thinkingLevel, as a session's thinking
// level is its reasoning_effort), provider_thinking_level, response_id
// and duration_ms, as Claude Code's call usage keeps its line's effort
// and duration. nil when it names none of these. Messages without an id
// or a duration name the same model and level through a session, so the
// last such metadata is kept and shared by the events that have the same
// (events are read-only for their consumers); a call's own is made for
// it.
func (t *Translator) callMD(model, provider, responseModel string, f *callFacts) []byte {
	if responseModel == model {
		responseModel = ""
	}
	var effort, providerEffort string
	if f != nil {
		effort, providerEffort = f.effort, f.providerEffort
	}
	// shared is what every call of the same model and level says.
	shared := func(o *jsonw.Object) *jsonw.Object {
		return o.OptString("model", model).OptString("provider", provider).OptString("response_model", responseModel).
			OptString("reasoning_effort", effort).OptString("provider_thinking_level", providerEffort)
	}
	if f.per() {
		var o jsonw.Object
		shared(&o).OptString("response_id", f.responseID)
		if f.duration >= 0 {
			o.Int("duration_ms", f.duration)
		}
		return o.Bytes()
	}
	if model == "" && provider == "" && responseModel == "" && effort == "" && providerEffort == "" {
		return nil
	}
	c := &t.call
	if c.md == nil || model != c.model || provider != c.provider || responseModel != c.responseModel || effort != c.effort || providerEffort != c.providerEffort {
		var o jsonw.Object
		// Full to capacity: an append to one event's metadata must not
		// write into the bytes another shares.
		b := shared(&o).Bytes()
		c.md = b[:len(b):len(b)]
		c.model, c.provider, c.responseModel = t.w.Copy(model), t.w.Copy(provider), t.w.Copy(responseModel)
		c.effort, c.providerEffort = t.w.Copy(effort), t.w.Copy(providerEffort)
	}
	return c.md
}

// usage emits the usage of one model call, with metadata md (nil: none).
// Pi's input, cacheRead and cacheWrite are disjoint; universal
// input_tokens counts all three. reasoning (oh-my-pi: reasoningTokens) is
// a part of output.
func (t *Translator) usage(dst []universal.Event, u jsonscan.Value, md []byte, raw []byte) []universal.Event {
	if !u.IsObject() {
		return dst
	}
	f := fields(u, "input", "cacheRead", "cacheWrite", "output", "reasoning", "totalTokens", "cost", "reasoningTokens")
	if !f[4].Exists() {
		// oh-my-pi names it reasoningTokens (its providers count it in
		// output too: completion tokens, Gemini's candidates plus
		// thoughts).
		f[4] = f[7]
	}
	// The event and the numbers it points to in one allocation.
	a := &struct {
		d    universal.UsageUpdated
		n    [7]int64
		cost float64
	}{d: universal.UsageUpdated{TurnID: t.w.Turn(), Scope: universal.ScopeCall, Metadata: md}}
	d := &a.d
	num := func(i int) *int64 {
		if f[i].Type() != gjson.Number {
			return nil
		}
		a.n[i] = f[i].Int()
		return &a.n[i]
	}
	in, cr, cw := num(0), num(1), num(2)
	if in != nil || cr != nil || cw != nil {
		sum := &a.n[6]
		for _, p := range [...]*int64{in, cr, cw} {
			if p != nil {
				*sum += *p
			}
		}
		d.Usage.InputTokens = sum
	}
	d.Usage.CachedInputTokens = cr
	d.Usage.CacheWriteTokens = cw
	d.Usage.OutputTokens = num(3)
	d.Usage.ReasoningTokens = num(4)
	d.Usage.TotalTokens = num(5)
	cost := f[6]
	if cost.IsObject() {
		cost = cost.Sub("total")
	}
	if cost.Type() == gjson.Number {
		a.cost = cost.Result().Num
		d.CostUSD = &a.cost
	}
	if zero(&d.Usage, d.CostUSD) {
		// Pi fills a usage of zeros when the provider reported none (a
		// failed or aborted request): nothing was reported.
		return dst
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, agent, d, raw)
}

func zero(u *universal.Usage, cost *float64) bool {
	for _, n := range [...]*int64{u.InputTokens, u.CachedInputTokens, u.CacheWriteTokens, u.OutputTokens, u.ReasoningTokens, u.TotalTokens} {
		if n != nil && *n != 0 {
			return false
		}
	}
	return cost == nil || *cost == 0
}

// fields returns the values of up to seventeen keys of a JSON object (the
// first occurrence of each), in one walk over its members: a Get per key
// walks them again for each.
func fields(obj jsonscan.Value, keys ...string) (out [17]jsonscan.Value) {
	obj.Members(func(k string, v jsonscan.Value) bool {
		for i, key := range keys {
			if k == key && !out[i].Exists() {
				out[i] = v
			}
		}
		return true
	})
	return out
}
