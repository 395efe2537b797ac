package claude_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// FuzzTranslate checks golden.FuzzProperty (no panic, a well-formed
// stream after EndOfInput, checkpoint and restore change nothing) on
// arbitrary input in each format. Seeds: the recorded captures and the
// smaller public samples.
func FuzzTranslate(f *testing.F) {
	for _, pat := range []string{
		filepath.Join(recorded, "*.jsonl"),
		filepath.Join(public, "*.jsonl"),
		filepath.Join(public, "*.ndjson"),
	} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 16<<10 || bytes.HasSuffix([]byte(p), []byte(".golden.ndjson")) {
				continue
			}
			format := byte(0)
			switch {
			case bytes.HasSuffix([]byte(p), []byte(".exchange.jsonl")):
				format = 1
			case filepath.Dir(p) == public && !bytes.HasPrefix([]byte(filepath.Base(p)), []byte("stream_")):
				format = 2
			}
			f.Add(format, b)
		}
	}
	f.Add(byte(0), []byte("not json\n{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}}\n"))
	f.Fuzz(func(t *testing.T, format byte, data []byte) {
		fm := claude.Formats()[int(format)%len(claude.Formats())]
		golden.FuzzProperty(t, golden.Fuzz{New: newFor(fm.Name), Framing: fm.Framing, Reports: []universal.Report{universal.Prompt{Text: "prompt"}}}, data)
	})
}
