package opencode

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// dataURLMeta records what a file part's data: URL holds (a pasted
// picture, as the TUI and `opencode serve` clients send it), as the other
// translators record inline image data: source_type "base64" when it is
// base64, and data_length, the length of the data, which is not kept (the
// raw payload has it). The image part of such a URL has no path (it names
// no file; the filename stays in metadata), as Claude Code's and Codex's
// inline images have none.
func dataURLMeta(o *jsonw.Object, url string) {
	meta, data, _ := strings.Cut(strings.TrimPrefix(url, "data:"), ",")
	if strings.HasSuffix(meta, ";base64") {
		o.String("source_type", "base64")
	}
	o.Int("data_length", int64(len(data)))
}
