package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestNotices: the CLI's text banners for the user, system/informational
// {content, level, tool_use_id?, prevent_continuation?, tag?} and
// system/notification {key, text, priority} (the Agent SDK's
// SDKInformationalMessage and SDKNotificationMessage, 0.3.332), were on
// the ignore list: a hook's block reason or systemMessage, a safety
// classifier's stop, a Stop hook's error were lost. They are a status item
// labelled notice, as the acp translator makes claude-agent-acp's
// rendering of the same informational line, detail the text. Lines quoted
// from public recordings (testdata/SOURCES.md, "claude notices"): the
// 2.1.280 stream-json notification, the 2.1.283 informational, the
// 2.1.251 and 1.0.128 transcript entries; the hook block in the SDK's
// shape as a public host's test quotes it.
func TestNotices(t *testing.T) {
	for _, tc := range []struct {
		name, format, line string
		detail, md         string // detail "" = no notice
		unparsed           bool
	}{
		{name: "stop hook error (2.1.280)", format: claude.FormatStreamJSON,
			line:   `{"type":"system","subtype":"notification","key":"stop-hook-error","text":"Stop hook error occurred · ctrl+o to see","priority":"immediate"}`,
			detail: "Stop hook error occurred · ctrl+o to see", md: `{"key":"stop-hook-error","priority":"immediate"}`},
		{name: "safety stop (2.1.283)", format: claude.FormatStreamJSON,
			line:   `{"type":"system","subtype":"informational","content":"Fable 5.1's safeguards stopped the response above · continuing once with that noted","level":"notice"}`,
			detail: "Fable 5.1's safeguards stopped the response above · continuing once with that noted", md: `{"level":"notice"}`},
		{name: "hook blocked the prompt", format: claude.FormatStreamJSON,
			line:   `{"type":"system","subtype":"informational","content":"UserPromptSubmit operation blocked by hook:\nPII Shield blocked this prompt","level":"warning","prevent_continuation":true,"uuid":"i1","session_id":"s1"}`,
			detail: "UserPromptSubmit operation blocked by hook:\nPII Shield blocked this prompt", md: `{"level":"warning","prevent_continuation":true}`},
		{name: "progress of a tool use", format: claude.FormatStreamJSON,
			line:   `{"type":"system","subtype":"informational","content":"PostToolUse:Bash says: Formatted 3 files","level":"suggestion","tool_use_id":"t1","tag":"x","uuid":"i2","session_id":"s1"}`,
			detail: "PostToolUse:Bash says: Formatted 3 files", md: `{"level":"suggestion","tool_use_id":"t1","tag":"x"}`},
		{name: "transcript warning (2.1.251)", format: claude.FormatTranscript,
			line:   `{"parentUuid":"1b5cf160-79bf-4e2b-a01f-6511aee6b36b","isSidechain":false,"type":"system","subtype":"informational","content":"Backgrounding after the current tool finishes…","isMeta":false,"timestamp":"2026-08-28T17:53:15.295Z","uuid":"4f19d42a-80a5-4f9e-afe6-f234587acbf5","level":"warning","userType":"external","entrypoint":"cli","cwd":"/Users/w/project","sessionId":"6d3a9d57-10c6-4e9d-bf25-38194fae23c0","version":"2.1.251","gitBranch":"develop"}`,
			detail: "Backgrounding after the current tool finishes…", md: `{"level":"warning"}`},
		{name: "transcript hook info (1.0.128)", format: claude.FormatTranscript,
			line:   `{"parentUuid":"73820097-c377-4b90-997f-c6bbc6575f80","isSidechain":false,"userType":"external","cwd":"/Users/{user}/.claude","sessionId":"ed8cd0a3-962b-4a71-aebd-73edfe16cdd3","version":"1.0.128","gitBranch":"main","type":"system","subtype":"informational","content":"\u001b[1mStop\u001b[22m [bun run --silent -i ~/.claude/scripts/stop_words.ts] completed successfully","isMeta":false,"timestamp":"2025-09-28T06:17:23.754Z","uuid":"3136ca85-f652-44d3-ab30-d26886e4cbfd","toolUseID":"37006b6c-d849-41fd-826d-dcf856f07957","level":"info"}`,
			detail: "\x1b[1mStop\x1b[22m [bun run --silent -i ~/.claude/scripts/stop_words.ts] completed successfully",
			md:     `{"level":"info","tool_use_id":"37006b6c-d849-41fd-826d-dcf856f07957"}`},
		{name: "informational without text", format: claude.FormatStreamJSON,
			line: `{"type":"system","subtype":"informational","level":"info","uuid":"i3","session_id":"s1"}`},
		{name: "notification without text", format: claude.FormatStreamJSON,
			line: `{"type":"system","subtype":"notification","key":"k","priority":"low","uuid":"n2","session_id":"s1"}`},
		{name: "text not a string", format: claude.FormatStreamJSON, unparsed: true,
			line: `{"type":"system","subtype":"informational","content":{"x":1},"level":"info","uuid":"i4","session_id":"s1"}`},
		{name: "notification text not a string", format: claude.FormatStreamJSON, unparsed: true,
			line: `{"type":"system","subtype":"notification","key":"k","text":["x"],"uuid":"n3","session_id":"s1"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := []string{tc.line}
			if tc.format == claude.FormatStreamJSON {
				lines = []string{gaps24Init, tc.line}
			}
			evs := feed(t, tc.format, nil, nil, lines...)
			checkShape(t, evs)
			u := golden.OfType(evs, universal.TypeUnparsed)
			if tc.unparsed {
				if len(u) != 1 {
					t.Errorf("%d agent.unparsed, want 1", len(u))
				}
				return
			}
			if len(u) != 0 {
				t.Fatalf("agent.unparsed: %v", u[0].Data)
			}
			ps := statusParts(evs)
			if tc.detail == "" {
				if len(ps) != 0 {
					t.Errorf("status parts %+v, want none", ps)
				}
				return
			}
			if len(ps) != 1 || ps[0].Label != "notice" || ps[0].Detail != tc.detail || string(ps[0].Metadata) != tc.md {
				t.Errorf("status parts %+v, want notice %q %s", ps, tc.detail, tc.md)
			}
		})
	}
}
