package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/universal"
)

// fuzzFormats are the formats FuzzTranslate picks from (mode & 3).
var fuzzFormats = [4]string{codex.FormatExchange, codex.FormatAppServer, codex.FormatExec, codex.FormatRollout}

// FuzzTranslate: whatever the input and format, the translator does not
// panic, its output ended with EndOfInput is a well-formed stream, and a
// checkpoint and restore after the first message changes nothing. mode & 3
// picks the format; mode & 4 marks every third message as host input.
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
		var framing universal.Framing
		for _, fm := range codex.Formats {
			if fm.Name == format {
				framing = fm.Framing
			}
		}
		var runs [2][]byte
		for i, restoreAt := range []int{-1, 1} {
			tr, err := codex.New(format, universal.Options{IncludeRaw: true})
			if err != nil {
				t.Fatal(err)
			}
			var out []universal.Event
			out = tr.Report(out, universal.Prompt{Text: "hi"})
			n := 0
			for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(data), framing, 1<<20)) {
				if err != nil {
					break
				}
				if mode&4 != 0 && n%3 == 2 {
					m.Dir = universal.In
				}
				out = tr.Translate(out, m)
				if n++; n == restoreAt {
					state, err := tr.Checkpoint()
					if err != nil {
						t.Fatal(err)
					}
					tr, _ = codex.New(format, universal.Options{IncludeRaw: true})
					if err := tr.Restore(state); err != nil {
						t.Fatal(err)
					}
				}
			}
			out = tr.Report(out, universal.EndOfInput{})
			if err := universal.CheckStream(out); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			for j := range out {
				runs[i] = out[j].AppendJSON(runs[i])
				runs[i] = append(runs[i], '\n')
			}
		}
		if !bytes.Equal(runs[0], runs[1]) {
			t.Fatalf("%s: a checkpoint and restore after the first message changed the output", format)
		}
	})
}
