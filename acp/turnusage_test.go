package acp_test

import (
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/reduce"
)

// TestTurnUsageRepeatsLastCall: Devin reports each model request's usage
// in a usage_update's _meta and ends the prompt with a usage that repeats
// the last request's, not the turn's (its own stats give the turn's
// output as the three requests' sum, 213, a public recording of its
// output shows): the turn's usage is its calls' sum. A turn usage that is
// not the last call's stays the turn's.
func TestTurnUsageRepeatsLastCall(t *testing.T) {
	calls := []string{
		`root-1 {"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"Looking."}}`,
		`root-1 {"sessionUpdate":"usage_update","used":66012,"size":200000,"_meta":{"cognition.ai/inputTokens":65971,"cognition.ai/outputTokens":41,"cognition.ai/cachedReadTokens":50}}`,
		`root-1 {"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Done."}}`,
		`root-1 {"sessionUpdate":"usage_update","used":66252,"size":200000,"_meta":{"cognition.ai/inputTokens":66125,"cognition.ai/outputTokens":127,"cognition.ai/cachedReadTokens":65970}}`,
		`root-1 {"sessionUpdate":"usage_update","used":66491,"size":200000,"_meta":{"cognition.ai/inputTokens":66446,"cognition.ai/outputTokens":45,"cognition.ai/cachedReadTokens":66124}}`,
	}
	for _, c := range []struct {
		name, usage string
		out         int64
	}{
		{"the last call's", `{"totalTokens":66491,"inputTokens":66446,"outputTokens":45,"cachedReadTokens":66124}`, 213},
		{"the turn's own", `{"totalTokens":198755,"inputTokens":198542,"outputTokens":213,"cachedReadTokens":132144}`, 213},
		{"a total that differs", `{"totalTokens":1000,"inputTokens":900,"outputTokens":100}`, 100},
	} {
		in := strings.Replace(subagentSession(calls...), `"result":{"stopReason":"end_turn"}`, `"result":{"stopReason":"end_turn","usage":`+c.usage+`}`, 1)
		evs := translateChecked(t, in)
		s, err := reduce.Replay(evs)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Usage.Total.OutputTokens; got == nil || *got != c.out {
			t.Errorf("%s: output tokens %v, want %d (%s)", c.name, deref(got), c.out, s.Usage.Source)
		}
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}
