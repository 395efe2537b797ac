package pi_test

import (
	"fmt"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestRenames: Pi's session_info entry and session_info_changed event
// (set_session_name, /name) were status items labelled session_name. A
// rename is the session's new title, labelled title as for every agent,
// and the same name again is no change.
func TestRenames(t *testing.T) {
	titles := func(evs []universal.Event) []string {
		var out []string
		for _, e := range golden.OfType(evs, universal.TypeItemCompleted) {
			if it := e.Data.(*universal.ItemSnapshot).Item; it.Kind == universal.KindStatus {
				out = append(out, it.Content[0].Label+":"+it.Content[0].Detail)
			}
		}
		return out
	}
	evs := translate(t, pi.FormatSession, lines(
		`{"type":"session","version":3,"id":"s","cwd":"/w"}`,
		`{"type":"message","id":"e1","parentId":null,"message":{"role":"user","content":"hi"}}`,
		`{"type":"session_info","id":"e2","parentId":"e1","name":"Parser"}`,
		`{"type":"session_info","id":"e3","parentId":"e2","name":"Parser"}`,
		`{"type":"session_info","id":"e4","parentId":"e3","name":"Dates"}`,
	))
	if got := fmt.Sprint(titles(evs)); got != "[title:Parser title:Dates]" {
		t.Errorf("session file: status items %s, want [title:Parser title:Dates]", got)
	}
	evs = translate(t, pi.FormatRPC, lines(
		`{"type":"session_info_changed","name":"Parser"}`,
		`{"type":"session_info_changed","name":"Parser"}`,
	))
	if got := fmt.Sprint(titles(evs)); got != "[title:Parser]" {
		t.Errorf("rpc: status items %s, want [title:Parser]", got)
	}
}
