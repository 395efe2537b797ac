package amp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/amp"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestThreadImageSourcePath: a thread's image block carries sourcePath,
// where Amp took the image from: the attached file's path, the URL of an
// uploaded image, "stream-json://stdin/line-N/image-M" for an image sent
// on stdin, "pasted image" (the thread message builders of npm
// @ampcode/cli-linux-x64 0.0.1790142911-g7618fb, which read it back as the
// image's file path). It was dropped: a base64 image lost the only name of
// the file the user attached. Now it is the image part's path when the
// source names none, else the part's metadata source_path when it differs
// from the path. Thread documents in those builders' shapes, ids and data
// made up.
func TestThreadImageSourcePath(t *testing.T) {
	doc := func(image string) string {
		return `{"v":12,"id":"T-019fa000-0000-7000-8000-0000000000b5","created":1795471986820,"messages":[` +
			`{"role":"user","messageId":0,"content":[{"type":"text","text":"what is wrong here?"},` + image + `],"meta":{"sentAt":1795471986900}},` +
			`{"role":"assistant","messageId":1,"content":[{"type":"text","text":"A typo."}],"state":{"type":"complete","stopReason":"end_turn"}}]}`
	}
	for _, tc := range []struct {
		name, image, path, mime, metadata string
	}{
		{name: "attached file",
			image: `{"type":"image","source":{"type":"base64","mediaType":"image/png","data":"iVBORw0KGgo="},"sourcePath":"/home/dev/shot.png"}`,
			path:  "/home/dev/shot.png", mime: "image/png", metadata: `{"source_type":"base64","data_length":12}`},
		{name: "stdin image",
			image: `{"type":"image","source":{"type":"base64","mediaType":"image/jpeg","data":"/9j/"},"sourcePath":"stream-json://stdin/line-1/image-1"}`,
			path:  "stream-json://stdin/line-1/image-1", mime: "image/jpeg", metadata: `{"source_type":"base64","data_length":4}`},
		{name: "uploaded, same url",
			image: `{"type":"image","source":{"type":"url","url":"https://static.ampcode.com/a/b.png"},"sourcePath":"https://static.ampcode.com/a/b.png"}`,
			path:  "https://static.ampcode.com/a/b.png", metadata: `{"source_type":"url"}`},
		{name: "url, other source",
			image: `{"type":"image","source":{"type":"url","url":"https://static.ampcode.com/a/c.png"},"sourcePath":"/tmp/c.png"}`,
			path:  "https://static.ampcode.com/a/c.png", metadata: `{"source_type":"url","source_path":"/tmp/c.png"}`},
		{name: "no sourcePath",
			image: `{"type":"image","source":{"type":"base64","mediaType":"image/gif","data":"R0lG"}}`,
			mime:  "image/gif", metadata: `{"source_type":"base64","data_length":4}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := run(t, amp.FormatThread, lines(doc(tc.image)), nil)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("unparsed %+v", u)
			}
			var img *universal.Part
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.Role != universal.RoleUser {
					continue
				}
				for i := range it.Content {
					if it.Content[i].Type == universal.PartImage {
						img = &it.Content[i]
					}
				}
			}
			if img == nil {
				t.Fatal("no image part")
			}
			if img.Path != tc.path || img.Mime != tc.mime || string(img.Metadata) != tc.metadata {
				t.Errorf("image path %q mime %q metadata %s, want %q %q %s", img.Path, img.Mime, img.Metadata, tc.path, tc.mime, tc.metadata)
			}
		})
	}
}

// TestJSONLHeldMessageAtEnd: with --format=jsonl the translator holds a
// streaming message back until a later copy replaces it; the end of input
// translates the one still held. When that message had a block to keep as
// JSON whose text is not compact (a space after a colon, bytes that are
// not UTF-8), the end of input panicked: compacting it needed the scratch
// only Translate took. Lines in the shape of the jsonl excerpts in
// testdata/amp/public (a message still streaming), the block made up.
func TestJSONLHeldMessageAtEnd(t *testing.T) {
	for _, tc := range []struct{ name, block, want string }{
		{name: "spaced block", block: `{"type": "widget", "n": 1}`, want: `{"type":"widget","n":1}`},
		{name: "invalid UTF-8 key", block: "{\"\x98ype\":\"text\",\"text\":\"x\"}", want: "{\"\uFFFDype\":\"text\",\"text\":\"x\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := `{"type":"messages","messages":[[1,{"role":"assistant","content":[{"type":"text","text":"Working."},` + tc.block + `],"state":{"type":"streaming"}}]],"toolResults":[]}`
			evs := run(t, amp.FormatJSONL, lines(line), nil)
			var got string
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				for _, p := range ev.Data.(*universal.ItemSnapshot).Item.Content {
					if p.Type == universal.PartJSON {
						got = string(p.JSON)
					}
				}
			}
			if got != tc.want {
				t.Errorf("json part %s, want %s", got, tc.want)
			}
		})
	}
}

// TestThreadThinkingDropped: a thread assistant message's usage, in the
// schema bundled in npm @ampcode/cli-linux-x64 0.0.1790142911-g7618fb,
// has thinkingBudget and thinkingDropped {turns, reason}, which Amp's own
// transcript turns into a row of its own ("thinking-dropped"). Both were
// ignored. Now thinkingDropped is a status item thinking_dropped and the
// budget is in the call's usage metadata. Thread documents in that
// schema's shapes, values made up.
func TestThreadThinkingDropped(t *testing.T) {
	doc := func(usage string) string {
		return `{"v":12,"id":"T-019fa000-0000-7000-8000-0000000000c6","created":1795471986820,"messages":[` +
			`{"role":"user","messageId":0,"content":[{"type":"text","text":"go on"}]},` +
			`{"role":"assistant","messageId":1,"content":[{"type":"text","text":"Done."}],"state":{"type":"complete","stopReason":"end_turn"},` +
			`"usage":{"model":"claude-opus-4-6","maxInputTokens":200000,"inputTokens":12,"outputTokens":3,"cacheCreationInputTokens":0,"cacheReadInputTokens":30000,"totalInputTokens":30012` + usage + `}}]}`
	}
	for _, tc := range []struct{ name, usage, status, detail, budget string }{
		{name: "dropped", usage: `,"thinkingBudget":8000,"thinkingDropped":{"turns":4,"reason":"context"}`,
			status: `{"turns":4,"reason":"context"}`, detail: "context", budget: `"thinking_budget":8000`},
		{name: "dropped without reason", usage: `,"thinkingDropped":{"turns":1,"reason":null}`,
			status: `{"turns":1,"reason":null}`},
		{name: "neither", usage: ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := run(t, amp.FormatThread, lines(doc(tc.usage)), nil)
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
				t.Fatalf("unparsed %+v", u)
			}
			var status, detail string
			for _, ev := range golden.OfType(evs, universal.TypeItemCompleted) {
				it := ev.Data.(*universal.ItemSnapshot).Item
				if it.Kind == universal.KindStatus && it.Content[0].Label == "thinking_dropped" {
					status, detail = string(it.Content[0].Metadata), it.Content[0].Detail
				}
			}
			if status != tc.status || detail != tc.detail {
				t.Errorf("thinking_dropped %s %q, want %s %q", status, detail, tc.status, tc.detail)
			}
			u := golden.OfType(evs, universal.TypeUsageUpdated)
			if len(u) != 1 {
				t.Fatalf("%d usage events", len(u))
			}
			md := string(u[0].Data.(*universal.UsageUpdated).Metadata)
			if tc.budget != "" && !strings.Contains(md, tc.budget) || tc.budget == "" && strings.Contains(md, "thinking_budget") {
				t.Errorf("usage metadata %s, want %s", md, tc.budget)
			}
		})
	}
}
