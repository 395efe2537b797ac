package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestGeminiQuotaUsage: Gemini CLI (gemini --acp) reports a turn's tokens
// only in the prompt response's _meta.quota.token_count (snake_case, with
// a per-model model_usage list): no usage_update, no usage. The tokens
// were only in turn.ended's metadata; they are now the turn's
// usage.updated, as a response's usage is. Lines of a live Gemini CLI
// session quoted in a public design note (found by content search; the
// repository is not named by the index), and the same shape in every
// Gemini CLI 0.61.0 recording in testdata/acp/gemini-cli, whose goldens
// gain that event. A response with usage (claude-agent-acp sends both)
// keeps reading usage.
func TestGeminiQuotaUsage(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"gemini-cli","title":"Gemini CLI","version":"0.58.0"},"agentCapabilities":{"loadSession":true}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"**Responding...**"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The sky is blue."}}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn","_meta":{"quota":{"token_count":{"input_tokens":10620,"output_tokens":4},"model_usage":[{"model":"gemini-2.5-flash","token_count":{"input_tokens":10620,"output_tokens":4}}]}}}}`,
		`{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn","usage":{"inputTokens":120,"outputTokens":20},"_meta":{"quota":{"token_count":{"inputTokens":999,"outputTokens":999}}}}}`,
	}, "\n") + "\n"
	evs := translate(t, acp.FormatAgent, agent)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	us := golden.OfType(evs, universal.TypeUsageUpdated)
	if len(us) != 2 {
		t.Fatalf("%d usage.updated, want one a turn", len(us))
	}
	for i, want := range [][2]int64{{10620, 4}, {120, 20}} {
		d := us[i].Data.(*universal.UsageUpdated)
		if d.Scope != universal.ScopeTurn || d.Usage.InputTokens == nil || d.Usage.OutputTokens == nil ||
			*d.Usage.InputTokens != want[0] || *d.Usage.OutputTokens != want[1] {
			t.Errorf("usage %d: %s, want turn input %d output %d", i, us[i].AppendJSON(nil), want[0], want[1])
		}
	}
	ends := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ends) != 2 || !strings.Contains(string(ends[0].AppendJSON(nil)), `"quota":{"token_count"`) {
		t.Errorf("turn ends %v, want two, the quota kept in the first's metadata", ends)
	}
}

// TestGrokUsageCacheCreation: Grok Build's prompt response gives a turn's
// usage in _meta.usage with cacheCreationTokens for the cache writes (a
// historical raw line quoted in a public project's tests; the index does
// not name the repository). The cache writes were dropped (only
// cachedWriteTokens and cache_creation_input_tokens were read); the
// reasoning tokens of reasoningOutputTokens likewise.
func TestGrokUsageCacheCreation(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn","_meta":{"usage":{"inputTokens":17965,"outputTokens":51,"cachedReadTokens":5888,"cacheCreationTokens":128,"reasoningTokens":38}}}}`,
		`{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn","usage":{"inputTokens":10,"outputTokens":5,"reasoningOutputTokens":3}}}`,
	}, "\n") + "\n"
	evs := translate(t, acp.FormatAgent, agent)
	us := golden.OfType(evs, universal.TypeUsageUpdated)
	if len(us) != 2 {
		t.Fatalf("%d usage.updated, want 2", len(us))
	}
	u := us[0].Data.(*universal.UsageUpdated).Usage
	if u.CacheWriteTokens == nil || *u.CacheWriteTokens != 128 || u.CachedInputTokens == nil || *u.CachedInputTokens != 5888 ||
		u.ReasoningTokens == nil || *u.ReasoningTokens != 38 {
		t.Errorf("usage %s, want cache writes 128, reads 5888, reasoning 38", us[0].AppendJSON(nil))
	}
	if r := us[1].Data.(*universal.UsageUpdated).Usage.ReasoningTokens; r == nil || *r != 3 {
		t.Errorf("usage %s, want reasoning 3", us[1].AppendJSON(nil))
	}
}

// TestDevinVendorUsage: Devin for Terminal 3000.6.7 (`devin acp`,
// agentInfo "affogato" / "Devin Agent") sends a usage_update after each
// model request with that request's tokens in _meta under its own
// namespace (cognition.ai/inputTokens, outputTokens, cachedReadTokens;
// inputTokens includes the cached part, as its agent_stopped stats'
// cumulative "input tokens" net of cache show), and ends the prompt with
// the last request's usage. Lines from yorch/pi-harness-delegate
// tests/fixtures/devin-acp.jsonl at commit 11bd713 (MIT per its
// package.json; a 278 kB stdout, not copied: the model catalogue alone is
// most of it), trimmed: its three usage_updates of the turn, two of the
// calls between them, the answer's first chunk, the response. The counts
// were only in the session usage's metadata; each is now a call's usage,
// and the session usage keeps the context figures.
func TestDevinVendorUsage(t *testing.T) {
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"agentInfo":{"name":"affogato","title":"Devin Agent","version":"0.0.0-dev"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"cactus-iberis","update":{"sessionUpdate":"usage_update","used":66012,"size":200000,"_meta":{"cognition.ai/inputTokens":65971,"cognition.ai/outputTokens":41,"cognition.ai/cachedReadTokens":50}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"cactus-iberis","update":{"sessionUpdate":"tool_call","toolCallId":"chatcmpl-tool-bb5cac2c42900630","title":"Find files matching ` + "`**/math.js`" + `","kind":"search","rawInput":{"query":"**/math.js"},"_meta":{"cognition.ai/inferenceToolName":"find_file_by_name"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"cactus-iberis","update":{"sessionUpdate":"tool_call_update","toolCallId":"chatcmpl-tool-bb5cac2c42900630","status":"completed","_meta":{"cognition.ai/inferenceToolName":"find_file_by_name"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"cactus-iberis","update":{"sessionUpdate":"usage_update","used":66252,"size":200000,"_meta":{"cognition.ai/inputTokens":66125,"cognition.ai/outputTokens":127,"cognition.ai/cachedReadTokens":65970}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"cactus-iberis","update":{"sessionUpdate":"tool_call","toolCallId":"chatcmpl-tool-804af1a98e15546a","title":"Read file","kind":"read","locations":[{"path":"/tmp/devin-capture/math.js"}],"rawInput":{"file_path":"/tmp/devin-capture/math.js"},"_meta":{"cognition.ai/inferenceToolName":"read"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"cactus-iberis","update":{"sessionUpdate":"tool_call_update","toolCallId":"chatcmpl-tool-804af1a98e15546a","status":"completed","content":[{"type":"content","content":{"type":"text","text":"1 lines"}}],"_meta":{"cognition.ai/inferenceToolName":"read"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"cactus-iberis","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + "`math.js`" + ` exports an ` + "`add`" + ` arrow function."}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"cactus-iberis","update":{"sessionUpdate":"usage_update","used":66491,"size":200000,"_meta":{"cognition.ai/inputTokens":66446,"cognition.ai/outputTokens":45,"cognition.ai/cachedReadTokens":66124}}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn","usage":{"totalTokens":66491,"inputTokens":66446,"outputTokens":45,"cachedReadTokens":66124},"_meta":{"cognition.ai/userMessageId":"00000000-0000-0000-0000-000000000000"}}}`,
	}, "\n") + "\n"
	evs := translate(t, acp.FormatAgent, agent)
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	var calls [][3]int64
	sessions := 0
	for _, ev := range golden.OfType(evs, universal.TypeUsageUpdated) {
		d := ev.Data.(*universal.UsageUpdated)
		switch d.Scope {
		case universal.ScopeSession:
			sessions++
			if d.ContextWindow == nil || *d.ContextWindow != 200000 || d.Usage.InputTokens != nil {
				t.Errorf("session usage %s, want the context window and no tokens", ev.AppendJSON(nil))
			}
		case universal.ScopeCall:
			if d.Usage.InputTokens == nil || d.Usage.OutputTokens == nil || d.Usage.CachedInputTokens == nil {
				t.Fatalf("call usage %s, want input, output and cached", ev.AppendJSON(nil))
			}
			calls = append(calls, [3]int64{*d.Usage.InputTokens, *d.Usage.OutputTokens, *d.Usage.CachedInputTokens})
		}
	}
	want := [][3]int64{{65971, 41, 50}, {66125, 127, 65970}, {66446, 45, 66124}}
	if sessions != 3 || len(calls) != 3 || calls[0] != want[0] || calls[1] != want[1] || calls[2] != want[2] {
		t.Errorf("%d session usages, calls %v; want 3 and %v", sessions, calls, want)
	}
}
