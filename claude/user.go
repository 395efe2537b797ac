package claude

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// user translates a user line: tool results, prompts (transcripts,
// replayed echoes, sub-agent prompts) and system-made messages.
func (t *Translator) user(dst events, r jsonscan.Value, scope string) events {
	msg := r.Sub("message")
	if !msg.IsObject() {
		return t.unparsed(dst, "message", errors.New("user line without a message object"))
	}
	if t.seen(r) {
		return dst
	}
	content := msg.Sub("content")
	if c := content.Result(); c.Type == gjson.String {
		return t.userContent(dst, r, scope, []universal.Part{universal.Text(t.w.Copy(c.Str))})
	}
	if !content.IsArray() {
		return t.unparsed(dst, "message.content", errors.New("content is neither a string nor an array"))
	}
	// The structured result on the line belongs to its tool_result when
	// the line has exactly one.
	results := 0
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		if b.Get("type").Str == "tool_result" {
			results++
		}
		return true
	})
	structured := jsonscan.Value{}
	if results == 1 {
		structured = r.Sub("tool_use_result")
		if !structured.Exists() {
			structured = r.Sub("toolUseResult")
		}
	}
	var parts []universal.Part
	hostContent := r.Sub("hostContent")
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		switch b.Get("type").Str {
		case "tool_result":
			if hostContent.Exists() {
				// What the host shows of this result instead (see
				// hostMeta).
				var o jsonw.Object
				hostMeta(&o, b.Get("tool_use_id").Str, "tool_use_id", "tool_result", jsonscan.Value{}, hostContent)
				t.rowMeta = o.Bytes()
			}
			dst = t.toolResult(dst, r, b, scope, structured, "")
			t.rowMeta = nil
		case "text":
			parts = append(parts, universal.Text(t.w.Copy(b.Get("text").Str)))
		case "image":
			parts = append(parts, anthropic.Image(b.Result(), t.w.Copy))
		default:
			parts = append(parts, anthropic.ValuePart(b))
		}
		return true
	})
	if results > 0 && t.transcript {
		if r.Get("toolEndsTurn").Bool() {
			dst = t.toolEndedTurn(dst, scope, content)
		} else if tn := t.s.Turn; tn != nil && len(tn.EndsAfter) > 0 && t.scopeParent(scope) == "" {
			dst = t.endAfterResults(dst)
		}
	}
	if len(parts) == 0 {
		return dst
	}
	return t.userContent(dst, r, scope, parts)
}

// toolEndedTurn ends a transcript's turn at the result of a tool that
// ends it: Claude Code marks such a result line toolEndsTurn, and no
// response follows it (2.1.29x and later: a sub-agent hands its report
// back with SubagentHandback, a workflow's agent with StructuredOutput).
// Only the file's own thread: a sub-agent's hand-back under its call in
// the main file ends nothing of the session's. Calls the same response
// made beside it whose results have not come yet (parallel calls, their
// results written after the hand-back's) end the turn when their results
// have come.
func (t *Translator) toolEndedTurn(dst events, scope string, content jsonscan.Value) events {
	tn := t.s.Turn
	if tn == nil || t.scopeParent(scope) != "" {
		return dst
	}
	var msgs []string
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		if tl := t.toolFor(b.Get("tool_use_id").Str); tl != nil && tl.Msg != "" && !slices.Contains(msgs, tl.Msg) {
			msgs = append(msgs, tl.Msg)
		}
		return true
	})
	tn.EndsAfter = tn.EndsAfter[:0]
	for id, tl := range t.s.Tools {
		if !tl.Result && slices.Contains(msgs, tl.Msg) {
			tn.EndsAfter = append(tn.EndsAfter, id)
		}
	}
	slices.Sort(tn.EndsAfter) // the map's order is not the checkpoint's
	return t.endAfterResults(dst)
}

// endAfterResults ends the turn a result marked toolEndsTurn finished
// once the results of the calls it waits for (EndsAfter) have come.
func (t *Translator) endAfterResults(dst events) events {
	tn := t.s.Turn
	tn.EndsAfter = slices.DeleteFunc(tn.EndsAfter, func(id string) bool {
		tl := t.toolFor(id)
		return tl == nil || tl.Result
	})
	if len(tn.EndsAfter) > 0 {
		return dst
	}
	tn.EndsAfter = nil
	dst = t.closeMsgs(dst, topMsg, idle)
	tn.Finished = true
	if t.done() {
		dst = t.endTranscriptTurn(dst, universal.SourceAgent)
	}
	return dst
}

// textOf joins the text parts.
func textOf(parts []universal.Part) string {
	var b strings.Builder
	for i := range parts {
		if parts[i].Type == universal.PartText {
			b.WriteString(parts[i].Text)
		}
	}
	return b.String()
}

const interruptMarker = "[Request interrupted by user"

// userContent places the non-result content of a user line.
func (t *Translator) userContent(dst events, r jsonscan.Value, scope string, parts []universal.Part) events {
	text := textOf(parts)
	uuid := t.w.Copy(r.Get("uuid").Str)
	switch {
	case strings.HasPrefix(text, interruptMarker):
		dst = t.ensureTurn(dst, scope)
		own := t.ownThread(scope)
		if own && t.s.Turn != nil {
			t.s.Turn.Interrupted = true
		}
		dst = t.w.Complete(dst, universal.Item{
			ItemID: t.w.NewItemID(), NativeItemID: uuid, ParentID: t.scopeParent(scope), Kind: universal.KindStatus,
			Content: []universal.Part{{Type: universal.PartStatus, Label: "interrupted", Detail: text}},
		}, universal.SourceAgent, t.raw)
		if t.transcript && own {
			// The record shows the user stopped the turn.
			dst = t.endTranscriptTurn(dst, universal.SourceAgent)
		}
		return dst
	case strings.HasPrefix(text, shellInputTag):
		return t.shellInput(dst, scope, uuid, text)
	case strings.HasPrefix(text, shellOutputTag) && t.s.Shell != nil:
		return t.shellOutput(dst, scope, uuid, text)
	case systemMade(r, text):
		if strings.HasPrefix(text, "<task-notification>") {
			// A background sub-agent reported back; the agent answers it.
			dst = t.backgroundDone(dst, tagText(text, "tool-use-id"))
		}
		if !t.transcript {
			// In a transcript a notice between turns stays outside them.
			dst = t.ensureTurn(dst, scope)
		}
		originMeta(parts, r)
		return t.w.Complete(dst, universal.Item{
			ItemID: t.w.NewItemID(), NativeItemID: uuid, ParentID: t.scopeParent(scope),
			Kind: universal.KindSystem, Role: universal.RoleSystem, Content: parts,
		}, universal.SourceAgent, t.raw)
	case scope != "":
		// A sub-agent's prompt, written by the parent agent.
		dst = t.ensureTurn(dst, scope)
		return t.userMessage(dst, uuid, t.scopeParent(scope), parts, universal.SourceAgent, t.raw)
	case r.Get("isReplay").Bool():
		// --replay-user-messages echoes a stdin message: show it once.
		for _, e := range t.s.Echoed {
			if e == text {
				return dst
			}
		}
	case t.transcript:
		// A prompt: it ends the turn before and starts its own.
		dst = t.endTranscriptTurn(dst, universal.SourceDaemon)
		dst = t.rewound(dst, r)
		// The mode the prompt names: a change is reported before its turn.
		dst = t.permissionMode(dst, r.Get("permissionMode").Str)
		dst = t.startTurn(dst, universal.SourceAgent, t.turnMode(), false)
		t.itemFrom = len(dst) // the prompt's item comes next
	}
	dst = t.ensureTurn(dst, scope)
	t.dropQueued(text)
	t.s.Echoed = append(t.s.Echoed, t.w.Copy(text))
	if !t.transcript {
		// A live echo of the host's prompt; a transcript is a record.
		universal.MarkEcho(parts)
	}
	return t.userMessage(dst, uuid, "", parts, universal.SourceAgent, t.raw)
}

// turnMode returns the metadata of the turn a transcript's prompt starts:
// {"permission_mode": …}, the latest mode known (the prompt's
// permissionMode, read before), as a stream's init gives its turn; nil
// when none is known.
func (t *Translator) turnMode() []byte {
	if t.s.Mode == "" {
		return nil
	}
	var o jsonw.Object
	return o.String("permission_mode", t.s.Mode).Bytes()
}

// The tags of a shell command the user ran themselves (! in Claude Code):
// a user entry <bash-input>cmd</bash-input>, then one with
// <bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>.
const (
	shellInputTag  = "<bash-input>"
	shellOutputTag = "<bash-stdout>"
	// shellTool names the command's tool call: the name of its record.
	shellTool = "bash-input"
)

// shellInput translates the command of a shell command the user ran, by
// the user-command convention of package universal: a tool_call item
// (role user, name bash-input, arguments {"command"}, call_id the entry's
// uuid, else the item's id) whose result the next <bash-stdout> entry
// gives. It is not a prompt: it starts no turn.
func (t *Translator) shellInput(dst events, scope, uuid, text string) events {
	if !t.transcript {
		dst = t.ensureTurn(dst, scope)
	}
	id := t.w.NewItemID()
	callID := first(uuid, id)
	t.s.Shell = &shell{Item: id, CallID: callID}
	var args jsonw.Object
	args.String("command", tagText(text, "bash-input"))
	return t.w.Complete(dst, universal.Item{
		ItemID: id, NativeItemID: uuid, ParentID: t.scopeParent(scope), Kind: universal.KindToolCall, Role: universal.RoleUser,
		Content: []universal.Part{t.toolPart(shellTool, string(args.Bytes()), callID, nil)},
	}, universal.SourceAgent, t.raw)
}

// shellOutput translates the output of the last shell command the user
// ran into its tool_result item: stdout, then stderr. Newer versions add
// the command's exit code (<bash-exit-code>N</bash-exit-code>, after
// stderr: a tag the Agent SDK 0.3.33x lists among the CLI's own), which
// goes to "exit_code" in the part's metadata, as a Bash result's does, and
// fails the result when it is not 0; older ones record none, and their
// result never fails.
func (t *Translator) shellOutput(dst events, scope, uuid, text string) events {
	sh := t.s.Shell
	t.s.Shell = nil
	if !t.transcript {
		dst = t.ensureTurn(dst, scope)
	}
	out, stderr := tagText(text, "bash-stdout"), tagText(text, "bash-stderr")
	if stderr != "" {
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		out += stderr
	}
	rp := universal.Part{Type: universal.PartToolResult, CallID: sh.CallID, Output: t.w.Copy(out)}
	status := universal.StatusCompleted
	if code, err := strconv.Atoi(strings.TrimSpace(tagText(text, "bash-exit-code"))); err == nil {
		var o jsonw.Object
		rp.Metadata = o.Int("exit_code", int64(code)).Bytes()
		if code != 0 {
			rp.IsError, status = true, universal.StatusFailed
		}
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: uuid, ParentID: sh.Item, Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: []universal.Part{rp}, Status: status,
	}, universal.SourceAgent, t.raw)
}

// serverResult reads the content of a server tool's result block as the
// Messages API gives it. An error ({type: "…_tool_result_error",
// error_code, error_message?}) fails the result, its message (else its
// code) the output when there is none. A code execution's result
// ({type: "code_execution_result" | "bash_code_execution_result" |
// "encrypted_code_execution_result", stdout, stderr, return_code}) is a
// command's: its output stdout then stderr, its exit code, failed when not
// 0. Any other content leaves output as it is.
func serverResult(c jsonscan.Value, output string, cp anthropic.Copier) (out, errCode string, exit int, hasExit, failed bool) {
	if !c.IsObject() {
		return output, "", 0, false, false
	}
	switch typ := c.Get("type").Str; {
	case strings.HasSuffix(typ, "_tool_result_error"):
		errCode = cp(c.Get("error_code").Str)
		if output == "" {
			output = cp(first(c.Get("error_message").Str, errCode))
		}
		return output, errCode, 0, false, true
	case typ == "code_execution_result" || typ == "bash_code_execution_result" || typ == "encrypted_code_execution_result":
		rc := c.Get("return_code")
		if rc.Type != gjson.Number {
			return output, "", 0, false, false
		}
		if output == "" {
			// encrypted_code_execution_result's stdout is not readable.
			stdout, stderr := c.Get("stdout").Str, c.Get("stderr").Str
			switch {
			case stdout != "" && stderr != "":
				output = cp(stdout + "\n" + stderr)
			default:
				output = cp(stdout + stderr)
			}
		}
		code := int(rc.Int())
		return output, "", code, true, code != 0
	}
	return output, "", 0, false, false
}

// tagText returns the text between <tag> and </tag> in s, "" if absent.
func tagText(s, tag string) string {
	_, rest, ok := strings.Cut(s, "<"+tag+">")
	if !ok {
		return ""
	}
	in, _, _ := strings.Cut(rest, "</"+tag+">")
	return in
}

// originMeta gives the first part of a user line that is not a person's
// prompt the line's origin (the Agent SDK's SDKMessageOrigin: who sent it,
// {kind: "peer", from, name?, body?, …}, "channel" {server},
// "task-notification" {subkind?, …}, "coordinator", …) as its metadata
// origin, whole, and its sender (from) as author, the key Codex's messages
// between agents use: the text alone does not say another session or
// agent wrote it.
func originMeta(parts []universal.Part, r jsonscan.Value) {
	o := r.Get("origin")
	if len(parts) == 0 || !o.IsObject() || o.Get("kind").Str == "human" {
		return
	}
	var m jsonw.Object
	if from := o.Get("from"); from.Type == gjson.String {
		m.String("author", from.Str)
	}
	add := m.Raw("origin", o.Raw).Bytes()
	if len(parts[0].Metadata) == 0 {
		parts[0].Metadata = add
		return
	}
	// After the part's own metadata, not in its place.
	parts[0].Metadata = []byte(withMembers(string(parts[0].Metadata), string(add[1:len(add)-1])))
}

// systemMade reports user lines the CLI wrote itself: hidden context
// (isMeta; stream-json's is_meta), compaction summaries
// (isCompactSummary, is_compact_summary), background-task notifications, the
// output of local slash commands and ! shell commands. An origin names
// who made the line: {kind:"human"} (2.1.2xx transcripts, with
// promptSource "typed") is a person's prompt, any other kind
// (task-notification, …) the CLI's own.
func systemMade(r jsonscan.Value, text string) bool {
	// One walk finds the flags (the first of duplicate members counts, as
	// in a lookup); most user lines have none of them.
	var origin, meta, synthetic, compact, source, metaSnake, compactSnake jsonscan.Value
	r.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "origin":
			jsonscan.KeepFirst(&origin, v)
		case "isMeta":
			jsonscan.KeepFirst(&meta, v)
		case "isSynthetic":
			jsonscan.KeepFirst(&synthetic, v)
		case "isCompactSummary":
			jsonscan.KeepFirst(&compact, v)
		case "promptSource":
			jsonscan.KeepFirst(&source, v)
		case "is_meta":
			// Stream-json's user message (the SDK's schema, 2.1.2xx)
			// spells two of the flags in snake_case.
			jsonscan.KeepFirst(&metaSnake, v)
		case "is_compact_summary":
			jsonscan.KeepFirst(&compactSnake, v)
		}
		return true
	})
	if kind := origin.Get("kind").Str; kind != "" && kind != "human" {
		return true
	}
	for _, flag := range [...]jsonscan.Value{meta, synthetic, compact, metaSnake, compactSnake} {
		if flag.Exists() && flag.Result().Bool() {
			return true
		}
	}
	if source.Str() == "system" {
		return true
	}
	for _, p := range []string{"<task-notification>", "<local-command-stdout>", "<local-command-stderr>", "<bash-stdout>", "<bash-stderr>"} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

func (t *Translator) userMessage(dst events, nativeID, parent string, parts []universal.Part, src universal.Source, raw []byte) events {
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: nativeID, ParentID: parent,
		Kind: universal.KindMessage, Role: universal.RoleUser, Content: parts,
	}, src, raw)
}

// toolResult translates one tool_result block (or a server tool's result
// block). structured is the line's tool_use_result when it belongs to
// this block; parent overrides the result's parent item.
func (t *Translator) toolResult(dst events, r, b jsonscan.Value, scope string, structured jsonscan.Value, parent string) events {
	call := b.Get("tool_use_id").Str
	tl := t.toolFor(call)
	if tl != nil && tl.Result {
		return dst // the same result again
	}
	dst = t.ensureTurn(dst, scope)
	if t.s.Turn != nil && t.scopeParent(scope) == "" {
		t.s.Turn.Finished = false
	}
	if parent == "" && tl != nil {
		parent = tl.Msg
	}
	if parent == "" {
		// The call is not in the input (a stream picked up late): the
		// result goes under an empty message of the response that made it.
		dst, parent = t.orphanParent(dst, scope)
	}
	if tl != nil {
		tl.Result = true
		if !tl.Done && t.w.IsOpen(tl.ItemID) {
			dst = t.closeTool(dst, tl, universal.StatusCompleted, universal.SourceDaemon)
		}
	}
	isErr := b.Get("is_error").Bool()
	if !isErr && structured.IsObject() && structured.Get("success").Type == gjson.False &&
		tl != nil && !strings.HasPrefix(tl.Name, "mcp__") {
		// A tool of the CLI's whose structured result says it did not
		// succeed ({success: false, message|error}: the agent-team
		// tools TeamDelete, Teammate and SendMessage, TaskUpdate,
		// Skill) failed, though the block sets no is_error. (An MCP
		// tool's result is the server's data: its isError is is_error.
		// A call not in the input may be either: its result stands.)
		isErr = true
	}
	output, extra := t.toolResultContent(b.Sub("content"))
	decision, kind := resultDecision(r, call)
	name := ""
	var toolKind universal.ToolKind
	var paths []string
	if tl != nil {
		name, toolKind, paths = tl.Name, tl.Kind, tl.Paths
	}
	for i := range extra {
		// An image the tool returned (a Read of a picture) is the file
		// the call names.
		if extra[i].Type == universal.PartImage && extra[i].Path == "" && len(paths) == 1 {
			extra[i].Path = paths[0]
		}
	}
	exitCode, hasCode := -1, false
	if toolKind == universal.ToolExecute {
		exitCode, hasCode = commandExit(structured, output, isErr)
		if hasCode && exitCode != 0 || structured.Get("interrupted").Bool() {
			// A command that failed, was interrupted or timed out.
			isErr = true
		}
	}
	var errCode string
	if b.Get("type").Str != "tool_result" {
		// A server tool's result (web search, web fetch, code execution,
		// tool search) sets no is_error: its content says how it went.
		var code int
		var ran, failed bool
		output, errCode, code, ran, failed = serverResult(b.Sub("content"), output, t.w.Copy)
		if ran {
			exitCode, hasCode = code, true
		}
		isErr = isErr || failed
	}

	var o jsonw.Object
	if hasCode || decision.Raw != "" {
		o.Grow(len(decision.Raw) + len(kind) + 64) // the usual members in one allocation
	}
	if hasCode {
		o.Int("exit_code", int64(exitCode))
	}
	o.OptString("error_code", errCode)
	o.Raw("permission_decision", decision.Raw)
	o.OptString("non_execution_kind", kind)
	mcpStructured(&o, name, structured)
	if p := structured.Get("persistedOutputPath"); p.Type == gjson.String {
		o.Bool("truncated", true).String("persisted_output_path", p.Str).Raw("persisted_output_size", structured.Get("persistedOutputSize").Raw)
	} else if p, ok := persistedPath(output); ok {
		// 2.1.1x names the file only in the output it gives the model.
		o.Bool("truncated", true).String("persisted_output_path", p)
	} else if n, ok := truncatedLines(output); ok && toolKind == universal.ToolExecute {
		// 1.0.x–2.0.x cut a long command output and said so at its end.
		o.Bool("truncated", true).Int("truncated_lines", n)
	}
	if bt := b.Get("type").Str; bt != "tool_result" {
		o.String("block_type", bt)
	}
	if len(t.rowMeta) > 2 {
		o.RawMembers(string(t.rowMeta[1 : len(t.rowMeta)-1]))
	}
	if tl != nil {
		o.Raw("sub_agent_error", tl.SubErr)
	}
	rp := universal.Part{Type: universal.PartToolResult, CallID: t.callLink(call), Output: output, IsError: isErr}
	if o.Len() > 0 {
		rp.Metadata = o.Bytes()
	}
	// The permission decision came before the tool ran.
	dst = t.decided(dst, call, name, decision, kind, output)
	if isErr && !decision.Exists() && kind == "" && tl != nil && !tl.Question {
		if reason, ok := cliRefusal(output); ok {
			// A call the CLI's permission check refused without asking
			// anyone: one it would have asked about, in a context that
			// cannot ask (print mode without a permission tool, a
			// background sub-agent) or in dontAsk mode, or one a deny
			// rule forbids. Only the result says so in 1.0.5x
			// stream-json (no permission_denials) and in transcripts
			// without permissionDecision or tool_result_meta.
			var md jsonw.Object
			md.String("source", "tool_result").String("message", output).OptString("decision_reason", reason)
			dst = t.resolvePerm(dst, call, name, false, md.Bytes(), universal.SourceAgent, t.raw)
		}
	}
	if p := t.s.Perms[call]; p != nil && !p.Done && !decision.Exists() && !isErr && (tl == nil || !tl.Question) && name != "ExitPlanMode" {
		// A request the input shows no answer to (stream-json holds
		// the CLI's side alone, and before 2.1.330 a result records no
		// decision) was approved: the call ran and succeeded. (A plan's
		// approval is read from its result below, with its message.)
		dst = t.resolvePerm(dst, call, name, true, []byte(`{"source":"tool_result","inferred":true}`), universal.SourceAgent, t.raw)
	}
	// So did the answer to a question and the approval of a plan.
	switch {
	case tl == nil:
	case tl.Question && !tl.QDone:
		answers := structured.Get("answers")
		dst = t.resolveQuestion(dst, tl, call, answers, structured.Get("questions"), output, isErr, universal.SourceAgent, t.raw)
	case name == "ExitPlanMode":
		if p := t.s.Perms[call]; p == nil || !p.Done {
			var md jsonw.Object
			md.String("source", "tool_result").String("message", output)
			dst = t.resolvePerm(dst, call, name, !isErr, md.Bytes(), universal.SourceAgent, t.raw)
		}
	case isAgentTool(name):
		if a := structured.Get("agentId").Str; a != "" {
			t.learnAgent(a, call)
		}
		if structured.Get("isAsync").Bool() || structured.Get("status").Str == "async_launched" {
			tl.Async = true
			if tn := t.s.Turn; tn != nil && tl.Scope == "" {
				tn.Background = append(tn.Background, t.w.Copy(call))
			}
		} else {
			// The sub-agent handed back: its messages are complete, and
			// so is its task.
			dst = t.closeMsgs(dst, inScope(call), nil)
			dst = t.handedBack(dst, call, isErr)
		}
	}
	status := universal.StatusCompleted
	if isErr {
		status = universal.StatusFailed
	}
	content := append(append(t.itemParts(len(extra)+2), rp), extra...)
	if !isErr {
		if fr, ok := fileRef(structured, name, t.w.Copy); ok {
			content = append(content, fr)
		} else {
			content = append(content, callFileRefs(name, toolKind, paths)...)
		}
	}
	if structured.Exists() {
		content = append(content, anthropic.ValuePart(structured))
	}
	dst = t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), ParentID: parent, Kind: universal.KindToolResult, Role: universal.RoleTool,
		Content: content, Status: status,
	}, universal.SourceAgent, t.raw)
	return dst
}

// mcpStructured puts an MCP tool's structured content, which the
// structured result (tool_use_result {content, structuredContent}) holds,
// in the result part's metadata as "structured_content", as the Codex
// translator does an MCP result's.
func mcpStructured(o *jsonw.Object, name string, structured jsonscan.Value) {
	if !strings.HasPrefix(name, "mcp__") || !structured.IsObject() {
		return
	}
	if sc := structured.Get("structuredContent"); sc.Exists() && sc.Type != gjson.Null {
		o.Raw("structured_content", sc.Raw)
	}
}

// orphanParent returns the parent of a tool result whose call the input
// never showed: an empty assistant message (synthetic), standing for the
// response that made the call, one per line and scope.
func (t *Translator) orphanParent(dst events, scope string) (events, string) {
	if t.orphanMsg != "" && t.orphanScope == scope {
		return dst, t.orphanMsg
	}
	id := t.w.NewItemID()
	dst = t.w.Complete(dst, universal.Item{
		ItemID: id, ParentID: t.scopeParent(scope), Kind: universal.KindMessage, Role: universal.RoleAssistant,
	}, universal.SourceDaemon, nil)
	t.orphanMsg, t.orphanScope = id, t.w.Copy(scope)
	return dst, id
}

func isAgentTool(name string) bool { return name == "Agent" || name == "Task" }

// commandExit returns the exit code of a shell command's result: the
// structured result's exit code when it has one, else the "Exit code N"
// line Claude Code starts a failed command's output with (the structured
// result of a failure is the output as a string, after "Error: ").
func commandExit(structured jsonscan.Value, output string, isErr bool) (int, bool) {
	for _, k := range []string{"exitCode", "exit_code", "returnCode"} {
		if c := structured.Get(k); c.Type == gjson.Number {
			return int(c.Int()), true
		}
	}
	if !isErr {
		return 0, false
	}
	for _, s := range []string{output, structured.Result().Str} {
		s = strings.TrimPrefix(s, "Error: ")
		rest, ok := strings.CutPrefix(s, "Exit code ")
		if !ok {
			continue
		}
		n := 0
		digits := 0
		for digits < len(rest) && digits < 4 && rest[digits] >= '0' && rest[digits] <= '9' {
			n = n*10 + int(rest[digits]-'0')
			digits++
		}
		if digits > 0 && (digits == len(rest) || rest[digits] == '\n' || rest[digits] == ' ') {
			return n, true
		}
	}
	return 0, false
}

// callFileRefs returns the file_ref parts of a read or an edit whose
// result records no file (a stream without structured results, an image
// read): the files the call names.
func callFileRefs(name string, kind universal.ToolKind, paths []string) []universal.Part {
	var action universal.FileAction
	switch {
	case kind == universal.ToolRead:
		action = universal.FileRead
	case kind == universal.ToolEdit && name == "Write":
		action = universal.FileWrite
	case kind == universal.ToolEdit:
		action = universal.FilePatch
	default:
		return nil
	}
	out := make([]universal.Part, 0, len(paths))
	for _, p := range paths {
		out = append(out, universal.Part{Type: universal.PartFileRef, Path: p, Action: action})
	}
	return out
}

// resultDecision returns the permission decision recorded with a tool
// result: tool_result_meta[] in stream-json, permissionDecision in
// transcripts; and the non-execution kind of a refused call.
func resultDecision(r jsonscan.Value, call string) (decision gjson.Result, kind string) {
	if !r.Exists() {
		return gjson.Result{}, ""
	}
	found := false
	r.Sub("tool_result_meta").Each(func(_ gjson.Result, m jsonscan.Value) bool {
		if m.Get("id").Str == call {
			decision, kind = m.Get("permission_decision"), m.Get("non_execution_kind").Str
			found = true
			return false
		}
		return true
	})
	if found {
		// 2.1.2xx record the kind alone, without the decision.
		return decision, kind
	}
	return r.Get("permissionDecision"), r.Get("toolDenialKind").Str
}

// cliRefusal reports the CLI's own text for a call its permission check
// refused, and the kind of the decision's reason as the CLI names it
// (decisionReason.type; "" for the 1.0.x text, which names none):
//
//	Claude requested permissions to use Bash (…), but you haven't granted it yet.   1.0.x: nobody could be asked
//	Permission to use Write has been auto-denied (prompts unavailable).             asyncAgent: a background sub-agent
//	Permission to use Bash has been auto-denied in dontAsk mode.                    mode: dontAsk
//	Permission to use Bash has been denied.                                         rule: a deny rule
//
// (the messages of the permission check in Claude Code's cli.js, 2.1.x, as
// public analyses of it quote them; the first two seen in real 2.1.29 and
// 2.1.34 sub-agent transcripts).
func cliRefusal(output string) (string, bool) {
	if strings.HasPrefix(output, "Claude requested permissions to ") &&
		strings.HasSuffix(output, ", but you haven't granted it yet.") {
		return "", true
	}
	rest, ok := strings.CutPrefix(output, "Permission to use ")
	if !ok {
		return "", false
	}
	for _, r := range [...]struct{ suffix, reason string }{
		{" has been auto-denied (prompts unavailable).", "asyncAgent"},
		{" has been auto-denied in dontAsk mode.", "mode"},
		{" has been denied.", "rule"},
	} {
		if tool, ok := strings.CutSuffix(rest, r.suffix); ok && tool != "" && !strings.ContainsAny(tool, " \n") {
			return r.reason, true
		}
	}
	return "", false
}

// toolResultContent is anthropic.ToolResult read through the message's
// index (anthropic.ToolResult takes a gjson.Result and scans each block
// per field): a string is the output, copied once; the text blocks of an
// array are joined into the output, image blocks become image parts and
// any other block a json part.
func (t *Translator) toolResultContent(c jsonscan.Value) (string, []universal.Part) {
	switch {
	case c.Type() == gjson.String:
		return t.w.CopyValue(c.Result()), nil
	case !c.IsArray():
		return anthropic.ToolResult(c.Result(), t.w.Copy) // a single block, or none
	}
	var b strings.Builder
	var extra []universal.Part
	n := 0
	c.Each(func(_ gjson.Result, blk jsonscan.Value) bool {
		if blk.Type() == gjson.String { // a bare string in the array
			if n > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(blk.Str())
			n++
			return true
		}
		switch blk.Get("type").Str {
		case "text":
			if n > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(blk.Get("text").Str)
			n++
		case "image":
			extra = append(extra, anthropic.Image(blk.Result(), t.w.Copy))
		default:
			extra = append(extra, anthropic.ValuePart(blk))
		}
		return true
	})
	if b.Len() == 0 {
		return "", extra
	}
	return t.w.Copy(b.String()), extra
}

// fileRef returns the file_ref part a tool's structured result implies:
// Write creates or overwrites (write), Edit and friends patch (with the
// unified diff of structuredPatch), Read reads.
func fileRef(s jsonscan.Value, toolName string, cp anthropic.Copier) (universal.Part, bool) {
	if !s.IsObject() {
		return universal.Part{}, false
	}
	p := universal.Part{Type: universal.PartFileRef}
	path := s.Get("filePath").Str
	patch := s.Sub("structuredPatch")
	switch typ := s.Get("type").Str; {
	case path == "" && s.Get("file.filePath").Type == gjson.String:
		path, p.Action = s.Get("file.filePath").Str, universal.FileRead
	case path == "":
		return universal.Part{}, false
	case typ == "create" || toolName == "Write":
		p.Action = universal.FileWrite
	case patch.IsArray() || s.Get("oldString").Exists():
		p.Action = universal.FilePatch
	default:
		return universal.Part{}, false
	}
	p.Path = cp(path)
	if patch.IsArray() {
		p.Diff = cp(unifiedDiff(path, patch))
	}
	return p, true
}

// unifiedDiff renders structuredPatch hunks ({oldStart, oldLines,
// newStart, newLines, lines}) as a unified diff; "" when there are none.
func unifiedDiff(path string, hunks jsonscan.Value) string {
	var b []byte
	hunks.Each(func(_ gjson.Result, h jsonscan.Value) bool {
		if len(b) == 0 {
			b = append(b, "--- "...)
			b = append(b, path...)
			b = append(b, "\n+++ "...)
			b = append(b, path...)
			b = append(b, '\n')
		}
		b = append(b, "@@ -"...)
		b = strconv.AppendInt(b, h.Get("oldStart").Int(), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, h.Get("oldLines").Int(), 10)
		b = append(b, " +"...)
		b = strconv.AppendInt(b, h.Get("newStart").Int(), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, h.Get("newLines").Int(), 10)
		b = append(b, " @@\n"...)
		h.Sub("lines").Each(func(_ gjson.Result, l jsonscan.Value) bool {
			b = append(b, l.Str()...)
			b = append(b, '\n')
			return true
		})
		return true
	})
	return string(b)
}

// queuedCommand translates a transcript's queued_command attachment: what
// reached the model while it was working, instead of as a user entry of
// its own. A prompt the user typed meanwhile (commandMode "prompt") is a
// user message of the running turn, which goes on with it; a background
// task's notification ("task-notification") is what the same text is as a
// user entry: a system item, and the task done.
func (t *Translator) queuedCommand(dst events, r, a jsonscan.Value) events {
	p := a.Sub("prompt")
	if p.Type() != gjson.String {
		return t.unparsed(dst, "attachment.prompt", errors.New("queued_command without a prompt"))
	}
	scope := t.lineScope(r)
	if t.orphan(scope) {
		return dst // documented: Ignored on purpose
	}
	text := t.w.Copy(p.Str())
	if text == "" {
		return dst
	}
	uuid := t.w.Copy(r.Get("uuid").Str)
	dst = t.ensureTurn(dst, scope)
	parts := []universal.Part{universal.Text(text)}
	if a.Get("commandMode").Str == "task-notification" || strings.HasPrefix(text, "<task-notification>") {
		dst = t.backgroundDone(dst, tagText(text, "tool-use-id"))
		return t.w.Complete(dst, universal.Item{
			ItemID: t.w.NewItemID(), NativeItemID: uuid, ParentID: t.scopeParent(scope),
			Kind: universal.KindSystem, Role: universal.RoleSystem, Content: parts,
		}, universal.SourceAgent, t.raw)
	}
	if t.s.Turn != nil && scope == "" {
		t.s.Turn.Finished = false
	}
	return t.userMessage(dst, uuid, t.scopeParent(scope), parts, universal.SourceAgent, t.raw)
}

// persistedPath returns the file a tool output too large for the context
// was saved to, as the output the model got names it: "<persisted-output>\n
// Output too large (106.3KB). Full output saved to: PATH\n\nPreview …"
// (Claude Code 2.1.x; 2.1.1xx and later also record the path in the
// structured result as persistedOutputPath).
func persistedPath(output string) (string, bool) {
	rest, ok := strings.CutPrefix(output, "<persisted-output>\n")
	if !ok || !strings.HasSuffix(output, "</persisted-output>") {
		return "", false
	}
	line, _, _ := strings.Cut(rest, "\n")
	_, p, ok := strings.Cut(line, "Full output saved to: ")
	if !ok || p == "" {
		return "", false
	}
	return p, true
}

// truncatedLines returns the number of lines Claude Code 1.0.x and 2.0.x
// cut from a long command output: it keeps the first 30,000 characters and
// ends the output with "\n\n... [N lines truncated] ...".
func truncatedLines(output string) (int64, bool) {
	rest, ok := strings.CutSuffix(output, " lines truncated] ...")
	if !ok {
		return 0, false
	}
	i := strings.LastIndex(rest, "\n\n... [")
	if i < 0 {
		return 0, false
	}
	digits := rest[i+len("\n\n... ["):]
	if len(digits) == 0 || len(digits) > 12 {
		return 0, false
	}
	n := int64(0)
	for j := 0; j < len(digits); j++ {
		if digits[j] < '0' || digits[j] > '9' {
			return 0, false
		}
		n = n*10 + int64(digits[j]-'0')
	}
	return n, true
}
