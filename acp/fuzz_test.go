package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// FuzzTranslate checks golden.FuzzProperty on arbitrary input in every
// format: no panic; the output is a well-formed stream after EndOfInput;
// the translator never makes a call its Stream refuses (an agent.unparsed
// at "acp: translator"); and a checkpoint and restore gives the same
// output as one run. The low 7 bits of mode pick the format; bit 7 hands
// every third message over as host input (Dir In).
func FuzzTranslate(f *testing.F) {
	for _, c := range all(f) {
		data := read(f, c.input)
		if len(data) > 256<<10 {
			data = data[:256<<10]
		}
		f.Add(formatIndex(c.format), data)
	}
	// A provider replay transcript's id-less frames (replay30_test.go).
	f.Add(formatIndex(acp.FormatExchange), []byte(strings.Join(kiroReplay, "\n")+"\n"+
		`{"type":"emit_inbound","frame":{"kind":"response","method":"session/prompt","result":{"stopReason":"end_turn"}}}`+"\n"))
	f.Add(uint8(1), []byte(`[{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call_update","toolCallId":"x","status":"completed"}}},{"id":1,"result":{"stopReason":"end_turn"}}]`))
	f.Add(uint8(1), []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"},"_meta":{"claudeCode":{"parentToolUseId":"x"}}}}}`))
	f.Add(uint8(1), []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"compaction_update","compactionId":"c","status":"in_progress"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"compaction_summary_chunk","compactionId":"c","content":{"type":"text","text":"s"},"_meta":{"a":1}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[]}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"compaction_update","compactionId":"c","status":"failed","error":"e"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"plan_removed","planId":"p"}}}`))
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		fm := acp.Formats()[int(mode&0x7f)%len(acp.Formats())]
		var in func(int) bool
		if mode&0x80 != 0 {
			in = func(n int) bool { return n%3 == 2 }
		}
		golden.FuzzProperty(t, golden.Fuzz{New: newTranslator(fm.Name), Framing: fm.Framing, Reports: []universal.Report{universal.Prompt{Text: "a prompt"}}, In: in}, data)
	})
}

func formatIndex(name string) uint8 {
	for i, f := range acp.Formats() {
		if f.Name == name {
			return uint8(i)
		}
	}
	return 0
}
