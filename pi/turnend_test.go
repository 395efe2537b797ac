package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAssistantOnlyInTurnEnd: oh-my-pi's `omp --output jsonl PROMPT` (the
// stdout yorch/pi-harness-delegate recorded as tests/fixtures/amp.jsonl at
// commit 2c15022, MIT per its package.json; omp 17.x, 2026-08-27) writes
// no message_start, message_update or message_end of the assistant: each
// response is only in the turn_end that ends its step ({message,
// toolResults}), the tool results before it either as toolResult messages
// or as tool_execution_start/end, and the last two turn_end come without a
// turn_start between them. Lines of that file, trimmed (texts, details and
// signatures shortened; three of the second step's six calls, and
// agent_end's repeat of every message, left out). Every response was lost
// (reasoning, texts, the first call, the usage of all three calls): turn_end
// was taken for a repeat of what message_end carried. A stream with
// message_end is unchanged (every Pi golden).
func TestAssistantOnlyInTurnEnd(t *testing.T) {
	lines := []string{
		`{"type": "session", "version": 3, "id": "01a0443e-2b70-7000-b3b2-e6b8283f80b5", "timestamp": "2026-08-27T17:22:00.176Z", "cwd": "/tmp/harness-capture"}`,
		`{"type": "agent_start"}`,
		`{"type": "turn_start"}`,
		`{"type": "message_start", "message": {"role": "user", "content": [{"type": "text", "text": "List the files here and read each one, then summarise in two sentences."}], "attribution": "user", "timestamp": 1787851320566}}`,
		`{"type": "message_end", "message": {"role": "user", "content": [{"type": "text", "text": "List the files here and read each one, then summarise in two sentences."}], "attribution": "user", "timestamp": 1787851320566}}`,
		`{"type": "message_start", "message": {"role": "toolResult", "toolCallId": "toolu_bdrk_01AhR333sWjjwHXoJU9qSvJz|fc_tmp_09jvkehkw3bs", "toolName": "read", "content": [{"type": "text", "text": ".\n  - c.txt                36B       7m ago\n  - a.txt                38B       7m ago"}], "details": {"isDirectory": true, "resolvedPath": "/tmp/harness-capture"}, "isError": false, "timestamp": 1787851325569}}`,
		`{"type": "message_end", "message": {"role": "toolResult", "toolCallId": "toolu_bdrk_01AhR333sWjjwHXoJU9qSvJz|fc_tmp_09jvkehkw3bs", "toolName": "read", "content": [{"type": "text", "text": ".\n  - c.txt                36B       7m ago\n  - a.txt                38B       7m ago"}], "details": {"isDirectory": true, "resolvedPath": "/tmp/harness-capture"}, "isError": false, "timestamp": 1787851325569}}`,
		`{"type": "turn_end", "message": {"role": "assistant", "content": [{"type": "thinking", "thinking": "The user wants me to list the files.", "thinkingSignature": "{\"id\":\"rs_tmp_mv68w3j7xj9\",\"type\":\"reasoning\"}"}, {"type": "toolCall", "id": "toolu_bdrk_01AhR333sWjjwHXoJU9qSvJz|fc_tmp_09jvkehkw3bs", "name": "read", "arguments": {"i": "list files in current directory", "path": "."}, "intent": "list files in current directory"}], "api": "openrouter", "provider": "openrouter", "model": "~anthropic/claude-haiku-latest", "usage": {"input": 87273, "output": 184, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 87457, "reasoningTokens": 87, "cost": {"input": 0.08727299999999999, "output": 0.00092, "cacheRead": 0, "cacheWrite": 0, "total": 0.088193}}, "stopReason": "toolUse", "timestamp": 1787851320625, "responseId": "gen-1787851320-LKUG1MIUT8SVFd2zshAY", "duration": 4934.771208, "ttft": 3401.259792}, "toolResults": [{"role": "toolResult", "toolCallId": "toolu_bdrk_01AhR333sWjjwHXoJU9qSvJz|fc_tmp_09jvkehkw3bs", "toolName": "read", "content": [{"type": "text", "text": ".\n  - c.txt                36B       7m ago\n  - a.txt                38B       7m ago"}], "details": {"isDirectory": true}, "isError": false, "timestamp": 1787851325569}]}`,
		`{"type": "turn_start"}`,
		`{"type": "tool_execution_start", "toolCallId": "toolu_bdrk_01SLNPczzm9XSxuwPwPcjcoB|fc_tmp_vfrag0kqjvd", "toolName": "read", "args": {"path": "a.txt"}, "intent": "read a.txt"}`,
		`{"type": "tool_execution_start", "toolCallId": "toolu_bdrk_01DapWbD8dRjxYnNDF7EpjE6|fc_tmp_cdglnicwg5w", "toolName": "read", "args": {"path": "c.txt"}, "intent": "read c.txt"}`,
		`{"type": "tool_execution_end", "toolCallId": "toolu_bdrk_01SLNPczzm9XSxuwPwPcjcoB|fc_tmp_vfrag0kqjvd", "toolName": "read", "result": {"content": [{"type": "text", "text": "[a.txt#C639]\n1:Alpha file: contains the word banana.\n2:"}], "details": {"totalLines": 2, "fileSize": 38}}, "isError": false}`,
		`{"type": "tool_execution_end", "toolCallId": "toolu_bdrk_01DapWbD8dRjxYnNDF7EpjE6|fc_tmp_cdglnicwg5w", "toolName": "read", "result": {"content": [{"type": "text", "text": "[c.txt#D0BD]\n1:Gamma file: contains the word date.\n2:"}], "details": {"totalLines": 2, "fileSize": 36}}, "isError": false}`,
		`{"type": "turn_end", "message": {"role": "assistant", "content": [{"type": "text", "text": "Now reading each file:", "textSignature": "{\"v\":1,\"id\":\"msg_tmp_8eajw0yxr4s\"}"}, {"type": "toolCall", "id": "toolu_bdrk_01SLNPczzm9XSxuwPwPcjcoB|fc_tmp_vfrag0kqjvd", "name": "read", "arguments": {"i": "read a.txt", "path": "a.txt"}, "intent": "read a.txt"}, {"type": "toolCall", "id": "toolu_bdrk_01DapWbD8dRjxYnNDF7EpjE6|fc_tmp_cdglnicwg5w", "name": "read", "arguments": {"i": "read c.txt", "path": "c.txt"}, "intent": "read c.txt"}], "api": "openrouter", "provider": "openrouter", "model": "~anthropic/claude-haiku-latest", "usage": {"input": 87632, "output": 375, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 88007, "cost": {"input": 0.087632, "output": 0.001875, "cacheRead": 0, "cacheWrite": 0, "total": 0.089507}}, "stopReason": "toolUse", "timestamp": 1787851325594, "responseId": "gen-1787851325-j4bhZrTF2y1y2cxke6yc"}, "toolResults": [{"role": "toolResult", "toolCallId": "toolu_bdrk_01SLNPczzm9XSxuwPwPcjcoB|fc_tmp_vfrag0kqjvd", "toolName": "read", "content": [{"type": "text", "text": "[a.txt#C639]\n1:Alpha file: contains the word banana.\n2:"}], "isError": false, "timestamp": 1787851329488}, {"role": "toolResult", "toolCallId": "toolu_bdrk_01DapWbD8dRjxYnNDF7EpjE6|fc_tmp_cdglnicwg5w", "toolName": "read", "content": [{"type": "text", "text": "[c.txt#D0BD]\n1:Gamma file: contains the word date.\n2:"}], "isError": false, "timestamp": 1787851329489}]}`,
		`{"type": "turn_end", "message": {"role": "assistant", "content": [{"type": "text", "text": "## Summary\n\nThree trivial text files.", "textSignature": "{\"v\":1,\"id\":\"msg_tmp_b3uz8lr2sr\"}"}], "api": "openrouter", "provider": "openrouter", "model": "~anthropic/claude-haiku-latest", "usage": {"input": 115596, "output": 129, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 115725, "cost": {"input": 0.115596, "output": 0.000645, "cacheRead": 0, "cacheWrite": 0, "total": 0.116241}}, "stopReason": "stop", "timestamp": 1787851329521, "responseId": "gen-1787851329-rqhhxxfzjcudsaO3dh3y"}, "toolResults": []}`,
		`{"type": "agent_end", "messages": [], "isTerminal": true}`,
	}
	evs := translateClean(t, pi.FormatJSON, []byte(strings.Join(lines, "\n")+"\n"))
	var texts, reasoning []string
	calls := map[string]int{}
	results := 0
	tr := golden.NewTranscript(evs)
	for i := range tr.Items {
		it := &tr.Items[i]
		for _, p := range it.Content {
			switch {
			case it.Kind == universal.KindMessage && it.Role == universal.RoleAssistant && p.Type == universal.PartText:
				texts = append(texts, p.Text)
			case p.Type == universal.PartReasoning:
				reasoning = append(reasoning, p.Text)
			case p.Type == universal.PartToolCall:
				calls[p.CallID]++
			case p.Type == universal.PartToolResult:
				results++
			}
		}
	}
	if want := []string{"Now reading each file:", "## Summary\n\nThree trivial text files."}; strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("assistant texts %q, want %q", texts, want)
	}
	if len(reasoning) != 1 || reasoning[0] != "The user wants me to list the files." {
		t.Errorf("reasoning %q", reasoning)
	}
	if len(calls) != 3 || results != 3 {
		t.Errorf("calls %v (each once), %d results; want 3 and 3", calls, results)
	}
	for id, n := range calls {
		if n != 1 {
			t.Errorf("call %s made %d times", id, n)
		}
	}
	if us := golden.OfType(evs, universal.TypeUsageUpdated); len(us) != 3 {
		t.Errorf("%d usage.updated, want one a response", len(us))
	}
}
