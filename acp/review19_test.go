package acp_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/universal"
)

// TestAgentTerminalRestoreChecked: a checkpoint whose agent-owned terminal
// is null, or holds more bytes of an unfinished character than one can
// have, is refused (it was accepted, and the turn's end then panicked).
func TestAgentTerminalRestoreChecked(t *testing.T) {
	tr, err := acp.New(acp.FormatAgent, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for i, l := range strings.Split(strings.TrimSpace(unstableSession(`{"sessionUpdate":"terminal_update","terminalId":"t4","command":"sleep 1"}`)), "\n") {
		evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1)})
	}
	cp, err := tr.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	for name, term := range map[string]any{"null": nil, "long tail": map[string]any{"tail": "4pyT4pyT"}} {
		var m map[string]any
		if err := json.Unmarshal(cp, &m); err != nil {
			t.Fatal(err)
		}
		st := m["state"].(map[string]any)
		if st["agent_terminals"] == nil {
			t.Fatal("the checkpoint holds no agent terminal")
		}
		st["agent_terminals"] = map[string]any{"t4": term}
		bad, _ := json.Marshal(m)
		tr2, _ := acp.New(acp.FormatAgent, universal.Options{})
		if err := tr2.Restore(bad); err == nil {
			t.Errorf("%s: a checkpoint with agent terminal %v was restored", name, term)
		}
	}
}

// TestParallelTerminals: output of terminals no call named yet goes to a
// running command only when it is the one running command without a
// terminal; with commands in parallel it waits for the call that names
// its terminal (both went to the newest call, which then showed both
// outputs run together). The output of a long command is the same
// translated whole and with a checkpoint after every message, which
// streams each chunk with and without the comparison of what came before.
func TestParallelTerminals(t *testing.T) {
	evs := translateChecked(t, unstableSession(
		`{"sessionUpdate":"tool_call","toolCallId":"A","title":"build","kind":"execute","status":"in_progress"}`,
		`{"sessionUpdate":"tool_call","toolCallId":"B","title":"test","kind":"execute","status":"in_progress"}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"tA","data":"`+b64("building A\n")+`"}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"tB","data":"`+b64("testing B\n")+`"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"A","content":[{"type":"terminal","terminalId":"tA"}]}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"B","content":[{"type":"terminal","terminalId":"tB"}]}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"tA","data":"`+b64("built A\n")+`"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"A","status":"completed"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"B","status":"completed"}`,
		`{"sessionUpdate":"tool_call","toolCallId":"C","title":"long","kind":"execute","status":"in_progress","content":[{"type":"terminal","terminalId":"tC"}]}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"tC","data":"`+b64("one\n")+`"}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"tC","data":"`+b64("two\n")+`"}`,
		`{"sessionUpdate":"terminal_update","terminalId":"tC","output":{"data":"`+b64("cleared\n")+`"}}`,
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"tC","data":"`+b64("three\n")+`"}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"C","status":"completed"}`,
	)+endTurn)
	want := []string{"building A\nbuilt A\n|false|", "testing B\n|false|", "cleared\nthree\n|false|"}
	if got := results(evs); !slices.Equal(got, want) {
		t.Errorf("results %q, want %q", got, want)
	}
}

// TestGrokWokenThenCancelled: after a turn Grok Build started itself
// (ended by its turn_completed, no response follows), a prompt cancelled
// before any update still makes its turn, interrupted (the woken turn's
// end made its response be taken for one already ended).
func TestGrokWokenThenCancelled(t *testing.T) {
	up := func(method, u string) string {
		return `{"jsonrpc":"2.0","method":"` + method + `","params":{"sessionId":"s1","update":` + u + `}}`
	}
	evs := translate(t, acp.FormatAgent, strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"_meta":{"grokShell":true,"agentVersion":"1.0.4"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		up("session/update", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}`),
		up("_x.ai/session_notification", `{"sessionUpdate":"turn_completed","prompt_id":"p1","stop_reason":"end_turn"}`),
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
		up("session/update", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"<system-reminder>done</system-reminder>"},"_meta":{"hideFromScrollback":true}}`),
		up("session/update", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"woken"}}`),
		up("_x.ai/session_notification", `{"sessionUpdate":"turn_completed","prompt_id":"task-x","stop_reason":"end_turn"}`),
		up("_x.ai/session_notification", `{"sessionUpdate":"turn_completed","prompt_id":"p3","stop_reason":"cancelled"}`),
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"cancelled"}}`,
	}, "\n")+"\n")
	var ends []universal.TurnStatus
	for _, ev := range evs {
		if ev.Type == universal.TypeTurnEnded {
			ends = append(ends, ev.Data.(*universal.TurnEnded).Status)
		}
	}
	if want := []universal.TurnStatus{universal.TurnCompleted, universal.TurnCompleted, universal.TurnInterrupted}; !slices.Equal(ends, want) {
		t.Errorf("turns ended %v, want %v", ends, want)
	}
}
