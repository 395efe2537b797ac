package claude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestGoalStatus: /goal (Claude Code 2.1.1xx and later) writes
// goal_status attachments to the transcript: a sentinel when the goal is
// set, then the Stop hook's verdict after each response (met, not met
// with its reason, failed when it can never be met). They were ignored
// with the other attachments: the goal and whether it was met were lost.
// Each is now a status item labelled "goal" (detail the condition and
// its state, the attachment as metadata goal), a verdict inside the turn
// of the response it judged. Real: hostbud's 2.1.283 transcripts (met,
// failed) and Irrlicht's 2.1.143 autonomous loop (not met, then met,
// written with sentinel true).
func TestGoalStatus(t *testing.T) {
	for _, c := range []struct {
		file  string
		want  []string
		inTrn []bool
	}{
		{"transcript_hostbud_goal-achieved_v2.1.283.jsonl", []string{"set", "met"}, []bool{false, true}},
		{"transcript_hostbud_goal-failed_v2.1.283.jsonl", []string{"set", "failed"}, []bool{false, true}},
		{"transcript_irrlicht_autonomous-loop_v2.1.143.jsonl", []string{"set", "not met", "met"}, []bool{false, true, true}},
	} {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(public, c.file))
			if err != nil {
				t.Fatal(err)
			}
			evs := feed(t, claude.FormatTranscript, nil, nil, strings.Split(strings.TrimSpace(string(b)), "\n")...)
			var got []string
			var inTurn []bool
			open := false
			for _, ev := range evs {
				switch ev.Type {
				case universal.TypeTurnStarted:
					open = true
				case universal.TypeTurnEnded:
					open = false
				case universal.TypeItemCompleted:
					it := ev.Data.(*universal.ItemSnapshot).Item
					if it.Kind != universal.KindStatus || it.Content[0].Label != "goal" {
						continue
					}
					p := it.Content[0]
					var md struct {
						Goal struct{ Type, Condition string } `json:"goal"`
					}
					if err := json.Unmarshal(p.Metadata, &md); err != nil || md.Goal.Type != "goal_status" || md.Goal.Condition == "" ||
						p.Detail != md.Goal.Condition+" ("+p.Detail[strings.LastIndex(p.Detail, "(")+1:] {
						t.Errorf("goal item %+v (%v)", p, err)
					}
					got = append(got, strings.TrimSuffix(p.Detail[strings.LastIndex(p.Detail, "(")+1:], ")"))
					inTurn = append(inTurn, open)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Fatalf("goal states %q, want %q", got, c.want)
			}
			for i := range inTurn {
				if inTurn[i] != c.inTrn[i] {
					t.Errorf("goal item %d (%s) inside a turn: %v, want %v", i, got[i], inTurn[i], c.inTrn[i])
				}
			}
			if u := golden.OfType(evs, universal.TypeUnparsed); len(u) > 0 {
				t.Errorf("unparsed: %+v", u[0].Data)
			}
		})
	}
}
