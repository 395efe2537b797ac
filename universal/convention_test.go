package universal_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// TestMarkEcho: text parts get "echo": true merged into their metadata;
// other parts are left alone, and shared metadata is not written to.
func TestMarkEcho(t *testing.T) {
	shared := []byte(`{"ide_context":"x","echo":false}`)
	parts := []universal.Part{
		universal.Text("a"),
		{Type: universal.PartText, Text: "b", Metadata: shared},
		{Type: universal.PartImage, Path: "p.png"},
		{Type: universal.PartText, Text: "c", Metadata: []byte(`null`)},
		{Type: universal.PartText, Text: "d", Metadata: []byte(`[1]`)},
	}
	universal.MarkEcho(parts)
	want := []string{`{"echo":true}`, `{"ide_context":"x","echo":true}`, ``, `{"echo":true}`, `{"value":[1],"echo":true}`}
	for i, w := range want {
		if got := string(parts[i].Metadata); got != w {
			t.Errorf("part %d: metadata %s, want %s", i, got, w)
		}
	}
	if string(shared) != `{"ide_context":"x","echo":false}` {
		t.Errorf("the shared metadata was changed: %s", shared)
	}
}
