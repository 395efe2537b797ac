package acp

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/internal/mcp"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// toolKinds maps ACP's ToolKind to the universal one (the universal
// vocabulary is ACP's, plus task); switch_mode and unknown kinds are
// other.
var toolKinds = map[string]universal.ToolKind{
	"read": universal.ToolRead, "edit": universal.ToolEdit, "delete": universal.ToolDelete,
	"move": universal.ToolMove, "search": universal.ToolSearch, "execute": universal.ToolExecute,
	"think": universal.ToolThink, "fetch": universal.ToolFetch, "other": universal.ToolOther,
}

// taskTools are the tool names (as adapters give them in _meta) that
// start a sub-agent.
var taskTools = map[string]bool{"Task": true, "Agent": true, "task": true, "agent": true, "subagent": true}

// toolName returns the agent's own name of a tool, when an adapter gives
// it in _meta (Claude Code's adapter: _meta.claudeCode.toolName; Goose:
// _meta.goose.toolCall {toolName, extensionName}, toolName as
// "developer__shell", which public ACP clients of Goose read; Grok Build:
// _meta["x.ai/tool"] {version, name, kind, namespace, label, read_only};
// Devin: _meta["cognition.ai/toolName"] in the tests of a public client,
// _meta["cognition.ai/inferenceToolName"] in the agent's real output,
// under the agent's own _meta namespace as its usage counts are). The unstable schema's name field,
// read first, is the standard place (merge).
func toolName(u jsonscan.Value) string {
	if u.Get("_meta.is_mcp_tool_call").Type == gjson.True {
		// @agentclientprotocol/codex-acp marks an MCP server's tool
		// (Codex's mcpToolCall item) with _meta.is_mcp_tool_call, its
		// rawInput {server, tool, arguments} and a title of its own
		// ("mcp.<server>.<tool>"; Zed's codex-acp: "Tool:
		// <server>/<tool>"): the call is named as Codex's own outputs
		// name it (package codex), mcp__<server>__<tool>.
		s, tool := u.Get("rawInput.server"), u.Get("rawInput.tool")
		if s.Type == gjson.String && tool.Type == gjson.String && s.Str != "" && tool.Str != "" {
			return "mcp__" + s.Str + "__" + tool.Str
		}
	}
	for _, p := range []string{"_meta.claudeCode.toolName", "_meta.goose.toolCall.toolName", "_meta.toolName", "_meta.tool_name", `_meta.x\.ai/tool.name`, `_meta.cognition\.ai/toolName`, `_meta.cognition\.ai/inferenceToolName`} {
		if v := u.Get(p); v.Type == gjson.String && v.Str != "" {
			return v.Str
		}
	}
	// Another agent's namespaced key ("<domain>/toolName", as ACP's
	// extensibility asks _meta keys to be: CodeBuddy's
	// "codebuddy.ai/toolName"), or its namespace object's toolName
	// (CodeBuddy's _meta["codebuddy.ai"].toolName).
	name := ""
	u.Sub("_meta").Members(func(k string, v jsonscan.Value) bool {
		switch {
		case strings.HasSuffix(k, "/toolName") && v.Type() == gjson.String:
			name = v.Str()
		case v.IsObject() && strings.Contains(k, "."):
			if n := v.Sub("toolName"); n.Type() == gjson.String {
				name = n.Str()
			}
		}
		return name == ""
	})
	if name == "" {
		// Cursor (agent acp) names its tool in the call's rawInput:
		// _toolName ("task", "createPlan", "updateTodos", …), as public
		// clients of its ACP server read it.
		if v := u.Get("rawInput._toolName"); v.Type == gjson.String {
			name = v.Str
		}
	}
	return name
}

// lookupTool returns the tool entry of a toolCallId, creating the entry
// and its tool_call item when the call is new (a tool_call update, or
// one first seen in a tool_call_update or a permission request).
func (t *Translator) lookupTool(dst []universal.Event, in *input, u jsonscan.Value) (*tool, []universal.Event) {
	id := u.Get("toolCallId").String()
	if tl := t.st.Tools[id]; tl != nil {
		return tl, dst
	}
	dst, key, sc := t.callArrives(dst, in, u)
	if sc.Msg == "" || sc.Results || !t.w.Known(sc.Msg) {
		// A response that only calls tools still has its message.
		sc.Msg = t.w.NewItemID()
		sc.Results = false
		sc.Parts, sc.Phases = sc.Parts[:0], nil // as newMessage
		sc.NativeID = ""
		dst = t.w.Complete(dst, universal.Item{ItemID: sc.Msg, ParentID: sc.Parent, Kind: universal.KindMessage, Role: universal.RoleAssistant}, agent, in.raw)
	}
	tl := &tool{ID: t.copy(id), Scope: key, Msg: sc.Msg, Call: t.w.NewItemID()}
	if t.st.Tools == nil {
		t.st.Tools = map[string]*tool{}
	}
	if n := t.countCall(tl.ID); n > 1 {
		tl.Link = universal.ReusedCallID(tl.ID, n)
	}
	t.st.Tools[tl.ID] = tl
	t.st.Order = append(t.st.Order, tl.ID)
	t.merge(tl, u, false)
	part := t.callPart(tl)
	if tl.Input != "{}" {
		// An empty object first is a call whose input still streams
		// (Claude Code's adapter): the arguments come with an update.
		part.Arguments = tl.Input
	}
	return tl, t.w.StartItem(dst, universal.Item{
		ItemID:   tl.Call,
		ParentID: tl.Msg,
		Kind:     universal.KindToolCall,
		Role:     universal.RoleAssistant,
		Content:  []universal.Part{part},
	}, agent, in.raw)
}

// countCall counts a new call with toolCallId id (a copy: the key does
// not alias the input) and returns n for the session's n-th call with it
// (see tool.Link). A replayed history's calls (session/load) are the
// session's calls again: they are counted from the first, apart, and the
// session's count is at least theirs.
func (t *Translator) countCall(id string) int {
	if t.st.CallUses == nil {
		t.st.CallUses = map[string]int{}
	}
	if !t.st.Turn.Replay {
		t.st.CallUses[id]++
		return t.st.CallUses[id]
	}
	if t.st.ReplayUses == nil {
		t.st.ReplayUses = map[string]int{}
	}
	t.st.ReplayUses[id]++
	n := t.st.ReplayUses[id]
	if n > t.st.CallUses[id] {
		t.st.CallUses[id] = n
	}
	return n
}

// callArrives does what a call's arrival does to the conversation: work
// goes on, the user's message ends, and the response's text in the call's
// scope (key) is complete.
func (t *Translator) callArrives(dst []universal.Event, in *input, u jsonscan.Value) ([]universal.Event, string, *scope) {
	dst = t.work(dst, in.raw)
	dst = t.closeUser(dst, in.raw)
	t.st.Turn.Answered = true
	key, sc := t.scopeFor(u)
	if sc.Open && t.w.IsOpen(sc.Msg) {
		// The response's text is complete when it calls a tool.
		dst = t.closeMsg(dst, sc, agent, in.raw)
		sc.Open = false
	}
	return dst, key, sc
}

// merge takes the fields a ToolCall or ToolCallUpdate carries into the
// entry (an update carries only what changed). A ToolCall (full: a
// tool_call notification) states the whole call: its content and
// locations collections are empty when absent, so they replace what an
// earlier permission request's ToolCallUpdate said of a known call
// (codex-acp's question "Do you want me to run …?" is no output of the
// command).
func (t *Translator) merge(tl *tool, u jsonscan.Value, full bool) {
	// One walk over the update's members; of duplicates the first
	// counts, as in a lookup.
	var title, name, acpKind, input, locations, status, content, output, meta jsonscan.Value
	u.Members(func(k string, v jsonscan.Value) bool {
		var p *jsonscan.Value
		switch k {
		case "title":
			p = &title
		case "name":
			p = &name
		case "kind":
			p = &acpKind
		case "rawInput":
			p = &input
		case "locations":
			p = &locations
		case "status":
			p = &status
		case "content":
			p = &content
		case "rawOutput":
			p = &output
		case "_meta":
			p = &meta
		default:
			return true
		}
		jsonscan.KeepFirst(p, v)
		return true
	})
	if title.Type() == gjson.String {
		tl.Title = t.copy(title.Str())
	}
	// The unstable schema's name ("programmatic name of the tool"; null,
	// absent or not a string: none), else an adapter's _meta.
	if name.Type() == gjson.String && name.Str() != "" {
		tl.Name = t.copy(name.Str())
	} else if n := toolName(u); n != "" {
		tl.Name = t.copy(n)
	}
	if acpKind.Type() == gjson.String {
		tl.Kind = t.copy(acpKind.Str())
	}
	if input.Type() != gjson.Null { // absent values too
		tl.Input = input.OwnJSON(t.w.Copy)
		if input.Type() == gjson.String {
			if o := encodedObject(input.Str()); o != "" {
				tl.Input = t.copy(o)
			}
		}
	}
	if locations.IsArray() || full {
		tl.Locations = nil
		locations.Each(func(_ gjson.Result, l jsonscan.Value) bool {
			if p := l.Get("path").Str; p != "" {
				tl.Locations = append(tl.Locations, t.copy(p))
			}
			return true
		})
	}
	if status.Type() == gjson.String {
		tl.Status = t.copy(status.Str())
		if tl.Status == "running" {
			// CodeBuddy's status of a running call (not in ACP's
			// ToolCallStatus): in_progress.
			tl.Status = "in_progress"
		}
	}
	switch {
	case t.kimiArguments(tl, content):
		// Kimi Code CLI's arguments as the model writes them.
	case content.IsArray():
		tl.Content, tl.Chunks = content.OwnJSON(t.w.Copy), nil
	case full:
		tl.Content, tl.Chunks = "", nil
	}
	if output.Type() != gjson.Null {
		tl.RawOutput = output.OwnJSON(t.w.Copy)
	}
	if meta.IsObject() {
		tl.Meta = meta.OwnJSON(t.w.Copy)
		meta = t.kept(meta, tl.Meta)
		// terminal_output is Zed's convention for a command's output
		// chunks; @agentclientprotocol/codex-acp (2.x) sends the same
		// chunks as terminal_output_delta to a client that declares
		// neither. claude-agent-acp gives the two keys two meanings
		// (see claudeAgent): its terminal_output is the terminal's
		// whole output, which replaces what it had.
		replace := t.claudeAdapter(meta)
		o := terminalMeta(meta, "terminal_output")
		replace = replace && o.Exists()
		if !o.Exists() {
			o = terminalMeta(meta, "terminal_output_delta")
		}
		if o.Exists() {
			if d := o.Sub("data"); d.Type() == gjson.String {
				if replace {
					tl.Terminal, tl.term, tl.streamed = t.w.CopyValue(d.Result()), nil, 0
				} else {
					// Output comes in chunks: each is appended, not the
					// output so far copied again.
					d.Extend(&tl.Terminal, &tl.term)
				}
				tl.HasTerminal = true
			}
		}
		if e := terminalMeta(meta, "terminal_exit"); e.IsObject() {
			if c := e.Get("exit_code"); c.Type == gjson.Number {
				v := c.Int()
				tl.ExitCode = &v
			}
			if s := e.Get("signal"); s.Type == gjson.String {
				tl.Signal = t.copy(s.Str)
			}
		}
	}
	kind, ok := toolKinds[tl.Kind]
	if !ok {
		kind = universal.ToolOther
	}
	if k, ok := kimiKind(tl); ok && tl.Kind == "" {
		kind = k
	}
	spawn := false
	if (input.Exists() || meta.IsObject() || title.Exists()) && codexCollab(tl) {
		// Codex's collab tools through codex-acp: named as Codex names
		// them; a spawn hands work to a sub-agent.
		if n := collabName(tl); n != "" {
			tl.Name = n
		}
		spawn = tl.Name == "spawn_agent"
	}
	if taskTools[tl.Name] || delegates(tl.Input) || gooseDelegate(tl.Name, u) || spawn {
		kind = universal.ToolTask
	}
	if tl.UKind != universal.ToolTask {
		tl.UKind = kind
	}
}

// delegateKeys are the members of a call's input that delegates reads.
var delegateKeys = [...]string{"subagent_type", "agent", "prompt", "subagentType", "agent_type"}

// firstMembers sets out[i] to the first member of the JSON object json
// named names[i], as gjson.Get finds it (nothing when json is no object),
// in one walk of the object: gjson.GetMany walks it once for each name
// and allocates its answer, for every update of a call.
func firstMembers(json string, names []string, out []gjson.Result) {
	r := gjson.Parse(json)
	if !r.IsObject() {
		return
	}
	left := len(names)
	r.ForEach(func(k, v gjson.Result) bool {
		for i, n := range names {
			if k.Str == n && !out[i].Exists() {
				out[i] = v
				left--
			}
		}
		return left > 0
	})
}

// delegates reports whether a call's rawInput hands work to a sub-agent:
// it names the agent type (subagent_type: Claude Code's Task, OpenCode
// 1.x's task; subagentType: Cursor's task, {"unspecified": {}} or
// {"custom": {"name"}}) or an agent with a prompt for it (agent and
// prompt: OpenCode 2.x's subagent tool).
func delegates(input string) bool {
	if input == "" {
		return false
	}
	var r [5]gjson.Result
	firstMembers(input, delegateKeys[:], r[:])
	return r[0].Exists() || (r[1].Type == gjson.String || r[4].Type == gjson.String) && r[2].Type == gjson.String || r[3].IsObject()
}

// gooseDelegate reports whether a call is Goose's delegate tool, which
// hands a task to a sub-agent (its summon extension, Goose 1.25 and
// later: rawInput {instructions?, source?, parameters?, async?, ...}).
// Goose's ACP server names it in _meta.goose.toolCall {toolName:
// "delegate", extensionName: "summon"} (block/goose
// crates/goose/src/acp/server/tool_calls/conversion.rs,
// tool_call_identity_meta: the extension from the tool's own metadata,
// else the prefix of an extension__tool name), as public ACP clients of
// Goose read it; summon__delegate is its prefixed name.
func gooseDelegate(name string, u jsonscan.Value) bool {
	switch name {
	case "summon__delegate":
		return true
	case "delegate":
		return u.Get("_meta.goose.toolCall.extensionName").Str == "summon"
	}
	return false
}

// claudeAgent stands for the agentInfo names of Claude Code's ACP adapter
// (@agentclientprotocol/claude-agent-acp, before it
// @zed-industries/claude-agent-acp and @zed-industries/claude-code-acp),
// whose _meta.terminal_output replaces a terminal's output: its terminal
// is rendered from terminal_info, terminal_output and terminal_exit, and
// "the client appends _meta.terminal_output_delta instead of
// terminal_output chunks" (0.101.0 dist/tool-calls/client-capabilities.js);
// the whole output of a command comes as terminal_output at its result
// (tool-calls/renderer.js), and a background command's output file, read
// after that result, first as terminal_output ("the first output replaces
// the placeholder", background-work.js followOutput, terminalOutputUpdate:
// output.replaces ? terminal_output : terminal_output_delta), then as
// terminal_output_delta. Zed's codex-acp sends each chunk of a command's
// output as terminal_output (src/thread.rs exec_command_output_delta):
// appended.
const claudeAgent = "claude-agent-acp"

// claudeAdapter reports whether the agent is Claude Code's adapter: its
// initialize response named it, or (the agent's side alone, without
// that response) an update's _meta carries the adapter's own namespace,
// claudeCode, as it does on every call it announces.
func (t *Translator) claudeAdapter(meta jsonscan.Value) bool {
	if t.st.Agent == "" && meta.Sub("claudeCode").IsObject() {
		t.st.Agent = claudeAgent
	}
	return t.st.Agent == claudeAgent
}

// terminalMeta returns the terminal output or exit the adapters put in a
// tool call's _meta (at the top, or under their own key).
func terminalMeta(m jsonscan.Value, k string) jsonscan.Value {
	if v := m.Sub(k); v.Exists() {
		return v
	}
	var found jsonscan.Value
	m.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		if v.IsObject() {
			if x := v.Sub(k); x.Exists() {
				found = x
				return false
			}
		}
		return true
	})
	return found
}

// callPart returns the tool_call part of an entry (without arguments).
// Without a programmatic name the call is named by its title, unless
// the title is a place the call touches (see targetTitle): then by its
// kind.
func (t *Translator) callPart(tl *tool) universal.Part {
	name := tl.Name
	if name == "" && !targetTitle(tl) {
		name = tl.Title
	}
	if name == "" {
		name = tl.Kind
	}
	if name == "" {
		name = "tool"
	}
	var md jsonw.Object
	md.OptString("title", tl.Title).OptString("acp_kind", tl.Kind)
	if len(tl.Locations) > 0 {
		md.Strings("locations", tl.Locations)
	}
	p := universal.Part{Type: universal.PartToolCall, Name: name, CallID: tl.link(), ToolKind: tl.UKind, ToolInput: t.toolInput(tl)}
	if md.Len() > 0 {
		p.Metadata = md.Bytes()
	}
	return p
}

// targetTitle reports whether a call's title is one of its locations:
// the path, or its end after a separator (the file name, or the path
// relative to a directory). Such a title says what the call works on,
// not which tool it is: OpenCode titles a finished call by its state's
// title (a read's file path relative to the worktree) and replays a
// loaded session's calls with that title from their first tool_call
// (1.18.16's session/load: "README.md", kind read), where the live call
// was titled by its tool ("read").
func targetTitle(tl *tool) bool {
	if tl.Title == "" || tl.Kind == "" {
		return false
	}
	for _, l := range tl.Locations {
		if l == tl.Title {
			return true
		}
		if n := len(l) - len(tl.Title); n > 0 && l[n:] == tl.Title && (l[n-1] == '/' || l[n-1] == '\\') {
			return true
		}
	}
	return false
}

// toolInput reads the key arguments of a call from its rawInput (whose
// shape is the agent's own: the common names are tried) and, for files,
// its locations.
func (t *Translator) toolInput(tl *tool) *universal.ToolInput {
	spec := universal.ToolSpec{Kind: tl.UKind}
	switch tl.UKind {
	case universal.ToolExecute:
		spec.Command = "command|cmd|commandLine|script"
	case universal.ToolRead, universal.ToolEdit, universal.ToolDelete:
		spec.Paths = "file_path|path|filePath|abs_path|absolute_path|paths|file|notebook_path"
	case universal.ToolMove:
		spec.Paths = "source|from|old_path|source_path|src"
		spec.Dest = "destination|to|new_path|destination_path|dest"
	case universal.ToolSearch:
		spec.Query = "pattern|query|regex|glob|search"
		spec.Paths = "path|dir_path|directory|paths"
	case universal.ToolFetch:
		spec.URL = "url|uri"
	case universal.ToolTask:
		spec.Prompt = "prompt|task|instructions|description"
		spec.Agent = "subagent_type|agent|agent_type|source"
	}
	in := spec.Input(tl.Input, t.st.Cwd)
	switch tl.UKind {
	case universal.ToolRead, universal.ToolEdit, universal.ToolDelete, universal.ToolMove:
		if len(in.Paths) == 0 {
			for _, l := range tl.Locations {
				in.Paths = append(in.Paths, universal.ResolvePath(t.st.Cwd, filePath(l)))
			}
		}
	}
	return in
}

// toolCall translates tool_call and tool_call_update.
func (t *Translator) toolCall(dst []universal.Event, in *input, u jsonscan.Value, full bool) []universal.Event {
	if id := u.Sub("toolCallId").Type(); id != gjson.String && id != gjson.Number {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: tool call without toolCallId", errBadParams), in.raw)
	}
	if id := u.Get("toolCallId").String(); !full && t.st.Tools[id] == nil && !t.st.Turn.Open && slices.Contains(t.st.Ended, id) {
		// An update of a call of the turn the prompt's response ended:
		// the turn is over (its calls closed), so the update is no call
		// of a new turn; kept whole as a status item.
		return t.status(dst, "tool_call_update_after_turn", id, t.rawObject("update", u), "", in.raw)
	}
	if full && t.st.Tools[u.Get("toolCallId").String()] == nil {
		if server, ok := mcpStartup(u); ok {
			return t.mcpStartupNotice(dst, in, u, server)
		}
	}
	if t.st.Tools[u.Get("toolCallId").String()] == nil {
		if codexActivity(u) {
			return t.subagentActivity(dst, in, u)
		}
	}
	if t.st.Tools[u.Get("toolCallId").String()] == nil && compactionCall(u) {
		return t.compactionToolCall(dst, in, u)
	}
	if prev := t.st.Tools[u.Get("toolCallId").String()]; full && prev != nil && prev.Done {
		// A tool_call with the id of a call that completed: another
		// call (the model's id reused by a later response, see
		// tool.Link), which takes the id's place in the turn.
		delete(t.st.Tools, prev.ID)
		t.st.Order = slices.DeleteFunc(t.st.Order, func(id string) bool { return id == prev.ID })
	}
	tl, dst := t.lookupTool(dst, in, u)
	if tl.Done {
		if !bringsOutput(u, tl.Status) {
			return dst // a repeat of the final status, nothing new
		}
		// Output after the final status (Cline has been seen to send a
		// command's call completed, then its output): the call's items
		// are complete, so the update is kept whole as a status item.
		return t.status(dst, "tool_call_update_after_end", tl.ID, t.rawObject("update", u), "", in.raw)
	}
	t.merge(tl, u, full)
	t.claimTerminals(tl)
	switch tl.Status {
	case "in_progress", "completed", "failed", "cancelled":
		dst = t.resolveByOutcome(dst, tl, in.raw)
	}
	switch tl.Status {
	case "in_progress":
		if text, ok := argumentText(u); ok {
			switch ri := u.Sub("rawInput"); {
			case !ri.Exists() && tl.Input == "":
				// Kimi Code (0.26) streams a call's arguments as its
				// content before it sends them as rawInput: no output
				// yet, and the call's arguments are still to come.
				tl.Content, tl.Chunks = "", nil
				return dst
			case ri.Exists() && (jsonw.Compact(text) == jsonw.Compact(ri.Raw()) || jsonscan.Same(text, ri.Raw())):
				// The arguments whole, beside their rawInput (its
				// members perhaps in another order than the text's: a
				// log re-serialized with sorted keys reorders the
				// object, not the text).
				tl.Content, tl.Chunks = "", nil
				dst = t.completeCall(dst, tl, in.raw)
				return t.startResult(dst, tl, in.raw)
			}
		}
		dst = t.completeCall(dst, tl, in.raw)
		dst = t.startResult(dst, tl, in.raw)
		return t.streamOutput(dst, tl, t.content(tl, u), in.raw)
	case "completed", "failed", "cancelled":
		// cancelled: ACP v2's ToolCallStatus ("cancelled before it
		// completed"; claude-agent-acp sends it to a v2 client for an
		// interrupted or stopped run), a final status as failed is.
		dst = t.completeCall(dst, tl, in.raw)
		if full && t.st.Turn.Replay && tl.Result == "" && noResult(tl) {
			// A replayed call's final status without its result, which
			// an update brings (see resultLater).
			tl.Later = true
			return dst
		}
		return t.completeResult(dst, tl, t.content(tl, u), in.raw)
	}
	return dst
}

// argumentText returns the text of an update's content when it is one
// text that reads as (the start of) a JSON object: how Kimi Code streams
// a call's arguments in its in_progress updates, ahead of its rawInput.
func argumentText(u jsonscan.Value) (string, bool) {
	c := u.Sub("content")
	if !c.IsArray() {
		return "", false
	}
	n, text, ok := 0, "", true
	c.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		n++
		if v.Get("type").Str != "content" || v.Get("content.type").Str != "text" {
			ok = false
			return false
		}
		text = v.Get("content.text").Str
		return true
	})
	return text, ok && n == 1 && strings.HasPrefix(strings.TrimSpace(text), "{")
}

// isDescription reports whether text, a text content of a command's call,
// is the description its arguments give (rawInput.description): Claude
// Code's adapter (claude-code-acp, 2025) shows a Bash call's description as
// its content and, the command run, completes it with no content of its
// own (its result for Bash and Write is empty), so the description is all
// the content the call ever has. That is no output of the command. desc
// caches whether the call has a description at all (-1: not looked up),
// so the arguments, small for a command, are read once per content.
func isDescription(tl *tool, text string, desc *int) bool {
	if tl.UKind != universal.ToolExecute || text == "" || tl.Input == "" {
		return false
	}
	if *desc == -1 {
		*desc = 0
		if d := gjson.Get(tl.Input, "description"); d.Type == gjson.String && d.Str != "" {
			*desc = 1
		}
	}
	return *desc == 1 && text == gjson.Get(tl.Input, "description").Str
}

// onlyDescription reports whether a command's content is its description
// alone (see isDescription): the call has no output ACP carries.
func onlyDescription(tl *tool, content jsonscan.Value) bool {
	desc, n, ok := -1, 0, true
	content.Each(func(_ gjson.Result, c jsonscan.Value) bool {
		n++
		ok = c.Sub("type").Str() == "content" && c.Sub("content").Sub("type").Str() == "text" &&
			isDescription(tl, c.Sub("content").Sub("text").Str(), &desc)
		return ok
	})
	return ok && n > 0
}

// bringsOutput reports whether an update of a call that has its final
// status, status, carries anything a client would miss: content,
// rawOutput, or another status.
func bringsOutput(u jsonscan.Value, status string) bool {
	if c := u.Sub("content"); c.IsArray() && strings.Trim(c.Raw(), "[] \t\r\n") != "" {
		return true
	}
	if o := u.Sub("rawOutput"); o.Exists() && o.Raw() != "null" {
		return true
	}
	st := u.Sub("status")
	return st.Exists() && st.Str() != status
}

// mcpStartup reports whether a tool_call is @agentclientprotocol/codex-acp's
// report of an MCP server that failed to start or whose start was
// cancelled (CodexEventHandler.createMcpStartupToolCallUpdate: toolCallId
// "mcp_startup.<server, URI-encoded>", title "mcp__<server>__startup",
// kind other, status failed, its text "[codex-acp forwarded startup
// error] MCP server `…` failed to start: …"), and the server's name: a
// diagnostic of the session's setup shown as a call, not a call the model
// made.
func mcpStartup(u jsonscan.Value) (string, bool) {
	if !strings.HasPrefix(u.Get("toolCallId").Str, "mcp_startup.") || u.Get("status").Str != "failed" {
		return "", false
	}
	server, ok := strings.CutPrefix(u.Get("title").Str, "mcp__")
	if !ok {
		return "", false
	}
	server, ok = strings.CutSuffix(server, "__startup")
	return server, ok && server != ""
}

// mcpStartupNotice translates codex-acp's MCP startup report (see
// mcpStartup) as the notice it is: a status item labelled notice, detail
// its text, the server, toolCallId and content in its metadata.
func (t *Translator) mcpStartupNotice(dst []universal.Event, in *input, u jsonscan.Value, server string) []universal.Event {
	var tl tool
	text := t.output(&tl, u.Sub("content"))
	var md jsonw.Object
	md.String("mcp_server", server).String("status", "failed").Raw("toolCallId", u.Sub("toolCallId").Raw()).Raw("content", u.Sub("content").Raw())
	return t.status(dst, "notice", text, md.Bytes(), "", in.raw)
}

// content returns a call's content collection, which merge took from
// update u or kept from an earlier one: u's own, read in the scan's index,
// when it has one, rather than the kept copy scanned again (tool output
// and file contents are large).
func (t *Translator) content(tl *tool, u jsonscan.Value) jsonscan.Value {
	tl.settle()
	if c := u.Sub("content"); c.IsArray() {
		return t.kept(c, tl.Content)
	}
	return jsonscan.Wrap(gjson.Parse(tl.Content))
}

// kept returns what a call keeps of value v of the message (copied, its
// copy by copyValue) to be read: v itself, indexed, when the copy is v
// compacted; else (nested deeper than jsonw compacts) the copy, read by
// gjson.
func (t *Translator) kept(v jsonscan.Value, copied string) jsonscan.Value {
	if t.scan.Depth() <= jsonw.MaxDepth {
		return v
	}
	return jsonscan.Wrap(gjson.Parse(copied))
}

// completeCall completes a call's tool_call item: its arguments are
// known when it runs.
func (t *Translator) completeCall(dst []universal.Event, tl *tool, raw []byte) []universal.Event {
	if !t.w.IsOpen(tl.Call) {
		return dst
	}
	p := t.callPart(tl)
	p.Arguments = tl.Input
	if p.Arguments == "" {
		p.Arguments = "{}"
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:   tl.Call,
		ParentID: tl.Msg,
		Kind:     universal.KindToolCall,
		Role:     universal.RoleAssistant,
		Content:  []universal.Part{p},
	}, agent, raw)
}

// startResult starts a call's tool_result item.
func (t *Translator) startResult(dst []universal.Event, tl *tool, raw []byte) []universal.Event {
	if tl.Result != "" {
		return dst
	}
	tl.Result = t.w.NewItemID()
	return t.w.StartItem(dst, universal.Item{
		ItemID:   tl.Result,
		ParentID: tl.Msg,
		Kind:     universal.KindToolResult,
		Role:     universal.RoleTool,
		Content:  []universal.Part{{Type: universal.PartToolResult, CallID: tl.link()}},
	}, agent, raw)
}

// streamOutput emits what the call's output (rendered from its content so
// far) adds to what streamed; output that does not extend it stops the
// deltas, and the final result replaces it.
func (t *Translator) streamOutput(dst []universal.Event, tl *tool, content jsonscan.Value, raw []byte) []universal.Event {
	if tl.Diverged || !t.w.IsOpen(tl.Result) {
		return dst
	}
	text := t.output(tl, content)
	streamed := t.w.StreamedText(tl.Result, 0)
	alone := tl.HasTerminal && len(text) == len(tl.Terminal) && (text == "" || unsafe.StringData(text) == unsafe.StringData(tl.Terminal))
	switch {
	case alone && tl.streamed == len(streamed)+1 && len(text) >= len(streamed):
		// The terminal's output only grew since the result streamed all
		// of it: what came before is not compared again.
	case !strings.HasPrefix(text, streamed):
		tl.Diverged = true
		return dst
	}
	tl.streamed = 0
	if alone {
		tl.streamed = len(text) + 1
	}
	return t.w.Delta(dst, tl.Result, 0, universal.PartToolResult, text[len(streamed):], agent, raw)
}

// output renders a call's output (its content collection given): its
// text content, else the output of its terminal, else its rawOutput. It
// may alias the message.
func (t *Translator) output(tl *tool, content jsonscan.Value) string {
	// The pieces joined by newlines; one piece (the common case) is
	// returned as it is.
	var out string
	var b []byte
	add := func(s string) {
		switch {
		case s == "":
		case out == "":
			out = s
		case b == nil:
			b = append(append(append(b, out...), '\n'), s...)
		default:
			b = append(append(b, '\n'), s...)
		}
	}
	var image string // the data of the content's first image
	desc := -1       // whether the call has a description: unknown yet
	content.Each(func(_ gjson.Result, c jsonscan.Value) bool {
		switch c.Sub("type").Str() {
		case "content":
			switch cc := c.Sub("content"); cc.Sub("type").Str() {
			case "text":
				text := cc.Sub("text").Str()
				if isDescription(tl, text, &desc) {
					break
				}
				add(text)
			case "resource":
				add(cc.Sub("resource.text").Str())
			case "resource_link":
				add(cc.Sub("uri").Str())
			case "image":
				if image == "" {
					image = cc.Sub("data").Str()
				}
			}
		case "terminal":
			if tl.HasTerminal {
				add(tl.Terminal)
			}
		}
		return true
	})
	if b != nil {
		return string(b)
	}
	if out != "" {
		return out
	}
	if tl.HasTerminal {
		return tl.Terminal
	}
	ro := gjson.Parse(tl.RawOutput)
	switch {
	case tl.RawOutput == "":
		return ""
	case ro.Type == gjson.String:
		return ro.Str
	case ro.IsObject():
		// formatted_output: @agentclientprotocol/codex-acp's command
		// result {formatted_output, exit_code} (Codex's aggregated
		// output).
		vs := jsonscan.GetMany(tl.RawOutput, "output", "aggregated_output", "formatted_output", "stdout", "result", "content", "stderr", "message")
		for i, v := range vs[:6] {
			if v.Type != gjson.String {
				continue
			}
			if image != "" && v.Str == image {
				// The image the content shows (codex-acp's generated
				// image {status, revisedPrompt, result: its base64}):
				// not text.
				return ""
			}
			if i == 3 && vs[6].Type == gjson.String && vs[6].Str != "" {
				// A command's {stdout, stderr} (Cursor's {exitCode,
				// stdout, stderr}): stdout, then stderr, as a terminal
				// shows them.
				if v.Str == "" || strings.HasSuffix(v.Str, "\n") {
					return v.Str + vs[6].Str
				}
				return v.Str + "\n" + vs[6].Str
			}
			return v.Str
		}
		if s, ok := kiroItems(ro); ok {
			return s
		}
		if s, ok := mcpRawOutput(ro); ok {
			return s
		}
		if m := vs[7]; tl.Status == "failed" && m.Type == gjson.String {
			// A failed call's error {message, code?} (GitHub Copilot
			// CLI's ToolExecutionCompleteError): its message.
			return m.Str
		}
	}
	return tl.RawOutput
}

// mcpRawOutput returns the output of an MCP tool's call in
// @agentclientprotocol/codex-acp's rawOutput {result: MCP's
// CallToolResult {content: blocks, structuredContent, isError} or null,
// error: {message} or null} (createMcpRawOutput), as package codex reads
// the item it forwards: the error's message, else the text blocks' texts
// joined by newlines; false when rawOutput is not of that shape.
func mcpRawOutput(ro gjson.Result) (string, bool) {
	r := ro.Get("result")
	e := ro.Get("error")
	// Both members are there, each null or of its type (an absent member
	// reads as null).
	if !r.Exists() || !e.Exists() || !r.IsObject() && r.Type != gjson.Null || !e.IsObject() && e.Type != gjson.Null && e.Type != gjson.String {
		return "", false
	}
	if e.Type == gjson.Null && !r.Get("content").IsArray() {
		return "", false
	}
	text, _ := mcp.Text(r, e)
	return text, true
}

// kiroItems returns the text of Kiro CLI's rawOutput {items: [{Text:
// "…"} or {Json: {exit_status, stdout, stderr}}]}: the texts, and each
// command's stdout then stderr, joined by newlines; false when rawOutput
// has no such items.
func kiroItems(ro gjson.Result) (string, bool) {
	items := ro.Get("items")
	if !items.IsArray() {
		return "", false
	}
	var parts []string
	found := false
	items.ForEach(func(_, it gjson.Result) bool {
		if t := it.Get("Text"); t.Type == gjson.String {
			found = true
			parts = append(parts, t.Str)
		} else if j := it.Get("Json"); j.IsObject() {
			found = true
			for _, k := range []string{"stdout", "stderr"} {
				if v := j.Get(k); v.Type == gjson.String && v.Str != "" {
					parts = append(parts, v.Str)
				}
			}
		}
		return true
	})
	return strings.Join(parts, "\n"), found
}

// kiroExitStatus returns the exit code of Kiro CLI's rawOutput
// items[0].Json.exit_status ("exit status: 2", Rust's rendering of a
// process's exit status); false when there is none (a signal's "signal:
// 9 (SIGKILL)" names no exit code).
func kiroExitStatus(ro gjson.Result) (int64, bool) {
	st := ro.Get("items.0.Json.exit_status")
	if st.Type != gjson.String {
		return 0, false
	}
	n, ok := strings.CutPrefix(st.Str, "exit status: ")
	if !ok {
		return 0, false
	}
	c, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64)
	if err != nil {
		return 0, false
	}
	return c, true
}

// copilotExit returns the exit code in GitHub Copilot CLI's rawOutput
// contents (its tool result {content, detailedContent?, contents?}: the
// first block of type shell_exit {shellId, exitCode, cwd?,
// outputPreview?} or, the older block, terminal {text, exitCode?, cwd?},
// as github/copilot-sdk's generated session events type
// ToolExecutionCompleteResult); false when there is none.
func copilotExit(contents gjson.Result) (int64, bool) {
	if !contents.IsArray() {
		return 0, false
	}
	var code int64
	found := false
	contents.ForEach(func(_, c gjson.Result) bool {
		switch c.Get("type").Str {
		case "shell_exit", "terminal":
			if e := c.Get("exitCode"); e.Type == gjson.Number {
				code, found = e.Int(), true
				return false
			}
		}
		return true
	})
	return code, found
}

// completeResult completes a call's tool_result item: the output part
// (is_error when the call failed, or an execute call's exit code is not
// 0), then a file_ref part per diff and per file the client read or
// wrote for it, then its images.
func (t *Translator) completeResult(dst []universal.Event, tl *tool, content jsonscan.Value, raw []byte) []universal.Event {
	tl.Done = true
	// The sub-agent a call spawned ends with it: its last message is
	// complete before the call's result, not when the next chunk of
	// another scope or the turn's end comes.
	for _, key := range t.subScopes(tl.ID) {
		if sc := t.st.Scopes[key]; sc != nil && sc.Open {
			if t.w.IsOpen(sc.Msg) {
				dst = t.closeMsg(dst, sc, srcOf(raw), raw)
			}
			sc.Open = false
		}
	}
	if sc := t.st.Scopes[tl.Scope]; sc != nil && sc.Msg == tl.Msg {
		sc.Results = true
	}
	if tl.Result == "" {
		tl.Result = t.w.NewItemID()
	}
	output := t.output(tl, content)
	isError := tl.Status == "failed" || tl.Status == "cancelled"
	var md jsonw.Object
	if tl.Status == "cancelled" {
		md.Bool("cancelled", true)
	}
	code := tl.ExitCode
	if code == nil {
		// What gjson.Parse(tl.RawOutput).Get(k) answers, without
		// unescaping a string output first: Get on the value's raw.
		ro := tl.RawOutput
		if isString(ro) {
			ro = strings.TrimSpace(ro)
		}
		// One scan for the names agents give it (an absent name made
		// gjson read all of a large output).
		vs := jsonscan.GetMany(ro, "exit_code", "exitCode", "returncode", "metadata.exit", "contents", "result.isError")
		// codex-acp's MCP result that the tool says failed (see
		// mcpRawOutput).
		isError = isError || vs[5].Type == gjson.True
		for _, v := range vs[:4] {
			if v.Type == gjson.Number {
				c := v.Int()
				code = &c
				break
			}
		}
		if code == nil {
			if c, ok := copilotExit(vs[4]); ok {
				code = &c
			}
		}
		if code == nil && strings.HasPrefix(ro, "{") {
			if c, ok := kiroExitStatus(gjson.Parse(ro)); ok {
				code = &c
			}
		}
	}
	if code != nil && tl.UKind == universal.ToolExecute {
		md.Int("exit_code", *code)
		isError = isError || *code != 0
	}
	md.OptString("signal", tl.Signal)
	if tl.Meta != "" {
		// claude-agent-acp (0.101.0) puts why a result is the harness's
		// words, not the tool's output, in the final update's
		// _meta.claudeCode (Claude Code's tool_result_meta):
		// nonExecutionKind user-rejected, permission-rule, interrupted,
		// cancelled, … as the claude translator's non_execution_kind.
		if k := gjson.Get(tl.Meta, "claudeCode.nonExecutionKind"); k.Type == gjson.String && k.Str != "" {
			md.String("non_execution_kind", k.Str)
		}
	}
	if tl.RawOutput != "" && !isString(tl.RawOutput) {
		// Kept by OwnJSON, or restored from a checkpoint that holds it so
		// (see validate): compact already, not scanned again.
		md.RawClean("raw_output", tl.RawOutput)
	}
	if tl.settle(); (tl.Content == "" || output == "" && onlyDescription(tl, content)) && tl.RawOutput == "" && !tl.HasTerminal {
		if codexCollab(tl) {
			// codex-acp's collab call: what the sub-agents said is in
			// the rawInput of the update that completes it.
			var states string
			output, states = collabOutput(tl.Input)
			md.Raw("agents_states", states)
		} else {
			// ACP carries no output for the call: say so.
			md.Bool("no_output", true)
		}
	}
	p := universal.Part{Type: universal.PartToolResult, CallID: tl.link(), Output: t.copy(output), IsError: isError}
	if md.Len() > 0 {
		p.Metadata = md.Bytes()
	}
	parts := []universal.Part{p}
	seen := map[string]bool{}
	content.Each(func(_ gjson.Result, c jsonscan.Value) bool {
		switch c.Sub("type").Str() {
		case "diff":
			if ch := c.Sub("changes"); ch.IsArray() {
				parts = t.v2DiffRefs(parts, ch, c.Sub("patch"), seen)
				break
			}
			p := c.Sub("path").Str()
			if p == "" {
				break
			}
			path := universal.ResolvePath(t.st.Cwd, filePath(p))
			oldText := c.Sub("oldText")
			old, isNew := oldText.Str(), oldText.Type() == gjson.Null // absent too
			action := universal.FilePatch
			if isNew {
				action = universal.FileWrite
			}
			seen[path] = true
			parts = append(parts, universal.Part{Type: universal.PartFileRef, Path: t.copy(path), Action: action,
				Diff: t.copy(unifiedDiff(path, old, c.Sub("newText").Str(), isNew))})
		case "content":
			if cc := c.Sub("content"); cc.Sub("type").Str() == "image" {
				if img, ok := t.image(cc); ok {
					parts = append(parts, img)
				}
			}
		}
		return true
	})
	// The files the agent read and wrote through the client for the call,
	// done even if the call then failed: a path its content showed a diff
	// of already is not named again, but a read and a write of one path
	// are two file_refs (a write after a read is the call's edit;
	// fsRequest keeps each path and action once).
	for _, f := range tl.Files {
		if !seen[f.Path] {
			parts = append(parts, universal.Part{Type: universal.PartFileRef, Path: f.Path, Action: f.Action})
		}
	}
	for _, f := range tl.Files {
		seen[f.Path] = true
	}
	if !isError {
		if len(parts) == 1 && (tl.UKind == universal.ToolRead || tl.UKind == universal.ToolEdit) {
			// The files the call names (its locations or arguments).
			action := universal.FileRead
			if tl.UKind == universal.ToolEdit {
				action = universal.FilePatch
			}
			for _, path := range t.toolInput(tl).Paths {
				if !seen[path] {
					seen[path] = true
					parts = append(parts, universal.Part{Type: universal.PartFileRef, Path: path, Action: action})
				}
			}
		}
	}
	status := universal.StatusCompleted
	if isError {
		status = universal.StatusFailed
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:   tl.Result,
		ParentID: tl.Msg,
		Kind:     universal.KindToolResult,
		Role:     universal.RoleTool,
		Content:  parts,
		Status:   status,
	}, agent, raw)
}

// unifiedDiff returns a unified diff of a file's change: the lines
// around the change the old and new text share are left out, and the
// rest is one hunk (not a minimal diff).
func unifiedDiff(path, old, new string, created bool) string {
	if old == new && !created {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var sb strings.Builder
	// The a/ and b/ prefixes of git's headers: an absolute POSIX path
	// brings its own slash, a Windows path (C:\…, Copilot CLI's) does not.
	sep := ""
	if !strings.HasPrefix(path, "/") {
		sep = "/"
	}
	from := "a" + sep + path
	if created {
		from = "/dev/null"
	}
	fmt.Fprintf(&sb, "--- %s\n+++ b%s%s\n", from, sep, path)
	oldN, newN := len(a)-pre-suf, len(b)-pre-suf
	start := func(n int) int {
		if n == 0 {
			return pre
		}
		return pre + 1
	}
	fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n", start(oldN), oldN, start(newN), newN)
	for _, l := range a[pre : len(a)-suf] {
		sb.WriteString("-" + l + "\n")
	}
	for _, l := range b[pre : len(b)-suf] {
		sb.WriteString("+" + l + "\n")
	}
	return sb.String()
}

// isString reports whether raw, valid JSON, is a string.
func isString(raw string) bool {
	raw = strings.TrimLeft(raw, " \t\r\n")
	return raw != "" && raw[0] == '"'
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// permissionRequest translates session/request_permission: the call it
// guards (created from the request when it is new) and
// permission.requested with the options.
func (t *Translator) permissionRequest(dst []universal.Event, in *input, id string, params jsonscan.Value) []universal.Event {
	tc := params.Sub("toolCall")
	if !tc.IsObject() {
		tc = permissionSubject(params)
	}
	if !tc.IsObject() || tc.Get("toolCallId").Type != gjson.String {
		if t.st.V2 || params.Sub("title").Type() == gjson.String {
			return t.subjectPermission(dst, in, id, params)
		}
		t.remember(in.dir, id, request{Method: mRequestPermission})
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: permission request without a toolCall", errBadParams), in.raw)
	}
	tl, dst := t.lookupTool(dst, in, tc)
	if !tl.Done {
		t.merge(tl, withoutTextContent(tc), false)
	}
	t.st.Seq++
	r := request{Method: mRequestPermission, Call: tl.ID, ID: fmt.Sprintf("perm_%d", t.st.Seq)}
	options := params.Sub("options")
	options.Each(func(_ gjson.Result, o jsonscan.Value) bool {
		r.Options = append(r.Options, option{ID: t.copy(o.Get("optionId").String()), Kind: t.copy(o.Get("kind").Str), Name: t.copy(o.Get("name").Str)})
		return true
	})
	action := tl.Title
	if action == "" {
		action = tl.Name
	}
	r.Action = action
	t.remember(in.dir, id, r)
	var md jsonw.Object
	options.AddTo(&md, "options")
	tc.AddTo(&md, "tool_call").String("request_id", id)
	// The request's own _meta: claude-agent-acp puts why Claude Code
	// asks there (_meta.permission {title, description: "Reason: …"}).
	params.Sub("_meta").AddTo(&md, "_meta")
	// ACP v2's prompt title and description, and its subject.
	params.Sub("title").AddTo(&md, "title")
	params.Sub("description").AddTo(&md, "description")
	params.Sub("subject").AddTo(&md, "subject")
	return t.w.RequestPermission(dst, universal.Permission{
		PermissionID: r.ID,
		Action:       action,
		Metadata:     md.Bytes(),
		ItemID:       tl.Call,
		CallID:       tl.link(),
	}, agent, in.raw)
}

// subjectPermission translates an ACP v2 session/request_permission that
// names no call: its subject is optional ("Omitted or null both mean no
// structured subject was provided"), a command's toolCallId too ("The
// associated tool call, when known"), and other subject types are custom
// or future ones a client shows as a generic prompt (schema/v2
// RequestPermissionSubject). It is permission.requested under no call,
// its action the request's title (required), else the command; title,
// description, subject, options and request id in its metadata.
func (t *Translator) subjectPermission(dst []universal.Event, in *input, id string, params jsonscan.Value) []universal.Event {
	t.st.Seq++
	r := request{Method: mRequestPermission, ID: fmt.Sprintf("perm_%d", t.st.Seq)}
	options := params.Sub("options")
	options.Each(func(_ gjson.Result, o jsonscan.Value) bool {
		r.Options = append(r.Options, option{ID: t.copy(o.Get("optionId").String()), Kind: t.copy(o.Get("kind").Str), Name: t.copy(o.Get("name").Str)})
		return true
	})
	r.Action = t.copy(params.Sub("title").Str())
	if r.Action == "" {
		r.Action = t.copy(params.Sub("subject").Sub("command").Str())
	}
	t.remember(in.dir, id, r)
	var md jsonw.Object
	options.AddTo(&md, "options")
	md.String("request_id", id)
	params.Sub("_meta").AddTo(&md, "_meta")
	params.Sub("title").AddTo(&md, "title")
	params.Sub("description").AddTo(&md, "description")
	params.Sub("subject").AddTo(&md, "subject")
	return t.w.RequestPermission(dst, universal.Permission{PermissionID: r.ID, Action: r.Action, Metadata: md.Bytes()}, agent, in.raw)
}

// subScopes returns the keys of the scopes of the sub-agents the call id
// spawned: its own (keyed by its id), then those of the sub-agent
// sessions under it, by session id.
func (t *Translator) subScopes(id string) []string {
	keys := []string{id}
	var sids []string
	for _, sid := range t.st.TurnSubs {
		if t.st.SubSessions[sid] == id {
			sids = append(sids, sid)
		}
	}
	slices.Sort(sids)
	for _, sid := range sids {
		keys = append(keys, subScopePrefix+sid)
	}
	return keys
}

// filePath returns the path a file: URI names (Kiro's diffs name their
// file as file:///…), percent-decoded; any other text as it is.
func filePath(p string) string {
	if !strings.HasPrefix(p, "file://") {
		return p
	}
	u, err := url.Parse(p)
	if err != nil || u.Path == "" || (u.Host != "" && u.Host != "localhost") {
		return p
	}
	if q := u.Path; len(q) >= 4 && q[0] == '/' && q[2] == ':' && q[3] == '/' && (q[1]|0x20 >= 'a' && q[1]|0x20 <= 'z') {
		return q[1:] // file:///C:/… names C:/…
	}
	return u.Path
}

// withoutTextContent returns a permission request's toolCall without the
// text items of its content. What a request's toolCall carries is shown to
// the user to decide: a diff is the change the call proposes (the call's
// file_ref), but a text is the question or a description of the call
// (Codex's "Do you want me to run …", Cursor's "Not in allowlist: …"),
// never its output, which it cannot have before it runs; the text stays
// in the permission's metadata. A toolCall without text content is
// returned as it is.
func withoutTextContent(tc jsonscan.Value) jsonscan.Value {
	c := tc.Get("content")
	if !c.IsArray() {
		return tc
	}
	var kept []string
	dropped := false
	c.ForEach(func(_, v gjson.Result) bool {
		if v.Get("type").Str == "content" && v.Get("content.type").Str == "text" {
			dropped = true
		} else {
			kept = append(kept, v.Raw)
		}
		return true
	})
	if !dropped {
		return tc
	}
	// Rebuilt without the text items; with none left, without content
	// (the update then names none, and the call keeps what it had).
	var o jsonw.Object
	tc.Members(func(k string, v jsonscan.Value) bool {
		if k != "content" {
			o.Raw(k, v.Raw())
		}
		return true
	})
	if len(kept) > 0 {
		o.Raw("content", "["+strings.Join(kept, ",")+"]")
	}
	return jsonscan.Wrap(gjson.ParseBytes(o.Bytes()))
}

// resolveByOutcome resolves a permission request of a call that runs or
// ends while the host's answer is not seen (the agent's side alone), at
// the call's first status after the request: the call runs or completes,
// so it was approved; it fails, with nothing run since the request, so it
// was denied. A call may be in_progress before its request (OpenCode's
// tools ask from inside their run): that is no approval. The
// permission.resolved is synthetic, marked "inferred".
func (t *Translator) resolveByOutcome(dst []universal.Event, tl *tool, raw []byte) []universal.Event {
	return t.resolveInferred(dst, tl, tl.Status != "failed" && tl.Status != "cancelled", raw)
}

// ranAfterRequest resolves a permission request of a call still waiting
// for an answer as approved, inferred, when the agent has the client
// write a file or start a command for the call: it runs. Claude Code's
// adapter asks, then reads and writes the file through the client; a log
// of the agent's side that ends there has no later status to tell.
func (t *Translator) ranAfterRequest(dst []universal.Event, tl *tool, raw []byte) []universal.Event {
	return t.resolveInferred(dst, tl, true, raw)
}

// resolveInferred resolves the permission requests of a call still
// waiting for an answer, approved or denied, as inferred.
func (t *Translator) resolveInferred(dst []universal.Event, tl *tool, approved bool, raw []byte) []universal.Event {
	var keys []string
	for k, r := range t.st.Requests {
		if r.Method == mRequestPermission && r.Call == tl.ID && t.w.PermissionPending(r.ID) {
			keys = append(keys, k)
		}
	}
	// In the order they were asked (request.N), not of their keys'
	// text ("out:10" before "out:9").
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(t.st.Requests[a].N, t.st.Requests[b].N), strings.Compare(a, b))
	})
	for _, k := range keys {
		r := t.st.Requests[k]
		delete(t.st.Requests, k)
		p := universal.Permission{PermissionID: r.ID, Action: r.Action, Status: universal.PermissionApproved, ItemID: tl.Call, CallID: tl.link(),
			Metadata: []byte(`{"inferred":true}`)}
		if !approved {
			p.Status = universal.PermissionDenied
		}
		dst = t.w.ResolvePermission(dst, p, daemon, raw)
	}
	return dst
}

// permissionResult translates the host's answer to a permission request:
// approved when the option chosen allows, denied when it rejects or the
// turn was cancelled first.
func (t *Translator) permissionResult(dst []universal.Event, in *input, r request, result, rpcErr jsonscan.Value) []universal.Event {
	if !t.w.PermissionPending(r.ID) {
		return dst // the host reported its answer already
	}
	p := universal.Permission{PermissionID: r.ID, Action: r.Action, Status: universal.PermissionDenied, CallID: r.Call}
	if tl := t.st.Tools[r.Call]; tl != nil {
		p.ItemID, p.CallID = tl.Call, tl.link()
	}
	var md jsonw.Object
	outcome := result.Get("outcome.outcome").Str
	md.OptString("outcome", outcome)
	switch {
	case rpcErr.Exists():
		rpcErr.AddTo(&md, "error")
	case outcome == "selected":
		oid := result.Get("outcome.optionId").String()
		md.String("option_id", oid)
		for _, o := range r.Options {
			if o.ID == oid {
				md.OptString("option_kind", o.Kind).OptString("option_name", o.Name)
				if strings.HasPrefix(o.Kind, "allow") {
					p.Status = universal.PermissionApproved
				}
			}
		}
	}
	p.Metadata = md.Bytes()
	return t.w.ResolvePermission(dst, p, agent, in.raw)
}

// serving returns the call a client request of the agent serves: the
// latest call still running whose files include path (any path when ""),
// preferring one of kind; nil when none runs.
func (t *Translator) serving(kind universal.ToolKind, path string) *tool {
	var best *tool
	for i := len(t.st.Order) - 1; i >= 0; i-- {
		tl := t.st.Tools[t.st.Order[i]]
		if tl == nil || tl.Done {
			continue
		}
		match := path == ""
		for _, l := range tl.Locations {
			match = match || l == path
		}
		for _, p := range t.toolInput(tl).Paths {
			match = match || p == path
		}
		if match && (kind == "" || tl.UKind == kind) {
			return tl
		}
		if best == nil {
			best = tl
		}
	}
	return best
}

// fsRequest translates fs/read_text_file and fs/write_text_file: the
// agent has the client read or write a file for a call; the file becomes
// a file_ref of the call's result. Outside a call it is a status item.
func (t *Translator) fsRequest(dst []universal.Event, in *input, method, id string, params jsonscan.Value) []universal.Event {
	path := t.copy(params.Get("path").Str)
	action, kind := universal.FileRead, universal.ToolRead
	if method == mWriteFile {
		action, kind = universal.FileWrite, universal.ToolEdit
	}
	tl := t.serving(kind, path)
	r := request{Method: t.copy(method), Path: path}
	if tl != nil {
		r.Call = tl.ID
		dup := false
		for _, f := range tl.Files {
			dup = dup || f.Path == path && f.Action == action
		}
		if !dup && path != "" {
			tl.Files = append(tl.Files, fileOp{Path: path, Action: action})
		}
	}
	t.remember(in.dir, id, r)
	if tl != nil {
		if method == mWriteFile {
			dst = t.ranAfterRequest(dst, tl, in.raw)
		}
		return dst
	}
	var md jsonw.Object
	md.Raw("line", params.Sub("line").Raw()).Raw("limit", params.Sub("limit").Raw())
	if method == mWriteFile {
		md.Int("bytes", int64(len(params.Sub("content").Str())))
	}
	return t.status(dst, method, path, md.Bytes(), "", in.raw)
}

// terminalRequest translates the terminal/* requests: terminal/create
// runs a command for a call (its command fills the call's input when the
// call gave none); output and exit reach the call through the host's
// responses.
func (t *Translator) terminalRequest(dst []universal.Event, in *input, method, id string, params jsonscan.Value) []universal.Event {
	r := request{Method: t.copy(method), Terminal: t.copy(params.Get("terminalId").Str)}
	switch method {
	case mTermCreate:
		tl := t.serving(universal.ToolExecute, "")
		if tl != nil {
			r.Call = tl.ID
			dst = t.ranAfterRequest(dst, tl, in.raw)
			if tl.Input == "" {
				var argv []string
				argv = append(argv, params.Get("command").Str)
				params.Get("args").ForEach(func(_, a gjson.Result) bool { argv = append(argv, a.String()); return true })
				var o jsonw.Object
				o.String("command", universal.ShellCommand(argv)).Raw("cwd", params.Sub("cwd").Raw())
				tl.Input = t.copyJSON(string(o.Bytes()))
			}
		} else {
			t.remember(in.dir, id, r)
			var md jsonw.Object
			md.Raw("command", params.Sub("command").Raw()).Raw("args", params.Sub("args").Raw()).Raw("cwd", params.Sub("cwd").Raw())
			return t.status(dst, method, params.Get("command").Str, md.Bytes(), "", in.raw)
		}
	default:
		r.Call = t.st.Terminals[r.Terminal]
	}
	t.remember(in.dir, id, r)
	return dst
}

// terminalResult takes a terminal's output and exit status from the
// host's response into the call it serves.
func (t *Translator) terminalResult(dst []universal.Event, in *input, r request, result jsonscan.Value) []universal.Event {
	call := r.Call
	if call == "" {
		call = t.st.Terminals[r.Terminal]
	}
	tl := t.st.Tools[call]
	if tl == nil || tl.Done {
		return dst
	}
	exit := result
	if r.Method == mTermOutput {
		if o := result.Sub("output"); o.Type() == gjson.String {
			tl.Terminal = t.w.CopyValue(o.Result())
			tl.HasTerminal, tl.streamed = true, 0
		}
		exit = result.Sub("exitStatus")
	}
	if c := exit.Get("exitCode"); c.Type == gjson.Number {
		v := c.Int()
		tl.ExitCode = &v
	}
	if s := exit.Get("signal"); s.Type == gjson.String {
		tl.Signal = t.copy(s.Str)
	}
	if tl.Result != "" {
		tl.settle()
		return t.streamOutput(dst, tl, jsonscan.Wrap(gjson.Parse(tl.Content)), in.raw)
	}
	return dst
}

// elicitation translates elicitation/create (unstable in v1): a question
// to the user.
func (t *Translator) elicitation(dst []universal.Event, in *input, id string, params jsonscan.Value) []universal.Event {
	dst = t.begin(dst)
	t.st.Seq++
	r := request{Method: mElicit, ID: fmt.Sprintf("question_%d", t.st.Seq), Action: t.copy(params.Get("message").Str)}
	item := ""
	if tl := t.st.Tools[params.Get("toolCallId").String()]; tl != nil {
		item = tl.Call
	}
	var md jsonw.Object
	md.Raw("mode", params.Sub("mode").Raw()).Raw("requestedSchema", params.Sub("requestedSchema").Raw()).Raw("url", params.Sub("url").Raw())
	// A URL elicitation's id, which the agent's elicitation/complete
	// names when the user is done at the URL.
	md.Raw("elicitationId", params.Sub("elicitationId").Raw())
	// The choices of a form's first choice property: the values of its
	// enum, or the consts of its titled choices (oneOf; a multi-select's
	// items.enum or items.anyOf), the enum schemas of MCP's elicitation
	// that ACP's takes (codex-acp 2.x asks Codex's questions with oneOf).
	var options []string
	// The form's fields, to read the answer by (an option a field: ID
	// its key, Name its label).
	for _, f := range mcp.FormFields(params.Sub("requestedSchema.properties").Result()) {
		r.Options = append(r.Options, option{ID: t.copy(f.Key), Name: t.copy(f.Label)})
	}
	params.Sub("requestedSchema.properties").Each(func(_ gjson.Result, p jsonscan.Value) bool {
		for _, k := range [...]string{"enum", "oneOf", "items.enum", "items.anyOf"} {
			p.Sub(k).ForEach(func(_, v gjson.Result) bool {
				if k == "oneOf" || k == "items.anyOf" {
					v = v.Get("const")
				}
				if v.Exists() {
					options = append(options, t.copy(v.String()))
				}
				return true
			})
			if len(options) > 0 {
				break
			}
		}
		return len(options) == 0
	})
	t.remember(in.dir, id, r)
	return t.w.AskQuestion(dst, universal.Question{
		QuestionID: r.ID,
		Prompt:     r.Action,
		Options:    options,
		ItemID:     item,
		Metadata:   md.Bytes(),
	}, agent, in.raw)
}

// elicitationResult translates the host's answer to an elicitation.
func (t *Translator) elicitationResult(dst []universal.Event, in *input, r request, result, rpcErr jsonscan.Value) []universal.Event {
	if !t.w.QuestionPending(r.ID) {
		return dst
	}
	q := universal.Question{QuestionID: r.ID, Prompt: r.Action, Status: universal.QuestionRejected}
	if result.Get("action").Str == "accept" && !rpcErr.Exists() {
		q.Status = universal.QuestionAnswered
		fields := make([]mcp.FormField, len(r.Options))
		for i, o := range r.Options {
			fields[i] = mcp.FormField{Key: o.ID, Label: o.Name}
		}
		q.Response = t.copy(mcp.FormAnswer(result.Sub("content").Result(), fields))
	}
	var md jsonw.Object
	md.Raw("action", result.Sub("action").Raw()).Raw("content", result.Sub("content").Raw()).Raw("error", rpcErr.Raw())
	q.Metadata = md.Bytes()
	return t.w.ResolveQuestion(dst, q, agent, in.raw)
}

// v2DiffRefs adds the file_ref parts of an ACP v2 diff (schema/v2 Diff:
// {changes: [{operation, path, oldPath?, fileType?, mimeType?}], patch?:
// {format, text}}), one per change, as package codex gives a patch's
// changes: add and delete write, modify patch, move patch on the old path
// with move_path the new one, copy write on the new path with the old
// one as copied_from, an operation the schema leaves to future versions
// patch. A file's diff is its section of a git_patch (the whole text when
// there is one change).
func (t *Translator) v2DiffRefs(parts []universal.Part, changes, patch jsonscan.Value, seen map[string]bool) []universal.Part {
	text := ""
	if patch.IsObject() && patch.Sub("text").Type() == gjson.String {
		text = patch.Sub("text").Str()
	}
	n := 0
	changes.Each(func(_ gjson.Result, ch jsonscan.Value) bool {
		if ch.Sub("path").Str() != "" {
			n++
		}
		return true
	})
	var secs map[string]string // the patch's sections, split at the first need
	changes.Each(func(_ gjson.Result, ch jsonscan.Value) bool {
		op, path, old := ch.Sub("operation").Str(), ch.Sub("path").Str(), ch.Sub("oldPath").Str()
		if path == "" {
			return true
		}
		var md jsonw.Object
		md.String("kind", op)
		action := universal.FilePatch
		switch op {
		case "add", "delete":
			action = universal.FileWrite
		case "copy":
			action = universal.FileWrite
			md.OptString("copied_from", old)
		case "move":
			if old != "" {
				md.String("move_path", path)
				path = old
			}
		}
		md.OptString("file_type", ch.Sub("fileType").Str())
		md.OptString("mime_type", ch.Sub("mimeType").Str())
		resolved := universal.ResolvePath(t.st.Cwd, filePath(path))
		seen[resolved] = true
		diff := text
		if n > 1 {
			if secs == nil {
				secs = patchSections(text)
			}
			diff = patchSection(secs, ch.Sub("path").Str(), old)
		}
		parts = append(parts, universal.Part{Type: universal.PartFileRef, Path: t.copy(resolved), Action: action,
			Diff: t.copy(diff), Metadata: md.Bytes()})
		return true
	})
	return parts
}

// patchSections splits a git patch into its sections ("diff --git a/…
// b/…" headers), each under the files its header names (relative to the
// repository, as the patch names them), in one pass: a diff of many
// changes is split once, not searched once per change.
func patchSections(text string) map[string]string {
	secs := map[string]string{}
	for text != "" {
		end := strings.Index(text[1:], "\ndiff --git ")
		sec := text
		if end >= 0 {
			sec, text = text[:end+2], text[end+2:]
		} else {
			text = ""
		}
		head, _, _ := strings.Cut(sec, "\n")
		if !strings.HasPrefix(head, "diff --git ") {
			continue
		}
		for _, f := range strings.Fields(strings.TrimPrefix(head, "diff --git ")) {
			f = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(f, "a/"), "b/"), "/")
			if _, ok := secs[f]; f != "" && !ok {
				secs[f] = sec
			}
		}
	}
	return secs
}

// patchSection returns the section of secs (patchSections) whose file is
// path or old (a move's or copy's source): the patch names files relative
// to the repository, the change by absolute path, so each path is tried
// whole and then from each of its slashes on. "" when no section names it.
func patchSection(secs map[string]string, path, old string) string {
	for _, p := range [...]string{path, old} {
		for p != "" {
			if sec, ok := secs[p]; ok {
				return sec
			}
			i := strings.IndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[i+1:]
		}
	}
	return ""
}
