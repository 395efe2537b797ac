package agentnorm_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/google/go-cmp/cmp"
)

// TestOpenPretty: a recorded session of every line-framed format, printed
// for people as `jq .` prints each line (every value over several lines)
// and as `jq -s .` prints the whole (one array of them), is detected as
// that format and translated to the same events as the lines themselves,
// its raw messages included; named, the format reads it the same.
func TestOpenPretty(t *testing.T) {
	for _, c := range []struct{ agent, format, path string }{
		{"claude", "stream-json", "claude/2.1.330/s02-tool.jsonl"},
		{"claude", "transcript", "claude/2.1.330/s02-tool.session/-home-dev-project/f6ff0079-7cb1-4c6a-bd08-83e082892bc0.jsonl"},
		{"codex", "exec", "codex/0.169.0/s02-tool.exec.jsonl"},
		{"codex", "appserver", "codex/0.169.0/s02-tool.appserver.jsonl"},
		{"codex", "rollout", "codex/0.169.0/s02-tool.session/exec/rollout-2026-11-21T12-08-25-01a1fe01-fc14-7242-89c7-7f23dd46d8cf.jsonl"},
		{"opencode", "run-json", "opencode/1.18.33/s02-tool.run.jsonl"},
		{"opencode", "event-lines", "opencode/handmade/1.18.33-s02-tool.global.event-lines.jsonl"},
		{"pi", "json", "pi/1.5.2/s02-tool.json.jsonl"},
		{"pi", "rpc", "pi/1.5.2/s02-tool.rpc.jsonl"},
		{"pi", "session", "pi/1.5.2/s02-tool.json.session.jsonl"},
		{"amp", "stream-json", "amp/0.0.1790142911/s02-tool.jsonl"},
		{"acp", "agent", "acp/gemini-cli/0.61.0/s02-tool.agent.jsonl"},
		// Recorded exchanges are read a line at a time too (ExchangeReader
		// reads them with a LineReader): detection told them only as lines.
		{"claude", "exchange", "claude/2.1.330/s06-multiturn-stdin-nopartial.exchange.jsonl"},
		{"codex", "exchange", "codex/0.169.0/s02-tool.appserver.exchange.jsonl"},
		{"pi", "exchange", "pi/1.5.2/s02-tool.rpc.exchange.jsonl"},
		{"acp", "exchange", "acp/gemini-cli/0.61.0/s02-tool.exchange.jsonl"},
	} {
		t.Run(c.agent+"/"+c.format, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + c.path)
			if err != nil {
				t.Fatal(err)
			}
			// The lines as JSON writes them compactly, so that the
			// pretty input's raw messages can equal them.
			var lines, pretty, array bytes.Buffer
			array.WriteString("[")
			n := 0
			for line := range bytes.Lines(data) {
				var compact bytes.Buffer
				if len(bytes.TrimSpace(line)) == 0 {
					continue
				}
				if err := json.Compact(&compact, line); err != nil {
					t.Fatalf("%s: a line that is not JSON: %.100s", c.path, line)
				}
				lines.Write(compact.Bytes())
				lines.WriteByte('\n')
				if err := json.Indent(&pretty, compact.Bytes(), "", "  "); err != nil {
					t.Fatal(err)
				}
				pretty.WriteByte('\n')
				if n++; n > 1 {
					array.WriteString(",")
				}
				array.Write(compact.Bytes())
			}
			array.WriteString("]")
			var jqs bytes.Buffer
			if err := json.Indent(&jqs, array.Bytes(), "", "  "); err != nil {
				t.Fatal(err)
			}
			want := translateHostile(t, c.agent, c.format, lines.Bytes(), 0)
			if want.openErr != nil || want.readErr != nil {
				t.Fatal(want.openErr, want.readErr)
			}
			if un := len(unparsedLines(want.evs)); un > 0 {
				t.Fatalf("%d agent.unparsed in the lines themselves", un)
			}
			for name, in := range map[string][]byte{"jq .": pretty.Bytes(), "jq -s .": jqs.Bytes()} {
				for _, format := range []string{"", c.format} {
					got := translateHostile(t, c.agent, format, in, 0)
					if got.openErr != nil || got.readErr != nil {
						t.Fatalf("%s, format %q: %v %v", name, format, got.openErr, got.readErr)
					}
					if got.format != c.format {
						t.Errorf("%s: detected as %q", name, got.format)
					}
					if diff := cmp.Diff(encoded(want.evs), encoded(got.evs)); diff != "" {
						t.Errorf("%s, format %q (-lines +pretty):\n%s", name, format, diff)
					}
				}
			}
		})
	}
}

// encoded is every event as JSON, a line each.
func encoded(evs []universal.Event) string {
	var b []byte
	for i := range evs {
		b = append(evs[i].AppendJSON(b), '\n')
	}
	return string(b)
}

// TestOpenPrettyPublic: single stream-json messages that another project
// keeps pretty-printed (the Gleam SDK's fixtures) open as stream-json
// and translate to their goldens, which read each as one document.
func TestOpenPrettyPublic(t *testing.T) {
	for _, name := range []string{"assistant_message", "result_success", "system_message", "user_message"} {
		path := "testdata/claude/public/gleam-sdk__stream-json__" + name
		in, err := os.ReadFile(path + ".json")
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(path + ".golden.ndjson")
		if err != nil {
			t.Fatal(err)
		}
		s, err := agentnorm.Open(bytes.NewReader(in), "claude", agentnorm.Options{Options: universal.Options{SessionID: "sess_golden"}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var evs []universal.Event
		for ev, err := range s.Events() {
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		if s.Format().Name != "stream-json" {
			t.Errorf("%s: detected as %s", name, s.Format().Name)
		}
		if diff := cmp.Diff(string(want), encoded(evs)); diff != "" {
			t.Errorf("%s (-golden +opened):\n%s", name, diff)
		}
	}
}
