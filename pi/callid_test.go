package pi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
)

// TestCallIDReused: a provider that numbers each response's calls from 0
// (Kimi K2 through an OpenAI-compatible API: functions.bash:0) gives a
// later call the id of an earlier one. Each call and its result shared
// that call_id, so a reader linking results to calls by it (package
// reduce, the transcript) showed the second result under both calls. The
// n-th call of a session with an id has call_id id#n (the first keeps the
// native id; native_item_id stays the native id), its result the same,
// also across a checkpoint restored after every message.
func TestCallIDReused(t *testing.T) {
	lines := []string{`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"go"}],"timestamp":1}}`}
	parent := "a1"
	for i, c := range []struct{ cmd, out string }{{"ls", "FIRST"}, {"pwd", "SECOND"}, {"id", "THIRD"}} {
		call, res := fmt.Sprintf("c%d", i), fmt.Sprintf("r%d", i)
		lines = append(lines,
			`{"type":"message","id":"`+call+`","parentId":"`+parent+`","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"functions.bash:0","name":"bash","arguments":{"command":"`+c.cmd+`"}}],"api":"openai-completions","provider":"moonshot","model":"kimi-k2","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":2}}`,
			`{"type":"message","id":"`+res+`","parentId":"`+call+`","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"functions.bash:0","toolName":"bash","content":[{"type":"text","text":"`+c.out+`"}],"isError":false,"timestamp":3}}`)
		parent = res
	}
	lines = append(lines, `{"type":"message","id":"z","parentId":"`+parent+`","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"api":"openai-completions","provider":"moonshot","model":"kimi-k2","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":4}}`)
	input := []byte(strings.Join(lines, "\n") + "\n")

	c := golden.Case{Format: pi.FormatSession, Framing: framing(pi.FormatSession), New: golden.Maker(pi.New, pi.FormatSession)}
	for _, every := range []int{0, 1} {
		evs, err := c.Translate(input, golden.Options(), nil, every)
		if err != nil {
			t.Fatal(err)
		}
		got, shared, natives := golden.CallResults(evs)
		if len(shared) > 0 {
			t.Errorf("checkpoint every %d: call_ids of two calls: %q", every, shared)
		}
		for _, n := range natives {
			if n != "functions.bash:0" {
				t.Errorf("a call's native_item_id %q", n)
			}
		}
		want := []string{"ls→FIRST (functions.bash:0)", "pwd→SECOND (functions.bash:0#2)", "id→THIRD (functions.bash:0#3)"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("checkpoint every %d: results\n got %q\nwant %q", every, got, want)
		}
	}
}
