package claude

import (
	"strings"

	"github.com/agentnorm/agentnorm/universal"
)

// A sub-agent file read after the main transcript whose agentId no call
// has named yet may belong to a call that comes later in the input: a
// sub-agent that a sub-agent spawned (Claude Code 2.1.2xx writes it to the
// same subagents folder, agent-<id>.jsonl, its .meta.json naming
// parentAgentId and spawnDepth 2) is named by the result of the Agent call
// in its parent's file, and the files' ids are random, so in name order
// the nested one comes first about half of the time. Its lines are held
// (s.Unclaimed, up to maxUnclaimed bytes) until a call names the agent;
// then they are translated under it, in the order written. At the end of
// the input the lines still held are translated where they would have
// been: a file whose first prompt some call gave goes under that call,
// and the rest (2.0.x's warmup conversations, a compaction agent's file,
// a Workflow run's agents) are ignored as before.

// maxUnclaimed bounds the bytes of held sub-agent lines; a line beyond
// it is translated when it comes (ignored when no call spawned it).
const maxUnclaimed = 16 << 20

// holdUnclaimed holds the line just scanned (m, cleaned) when it is an
// entry of a sub-agent file, read after the main transcript, whose agent
// no call has named and whose first prompt no call gave.
func (t *Translator) holdUnclaimed(m universal.Message) bool {
	if !t.s.Main || t.releasing {
		return false
	}
	r := t.scan.Root()
	if !r.Get("isSidechain").Bool() { // a main file's entry: every one says false
		return false
	}
	a := r.Get("agentId").Str
	if a == "" || r.Get("parent_tool_use_id").Str != "" {
		return false
	}
	if _, ok := t.s.Agents[a]; ok {
		return false
	}
	if t.promptCall(r) != "" || t.s.UnclaimedSize+int64(len(m.Data)) > maxUnclaimed {
		return false
	}
	t.s.Unclaimed = append(t.s.Unclaimed, early{Agent: strings.Clone(a), Data: string(m.Data), Line: m.Line, TimeMS: m.TimeMS})
	t.s.UnclaimedSize += int64(len(m.Data))
	return true
}

// claim notes that a call named the agent: its held lines are translated
// after the line being translated (see releaseClaimed).
func (t *Translator) claim(agentID string) {
	for _, e := range t.s.Unclaimed {
		if e.Agent == agentID {
			t.claimed = append(t.claimed, e.Agent)
			return
		}
	}
}

// releaseClaimed translates the held lines of the agents claimed, in the
// order written; a line released may claim another agent (a sub-agent's
// call naming the sub-agent it spawned), whose lines follow.
func (t *Translator) releaseClaimed(dst []universal.Event) []universal.Event {
	for len(t.claimed) > 0 {
		a := t.claimed[0]
		t.claimed = t.claimed[1:]
		dst = t.releaseUnclaimed(dst, a)
	}
	t.claimed = t.claimed[:0]
	return dst
}

// releaseUnclaimed translates the held lines of the agent (all of them
// when agentID is ""), in the order written.
func (t *Translator) releaseUnclaimed(dst []universal.Event, agentID string) []universal.Event {
	if len(t.s.Unclaimed) == 0 {
		return dst
	}
	var release, keep []early
	for _, e := range t.s.Unclaimed {
		if agentID == "" || e.Agent == agentID {
			release = append(release, e)
			t.s.UnclaimedSize -= int64(len(e.Data))
		} else {
			keep = append(keep, e)
		}
	}
	t.s.Unclaimed = keep
	for _, e := range release {
		t.releasing = true
		dst = t.translate(dst, universal.Message{Data: []byte(e.Data), Line: e.Line, TimeMS: e.TimeMS})
		t.releasing = false
	}
	return dst
}
