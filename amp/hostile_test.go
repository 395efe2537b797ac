package amp_test

// Hostile input and hostile state (issue 13): corrupt checkpoints, lines
// cut short, native ids that are not UTF-8. The harness is
// harness_hostile_test.go.

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/internal/golden/foreign"
)

// hostileCases are real captures of every format.
func hostileCases(t testing.TB) []golden.HostileCase {
	mk := func(dir, file, format, meta string) golden.HostileCase {
		c := golden.HostileCase{Name: file, Format: format, Framing: framing(format), New: newFor(format), Data: golden.HostileRead(t, filepath.Join(dir, file))}
		if meta != "" {
			c.Reports = golden.PromptReports(t, filepath.Join(dir, meta))
		}
		return c
	}
	return []golden.HostileCase{
		mk(recorded, "s02-tool.jsonl", amp.FormatStreamJSON, "s02-tool.meta.json"),
		mk(recorded, "s02-tool-thinking.jsonl", amp.FormatStreamJSON, "s02-tool-thinking.meta.json"),
		mk(public, "stream_toolpath_feature_elicit_v0.0.1785170481.jsonl", amp.FormatStreamJSON, ""),
		mk(public, "docs_manual_appendix_stream_json_input_multiturn.jsonl", amp.FormatStreamJSON, ""),
		mk(public, "git-ai__T-019ca1ce-3ae2-7686-a41e-ccc078837f8a.json", amp.FormatThread, ""),
	}
}

// TestCorruptCheckpoints: truncated, bit-flipped, structurally damaged,
// cross-format and cross-agent checkpoints are refused with an error
// wrapping universal.ErrCheckpoint (the translator unchanged), or
// restored into a translator that goes on without a panic, an invalid
// event or a call its Stream refuses.
func TestCorruptCheckpoints(t *testing.T) {
	golden.CheckCorruptCheckpoints(t, hostileCases(t), foreign.Cases(t, "amp"))
}

// TestTruncatedLines cuts every line of real captures of every format
// (every byte of short lines, a sample of long ones and of documents) and
// requires a well-formed stream with an agent.unparsed for the cut line.
func TestTruncatedLines(t *testing.T) {
	golden.CheckTruncatedLines(t, hostileCases(t))
}

// TestInvalidUTF8IDs: native ids holding bytes that are not UTF-8 give
// the same output whether or not the translator is checkpointed and
// restored on the way (a checkpoint is JSON: it keeps only valid UTF-8).
func TestInvalidUTF8IDs(t *testing.T) {
	for _, c := range hostileCases(t) {
		for _, r := range [][2]string{{"TU-", "TU-\xff"}, {"toolu_", "toolu_\xfe"}, {`"T-`, `"T-\xc3`}} {
			c.Data = bytes.ReplaceAll(c.Data, []byte(r[0]), []byte(r[1]))
		}
		golden.CheckRestoreAnywhere(t, c)
	}
}
