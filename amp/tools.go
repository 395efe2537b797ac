package amp

import (
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// tools reads Amp's tool calls into the universal tool vocabulary. Amp's
// tool names follow the agent mode: smart mode's Bash, Read, edit_file,
// create_file, Grep, glob; the GPT-based modes' shell_command,
// apply_patch, skill; the sub-agents Task, oracle, librarian, finder in
// every mode. The argument names are those of the tools' input schemas
// (the CLI sends them to the server), with the older or alternative names
// after a "|".
var tools = universal.ToolTable{
	// Shell commands.
	"Bash":                 {Kind: universal.ToolExecute, Command: "cmd|command"},
	"shell_command":        {Kind: universal.ToolExecute, Command: "command|cmd"},
	"async_shell_command":  {Kind: universal.ToolExecute, Command: "command|cmd"},
	manualBashTool:         {Kind: universal.ToolExecute, Command: "cmd|command"},
	"shell_command_status": {Kind: universal.ToolOther},
	"shell_command_kill":   {Kind: universal.ToolOther},
	"get_diagnostics":      {Kind: universal.ToolOther},
	"format_file":          {Kind: universal.ToolEdit, Paths: "path"},
	"Read":                 {Kind: universal.ToolRead, Paths: "path|file_path"},
	"read":                 {Kind: universal.ToolRead, Paths: "path|file_path"},
	"read_file":            {Kind: universal.ToolRead, Paths: "path|file_path"},
	"view_media":           {Kind: universal.ToolRead, Paths: "path|file_path"},
	"look_at":              {Kind: universal.ToolRead, Paths: "path|file_path"},
	"list_directory":       {Kind: universal.ToolSearch, Paths: "path"},
	"create_file":          {Kind: universal.ToolEdit, Paths: "path|file_path"},
	"edit_file":            {Kind: universal.ToolEdit, Paths: "path|file_path"},
	"undo_edit":            {Kind: universal.ToolEdit, Paths: "path|file_path"},
	"apply_patch":          {Kind: universal.ToolEdit}, // paths: universal.PatchPaths
	"glob":                 {Kind: universal.ToolSearch, Query: "filePattern|pattern", Paths: "path"},
	"Grep":                 {Kind: universal.ToolSearch, Query: "pattern|query", Paths: "path"},
	"grep":                 {Kind: universal.ToolSearch, Query: "pattern|query", Paths: "path"},
	"web_search":           {Kind: universal.ToolSearch, Query: "objective|query|search_queries.0"},
	"find_thread":          {Kind: universal.ToolSearch, Query: "query"},
	"read_web_page":        {Kind: universal.ToolFetch, URL: "url"},
	"read_mcp_resource":    {Kind: universal.ToolFetch, URL: "uri"},
	// Sub-agents: their messages (forwarded by older builds, and in
	// thread files) are under the call.
	"Task":      {Kind: universal.ToolTask, Prompt: "prompt|description", Agent: "subagent_type|agent"},
	"oracle":    {Kind: universal.ToolTask, Prompt: "task|prompt|query"},
	"librarian": {Kind: universal.ToolTask, Prompt: "query|prompt|task"},
	"finder":    {Kind: universal.ToolTask, Prompt: "query|prompt|task"},
	// finder's older name.
	"codebase_search_agent": {Kind: universal.ToolTask, Prompt: "query|prompt"},
	// Plans and notes of the agent to itself.
	"todo_write": {Kind: universal.ToolThink},
	"todo_read":  {Kind: universal.ToolThink},
}

// subAgents are the tools that start a sub-agent named after the tool.
var subAgents = map[string]bool{"oracle": true, "librarian": true, "finder": true, "codebase_search_agent": true}

// describe returns the tool kind and normalized input of a call of the
// named tool with arguments args (JSON text), paths resolved against the
// session's working directory when it is known.
func (t *Translator) describe(name, args string) (universal.ToolKind, *universal.ToolInput) {
	kind, in := tools.Describe(name, args, t.s.Cwd)
	switch {
	case name == "apply_patch":
		in.Paths = universal.PatchPaths(patchText(args), t.s.Cwd)
	case subAgents[name] && in.Agent == "":
		in.Agent = name
	}
	return kind, in
}

// patchText is the patch of an apply_patch call's arguments.
func patchText(args string) string {
	a := gjson.Parse(args)
	for _, k := range [...]string{"patchText", "patch", "input"} {
		if v := a.Get(k); v.Type == gjson.String {
			return v.Str
		}
	}
	return ""
}
