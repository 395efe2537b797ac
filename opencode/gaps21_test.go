package opencode_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
)

// messagesFirst returns the export at path written again with its
// messages before its info (a program that re-serialises the document may
// order the members so), its first text part padded to pad bytes, so that
// the messages fill a detection window.
func messagesFirst(t *testing.T, path string, pad int) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Info     json.RawMessage   `json:"info"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var first map[string]any
	if err := json.Unmarshal(doc.Messages[0], &first); err != nil {
		t.Fatal(err)
	}
	for _, p := range first["parts"].([]any) {
		if p := p.(map[string]any); p["type"] == "text" {
			p["text"] = p["text"].(string) + strings.Repeat(" ", pad)
			break
		}
	}
	m, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	doc.Messages[0] = m
	var b bytes.Buffer
	b.WriteString(`{"messages":[`)
	for i, m := range doc.Messages {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteString(`],"info":`)
	b.Write(doc.Info)
	b.WriteString("}\n")
	return b.Bytes()
}

// TestExportMessagesFirst: an export whose messages come before its info
// was undetected when the messages filled the head (opencode.Detect, and
// agentnorm.Open, which reads 64 KiB at most): the members of a JSON object
// have no order, and the first message tells an export as well as the info.
func TestExportMessagesFirst(t *testing.T) {
	const path = "../testdata/opencode/public/dark-factory-v1.2.5-export-jolly-eagle.json"
	doc := messagesFirst(t, path, 80<<10)
	if got := opencode.Detect(doc[:4096]); got != opencode.FormatMessages {
		t.Errorf("Detect of the head: %q, want %q", got, opencode.FormatMessages)
	}
	s, err := agentnorm.Open(bytes.NewReader(doc), "opencode", agentnorm.Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if f := s.Format().Name; f != opencode.FormatMessages {
		t.Errorf("Open detected %q, want %q", f, opencode.FormatMessages)
	}
	n := 0
	for e, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if e.Type == universal.TypeUnparsed {
			t.Errorf("agent.unparsed: %v", e.Data)
		}
		n++
	}
	if n < 20 {
		t.Errorf("%d events, want the whole export's", n)
	}
	// Not an export: a list's message, an object of other messages.
	for _, head := range []string{
		`{"messages":[{"info":{"id":"msg_1","role":"user"},"parts":[]}],"parts":[`,
		`{"messages":[{"role":"user","content":"hi"}],"model":"x"`,
	} {
		if got := opencode.Detect([]byte(head)); got == opencode.FormatMessages {
			t.Errorf("Detect(%s) = %q, want not an export", head, got)
		}
	}
}
