package codex_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// userImages returns the image parts of the completed user messages.
func userImages(t *testing.T, evs []universal.Event) []universal.Part {
	t.Helper()
	var out []universal.Part
	for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
		if it := e.Data.(*universal.ItemSnapshot).Item; it.Role == universal.RoleUser {
			for _, p := range it.Content {
				if p.Type == universal.PartImage {
					out = append(out, p)
				}
			}
		}
	}
	for i := range evs {
		if err := universal.Validate(&evs[i]); err != nil {
			t.Errorf("event %d: %v", i, err)
		}
	}
	return out
}

// TestUserImageShape: an image the user attaches comes out as Claude Code,
// OpenCode and Pi give it (s20-image): a local path (app-server localImage,
// as `codex exec --image` and the app-server's turn/start record it) with
// the mime type its extension names (it was null); a pasted picture, a
// data: URL (app-server image {url}, a rollout's input_image or
// event_msg images), as inline data: its mime type and data_length, not
// the base64 data as the part's path.
func TestUserImageShape(t *testing.T) {
	const data = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR42mP4z8DAAMIM/4EAAB/uBfvxq7p3AAAAAElFTkSuQmCC"
	check := func(t *testing.T, got []universal.Part) {
		t.Helper()
		if len(got) != 2 {
			t.Fatalf("%d image parts, want 2: %+v", len(got), got)
		}
		if got[0].Path != "/home/dev/project/pixels.png" || got[0].Mime != "image/png" {
			t.Errorf("local image: path %q mime %q, want the path and image/png", got[0].Path, got[0].Mime)
		}
		if got[1].Path != "" || got[1].Mime != "image/jpeg" || strings.Contains(string(got[1].Metadata), data) ||
			string(got[1].Metadata) != `{"source_type":"base64","data_length":100}` {
			t.Errorf("pasted image: path %q mime %q metadata %s, want no path, image/jpeg, its length", got[1].Path, got[1].Mime, got[1].Metadata)
		}
	}
	t.Run("appserver", func(t *testing.T) {
		evs := run(t, codex.FormatAppServer, nil, []string{
			thStarted, turnStarted,
			`{"method":"item/completed","params":{"threadId":"th1","turnId":"tu1","item":{"type":"userMessage","id":"u1","content":[{"type":"localImage","detail":null,"path":"/home/dev/project/pixels.png"},{"type":"image","url":"data:image/jpeg;base64,` + data + `"},{"type":"text","text":"What is in this image?","text_elements":[]}]}}}`,
			turnDone,
		})
		check(t, userImages(t, evs))
	})
	t.Run("rollout", func(t *testing.T) {
		ev := func(o int, p string) string {
			return `{"timestamp":"2026-12-01T00:00:0` + string(rune('0'+o)) + `.000Z","type":"event_msg","payload":` + p + `}`
		}
		evs := run(t, codex.FormatRollout, nil, []string{
			`{"timestamp":"2026-12-01T00:00:00.000Z","type":"session_meta","payload":{"id":"01a22f82-937a-7e23-b617-7d0f5b7f8317","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/home/dev/project","originator":"codex_exec","cli_version":"0.171.0","source":"exec","model_provider":"openai"}}`,
			ev(1, `{"type":"task_started","turn_id":"t1","started_at":1796093416,"model_context_window":258400}`),
			ev(2, `{"type":"user_message","message":"What is in this image?","images":["data:image/jpeg;base64,`+data+`"],"local_images":["/home/dev/project/pixels.png"],"text_elements":[]}`),
			ev(3, `{"type":"agent_message","message":"A grid.","phase":"final_answer"}`),
			ev(4, `{"type":"task_complete","turn_id":"t1","last_agent_message":"A grid."}`),
		})
		got := userImages(t, evs)
		if len(got) == 2 && got[0].Path == "" { // event_msg order: images, then local_images
			got[0], got[1] = got[1], got[0]
		}
		check(t, got)
	})
}
