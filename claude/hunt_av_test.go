package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/universal"
)

// TestNestedSubagentFileOrder: Claude Code 2.1.2xx writes a sub-agent that
// a sub-agent spawned to the same subagents folder as its parent
// (agent-<id>.jsonl; its .meta.json names parentAgentId and spawnDepth 2,
// as public readers' fixtures quote real ones), and the Agent call that
// spawned it, whose result names its agentId, is in the parent's file.
// The ids are random, so in name order (a glob's) the nested file comes
// before its parent's about half of the time: its entries were read as an
// orphan's (a warmup's) and dropped, the nested sub-agent's whole
// conversation lost. They are held until a call names the agent now, and
// go under it in either order; at the end, a file whose first prompt a
// call gave (its result names no agentId) goes under that call, and one
// that no call spawned is still ignored. Hand-made in the shape of
// 2.1.220's transcripts (testdata/claude/public bitcointax and Irrlicht
// sub-agent files).
func TestNestedSubagentFileOrder(t *testing.T) {
	const env = `"sessionId":"s1","version":"2.1.220","cwd":"/w","userType":"external","entrypoint":"cli"`
	main := []string{
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"review it"},"uuid":"m1","timestamp":"2026-08-01T10:00:00.000Z",` + env + `}`,
		`{"parentUuid":"m1","isSidechain":false,"type":"assistant","message":{"model":"claude-opus-5","id":"msg_m1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"Agent","input":{"description":"outer","prompt":"Outer task: delegate.","subagent_type":"general-purpose"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}},"uuid":"m2","timestamp":"2026-08-01T10:00:01.000Z",` + env + `}`,
		`{"parentUuid":"m2","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_A","type":"tool_result","content":[{"type":"text","text":"outer done"}]}]},"uuid":"m3","timestamp":"2026-08-01T10:00:09.000Z","toolUseResult":{"status":"completed","prompt":"Outer task: delegate.","agentId":"a5a05086d3cb0b770","agentType":"general-purpose","content":[{"type":"text","text":"outer done"}]},` + env + `}`,
		`{"parentUuid":"m3","isSidechain":false,"type":"assistant","message":{"model":"claude-opus-5","id":"msg_m2","type":"message","role":"assistant","content":[{"type":"text","text":"All done."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}},"uuid":"m4","timestamp":"2026-08-01T10:00:10.000Z",` + env + `}`,
	}
	const outerEnv = `"isSidechain":true,"agentId":"a5a05086d3cb0b770",` + env
	outer := func(result string) []string {
		return []string{
			`{"parentUuid":null,` + outerEnv + `,"type":"user","message":{"role":"user","content":"Outer task: delegate."},"uuid":"o1","timestamp":"2026-08-01T10:00:02.000Z"}`,
			`{"parentUuid":"o1",` + outerEnv + `,"type":"assistant","message":{"model":"claude-opus-5","id":"msg_o1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_B","name":"Agent","input":{"description":"inner","prompt":"Inner task: count files.","subagent_type":"Explore"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}},"uuid":"o2","timestamp":"2026-08-01T10:00:03.000Z"}`,
			`{"parentUuid":"o2",` + outerEnv + `,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_B","type":"tool_result","content":[{"type":"text","text":"3 files"}]}]},"uuid":"o3","timestamp":"2026-08-01T10:00:07.000Z"` + result + `}`,
			`{"parentUuid":"o3",` + outerEnv + `,"type":"assistant","message":{"model":"claude-opus-5","id":"msg_o2","type":"message","role":"assistant","content":[{"type":"text","text":"outer done"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}},"uuid":"o4","timestamp":"2026-08-01T10:00:08.000Z"}`,
		}
	}
	named := outer(`,"toolUseResult":{"status":"completed","prompt":"Inner task: count files.","agentId":"a0f2c1e9b7d3a4c55","agentType":"Explore","content":[{"type":"text","text":"3 files"}]}`)
	unnamed := outer(``) // an interrupted call's result names no agent
	const innerEnv = `"isSidechain":true,"agentId":"a0f2c1e9b7d3a4c55",` + env
	inner := []string{
		`{"parentUuid":null,` + innerEnv + `,"type":"user","message":{"role":"user","content":"Inner task: count files."},"uuid":"i1","timestamp":"2026-08-01T10:00:04.000Z"}`,
		`{"parentUuid":"i1",` + innerEnv + `,"type":"assistant","message":{"model":"claude-haiku-4-5","id":"msg_i1","type":"message","role":"assistant","content":[{"type":"text","text":"INNER 3 files"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}},"uuid":"i2","timestamp":"2026-08-01T10:00:06.000Z"}`,
	}
	const warmEnv = `"isSidechain":true,"agentId":"a00000000000000ww",` + env
	warmup := []string{
		`{"parentUuid":null,` + warmEnv + `,"type":"user","message":{"role":"user","content":"Warmup"},"uuid":"w1","timestamp":"2026-08-01T10:00:00.500Z"}`,
		`{"parentUuid":"w1",` + warmEnv + `,"type":"assistant","message":{"model":"claude-haiku-4-5","id":"msg_w1","type":"message","role":"assistant","content":[{"type":"text","text":"WARM ready"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}},"uuid":"w2","timestamp":"2026-08-01T10:00:00.700Z"}`,
	}
	cat := func(files ...[]string) []string {
		var all []string
		for _, f := range files {
			all = append(all, f...)
		}
		return all
	}
	for _, tc := range []struct {
		name  string
		lines []string
	}{
		{"parent's file first", cat(main, named, inner)},
		{"nested file first", cat(main, inner, named)},
		{"nested file first, warmup between", cat(main, inner, warmup, named)},
		{"nested file first, linked by its prompt", cat(main, inner, unnamed)},
		{"parent's file first, linked by its prompt", cat(main, unnamed, inner)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, tc.lines...)
			items := map[string]universal.Item{}
			var answer, warm *universal.Item
			for _, e := range evs {
				if e.Type != universal.TypeItemCompleted {
					continue
				}
				it := e.Data.(*universal.ItemSnapshot).Item
				items[it.ItemID] = it
				for _, p := range it.Content {
					if strings.HasPrefix(p.Text, "INNER") {
						answer = &it
					}
					if strings.HasPrefix(p.Text, "WARM") {
						warm = &it
					}
				}
			}
			if warm != nil {
				t.Fatalf("the warmup's answer %+v is in the output; no call spawned it", warm)
			}
			if answer == nil {
				t.Fatal("the nested sub-agent's answer is lost")
			}
			// Its parent is the inner Agent call, whose message is the
			// outer sub-agent's, under the outer Agent call.
			call := items[answer.ParentID]
			if call.Kind != universal.KindToolCall || call.NativeItemID != "toolu_B" {
				t.Fatalf("the nested answer's parent = %+v, want the toolu_B call", call)
			}
			outerCall := items[items[call.ParentID].ParentID]
			if outerCall.NativeItemID != "toolu_A" {
				t.Fatalf("toolu_B's message's parent = %+v, want the toolu_A call", outerCall)
			}
			for _, e := range evs {
				if e.Type == universal.TypeUnparsed {
					t.Fatalf("unparsed: %s", e.Data)
				}
			}
		})
	}
}
