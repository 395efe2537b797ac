package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// benchInput is one capture framed into messages.
type benchInput struct {
	name, format string
	size         int64
	msgs         []universal.Message
}

func benchInputs(tb testing.TB) []benchInput {
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
	var ins []benchInput
	for _, s := range specs {
		b, err := os.ReadFile(s.path)
		if err != nil {
			tb.Fatal(err)
		}
		in := benchInput{name: s.name, format: s.format, size: int64(len(b))}
		for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(b), framing(s.format), 0)) {
			if err != nil {
				tb.Fatal(err)
			}
			m.Data = bytes.Clone(m.Data)
			in.msgs = append(in.msgs, m)
		}
		ins = append(ins, in)
	}
	return ins
}

// translateAll translates a framed capture with a fresh translator and
// returns the number of events.
func translateAll(tb testing.TB, in *benchInput, out []universal.Event) int {
	tr, err := codex.New(in.format, universal.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, m := range in.msgs {
		out = tr.Translate(out[:0], m)
		n += len(out)
	}
	out = tr.Report(out[:0], universal.EndOfInput{})
	return n + len(out)
}

// BenchmarkTranslate translates each capture (framing excluded): MB/s of
// native input, events per second and allocations per event.
func BenchmarkTranslate(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(in.size)
			b.ReportAllocs()
			out := make([]universal.Event, 0, 64)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			events := 0
			for b.Loop() {
				events += translateAll(b, &in, out)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events), "allocs/event")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

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
	tr := startedDelta(b)
	out := make([]universal.Event, 0, 4)
	b.SetBytes(int64(len(deltaLine)))
	b.ReportAllocs()
	for b.Loop() {
		out = tr.Translate(out[:0], universal.Message{Data: deltaLine, Line: 7})
	}
	if len(out) != 1 || out[0].Type != universal.TypeItemDelta {
		b.Fatalf("got %d events", len(out))
	}
}

// TestBenchmarks runs the benchmark bodies once, so plain go test covers
// them.
func TestBenchmarks(t *testing.T) {
	for _, in := range benchInputs(t) {
		if n := translateAll(t, &in, nil); n == 0 {
			t.Errorf("%s: no events", in.name)
		}
	}
}
