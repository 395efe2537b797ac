package claude_test

import (
	"slices"
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
		// A transcript's hook_system_message attachment is the same
		// notice (the shape public host tests and notes quote:
		// content, hookName, toolUseID, hookEvent).
		{name: "transcript hook system message", format: claude.FormatTranscript,
			line:   `{"parentUuid":null,"isSidechain":false,"type":"attachment","uuid":"h1","sessionId":"s1","version":"2.1.300","cwd":"/w","attachment":{"type":"hook_system_message","content":"reformatted 3 files","hookName":"PostToolUse:Bash","toolUseID":"toolu_1","hookEvent":"PostToolUse"}}`,
			detail: "reformatted 3 files", md: `{"hook_name":"PostToolUse:Bash","hook_event":"PostToolUse","tool_use_id":"toolu_1"}`},
		{name: "transcript hook system message without text", format: claude.FormatTranscript,
			line: `{"type":"attachment","uuid":"h2","sessionId":"s1","attachment":{"type":"hook_system_message","content":"","hookName":"Stop"}}`},
		{name: "transcript hook system message not a string", format: claude.FormatTranscript, unparsed: true,
			line: `{"type":"attachment","uuid":"h3","sessionId":"s1","attachment":{"type":"hook_system_message","content":7}}`},
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
			label := "notice"
			if tc.detail == "" {
				label = ""
			}
			checkStatus(t, evs, tc.unparsed, label, tc.detail, tc.md)
		})
	}
}

// TestLocalCommandOutput: system/local_command_output {content} is the
// output of a slash command the CLI ran itself (/cost, /usage, /context;
// the Agent SDK's SDKLocalCommandOutputMessage, "displayed as
// assistant-style text in the transcript"; claude-agent-acp shows it as
// the agent's message). It was on the ignore list and the report was
// lost. It is a system item, as the synthetic assistant line with
// local_command_source is; the CLI may send the same output in both
// shapes (claude-agent-acp 0.101.0 suppresses "an exact mirror"), so
// the second of an exact pair adds nothing, in either order, across a
// checkpoint too; the result repeating it adds no answer.
func TestLocalCommandOutput(t *testing.T) {
	const (
		out    = `{"type":"system","subtype":"local_command_output","content":"Total cost: $1.23\nTotal duration: 5m 12s","uuid":"lo1","session_id":"s1"}`
		other  = `{"type":"system","subtype":"local_command_output","content":"Interrupted","uuid":"lo2","session_id":"s1"}`
		mirror = `{"type":"assistant","message":{"id":"b1","type":"message","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"Total cost: $1.23\nTotal duration: 5m 12s"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}},"parent_tool_use_id":null,"local_command_source":"<local-command-stdout>Total cost: $1.23\nTotal duration: 5m 12s</local-command-stdout>","session_id":"s1","uuid":"a1"}`
		result = `{"type":"result","subtype":"success","is_error":false,"duration_ms":9,"num_turns":0,"result":"Total cost: $1.23\nTotal duration: 5m 12s","session_id":"s1","total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0},"local_command":"cost","uuid":"r1"}`
	)
	const cost = "Total cost: $1.23\nTotal duration: 5m 12s"
	for _, tc := range []struct {
		name     string
		lines    []string
		want     []string // texts of the completed items, in order
		unparsed bool
	}{
		{name: "alone, the result repeating it", lines: []string{out, result}, want: []string{cost}},
		{name: "then its synthetic mirror", lines: []string{out, mirror, result}, want: []string{cost}},
		{name: "after its synthetic mirror", lines: []string{mirror, out, result}, want: []string{cost}},
		{name: "two outputs", lines: []string{out, other, result}, want: []string{cost, "Interrupted"}},
		{name: "without text", lines: []string{`{"type":"system","subtype":"local_command_output","content":"","uuid":"lo3","session_id":"s1"}`}},
		{name: "content not a string", unparsed: true, lines: []string{`{"type":"system","subtype":"local_command_output","content":{"text":"x"},"uuid":"lo4","session_id":"s1"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for cut := 0; cut <= len(tc.lines); cut++ {
				evs := feedCut(t, cut, append([]string{gaps24Init}, tc.lines...))
				checkShape(t, evs)
				u := golden.OfType(evs, universal.TypeUnparsed)
				if tc.unparsed {
					if len(u) != 1 {
						t.Errorf("cut %d: %d agent.unparsed, want 1", cut, len(u))
					}
					continue
				}
				if len(u) != 0 {
					t.Fatalf("agent.unparsed: %v", u[0].Data)
				}
				var got []string
				for _, it := range completed(evs, universal.KindSystem, universal.RoleSystem) {
					got = append(got, it.Content[0].Text)
				}
				if n := len(completed(evs, universal.KindMessage, "")); n != 0 {
					t.Errorf("cut %d: %d messages, want none (the result repeats the output)", cut, n)
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("cut %d: items %q, want %q", cut, got, tc.want)
				}
			}
		})
	}
}

// feedCut translates stream-json lines with a checkpoint and restore
// into a new translator before line cut (none when cut is past them).
func feedCut(t *testing.T, cut int, lines []string) []universal.Event {
	t.Helper()
	tr, err := claude.New(claude.FormatStreamJSON, golden.Options())
	if err != nil {
		t.Fatal(err)
	}
	var evs []universal.Event
	for i, l := range lines {
		if i == cut+1 {
			b, err := tr.Checkpoint()
			if err != nil {
				t.Fatal(err)
			}
			tr, _ = claude.New(claude.FormatStreamJSON, golden.Options())
			if err := tr.Restore(b); err != nil {
				t.Fatalf("restore at line %d: %v", i+1, err)
			}
		}
		evs = tr.Translate(evs, universal.Message{Data: []byte(l), Line: int64(i + 1), TimeMS: -1})
	}
	evs = tr.Report(evs, universal.EndOfInput{})
	if err := universal.CheckStream(evs); err != nil {
		t.Fatalf("stream checker: %v", err)
	}
	return evs
}
