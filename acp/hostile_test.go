package acp_test

// Hostile input and hostile state: corrupt checkpoints and lines cut
// short, with the harness the other translators share
// (harness_hostile_test.go, a copy of theirs).

import (
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/internal/golden/foreign"
)

// hostileCases are the captures the hostile tests start from: real and
// hand-made, both formats.
func hostileCases(t testing.TB) []golden.HostileCase {
	var out []golden.HostileCase
	for _, f := range []struct{ file, format, meta string }{
		{"claude-agent-acp/0.23.1/s04-edit.exchange.jsonl", acp.FormatExchange, ""},
		{"claude-agent-acp/0.23.1/s10-subagent.agent.jsonl", acp.FormatAgent, "claude-agent-acp/0.23.1/s10-subagent.meta.json"},
		{"claude-agent-acp/0.23.1/s11-cancel.exchange.jsonl", acp.FormatExchange, ""},
		{"claude-agent-acp/0.101.0/s04-edit.exchange.jsonl", acp.FormatExchange, ""},
		{"qwen-code/0.24.4/s06-multiturn.agent.jsonl", acp.FormatAgent, "qwen-code/0.24.4/s06-multiturn.meta.json"},
		{"handwritten/s02-tools.exchange.jsonl", acp.FormatExchange, ""},
		{"handwritten/s05-load.exchange.jsonl", acp.FormatExchange, ""},
		{"handwritten/s06-subagent.agent.jsonl", acp.FormatAgent, "handwritten/s06-subagent.meta.json"},
		{"handwritten/s07-elicitation.exchange.jsonl", acp.FormatExchange, ""},
	} {
		c := golden.HostileCase{Name: f.file, Format: f.format, Framing: framing(f.format), New: newTranslator(f.format), Data: read(t, filepath.Join(testdata, f.file))}
		if f.meta != "" {
			c.Reports = golden.PromptReports(t, filepath.Join(testdata, f.meta))
		}
		out = append(out, c)
	}
	return out
}

// TestCorruptCheckpoints: truncated, bit-flipped, structurally damaged,
// cross-format and cross-agent checkpoints are refused with an error
// wrapping universal.ErrCheckpoint (the translator unchanged), or
// restored into a translator that goes on without a panic, an invalid
// event or a call its Stream refuses.
func TestCorruptCheckpoints(t *testing.T) {
	golden.CheckCorruptCheckpoints(t, hostileCases(t), foreign.Cases(t, "acp"))
}

// TestTruncatedLines cuts every line of captures of both formats and
// requires a well-formed stream with an agent.unparsed for the cut line.
func TestTruncatedLines(t *testing.T) {
	var cases []golden.HostileCase
	for _, c := range hostileCases(t) {
		if len(c.Data) <= golden.MaxCutInput {
			cases = append(cases, c)
		}
	}
	golden.CheckTruncatedLines(t, cases)
}

// TestRestoreRefusesBrokenState: checkpoints whose translator state
// refers to what the stream does not have are refused, with the
// translator unchanged.
func TestRestoreRefusesBrokenState(t *testing.T) {
	p := golden.Prepare(t, golden.HostileCase{Name: "s02-tools", Format: acp.FormatExchange, Framing: framing(acp.FormatExchange), New: newTranslator(acp.FormatExchange),
		Data: read(t, filepath.Join(testdata, "handwritten", "s02-tools.exchange.jsonl"))})
	edits := map[string]func(st map[string]any) bool{
		"a streaming message without its parts": func(st map[string]any) bool {
			sc, ok := st["scopes"].(map[string]any)
			if !ok {
				return false
			}
			m, ok := sc[""].(map[string]any)
			if !ok || m["open"] != true || m["parts"] == nil {
				return false
			}
			delete(m, "parts")
			return true
		},
		"a tool whose result was never started": func(st map[string]any) bool {
			tools, ok := st["tools"].(map[string]any)
			if !ok {
				return false
			}
			for _, tl := range tools {
				tl.(map[string]any)["result"] = "itm_999"
				return true
			}
			return false
		},
		"a tool call that is a message": func(st map[string]any) bool {
			tools, ok := st["tools"].(map[string]any)
			if !ok {
				return false
			}
			for _, tl := range tools {
				m := tl.(map[string]any)
				m["call"] = m["msg"]
				return true
			}
			return false
		},
		"a turn the stream does not have": func(st map[string]any) bool {
			tr, ok := st["turn"].(map[string]any)
			if !ok || tr["open"] == true {
				return false
			}
			tr["open"] = true
			return true
		},
		"a null scope": func(st map[string]any) bool {
			if _, ok := st["scopes"].(map[string]any); !ok {
				return false
			}
			st["scopes"].(map[string]any)["x"] = nil
			return true
		},
	}
	golden.CheckRefusedEdits(t, p, edits)
}
