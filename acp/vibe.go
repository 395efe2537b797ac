package acp

import (
	"encoding/json"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// vibeAgent is the agentInfo name of Mistral Vibe's ACP server (vibe-acp,
// mistralai/mistral-vibe).
const vibeAgent = "@mistralai/mistral-vibe"

// promptUsageScope is the scope of a prompt response's usage (unstable
// PromptResponse.usage). The schema calls it "Token usage for this turn",
// but its counts "Total input tokens across all turns": agents read it
// either way. Claude Code's, Codex's and OpenCode's adapters give the
// turn's tokens (a turn); Mistral Vibe gives the session's running total
// (vibe/acp/acp_agent_loop.py, _build_usage: the session's prompt and
// completion tokens), which replaces, never adds (a session).
func (t *Translator) promptUsageScope() universal.UsageScope {
	if t.st.Agent == vibeAgent {
		return universal.ScopeSession
	}
	return universal.ScopeTurn
}

// encodedObject returns the JSON object a string rawInput encodes,
// compacted, or "" when it encodes none. The schema lets rawInput be any
// JSON value; Mistral Vibe sends its tools' arguments as the JSON text of
// their model (vibe/acp/tools/builtins: raw_input=args.model_dump_json(),
// a string), which are the call's arguments as an object, not a string.
func encodedObject(s string) string {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '{' || !json.Valid([]byte(s)) {
		return ""
	}
	return jsonw.Compact(s)
}
