package opencode_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// TestDurableSettledIsLast: in a durable event log, the turn's end carries
// the event that showed the agent finished the turn: its last assistant
// message's completion. A prompt queued while the agent works joins the
// turn, and the agent answers it after its first answer completed (OpenCode
// runs the queued prompt in the same loop): the first completion showed
// the agent finished only until the next answer started. The recorded
// s06-multiturn log with its second prompt's rows moved before the first
// answer's completion is such a log; the turn ended with the first
// completion's row before.
func TestDurableSettledIsLast(t *testing.T) {
	data, err := os.ReadFile(recorded + "/s06-multiturn.eventlog-lines.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	msgOf := func(l string) string {
		if id := gjson.Get(l, "data.part.messageID").Str; id != "" {
			return id
		}
		return gjson.Get(l, "data.info.id").Str
	}
	// The second prompt: the second user message's rows up to the
	// answer to it; they move to after the first prompt's text part.
	var users []string
	firstText, lastDone := -1, ""
	for i, l := range lines {
		if gjson.Get(l, "data.info.role").Str == "user" && (len(users) == 0 || users[len(users)-1] != msgOf(l)) && !slices.Contains(users, msgOf(l)) {
			users = append(users, msgOf(l))
		}
		if firstText < 0 && gjson.Get(l, "data.part.type").Str == "text" {
			firstText = i
		}
		if gjson.Get(l, "data.info.role").Str == "assistant" && gjson.Get(l, "data.info.time.completed").Exists() {
			lastDone = gjson.Get(l, "id").Str
		}
	}
	if len(users) != 2 || firstText < 0 || lastDone == "" {
		t.Fatalf("the recording changed: %d prompts", len(users))
	}
	var prompt, rest []string
	answered := false
	for _, l := range lines {
		if msgOf(l) == users[1] && !answered {
			prompt = append(prompt, l)
			continue
		}
		if len(prompt) > 0 && gjson.Get(l, "data.info.role").Str == "assistant" {
			answered = true
		}
		rest = append(rest, l)
	}
	in := slices.Concat(rest[:firstText+1], prompt, rest[firstText+1:])

	opts := golden.Options()
	opts.IncludeRaw = true
	tr, err := opencode.New(opencode.FormatEventLines, opts)
	if err != nil {
		t.Fatal(err)
	}
	events := runWith(t, tr, opencode.FormatEventLines, strings.Join(in, "\n")+"\n")
	ended := golden.OfType(events, universal.TypeTurnEnded)
	if len(ended) != 1 {
		t.Fatalf("%d turns ended, want 1 (the second prompt came while the agent worked)", len(ended))
	}
	if got := gjson.GetBytes(ended[0].Raw, "id").Str; ended[0].Source != universal.SourceAgent || got != lastDone {
		t.Errorf("the turn ended with row %q (source %s), want %q: the last answer's completion", got, ended[0].Source, lastDone)
	}
}
