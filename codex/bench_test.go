package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// benchInputs are the captures the benchmarks translate.
func benchInputs(tb testing.TB) []golden.BenchInput {
	var specs []struct{ name, path, format string }
	for _, s := range []string{"s02-tool", "s08-bigoutput", "s09-unicode", "s10-subagent"} {
		specs = append(specs,
			struct{ name, path, format string }{s + "/exchange", filepath.Join(recorded, s+".appserver.exchange.jsonl"), "exchange"},
			struct{ name, path, format string }{s + "/appserver", filepath.Join(recorded, s+".appserver.jsonl"), "appserver"},
			struct{ name, path, format string }{s + "/exec", filepath.Join(recorded, s+".exec.jsonl"), "exec"})
	}
	specs = append(specs,
		struct{ name, path, format string }{"rollout-0.169", filepath.Join(recorded, "s02-tool.session/appserver/rollout-2026-11-21T12-08-26-01a1fe02-01a1-73d0-890a-4c79ad584004.jsonl"), "rollout"},
		struct{ name, path, format string }{"rollout-0.104-1MB", filepath.Join(public, "rollout/localpush-0.104.0-alpha.1-rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl"), "rollout"},
		struct{ name, path, format string }{"rollout-0.40-1MB", filepath.Join(public, "agentcmd__rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl"), "rollout"},
		struct{ name, path, format string }{"v2-features", filepath.Join(handmade, "v2-features.exchange.jsonl"), "exchange"},
	)
	var ins []golden.BenchInput
	for _, s := range specs {
		b, err := os.ReadFile(s.path)
		if err != nil {
			tb.Fatal(err)
		}
		ins = append(ins, golden.BenchInput{Name: s.name, New: newFor(s.format), Framing: framing(s.format), Data: b})
	}
	return ins
}

// BenchmarkTranslate translates each capture (framing excluded): MB/s of
// native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) { golden.BenchmarkInputs(b, benchInputs(b)) }

// deltaLine is the most frequent app-server line: an agent message delta.
var deltaLine = []byte(`{"method":"item/agentMessage/delta","params":{"threadId":"01a1fe02-01a1-73d0-890a-4c79ad584004","turnId":"01a1fe02-01b4-7272-818f-8c04af602e0f","itemId":"msg_mock_0002_0","delta":"printed ` + "`hello-from-tool`" + `"},"emittedAtMs":1795262907075}`)

// startedDelta returns a translator whose session has an open agent
// message msg_mock_0002_0.
func startedDelta(tb testing.TB) *codex.Translator {
	tr, err := codex.New(codex.FormatAppServer, universal.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range []string{
		`{"method":"thread/started","params":{"thread":{"id":"01a1fe02-01a1-73d0-890a-4c79ad584004","cliVersion":"0.169.0"}}}`,
		`{"method":"turn/started","params":{"threadId":"01a1fe02-01a1-73d0-890a-4c79ad584004","turn":{"id":"01a1fe02-01b4-7272-818f-8c04af602e0f"}}}`,
		`{"method":"item/started","params":{"item":{"type":"agentMessage","id":"msg_mock_0002_0","text":"","phase":"final_answer"},"threadId":"01a1fe02-01a1-73d0-890a-4c79ad584004","turnId":"01a1fe02-01b4-7272-818f-8c04af602e0f"}}`,
	} {
		tr.Translate(nil, universal.Message{Data: []byte(l)})
	}
	return tr
}

// BenchmarkDelta translates one text delta into a running session.
func BenchmarkDelta(b *testing.B) {
	golden.BenchmarkDelta(b, startedDelta(b), universal.Message{Data: deltaLine, Line: 7})
}

// TestDeltaAllocs: an agent message delta allocates nothing (amortized:
// the stamper's arena and the streamed text grow in large steps).
func TestDeltaAllocs(t *testing.T) {
	golden.CheckDeltaAllocs(t, startedDelta(t), universal.Message{Data: deltaLine, Line: 7})
}

// TestBenchmarks runs the benchmark bodies once, so plain go test covers
// them.
func TestBenchmarks(t *testing.T) { golden.CheckInputs(t, benchInputs(t)) }

// TestEscapedDeltaAllocs: a delta whose text has escapes (a reasoning
// summary delta with newlines, Codex 0.169.0 s01-text) allocates nothing
// either: the text is unescaped into a buffer the translator reuses.
func TestEscapedDeltaAllocs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "codex", "0.169.0", "s01-text.appserver.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	tr, err := codex.New(codex.FormatAppServer, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	for i := range 13 {
		out = tr.Translate(out[:0], universal.Message{Data: lines[i], Line: int64(i + 1)})
	}
	if !bytes.Contains(lines[12], []byte(`summaryTextDelta`)) || !bytes.Contains(lines[12], []byte(`\n`)) || len(out) != 1 || out[0].Type != universal.TypeItemDelta {
		t.Fatalf("line 13 is not an escaped reasoning delta: %s", lines[12])
	}
	allocs, out := golden.AllocsPerMessage(t, tr, universal.Message{Data: lines[12], Line: 14})
	if allocs != 0 {
		t.Errorf("%v allocations per delta, want 0", allocs)
	}
	if d := out[0].Data.(*universal.ItemDelta); !strings.Contains(d.Delta, "\n") {
		t.Errorf("delta %q lost its newline", d.Delta)
	}
}

// TestRolloutReasoningAllocs: a rollout's agent_reasoning event_msg read
// into an open response (a public 0.40 rollout, line 149) becomes one
// item.delta, its text as a new reasoning part, without an allocation of
// its own (amortized): the text is unescaped into a buffer the translator
// reuses and copied into the stream's memory once, by the delta, which
// is also the new part's streamed text; a native item without a key is
// not registered.
func TestRolloutReasoningAllocs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(public, "agentcmd__rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	tr, err := codex.New(codex.FormatRollout, universal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []universal.Event
	for i := range 148 {
		out = tr.Translate(out[:0], universal.Message{Data: lines[i], Line: int64(i + 1)})
	}
	m := universal.Message{Data: lines[148], Line: 149}
	if !bytes.Contains(m.Data, []byte(`"agent_reasoning"`)) {
		t.Fatalf("line 149 is not agent_reasoning: %.100s", m.Data)
	}
	allocs, out := golden.AllocsPerMessage(t, tr, m)
	if allocs >= 0.5 {
		t.Errorf("%v allocations per reasoning event, want none", allocs)
	}
	if len(out) != 1 || out[0].Type != universal.TypeItemDelta {
		t.Fatalf("got %d events, want one item.delta", len(out))
	}
}
