package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestQwenNotifications: Qwen Code tells its host about the session with
// notifications named without the "_" of an extension method,
// qwen/notify/session/<what> {v, sessionId, …}: title-update {title,
// titleSource} (the title it gives the session, which no
// session_info_update carries), model-update {currentModelId} (after a
// set_model or set_config_option switched the model), mode-update (a copy
// of its current_mode_update, real in this repository's 0.24.4
// recordings) and others of its daemon (prompt-suggestion,
// recording-degraded, …). All but mode-update were agent.unparsed and the
// title was lost. The lines are in the shapes QwenLM/qwen-code's Session
// tests give at 57ac6b88 (Apache-2.0: "Durable title", titleSource auto;
// currentModelId "qwen3-coder-plus(openai)"), texts made up.
func TestQwenNotifications(t *testing.T) {
	const init = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"qwen-code","title":"Qwen Code","version":"0.24.4"},"agentCapabilities":{"loadSession":true}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}` + "\n"
	notify := func(what, params string) string {
		return `{"jsonrpc":"2.0","method":"qwen/notify/session/` + what + `","params":{"v":1,"sessionId":"s1"` + params + `}}` + "\n"
	}
	turn := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}` + "\n"
	exchange := func(lines ...string) string {
		var b strings.Builder
		for i := 0; i+1 < len(lines); i += 2 {
			b.WriteString(`{"dir":"` + lines[i] + `","msg":` + lines[i+1] + "}\n")
		}
		return b.String()
	}
	tests := []struct {
		name, format, input string
		title               string   // session.started's title
		items               []string // status items, "label: detail"
	}{
		{"title after the start", acp.FormatAgent,
			init + turn + notify("title-update", `,"title":"Greeting the user","titleSource":"auto"`) +
				notify("title-update", `,"title":"Greeting the user","titleSource":"auto"`),
			"", []string{"title: Greeting the user"}},
		{"title before the start", acp.FormatAgent,
			init + notify("title-update", `,"title":"Greeting the user","titleSource":"auto"`) + turn,
			"Greeting the user", nil},
		{"model and the others", acp.FormatAgent,
			init + turn + notify("model-update", `,"currentModelId":"qwen3-coder-plus(openai)"`) +
				notify("mode-update", `,"currentModeId":"auto-edit","legacyFrameSent":true`) +
				notify("prompt-suggestion", `,"suggestion":"run the tests","promptId":"p1"`) +
				notify("recording-degraded", `,"reason":"write_failed"`) +
				`{"jsonrpc":"2.0","method":"qwen/notify/session/title-update","params":{"v":1,"sessionId":"other","title":"Another session's"}}` + "\n",
			"", []string{"model: qwen3-coder-plus(openai)"}},
		{"model the host sets", acp.FormatExchange, exchange(
			"in", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
			"out", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"qwen-code","version":"0.24.4"}}}`,
			"in", `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`,
			"out", `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`,
			"in", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hello"}]}}`,
			"out", `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`,
			"in", `{"jsonrpc":"2.0","id":4,"method":"session/set_model","params":{"sessionId":"s1","modelId":"qwen3-coder-plus(openai)"}}`,
			"out", `{"jsonrpc":"2.0","method":"qwen/notify/session/model-update","params":{"v":1,"sessionId":"s1","currentModelId":"qwen3-coder-plus(openai)"}}`,
			"out", `{"jsonrpc":"2.0","id":4,"result":{}}`),
			"", []string{"model: qwen3-coder-plus(openai)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateShaped(t, tc.format, tc.input)
			if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != 0 {
				t.Errorf("%d agent.unparsed", n)
			}
			var items []string
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.Kind == universal.KindStatus {
					items = append(items, it.Content[0].Label+": "+it.Content[0].Detail)
				}
			}
			if strings.Join(items, "|") != strings.Join(tc.items, "|") {
				t.Errorf("status items %q, want %q", items, tc.items)
			}
			started := golden.OfType(evs, universal.TypeSessionStarted)[0].Data.(*universal.SessionStarted)
			title := ""
			if i := strings.Index(string(started.Metadata), `"title":"`); i >= 0 {
				title = string(started.Metadata[i+len(`"title":"`):])
				title = title[:strings.IndexByte(title, '"')]
			}
			if title != tc.title {
				t.Errorf("session.started title %q, want %q", title, tc.title)
			}
		})
	}
}
