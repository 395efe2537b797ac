package agentnorm_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestEmptyModel: an agent that names its model with an empty id (Auggie
// 0.32's session/new currentModelId "") names none; the output showed
// model "" (session.started, turn.started metadata, a status item). Every
// translator's path that takes a model id from the agent or the host
// (Claude Code's system/init, Codex's session_configured, turn_context and
// thread/start, Pi's model_change, ACP's session/new and
// current_model_update) now leaves an empty one out. Lines in the shapes
// of each agent's recorded output, the model emptied.
func TestEmptyModel(t *testing.T) {
	for _, tc := range []struct {
		name, agent, format string
		lines               []string
	}{
		{"claude init", "claude", "stream-json", []string{
			`{"type":"system","subtype":"init","cwd":"/tmp/fixture","session_id":"45d14937-28c7-4259-aaeb-5c4acce17abb","tools":["Bash"],"mcp_servers":[],"model":"","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.285","uuid":"u1"}`,
			`{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"","content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}},"session_id":"45d14937-28c7-4259-aaeb-5c4acce17abb","uuid":"u2"}`,
		}},
		{"codex session_configured", "codex", "exec", []string{
			`{"id":"","msg":{"type":"session_configured","session_id":"0199894d-068c-70a1-857c-753ef9abf7b5","model":"","history_log_id":1,"history_entry_count":0,"rollout_path":"/tmp/r.jsonl"}}`,
			`{"id":"1","msg":{"type":"task_started"}}`,
			`{"id":"1","msg":{"type":"agent_message","message":"Hi"}}`,
		}},
		{"codex turn_context", "codex", "rollout", []string{
			`{"timestamp":"2026-02-23T19:34:26.098Z","type":"session_meta","payload":{"id":"019c8bfe-ec25-79e0-97d7-bda6a9c575ff","timestamp":"2026-02-23T19:34:25.573Z","cwd":"/w","originator":"codex_exec","cli_version":"0.104.0","source":"exec","model_provider":"openai"}}`,
			`{"timestamp":"2026-02-23T19:34:26.098Z","type":"turn_context","payload":{"cwd":"/w","approval_policy":"never","sandbox_policy":{"type":"read-only"},"model":"","summary":"auto"}}`,
			`{"timestamp":"2026-02-23T19:34:26.099Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Hi"}]}}`,
			`{"timestamp":"2026-02-23T19:34:27.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello"}]}}`,
		}},
		{"codex thread/start", "codex", "exchange", []string{
			`{"dir":"in","t_ms":0,"msg":{"jsonrpc":"2.0","id":1,"method":"thread/start","params":{"cwd":"/home/dev/project","model":""}}}`,
			`{"dir":"out","t_ms":10,"msg":{"id":1,"result":{"thread":{"id":"01a1fe02-01a1-73d0-890a-4c79ad584004","preview":"","modelProvider":"openai","createdAt":1795262906,"path":null,"cwd":"/home/dev/project","cliVersion":"0.169.0","source":"appServer","gitInfo":null,"turns":[]},"modelProvider":"openai","cwd":"/home/dev/project","approvalPolicy":"on-request","sandbox":{"type":"readOnly"},"reasoningEffort":null}}}`,
		}},
		{"pi model_change", "pi", "session", []string{
			`{"type":"session","version":3,"id":"01a1fe04-9d88-76b2-a4ba-bf5f45f1e5b6","timestamp":"2026-11-21T12:11:17.769Z","cwd":"/home/dev/project"}`,
			`{"type":"model_change","id":"c9e94775","parentId":null,"timestamp":"2026-11-21T12:11:17.819Z","provider":"mock","modelId":""}`,
			`{"type":"message","id":"a1","parentId":"c9e94775","timestamp":"2026-11-21T12:11:17.832Z","message":{"role":"user","content":[{"type":"text","text":"Hi"}],"timestamp":1795263077829}}`,
		}},
		{"acp session/new", "acp", "agent", []string{
			`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"auggie","version":"0.32.0"}}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1","models":{"currentModelId":"","availableModels":[]}}}`,
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_model_update","currentModelId":""}}}`,
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}`,
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_model_update","currentModelId":""}}}`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := agentnorm.New(tc.agent, tc.format, universal.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var evs []universal.Event
			for i, l := range tc.lines {
				m := universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1}
				if tc.format == "exchange" { // a recorded side and message
					m.Data = []byte(gjson.Get(l, "msg").Raw)
					if gjson.Get(l, "dir").Str == "in" {
						m.Dir = universal.In
					}
				}
				evs = tr.Translate(evs, m)
			}
			evs = tr.Report(evs, universal.EndOfInput{})
			if err := universal.CheckStream(evs); err != nil {
				t.Fatal(err)
			}
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("agent.unparsed %+v", u[0].Data)
			}
			if len(golden.OfType(evs, universal.TypeSessionStarted)) != 1 {
				t.Fatal("no session.started")
			}
			out := golden.Encode(evs)
			for _, l := range bytes.Split(out, []byte("\n")) {
				if bytes.Contains(l, []byte(`"model":""`)) || bytes.Contains(l, []byte(`"label":"model","detail":""`)) {
					t.Errorf("an empty model shown: %s", strings.TrimSpace(string(l)))
				}
			}
		})
	}
}
