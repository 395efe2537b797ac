package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// fuzzFormats are the formats FuzzTranslate picks from (mode & 3).
var fuzzFormats = [4]string{codex.FormatExchange, codex.FormatAppServer, codex.FormatExec, codex.FormatRollout}

// FuzzTranslate checks golden.FuzzProperty (no panic, a well-formed
// stream after EndOfInput, checkpoint and restore change nothing) whatever
// the input and format. mode & 3 picks the format; mode & 4 marks every
// third message as host input.
func FuzzTranslate(f *testing.F) {
	add := func(path, format string) {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for i, name := range fuzzFormats {
			if name == format {
				f.Add(uint8(i), b)
			}
		}
	}
	for _, name := range scenarios {
		add(filepath.Join(recorded, name+".exec.jsonl"), "exec")
		add(filepath.Join(recorded, name+".appserver.exchange.jsonl"), "exchange")
		add(filepath.Join(recorded, name+".appserver.jsonl"), "appserver")
	}
	rollouts, _ := filepath.Glob(filepath.Join(recorded, "s0[1-7]*.session", "*", "rollout-*.jsonl"))
	for _, r := range rollouts {
		add(r, "rollout")
	}
	add(filepath.Join(public, "rollout/irrlicht-0.130.0-fork-conversation.parent-then-fork.jsonl"), "rollout")
	add(filepath.Join(handmade, "exec-0.15x-web-search-results.jsonl"), "exec")
	for _, c := range []struct{ path, format string }{
		{"v2-features.exchange.jsonl", "exchange"}, {"appserver-server-lines.jsonl", "appserver"},
		{"appserver-v1-legacy.jsonl", "appserver"}, {"exec-legacy-msg-envelope.jsonl", "exec"},
		{"exec-features-interrupted.jsonl", "exec"},
	} {
		add(filepath.Join(handmade, c.path), c.format)
	}
	add(filepath.Join(public, "rollout/agent-sessions-0.146.0-composite-small.jsonl"), "rollout")
	add(filepath.Join(public, "git-ai__codex-session-updated.jsonl"), "rollout")
	f.Add(uint8(6), []byte("{\"type\":\"thread.started\",\"thread_id\":\"t\"}\nnoise\n{\"type\":\"error\",\"message\":\"x\"}\n{\"type\":\"turn.failed\"}\n"))
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		format := fuzzFormats[mode&3]
		var in func(int) bool
		if mode&4 != 0 {
			in = func(n int) bool { return n%3 == 2 }
		}
		var reads func([]byte) bool
		if format == codex.FormatExec {
			// Lines of exec's stdout that do not start an object (after
			// JSON's whitespace: a form feed is text) are Codex's stderr
			// merged into it, kept as the session's.
			reads = func(msg []byte) bool {
				msg = bytes.TrimLeft(msg, " \t\r\n")
				return len(msg) == 0 || msg[0] != '{'
			}
		}
		golden.FuzzProperty(t, golden.Fuzz{New: newFor(format), Framing: framing(format), Reports: []universal.Report{universal.Prompt{Text: "hi"}}, In: in, Reads: reads}, data)
	})
}
