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
