package codex_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestLegacyExecDeltas: the {"id","msg"} lines of Codex before 0.44 (codex
// proto's stdout, which hosts of 2025 logged line for line, and the exec
// output of those versions) stream a message and its reasoning as
// agent_message_delta and agent_reasoning_delta {delta} (openai/codex
// protocol EventMsg AgentMessageDelta, AgentReasoningDelta; several public
// hosts' tests quote the lines). The deltas' text was read as "" on this
// path (through a member lookup that needs the line's index), so the
// deltas were dropped, and a message cut short before its agent_message
// was lost whole. Lines in the protocol's shape.
func TestLegacyExecDeltas(t *testing.T) {
	lines := []string{
		`{"id":"0","msg":{"type":"session_configured","session_id":"0198f0a1-0000-7000-8000-000000000001","model":"gpt-5","history_log_id":0,"history_entry_count":0}}`,
		`{"id":"1","msg":{"type":"task_started"}}`,
		`{"id":"1","msg":{"type":"agent_reasoning_delta","delta":"**Reading"}}`,
		`{"id":"1","msg":{"type":"agent_reasoning_delta","delta":" the file**"}}`,
		`{"id":"1","msg":{"type":"agent_reasoning","text":"**Reading the file**"}}`,
		`{"id":"1","msg":{"type":"agent_message_delta","delta":"Fixed "}}`,
		`{"id":"1","msg":{"type":"agent_message_delta","delta":"it \u2014 done."}}`,
		`{"id":"1","msg":{"type":"agent_message","message":"Fixed it \u2014 done."}}`,
		`{"id":"1","msg":{"type":"task_complete","last_agent_message":"Fixed it \u2014 done."}}`,
		`{"id":"2","msg":{"type":"task_started"}}`,
		`{"id":"2","msg":{"type":"agent_message_delta","delta":"Cut "}}`,
		`{"id":"2","msg":{"type":"agent_message_delta","delta":"short"}}`,
	}
	evs := runParsed(t, codex.FormatExec, lines)
	var deltas []string
	for _, e := range golden.OfType(evs, universal.TypeItemDelta) {
		d := e.Data.(*universal.ItemDelta)
		if !e.Synthetic {
			deltas = append(deltas, d.Delta)
		}
	}
	want := []string{"**Reading", " the file**", "Fixed ", "it \u2014 done.", "Cut ", "short"}
	if len(deltas) != len(want) {
		t.Fatalf("agent deltas %q, want %q", deltas, want)
	}
	for i := range want {
		if deltas[i] != want[i] {
			t.Fatalf("agent deltas %q, want %q", deltas, want)
		}
	}
	var texts []string
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		for _, p := range e.Data.(*universal.ItemSnapshot).Item.Content {
			texts = append(texts, string(p.Type)+":"+p.Text)
		}
	}
	if len(texts) != 3 || texts[0] != "reasoning:**Reading the file**" || texts[1] != "text:Fixed it \u2014 done." || texts[2] != "text:Cut short" {
		t.Errorf("completed parts %q", texts)
	}
}

// TestDetectLegacyExecSummary: codex exec before 0.44 prints its
// configuration summary first ({"workdir", "model", "provider",
// "approval", "sandbox", "reasoning effort", "reasoning summaries"}, its
// members in no fixed order), then the prompt and the {"id","msg"}
// events. Detect looked at the first line only and could not tell the
// real 0.28 recordings' format; it now reads past the summary. A summary
// alone, or followed by another agent's line, still says nothing.
func TestDetectLegacyExecSummary(t *testing.T) {
	files, err := filepath.Glob("../testdata/crosscheck/codex/0.28.0/*.exec.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no 0.28.0 recordings: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := codex.Detect(b); got != codex.FormatExec {
			t.Errorf("%s: Detect = %q, want %q", filepath.Base(f), got, codex.FormatExec)
		}
	}
	const summary = `{"model":"gpt-5","sandbox":"read-only","workdir":"/w","provider":"openai","approval":"never"}`
	for _, head := range []string{
		summary,
		summary + "\n" + `{"type":"system","subtype":"init","session_id":"0b1e0000-0000-4000-8000-000000000001"}`,
	} {
		if got := codex.Detect([]byte(head)); got != "" {
			t.Errorf("Detect(%q) = %q, want none", head, got)
		}
	}
}
