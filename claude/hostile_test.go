package claude_test

// Hostile input and hostile state (issue 13): corrupt checkpoints, lines
// cut short, native ids that are not UTF-8. The harness is
// harness_hostile_test.go.

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/internal/golden/foreign"
	"github.com/agentnorm/agentnorm/universal"
)

// hostileCases are real captures of every format.
func hostileCases(t testing.TB) []golden.HostileCase {
	mk := func(file, format string, fr universal.Framing, meta string) golden.HostileCase {
		c := golden.HostileCase{Name: file, Format: format, Framing: fr, New: newFor(format), Data: golden.HostileRead(t, filepath.Join(recorded, file))}
		if meta != "" {
			c.Reports = golden.PromptReports(t, filepath.Join(recorded, meta))
		}
		return c
	}
	return []golden.HostileCase{
		mk("s02-tool.jsonl", claude.FormatStreamJSON, universal.FrameLines, "s02-tool.meta.json"),
		mk("s10-subagent.jsonl", claude.FormatStreamJSON, universal.FrameLines, "s10-subagent.meta.json"),
		mk("s07-permission-stdio-allow.exchange.jsonl", claude.FormatExchange, universal.FrameExchange, ""),
		mk("s02-tool.session/-home-dev-project/f6ff0079-7cb1-4c6a-bd08-83e082892bc0.jsonl", claude.FormatTranscript, universal.FrameLines, ""),
	}
}

// TestCorruptCheckpoints: truncated, bit-flipped, structurally damaged,
// cross-format and cross-agent checkpoints are refused with an error
// wrapping universal.ErrCheckpoint (the translator unchanged), or
// restored into a translator that goes on without a panic, an invalid
// event or a call its Stream refuses.
func TestCorruptCheckpoints(t *testing.T) {
	golden.CheckCorruptCheckpoints(t, hostileCases(t), foreign.Cases(t, "claude"))
}

// TestTruncatedLines cuts every line of real captures of every format
// (every byte of short lines, a sample of long ones) and requires a
// well-formed stream with an agent.unparsed for the cut line.
func TestTruncatedLines(t *testing.T) {
	golden.CheckTruncatedLines(t, hostileCases(t))
}

// TestInvalidUTF8IDs: native ids holding bytes that are not UTF-8 give
// the same output whether or not the translator is checkpointed and
// restored on the way (a checkpoint is JSON: it keeps only valid UTF-8).
func TestInvalidUTF8IDs(t *testing.T) {
	for _, c := range hostileCases(t) {
		for _, r := range [][2]string{{"toolu_", "toolu_\xff"}, {"msg_", "msg_\xfe\xfd"}, {`"session_id":"`, `"session_id":"\xc3`}, {`"uuid":"`, `"uuid":"\xe2\x82`}} {
			c.Data = bytes.ReplaceAll(c.Data, []byte(r[0]), []byte(r[1]))
		}
		golden.CheckRestoreAnywhere(t, c)
	}
}

// TestUnansweredControl: in an exchange, a control_response or a
// control_cancel_request for a request nobody sent is reported, not
// dropped.
func TestUnansweredControl(t *testing.T) {
	evs := feed(t, claude.FormatExchange, nil, nil,
		`in:{"type":"control_request","request_id":"i","request":{"subtype":"initialize"}}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"i"}}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"i"}}`,
		`in:{"type":"control_response","response":{"subtype":"success","request_id":"x2","response":{}}}`,
		`{"type":"control_cancel_request","request_id":"x3"}`,
	)
	var got []string
	for _, e := range golden.OfType(evs, universal.TypeUnparsed) {
		got = append(got, e.Data.(*universal.Unparsed).Location)
	}
	if len(got) != 3 {
		t.Errorf("agent.unparsed at %q, want lines 3, 4 and 5", got)
	}
}
