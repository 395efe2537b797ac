package acp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestQwenBackgroundTurns: when a background agent, monitor or shell
// ends, Qwen Code wakes the model on its own (QwenLM/qwen-code
// packages/cli/src/acp-integration/session/Session.ts,
// #executeBackgroundNotificationPrompt): no session/prompt, no response;
// the task's notification and the model's answer come as
// agent_message_chunks marked _meta.qwenDiscreteMessage (source
// background_notification, background_notification_response,
// backgroundTask {taskId, status, kind, toolUseId}), and
// _qwencode/end_turn {sessionId, reason, source} ends the turn. The
// extension notification was ignored: the turn stayed open until the
// next prompt, which ended it interrupted, and the notification and the
// answer were joined into one message of the model's. Qwen Code before
// 0.21 sent a slash command's output as _qwencode/slash_command
// {sessionId, command, messageType, message}, also ignored: the output
// was lost. Qwen OAuth's sign-in link, authenticate/update {_meta:
// {authUri}} (acpAgent.ts, sent without the "_" of an extension method),
// was agent.unparsed; it carries nothing of the transcript and is
// ignored. Lines in the shapes Session.ts writes (testdata/SOURCES.md,
// "acp Qwen Code background turns"), ids and texts made up.
func TestQwenBackgroundTurns(t *testing.T) {
	const sid = "qwen-1"
	in := func(s string) string { return `{"dir":"in","msg":` + s + `}` }
	out := func(s string) string { return `{"dir":"out","msg":` + s + `}` }
	chunk := func(text, meta string) string {
		m := ""
		if meta != "" {
			m = `,"_meta":` + meta
		}
		return out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}` + m + `}}}`)
	}
	task := `"backgroundTask":{"taskId":"bg_1","status":"completed","kind":"shell"}`
	endTurn := func(reason string) string {
		return out(`{"jsonrpc":"2.0","method":"_qwencode/end_turn","params":{"sessionId":"` + sid + `","reason":"` + reason + `","source":"background_notification"}}`)
	}
	prompt := func(id int, text string) string {
		return in(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"%s","prompt":[{"type":"text","text":"%s"}]}}`, id, sid, text))
	}
	answer := func(id int, reason string) string {
		return out(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"stopReason":"%s"}}`, id, reason))
	}
	start := []string{
		// Qwen OAuth's sign-in link (no "_" in its name): ignored.
		out(`{"jsonrpc":"2.0","method":"authenticate/update","params":{"_meta":{"authUri":"https://chat.qwen.ai/authorize?user_code=ABCD"}}}`),
		in(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`),
		out(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"` + sid + `"}}`),
		prompt(2, "run the tests in the background"),
		chunk("Started.", ""),
		answer(2, "end_turn"),
	}
	background := []string{
		chunk("Background shell bg_1 completed (exit 0).", `{"source":"background_notification","qwenDiscreteMessage":true,`+task+`}`),
		out(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"Read the log."}}}}`),
		chunk("The tests passed.", `{"source":"background_notification_response","qwenDiscreteMessage":true,`+task+`}`),
	}
	type msg struct{ text, source string }
	for _, tc := range []struct {
		name, format string
		lines        []string
		turns        []string // each turn's status and metadata
		msgs         []msg    // the assistant messages, in order
	}{
		{name: "a background turn ends at its end_turn", format: acp.FormatExchange,
			lines: concat(start, background, []string{endTurn("end_turn"), prompt(3, "thanks"), chunk("You're welcome.", ""), answer(3, "end_turn")}),
			turns: []string{`completed {"stop_reason":"end_turn"}`, `completed {"stop_reason":"end_turn","source":"background_notification"}`, `completed {"stop_reason":"end_turn"}`},
			msgs:  []msg{{"Started.", ""}, {"Background shell bg_1 completed (exit 0).", "background_notification"}, {"The tests passed.", "background_notification_response"}, {"You're welcome.", ""}}},
		{name: "the agent's side alone", format: acp.FormatAgent,
			lines: unwrap(concat(start, background, []string{endTurn("end_turn")})),
			turns: []string{`completed {"stop_reason":"end_turn"}`, `completed {"stop_reason":"end_turn","source":"background_notification"}`},
			msgs:  []msg{{"Started.", ""}, {"Background shell bg_1 completed (exit 0).", "background_notification"}, {"The tests passed.", "background_notification_response"}}},
		{name: "cancelled", format: acp.FormatExchange,
			lines: concat(start, background, []string{endTurn("cancelled")}),
			turns: []string{`completed {"stop_reason":"end_turn"}`, `interrupted {"stop_reason":"cancelled","source":"background_notification"}`},
			msgs:  []msg{{"Started.", ""}, {"Background shell bg_1 completed (exit 0).", "background_notification"}, {"The tests passed.", "background_notification_response"}}},
		// A prompt aborts the background turn; its end, cancelled,
		// comes while the prompt waits, and is not the prompt's.
		{name: "a prompt aborts the background turn", format: acp.FormatExchange,
			lines: concat(start, background[:1], []string{prompt(3, "stop that"), endTurn("cancelled"), chunk("Stopped.", ""), answer(3, "end_turn")}),
			turns: []string{`completed {"stop_reason":"end_turn"}`, `interrupted null`, `completed {"stop_reason":"end_turn"}`},
			msgs:  []msg{{"Started.", ""}, {"Background shell bg_1 completed (exit 0).", "background_notification"}, {"Stopped.", ""}}},
		{name: "an end_turn with no turn open", format: acp.FormatExchange,
			lines: concat(start, []string{endTurn("end_turn")}),
			turns: []string{`completed {"stop_reason":"end_turn"}`},
			msgs:  []msg{{"Started.", ""}}},
		{name: "discrete messages inside a prompt", format: acp.FormatExchange,
			lines: concat(start[:4], []string{chunk("Compressing", ""), chunk("Context compressed.", `{"source":"slash_command","qwenDiscreteMessage":true}`), chunk("Done", ""), chunk(".", ""), answer(2, "end_turn")}),
			turns: []string{`completed {"stop_reason":"end_turn"}`},
			msgs:  []msg{{"Compressing", ""}, {"Context compressed.", "slash_command"}, {"Done.", ""}}},
		// The rewrite middleware's summary of a discrete message comes
		// besides the original, marked rewritten.
		{name: "a rewritten copy", format: acp.FormatExchange,
			lines: concat(start[:4], []string{chunk("Background agent worker completed.", `{"source":"background_notification","qwenDiscreteMessage":true}`),
				chunk("Worker done.", `{"source":"background_notification","qwenDiscreteMessage":true,"rewritten":true}`), answer(2, "end_turn")}),
			turns: []string{`completed {"stop_reason":"end_turn"}`},
			msgs:  []msg{{"Background agent worker completed.", "background_notification"}, {"Worker done.", "background_notification rewritten"}}},
		{name: "slash command output before 0.21", format: acp.FormatExchange,
			lines: concat(start[:4], []string{out(`{"jsonrpc":"2.0","method":"_qwencode/slash_command","params":{"sessionId":"` + sid + `","command":"/compress","messageType":"info","message":"Compressing context..."}}`),
				out(`{"jsonrpc":"2.0","method":"_qwencode/slash_command","params":{"sessionId":"` + sid + `","command":"/compress","messageType":"info","message":""}}`),
				answer(2, "end_turn")}),
			turns: []string{`completed {"stop_reason":"end_turn"}`},
			msgs:  []msg{{"Compressing context...", "slash_command"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translate(t, tc.format, strings.Join(tc.lines, "\n")+"\n")
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("agent.unparsed %+v", u)
			}
			var turns []string
			for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
				d := e.Data.(*universal.TurnEnded)
				md := string(d.Metadata)
				if md == "" {
					md = "null"
				}
				turns = append(turns, string(d.Status)+" "+md)
			}
			if strings.Join(turns, " | ") != strings.Join(tc.turns, " | ") {
				t.Errorf("turns\n%q\nwant\n%q", turns, tc.turns)
			}
			var msgs []msg
			for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := e.Data.(*universal.ItemSnapshot).Item
				if it.Kind != universal.KindMessage || it.Role != universal.RoleAssistant {
					continue
				}
				var m msg
				text := false
				for _, p := range it.Content {
					if p.Type != universal.PartText {
						continue
					}
					text = true
					m.text += p.Text
					var md struct {
						Source    string `json:"source"`
						Rewritten bool   `json:"rewritten"`
					}
					if len(p.Metadata) > 0 {
						if err := json.Unmarshal(p.Metadata, &md); err != nil {
							t.Fatal(err)
						}
					}
					m.source = md.Source
					if md.Rewritten {
						m.source += " rewritten"
					}
				}
				if text { // a message of reasoning alone is not counted
					msgs = append(msgs, m)
				}
			}
			if fmt.Sprint(msgs) != fmt.Sprint(tc.msgs) {
				t.Errorf("messages\n%q\nwant\n%q", msgs, tc.msgs)
			}
		})
	}
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// unwrap turns exchange lines into the agent's side alone.
func unwrap(lines []string) []string {
	var out []string
	for _, l := range lines {
		if s, ok := strings.CutPrefix(l, `{"dir":"out","msg":`); ok {
			out = append(out, strings.TrimSuffix(s, "}"))
		}
	}
	return out
}
