package claude

import (
	"encoding/json"
	"strings"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// startTurn opens a main turn. With pull, the oldest prompt the host sent
// and nobody showed yet becomes the turn's user message.
func (t *Translator) startTurn(dst events, src universal.Source, metadata []byte, pull bool) events {
	var raw []byte
	if src == universal.SourceAgent || len(metadata) == 0 {
		raw = t.raw
	}
	dst, id := t.w.StartTurn(dst, "", metadata, src, raw)
	t.s.Turn = &turn{ID: id}
	t.s.Echoed = t.s.Echoed[:0]
	for pull && len(t.s.Prompts) > 0 {
		p := t.s.Prompts[0]
		t.s.Prompts = t.s.Prompts[1:]
		dst = t.showPrompt(dst, p)
		// A stdin message with shouldQuery false starts no turn: the CLI
		// adds it to the conversation and merges it into the next
		// message that does query, so it belongs to that message's turn.
		pull = p.Native && gjson.Get(p.Raw, "shouldQuery").Type == gjson.False
	}
	return dst
}

// ensureTurn opens a synthetic main turn for content that arrives outside
// one: main-thread content (a stream picked up mid-turn, an older CLI that
// sends init once), and in a transcript the entries of a sub-agent file
// read on its own. Sub-agent content under a call may arrive between
// turns (a background agent, a sub-agent file read after the main one
// whose last turn is over) and stays outside them.
func (t *Translator) ensureTurn(dst events, scope string) events {
	if t.s.Turn != nil || (scope != "" && (!t.transcript || t.scopeParent(scope) != "")) {
		return dst
	}
	return t.startTurn(dst, universal.SourceDaemon, nil, true)
}

// showPrompt emits a prompt as a user message: native (a stdin message,
// with its raw, marked as an echo) or reported by the host (synthetic).
func (t *Translator) showPrompt(dst events, p prompt) events {
	t.s.Echoed = append(t.s.Echoed, p.Text)
	if !p.Native {
		return t.userMessage(dst, "", "", []universal.Part{universal.Text(p.Text)}, universal.SourceDaemon, nil)
	}
	raw := []byte(p.Raw)
	parts := []universal.Part{universal.Text(p.Text)}
	if c := gjson.GetBytes(raw, "message.content"); c.IsArray() {
		parts = promptParts(c)
	}
	parts = pastedParts(parts, gjson.GetBytes(raw, "pasted_content"))
	// The host's own stdin line, live: marked like an echo (see
	// universal's Conventions).
	universal.MarkEcho(parts)
	saved := t.raw
	t.raw = raw
	dst = t.userMessage(dst, p.UUID, "", parts, universal.SourceAgent, raw)
	t.raw = saved
	return dst
}

// reportPrompt handles a prompt the host reports having sent.
func (t *Translator) reportPrompt(dst events, text string) events {
	for _, p := range t.s.Prompts {
		if p.Native && p.Text == text {
			return dst // seen on stdin already
		}
	}
	if t.s.Turn != nil && len(t.s.Echoed) == 0 && t.w.Begun() {
		// The turn it starts is open and has shown no prompt yet.
		return t.showPrompt(dst, prompt{Text: text})
	}
	t.s.Prompts = append(t.s.Prompts, prompt{Text: text})
	return dst
}

// hostUser handles a user message the host wrote to stdin: the prompt of
// the next turn (the CLI answers it with system/init).
func (t *Translator) hostUser(dst events, r jsonscan.Value) events {
	c := r.Get("message.content")
	text := c.Str
	if c.IsArray() {
		text = textOf(promptParts(c))
	}
	p := prompt{Text: t.w.Copy(text), Native: true, UUID: t.w.Copy(r.Get("uuid").Str), Raw: string(t.raw)}
	for i, q := range t.s.Prompts {
		if !q.Native && q.Text == text {
			// The host reported it too: the native copy replaces it.
			t.s.Prompts[i] = p
			return dst
		}
	}
	if t.s.Turn != nil && len(t.s.Echoed) == 0 && t.w.Begun() {
		return t.showPrompt(dst, p)
	}
	t.s.Prompts = append(t.s.Prompts, p)
	return dst
}

// promptParts returns the parts of a content block array (host input).
func promptParts(c gjson.Result) []universal.Part {
	var parts []universal.Part
	c.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			parts = append(parts, universal.Text(b.Get("text").Str))
		case "image":
			parts = append(parts, anthropic.Image(b, nil))
		default:
			parts = append(parts, anthropic.JSONPart(b.Raw))
		}
		return true
	})
	return parts
}

// maxPasted is the most entries and blocks in all of a pasted_content
// list that Claude Code reads; it ignores a longer list.
const maxPasted = 1000

// pastedMetadata marks a part of a prompt the user pasted rather than
// typed.
const pastedMetadata = `{"pasted":true}`

// pastedParts appends to a stdin prompt's parts the text of its
// pasted_content (the Agent SDK's SDKUserMessage: content the user pasted
// rather than typed, each entry a string or an array of content blocks,
// whose text the CLI appends after the typed text, in order; blocks other
// than text are ignored, and so is a list of more than maxPasted entries
// and blocks in all). Each string and text block is a text part with
// metadata {"pasted": true}.
func pastedParts(parts []universal.Part, pasted gjson.Result) []universal.Part {
	if !pasted.IsArray() {
		return parts
	}
	n := 0
	pasted.ForEach(func(_, e gjson.Result) bool {
		n++
		// Blocks counted one by one: a list past the bound stops the
		// count, without making an array of it.
		if e.IsArray() {
			e.ForEach(func(_, _ gjson.Result) bool {
				n++
				return n <= maxPasted
			})
		}
		return n <= maxPasted
	})
	if n > maxPasted {
		return parts
	}
	add := func(s string) {
		if s != "" {
			parts = append(parts, universal.Part{Type: universal.PartText, Text: s, Metadata: json.RawMessage(pastedMetadata)})
		}
	}
	pasted.ForEach(func(_, e gjson.Result) bool {
		switch {
		case e.Type == gjson.String:
			add(e.Str)
		case e.IsArray():
			e.ForEach(func(_, b gjson.Result) bool {
				if b.Get("type").Str == "text" {
					add(b.Get("text").Str)
				}
				return true
			})
		}
		return true
	})
	return parts
}

// dropQueued forgets a queued prompt that the native input shows itself.
func (t *Translator) dropQueued(text string) {
	for i, p := range t.s.Prompts {
		if p.Text == text {
			t.s.Prompts = append(t.s.Prompts[:i], t.s.Prompts[i+1:]...)
			return
		}
	}
}

// endTranscriptTurn ends a transcript's open turn: transcripts have no
// result line, the next prompt (or the end of the file) ends a turn.
func (t *Translator) endTranscriptTurn(dst events, src universal.Source) events {
	if t.s.Turn == nil {
		return dst
	}
	dst = t.closeMsgs(dst, everyMsg, nil)
	status := universal.TurnCompleted
	switch {
	case t.s.Turn.Errored:
		status = universal.TurnError
	case t.s.Turn.Interrupted:
		status = universal.TurnInterrupted
	}
	var raw []byte
	if src == universal.SourceAgent {
		raw = t.raw
	}
	dst = t.w.EndTurn(dst, t.s.Turn.ID, status, nil, src, raw)
	t.s.Turn = nil
	if status != universal.TurnError {
		// The session's outcome is its last turn's: a turn the agent
		// finished after a failed one (the user said to continue once
		// a limit reset) leaves the session no longer failed, as a
		// stream's later successful result does.
		t.s.Last = outcome{}
	}
	return dst
}

// settle ends a transcript's turn as soon as the record shows the agent
// finished it: the entry after a final response (one that called no tools
// and stopped, see finalStop) is not another line of that response. A
// response without a recorded stop reason (older transcripts) is not
// settled by a progress entry, which may come between its lines.
func (t *Translator) settle(dst events, r jsonscan.Value, typ string) events {
	if t.s.Turn == nil || len(t.s.Turn.Background) > 0 && t.s.Continues {
		return dst
	}
	for _, m := range t.topMsgs() {
		if m.Live || m.Failed || !finalStop(m) {
			continue
		}
		if typ == "assistant" && (first(r.Get("message.id").Str, r.Get("uuid").Str) == m.ID ||
			m.Last != "" && r.Get("parentUuid").Str == m.Last) {
			return dst // more of the response (see chainedMsg)
		}
		if typ == "progress" || m.Stop == "" && bookkeeping(typ) {
			// May come between the lines of a response: progress always;
			// the CLI's own records (a prompt queued while the model
			// writes, a file snapshot) where the lines record no stop
			// reason, so that more blocks of the response may follow.
			return dst
		}
		if p := r.Get("parentUuid").Str; typ == "system" && p != "" && !t.s.Seen[p] {
			// A notice of the CLI's written ahead of its parent: one
			// from after the turn (a scheduled task firing, whose
			// parent is the turn's turn_duration) that the CLI wrote
			// while it was still writing the response's lines (each
			// block its own line, all after the response ended). More
			// of the response may follow: it does not show that the
			// response was the last.
			return dst
		}
		if m.Scope == "" && r.Get("isSidechain").Bool() && (typ == "user" || typ == "assistant") && !t.orphan(t.lineScope(r)) {
			// A sub-agent's file read after the main one: its entries
			// belong to turns of the main file (the last one, if open).
			// An orphan's (a warmup's) are no part of the session.
			return dst
		}
		dst = t.completeMsg(dst, m, universal.StatusCompleted, universal.SourceDaemon)
		if typ == "user" && stopHookFeedback(r) {
			// A Stop hook blocked the end: the agent goes on in this turn.
			t.s.Turn.Finished = false
			return dst
		}
		if typ == "attachment" && goalVerdict(r) {
			// The /goal Stop hook's verdict on the response: part of the
			// turn, which the entries after it end or continue.
			return dst
		}
		if t.done() {
			dst = t.endTranscriptTurn(dst, universal.SourceDaemon)
		}
		return dst
	}
	return dst
}

// bookkeeping reports the transcript entries the CLI writes on its own
// schedule, not as a step of the conversation: the only-transcript
// entries but attachments (hook output, a queued prompt handed to the
// model), which are.
func bookkeeping(typ string) bool {
	return typ != "attachment" && transcriptOnly(typ)
}

// stopHookFeedback reports the user line Claude Code writes when a Stop
// hook blocks the end of a turn (decision "block", a prompt hook's unmet
// condition): the hook's reason, fed to the model as a meta message
// "Stop hook feedback:\n[hook]: reason". The query loop goes on in the same
// turn (its one system/turn_duration comes after the continuation), so the
// final response before it did not end the turn.
func stopHookFeedback(r jsonscan.Value) bool {
	if !r.Get("isMeta").Bool() {
		return false
	}
	c := r.Get("message.content")
	text := c.Str
	if c.IsArray() {
		text = c.Get("0.text").Str
	}
	return strings.HasPrefix(text, "Stop hook feedback:")
}

// finish closes what the input left open before the session ends. A turn
// the agent never finished stays open: Stream.End ends it (interrupted,
// session_ending) and the session in error. A transcript's last turn ends
// completed when its last response called no tools (the agent finished
// it); a stream's turn ends only with its result.
func (t *Translator) finish(dst events) events {
	if t.w.Ended() {
		return dst
	}
	dst = t.dropCut(dst)
	if !t.transcript {
		dst = t.releaseEarly(dst, "") // no init came after them
	}
	if len(t.s.Collapses) > 0 {
		// Nothing but context-collapse commits (a file cut after them):
		// the session starts with no metadata of its own to show them.
		dst = t.w.Begin(dst, nil, universal.SourceDaemon, nil)
		dst = t.heldCollapses(dst)
	}
	if !t.transcript {
		dst = t.heldTurn(dst)
		if t.w.Begun() {
			dst = t.heldHooks(dst, false) // no init came after them
			dst = t.heldHooks(dst, true)
		}
		// A message still streaming was cut off.
		for _, m := range t.s.Msgs {
			if m.Live {
				m.Failed = true
			}
		}
	}
	dst = t.closeMsgs(dst, everyMsg, nil)
	if t.transcript {
		t.queuedReports()
	}
	if t.transcript && t.done() {
		dst = t.endTranscriptTurn(dst, universal.SourceDaemon)
	}
	for len(t.s.Prompts) > 0 {
		p := t.s.Prompts[0]
		t.s.Prompts = t.s.Prompts[1:]
		dst = t.showPrompt(dst, p)
	}
	return t.queuedAtEnd(dst)
}

func (t *Translator) endReason() universal.SessionEnded {
	d := universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}
	if t.s.Last.Failed {
		d.Reason, d.Message = universal.EndError, t.s.Last.Message
	}
	return d
}
