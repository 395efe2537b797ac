package opencode_test

// Hostile input and hostile state (issue 13): corrupt checkpoints, lines
// cut short, native ids that are not UTF-8, a part sent under another
// message. The harness is harness_hostile_test.go.

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/internal/golden/foreign"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// hostileCases are real captures of every format.
func hostileCases(t testing.TB) []golden.HostileCase {
	mk := func(dir, file, format, meta string) golden.HostileCase {
		c := golden.HostileCase{Name: file, Format: format, Framing: framing(format), New: newFor(format), Data: golden.HostileRead(t, filepath.Join(dir, file))}
		if meta != "" {
			c.Reports = golden.PromptReports(t, filepath.Join(recorded, meta))
		}
		return c
	}
	return []golden.HostileCase{
		mk(recorded, "s02-tool.sse", opencode.FormatSSE, ""),
		mk(recorded, "s10-subagent.sse", opencode.FormatSSE, ""),
		mk(recorded, "s07-permission.sse", opencode.FormatSSE, ""),
		mk(recorded, "s02-tool.run.jsonl", opencode.FormatRunJSON, "s02-tool.meta.json"),
		mk(recorded, "s02-tool.messages.json", opencode.FormatMessages, ""),
		mk(public, "opencode-nvim-v1.1.31-question-ask-replied.json", opencode.FormatEvents, ""),
	}
}

// TestCorruptCheckpoints: truncated, bit-flipped, structurally damaged,
// cross-format and cross-agent checkpoints are refused with an error
// wrapping universal.ErrCheckpoint (the translator unchanged), or
// restored into a translator that goes on without a panic, an invalid
// event or a call its Stream refuses.
func TestCorruptCheckpoints(t *testing.T) {
	golden.CheckCorruptCheckpoints(t, hostileCases(t), foreign.Cases(t, "opencode"))
}

// TestTruncatedLines cuts every line of real captures of every format
// (every byte of short lines, a sample of long ones and of documents) and
// requires a well-formed stream with an agent.unparsed for the cut line.
func TestTruncatedLines(t *testing.T) {
	cases := hostileCases(t)
	golden.CheckTruncatedLines(t, append(cases[:1:1], cases[2:]...)) // the sub-agent capture adds time, not paths
}

// TestInvalidUTF8IDs: native ids holding bytes that are not UTF-8 give
// the same output whether or not the translator is checkpointed and
// restored on the way (a checkpoint is JSON: it keeps only valid UTF-8).
func TestInvalidUTF8IDs(t *testing.T) {
	for _, c := range hostileCases(t) {
		for _, r := range [][2]string{{"prt_", "prt_\xff"}, {"msg_", "msg_\xfe\xfd"}, {"ses_", "ses_\xc3"}, {"call_", "call_\xe2\x82"}} {
			c.Data = bytes.ReplaceAll(c.Data, []byte(r[0]), []byte(r[1]))
		}
		golden.CheckRestoreAnywhere(t, c)
	}
}

// TestRestoreRefusesBrokenState: a checkpoint whose open message is not
// in the message table (the next message.updated dereferenced it) is
// refused, the translator unchanged.
func TestRestoreRefusesBrokenState(t *testing.T) {
	c := hostileCases(t)[0]
	p := golden.Prepare(t, c)
	for k, cp := range p.Checkpoints {
		bad, ok := golden.EditState(t, cp, func(st map[string]any) bool {
			open, _ := st["open_msgs"].([]any)
			msgs, _ := st["msgs"].(map[string]any)
			if len(open) == 0 || msgs == nil {
				return false
			}
			delete(msgs, open[0].(string))
			return true
		})
		if !ok {
			continue
		}
		tr := c.New(golden.Options())
		if err := tr.Restore(bad); !errors.Is(err, universal.ErrCheckpoint) {
			t.Fatalf("after %d messages: restore gives %v, want an ErrCheckpoint", k, err)
		}
		var out []universal.Event
		for _, m := range p.Msgs {
			out = tr.Translate(out, m)
		}
		if out = tr.Report(out, universal.EndOfInput{}); !bytes.Equal(golden.Encode(out), p.Straight) {
			t.Fatal("the refused restore changed the translator")
		}
		return
	}
	t.Fatal("no checkpoint with an open message")
}

// TestPartUnderAnotherMessage: a reasoning part first sent under a
// message id nobody announced stays there; sent again under the real
// message it is reported, and that message keeps its own text part (it
// used to show the reasoning as its answer and lose the text).
func TestPartUnderAnotherMessage(t *testing.T) {
	evs := run(t, opencode.FormatSSE, sse(
		msgUpdated("msg_a", "assistant", false),
		textPart("msg_x", "prt_r", "reasoning", "think", "", true),
		textPart("msg_a", "prt_r", "reasoning", "think", "", true),
		textPart("msg_a", "prt_t", "text", "answer", "", true),
		msgUpdated("msg_a", "assistant", true),
	))
	if n := len(golden.OfType(evs, universal.TypeUnparsed)); n != 1 {
		t.Errorf("%d agent.unparsed, want 1", n)
	}
	for _, it := range completed(evs) {
		if it.NativeItemID != "msg_a" {
			continue
		}
		if got := fmt.Sprint(it.Content); len(it.Content) != 1 || it.Content[0].Type != universal.PartText || it.Content[0].Text != "answer" {
			t.Errorf("msg_a content %s, want the text part only", got)
		}
	}
}

// TestDeltasOfOnePartUnderTwoMessages: deltas of a part not seen yet
// name one message, then another; the part is in the first (as a part
// is in the message it came with first): all its text goes there (found
// by FuzzTranslate: the second delta was sent to the other message's
// item at the first one's part index, which the Stream refused).
func TestDeltasOfOnePartUnderTwoMessages(t *testing.T) {
	delta := func(msg, text string) string {
		return fmt.Sprintf(`{"type":"message.part.delta","properties":{"sessionID":%q,"messageID":%q,"partID":"prt_p","field":"text","delta":%q}}`, ses, msg, text)
	}
	evs := run(t, opencode.FormatSSE, sse(
		delta("msg_x", "I should answer "),
		delta("msg_y", "politely."),
		textPart("msg_x", "prt_q", "text", "Hello!", "", true),
	))
	noUnparsed(t, evs)
	for _, it := range completed(evs) {
		var texts []string
		for _, p := range it.Content {
			texts = append(texts, p.Text)
		}
		got := strings.Join(texts, "|")
		if want := map[string]string{"msg_x": "Hello!|I should answer politely.", "msg_y": ""}[it.NativeItemID]; got != want {
			t.Errorf("%s content %q, want %q", it.NativeItemID, got, want)
		}
	}
}

// TestCheckpointKeepsRawJSON: raw JSON the translator keeps (a part's
// provider metadata, an error, a file part's content) comes back from a
// checkpoint byte for byte, <, > and & included (encoding/json escapes
// them in raw JSON it writes).
func TestCheckpointKeepsRawJSON(t *testing.T) {
	in := sse(
		`{"type":"session.status","properties":{"sessionID":"ses_a","status":{"type":"busy"}}}`,
		msgUpdated("msg_a", "user", false),
		`{"type":"message.part.updated","properties":{"part":{"id":"prt_f","messageID":"msg_a","sessionID":"ses_a","type":"file","mime":"text/plain","filename":"a<b>.go","url":"file:///w/a.go?x=1&y=<2>"}}}`,
		msgUpdated("msg_b", "assistant", false),
		`{"type":"message.part.updated","properties":{"part":{"id":"prt_t","messageID":"msg_b","sessionID":"ses_a","type":"text","text":"hi","metadata":{"p":{"sig":"<a&b>"}},"time":{"start":1,"end":2}}}}`,
		`{"type":"message.updated","properties":{"info":{"id":"msg_b","sessionID":"ses_a","role":"assistant","time":{"created":1},"tokens":{"input":1,"output":2},"error":{"name":"APIError","data":{"message":"<html>&amp;</html>"}}}}}`,
		`{"type":"session.error","properties":{"sessionID":"ses_a","error":{"name":"APIError","data":{"message":"<p>down & out</p>"}}}}`,
		`{"type":"session.status","properties":{"sessionID":"ses_a","status":{"type":"idle"}}}`,
	)
	golden.CheckRestoreAnywhere(t, golden.HostileCase{Name: "raw JSON", Format: opencode.FormatSSE, Framing: framing(opencode.FormatSSE), New: newFor(opencode.FormatSSE), Data: []byte(in)})
}
