package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/universal"
)

// TestFrameCorpusCapture: the ACP frame corpus of the a2acp project
// (crates/bridge-acp/tests/corpus/<agent>.jsonl, real captures of Gemini
// CLI 0.41.2, claude-agent-acp 0.39.0, codex-acp 0.15.0 and Kiro CLI
// 2.5.0) wraps each message as {"dir": "send" | "recv", "line": <message>}
// after a header {"_provenance", "agent", "version", "cmd", "captured",
// …}. Neither the header nor the "line" member was known: the format was
// not detected, and read as an exchange every record was agent.unparsed
// (no "msg"). The lines below are written from the corpus's shape (its
// licence, AGPL, keeps the files out of testdata): a Gemini CLI turn.
func TestFrameCorpusCapture(t *testing.T) {
	const sid = "c8885484-3b24-4757-b0c9-69a6fbe83014"
	in := strings.Join([]string{
		`{"_provenance": "REAL-CAPTURE", "agent": "gemini-cli", "version": "0.41.2", "cmd": "gemini --acp", "captured": "2026-06-01"}`,
		`{"dir": "send", "line": {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false}}}}`,
		`{"dir": "recv", "line": {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": 1, "authMethods": [], "agentInfo": {"name": "gemini-cli", "title": "Gemini CLI", "version": "0.41.2"}, "agentCapabilities": {"loadSession": true}}}}`,
		`{"dir": "send", "line": {"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/tmp", "mcpServers": []}}}`,
		`{"dir": "recv", "line": {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": "` + sid + `", "models": {"availableModels": [{"modelId": "auto-gemini-3", "name": "Auto (Gemini 3)"}], "currentModelId": "auto-gemini-3"}}}}`,
		`{"dir": "send", "line": {"jsonrpc": "2.0", "id": 2, "method": "session/prompt", "params": {"sessionId": "` + sid + `", "prompt": [{"type": "text", "text": "Reply with PONG."}]}}}`,
		`{"dir": "recv", "line": {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "` + sid + `", "update": {"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "**Processing PONG Input**"}}}}}`,
		`{"dir": "recv", "line": {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "` + sid + `", "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "PONG"}}}}}`,
		`{"dir": "recv", "line": {"jsonrpc": "2.0", "id": 2, "result": {"stopReason": "end_turn", "_meta": {"quota": {"token_count": {"input_tokens": 11662, "output_tokens": 2}}}}}}`,
	}, "\n") + "\n"
	if got := acp.Detect([]byte(in)); got != acp.FormatExchange {
		t.Errorf("Detect = %q, want %q", got, acp.FormatExchange)
	}
	if got := acp.Detect([]byte(strings.SplitAfter(in, "\n")[0])); got != "" {
		t.Errorf("Detect(header alone) = %q, want \"\"", got)
	}
	var texts, ended []string
	for _, e := range translateExchange(t, in) {
		switch e.Type {
		case universal.TypeUnparsed:
			t.Errorf("agent.unparsed: %s", e.AppendJSON(nil))
		case universal.TypeTurnEnded:
			ended = append(ended, string(e.AppendJSON(nil)))
		}
	}
	for _, it := range completedItems(t, translateExchange(t, in)) {
		for _, p := range it.Content {
			if p.Type == universal.PartText || p.Type == universal.PartReasoning {
				texts = append(texts, string(it.Role)+": "+p.Text)
			}
		}
	}
	want := []string{"user: Reply with PONG.", "assistant: **Processing PONG Input**", "assistant: PONG"}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Errorf("texts %q, want %q", texts, want)
	}
	if len(ended) != 1 || !strings.Contains(ended[0], `"status":"completed"`) {
		t.Errorf("turn.ended %q, want one, completed", ended)
	}
}
