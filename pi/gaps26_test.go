package pi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestDeferredStop: pi-ai's stop reason deferred (npm
// @earendil-works/pi-ai 0.84.0 to 1.6.0, MIT: StopReason in
// dist/types.d.ts; "Ask a capable provider to return a durable handle and
// continue the request asynchronously") is an assistant message without
// the answer: content [], the handle to fetch it with later in deferred
// {provider, modelId, api, id, expiresAt?, pollAfterMs?, data?}
// (createDeferredMessage of its faux provider; docs/message-types.md of
// @earendil-works/pi-coding-agent 1.6.0). Pi's agent loop
// (@earendil-works/pi-agent-core 1.6.0 agent-loop.js) does not fetch it:
// no tool calls, so the turn ends and, with nothing queued, the run. It
// read as a completed turn, and the handle was lost. Now the message has
// a status part labelled deferred (detail the handle's id, the handle in
// its metadata) and the turn ends interrupted, in the json stream and a
// session file alike. Lines in the shapes of Pi
// 1.5.2's own output (testdata/pi/1.5.2/s01-text), the handle made up.
func TestDeferredStop(t *testing.T) {
	const msg = `{"role":"assistant","content":[],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"deferred","deferred":{"provider":"anthropic","modelId":"claude-sonnet-4-5","api":"anthropic-messages","id":"msgbatch_01Def","expiresAt":1795349477856,"pollAfterMs":60000},"timestamp":1795263077856}`
	const user = `{"role":"user","content":[{"type":"text","text":"Summarise the repository."}],"timestamp":1795263077829}`
	jsonLines := []string{
		`{"type":"session","version":3,"id":"01a1fe04-9d88-76b2-a4ba-bf5f45f1e5b6","timestamp":"2026-11-21T12:11:17.769Z","cwd":"/home/dev/project"}`,
		`{"type":"agent_start"}`,
		`{"type":"turn_start"}`,
		`{"type":"message_start","message":` + user + `}`,
		`{"type":"message_end","message":` + user + `}`,
		`{"type":"message_start","message":` + strings.Replace(msg, `"stopReason":"deferred"`, `"stopReason":"pending"`, 1) + `}`,
		`{"type":"message_end","message":` + msg + `}`,
		`{"type":"turn_end","message":` + msg + `,"toolResults":[]}`,
		`{"type":"agent_end","messages":[` + user + `,` + msg + `]}`,
		`{"type":"agent_settled","aborted":false}`,
	}
	sessionLines := []string{
		`{"type":"session","version":3,"id":"01a1fe04-9d88-76b2-a4ba-bf5f45f1e5b6","timestamp":"2026-11-21T12:11:17.769Z","cwd":"/home/dev/project"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-21T12:11:17.832Z","message":` + user + `}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-21T12:11:17.900Z","message":` + msg + `}`,
	}
	for _, tc := range []struct {
		name, format string
		lines        []string
	}{
		{"json", pi.FormatJSON, jsonLines},
		{"session", pi.FormatSession, sessionLines},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := translateClean(t, tc.format, []byte(strings.Join(tc.lines, "\n")+"\n"))
			ends := golden.OfType(evs, universal.TypeTurnEnded)
			if len(ends) != 1 {
				t.Fatalf("%d turn.ended, want 1", len(ends))
			}
			if d := ends[0].Data.(*universal.TurnEnded); d.Status != universal.TurnInterrupted {
				t.Errorf("turn ended %s, want interrupted", d.Status)
			}
			var found bool
			tr := golden.NewTranscript(evs)
			for _, it := range tr.Items {
				if it.Kind != universal.KindMessage || it.Role != universal.RoleAssistant {
					continue
				}
				if it.Status != universal.StatusCompleted {
					t.Errorf("message %s, want completed", it.Status)
				}
				for _, p := range it.Content {
					if p.Type != universal.PartStatus || p.Label != "deferred" {
						continue
					}
					found = true
					var md struct {
						Deferred struct {
							ID          string
							ModelID     string `json:"modelId"`
							PollAfterMs int64  `json:"pollAfterMs"`
						}
					}
					if err := json.Unmarshal(p.Metadata, &md); err != nil {
						t.Fatal(err)
					}
					if p.Detail != "msgbatch_01Def" || md.Deferred.ID != "msgbatch_01Def" || md.Deferred.ModelID != "claude-sonnet-4-5" || md.Deferred.PollAfterMs != 60000 {
						t.Errorf("deferred part %q %s", p.Detail, p.Metadata)
					}
				}
			}
			if !found {
				t.Error("no status part labelled deferred")
			}
		})
	}
}
