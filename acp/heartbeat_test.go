package acp_test

import (
	"testing"

	"github.com/agentnorm/agentnorm/universal"
)

// TestThoughtHeartbeat: Cursor's ACP agent repeats its thinking
// placeholder as a thought chunk marked annotations._meta.heartbeat, with
// the time waited (a public recording of its traffic): no reasoning. The
// reasoning was "Turning it off and on again...Turning it off and on
// again... (12s)".
func TestThoughtHeartbeat(t *testing.T) {
	evs := translateChecked(t, subagentSession(
		`root-1 {"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"Turning it off and on again..."}}`,
		`root-1 {"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"Turning it off and on again... (12s)","annotations":{"_meta":{"heartbeat":true,"elapsedSeconds":12,"heartbeatNumber":1}}}}`,
		`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The port is 8888."}}`,
	))
	var reasoning []string
	for _, it := range completedItems(t, evs) {
		for _, p := range it.Content {
			if p.Type == universal.PartReasoning {
				reasoning = append(reasoning, p.Text)
			}
		}
	}
	if len(reasoning) != 1 || reasoning[0] != "Turning it off and on again..." {
		t.Errorf("reasoning %q", reasoning)
	}
}
