package codex

import (
	"strconv"
	"strings"
	"time"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// A forked rollout (codex fork, a Desktop fork, a sub-agent spawned with
// its parent's context) starts with its own session_meta, which names the
// thread it was forked from (forked_from_id); then come that thread's
// session_meta (and its ancestors', for a fork of a fork) and a copy of
// its history, replayed as it was; then the fork's own turns. The copy is
// the parent's conversation, context of the fork and not new work: it
// makes no items and no turns of its own. What it held is one completed
// status item labelled fork_replay, before the fork's first turn, whose
// metadata has the threads replayed, how many lines, turns and tool calls,
// and the user and assistant messages ({role, text}). Its usage lines are
// the parent's and are not counted.
//
// No line marks where the copy ends. The fork's first own line is a
// task_started whose turn is newer than the fork itself: turn ids and
// thread ids are UUIDv7, whose first 48 bits are the creation time in
// milliseconds, so a turn the parent started before the fork is older
// than the fork's thread id. Without UUIDv7 ids, the line's timestamp is
// compared with the fork's session_meta timestamp (a weak fallback: 0.130
// and 0.135 stamp the copied lines with the time of the fork, so it only
// helps files that keep the original times); when neither tells, the
// first task_started ends the copy.

// forkReplay is what is kept of a fork's copy of its parent's history.
type forkReplay struct {
	Thread string `json:"thread"`         // the fork
	From   string `json:"from,omitempty"` // forked_from_id
	Time   string `json:"time,omitempty"` // the fork's session_meta timestamp
	// Cont says the fork continues the session's thread: its own turns
	// are the session's (a user's fork of the root thread read after it).
	Cont    bool     `json:"cont,omitempty"`
	Threads []string `json:"threads,omitempty"`
	Lines   int      `json:"lines,omitempty"`
	Turns   int      `json:"turns,omitempty"`
	Calls   int      `json:"calls,omitempty"`
	// Event and Resp are the messages of the event copy and of the model
	// history copy; the event copy is used when the file has one.
	Event []forkMsg `json:"event,omitempty"`
	Resp  []forkMsg `json:"resp,omitempty"`
}

type forkMsg struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// forkMeta records the fork lineage of the thread a session_meta
// describes, so that the session_meta of the thread it was forked from
// starts the replayed copy.
func (t *Translator) forkMeta(p jsonscan.Value, id string) {
	t.st.ForkID = t.w.Copy(id)
	t.st.ForkFrom = t.w.Copy(p.Get("forked_from_id").Str)
	t.st.ForkTime = t.w.Copy(p.Get("timestamp").Str)
}

// startsReplay reports whether a session_meta with this id is the copy of
// the current thread's parent.
func (t *Translator) startsReplay(id string) bool {
	return t.st.Fork == nil && t.st.ForkFrom != "" && id == t.st.ForkFrom && (t.st.ForkID == t.st.Cur || t.st.ForkCont)
}

// subAgentMeta reports whether a session_meta describes a sub-agent's
// thread (spawned by another agent, not forked by the user).
func subAgentMeta(p jsonscan.Value) bool {
	return p.Get("parent_thread_id").Str != "" || p.Get("thread_source").Str == "subagent" || p.Get("source.subagent").Exists()
}

// replayLine handles a line while a fork's copy of its parent's history
// is read: it is recorded, unless it is the fork's own first turn, which
// ends the copy (ok false: the line is then translated as usual).
func (t *Translator) replayLine(dst []event, typ string, p jsonscan.Value, ts string) ([]event, bool) {
	f := t.st.Fork
	if typ == "session_meta" {
		if id := p.Get("id").Str; id != "" && id != f.Thread {
			f.Threads = append(f.Threads, strings.Clone(id))
		}
		f.Lines++
		return dst, true
	}
	pt := p.Get("type").Str
	if typ == "event_msg" && (pt == "task_started" || pt == "turn_started") {
		id := p.Get("turn_id").Str
		if id == "" {
			id = p.Get("turnId").Str
		}
		if f.own(id, ts) {
			return t.endReplay(dst), false
		}
		f.Turns++
	}
	f.Lines++
	switch typ {
	case "event_msg":
		switch pt {
		case "user_message", "agent_message":
			role := "user"
			if pt == "agent_message" {
				role = "assistant"
			}
			if s := p.Get("message").Str; s != "" {
				f.Event = append(f.Event, forkMsg{Role: role, Text: strings.Clone(s)})
			}
		}
	case "response_item":
		switch pt {
		case "message":
			role := p.Get("role").Str
			if (role == "user" && !injected(p, &t.text)) || role == "assistant" {
				text := joinTexts(p.Sub("content"), "text")
				if text != "" {
					f.Resp = append(f.Resp, forkMsg{Role: role, Text: strings.Clone(text)})
				}
			}
		case "function_call", "custom_tool_call", "local_shell_call", "tool_search_call", "web_search_call", "image_generation_call":
			f.Calls++
		}
	}
	return dst, true
}

// own reports whether a turn starting in the copy is the fork's own.
func (f *forkReplay) own(turn, ts string) bool {
	if tm, ok := uuid7Millis(turn); ok {
		if fm, ok := uuid7Millis(f.Thread); ok {
			return tm >= fm
		}
	}
	a, errA := time.Parse(time.RFC3339Nano, ts)
	b, errB := time.Parse(time.RFC3339Nano, f.Time)
	if errA == nil && errB == nil {
		return !a.Before(b)
	}
	return true
}

// uuid7Millis returns the creation time of a version 7 UUID in
// milliseconds.
func uuid7Millis(id string) (int64, bool) {
	if len(id) != 36 || id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-' || id[14] != '7' {
		return 0, false
	}
	ms, err := strconv.ParseInt(id[:8]+id[9:13], 16, 64)
	return ms, err == nil
}

// endReplay ends the copy of the parent's history: the fork's thread is
// current again, and what the copy held becomes the fork_replay metadata.
func (t *Translator) endReplay(dst []event) []event {
	f := t.st.Fork
	if f == nil {
		return dst
	}
	t.st.Fork = nil
	thread := f.Thread
	if f.Cont {
		thread = t.st.Thread
	}
	t.st.Cur = thread
	t.st.ForkFrom, t.st.ForkID, t.st.ForkCont = "", "", false
	o := obj()
	o.String("thread_id", f.Thread)
	o.OptString("forked_from_id", f.From)
	var threads []byte
	threads = append(threads, '[')
	for i, th := range f.Threads {
		if i > 0 {
			threads = append(threads, ',')
		}
		threads = jsonw.AppendString(threads, th)
	}
	threads = append(threads, ']')
	o.Raw("threads", string(threads))
	o.Int("lines", int64(f.Lines)).Int("turns", int64(f.Turns)).Int("tool_calls", int64(f.Calls))
	msgs := f.Event
	if len(msgs) == 0 {
		msgs = f.Resp
	}
	var mb []byte
	mb = append(mb, '[')
	for i, m := range msgs {
		if i > 0 {
			mb = append(mb, ',')
		}
		mb = append(mb, obj().String("role", m.Role).String("text", m.Text).Bytes()...)
	}
	mb = append(mb, ']')
	o.Raw("messages", string(mb))
	meta := o.Bytes()
	detail := "thread " + f.Thread + " forked from " + f.From + ": its history replayed (" + strconv.Itoa(f.Turns) + " turns)"
	if !t.w.Begun() {
		// The fork is the file's thread: the item comes first once the
		// session has started (its settings follow the fork's first
		// task_started), before the fork's first turn.
		put(&t.st.Meta, "fork_replay", string(meta))
		put(&t.st.Meta, "fork_detail", detail)
		return dst
	}
	return t.status(dst, "", t.copyThread(thread), "fork_replay", detail, meta, daemon, nil)
}

// forkStatus emits the fork_replay item kept for the session's start.
func (t *Translator) forkStatus(dst []event) []event {
	meta, ok := t.st.Meta["fork_replay"]
	if !ok {
		return dst
	}
	detail := t.st.Meta["fork_detail"]
	delete(t.st.Meta, "fork_replay")
	delete(t.st.Meta, "fork_detail")
	// Not t.status: the user message held for the fork's first turn
	// stays held until that turn starts.
	n := t.newItem("", kindStatus, "")
	n.Done = true
	return t.w.Complete(dst, universal.Item{
		ItemID:  n.ID,
		Kind:    universal.KindStatus,
		Content: []part{{Type: universal.PartStatus, Label: "fork_replay", Detail: detail, Metadata: []byte(meta)}},
	}, daemon, nil)
}
