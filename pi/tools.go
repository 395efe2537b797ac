package pi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// tools reads the calls of Pi's built-in tools (read, bash, edit, write,
// grep, find, ls), of the tools of its bundled example extensions
// (subagent, todo), and of the command a user ran (bashExecution, and
// oh-my-pi's pythonExecution, whose code is no shell command) into
// the universal tool vocabulary. Other tools (extensions, MCP) are
// ToolOther.
var tools = universal.ToolTable{
	"bash":          {Kind: universal.ToolExecute, Command: "command"},
	bashExecution:   {Kind: universal.ToolExecute, Command: "command"},
	pythonExecution: {Kind: universal.ToolExecute},
	"read":          {Kind: universal.ToolRead, Paths: "path|file_path"},
	"edit":          {Kind: universal.ToolEdit, Paths: "path|file_path"},
	"write":         {Kind: universal.ToolEdit, Paths: "path|file_path"},
	"grep":          {Kind: universal.ToolSearch, Query: "pattern", Paths: "path"},
	"find":          {Kind: universal.ToolSearch, Query: "pattern", Paths: "path"},
	"ls":            {Kind: universal.ToolSearch, Paths: "path"},
	subagentTool:    {Kind: universal.ToolTask, Prompt: "task|tasks.0.task|chain.0.task", Agent: "agent|tasks.0.agent|chain.0.agent"},
	"todo":          {Kind: universal.ToolThink},
	"web_search":    {Kind: universal.ToolSearch, Query: "query"},
	"web_fetch":     {Kind: universal.ToolFetch, URL: "url"},
	"fetch":         {Kind: universal.ToolFetch, URL: "url"},
	"fetch_content": {Kind: universal.ToolFetch, URL: "url"},
	// oh-my-pi's own tools (packages/coding-agent/src/tools, task/types.ts).
	"python":     {Kind: universal.ToolExecute},
	"ssh":        {Kind: universal.ToolExecute, Command: "command"},
	"ast_grep":   {Kind: universal.ToolSearch, Query: "pat", Paths: "path"},
	"ast_edit":   {Kind: universal.ToolEdit, Paths: "path"},
	"notebook":   {Kind: universal.ToolEdit, Paths: "notebook_path"},
	"todo_write": {Kind: universal.ToolThink},
	"task":       {Kind: universal.ToolTask, Prompt: "tasks.0.assignment", Agent: "agent"},
}

// describe returns the tool kind and input of a call; paths resolve
// against the session's working directory when it is known.
func (t *Translator) describe(name, args string) (universal.ToolKind, *universal.ToolInput) {
	return tools.Describe(name, args, t.st.Cwd)
}

// toolEntry returns the tool entry of a tool_execution_* event, creating
// the tool_call item when the call was never seen in a message (a stream
// picked up late).
func (t *Translator) toolEntry(dst []universal.Event, in *input) (*tool, []universal.Event) {
	callID := in.get("toolCallId").Str
	tl := t.tool(callID)
	if tl != nil && tl.Call != "" {
		return tl, dst
	}
	dst = t.beforeWork(dst, in.raw)
	name := in.get("toolName").Str
	if tl == nil {
		tl = t.addTool(callID, name, "", "")
	}
	var msg string
	msg, dst = t.orphanParent(dst, in.raw)
	tl.Msg = msg
	tl.Call = t.w.NewItemID()
	it := t.toolCallItem(tl.Call, msg, callID, tl.Link, name, t.copyJSON(in.sub("args")))
	if name == "" {
		it.Content[0].ToolKind, it.Content[0].ToolInput = universal.ToolOther, &universal.ToolInput{}
	}
	tl.Kind, tl.Paths = it.Content[0].ToolKind, it.Content[0].ToolInput.Paths
	dst = t.w.Complete(dst, it, agent, in.raw)
	return tl, dst
}

// orphanParent returns the assistant message item a tool goes under when
// the message that called it was not seen (a stream picked up late): after
// a turn_start without a message, one opened for the step's response; else
// the turn's last assistant message, else a new empty one (a response that
// only called tools still has its message).
func (t *Translator) orphanParent(dst []universal.Event, raw []byte) (string, []universal.Event) {
	if t.st.Turn.StepOpen {
		// A Pi turn whose response was not seen yet (oh-my-pi's jsonl
		// output gives it only in turn_end, see stepEnd): the tool goes
		// under a message opened for that response, which turn_end
		// completes.
		dst = t.startAssistant(dst, "", raw)
		return t.st.Msg.Item, dst
	}
	if id := t.st.Turn.LastMsg; id != "" {
		return id, dst
	}
	id := t.w.NewItemID()
	t.st.Turn.LastMsg = id
	return id, t.w.Complete(dst, universal.Item{ItemID: id, Kind: universal.KindMessage, Role: universal.RoleAssistant}, daemon, raw)
}

// copyJSON returns a JSON value in compact form, in stable memory; "{}"
// for an absent one.
func (t *Translator) copyJSON(v jsonscan.Value) string {
	if v.Raw() == "" {
		return "{}"
	}
	return t.w.Copy(t.compact(v))
}

// compact returns a JSON value in the compact form jsonw writes: its own
// bytes when the scan shows they are that already, else a compacted copy
// in t.buf (valid until its next use).
func (t *Translator) compact(v jsonscan.Value) string {
	if raw, ok := v.CompactRaw(); ok && raw != "" && t.clean {
		return raw
	}
	t.buf = jsonw.AppendRaw(t.buf[:0], v.Raw())
	return view(t.buf)
}

// toolStart translates tool_execution_start: the tool_result item starts.
func (t *Translator) toolStart(dst []universal.Event, in *input) []universal.Event {
	tl, dst := t.toolEntry(dst, in)
	if tl.Result != "" {
		return dst // a repeated start
	}
	dst = t.beforeWork(dst, in.raw)
	return t.startResult(dst, tl, in.raw)
}

func (t *Translator) startResult(dst []universal.Event, tl *tool, raw []byte) []universal.Event {
	tl.Result = t.w.NewItemID()
	return t.w.StartItem(dst, universal.Item{
		ItemID:   tl.Result,
		ParentID: tl.Msg,
		Kind:     universal.KindToolResult,
		Role:     universal.RoleTool,
		Content:  []universal.Part{{Type: universal.PartToolResult, CallID: tl.link()}},
	}, agent, raw)
}

// toolUpdate translates tool_execution_update. partialResult is the
// tool's latest partial result: its content is rendered to text, and what
// that text adds to the output streamed so far becomes an output delta.
// A rendering that does not extend the streamed output (bash keeps a
// rolling tail window) stops the deltas; the final result then replaces
// the output (the part is marked rewritten).
func (t *Translator) toolUpdate(dst []universal.Event, in *input) []universal.Event {
	tl, dst := t.toolEntry(dst, in)
	if tl.Result == "" {
		dst = t.startResult(dst, tl, in.raw)
	}
	tl.Updated = true
	dst = t.resolveByOutcome(dst, tl.CallID, true, in.raw)
	if tl.Diverged || !t.w.IsOpen(tl.Result) {
		return dst
	}
	text, _ := t.render(in.sub("partialResult.content"))
	streamed := t.w.StreamedText(tl.Result, 0)
	if !strings.HasPrefix(text, streamed) {
		tl.Diverged = true
		return dst
	}
	return t.w.Delta(dst, tl.Result, 0, universal.PartToolResult, text[len(streamed):], agent, in.raw)
}

// toolEnd translates tool_execution_end: the tool_result item completes
// with the result rendered to text; the structured parts of the result
// are kept in the part's metadata.
func (t *Translator) toolEnd(dst []universal.Event, in *input) []universal.Event {
	tl, dst := t.toolEntry(dst, in)
	top := fields(in.root(), "result", "isError", "durationMs")
	isError := top[1].Result().Bool()
	dst = t.resolveByOutcome(dst, tl.CallID, !isError || tl.Updated, in.raw)
	if tl.Result != "" && !t.w.IsOpen(tl.Result) {
		return dst // a repeated end
	}
	if tl.Result == "" {
		dst = t.beforeWork(dst, in.raw)
		tl.Result = t.w.NewItemID()
	}
	result := fields(top[0], "content", "details", "structuredContent", "terminate")
	var md jsonw.Object
	// details can be a whole file (a read's, an edit's diff): made room
	// for at once, not in doublings.
	md.Grow(len(result[1].Raw()) + len(result[2].Raw()) + 128)
	output := t.output(t.render(result[0]))
	t.addValue(&md, "details", result[1])
	t.addValue(&md, "structuredContent", result[2])
	t.addValue(&md, "terminate", result[3])
	t.addValue(&md, "durationMs", top[2])
	md.Raw("sub_agent_error", subAgentError(tl.Name, result[1]))
	return t.completeResult(dst, tl, "", output, isError, md, result[0], result[1], in.raw)
}

// completeResult completes the tool_result item of a tool: the output
// part (a command's exit code in its metadata, failed when it is not 0),
// then a file_ref part per file a successful read, write or edit touched,
// then the images the tool returned (content holds the result's blocks).
func (t *Translator) completeResult(dst []universal.Event, tl *tool, nativeID, output string, isError bool, md jsonw.Object, content, details jsonscan.Value, raw []byte) []universal.Event {
	if tl.Kind == universal.ToolExecute {
		if code, ok := exitCode(output); ok {
			md.Int("exit_code", code)
			isError = isError || code != 0
		}
	}
	if tl.Name == subagentTool && tl.Kind == universal.ToolTask {
		// Before the parts are built: the sub-agent's results are
		// completed here too, in the same scratch memory.
		dst = t.subAgentItems(dst, tl, details)
	}
	p := universal.Part{Type: universal.PartToolResult, CallID: tl.link(), Output: output, IsError: isError}
	if md.Len() > 0 {
		p.Metadata = md.Bytes()
	}
	// The parts in the translator's scratch memory, which the stream
	// copies.
	parts := append(t.resultParts[:0], p)
	if !isError {
		parts = t.fileRefs(parts, tl, details)
	}
	parts = t.resultImages(parts, tl, content)
	status := universal.StatusCompleted
	if isError {
		status = universal.StatusFailed
	}
	dst = t.w.Complete(dst, universal.Item{
		ItemID:       tl.Result,
		NativeItemID: t.copy(nativeID),
		ParentID:     tl.Msg,
		Kind:         universal.KindToolResult,
		Role:         universal.RoleTool,
		Content:      parts,
		Status:       status,
	}, agent, raw)
	clear(parts)
	t.resultParts = parts[:0]
	return dst
}

// exitCode reads the exit code Pi's bash tool appends to the output of a
// command that exits with a code other than 0 ("Command exited with code
// N" on the last line).
func exitCode(output string) (int64, bool) {
	const prefix = "Command exited with code "
	last := strings.TrimRight(output, "\n")
	if i := strings.LastIndexByte(last, '\n'); i >= 0 {
		last = last[i+1:]
	}
	n, ok := strings.CutPrefix(strings.TrimSpace(last), prefix)
	if !ok {
		return 0, false
	}
	code, err := strconv.ParseInt(n, 10, 32)
	return code, err == nil
}

// fileRefs appends the file_ref parts of the files a read, write or edit
// call touched (the paths of its arguments). An edit's unified diff is
// details.patch (Pi 1.x; details.diff is Pi's own numbered-line format,
// not a unified diff).
func (t *Translator) fileRefs(parts []universal.Part, tl *tool, details jsonscan.Value) []universal.Part {
	var action universal.FileAction
	switch {
	case tl.Kind == universal.ToolRead && tl.Name != "ls":
		action = universal.FileRead
	case tl.Kind == universal.ToolEdit && tl.Name == "write":
		action = universal.FileWrite
	case tl.Kind == universal.ToolEdit:
		action = universal.FilePatch
	default:
		return parts
	}
	diff := ""
	if d := details.Get("patch"); action == universal.FilePatch && len(tl.Paths) == 1 && d.Type == gjson.String {
		diff = t.copy(d.Str)
	}
	for _, path := range tl.Paths {
		parts = append(parts, universal.Part{Type: universal.PartFileRef, Path: path, Action: action, Diff: diff})
	}
	return parts
}

// resultImages appends an image part for each image block of a tool's
// result content, with the file's path when the call read one (the image
// data stays in raw; its length is in the metadata).
func (t *Translator) resultImages(parts []universal.Part, tl *tool, content jsonscan.Value) []universal.Part {
	if !content.IsArray() {
		return parts
	}
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		if b.Get("type").Str == "image" {
			p := t.image(b)
			if tl.Kind == universal.ToolRead && len(tl.Paths) == 1 {
				p.Path = tl.Paths[0]
			}
			parts = append(parts, p)
		}
		return true
	})
	return parts
}

// toolResult translates a toolResult message. In a stream it repeats
// tool_execution_end and only completes the result if that never came;
// in a session file it is the only record of the result.
func (t *Translator) toolResult(dst []universal.Event, in *input, msg jsonscan.Value, nativeID string) []universal.Event {
	f := fields(msg, "toolCallId", "toolName", "content", "details", "durationMs", "nestedCalls", "isError", "usage", "prunedAt", "attribution")
	callID, name, content, usage := f[0].Str(), f[1].Str(), f[2], f[7]
	tl := t.tool(callID)
	if tl != nil && tl.Result != "" && !t.w.IsOpen(tl.Result) {
		// Already completed by tool_execution_end; only the usage of
		// model work inside the tool is new.
		return t.usage(dst, usage, nil, in.raw)
	}
	dst = t.beforeWork(dst, in.raw)
	if tl == nil {
		tl = t.addResultTool(callID, name)
		tl.Kind, _ = t.describe(name, "")
	}
	if tl.Msg == "" {
		// A result whose call was not seen.
		tl.Msg, dst = t.orphanParent(dst, in.raw)
	}
	if tl.Result == "" {
		tl.Result = t.w.NewItemID()
	}
	output := t.output(t.render(content))
	var md jsonw.Object
	t.addValue(&md, "details", f[3])
	t.addValue(&md, "durationMs", f[4])
	t.addValue(&md, "nestedCalls", f[5])
	md.Raw("sub_agent_error", subAgentError(name, f[3]))
	// oh-my-pi: when its output was pruned from the context, who
	// initiated it, and an output cut when the file was written.
	t.addValue(&md, "prunedAt", f[8])
	t.addValue(&md, "attribution", f[9])
	if strings.HasSuffix(output, truncationNotice) {
		md.Bool("truncated", true)
	}
	isError := f[6].Result().Bool()
	dst = t.resolveByOutcome(dst, tl.CallID, !isError || tl.Updated, in.raw)
	t.st.Turn.Unfinished = true
	dst = t.completeResult(dst, tl, nativeID, output, isError, md, content, f[3], in.raw)
	// Model work done inside the tool (nested calls) is billed too.
	return t.usage(dst, usage, nil, in.raw)
}

// subagentTool is the name of the tool of Pi's subagent extension.
const subagentTool = "subagent"

// subAgentItems replays the sub-agent runs of a subagent call under its
// tool_call item, before its result completes: details.results[] holds
// one entry per run, whose messages are the sub-agent's prompt (a user
// message), its assistant messages (text and reasoning) with their tool
// calls under them, and the results of those calls under the same
// messages. Every item is complete at once (the record shows finished
// runs); the sub-agent's usage is not emitted again (Pi counts it in the
// details).
func (t *Translator) subAgentItems(dst []universal.Event, tl *tool, details jsonscan.Value) []universal.Event {
	if tl.Call == "" || !t.w.Known(tl.Call) {
		return dst
	}
	details.Sub("results").Each(func(_ gjson.Result, r jsonscan.Value) bool {
		var calls []tool // the run's calls
		lastMsg := ""
		r.Sub("messages").Each(func(_ gjson.Result, m jsonscan.Value) bool {
			dst = t.subMessage(dst, &calls, &lastMsg, tl.Call, m, nil)
			return true
		})
		return true
	})
	return dst
}

// subParts maps the content of a sub-agent's message: text, thinking and
// image blocks (tool calls are items of their own).
func (t *Translator) subParts(c jsonscan.Value) []universal.Part {
	if c.Type() == gjson.String {
		return []universal.Part{universal.Text(t.copyValue(c.Result()))}
	}
	var parts []universal.Part
	c.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		switch b.Get("type").Str {
		case "text":
			parts = append(parts, universal.Text(t.copyValue(b.Get("text"))))
		case "thinking":
			p := universal.Reasoning(t.copyValue(b.Get("thinking")), universal.VisibilityPublic)
			if b.Get("redacted").Bool() {
				p.Visibility = universal.VisibilityPrivate
			}
			p.Signature = t.copy(b.Get("thinkingSignature").Str)
			parts = append(parts, p)
		case "redactedThinking": // oh-my-pi
			p := universal.Reasoning("", universal.VisibilityPrivate)
			p.Signature = t.copy(b.Get("data").Str)
			parts = append(parts, p)
		case "image":
			parts = append(parts, t.image(b))
		}
		return true
	})
	return parts
}

// subAgentError returns the sub_agent_error metadata of a result of the
// subagent extension's tool, or of oh-my-pi's task tool, whose
// details.results[] has one entry per sub-agent run: its failed runs as
// {message, code}, one "<agent>: <why>" line each; "" when none failed or
// the tool is another. A run failed when Pi's entry has stop reason error
// or aborted, an error message or a non-zero exit code, or when omp's
// (SingleResult of @oh-my-pi/pi-tui's tools/task.ts: exitCode, error,
// aborted, abortReason) has an error, aborted set or a non-zero exit
// code; code is error or aborted when the entry says which. Pi and omp
// report a sub-agent's failure only there, never as an error of the
// session (the sub-agent convention of package universal).
func subAgentError(tool string, details jsonscan.Value) string {
	if tool != subagentTool && tool != ompTaskTool {
		return ""
	}
	var msgs []string
	code := ""
	details.Sub("results").Each(func(_ gjson.Result, r jsonscan.Value) bool {
		f := fields(r, "agent", "stopReason", "errorMessage", "exitCode", "stderr", "error", "aborted", "abortReason")
		stop, exit := f[1].Str(), f[3].Result()
		if f[6].Result().Bool() {
			stop = "aborted" // omp
		}
		failedExit := exit.Type == gjson.Number && exit.Int() != 0
		if stop != "error" && stop != "aborted" && f[2].Str() == "" && f[5].Str() == "" && !failedExit {
			return true
		}
		why := first(f[2].Str(), f[5].Str())
		switch {
		case why != "":
		case stop == "aborted" && f[7].Str() != "":
			why = f[7].Str()
		case strings.TrimSpace(f[4].Str()) != "":
			why = strings.TrimSpace(f[4].Str())
		case stop == "error" || stop == "aborted":
			why = "stopped: " + stop
		default:
			why = "exit code " + exit.Raw
		}
		msgs = append(msgs, f[0].Str()+": "+why)
		if code == "" && (stop == "error" || stop == "aborted") {
			code = stop
		}
		return true
	})
	if len(msgs) == 0 {
		return ""
	}
	var o jsonw.Object
	return string(o.String("message", strings.Join(msgs, "\n")).OptString("code", code).Bytes())
}

// ompTaskTool is the name of oh-my-pi's sub-agent tool.
const ompTaskTool = "task"

// render returns the text of tool result content: its text blocks joined
// by a newline. The text may alias the input or the translator's scratch
// buffer: copy it with output to keep it. one is the string value that is
// the whole text, if there is one.
func (t *Translator) render(c jsonscan.Value) (text string, one gjson.Result) {
	if c.Type() == gjson.String {
		one = c.Result()
		return one.Str, one
	}
	n := 0
	buf := t.buf[:0]
	c.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		if b.Get("type").Str != "text" {
			return true
		}
		r := b.Get("text")
		switch n {
		case 0:
			one = r
		case 1:
			buf = append(append(append(buf, one.Str...), '\n'), r.Str...)
		default:
			buf = append(append(buf, '\n'), r.Str...)
		}
		n++
		return true
	})
	t.buf = buf
	if n <= 1 {
		return one.Str, one
	}
	return view(buf), gjson.Result{}
}

// output copies the text render returned into stable memory.
func (t *Translator) output(text string, one gjson.Result) string {
	if one.Type == gjson.String {
		return t.copyValue(one)
	}
	return t.copy(text)
}

// uiRequest translates an extension UI request. A select or confirm
// dialog that guards a tool (see guarded) is a permission. Other dialogs
// are questions. A notify is a status item; the other fire-and-forget
// methods (setStatus, setWidget, setTitle, set_editor_text) are ignored.
func (t *Translator) uiRequest(dst []universal.Event, in *input, prevToolStart string) []universal.Event {
	method := in.get("method").Str
	id := in.get("id").Str
	switch method {
	case "notify":
		// A notice to the user (an extension's warning or error: a
		// sandbox that failed to start, a write it blocked).
		msg := in.get("message").Str
		if msg == "" {
			return dst
		}
		var md jsonw.Object
		md.Raw("notifyType", in.get("notifyType").Raw)
		return t.status(dst, "notify", msg, md.Bytes(), "", in.raw)
	case "setStatus", "setWidget", "setTitle", "set_editor_text", "open_url":
		return dst
	case "cancel":
		// oh-my-pi {targetId}: the agent withdrew its dialog (the tool
		// was aborted, the dialog timed out) and went on with the
		// default answer: a question rejected, a permission denied.
		// omp withdraws only a dialog still waiting: a cancel of
		// another is agent.unparsed, as an answer to it would be.
		target := in.get("targetId").Str
		_, r := t.request(target)
		switch {
		case r == nil:
			return t.w.Unparsed(dst, in.where(), fmt.Errorf("extension_ui_request cancel %q withdraws no pending request", target), in.raw)
		case r.Permission:
			return t.replyPermission(dst, target, false, "cancelled", "agent", agent, in.raw)
		}
		return t.replyQuestion(dst, target, "", true, agent, in.raw)
	case "select", "confirm", "input", "editor":
	default:
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: extension UI method %q", errUnknownType, method), in.raw)
	}
	if id == "" {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("extension_ui_request %q without an id", method), in.raw)
	}
	if _, r := t.request(id); r != nil {
		// The id of a request still waiting for its answer: the answer
		// could not tell the two apart.
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("extension_ui_request %q repeats the id of a pending request", id), in.raw)
	}
	var md jsonw.Object
	md.String("method", method)
	for _, k := range [...]string{"title", "message", "placeholder", "prefill", "options", "timeout"} {
		md.Raw(k, in.get(k).Raw)
	}
	title := in.get("title").Str
	if msg := in.get("message").Str; msg != "" {
		title += "\n\n" + msg
	}
	var options []string
	in.get("options").ForEach(func(_, o gjson.Result) bool {
		options = append(options, t.copy(o.String()))
		return true
	})
	r := request{ID: t.copy(id), Prompt: t.copy(title), Options: options}
	if tl := t.guarded(prevToolStart); tl != nil && (method == "select" || method == "confirm") {
		tl.Guarded = true
		r.Permission, r.CallID, r.Action = true, tl.CallID, tl.Name
		t.st.Requests = append(t.st.Requests, r)
		return t.w.RequestPermission(dst, universal.Permission{
			PermissionID: r.ID,
			Action:       r.Action,
			Metadata:     md.Bytes(),
			ItemID:       tl.Call,
			CallID:       tl.link(),
		}, agent, in.raw)
	}
	t.st.Requests = append(t.st.Requests, r)
	return t.w.AskQuestion(dst, universal.Question{
		QuestionID: r.ID,
		Prompt:     r.Prompt,
		Options:    options,
		Metadata:   md.Bytes(),
	}, agent, in.raw)
}

// guarded returns the tool a select or confirm dialog guards, nil for
// none: the tool whose tool_execution_start came just before it, else the
// first tool call of the turn that is not running yet and was not asked
// for already (Pi runs an extension's tool_call hook, which may ask, once
// a call is whole, before it starts: in Pi's own permission-gate example
// the dialog comes before the assistant message's end).
func (t *Translator) guarded(prevToolStart string) *tool {
	if prevToolStart != "" {
		return t.tool(prevToolStart)
	}
	for i := range t.st.Tools {
		if tl := &t.st.Tools[i]; tl.Call != "" && tl.Result == "" && !tl.Guarded {
			return tl
		}
	}
	return nil
}

func (t *Translator) request(id string) (int, *request) {
	for i := range t.st.Requests {
		if t.st.Requests[i].ID == id {
			return i, &t.st.Requests[i]
		}
	}
	return -1, nil
}

// uiResponse translates the host's extension_ui_response.
func (t *Translator) uiResponse(dst []universal.Event, in *input) []universal.Event {
	id := in.get("id").Str
	_, r := t.request(id)
	if r == nil {
		// An answer to a request this stream never showed (or answered
		// already).
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("extension_ui_response %q answers no pending request", id), in.raw)
	}
	value, confirmed, cancelled := in.get("value"), in.get("confirmed"), in.get("cancelled").Bool()
	if !r.Permission {
		resp := value.String()
		if confirmed.Exists() {
			resp = "no"
			if confirmed.Bool() {
				resp = "yes"
			}
		}
		return t.replyQuestion(dst, id, resp, cancelled, agent, in.raw)
	}
	approved, known := false, true
	switch {
	case cancelled:
	case confirmed.Exists():
		approved = confirmed.Bool()
	default:
		approved, known = decision(value.String())
	}
	if !known {
		return dst // decided by the tool's outcome
	}
	return t.replyPermission(dst, id, approved, value.String(), "user", agent, in.raw)
}

// decision reads a select answer as approval or denial, when it is one
// of the usual words.
func decision(v string) (approved, known bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "y", "allow", "allowed", "approve", "approved", "accept", "ok", "always", "allow once", "allow always", "true":
		return true, true
	case "no", "n", "deny", "denied", "reject", "block", "cancel", "false", "never":
		return false, true
	}
	return false, false
}

func (t *Translator) replyPermission(dst []universal.Event, id string, approved bool, decision, source string, src universal.Source, raw []byte) []universal.Event {
	i, r := t.request(id)
	if r == nil || !r.Permission {
		return dst
	}
	status := universal.PermissionDenied
	if approved {
		status = universal.PermissionApproved
	}
	var md jsonw.Object
	md.String("source", source).OptString("decision", decision)
	p := universal.Permission{PermissionID: r.ID, Action: r.Action, Status: status, Metadata: md.Bytes(), CallID: r.CallID}
	if tl := t.tool(r.CallID); tl != nil {
		p.ItemID, p.CallID = tl.Call, tl.link()
	}
	t.st.Requests = append(t.st.Requests[:i:i], t.st.Requests[i+1:]...)
	return t.w.ResolvePermission(dst, p, src, raw)
}

func (t *Translator) replyQuestion(dst []universal.Event, id, response string, rejected bool, src universal.Source, raw []byte) []universal.Event {
	i, r := t.request(id)
	if r == nil || r.Permission {
		return dst
	}
	q := universal.Question{QuestionID: r.ID, Prompt: r.Prompt, Options: r.Options, Status: universal.QuestionAnswered, Response: t.copy(response)}
	if rejected {
		q.Status, q.Response = universal.QuestionRejected, ""
	}
	t.st.Requests = append(t.st.Requests[:i:i], t.st.Requests[i+1:]...)
	return t.w.ResolveQuestion(dst, q, src, raw)
}

// resolveByOutcome resolves the permissions still pending for a tool
// from what the tool did: it ran (approved) or it was blocked (denied).
func (t *Translator) resolveByOutcome(dst []universal.Event, callID string, ran bool, raw []byte) []universal.Event {
	if callID == "" {
		return dst
	}
	for i := 0; i < len(t.st.Requests); {
		r := t.st.Requests[i]
		n := len(t.st.Requests)
		if r.Permission && r.CallID == callID {
			dst = t.replyPermission(dst, r.ID, ran, "", "tool_outcome", daemon, raw)
		}
		if len(t.st.Requests) == n {
			i++
		}
	}
	return dst
}

// compactionStart starts the system item of a compaction.
func (t *Translator) compactionStart(dst []universal.Event, in *input) []universal.Event {
	id := t.w.NewItemID()
	t.st.Compactions = append(t.st.Compactions, id)
	var md jsonw.Object
	t.addValue(&md, "action", in.sub("action")) // oh-my-pi
	return t.w.StartItem(dst, universal.Item{
		ItemID:  id,
		Kind:    universal.KindSystem,
		Role:    universal.RoleSystem,
		Content: []universal.Part{withMetadata(universal.Part{Type: universal.PartStatus, Label: universal.LabelCompaction, Detail: t.copy(in.get("reason").Str)}, md.Bytes())},
	}, agent, in.raw)
}

// compactionEnd completes the compaction item with the summary.
func (t *Translator) compactionEnd(dst []universal.Event, in *input) []universal.Event {
	id := ""
	for len(t.st.Compactions) > 0 && id == "" {
		if t.w.IsOpen(t.st.Compactions[0]) {
			id = t.st.Compactions[0]
		}
		t.st.Compactions = t.st.Compactions[1:]
	}
	if id == "" {
		id = t.w.NewItemID()
	}
	result := in.sub("result")
	aborted, retry := in.get("aborted").Bool(), in.get("willRetry").Bool()
	errMsg := in.get("errorMessage").Str
	var md jsonw.Object
	for _, k := range [...]string{"firstKeptEntryId", "tokensBefore", "estimatedTokensAfter", "details",
		"shortSummary", "preserveData"} { // oh-my-pi's CompactionResult
		t.addValue(&md, k, result.Sub(k))
	}
	t.addValue(&md, "aborted", in.sub("aborted"))
	t.addValue(&md, "willRetry", in.sub("willRetry"))
	// oh-my-pi: the strategy (context-full, remote, handoff, shake,
	// snapcompact), and skipped: no compaction was needed (a benign
	// reason, no result), which does not fail the item.
	t.addValue(&md, "action", in.sub("action"))
	skipped := in.get("skipped").Bool()
	t.addValue(&md, "skipped", in.sub("skipped"))
	md.OptString("errorMessage", errMsg)
	reason := t.copy(in.get("reason").Str)
	if it, ok := t.w.Tracked(id); ok && reason == "" && len(it.Content) > 0 {
		reason = it.Content[0].Detail // auto_compaction_end has no reason
	}
	st := universal.Part{Type: universal.PartStatus, Label: universal.LabelCompaction, Detail: reason, Metadata: md.Bytes()}
	parts := []universal.Part{st}
	if s := result.Get("summary"); s.Exists() {
		parts = append(parts, universal.Text(t.copy(s.Str)))
	}
	status := universal.StatusCompleted
	if aborted || errMsg != "" || !result.Exists() && !skipped {
		status = universal.StatusFailed
	}
	dst = t.w.Complete(dst, universal.Item{
		ItemID:  id,
		Kind:    universal.KindSystem,
		Role:    universal.RoleSystem,
		Content: parts,
		Status:  status,
	}, agent, in.raw)
	dst = t.usage(dst, result.Sub("usage"), nil, in.raw)
	if errMsg != "" && retry {
		// A failed compaction Pi retries is a transient error. One it
		// gives up on fails only the item: the session goes on with
		// the context uncompacted (a model call that needed the room
		// fails on its own, and a refused compact command is an error
		// response).
		dst = t.error(dst, errMsg, "compaction", nil, true, agent, in.raw)
	}
	if retry && t.inTurn() {
		t.st.Turn.Continuing = true
	}
	return dst
}

// appended translates entry_appended: an entry Pi wrote to the session
// file. Entries that repeat what the stream already showed (messages,
// compactions, model and thinking changes, session names) are ignored;
// the others become status items with the entry id as native id.
func (t *Translator) appended(dst []universal.Event, in *input) []universal.Event {
	e := in.sub("entry")
	switch e.Get("type").Str {
	case "message", "compaction", "branch_summary", "custom_message",
		"model_change", "thinking_level_change", "session_info":
		return dst
	}
	return t.entryItem(dst, in, e)
}

// maxCommands bounds the unanswered commands remembered.
const maxCommands = 64

// commandKey identifies a command and its response: the id, or for a
// command sent without one, its type.
func commandKey(id, typ string) string {
	if id != "" {
		return id
	}
	return "\x00" + typ
}

// command translates what the host wrote to pi --mode rpc (exchange).
func (t *Translator) command(dst []universal.Event, in *input) []universal.Event {
	if replayAside(in.typ.Str) {
		return dst // a replay transcript's record of the process's start
	}
	switch in.typ.Str {
	case "host_tool_result", "host_tool_update", "host_uri_result":
		// oh-my-pi: the host answers a host_tool_call or a
		// host_uri_request; a tool's result shows in omp's own
		// tool_execution_update and tool_execution_end. No response
		// answers them.
		return dst
	}
	if in.typ.Str != "extension_ui_response" {
		// Pi answers every command with a response of the same id (or,
		// for a command without one, naming the command).
		if len(t.st.Commands) == maxCommands {
			t.st.Commands = append(t.st.Commands[:0], t.st.Commands[1:]...)
		}
		t.st.Commands = append(t.st.Commands, t.copy(commandKey(in.get("id").Str, in.typ.Str)))
	}
	switch in.typ.Str {
	case "prompt", "abort_and_prompt":
		// abort_and_prompt (oh-my-pi): abort the run, then prompt.
		text := t.copy(in.get("message").Str)
		switch {
		case in.get("streamingBehavior").Str != "":
			t.st.Queued = append(t.st.Queued, text)
		case indexOf(t.st.Prompts, text) < 0:
			// Not already reported by the host as a Prompt.
			t.st.Prompts = append(t.st.Prompts, text)
		}
		return dst
	case "steer", "follow_up":
		t.st.Queued = append(t.st.Queued, t.copy(in.get("message").Str))
		return dst
	case "extension_ui_response":
		return t.uiResponse(dst, in)
	case "bash":
		// Its response carries the result; the command is only here.
		if len(t.st.Bash) == maxCommands {
			t.st.Bash = append(t.st.Bash[:0], t.st.Bash[1:]...)
		}
		t.st.Bash = append(t.st.Bash, bashCommand{
			Key: t.copy(commandKey(in.get("id").Str, in.typ.Str)), Command: t.copy(in.get("command").Str)})
		return dst
	case "abort", "new_session", "get_state", "get_messages", "set_model", "cycle_model",
		"get_available_models", "set_thinking_level", "cycle_thinking_level",
		"set_steering_mode", "set_follow_up_mode", "compact", "set_auto_compaction",
		"set_auto_retry", "abort_retry", "abort_bash", "get_session_stats",
		"export_html", "switch_session", "fork", "clone", "get_fork_messages",
		"get_last_assistant_text", "set_session_name", "get_commands", "reset",
		"branch", "get_branch_messages", "clear_queue",
		// oh-my-pi's (src/modes/rpc/rpc-types.ts, RpcCommand)
		"negotiate_protocol", "open_session", "set_fast_mode", "get_available_commands", "get_entries",
		"get_tree", "set_todos", "set_host_tools", "set_host_uri_schemes", "set_subagent_subscription",
		"set_event_filter", "get_subagents", "get_subagent_messages", "get_available_thinking_levels",
		"set_interrupt_mode", "handoff", "get_messages_page", "get_login_providers", "login":
		// Their effect shows in Pi's own output (events, responses).
		return dst
	}
	return t.unknown(dst, in, "rpc command")
}

// response translates an rpc response line. Successful responses are
// acknowledgements (get_state also gives the session id; bash's data is
// the command's result, see bashResponse); failures are errors.
func (t *Translator) response(dst []universal.Event, in *input) []universal.Event {
	command := in.get("command").Str
	answered := true
	line, known := "", false
	if t.format == FormatExchange {
		// The exchange shows the commands: a response answers one.
		key := commandKey(in.get("id").Str, command)
		i := indexOf(t.st.Commands, key)
		if i >= 0 {
			t.st.Commands = remove(t.st.Commands, i)
		}
		answered = i >= 0
		if command == "bash" {
			for j, b := range t.st.Bash {
				if b.Key == key {
					line, known = b.Command, true
					t.st.Bash = append(t.st.Bash[:j:j], t.st.Bash[j+1:]...)
					break
				}
			}
		}
	}
	if !in.get("success").Bool() {
		if (command == "prompt" || command == "steer" || command == "follow_up") && len(t.st.Prompts)+len(t.st.Queued) > 0 {
			// The prompt was refused: it will not be echoed.
			if command == "prompt" && len(t.st.Prompts) > 0 {
				t.st.Prompts = t.st.Prompts[:len(t.st.Prompts)-1]
			} else if len(t.st.Queued) > 0 {
				t.st.Queued = t.st.Queued[:len(t.st.Queued)-1]
			}
		}
		return t.error(dst, in.get("error").Str, "rpc."+command, nil, false, agent, in.raw)
	}
	if !answered {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("response to %q answers no command the host sent", command), in.raw)
	}
	switch command {
	case "get_state":
		if id := in.get("data.sessionId").Str; id != "" {
			t.w.SetNativeSessionID(id)
		}
	case "get_session_stats":
		return t.sessionStats(dst, in)
	case "bash":
		return t.bashResponse(dst, in, line, known)
	case "clear_queue":
		// Pi 0.84.4+: the queued steering and follow-up messages it
		// removed (the host restores them to its editor). They will not
		// be echoed: they no longer wait for it.
		for _, k := range [...]string{"data.steering", "data.followUp"} {
			in.get(k).ForEach(func(_, v gjson.Result) bool {
				if i := indexOf(t.st.Queued, v.Str); i >= 0 {
					t.st.Queued = remove(t.st.Queued, i)
				}
				return true
			})
		}
	}
	return dst
}

// bashResponse translates the response to the rpc bash command: Pi ran
// the command the host sent as the user's (session.executeBash) and
// records it as a bashExecution message, which no event shows (only
// bash_execution_update chunks of its output, on the ignore list); the
// response's data is its BashResult {output, exitCode, cancelled,
// truncated, fullOutputPath}. It is translated as that message: the
// command line is the host's command in an exchange, unknown (arguments
// {}) on Pi's side alone.
func (t *Translator) bashResponse(dst []universal.Event, in *input, line string, known bool) []universal.Event {
	data := in.root().Sub("data")
	if !data.IsObject() {
		return dst
	}
	args := "{}"
	if known {
		var o jsonw.Object
		args = string(o.String("command", line).Bytes())
	}
	return t.userCommand(dst, data, "", bashExecution, args, in.raw)
}

// sessionStats translates a get_session_stats response: data {sessionId,
// userMessages, assistantMessages, toolCalls, toolResults, totalMessages,
// tokens {input, output, cacheRead, cacheWrite, total}, cost, contextUsage?
// {tokens, contextWindow, percent}}. Its tokens and cost are the whole
// session's so far, compaction and branch summaries included, which no
// message shows: usage.updated with scope session, the counts mapped as a
// message's usage, context_window contextUsage.contextWindow, and the
// contextUsage itself in the metadata.
func (t *Translator) sessionStats(dst []universal.Event, in *input) []universal.Event {
	data := in.root().Sub("data")
	f := fields(data.Sub("tokens"), "input", "cacheRead", "cacheWrite", "output", "total")
	var n [6]int64
	num := func(i int) *int64 {
		if f[i].Type() != gjson.Number {
			return nil
		}
		n[i] = f[i].Int()
		return &n[i]
	}
	d := &universal.UsageUpdated{TurnID: t.w.Turn(), Scope: universal.ScopeSession}
	in0, cr, cw := num(0), num(1), num(2)
	if in0 != nil || cr != nil || cw != nil {
		for _, p := range [...]*int64{in0, cr, cw} {
			if p != nil {
				n[5] += *p
			}
		}
		d.Usage.InputTokens = &n[5]
	}
	d.Usage.CachedInputTokens, d.Usage.CacheWriteTokens = cr, cw
	d.Usage.OutputTokens, d.Usage.TotalTokens = num(3), num(4)
	if c := data.Get("cost"); c.Type == gjson.Number {
		cost := c.Num
		d.CostUSD = &cost
	}
	ctx := data.Sub("contextUsage")
	if w := ctx.Get("contextWindow"); w.Type == gjson.Number && w.Num > 0 {
		win := w.Int()
		d.ContextWindow = &win
	}
	if d.Usage.InputTokens == nil && d.Usage.OutputTokens == nil && d.Usage.TotalTokens == nil && d.CostUSD == nil {
		return dst // no numbers: an acknowledgement like any other
	}
	var md jsonw.Object
	md.String("basis", "get_session_stats")
	t.addValue(&md, "context_usage", ctx)
	d.Metadata = md.Bytes()
	return t.w.Emit(dst, universal.TypeUsageUpdated, agent, d, in.raw)
}
