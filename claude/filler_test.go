package claude_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// syntheticEntry is the assistant line Claude Code writes itself (model
// <synthetic>, no API call), with the members after the message given.
func syntheticEntry(uuid, parent, text, tail string) string {
	return entryHead("assistant", uuid, parent) + `,"message":{"id":"` + uuid + `-m","container":null,"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0},"content":[{"type":"text","text":"` + text + `"}],"context_management":null}` + tail + `}`
}

// TestNoResponseRequestedFiller: when a session is resumed or forked
// after a turn that did not finish, Claude Code writes a synthetic
// assistant line "No response requested." with isApiErrorMessage false:
// text of its own in place of a response nobody asked for. Every
// synthetic line was taken for an API error: a failed message, an error
// event "No response requested." and the turn ended in error. Found in
// entireio/cli's Entire checkpoints (MIT; 2.1.37, after /exit and a
// resume: 30 of the 76 errors of 467 sessions read were this line; see
// testdata/claude/public/transcript_entirecli_resume-filler_v2.1.37.jsonl)
// and in a 2.1.270 --fork-session of a session mid-call (noamsalit/
// Shepherd's probe copies, no licence: the three lines the fork
// synthesizes are written here in their shape, ids ours). It is a system
// item with the text now, and the turn goes on; a synthetic line that
// says it is an API error, or says nothing (older builds), or names an
// error stays an error.
func TestNoResponseRequestedFiller(t *testing.T) {
	const filler = `,"isApiErrorMessage":false`
	interrupted := entryHead("user", "r1", "a1") + `,"message":{"role":"user","content":[{"type":"tool_result","content":"[Request interrupted by user for tool use]","is_error":true,"tool_use_id":"toolu_1"}]},"toolUseResult":"[Request interrupted by user for tool use]","toolDenialKind":"interrupted","sourceToolAssistantUUID":"a1"}`
	cont := entryHead("user", "m1", "r1") + `,"message":{"role":"user","content":[{"type":"text","text":"Continue from where you left off."}]},"isMeta":true}`
	fork := func(tail string) []string {
		return []string{
			promptEntry("p1", "", "The codeword is PINEAPPLE-42. Reply with exactly OK."),
			callEntry("a1", "p1", "msg_1", "toolu_1"),
			interrupted,
			cont,
			syntheticEntry("s1", "m1", "No response requested.", tail),
			promptEntry("p2", "s1", "What is the codeword?"),
			answerEntry("a2", "p2", "msg_2", "PINEAPPLE-42"),
		}
	}
	errs := func(evs []universal.Event) (n int, turnErrs int) {
		n = len(golden.OfType(evs, universal.TypeError))
		for _, e := range golden.OfType(evs, universal.TypeTurnEnded) {
			if e.Data.(*universal.TurnEnded).Status == universal.TurnError {
				turnErrs++
			}
		}
		return n, turnErrs
	}

	t.Run("transcript", func(t *testing.T) {
		evs := feed(t, claude.FormatTranscript, nil, nil, fork(filler)...)
		if n, te := errs(evs); n != 0 || te != 0 {
			t.Errorf("%d error events, %d turns ended in error; want none", n, te)
		}
		var found int
		for _, it := range completed(evs, universal.KindSystem, universal.RoleSystem) {
			if len(it.Content) == 1 && it.Content[0].Text == "No response requested." {
				found++
				if it.Status != universal.StatusCompleted {
					t.Errorf("filler item status %s", it.Status)
				}
			}
		}
		if found != 1 {
			t.Errorf("%d system items with the filler's text, want 1", found)
		}
		for _, it := range completed(evs, universal.KindMessage, universal.RoleAssistant) {
			if it.Status == universal.StatusFailed {
				t.Errorf("failed assistant message %+v", it.Content)
			}
		}
		if n := len(golden.OfType(evs, universal.TypeTurnStarted)); n != 2 {
			t.Errorf("%d turns, want 2", n)
		}
	})

	t.Run("stream-json", func(t *testing.T) {
		sid := `"session_id":"s1","parent_tool_use_id":null`
		evs := feed(t, claude.FormatStreamJSON, nil, nil,
			`{"type":"system","subtype":"init","claude_code_version":"2.1.270","cwd":"/w","tools":[],"model":"claude-haiku-4-5","permissionMode":"default","session_id":"s1","uuid":"i1"}`,
			`{"type":"assistant","message":{"id":"f1","model":"<synthetic>","role":"assistant","type":"message","content":[{"type":"text","text":"No response requested."}],"usage":{"input_tokens":0,"output_tokens":0}},`+sid+`,"uuid":"u1","is_api_error_message":false}`,
			`{"type":"assistant","message":{"id":"msg_2","model":"claude-haiku-4-5","role":"assistant","type":"message","content":[{"type":"text","text":"PINEAPPLE-42"}],"stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":3}},`+sid+`,"uuid":"u2"}`,
			`{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"PINEAPPLE-42","stop_reason":"end_turn","session_id":"s1","uuid":"u3"}`,
		)
		if n, te := errs(evs); n != 0 || te != 0 {
			t.Errorf("%d error events, %d turns ended in error; want none", n, te)
		}
	})

	// Synthetic lines that are API errors stay errors.
	for name, tail := range map[string]string{
		"flag true":           `,"error":"model_not_found","isApiErrorMessage":true,"apiErrorStatus":404`,
		"no flag":             ``,
		"flag false, error":   `,"isApiErrorMessage":false,"error":"rate_limit"`,
		"stream-json flag on": `,"is_api_error_message":true`,
	} {
		t.Run(name, func(t *testing.T) {
			evs := feed(t, claude.FormatTranscript, nil, nil,
				promptEntry("p1", "", "hi"),
				syntheticEntry("s1", "p1", "API Error: something", tail),
			)
			if n, te := errs(evs); n != 1 || te != 1 {
				t.Errorf("%d error events, %d turns ended in error; want 1 and 1", n, te)
			}
		})
	}
}
