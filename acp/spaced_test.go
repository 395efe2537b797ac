package acp_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/acp"
	"github.com/agentnorm/agentnorm/universal"
)

// translateAll translates an input whole and returns its events as JSON
// lines.
func translateAll(t *testing.T, format string, data []byte) []byte {
	t.Helper()
	tr, err := acp.New(format, universal.Options{SessionID: "spaced"})
	if err != nil {
		t.Fatal(err)
	}
	var out, evs []byte
	var events []universal.Event
	add := func() {
		for i := range events {
			evs = events[i].AppendJSON(evs[:0])
			out = append(append(out, evs...), '\n')
		}
	}
	for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(data), universal.FrameLines, 0)) {
		if err != nil {
			t.Fatal(err)
		}
		events = tr.Translate(events[:0], m)
		add()
	}
	events = tr.Report(events[:0], universal.EndOfInput{})
	add()
	return out
}

// TestSpacedMessages: messages with whitespace between their tokens
// translate as the compact ones do. Values of a compact message are
// copied as they are; those of a spaced one are compacted first.
func TestSpacedMessages(t *testing.T) {
	for _, name := range []string{
		"handwritten/s02-tools.agent.jsonl",
		"handwritten/s06-subagent.agent.jsonl",
		"claude-agent-acp/0.23.1/s04-edit.agent.jsonl",
		"claude-agent-acp/0.101.0/s04-edit.agent.jsonl",
		"qwen-code/0.24.4/s02-tool.agent.jsonl",
	} {
		t.Run(name, func(t *testing.T) {
			data := read(t, filepath.Join(testdata, name))
			var spaced bytes.Buffer
			for line := range bytes.Lines(data) {
				var b bytes.Buffer
				if err := json.Indent(&b, bytes.TrimSpace(line), "", " "); err != nil {
					spaced.Write(line) // not JSON: kept
					continue
				}
				// Raw newlines are between tokens only (a string
				// holds them escaped).
				spaced.Write(bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte(" ")))
				spaced.WriteByte('\n')
			}
			want := translateAll(t, acp.FormatAgent, data)
			got := translateAll(t, acp.FormatAgent, spaced.Bytes())
			if !bytes.Equal(got, want) {
				t.Errorf("spaced input translates differently:\n got %.2000s\nwant %.2000s", got, want)
			}
		})
	}
}
