package acp

import (
	"encoding/json"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
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

// noResult reports whether a call has nothing of a result: no content
// but terminals that showed no output (codex-acp 2.x replays a command as
// a tool_call of its final status whose content is its terminal, the
// output in the update after it), no rawOutput, no terminal output.
func noResult(tl *tool) bool {
	if len(tl.Chunks) != 0 || tl.RawOutput != "" || tl.HasTerminal {
		return false
	}
	if tl.Content == "" || tl.Content == "[]" {
		return true
	}
	if tl.Content[0] != '[' {
		return false
	}
	only := true
	gjson.Parse(tl.Content).ForEach(func(_, c gjson.Result) bool {
		only = c.Get("type").Str == "terminal"
		return only
	})
	return only
}

// resultLater completes, as the turn ends, the results of the replayed
// calls (Later) that no update completed. A replayed tool_call may state
// the call's final status without its result, and a tool_call_update of
// the same status bring the result next: Mistral Vibe 2.18 replays a call
// so (vibe/acp/utils.py: tool_call_replay_update's tool_call "completed",
// then create_tool_result_replay's tool_call_update "completed" with the
// output as content and rawOutput). The result waits for that update,
// which the final status would otherwise have shut out; a call no update
// follows keeps the result its tool_call gave (none).
func (t *Translator) resultLater(dst []universal.Event, raw []byte) []universal.Event {
	for _, id := range t.st.Order {
		if tl := t.st.Tools[id]; tl != nil && tl.Later && !tl.Done {
			dst = t.completeResult(dst, tl, jsonscan.Wrap(gjson.Parse(tl.settled())), raw)
		}
	}
	return dst
}
