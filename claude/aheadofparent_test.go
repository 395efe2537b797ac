package claude_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestEntryAheadOfItsParent: Claude Code writes a response's lines (a
// line per block, each with the response's stop reason) after the
// response ended, and an entry from after the turn can land between them:
// a /loop wakeup's system scheduled_task_fire, whose parentUuid is the
// turn's turn_duration, written after the response's thinking line and
// before its text line, the turn_duration and the prompt the task sends.
// The entry ended the turn (the thinking line had stopped with end_turn),
// the text line of the completed response was dropped as a late line,
// and an empty turn was opened for it. A system entry whose parent is
// not in the file yet does not show that the response was the last: the
// text is the response's, the turn ends at its turn_duration.
//
// Real: ebridges/wakil (MIT), Entire checkpoint ref
// refs/entire/checkpoints/01/dbccff74cd01 @ 6a164ad2, 0/full.jsonl
// (Claude Code 2.1.220) lines 1720 and 1736–1740; the tool calls between
// the prompt and the response left out (the thinking line's parentUuid
// names the prompt here), signatures and the text shortened.
func TestEntryAheadOfItsParent(t *testing.T) {
	lines := []string{
		`{"parentUuid":"88d42540-3fc9-47fb-8617-54868602f556","isSidechain":false,"promptId":"20af0e39-bc4e-4d80-8ba2-b547ee4432f9","type":"user","message":{"role":"user","content":"All of your commit messages are suffixed with: ` + "`Co-authored-by: test <test@test.com>`" + `  what is \"test\"?"},"uuid":"2d462550-d1cd-4c5b-aaa1-c532c031eaac","timestamp":"2026-07-29T13:26:42.626Z","permissionMode":"auto","origin":{"kind":"human"},"promptSource":"typed","userType":"external","entrypoint":"cli","cwd":"/Users/ebridges/Projects/wakil","sessionId":"537e8445-cdbd-48e2-a4af-f1a8fdfa7b4b","version":"2.1.220","gitBranch":"main","slug":"help-me-plan-an-greedy-fog"}`,
		`{"parentUuid":"2d462550-d1cd-4c5b-aaa1-c532c031eaac","isSidechain":false,"message":{"model":"claude-sonnet-5","id":"msg_011CdWRm7jsEfpsxz6JxaKYq","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"","signature":"sig"}],"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"usage":{"input_tokens":2,"cache_creation_input_tokens":1206,"cache_read_input_tokens":601433,"output_tokens":1141,"service_tier":"standard","speed":"standard"},"diagnostics":null},"requestId":"req_011CdWRm4B4A9ZhLKWavqbJH","type":"assistant","uuid":"28351da1-62af-4f00-b9a6-32e600ee7dc4","timestamp":"2026-07-29T13:28:34.611Z","effort":"high","userType":"external","entrypoint":"cli","cwd":"/Users/ebridges/Projects/wakil","sessionId":"537e8445-cdbd-48e2-a4af-f1a8fdfa7b4b","version":"2.1.220","gitBranch":"main"}`,
		`{"parentUuid":"853b41f1-76c2-4312-9955-d81e7b7afa84","isSidechain":false,"type":"system","subtype":"scheduled_task_fire","content":"Claude resuming /loop wakeup (Jul 29 9:28am)","isMeta":false,"timestamp":"2026-07-29T13:28:38.597Z","uuid":"d3c844a6-94c8-46a7-9ed5-d7511bb945d4","userType":"external","entrypoint":"cli","cwd":"/Users/ebridges/Projects/wakil","sessionId":"537e8445-cdbd-48e2-a4af-f1a8fdfa7b4b","version":"2.1.220","gitBranch":"main"}`,
		`{"parentUuid":"28351da1-62af-4f00-b9a6-32e600ee7dc4","isSidechain":false,"message":{"model":"claude-sonnet-5","id":"msg_011CdWRm7jsEfpsxz6JxaKYq","type":"message","role":"assistant","content":[{"type":"text","text":"` + "`test <test@test.com>`" + ` is a **local git identity**."}],"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"usage":{"input_tokens":2,"cache_creation_input_tokens":1206,"cache_read_input_tokens":601433,"output_tokens":1141,"service_tier":"standard","speed":"standard"},"diagnostics":null},"requestId":"req_011CdWRm4B4A9ZhLKWavqbJH","type":"assistant","uuid":"7e880617-3668-470d-af4f-8e4e9c9c9697","timestamp":"2026-07-29T13:28:38.373Z","effort":"high","userType":"external","entrypoint":"cli","cwd":"/Users/ebridges/Projects/wakil","sessionId":"537e8445-cdbd-48e2-a4af-f1a8fdfa7b4b","version":"2.1.220","gitBranch":"main"}`,
		`{"parentUuid":"7e880617-3668-470d-af4f-8e4e9c9c9697","isSidechain":false,"type":"system","subtype":"turn_duration","durationMs":115918,"messageCount":1197,"timestamp":"2026-07-29T13:28:38.582Z","uuid":"853b41f1-76c2-4312-9955-d81e7b7afa84","isMeta":false,"userType":"external","entrypoint":"cli","cwd":"/Users/ebridges/Projects/wakil","sessionId":"537e8445-cdbd-48e2-a4af-f1a8fdfa7b4b","version":"2.1.220","gitBranch":"main"}`,
		`{"parentUuid":"d3c844a6-94c8-46a7-9ed5-d7511bb945d4","isSidechain":false,"promptId":"2e441c95-6e2c-4ee6-a410-e7eb8fbd33a5","type":"user","message":{"role":"user","content":"Check ` + "`gh pr checks 107`" + ` and report final CI status to the user."},"isMeta":true,"uuid":"1a3bee71-c1f3-4606-9e0e-4a7883fbd0ad","timestamp":"2026-07-29T13:28:38.613Z","permissionMode":"auto","promptSource":"system","queuePriority":"later","userType":"external","entrypoint":"cli","cwd":"/Users/ebridges/Projects/wakil","sessionId":"537e8445-cdbd-48e2-a4af-f1a8fdfa7b4b","version":"2.1.220","gitBranch":"main"}`,
	}
	evs := feed(t, claude.FormatTranscript, nil, nil, lines...)
	msgs := completed(evs, universal.KindMessage, universal.RoleAssistant)
	if len(msgs) != 1 {
		t.Fatalf("%d assistant messages, want 1: %+v", len(msgs), msgs)
	}
	c := msgs[0].Content
	if len(c) != 2 || c[0].Type != universal.PartReasoning || c[1].Type != universal.PartText || !strings.Contains(c[1].Text, "local git identity") {
		t.Errorf("the response's parts: %+v", c)
	}
	// One turn for the question (ended by its turn_duration, after the
	// response), none opened for the response's late line.
	ended := golden.OfType(evs, universal.TypeTurnEnded)
	if len(ended) != 1 || len(golden.OfType(evs, universal.TypeTurnStarted)) != 1 {
		t.Errorf("%d turns started, %d ended, want 1", len(golden.OfType(evs, universal.TypeTurnStarted)), len(ended))
	}
	done := false
	for _, e := range evs {
		if e.Type == universal.TypeTurnEnded {
			break
		}
		if s, ok := e.Data.(*universal.ItemSnapshot); ok && e.Type == universal.TypeItemCompleted && s.Item.ItemID == msgs[0].ItemID {
			done = true
		}
	}
	if !done {
		t.Error("the response was not completed in the question's turn")
	}
	if st := completed(evs, universal.KindStatus, ""); len(st) != 1 || st[0].Content[0].Label != "scheduled_task_fire" {
		t.Errorf("status items %+v, want the scheduled_task_fire", st)
	}
}
