package amp

import (
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// samePrompt reports whether two prompt texts are the same prompt.
func samePrompt(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }

// joinText joins the text parts: the text of the only one (a prompt is
// one text block), else a new string.
func joinText(parts []universal.Part) string {
	only := -1
	for i := range parts {
		if parts[i].Type != universal.PartText {
			continue
		}
		if only >= 0 {
			only = -1
			break
		}
		only = i
	}
	if only >= 0 {
		return parts[only].Text
	}
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
// a thread's user message): it ends the open turn and starts the next,
// unless it joins the open turn (promptJoins).
func (t *Translator) prompt(dst events, native string, parts []universal.Part) events {
	id := t.w.NewItemID()
	if t.promptJoins() {
		t.s.Joined++
		t.s.JoinedItems = append(t.s.JoinedItems, id)
	} else {
		dst = t.openTurn(dst)
	}
	text := joinText(parts)
	t.consumePrompt(text)
	t.s.Shown = append(t.s.Shown, text)
	t.s.LastRole = "user"
	if t.format == FormatStreamJSON {
		universal.MarkEcho(parts) // a live echo; a thread is a record
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: id, NativeItemID: native,
		Kind: universal.KindMessage, Role: universal.RoleUser, Content: parts,
	}, universal.SourceAgent, t.raw)
}

// promptJoins reports whether a prompt (a stream-json echo, a thread's
// user message) joins the open turn: the turn has shown its prompt and
// nothing came after it (no assistant message, no tool result). With --stream-json-input,
// 0.0.1789963237 and 0.0.1777897475 echo a stdin prompt when they send
// it, which can be before the previous prompt's answer; the answers then
// follow in order, with no line telling where one prompt's ends. Ending
// the first prompt's turn at the second echo would complete it with no
// answer and give its answer to the second prompt: the second prompt is
// shown in the open turn instead, and starts a turn of its own only when
// an answer is over (nextJoined). 0.0.1767830505's thread files hold such
// prompts as consecutive user messages.
func (t *Translator) promptJoins() bool {
	return t.w.Turn() != "" && t.s.Ended == "" &&
		t.s.LastRole == "user" && len(t.s.Shown) > 0
}

// nextJoined starts the turn of a prompt that joined the open turn
// (promptJoins) when a main assistant message follows a finished answer:
// the last main message ended complete with stop_reason end_turn and no
// thinking-only message is held open (0.0.1790142911 says end_turn of
// those too). The new turn has no user message of its own: its prompt
// was shown in the turn before, when nothing could tell yet whether the
// model would answer it apart, and is not shown twice; the turn's
// turn.started metadata prompt_item_id names that user message's item.
// When the model answers the prompts together (the answer calls tools,
// or ends the turn), nothing splits.
func (t *Translator) nextJoined(dst events) events {
	if t.s.Joined == 0 || t.w.Turn() == "" || t.s.LastRole != "assistant" || t.s.Held != "" ||
		t.s.Ended != "complete" || t.s.Stop != `"end_turn"` {
		return dst
	}
	joined, items, shown := t.s.Joined-1, t.s.JoinedItems, t.s.Shown
	if len(items) > 0 {
		t.s.PromptItem, items = items[0], items[1:]
	}
	dst = t.openTurn(dst)
	t.s.Joined, t.s.JoinedItems, t.s.Shown = joined, items, shown
	return dst
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
		dst = t.endTurn(dst, t.inferredStatus(), nil, universal.SourceDaemon, nil)
	}
	t.s.Shown, t.s.LastMsg = nil, ""
	var md []byte
	if t.s.RunInfo != "" {
		// The run information of the amp process the turn runs in.
		md, t.s.RunInfo = []byte(t.s.RunInfo), ""
	}
	if t.s.PromptItem != "" {
		// A joined prompt's turn (nextJoined): its user message's item.
		md, t.s.PromptItem = withMember(md, "prompt_item_id", t.s.PromptItem), ""
	}
	dst, _ = t.w.StartTurn(dst, "", md, universal.SourceDaemon, t.raw)
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

// inferredStatus is how the open turn ended when the next prompt starts
// another and nothing native said so: from the state of its last main
// assistant message.
func (t *Translator) inferredStatus() universal.TurnStatus {
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
	dst = t.release(dst)
	if md == nil {
		md = &jsonw.Object{}
		if n := len(t.s.Stop) + len(t.s.Model) + len(t.s.Elapsed); n > 0 {
			md.Grow(n + 48) // the object made once, not grown field by field
		}
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

// finish shows what the input left queued before the session ends. A
// turn still open stays open: Amp never finished it (no result line, or a
// thread that ends before the agent did), and Stream.End ends it
// interrupted, marked session_ending.
func (t *Translator) finish(dst events) events {
	if t.w.Ended() {
		return dst
	}
	if t.format == FormatJSONL {
		// A message still streaming is as its last copy had it; the turn
		// ends only where the agent went idle.
		dst = t.jsonlFlush(dst)
	}
	dst = t.release(dst)
	dst = t.flushRunInfo(dst)
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

// withMember returns JSON object md (nil for none) with member k: v added
// (v a string), in a new slice.
func withMember(md []byte, k, v string) []byte {
	var o jsonw.Object
	o.String(k, v)
	m := o.Bytes()
	if len(md) < 2 || md[0] != '{' {
		return m
	}
	if string(md) == "{}" {
		return m
	}
	b := make([]byte, 0, len(md)+len(m))
	b = append(b, md[:len(md)-1]...)
	b = append(b, ',')
	return append(b, m[1:]...)
}
