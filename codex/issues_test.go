package codex_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/codex"
	"github.com/agentnorm/agentnorm/internal/golden"
	"github.com/agentnorm/agentnorm/universal"
)

// TestInterAgentCommunicationLine: before openai/codex PR 29829
// (https://github.com/openai/codex/pull/29829, June 2026) a message between
// agents of multi-agent v2 was written to the rollout only as an
// inter_agent_communication line (author, recipient, other_recipients,
// content, trigger_turn: the protocol's InterAgentCommunication); later
// Codex writes the same message as an agent_message response item (with
// an inter_agent_communication_metadata line) and still reads the old
// line. It was reported as agent.unparsed, its text lost; it is now the
// system item the agent_message response item gives, with the text and
// its author and recipient.
func TestInterAgentCommunicationLine(t *testing.T) {
	evs := run(t, codex.FormatRollout, nil, []string{
		`{"type":"session_meta","payload":{"id":"s1","cli_version":"0.140.0"}}`,
		`{"type":"turn_context","payload":{"turn_id":"t1","cwd":"/w"}}`,
		`{"type":"inter_agent_communication","payload":{"author":"/root/researcher","recipient":"/root","other_recipients":[],"content":"Found 3 call sites of parse().","trigger_turn":true}}`,
		`{"type":"inter_agent_communication_metadata","payload":{"trigger_turn":true}}`,
	})
	if u := golden.OfType(evs, universal.TypeUnparsed); len(u) != 0 {
		t.Fatalf("agent.unparsed %+v, want none", u)
	}
	var got *universal.Item
	for _, ev := range evs {
		if s, ok := ev.Data.(*universal.ItemSnapshot); ok && ev.Type == universal.TypeItemCompleted && s.Item.Kind == universal.KindSystem {
			got = &s.Item
		}
	}
	if got == nil || len(got.Content) != 1 {
		t.Fatalf("no system item with one part in %v", evs)
	}
	p := got.Content[0]
	if p.Text != "Found 3 call sites of parse()." || string(p.Metadata) != `{"author":"/root/researcher","recipient":"/root"}` {
		t.Errorf("part %q %s, want the content with its author and recipient", p.Text, p.Metadata)
	}
}
