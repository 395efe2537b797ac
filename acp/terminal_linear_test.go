package acp_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
)

// TestTerminalOutputLinear: a command's output that comes in many chunks
// (an agent-owned terminal's terminal_output_chunk, ACP v2) costs the same
// per chunk however much came before: four times the chunks allocate
// about four times the bytes, not sixteen (each chunk once joined the
// whole output so far to the new bytes).
func TestTerminalOutputLinear(t *testing.T) {
	chunk := `{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"` + b64(strings.Repeat("compiling module\n", 12)) + `"}`
	input := func(n int) []byte {
		updates := []string{`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"make","kind":"execute","status":"in_progress","content":[{"type":"terminal","terminalId":"t1"}]}`}
		for range n {
			updates = append(updates, chunk)
		}
		updates = append(updates, `{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`)
		return []byte(unstableSession(updates...) + endTurn)
	}
	growsLinearly(t, input)
}

// TestToolContentChunkLinear: a call's output that comes in many ACP v2
// tool_call_content_chunks costs the same per chunk however much came
// before (each chunk once joined the whole content so far again, and
// read all of its output to stream the new text).
func TestToolContentChunkLinear(t *testing.T) {
	u := func(s string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + s + `}}` + "\n"
	}
	chunk := u(`{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c1","content":{"type":"content","content":{"type":"text","text":"` + strings.Repeat(`compiling module\n`, 12) + `"}}}`)
	input := func(n int) []byte {
		s := `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"info":{"name":"some-agent","version":"1"},"protocolVersion":2}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}` + "\n" +
			u(`{"sessionUpdate":"user_message","messageId":"m1","content":[{"type":"text","text":"run it"}]}`) +
			u(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":"make","kind":"execute","rawInput":{"command":"make"},"status":"in_progress"}`) +
			strings.Repeat(chunk, n) +
			u(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`) +
			u(`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`)
		return []byte(s)
	}
	growsLinearly(t, input)
}

// growsLinearly fails t when the agent-side input of 2000 chunks, made by
// input, allocates more than six times what 500 chunks do (about four
// is linear; a chunk that costs all the output before it makes sixteen).
func growsLinearly(t *testing.T, input func(n int) []byte) {
	t.Helper()
	c := golden.Case{Format: acp.FormatAgent, Framing: framing(acp.FormatAgent), New: newTranslator(acp.FormatAgent)}
	allocated := func(in []byte) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := c.Translate(in, golden.Options(), nil, 0); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := input(500), input(2000)
	allocated(small) // warm
	a, b := allocated(small), allocated(large)
	if r := float64(b) / float64(a); r > 6 {
		t.Errorf("2000 chunks allocate %d bytes, 500 allocate %d: %.1f×, want about 4×", b, a, r)
	}
}
