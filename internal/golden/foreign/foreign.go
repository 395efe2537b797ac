// Package foreign lists a real capture of every agent, for the hostile
// tests of each translator: a checkpoint another agent's translator wrote
// must be refused, never restored as this one's own state.
//
// It is a package of its own because it imports every translator, which
// package golden cannot (the translators' internal tests import golden).
package foreign

import (
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// capture is one capture under testdata with its agent and format.
type capture struct {
	agent, file, format string
	framing             universal.Framing
	new                 func(universal.Options) universal.Translator
}

var captures = []capture{
	{"acp", "acp/claude-agent-acp/0.23.1/s02-tool.exchange.jsonl", acp.FormatExchange, universal.FrameExchange, golden.Maker(acp.New, acp.FormatExchange)},
	{"amp", "amp/0.0.1790142911/s02-tool.jsonl", amp.FormatStreamJSON, universal.FrameLines, golden.Maker(amp.New, amp.FormatStreamJSON)},
	{"claude", "claude/2.1.330/s02-tool.jsonl", claude.FormatStreamJSON, universal.FrameLines, golden.Maker(claude.New, claude.FormatStreamJSON)},
	{"codex", "codex/0.169.0/s02-tool.exec.jsonl", codex.FormatExec, universal.FrameLines, golden.Maker(codex.New, codex.FormatExec)},
	{"opencode", "opencode/1.18.33/s02-tool.sse", opencode.FormatSSE, universal.FrameSSE, golden.Maker(opencode.New, opencode.FormatSSE)},
	{"pi", "pi/1.5.2/s02-tool.rpc.exchange.jsonl", pi.FormatExchange, universal.FrameExchange, golden.Maker(pi.New, pi.FormatExchange)},
}

// Cases returns a capture of every agent but except, read from testdata
// (a translator package's tests run one folder below the repository).
func Cases(t testing.TB, except string) []golden.HostileCase {
	var out []golden.HostileCase
	for _, c := range captures {
		if c.agent == except {
			continue
		}
		out = append(out, golden.HostileCase{Name: c.file, Format: c.format, Framing: c.framing, New: c.new,
			Data: golden.HostileRead(t, filepath.Join("..", "testdata", c.file))})
	}
	return out
}
