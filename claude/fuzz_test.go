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

// FuzzTranslate feeds arbitrary input in each format: the translator must
// not panic, and after EndOfInput its output must pass the stream checker.
// Seeds: the recorded captures and the smaller public samples.
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
		fm := claude.Formats[int(format)%len(claude.Formats)]
		tr, err := claude.New(fm.Name, golden.Options())
		if err != nil {
			t.Fatal(err)
		}
		evs := tr.Report(nil, universal.Prompt{Text: "prompt"})
		for m, err := range universal.Messages(universal.NewReader(bytes.NewReader(data), fm.Framing, 1<<16)) {
			if err != nil {
				t.Fatal(err)
			}
			evs = tr.Translate(evs, m)
		}
		evs = tr.Report(evs, universal.EndOfInput{})
		if err := universal.CheckStream(evs); err != nil {
			t.Fatalf("%s: %v", fm.Name, err)
		}
	})
}
