package opencode_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/opencode"
)

// TestAssistantSystemArray: OpenCode before 1.0 kept the system prompt it
// built for a call on the assistant message (AssistantMessage system, an
// array of strings: the provider's prompt, the environment, the project's
// instructions; OpenCode 1.x keeps none there, a user message's system
// string being the prompt request's own text), sent again with every
// message.updated. It was dropped. It is now session information, as
// other agents' system prompts are: a status item labelled system_prompt
// under the message, metadata {system_prompt: the array}, when the
// session's prompt is new or changed, nothing when it repeats. The first
// line is a message.updated of opencode.nvim's OpenCode 0.15.8 recording
// (testdata/opencode/public/opencode-nvim-v0.15.8-revert.json) with its
// two prompts shortened; the rest are in its shape.
func TestAssistantSystemArray(t *testing.T) {
	const (
		s      = `"sessionID":"ses_602683977ffeSZg4nR7qqTz42T"`
		first  = `["You are opencode, an agent - please keep…","Here is some useful information about th…"]`
		second = `["You are opencode, an agent - please keep…","Here is some useful information about th…","Instructions from: /w/AGENTS.md"]`
	)
	asst := func(id, sys string) string {
		return `{"type":"message.updated","properties":{"info":{"mode":"build","time":{"created":1760896244301},"id":"` + id + `","path":{"cwd":"/home/francis/Projects/_nvim/opencode.nvim","root":"/home/francis/Projects/_nvim/opencode.nvim"},"tokens":{"cache":{"write":0,"read":0},"input":0,"output":0,"reasoning":0},"modelID":"gpt-4.1","system":` + sys + `,"role":"assistant",` + s + `,"cost":0,"providerID":"github-copilot"}}}`
	}
	user := func(id string) string {
		return `{"type":"message.updated","properties":{"info":{"role":"user",` + s + `,"time":{"created":1760896243059},"id":"` + id + `"}}}`
	}
	events := run(t, opencode.FormatSSE, sse(
		user("msg_u1"),
		asst("msg_a1", first), asst("msg_a1", first), // an update of the message
		asst("msg_a2", first), // the next call, the same prompt
		user("msg_u2"),
		asst("msg_a3", second), // the prompt changed
		asst("msg_a4", `[]`), asst("msg_a5", `"not the old form"`), asst("msg_a6", `null`),
	))
	noUnparsed(t, events)
	var got []string
	for _, it := range completed(events) {
		for _, p := range it.Content {
			if p.Label == "system_prompt" {
				got = append(got, it.ParentID+" "+string(p.Metadata))
			}
		}
	}
	want := []string{
		"itm_2 " + `{"system_prompt":` + first + `}`,
		"itm_6 " + `{"system_prompt":` + second + `}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("system_prompt items:\n%s\nwant\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), golden.Encode(events))
	}

	// The whole recording: one prompt, sent with 45 updates, one item.
	b, err := os.ReadFile("../testdata/opencode/public/opencode-nvim-v0.15.8-revert.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range raw {
		var c bytes.Buffer
		if err := json.Compact(&c, r); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, c.String())
	}
	n := 0
	for _, it := range completed(run(t, opencode.FormatSSE, sse(lines...))) {
		if len(it.Content) == 1 && it.Content[0].Label == "system_prompt" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the 0.15.8 recording gave %d system_prompt items, want 1", n)
	}
}
