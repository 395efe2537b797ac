package crosscheck

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// noPromptEcho lists the formats that do not show the user's message (the
// host's prompt is reported to the translator, as text alone): Claude
// Code's stream-json stdout without --replay-user-messages, Codex's exec
// output, OpenCode's run output. A picture in the prompt is not in them.
var noPromptEcho = map[string]bool{"claude/stream-json": true, "codex/exec": true, "opencode/run-json": true}

// TestPromptImage checks that the picture a prompt carries (s20-image,
// tools/capturelab-s20: pixels.png, 75 bytes, 100 of base64) comes out in
// one shape for every agent and format that shows the user's message: one
// image part of the user message, mime image/png, either the file's path
// (ending pixels.png) or, for inline data, no path and the data's length
// (data_length 100) in metadata; no base64 of it in any text, path or
// metadata of the translation.
func TestPromptImage(t *testing.T) {
	if testing.Short() {
		t.Skip("translates recordings")
	}
	const b64 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR42mP4z8DAAMIM"
	metas, _ := filepath.Glob(filepath.Join(root, "*", "*", "s20-image*.meta.json"))
	checked := map[string]int{}
	for _, meta := range metas {
		dir := filepath.Dir(meta)
		agent := filepath.Base(filepath.Dir(dir))
		name := strings.TrimSuffix(filepath.Base(meta), ".meta.json")
		for _, in := range inputs(agent, dir, name) {
			id := agent + "/" + filepath.Base(dir) + "/" + name + " " + label(in)
			events := translate(t, providers[family(agent)], in, meta)
			var images []universal.Part
			for _, e := range events {
				snap, ok := e.Data.(*universal.ItemSnapshot)
				if !ok {
					continue
				}
				for _, p := range snap.Item.Content {
					if strings.Contains(p.Text, b64) || strings.Contains(p.Path, b64) || strings.Contains(string(p.Metadata), b64) ||
						strings.Contains(p.Output, b64) {
						t.Errorf("%s: the picture's base64 is in a %s part of a %s item", id, p.Type, snap.Item.Kind)
					}
					if e.Type == universal.TypeItemCompleted && snap.Item.Role == universal.RoleUser && p.Type == universal.PartImage {
						images = append(images, p)
					}
				}
			}
			if noPromptEcho[agent+"/"+in.format] {
				if len(images) != 0 {
					t.Errorf("%s: %d image parts in a format without the user's message", id, len(images))
				}
				continue
			}
			checked[agent]++
			if len(images) != 1 {
				t.Errorf("%s: %d image parts of the user message, want 1", id, len(images))
				continue
			}
			p := images[0]
			if p.Mime != "image/png" {
				t.Errorf("%s: image mime %q, want image/png", id, p.Mime)
			}
			inline := p.Path == "" && gjson.GetBytes(p.Metadata, "data_length").Int() == 100
			if !inline && !strings.HasSuffix(p.Path, "pixels.png") {
				t.Errorf("%s: image path %q metadata %s, want the file's path or no path and data_length 100", id, p.Path, p.Metadata)
			}
		}
	}
	for _, a := range []string{"claude", "codex", "opencode", "pi"} {
		if checked[a] == 0 {
			t.Errorf("no %s recording of s20-image with the user's message checked", a)
		}
	}
}
