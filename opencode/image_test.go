package opencode_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestPastedImageShape: a picture sent as a file part with a data: URL
// (s20-image: `opencode serve`, as the TUI sends a pasted one) is an image
// part of the user message with its mime type and no path (it named the
// filename, which is no file), its data's length and source_type in
// metadata (not the data), as Claude Code's and Codex's inline images are.
func TestPastedImageShape(t *testing.T) {
	dir := filepath.Join("..", "testdata", "crosscheck", "opencode", "1.18.33")
	for _, c := range []struct{ file, format string }{
		{"s20-image.sse", opencode.FormatSSE}, {"s20-image.messages.json", opencode.FormatMessages},
	} {
		b, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		var images []universal.Part
		for _, e := range golden.OfType(run(t, c.format, string(b)), universal.TypeItemCompleted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleUser {
				for _, p := range it.Content {
					if p.Type == universal.PartImage {
						images = append(images, p)
					}
				}
			}
		}
		if len(images) != 1 {
			t.Fatalf("%s: %d image parts of the user message, want 1", c.file, len(images))
		}
		p, md := images[0], gjson.ParseBytes(images[0].Metadata)
		if p.Path != "" || p.Mime != "image/png" || md.Get("data_length").Int() != 100 ||
			md.Get("source_type").Str != "base64" || md.Get("filename").Str != "pixels.png" {
			t.Errorf("%s: image path %q mime %q metadata %s, want no path, image/png, source_type base64, data_length 100, the filename",
				c.file, p.Path, p.Mime, p.Metadata)
		}
	}
}
