package agentnorm_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/agentnorm/agentnorm/universal"
)

// TestLoneSurrogates: a lone surrogate escape followed by a valid pair
// ("\udc00\ud83d\ude00") reads as encoding/json reads it, U+FFFD and the
// emoji, in every translator: the pair is not lost by pairing the lone half
// with the next escape. The escape is put in front of the first assistant
// text of a real capture of each agent, wherever the capture has that text.
func TestLoneSurrogates(t *testing.T) {
	inputs := append([]struct{ agent, path string }{
		{"acp", "testdata/acp/claude-agent-acp/0.23.1/s01-text.exchange.jsonl"},
		{"acp", "testdata/acp/qwen-code/0.24.4/s01-text.agent.jsonl"},
		{"pi", "testdata/pi/1.5.2/s01-text.json.jsonl"},
	}, captures...)
	for _, c := range inputs {
		t.Run(c.agent+"/"+filepath.Base(c.path), func(t *testing.T) {
			evs, _ := translateFile(t, c.agent, c.path)
			data, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			word := firstWord(evs, data)
			if word == "" {
				t.Fatal("no assistant text to mark")
			}
			marked := bytes.ReplaceAll(data, []byte(word), []byte(`\udc00\ud83d\ude00`+word))
			path := filepath.Join(t.TempDir(), filepath.Base(c.path))
			if err := os.WriteFile(path, marked, 0o644); err != nil {
				t.Fatal(err)
			}
			evs, _ = translateFile(t, c.agent, path)
			want := "\uFFFD😀" + word
			for i := range evs {
				if s, ok := evs[i].Data.(*universal.ItemSnapshot); ok && evs[i].Type == universal.TypeItemCompleted {
					for _, p := range s.Item.Content {
						if strings.Contains(p.Text, want) {
							return
						}
					}
				}
				if u, ok := evs[i].Data.(*universal.Unparsed); ok {
					t.Fatalf("unparsed: %s at %s", u.Error, u.Location)
				}
			}
			t.Errorf("no completed item has %q", want)
		})
	}
}

// firstWord returns the first run of six ASCII letters and spaces in an
// assistant text that the native input has as it is (such a run appears
// there only inside JSON strings, unescaped; a streamed text may split
// others between chunks).
func firstWord(evs []universal.Event, data []byte) string {
	for i := range evs {
		s, ok := evs[i].Data.(*universal.ItemSnapshot)
		if !ok || evs[i].Type != universal.TypeItemCompleted || s.Item.Role != universal.RoleAssistant {
			continue
		}
		for _, p := range s.Item.Content {
			if p.Type != universal.PartText {
				continue
			}
			run := 0
			for j := 0; j < len(p.Text); j++ {
				if c := rune(p.Text[j]); c == ' ' || (c < unicode.MaxASCII && unicode.IsLetter(c)) {
					if run++; run >= 6 && bytes.Contains(data, []byte(p.Text[j-5:j+1])) {
						return p.Text[j-5 : j+1]
					}
				} else {
					run = 0
				}
			}
		}
	}
	return ""
}
