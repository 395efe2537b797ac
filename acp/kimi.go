package acp

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// kimiAgent is the agentInfo name of Kimi Code CLI's ACP server (kimi
// acp, MoonshotAI/kimi-cli).
const kimiAgent = "Kimi Code CLI"

// kimiKinds are the tool kinds of Kimi Code CLI's tools, which it names
// (kimi_cli/tools: Shell, ReadFile, WriteFile, StrReplaceFile, Glob,
// Grep, FetchURL, SearchWeb) but gives no ACP kind.
var kimiKinds = map[string]universal.ToolKind{
	"Shell":          universal.ToolExecute,
	"ReadFile":       universal.ToolRead,
	"ReadMediaFile":  universal.ToolRead,
	"WriteFile":      universal.ToolEdit,
	"StrReplaceFile": universal.ToolEdit,
	"Glob":           universal.ToolSearch,
	"Grep":           universal.ToolSearch,
	"SearchWeb":      universal.ToolSearch,
	"FetchURL":       universal.ToolFetch,
}

// kimiCall reports whether a call is Kimi Code CLI's: the agent said so
// in initialize, or (a log that starts later) its toolCallId is the
// turn's UUID, a slash and the model's call id, as Kimi makes it
// (acp/session.py, acp_tool_call_id: "{turn_id}/{tool_call.id}"); and
// the call has no rawInput and no kind, which Kimi never sends.
func (t *Translator) kimiCall(tl *tool) bool {
	if tl.Input != "" || tl.Kind != "" {
		return false
	}
	if t.st.Agent == kimiAgent {
		return true
	}
	id := tl.ID
	if len(id) < 38 || id[36] != '/' || strings.Count(id[:36], "-") != 4 {
		return false
	}
	for _, c := range id[:36] {
		if c != '-' && ('0' > c || c > '9') && ('a' > c || c > 'f') {
			return false
		}
	}
	return true
}

// kimiArguments takes a Kimi Code CLI call's arguments from an update
// that carries them, and reports whether it did. Kimi sends no rawInput:
// it streams the call's arguments as the model writes them (JSON text,
// the whole text so far each time) as the call's content, one text item
// of status in_progress, from the tool_call on (acp/session.py
// _send_tool_call, _send_tool_call_part; a public capture of Kimi Code
// CLI 1.47.0 shows them), and its output only with the completed or
// failed status. Such content is no output: the text, once it is a JSON
// object, is the call's arguments, and the call waits (pending) for its
// result.
func (t *Translator) kimiArguments(tl *tool, content jsonscan.Value) bool {
	if tl.Result != "" || (tl.Status != "in_progress" && tl.Status != "pending") || content.Len() != 1 {
		return false
	}
	var c jsonscan.Value
	content.Each(func(_ gjson.Result, v jsonscan.Value) bool {
		c = v
		return false
	})
	if c.Sub("type").Str() != "content" || c.Sub("content.type").Str() != "text" {
		return false
	}
	if !tl.KimiArgs && !t.kimiCall(tl) {
		return false
	}
	tl.KimiArgs = true
	tl.Status = "pending"
	if o := encodedObject(c.Sub("content.text").Str()); o != "" {
		tl.Input = t.copy(o)
	}
	return true
}

// kimiKind returns the kind of a Kimi Code CLI call's tool and names the
// call by its title's start: "Shell: ls -la" names the tool and what it
// runs (_ToolCallState.get_title).
func kimiKind(tl *tool) (universal.ToolKind, bool) {
	if !tl.KimiArgs {
		return "", false
	}
	if tl.Name == "" || tl.KimiNamed {
		name, _, _ := strings.Cut(tl.Title, ": ")
		tl.Name, tl.KimiNamed = name, name != ""
	}
	k, ok := kimiKinds[tl.Name]
	return k, ok
}
