package claude_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/claude"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestQuestionAnswersInAskedOrder: the answer to an AskUserQuestion call of
// several questions is one "question: answer" line each, read from the
// result's answers object, which is keyed by question text. An object's
// members have no order (RFC 8259): a host that re-serializes the
// transcript (or a JSON library that sorts keys) may write them in
// another order than the questions array beside them. The response
// followed the object's member order; it follows the questions' order.
// The lines are the real 2.1.38 transcript's (marot/spotter, see
// testdata/claude/public/SOURCES.md), once as written and once with the
// answers' members swapped.
func TestQuestionAnswersInAskedOrder(t *testing.T) {
	f, err := os.Open("../testdata/claude/public/transcript_spotter_subagent_progress_v2.1.38.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) < 34 {
		t.Fatalf("%d lines", len(lines))
	}
	call, result := lines[32], lines[33]
	answers := gjson.Get(result, "toolUseResult.answers")
	var keys, vals []string
	answers.ForEach(func(k, v gjson.Result) bool {
		keys, vals = append(keys, k.Raw), append(vals, v.Raw)
		return true
	})
	if len(keys) != 2 {
		t.Fatalf("answers %s", answers.Raw)
	}
	swapped := "{" + keys[1] + ":" + vals[1] + "," + keys[0] + ":" + vals[0] + "}"
	const want = "Which rig do these beads belong to? (This is a single-app project — should I use 'spotter'?): No rig\nWhich tools should we set up?: Credo + Dialyxir + mix_audit"
	for _, res := range []string{result, strings.Replace(result, answers.Raw, swapped, 1)} {
		evs := feed(t, claude.FormatTranscript, nil, nil, call, res)
		qs := golden.OfType(evs, universal.TypeQuestionResolved)
		if len(qs) != 1 {
			t.Fatalf("question.resolved %d", len(qs))
		}
		if got := qs[0].Data.(*universal.Question).Response; got != want {
			t.Errorf("response %s, want %s", strconv.Quote(got), strconv.Quote(want))
		}
	}
}
