package claude_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestSubagentFileInterrupted: a sub-agent's transcript read by itself
// (…/subagents/agent-<id>.jsonl, every entry isSidechain with its
// agentId, and no call of the input spawned it) has the session's turns
// as its own, but the interruption marker ended a turn only on the main
// thread: a sub-agent the user stopped left its turn open, which the end
// of the input then ended as cut off (session_ending) and the session in
// error, though the record shows the stop. The lines are written in the
// shape of real 2.1.219 entries of a killed sub-agent (testdata/SOURCES.md,
// "claude sub-agent file interrupted"; ids, paths and texts ours): its
// prompt, its last answer and the marker; the mid-turn case puts a
// thinking-only line between the prompt and the marker.
func TestSubagentFileInterrupted(t *testing.T) {
	const (
		prompt   = `{"parentUuid":null,"isSidechain":true,"promptId":"11111111-2222-4333-8444-555555555555","agentId":"a0123456789abcdef","type":"user","message":{"role":"user","content":"Review the staged changes and commit them."},"uuid":"0a0a0a0a-1b1b-4c2c-8d3d-4e4e4e4e4e4e","timestamp":"2026-07-01T10:00:00.000Z","userType":"external","entrypoint":"sdk-ts","cwd":"/home/dev/project","sessionId":"9f9f9f9f-8e8e-4d7d-8c6c-5b5b5b5b5b5b","version":"2.1.219","gitBranch":"main"}`
		answer   = `{"parentUuid":"1c1c1c1c-2d2d-4e3e-8f4f-505050505050","isSidechain":true,"agentId":"a0123456789abcdef","message":{"model":"claude-opus-5","id":"msg_01AAAAAAAAAAAAAAAAAAAAAA","type":"message","role":"assistant","content":[{"type":"text","text":"Two unrelated files are staged as well; committing mine by name."}],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":2,"cache_creation_input_tokens":343,"cache_read_input_tokens":242854,"output_tokens":2,"service_tier":"standard"},"diagnostics":null},"requestId":"req_01BBBBBBBBBBBBBBBBBBBBBB","attributionAgent":"reviewer","type":"assistant","uuid":"2e2e2e2e-3f3f-4a4a-8b5b-6c6c6c6c6c6c","timestamp":"2026-07-01T10:05:00.000Z","effort":"high","userType":"external","entrypoint":"sdk-ts","cwd":"/home/dev/project","sessionId":"9f9f9f9f-8e8e-4d7d-8c6c-5b5b5b5b5b5b","version":"2.1.219","gitBranch":"main"}`
		thinking = `{"parentUuid":"0a0a0a0a-1b1b-4c2c-8d3d-4e4e4e4e4e4e","isSidechain":true,"agentId":"a0123456789abcdef","message":{"model":"claude-opus-5","id":"msg_01CCCCCCCCCCCCCCCCCCCCCC","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Checking which files are mine.","signature":"Checking which files are mine."}],"stop_reason":null},"type":"assistant","uuid":"3d3d3d3d-4e4e-4f5f-8a6a-7b7b7b7b7b7b","timestamp":"2026-07-01T10:05:30.000Z","userType":"external","entrypoint":"sdk-ts","cwd":"/home/dev/project","sessionId":"9f9f9f9f-8e8e-4d7d-8c6c-5b5b5b5b5b5b","version":"2.1.219","gitBranch":"main"}`
		marker   = `{"parentUuid":"3d3d3d3d-4e4e-4f5f-8a6a-7b7b7b7b7b7b","isSidechain":true,"promptId":"4c4c4c4c-5d5d-4e6e-8f7f-808080808080","agentId":"a0123456789abcdef","type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]},"uuid":"5b5b5b5b-6c6c-4d7d-8e8e-9f9f9f9f9f9f","timestamp":"2026-07-01T10:06:03.000Z","userType":"external","entrypoint":"sdk-ts","cwd":"/home/dev/project","sessionId":"9f9f9f9f-8e8e-4d7d-8c6c-5b5b5b5b5b5b","version":"2.1.219","gitBranch":"main"}`
	)
	// The same entries as a main transcript writes them (no sidechain).
	main := func(l string) string {
		l = strings.Replace(l, `"isSidechain":true`, `"isSidechain":false`, 1)
		return strings.Replace(l, `"agentId":"a0123456789abcdef",`, "", 1)
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  []universal.TurnStatus // the turns' ends, in order
	}{
		{"killed after its answer", []string{prompt, answer, marker},
			[]universal.TurnStatus{universal.TurnCompleted, universal.TurnInterrupted}},
		{"killed while it thought", []string{prompt, thinking, marker},
			[]universal.TurnStatus{universal.TurnInterrupted}},
		{"main thread, the same", []string{main(prompt), main(thinking), main(marker)},
			[]universal.TurnStatus{universal.TurnInterrupted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, tc.lines...)
			var got []universal.TurnStatus
			for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
				te := e.Data.(*universal.TurnEnded)
				if strings.Contains(string(te.Metadata), "session_ending") {
					t.Errorf("turn %s ended by the end of the input: %s", te.TurnID, te.Metadata)
				}
				got = append(got, te.Status)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("turn ends %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("turn ends %v, want %v", got, tc.want)
				}
			}
			end := golden.OfType(evs, universal.TypeSessionEnded)
			if se := end[len(end)-1].Data.(*universal.SessionEnded); se.Reason != universal.EndCompleted {
				t.Errorf("session ended %s (%q), want completed", se.Reason, se.Message)
			}
			if n := len(completed(evs, universal.KindStatus, "")); n != 1 {
				t.Errorf("%d status items, want the marker's one", n)
			}
		})
	}
}

// irrlichtLimit is a real 2.1.240 line: the CLI's synthetic API error
// message of a sub-agent that hit the subscription's session limit, in the
// sub-agent's transcript file as a public project recorded it
// (testdata/SOURCES.md, "claude transcript API error fields").
const irrlichtLimit = `{"parentUuid":"d5029581-8058-4f94-860b-814bc0247451","isSidechain":true,"agentId":"a51e4b480796757bc","type":"assistant","uuid":"1baab896-3610-43c4-bfd9-868f1429e5c1","timestamp":"2026-08-28T17:45:52.266Z","message":{"diagnostics":null,"id":"a26a500a-4a14-4f54-9007-488ccdbb869e","container":null,"model":"<synthetic>","role":"assistant","stop_details":null,"stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":{"output_tokens_details":null,"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":null,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":null,"iterations":null,"speed":null},"content":[{"type":"text","text":"You've hit your session limit · resets 8pm (Europe/Berlin)"}],"context_management":null},"requestId":"req_011CeVZfAmuzKNqAXiR23Tkk","quotaLimits":{"status":"rejected","resetsAt":1787940000,"unifiedRateLimitFallbackAvailable":false,"rateLimitType":"five_hour","overageStatus":"rejected","overageDisabledReason":"org_level_disabled","upgradePaths":["upgrade_plan"],"isUsingOverage":false},"error":"rate_limit","isApiErrorMessage":true,"apiErrorStatus":429,"userType":"external","entrypoint":"cli","cwd":"/Users/ingo/projects/irrlicht","sessionId":"e81ac16e-353f-47e2-aa0a-09f388e3610e","version":"2.1.240","gitBranch":"main"}`

// asMain returns a sub-agent file's entry as the main transcript would
// write it (no sidechain, no agentId).
func asMain(l string) string {
	l = strings.Replace(l, `"isSidechain":true`, `"isSidechain":false`, 1)
	if i := strings.Index(l, `"agentId":"`); i >= 0 {
		if j := strings.Index(l[i+len(`"agentId":"`):], `",`); j >= 0 {
			l = l[:i] + l[i+len(`"agentId":"`)+j+2:]
		}
	}
	return l
}

// TestTranscriptAPIErrorFields: a transcript writes the CLI's synthetic
// API error message as the CLI keeps it, camelCase, where stream-json
// sends snake_case: the kind (apiError), code (apiErrorCode), parameters
// (apiErrorParams) and raw error text (errorDetails) were read only in
// the stream's spelling, and the rate-limit state a rate_limit error came
// with (quotaLimits: when the limit resets, its window, the upgrade
// paths), which only transcripts have, was not read at all. They are the
// error event's details now, as the stream's members are. The 2.1.240
// line is real (on the main thread here); the 2.1.332 one is made up in
// the shape the CLI's message builder writes (apiError, apiErrorParams,
// apiErrorCode, errorDetails beside isApiErrorMessage).
func TestTranscriptAPIErrorFields(t *testing.T) {
	const prompt = `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"go on"},"uuid":"p1","timestamp":"2026-08-28T17:45:00.000Z","sessionId":"e81ac16e-353f-47e2-aa0a-09f388e3610e","version":"2.1.240","cwd":"/w"}`
	const shaped = `{"parentUuid":"p1","isSidechain":false,"type":"assistant","uuid":"e2","timestamp":"2026-10-01T10:00:00.000Z","message":{"id":"e2m","model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","type":"message","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"You've hit your weekly limit"}]},"error":"rate_limit","isApiErrorMessage":true,"apiErrorStatus":429,"apiError":"usage_limit_reached","apiErrorCode":"weekly_cap","apiErrorParams":{"rate_limit_info":{"status":"rejected","resetsAt":1791000000}},"errorDetails":"429 {\"type\":\"error\"}","sessionId":"s2","version":"2.1.332","cwd":"/w"}`
	for _, tc := range []struct {
		name, line string
		want       map[string]string // details member → its JSON
	}{
		{"2.1.240 session limit", asMain(irrlichtLimit), map[string]string{
			"error": `"rate_limit"`, "api_error_status": "429",
			"quota_limits": `{"status":"rejected","resetsAt":1787940000,"unifiedRateLimitFallbackAvailable":false,"rateLimitType":"five_hour","overageStatus":"rejected","overageDisabledReason":"org_level_disabled","upgradePaths":["upgrade_plan"],"isUsingOverage":false}`}},
		{"2.1.332 kind and parameters", shaped, map[string]string{
			"api_error_kind": `"usage_limit_reached"`, "api_error_code": `"weekly_cap"`,
			"api_error_params": `{"rate_limit_info":{"status":"rejected","resetsAt":1791000000}}`,
			"error_details":    `"429 {\"type\":\"error\"}"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, prompt, tc.line)
			errs := golden.OfType(evs, universal.TypeError)
			if len(errs) != 1 {
				t.Fatalf("%d errors, want 1", len(errs))
			}
			var details map[string]json.RawMessage
			if err := json.Unmarshal(errs[0].Data.(*universal.Error).Details, &details); err != nil {
				t.Fatal(err)
			}
			for k, want := range tc.want {
				var g, w any
				if err := json.Unmarshal(details[k], &g); err != nil || json.Unmarshal([]byte(want), &w) != nil || !reflect.DeepEqual(g, w) {
					t.Errorf("details %s = %s, want %s", k, details[k], want)
				}
			}
		})
	}
}

// TestSubagentFileAPIError: read by itself, a sub-agent's file is the
// session's own thread, but the CLI's synthetic API error message there
// was a sub-agent's failure (a status item sub_agent_error): no error
// event, the turn not failed. And a transcript's session ended in error
// whenever a turn had failed, though the record shows the agent went on
// and finished a later turn (a stream's later successful result clears
// it). The lines are real 2.1.240 entries of a sub-agent that hit the
// session limit and continued when the user said so (testdata/SOURCES.md,
// "claude transcript API error fields"; thinking signatures cut).
func TestSubagentFileAPIError(t *testing.T) {
	const (
		limitThinking  = `{"parentUuid":"5a159b91-b710-408a-802f-eed482edcb33","isSidechain":true,"agentId":"a51e4b480796757bc","message":{"model":"claude-opus-5","id":"msg_011CeVYxJaKctPj54NZia3fJ","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"","signature":"CAIS5w8K…"}],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":2,"cache_creation_input_tokens":5786,"cache_read_input_tokens":357988,"cache_creation":{"ephemeral_5m_input_tokens":5786,"ephemeral_1h_input_tokens":0},"output_tokens":2,"service_tier":"standard","inference_geo":"not_available"},"diagnostics":null},"requestId":"req_011CeVYxHZofmfxSieNT8cmK","attributionAgent":"general-purpose","attributionSkill":"ir:triage","attributionPlugin":"ir","type":"assistant","uuid":"80c47009-abb8-4e34-9dd9-1eb14ba9903b","timestamp":"2026-08-28T17:36:48.413Z","effort":"xhigh","userType":"external","entrypoint":"cli","cwd":"/Users/ingo/projects/irrlicht","sessionId":"e81ac16e-353f-47e2-aa0a-09f388e3610e","version":"2.1.240","gitBranch":"main"}`
		limitText      = `{"parentUuid":"80c47009-abb8-4e34-9dd9-1eb14ba9903b","isSidechain":true,"agentId":"a51e4b480796757bc","message":{"model":"claude-opus-5","id":"msg_011CeVYxJaKctPj54NZia3fJ","type":"message","role":"assistant","content":[{"type":"text","text":"Four angle agents running. Waiting before touching files."}],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":2,"cache_creation_input_tokens":5786,"cache_read_input_tokens":357988,"cache_creation":{"ephemeral_5m_input_tokens":5786,"ephemeral_1h_input_tokens":0},"output_tokens":2,"service_tier":"standard","inference_geo":"not_available"},"diagnostics":null},"requestId":"req_011CeVYxHZofmfxSieNT8cmK","attributionAgent":"general-purpose","attributionSkill":"ir:triage","attributionPlugin":"ir","type":"assistant","uuid":"d5e0bb04-5330-4dc2-9075-583b3f65aef1","timestamp":"2026-08-28T17:36:48.415Z","effort":"xhigh","userType":"external","entrypoint":"cli","cwd":"/Users/ingo/projects/irrlicht","sessionId":"e81ac16e-353f-47e2-aa0a-09f388e3610e","version":"2.1.240","gitBranch":"main"}`
		limitCall      = `{"parentUuid":"d5e0bb04-5330-4dc2-9075-583b3f65aef1","isSidechain":true,"agentId":"a51e4b480796757bc","message":{"model":"claude-opus-5","id":"msg_011CeVYxJaKctPj54NZia3fJ","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_016AZZaV6EjciThsc2MTCZfj","name":"Bash","input":{"command":"for i in $(seq 1 12); do sleep 45; done; echo \"waited ~9 minutes\"\ncd /Users/ingo/projects/irrlicht/.claude/worktrees/1855-test-mac-script || exit 1\ngit status --porcelain; echo \"(tree end)\"","description":"Wait for the four simplify agents","timeout":590000},"caller":{"type":"direct"}}],"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"usage":{"input_tokens":2,"cache_creation_input_tokens":5786,"cache_read_input_tokens":357988,"output_tokens":811,"output_tokens_details":{"thinking_tokens":597},"service_tier":"standard"},"diagnostics":null},"requestId":"req_011CeVYxHZofmfxSieNT8cmK","attributionAgent":"general-purpose","attributionSkill":"ir:triage","attributionPlugin":"ir","type":"assistant","uuid":"64d98982-1b18-4412-b7ae-bf3f702d1dd8","timestamp":"2026-08-28T17:36:49.884Z","effort":"xhigh","userType":"external","entrypoint":"cli","cwd":"/Users/ingo/projects/irrlicht","sessionId":"e81ac16e-353f-47e2-aa0a-09f388e3610e","version":"2.1.240","gitBranch":"main"}`
		limitResult    = `{"parentUuid":"64d98982-1b18-4412-b7ae-bf3f702d1dd8","isSidechain":true,"promptId":"b4b53872-cc32-4eff-8aeb-bb5e8d526788","agentId":"a51e4b480796757bc","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_016AZZaV6EjciThsc2MTCZfj","type":"tool_result","content":"waited ~9 minutes\n(tree end)","is_error":false}]},"uuid":"d5029581-8058-4f94-860b-814bc0247451","timestamp":"2026-08-28T17:45:51.731Z","toolUseResult":{"stdout":"waited ~9 minutes\n(tree end)","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"sourceToolAssistantUUID":"64d98982-1b18-4412-b7ae-bf3f702d1dd8","userType":"external","entrypoint":"cli","cwd":"/Users/ingo/projects/irrlicht","sessionId":"e81ac16e-353f-47e2-aa0a-09f388e3610e","version":"2.1.240","gitBranch":"main"}`
		limitContinue  = `{"parentUuid":"1baab896-3610-43c4-bfd9-868f1429e5c1","isSidechain":true,"promptId":"2e35ef45-1577-42e4-9839-4a5233eb9583","agentId":"a51e4b480796757bc","type":"user","message":{"role":"user","content":"The user sent a new message while you were working:\ncontinue\n\nThis is how Claude Code surfaces messages the user sends mid-turn — within the running turn, often alongside the next tool result, rather than as a separate conversation turn. Address the message above as you continue this turn."},"isMeta":true,"uuid":"4eee0dbd-8320-43be-8cf8-a0e38145d22a","timestamp":"2026-08-28T18:02:52.912Z","origin":{"kind":"human"},"userType":"external","entrypoint":"cli","cwd":"/Users/ingo/projects/irrlicht/.claude/worktrees/1855-test-mac-script","sessionId":"e81ac16e-353f-47e2-aa0a-09f388e3610e","version":"2.1.240","gitBranch":"main"}`
		limitContinued = `{"parentUuid":"4eee0dbd-8320-43be-8cf8-a0e38145d22a","isSidechain":true,"agentId":"a51e4b480796757bc","message":{"model":"claude-opus-5","id":"msg_011CeVaxVFFXQdFXUaajYKCW","type":"message","role":"assistant","content":[{"type":"text","text":"Continuing. The four angle agents are still out; meanwhile let me do the real end-to-end run against the review-fixed script."}],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":2,"cache_creation_input_tokens":313689,"cache_read_input_tokens":0,"output_tokens":2,"service_tier":"standard"},"diagnostics":{"cache_miss_reason":{"type":"system_changed","cache_missed_input_tokens":243211}}},"requestId":"req_011CeVaxSV4V3FLEL1Vy3jWb","attributionAgent":"general-purpose","type":"assistant","uuid":"4f52b52d-e060-40ac-a93b-af0c9c523da6","timestamp":"2026-08-28T18:03:03.088Z","effort":"xhigh","userType":"external","entrypoint":"cli","cwd":"/Users/ingo/projects/irrlicht/.claude/worktrees/1855-test-mac-script","sessionId":"e81ac16e-353f-47e2-aa0a-09f388e3610e","version":"2.1.240","gitBranch":"main"}`
	)
	lines := []string{limitThinking, limitText, limitCall, limitResult, irrlichtLimit, limitContinue, limitContinued}
	main := make([]string, len(lines))
	for i, l := range lines {
		main[i] = asMain(l)
	}
	for _, tc := range []struct {
		name  string
		lines []string
	}{{"sub-agent file", lines}, {"main thread", main}} {
		t.Run(tc.name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil, tc.lines...)
			errs := golden.OfType(evs, universal.TypeError)
			if len(errs) != 1 || errs[0].Data.(*universal.Error).Code != "rate_limit" {
				t.Fatalf("errors %v, want the rate_limit one", errs)
			}
			var got []universal.TurnStatus
			for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
				got = append(got, e.Data.(*universal.TurnEnded).Status)
			}
			if want := []universal.TurnStatus{universal.TurnError, universal.TurnCompleted}; !reflect.DeepEqual(got, want) {
				t.Errorf("turn ends %v, want %v", got, want)
			}
			end := golden.OfType(evs, universal.TypeSessionEnded)
			if se := end[len(end)-1].Data.(*universal.SessionEnded); se.Reason != universal.EndCompleted {
				t.Errorf("session ended %s (%q), want completed: the last turn was finished", se.Reason, se.Message)
			}
			for _, it := range completed(evs, universal.KindStatus, "") {
				t.Errorf("status item %+v, want none (the failure is the session's)", it.Content)
			}
		})
	}
}
