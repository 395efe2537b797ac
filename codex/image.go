package codex

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// userImage is the image part of an image a user message attaches, given
// by ref: a local path (app-server localImage, rollout local_image and
// event_msg local_images, exec --image), a URL, or a data: URL (a pasted
// picture: app-server image {url}, a response_item input_image, the
// event_msg images). A path or URL is the part's path, with the mime type
// its extension names (what Claude Code, OpenCode and Pi give for the
// same picture); a data: URL is inline data, kept as package anthropic
// keeps an inline image: its mime type, its length as data_length, not
// the data itself (the raw payload has it), so that no base64 blob lands
// in a path. copy copies ref's substrings into stable memory.
func userImage(ref string, copy func(string) string) part {
	if rest, ok := strings.CutPrefix(ref, "data:"); ok {
		meta, data, _ := strings.Cut(rest, ",")
		mime, _, _ := strings.Cut(meta, ";")
		if mime == "" || !strings.Contains(mime, "/") {
			mime = base64Mime(data)
		} else {
			mime = copy(mime)
		}
		var md jsonw.Object
		if strings.HasSuffix(meta, ";base64") {
			md.String("source_type", "base64")
		}
		md.Int("data_length", int64(len(data)))
		return part{Type: universal.PartImage, Mime: mime, Metadata: md.Bytes()}
	}
	return part{Type: universal.PartImage, Path: copy(ref), Mime: mimeOf(ref)}
}
