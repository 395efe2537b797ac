package codex

import (
	"strings"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// tools reads Codex's tool names into the universal tool vocabulary. The
// live formats name what ran (command_execution, file_change, web_search,
// view_image, the collab tools), rollouts the function the model called
// (exec_command, shell, shell_command, local_shell, apply_patch,
// spawn_agent …): both read to the same kind and input.
var tools = universal.ToolTable{
	// Live command executions: the script the shell ran (unwrapped from
	// Codex's `/bin/bash -lc '…'`), else the command.
	"command_execution": {Kind: universal.ToolExecute, Command: "script|command"},
	// Rollout shell tools: exec_command {cmd}, shell {command: argv},
	// shell_command {command: string}, local_shell's action {command: argv}.
	"exec_command":   {Kind: universal.ToolExecute, Command: "cmd|command"},
	"shell":          {Kind: universal.ToolExecute, Command: "command"},
	"shell_command":  {Kind: universal.ToolExecute, Command: "command"},
	"local_shell":    {Kind: universal.ToolExecute, Command: "command"},
	"container.exec": {Kind: universal.ToolExecute, Command: "cmd|command"},
	"unified_exec":   {Kind: universal.ToolExecute, Command: "cmd|command|input"},
	// Writing to a running process is not a command of its own.
	"write_stdin": {Kind: universal.ToolOther},
	// File tools (file_change and apply_patch read their paths in describe).
	"file_change": {Kind: universal.ToolEdit},
	"apply_patch": {Kind: universal.ToolEdit},
	"view_image":  {Kind: universal.ToolRead, Paths: "path"},
	"read_file":   {Kind: universal.ToolRead, Paths: "file_path|path"},
	"list_dir":    {Kind: universal.ToolSearch, Paths: "dir_path|path"},
	"grep_files":  {Kind: universal.ToolSearch, Query: "pattern", Paths: "path"},
	"tool_search": {Kind: universal.ToolSearch, Query: "query"},
	"web_search":  {Kind: universal.ToolSearch},
	// Plans, and the thread's goal (0.17x models that have no update_plan
	// set, update and read a goal instead).
	"update_plan": {Kind: universal.ToolThink},
	"create_goal": {Kind: universal.ToolThink},
	"update_goal": {Kind: universal.ToolThink},
	"get_goal":    {Kind: universal.ToolThink},
	// Sub-agents: spawn starts one (live {prompt}, rollout {message}).
	"spawn_agent": {Kind: universal.ToolTask, Prompt: "prompt|message|items.0.text", Agent: "agent_type"},
}

// describe returns the tool kind and normalized input of a call, reading
// the few tools whose input is not a plain argument: apply_patch's patch
// (a custom tool's input is the patch text itself), file_change's changes,
// web_search's query (live {query}, rollout {action: {query|queries}}).
func (t *Translator) describe(name, args string) (universal.ToolKind, *universal.ToolInput) {
	cwd := t.st.Cwd
	if patch, ok := shellPatch(name, args); ok {
		return universal.ToolEdit, &universal.ToolInput{Paths: universal.PatchPaths(patch, cwd)}
	}
	switch name {
	case "apply_patch":
		patch := patchText(args)
		return universal.ToolEdit, &universal.ToolInput{Paths: universal.PatchPaths(patch, cwd)}
	case "file_change":
		in := &universal.ToolInput{}
		gjson.Get(args, "changes").ForEach(func(_, ch gjson.Result) bool {
			for _, p := range []string{ch.Get("path").Str, ch.Get("move_path").Str} {
				if p == "" {
					continue
				}
				p = universal.ResolvePath(cwd, p)
				dup := false
				for _, q := range in.Paths {
					dup = dup || q == p
				}
				if !dup {
					in.Paths = append(in.Paths, p)
				}
			}
			return true
		})
		return universal.ToolEdit, in
	case "web_search":
		a := gjson.Parse(args)
		q := ""
		for _, r := range []gjson.Result{a.Get("query"), a.Get("action.query"), a.Get("action.queries.0")} {
			if r.Type == gjson.String && r.Str != "" {
				q = r.Str
				break
			}
		}
		return universal.ToolSearch, &universal.ToolInput{Query: q}
	}
	return tools.Describe(name, args, cwd)
}

// shellPatch returns the patch of a shell tool call that runs apply_patch,
// as Codex itself recognizes one (and applies it as a patch, with patch
// events, not as a command): the argv ["apply_patch", PATCH] (or
// "applypatch"), or a shell script `apply_patch <<'EOF'` … `EOF`, optionally
// after `cd DIR &&`, run as [bash|sh|zsh, -lc|-c, SCRIPT] or given as a
// shell_command's or exec_command's command string. Models before the
// freeform apply_patch tool (Codex before ~0.100 with most models) edit
// files this way, so in a rollout the call is the file edit the live
// formats report as a file_change.
func shellPatch(name, args string) (string, bool) {
	var cmd gjson.Result
	switch name {
	case "shell", "local_shell", "container.exec":
		cmd = gjson.Get(args, "command")
	case "shell_command", "exec_command", "unified_exec":
		cmd = gjson.Get(args, "command")
		if !cmd.Exists() {
			cmd = gjson.Get(args, "cmd")
		}
	default:
		return "", false
	}
	if cmd.Type == gjson.String {
		return heredocPatch(cmd.Str)
	}
	if !cmd.IsArray() {
		return "", false // Array would give one element, or none
	}
	argv, n := argv3(cmd)
	switch {
	case n == 2 && (argv[0].Str == "apply_patch" || argv[0].Str == "applypatch") && argv[1].Type == gjson.String:
		return argv[1].Str, true
	case n == 3 && (argv[1].Str == "-lc" || argv[1].Str == "-c") && argv[2].Type == gjson.String:
		sh := argv[0].Str[strings.LastIndexByte(argv[0].Str, '/')+1:]
		if sh == "bash" || sh == "sh" || sh == "zsh" {
			return heredocPatch(argv[2].Str)
		}
	}
	return "", false
}

// heredocPatch reads a script `[cd DIR && ]apply_patch <<'EOF'\n…\nEOF`:
// the patch is the here-document's body.
func heredocPatch(script string) (string, bool) {
	first, rest, ok := strings.Cut(strings.TrimLeft(script, " \t\n"), "\n")
	if !ok {
		return "", false
	}
	if strings.HasPrefix(first, "cd ") {
		_, after, found := strings.Cut(first, "&&")
		if !found {
			return "", false
		}
		first = strings.TrimLeft(after, " ")
	}
	tool, redir, found := strings.Cut(first, "<<")
	if tool = strings.TrimSpace(tool); !found || (tool != "apply_patch" && tool != "applypatch") {
		return "", false
	}
	delim := strings.Trim(strings.TrimSpace(strings.TrimPrefix(redir, "-")), `'"`)
	if delim == "" || strings.ContainsAny(delim, " \t") {
		return "", false
	}
	lines := strings.Split(rest, "\n")
	end := len(lines) - 1
	for end >= 0 && strings.TrimSpace(lines[end]) == "" {
		end--
	}
	if end < 0 || strings.TrimSpace(lines[end]) != delim {
		return "", false
	}
	return strings.Join(lines[:end], "\n"), true
}

// patchText returns the patch of apply_patch's arguments: the JSON string
// a custom tool call's input becomes, or a function call's {input|patch}.
func patchText(args string) string {
	a := gjson.Parse(args)
	if a.Type == gjson.String {
		return a.Str
	}
	if s := a.Get("input"); s.Type == gjson.String {
		return s.Str
	}
	return a.Get("patch").Str
}

// webSearchResult describes the outcome of a web search from the results
// Codex gives (exec --json and 0.15x+ items, web_search_end, app-server
// webSearch items): the output lists them, one block per result with its
// title, URL and snippet on lines of their own (a result without any of
// these as its JSON), and the results as given are "results" in the
// part's metadata. No results (null or absent): an empty result.
func (t *Translator) webSearchResult(r gjson.Result) resultSpec {
	if !r.Exists() || r.Type == gjson.Null {
		return resultSpec{}
	}
	var b strings.Builder
	block := func(v gjson.Result) {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if !v.IsObject() {
			b.WriteString(v.String())
			return
		}
		n := 0
		for _, keys := range [...][]string{{"title"}, {"url", "link"}, {"snippet", "text", "content", "description"}} {
			for _, k := range keys {
				if s := v.Get(k); s.Type == gjson.String && s.Str != "" {
					if n > 0 {
						b.WriteByte('\n')
					}
					b.WriteString(s.Str)
					n++
					break
				}
			}
		}
		if n == 0 {
			b.WriteString(v.Raw)
		}
	}
	if r.IsArray() {
		r.ForEach(func(_, v gjson.Result) bool {
			block(v)
			return true
		})
	} else {
		block(r)
	}
	return resultSpec{output: t.w.Copy(b.String()), meta: obj().Raw("results", r.Raw).Bytes()}
}
