package claude

import (
	"github.com/agentnorm/agentnorm/universal"
)

// tools maps Claude Code's tool names (current and past versions, and the
// API's server tools) to the universal tool vocabulary. Tools not listed
// (AskUserQuestion, Skill, TaskOutput, KillShell, MCP tools, …) are
// other.
var tools = universal.ToolTable{
	"Bash":         {Kind: universal.ToolExecute, Command: "command"},
	"Read":         {Kind: universal.ToolRead, Paths: "file_path"},
	"NotebookRead": {Kind: universal.ToolRead, Paths: "notebook_path"},
	"Write":        {Kind: universal.ToolEdit, Paths: "file_path"},
	"Edit":         {Kind: universal.ToolEdit, Paths: "file_path"},
	"MultiEdit":    {Kind: universal.ToolEdit, Paths: "file_path"},
	"NotebookEdit": {Kind: universal.ToolEdit, Paths: "notebook_path"},
	"Glob":         {Kind: universal.ToolSearch, Query: "pattern", Paths: "path"},
	"Grep":         {Kind: universal.ToolSearch, Query: "pattern", Paths: "path"},
	"LS":           {Kind: universal.ToolSearch, Paths: "path"},
	"WebSearch":    {Kind: universal.ToolSearch, Query: "query"},
	// ToolSearch finds the deferred tools (MCP tools among them) whose
	// definitions the model loads before it calls them, as Codex's
	// tool_search does: a search, its query what it looks for.
	"ToolSearch": {Kind: universal.ToolSearch, Query: "query"},
	"WebFetch":   {Kind: universal.ToolFetch, URL: "url"},
	"Agent":      {Kind: universal.ToolTask, Prompt: "prompt", Agent: "subagent_type"},
	"Task":       {Kind: universal.ToolTask, Prompt: "prompt", Agent: "subagent_type"},
	// Todo lists and plans: the agent's notes to itself.
	"TodoWrite":     {Kind: universal.ToolThink},
	"TodoRead":      {Kind: universal.ToolThink},
	"TaskCreate":    {Kind: universal.ToolThink},
	"TaskUpdate":    {Kind: universal.ToolThink},
	"TaskList":      {Kind: universal.ToolThink},
	"TaskGet":       {Kind: universal.ToolThink},
	"ExitPlanMode":  {Kind: universal.ToolThink},
	"EnterPlanMode": {Kind: universal.ToolThink},
	// Server tools of the API (server_tool_use blocks).
	"web_search":          {Kind: universal.ToolSearch, Query: "query"},
	"web_fetch":           {Kind: universal.ToolFetch, URL: "url"},
	"bash_code_execution": {Kind: universal.ToolExecute, Command: "command"},
	// Qwen Code's tools (a fork of Gemini CLI's), in its Claude-Code-shaped
	// stream-json output.
	"run_shell_command": {Kind: universal.ToolExecute, Command: "command"},
	"read_file":         {Kind: universal.ToolRead, Paths: "file_path"},
	"write_file":        {Kind: universal.ToolEdit, Paths: "file_path"},
	"edit":              {Kind: universal.ToolEdit, Paths: "file_path"},
	"glob":              {Kind: universal.ToolSearch, Query: "pattern", Paths: "path"},
	"grep_search":       {Kind: universal.ToolSearch, Query: "pattern", Paths: "path"},
	"agent":             {Kind: universal.ToolTask, Prompt: "prompt", Agent: "subagent_type"},
	// A shell command the user ran with ! (see shellInput).
	shellTool: {Kind: universal.ToolExecute, Command: "command"},
}

// describe returns the tool kind and normalized input of a call, with
// relative paths resolved against the session's working directory.
func (t *Translator) describe(name, args string) (universal.ToolKind, *universal.ToolInput) {
	return tools.Describe(name, args, t.s.Cwd)
}

// toolPart returns a tool_call part with its kind and input; strings must
// not alias input.
func (t *Translator) toolPart(name, args, callID string, meta []byte) universal.Part {
	kind, in := t.describe(name, args)
	return universal.Part{
		Type: universal.PartToolCall, Name: name, Arguments: args, CallID: callID, Metadata: meta,
		ToolKind: kind, ToolInput: in,
	}
}
