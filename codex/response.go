package codex

import (
	"strings"

	"github.com/agentnorm/agentnorm/universal"
)

// One model response is one assistant message item (the Conventions of
// package universal). Codex reports a response's reasoning and text as
// separate native items (reasoning, agentMessage, plan; exec's reasoning
// and agent_message; a rollout's reasoning and message lines), and its
// tool calls as items of their own: the first of them in a response starts
// the response's message item, each native reasoning section or message
// becomes a part of it, and the response's tool calls and their results
// hang under it. A response lasts until a tool result, a user message or
// the end of the turn; its message is completed then (failed when a
// native item in it never completed). A tool result does not end it at
// once: Codex runs a response's calls one after the other and the live
// formats show each call start after the previous one's result, so a
// response ends when, after a result, the next response shows itself (a
// reasoning or message item, even one without text) — parallel calls
// then stay under one message, as the rollout of the same session shows
// them.

// respThread returns the key of a thread's responses: "" for the root.
func (t *Translator) respThread(thread string) string {
	if t.isRoot(thread) {
		return ""
	}
	return thread
}

// openResp returns the thread's open response, nil when there is none.
func (t *Translator) openResp(thread string) *resp {
	k := t.respThread(thread)
	for _, r := range t.st.Resps {
		if r.Thread == k {
			return r
		}
	}
	return nil
}

// respByID returns the open response whose message item is id.
func (t *Translator) respByID(id string) *resp {
	for _, r := range t.st.Resps {
		if r.ID == id {
			return r
		}
	}
	return nil
}

func (t *Translator) dropResp(r *resp) {
	for i, x := range t.st.Resps {
		if x == r {
			t.st.Resps = append(t.st.Resps[:i], t.st.Resps[i+1:]...)
			return
		}
	}
}

// response returns the thread's open response, starting its message item
// when none is open (a prompt the agent did not echo comes first). fresh
// says a reasoning or message item asks: after a tool result, it starts
// the next response.
func (t *Translator) response(dst []event, thread, native string, fresh bool, src universal.Source, raw []byte) ([]event, *resp) {
	dst = t.beforeAgentItem(dst, thread)
	if r := t.openResp(thread); r != nil {
		switch {
		case !t.w.IsOpen(r.ID):
			t.dropResp(r)
		case fresh && r.Resulted:
			dst = t.completeResp(dst, r, false)
		default:
			return dst, r
		}
	}
	r := t.resps.Alloc(2, respBlock)
	*r = resp{ID: t.w.NewItemID(), Thread: strings.Clone(t.respThread(thread))}
	t.st.Resps = append(t.st.Resps, r)
	if r.Thread != "" {
		t.st.ChildItems = append(t.st.ChildItems, childItem{Thread: r.Thread, ID: r.ID})
	}
	if src == daemon {
		raw = nil
	}
	dst = t.w.StartItem(dst, universal.Item{
		ItemID:       r.ID,
		NativeItemID: native,
		ParentID:     t.parentOf(thread),
		Kind:         universal.KindMessage,
		Role:         universal.RoleAssistant,
	}, src, raw)
	return dst, r
}

// resulted records that a tool of a response has its result: the next
// reasoning or message item starts the next response.
func (t *Translator) resulted(n *nitem) {
	if n.User {
		return
	}
	if r := t.respByID(n.Parent); r != nil {
		r.Resulted = true
	}
}

// nextResponse ends the thread's response when one of its tools has its
// result: a reasoning item without text (nothing to show) still marks
// the next response.
func (t *Translator) nextResponse(dst []event, thread string) []event {
	if r := t.openResp(thread); r != nil && r.Resulted {
		dst = t.completeResp(dst, r, false)
	}
	return dst
}

// answered reports whether the root thread's open response is an answer:
// it has text and called no tool.
func (t *Translator) answered() bool {
	r := t.openResp("")
	if r == nil || r.Calls {
		return false
	}
	it, ok := t.w.Tracked(r.ID)
	if !ok {
		return false
	}
	for i, p := range it.Content {
		text := p.Text
		for _, f := range r.Final {
			if f.I == i && f.Set {
				text = f.Text
			}
		}
		if p.Type == universal.PartText && text != "" {
			return true
		}
	}
	return false
}

// endResponse completes the thread's open response: its message item with
// the final content of its parts, failed when a native item in it never
// completed.
func (t *Translator) endResponse(dst []event, thread string) []event {
	r := t.openResp(thread)
	if r == nil {
		return dst
	}
	return t.completeResp(dst, r, false)
}

// completeResp completes a response's message; cut says the response was
// cut short (its turn was interrupted or failed): the message fails.
func (t *Translator) completeResp(dst []event, r *resp, cut bool) []event {
	// Results held for a complete output that never came complete first.
	dst = t.flushHeld(dst, r.ID)
	t.dropResp(r)
	it, ok := t.w.Tracked(r.ID)
	if !ok {
		return dst
	}
	for _, f := range r.Final {
		if f.I < 0 || f.I >= len(it.Content) {
			continue
		}
		p := &it.Content[f.I]
		if f.Set {
			p.SetStreamed(f.Text)
		}
		if f.Meta != nil {
			p.Metadata = f.Meta
		}
	}
	if r.Open > 0 || cut {
		it.Status = universal.StatusFailed
	}
	return t.w.Complete(dst, it, daemon, nil)
}

// endResponses completes every open response (the turn ends; cut: it was
// interrupted or failed, and so were they).
func (t *Translator) endResponses(dst []event, cut bool) []event {
	for len(t.st.Resps) > 0 {
		dst = t.completeResp(dst, t.st.Resps[0], cut)
	}
	return dst
}

// addPart appends a part (its text so far as given) to a response's
// message and returns its index.
func (t *Translator) addPart(dst []event, r *resp, p part) ([]event, int) {
	return t.w.AddPart(dst, r.ID, p)
}

// finalize records the final content of part i of a response's message:
// the text it adds to what streamed is streamed now (a client sees the
// text when the native item completes, not when the response ends); a
// text that differs is applied when the message completes.
func (t *Translator) finalize(dst []event, r *resp, i int, p *part, raw []byte) []event {
	final := p.Streamed()
	streamed := t.w.StreamedText(r.ID, i)
	f := finalPart{I: i, Meta: p.Metadata}
	switch {
	case final == streamed:
	case strings.HasPrefix(final, streamed):
		dst = t.w.Delta(dst, r.ID, i, p.Type, final[len(streamed):], daemon, raw)
	default:
		// Kept until the message completes: the part's text may be the
		// line's (see msgStr).
		f.Text, f.Set = t.w.Copy(final), true
	}
	if !f.Set && f.Meta == nil {
		return dst
	}
	for j := range r.Final {
		if r.Final[j].I == i {
			r.Final[j] = f
			return dst
		}
	}
	r.Final = append(r.Final, f)
	return dst
}

// nativeIn registers a native message or reasoning item as parts of the
// response r (not yet any part).
func (t *Translator) nativeIn(key string, kind uint8, thread string, r *resp) *nitem {
	n := t.item(key)
	switch {
	case n != nil:
		n.PI = nil
	case key == "":
		// Nothing looks a native item without a key up again: the
		// translator's one such item stands for it (a rollout's reasoning
		// and message events, one per message).
		t.loose = nitem{Kind: kind, Thread: t.copyThread(thread), Turn: t.w.Turn(), PI: t.loose.PI[:0]}
		n = &t.loose
	default:
		n = t.items.Alloc(2, itemBlock)
		*n = nitem{Kind: kind, Thread: t.copyThread(thread), Turn: t.w.Turn()}
		t.st.addItem(t.w.Copy(key), n)
	}
	n.ID = r.ID
	n.Parts = nil
	n.Counted = true
	r.Open++
	return n
}

// settleNative marks a native message or reasoning item complete in its
// response.
func (t *Translator) settleNative(n *nitem, r *resp) {
	n.Done = true
	if n.Counted && r != nil && r.Open > 0 {
		r.Open--
	}
	n.Counted = false
}

// partFor returns the index of the part for position i of a native item,
// adding parts (like p, without text) up to it.
func (t *Translator) partFor(dst []event, n *nitem, r *resp, i int, p part) ([]event, int) {
	for len(n.PI) <= i {
		q := p
		q.SetStreamed("")
		q.Rewritten = false
		var idx int
		dst, idx = t.addPart(dst, r, q)
		if idx < 0 {
			return dst, -1
		}
		n.PI = append(n.PI, idx)
	}
	return dst, n.PI[i]
}
