package pi_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestNotify: an extension's notify (rpc) is a status item with its
// message and type: Pi's sandbox example reports a sandbox that failed to
// start with one (real rpc output of pi-mono's examples, as another
// project recorded it). It was dropped as fire-and-forget. A notify
// without a message shows nothing.
func TestNotify(t *testing.T) {
	evs := translateClean(t, pi.FormatRPC, lines(
		`{"type":"agent_start"}`,
		`{"id":"u1","message":"Sandbox initialization failed: Sandbox dependencies are not available on this system.","method":"notify","notifyType":"error","type":"extension_ui_request"}`,
		`{"id":"u2","method":"notify","type":"extension_ui_request"}`,
		`{"type":"agent_end","messages":[]}`,
	))
	var got []universal.Part
	for _, it := range completed(evs) {
		if it.Kind == universal.KindStatus {
			got = append(got, it.Content...)
		}
	}
	if len(got) != 1 || got[0].Label != "notify" || got[0].Detail != "Sandbox initialization failed: Sandbox dependencies are not available on this system." ||
		string(got[0].Metadata) != `{"notifyType":"error"}` {
		t.Errorf("status parts %+v, want the error notice", got)
	}
}
