package pi_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/pi"
	"github.com/agentnorm/agentnorm/universal"
)

// TestOmpStopDetails: oh-my-pi's AssistantMessage stopDetails
// (@oh-my-pi/pi-ai 18.2.11 src/types.ts; Anthropic's stop_details, set
// when the stop is error-class, as a refusal) is kept in the metadata of
// the failed message's status part, as stop_details.
func TestOmpStopDetails(t *testing.T) {
	msg := func(extra string) string {
		return `{"role":"assistant","content":[{"type":"text","text":"Let me"}],"api":"anthropic-messages","provider":"anthropic","model":"m-9","usage":{"input":4,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":6,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"Refusal (cyber): declined here"` + extra + `,"timestamp":2}`
	}
	for _, tc := range []struct {
		name, extra, want string
	}{
		{"refusal", `,"stopDetails":{"type":"refusal","category":"cyber","explanation":"declined here"}`,
			`"stop_details":{"type":"refusal","category":"cyber","explanation":"declined here"}`},
		{"sensitive without details", `,"stopDetails":{"type":"sensitive"}`, `"stop_details":{"type":"sensitive"}`},
		{"null", `,"stopDetails":null`, ""},
		{"absent", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := `{"type":"agent_start"}
{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"do it"}],"timestamp":1}}
{"type":"message_end","message":{"role":"user","content":[{"type":"text","text":"do it"}],"timestamp":1}}
{"type":"message_start","message":` + msg(tc.extra) + `}
{"type":"message_end","message":` + msg(tc.extra) + `}
{"type":"agent_end","messages":[]}
`
			var md string
			for _, it := range messages(completed(translateClean(t, pi.FormatJSON, []byte(in))), universal.RoleAssistant) {
				for _, p := range it.Content {
					if p.Type == universal.PartStatus {
						md = string(p.Metadata)
					}
				}
			}
			if tc.want == "" {
				if strings.Contains(md, "stop_details") {
					t.Errorf("status metadata %s has stop_details", md)
				}
			} else if !strings.Contains(md, tc.want) {
				t.Errorf("status metadata %s, want %s", md, tc.want)
			}
		})
	}
}
