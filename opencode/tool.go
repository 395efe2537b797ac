package opencode

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// tools reads OpenCode's built-in tools into the universal tool
// vocabulary, by tool id (the part's "tool"), with the argument names of
// their parameter schemas (older names after a "|"). Tools it lacks (MCP
// tools, named <server>_<tool>, plugins, skill, question, lsp, batch,
// invalid) are ToolOther.
var tools = universal.ToolTable{
	"bash": {Kind: universal.ToolExecute, Command: "command|cmd"},
	// 2.x names its command tool shell ({command, workdir}), as real
	// 2.0.19 streams show (session.tool.input.started {name: "shell"}).
	"shell":     {Kind: universal.ToolExecute, Command: "command|cmd"},
	"read":      {Kind: universal.ToolRead, Paths: "filePath|file_path|path"},
	"write":     {Kind: universal.ToolEdit, Paths: "filePath|file_path|path"},
	"edit":      {Kind: universal.ToolEdit, Paths: "filePath|file_path|path"},
	"multiedit": {Kind: universal.ToolEdit, Paths: "filePath|file_path|path"},
	// apply_patch (GPT models) and the older patch: the paths are those
	// of the patch text (universal.PatchPaths).
	"apply_patch": {Kind: universal.ToolEdit},
	"patch":       {Kind: universal.ToolEdit},
	"glob":        {Kind: universal.ToolSearch, Query: "pattern", Paths: "path"},
	"grep":        {Kind: universal.ToolSearch, Query: "pattern|query", Paths: "path"},
	"list":        {Kind: universal.ToolSearch, Paths: "path"},
	"codesearch":  {Kind: universal.ToolSearch, Query: "query"},
	"websearch":   {Kind: universal.ToolSearch, Query: "query"},
	"webfetch":    {Kind: universal.ToolFetch, URL: "url"},
	// The sub-agent: its session's items are under the call.
	"task": {Kind: universal.ToolTask, Prompt: "prompt|description", Agent: "subagent_type|agent"},
	// 2.x names it subagent ({agent, description, prompt}), as real
	// 2.0.19 streams show.
	"subagent": {Kind: universal.ToolTask, Prompt: "prompt|description", Agent: "subagent_type|agent"},
	// Plans and notes of the agent to itself.
	"todowrite":  {Kind: universal.ToolThink},
	"todoread":   {Kind: universal.ToolThink},
	"plan_exit":  {Kind: universal.ToolThink},
	"plan_enter": {Kind: universal.ToolThink},
}

// describe returns the tool kind and normalized input of a call of the
// named tool with arguments args (JSON text), paths resolved against the
// session's working directory when it is known.
func (t *Translator) describe(name, args string) (universal.ToolKind, *universal.ToolInput) {
	kind, in := tools.Describe(name, args, t.st.Cwd)
	if name == "apply_patch" || name == "patch" {
		if patch := gjson.Get(args, "patchText"); patch.Type == gjson.String {
			in.Paths = universal.PatchPaths(patch.Str, t.st.Cwd)
		}
	}
	return kind, in
}

// hasInput reports whether a tool state carries real arguments: the
// pending state has {} (or nothing; clients that re-encode JSON write []).
func hasInput(in jsonscan.Value) bool {
	if !in.IsObject() {
		return false
	}
	raw := in.Raw()
	return strings.TrimSpace(raw[1:len(raw)-1]) != ""
}

// one returns p as an item's content, in the translator's memory for it
// (see Translator.parts).
func (t *Translator) one(p universal.Part) []universal.Part {
	t.parts = append(t.parts[:0], p)
	return t.parts
}

// callKey keys a tool call by session and provider call id (call ids are
// only unique within a session).
func callKey(sid, callID string) string { return sid + "\x00" + callID }

// onTool handles a tool part. The part is an upsert that goes pending →
// running (repeated, with cumulative metadata.output) → completed | error:
//
//   - the tool_call item starts at the first sight of the part and is
//     completed as soon as the input is known (the pending state's {}
//     never overwrites it), with the name of that update;
//   - the tool_result item (parent: the call) starts at running, streams
//     metadata.output as deltas when it extends what was emitted, and is
//     completed at completed (output, title, metadata) or error (failed,
//     the error text).
func (t *Translator) onTool(dst []universal.Event, m *msgState, p *partState, f *partFields, sid string, e *event) []universal.Event {
	if p.ResultDone {
		return dst
	}
	if p.Call != "" && !p.CallDone && !t.w.IsOpen(p.Call) || p.Result != "" && !t.w.IsOpen(p.Result) {
		// The turn ended while the tool ran, and its items were closed
		// as failed with it: this update comes too late to change them.
		p.CallDone, p.ResultDone = true, true
		return t.unparsed(dst, e, fmt.Errorf("tool part %s updated after its items were closed", p.ID))
	}
	sf := readState(f.state)
	status := sf.status.Str()
	switch status {
	case "pending", "running", "completed", "error":
	default:
		return t.unparsed(dst, e, fmt.Errorf("unknown tool status %q", status))
	}
	pid := p.ID
	m.Tools = true
	name := f.tool.Str()
	input := sf.input
	if p.Call == "" {
		p.Call = t.w.NewItemID()
		p.CallID = t.w.CopyValue(f.callID.Result())
		if p.CallID != "" {
			key := callKey(m.Session, p.CallID)
			if prev, ok := t.st.Calls[key]; !ok || prev != pid {
				// The provider's call id is only unique within one
				// response: some number the calls of each response
				// from 0 (Kimi K2's functions.bash:0), so a later
				// response of the session reuses it for another call.
				// The session's n-th call with it has call_id id#n,
				// as in every translator.
				if t.st.CallUses == nil {
					t.st.CallUses = map[string]int{}
				}
				t.st.CallUses[key]++
				p.CallID = universal.ReusedCallID(p.CallID, t.st.CallUses[key])
			}
			// The newest call with this id is the one a permission
			// request names.
			put(&t.st.Calls, key, pid)
		}
		kind, in := t.describe(name, "")
		dst = t.w.StartItem(dst, universal.Item{
			ItemID:       p.Call,
			NativeItemID: pid,
			ParentID:     m.Item,
			Kind:         universal.KindToolCall,
			Role:         universal.RoleAssistant,
			Content:      t.one(universal.Part{Type: universal.PartToolCall, Name: t.w.Copy(name), CallID: p.CallID, ToolKind: kind, ToolInput: in}),
		}, universal.SourceAgent, e.raw)
	}
	if !p.CallDone && (hasInput(input) || status == "completed" || status == "error") {
		p.CallDone = true
		args := "{}"
		if hasInput(input) {
			// Compact: clients that re-encode events pretty-print them.
			args = input.OwnJSON(t.w.Copy)
		}
		kind, in := t.describe(name, args)
		dst = t.w.Complete(dst, universal.Item{
			ItemID:       p.Call,
			NativeItemID: pid,
			ParentID:     m.Item,
			Kind:         universal.KindToolCall,
			Role:         universal.RoleAssistant,
			Content: t.one(universal.Part{
				Type: universal.PartToolCall, Name: t.w.Copy(name), Arguments: args, CallID: p.CallID,
				ToolKind: kind, ToolInput: in,
				// The provider's metadata of the call (OpenAI's
				// function call item id), which OpenAI sets with the
				// input (running): kept as a text part's is.
				Metadata: t.textMetadata(f),
			}),
		}, universal.SourceAgent, e.raw)
	}
	child := sf.meta("sessionId").Str()
	if child == "" {
		child = sf.meta("sessionID").Str() // 2.x's subagent tool
	}
	if child != "" {
		// The task tool names the sub-agent session it runs.
		t.link(child, m.Session, p.Call)
	}
	if name == "task" && m.Session == t.st.Session {
		if child == "" && (status == "pending" || status == "running") {
			put(&t.st.Tasks, p.Call, true)
		} else {
			delete(t.st.Tasks, p.Call)
		}
	}
	switch status {
	case "running":
		dst = t.startResult(dst, pid, p, m.Item, e.raw)
		if out := sf.meta("output"); out.Type() == gjson.String {
			// Unescaping never lengthens a string: an output whose JSON
			// text is no longer than what was emitted has nothing new,
			// and is not unescaped (each update repeats all of it).
			emitted := t.w.StreamedText(p.Result, 0)
			if len(out.Raw())-2 > len(emitted) {
				t.out = out.AppendStr(t.out[:0])
				if s := view(t.out); len(s) > len(emitted) && strings.HasPrefix(s, emitted) {
					dst = t.w.Delta(dst, p.Result, 0, universal.PartToolResult, s[len(emitted):], universal.SourceAgent, e.raw)
				}
			}
		}
	case "completed", "error":
		if name == "question" && t.record() {
			dst = t.recordedQuestion(dst, p, status, &sf, e)
		}
		dst = t.completeResult(dst, pid, p, m.Item, name, status, &sf, e)
	}
	return dst
}

// recordedQuestion asks and resolves the question of a question tool's
// call in a message list, which holds no question events: the call's
// input has the questions, its metadata the answers (one list of labels
// per question); a call that failed was dismissed (rejected). The
// question's id is the call's.
func (t *Translator) recordedQuestion(dst []universal.Event, p *partState, status string, sf *stateFields, e *event) []universal.Event {
	qs := sf.input.Sub("questions")
	if !qs.IsArray() || p.CallID == "" || t.w.QuestionPending(p.CallID) || t.st.Resolved[p.CallID] {
		return dst
	}
	prompt, options := questionText("", qs)
	var md jsonw.Object
	qs.AddTo(&md, "questions")
	q := universal.Question{QuestionID: p.CallID, Prompt: prompt, Options: options, ItemID: p.Call, Metadata: md.Bytes()}
	dst = t.w.AskQuestion(dst, q, universal.SourceAgent, e.raw)
	q.Metadata = nil
	if status == "completed" {
		answers := sf.meta("answers")
		q.Status, q.Response = universal.QuestionAnswered, answersText(answers)
		var amd jsonw.Object
		answers.AddTo(&amd, "answers")
		q.Metadata = amd.Bytes()
	} else {
		q.Status = universal.QuestionRejected
	}
	put(&t.st.Resolved, q.QuestionID, true)
	return t.w.ResolveQuestion(dst, q, universal.SourceAgent, e.raw)
}

// startResult starts the tool_result item once, under the message of its
// call (parent).
func (t *Translator) startResult(dst []universal.Event, pid string, p *partState, parent string, raw []byte) []universal.Event {
	if p.Result != "" {
		return dst
	}
	p.Result = t.w.NewItemID()
	return t.w.StartItem(dst, universal.Item{
		ItemID:       p.Result,
		NativeItemID: pid,
		ParentID:     parent,
		Kind:         universal.KindToolResult,
		Role:         universal.RoleTool,
		Content:      t.one(universal.Part{Type: universal.PartToolResult, CallID: p.CallID}),
	}, universal.SourceAgent, raw)
}

// completeResult completes the tool_result item from a final tool state,
// under the message of its call (parent). It fails when the tool did
// (status error), for the invalid tool (a call whose arguments did not
// parse) and, for a shell command, when the command exited with a
// code other than 0 (metadata.exit, kept as "exit_code") or was killed
// (timed out, aborted: OpenCode notes it in the output and leaves exit
// null). Files the tool read or changed follow as file_ref parts, images
// it returned as image parts.
func (t *Translator) completeResult(dst []universal.Event, pid string, p *partState, parent, name, status string, sf *stateFields, e *event) []universal.Event {
	p.ResultDone = true
	state := sf.state
	failed := status == "error"
	out := sf.output.Result()
	if failed {
		out = sf.err.Result()
		root := t.st.Msgs[p.Msg].Session == t.st.Session
		if rejectedPermission(out.Str) && root {
			// OpenCode stops the turn after a refused permission.
			t.st.Turn.Denied = true
			if t.format == FormatRunJSON {
				dst = t.policyDenial(dst, p, name)
			}
		} else if name == "question" && dismissedQuestion(out.Str) && root {
			// And after a question the user dismissed
			// (Question.RejectedError), as after a refused permission.
			t.st.Turn.Denied = true
		}
	}
	var md jsonw.Object
	// Sized once: the metadata can be as long as the output it repeats,
	// and growing it by appends would copy it several times.
	md.Grow(len(sf.title.Raw()) + len(sf.metadata.Raw()) + len(sf.attach.Raw()) + 64)
	md.OptString("title", sf.title.Str())
	if v := sf.metadata; v.IsObject() && !emptyJSON(v.Raw()) {
		addToolMetadata(&md, v, out)
	}
	atts := sf.attach
	if atts.IsArray() && !emptyJSON(atts.Raw()) {
		md.RawBytes("attachments", attachmentsMetadata(atts))
	}
	if name == "invalid" {
		// OpenCode's stand-in for a call whose arguments did not parse:
		// its output says the call failed.
		failed = true
	}
	if tools[name].Kind == universal.ToolExecute {
		code := sf.meta("exit").Result()
		if code.Type != gjson.Number {
			code = sf.meta("exitCode").Result() // as some hosts' logs name it
		}
		if code.Type == gjson.Number {
			md.Int("exit_code", code.Int())
			failed = failed || code.Int() != 0
		}
		failed = failed || killed(out.Str)
	}
	if e, ok := t.st.SubErrs[p.Call]; ok {
		md.RawBytes("sub_agent_error", e)
		delete(t.st.SubErrs, p.Call)
	}
	content := t.one(universal.Part{
		Type:     universal.PartToolResult,
		CallID:   p.CallID,
		Output:   t.w.CopyValue(out),
		IsError:  failed,
		Metadata: metaOrNil(&md),
	})
	if status == "completed" {
		content = t.fileRefs(content, name, state)
	}
	content = t.images(content, state.Get("input.filePath").Str, atts)
	t.parts = content
	it := universal.Item{
		ItemID:       p.Result,
		NativeItemID: pid,
		ParentID:     parent,
		Kind:         universal.KindToolResult,
		Role:         universal.RoleTool,
		Content:      content,
		Status:       universal.StatusCompleted,
	}
	if failed {
		it.Status = universal.StatusFailed
	}
	if p.Result == "" {
		p.Result = t.w.NewItemID()
		it.ItemID = p.Result
	}
	return t.w.Complete(dst, it, universal.SourceAgent, e.raw)
}

// addToolMetadata adds a tool state's metadata v to md as "metadata",
// without an "output" member that repeats the result's output: a shell
// command's metadata holds the output it showed while it ran, which is
// the whole output once it is done, and the part has it already. An
// output that differs (cut short, or another text) stays.
func addToolMetadata(md *jsonw.Object, v jsonscan.Value, output gjson.Result) {
	o := v.Field("output")
	// The same JSON text is the same string, found without unescaping
	// both (OpenCode writes the two alike).
	if output.Type != gjson.String || len(o.Raw()) < len(output.Raw) || o.Raw() != output.Raw && !o.EqualStr(output.Str) {
		v.AddTo(md, "metadata")
		return
	}
	var rest jsonw.Object
	rest.Grow(len(v.Raw()) - len(o.Raw()))
	v.Members(func(k string, m jsonscan.Value) bool {
		// o's own bytes, or the same bytes again, are known equal.
		if k != "output" || m.Raw() != o.Raw() && m.Raw() != output.Raw && !m.EqualStr(output.Str) {
			m.AddTo(&rest, k)
		}
		return true
	})
	if rest.Len() > 0 {
		md.RawBytes("metadata", rest.Bytes())
	}
}

// killed reports whether a shell command's output carries OpenCode's note
// that it killed the command: the <bash_metadata> (<shell_metadata> from
// 1.15) block appended after a timeout, an abort or a runaway process
// tree.
func killed(out string) bool {
	if !strings.Contains(out, "_metadata>") {
		// Neither block: a forward search is much faster than the two
		// backward ones over a long output.
		return false
	}
	// The last opening tag of either block, found from the end: a
	// backward search for a tag the output lacks would read all of it.
	i := len(out)
	for {
		i = strings.LastIndex(out[:i], "_metadata>")
		if i < 0 {
			return false
		}
		if strings.HasSuffix(out[:i], "<bash") || strings.HasSuffix(out[:i], "<shell") {
			break
		}
	}
	note := out[strings.LastIndexByte(out[:i], '<'):]
	return strings.Contains(note, "terminated command after exceeding timeout") ||
		strings.Contains(note, "User aborted the command") ||
		strings.Contains(note, "Command terminated")
}

// fileRefs appends a file_ref part for each file a completed built-in
// file tool read or changed: read (action read), write (write), edit and
// multiedit (patch, with metadata.diff), apply_patch and patch (one per
// file of metadata.files: write for an added file, patch otherwise, with
// its diff; else the files the patch text names). Paths are resolved
// against the session's working directory.
func (t *Translator) fileRefs(dst []universal.Part, name string, state jsonscan.Value) []universal.Part {
	ref := func(path string, action universal.FileAction, diff string) {
		if path == "" {
			return
		}
		dst = append(dst, universal.Part{
			Type:   universal.PartFileRef,
			Path:   strings.Clone(universal.ResolvePath(t.st.Cwd, path)),
			Action: action,
			Diff:   strings.Clone(diff),
		})
	}
	path := state.Get("input.filePath").Str
	switch name {
	case "read":
		ref(path, universal.FileRead, "")
	case "write":
		ref(path, universal.FileWrite, state.Get("metadata.diff").Str)
	case "edit", "multiedit":
		ref(path, universal.FilePatch, state.Get("metadata.diff").Str)
	case "apply_patch", "patch":
		files := state.Sub("metadata.files")
		if files.IsArray() && files.Len() > 0 {
			files.Each(func(_ gjson.Result, f jsonscan.Value) bool {
				p := f.Get("movePath").Str
				if p == "" {
					p = f.Get("filePath").Str
				}
				action := universal.FilePatch
				if f.Get("type").Str == "add" {
					action = universal.FileWrite
				}
				diff := f.Get("patch").Str
				if diff == "" {
					diff = f.Get("diff").Str
				}
				ref(p, action, diff)
				return true
			})
			break
		}
		for _, p := range universal.PatchPaths(state.Get("input.patchText").Str, t.st.Cwd) {
			ref(p, universal.FilePatch, "")
		}
	}
	return dst
}

// images appends an image part for each image a tool returned as an
// attachment ({type: "file", mime: "image/…", url: "data:…"}), with the
// path of the file the call read when it names one. The image data stays
// in the native payload (raw).
func (t *Translator) images(dst []universal.Part, path string, atts jsonscan.Value) []universal.Part {
	if !atts.IsArray() {
		return dst
	}
	if path != "" {
		path = universal.ResolvePath(t.st.Cwd, path)
	}
	atts.Each(func(_ gjson.Result, a jsonscan.Value) bool {
		mime := a.Get("mime").Str
		if !strings.HasPrefix(mime, "image/") {
			return true
		}
		p := path
		if p == "" {
			if f, ok := strings.CutPrefix(a.Get("url").Str, "file://"); ok {
				p = f
			} else {
				p = a.Get("filename").Str
			}
		}
		dst = append(dst, universal.Part{Type: universal.PartImage, Path: strings.Clone(p), Mime: strings.Clone(mime)})
		return true
	})
	return dst
}

// attachmentsMetadata is the tool_result metadata of a tool's attachments:
// each attachment without the data of a data: URL (it stays in raw).
func attachmentsMetadata(atts jsonscan.Value) []byte {
	out := []byte{'['}
	atts.Each(func(_ gjson.Result, a jsonscan.Value) bool {
		if len(out) > 1 {
			out = append(out, ',')
		}
		if !a.IsObject() || !strings.HasPrefix(a.Get("url").Str, "data:") {
			out = jsonw.AppendRaw(out, a.Raw())
			return true
		}
		var o jsonw.Object
		a.ForEach(func(k, v gjson.Result) bool {
			if k.Str != "url" {
				o.Raw(k.Str, v.Raw)
			}
			return true
		})
		out = append(out, o.Bytes()...)
		return true
	})
	return append(out, ']')
}

// rejectedPermission reports whether a tool's error says a permission
// request was rejected: "The user rejected permission to use this specific
// tool call." (also with an "Error: " prefix, 1.1), or the error's tagged
// name, PermissionRejectedError({"_tag":…}) (observed in 1.2.27).
func rejectedPermission(err string) bool {
	return strings.Contains(err, "rejected permission") || strings.HasPrefix(err, "PermissionRejectedError")
}

// dismissedQuestion reports whether a question tool's error says the user
// dismissed the question ("Error: The user dismissed this question").
func dismissedQuestion(err string) bool {
	return strings.Contains(err, "dismissed this question")
}

// policyDenial reports, for run output, the permission request that
// opencode run rejected on its own (it never prints the request): a
// synthetic requested/resolved pair, denied by policy.
func (t *Translator) policyDenial(dst []universal.Event, p *partState, name string) []universal.Event {
	t.st.RunPerms++
	id := fmt.Sprintf("run_perm_%d", t.st.RunPerms)
	var o jsonw.Object
	md := o.String("source", "policy").String("reason", "opencode run rejects permission requests unless run with --auto").Bytes()
	perm := universal.Permission{PermissionID: id, Action: t.w.Copy(name), Metadata: md, ItemID: p.Call, CallID: p.CallID}
	dst = t.w.RequestPermission(dst, perm, universal.SourceDaemon, nil)
	perm.Status = universal.PermissionDenied
	return t.w.ResolvePermission(dst, perm, universal.SourceDaemon, nil)
}
