package amp

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// samePrompt reports whether two prompt texts are the same prompt.
func samePrompt(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }

// joinText joins the text parts.
func joinText(parts []universal.Part) string {
	var b strings.Builder
	for i := range parts {
		if parts[i].Type == universal.PartText {
			b.WriteString(parts[i].Text)
		}
	}
	return b.String()
}

// reportPrompt queues a prompt the host sent. Amp echoes prompts, so it is
// shown only if no user line shows it: a synthetic user message when a
// turn has to start without its echo, or at the end of the input.
func (t *Translator) reportPrompt(dst events, text string) events {
	for _, s := range t.s.Shown {
		if samePrompt(s, text) {
			return dst // echoed already
		}
	}
	t.s.Prompts = append(t.s.Prompts, text)
	return dst
}

// consumePrompt forgets the oldest queued prompt that a user line shows.
func (t *Translator) consumePrompt(text string) {
	for i, p := range t.s.Prompts {
		if samePrompt(p, text) {
			t.s.Prompts = append(t.s.Prompts[:i], t.s.Prompts[i+1:]...)
			return
		}
	}
}

// prompt shows a user prompt from the native input (a stream-json echo or
// a thread's user message): it ends the open turn and starts the next.
func (t *Translator) prompt(dst events, native string, parts []universal.Part) events {
	dst = t.openTurn(dst)
	text := joinText(parts)
	t.consumePrompt(text)
	t.s.Shown = append(t.s.Shown, text)
	t.s.LastRole = "user"
	if t.format == FormatStreamJSON {
		universal.MarkEcho(parts) // a live echo; a thread is a record
	}
	return t.userMessage(dst, native, "", parts, universal.SourceAgent, t.raw)
}

// showQueued shows the oldest queued prompt as a synthetic user message.
func (t *Translator) showQueued(dst events) events {
	if len(t.s.Prompts) == 0 {
		return dst
	}
	p := t.s.Prompts[0]
	t.s.Prompts = t.s.Prompts[1:]
	t.s.Shown = append(t.s.Shown, p)
	return t.userMessage(dst, "", "", []universal.Part{universal.Text(p)}, universal.SourceDaemon, nil)
}

func (t *Translator) userMessage(dst events, native, parent string, parts []universal.Part, src universal.Source, raw []byte) events {
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: native, ParentID: parent,
		Kind: universal.KindMessage, Role: universal.RoleUser, Content: parts,
	}, src, raw)
}

// openTurn ends the open turn (Amp writes no turn end: the next prompt is
// one) and starts a new one.
func (t *Translator) openTurn(dst events) events {
	if t.w.Turn() != "" {
		dst = t.endTurn(dst, t.inferredStatus(false), nil, universal.SourceDaemon, nil)
	}
	t.s.Shown = nil
	dst, _ = t.w.StartTurn(dst, "", nil, universal.SourceDaemon, t.raw)
	return dst
}

// ensureTurn opens a synthetic turn for content that arrives outside one
// (a stream picked up mid-turn, a prompt that was never echoed); a prompt
// the host reported becomes its user message.
func (t *Translator) ensureTurn(dst events) events {
	if t.w.Turn() != "" {
		return dst
	}
	dst = t.openTurn(dst)
	return t.showQueued(dst)
}

// inferredStatus is how the open turn ended when nothing native says so:
// from the state of its last main assistant message. atEnd: the input
// ended; a turn whose last message is the user's (a prompt, tool results)
// was still waiting for the agent.
func (t *Translator) inferredStatus(atEnd bool) universal.TurnStatus {
	if atEnd && t.s.LastRole != "assistant" {
		return universal.TurnInterrupted
	}
	switch t.s.Ended {
	case "", "complete":
		return universal.TurnCompleted
	case "error":
		return universal.TurnError
	}
	return universal.TurnInterrupted
}

// endTurn ends the open turn with metadata: the fields md holds (may be
// nil), then the last assistant message's stop_reason, and in a thread
// its model and the turn's turnElapsedMs.
func (t *Translator) endTurn(dst events, status universal.TurnStatus, md *jsonw.Object, src universal.Source, raw []byte) events {
	if md == nil {
		md = &jsonw.Object{}
	}
	md.Raw("stop_reason", t.s.Stop).OptString("model", t.s.Model).Raw("elapsed_ms", t.s.Elapsed)
	var b []byte
	if md.Len() > 0 {
		b = md.Bytes()
	}
	dst = t.w.EndTurn(dst, "", status, b, src, raw)
	t.s.resetTurn()
	return dst
}

// finish closes what the input left open before the session ends.
func (t *Translator) finish(dst events) events {
	if t.w.Ended() {
		return dst
	}
	if t.w.Turn() != "" {
		// stream-json: the process wrote no result for it (a crash, a cut
		// recording); the thread format ends its turn with the document.
		var md jsonw.Object
		md.String("reason", "the input ended before Amp's result line")
		dst = t.endTurn(dst, universal.TurnInterrupted, &md, universal.SourceDaemon, nil)
		t.s.Outcome = outcome{Seen: true, Failed: true, Message: "the input ended before Amp's result line"}
	}
	for len(t.s.Prompts) > 0 {
		dst = t.showQueued(dst)
	}
	return dst
}

// endReason is how the session ends at the end of the input.
func (t *Translator) endReason() universal.SessionEnded {
	d := universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent}
	o := t.s.Outcome
	switch {
	case o.Cancelled:
		d.Reason, d.Message = universal.EndTerminated, o.Message
	case o.Failed:
		d.Reason, d.Message = universal.EndError, o.Message
	case !o.Seen && t.format == FormatStreamJSON && t.w.Begun():
		d.Reason, d.Message = universal.EndError, "the input ended without Amp's result line"
	}
	return d
}
