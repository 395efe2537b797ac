package claude

import (
	"errors"
	"fmt"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// streamEvent translates a stream_event line (--include-partial-messages):
// a raw Anthropic streaming event of the API message api_message_id.
func (t *Translator) streamEvent(dst events, r, ev jsonscan.Value, sc sc) events {
	// One walk finds the fields of a delta (the hot path); the last of
	// duplicate members counts. It also finds the index of a block's
	// start and stop, the first of duplicates there, as Get finds.
	var typ, idx, delta, firstIdx jsonscan.Value
	ev.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type":
			typ = v
		case "index":
			idx = v
			jsonscan.KeepFirst(&firstIdx, v)
		case "delta":
			delta = v
		}
		return true
	})
	switch et := typ.Str(); et {
	case "content_block_delta":
		return t.blockDelta(dst, idx, delta, sc)
	case "content_block_start":
		return t.blockStart(dst, ev, firstIdx, sc)
	case "content_block_stop":
		return t.blockStop(dst, firstIdx, sc)
	case "message_start":
		return t.messageStart(dst, ev, sc)
	case "message_delta":
		return t.messageDelta(dst, ev, sc)
	case "message_stop":
		return t.messageStop(dst, r, sc)
	case "ping":
		return dst
	case "goal_state":
		// Qwen Code's goal tracking ({"goal_state":{"goal":…,"activity":…}}):
		// no content of the conversation.
		return dst
	case "error":
		e := ev.Get("error")
		msg := first(e.Get("message").Str, e.Get("type").Str, "stream error")
		// The CLI retries a broken stream (observed: a non-streaming
		// retry); the turn's result says whether it failed.
		return t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
			Message: t.w.Copy(msg), Code: t.w.Copy(e.Get("type").Str), Details: jsonw.AppendRaw(nil, ev.Raw()), WillRetry: true,
		}, t.raw)
	case "":
		return t.unparsed(dst, "event.type", errors.New("stream_event without an event type"))
	default:
		return t.unparsed(dst, "event.type", fmt.Errorf("unknown stream event %q", et))
	}
}

// sc names where a stream event belongs: the scope (parent_tool_use_id)
// and the API message (api_message_id, "" in older versions); display is
// the line's thinking_display (see streamDisplay).
type sc struct {
	scope, id string
	display   jsonscan.Value
}

// streamDisplay keeps how the thinking of a streamed thinking block was
// asked to be shown (thinking_display, "summarized": a summary of it) for
// its reasoning part's metadata: 2.1.285 to 2.1.329 write it on the stream
// events of the block only, not on the assistant line (2.1.33x write it
// there too, with the duration).
func (t *Translator) streamDisplay(s *slot, display jsonscan.Value) {
	if s.Display == "" && display.Type() == gjson.String && display.Str() != "" {
		s.Display = t.w.Copy(display.Str())
	}
}

// streamMsg returns the message a stream event belongs to, opening it when
// the stream is picked up mid-message.
func (t *Translator) streamMsg(dst events, c sc) (events, *message) {
	scope, id := c.scope, c.id
	if id == "" {
		id = t.s.Cur[scope]
	}
	if m := t.findMsg(scope, id); m != nil {
		return dst, m
	}
	dst = t.ensureTurn(dst, scope)
	m := t.newMsg(scope, id)
	m.Live = true
	return dst, m
}

func (t *Translator) messageStart(dst events, ev jsonscan.Value, c sc) events {
	scope := c.scope
	msg := ev.Sub("message")
	id := first(msg.Get("id").Str, c.id)
	dst = t.ensureTurn(dst, scope)
	m := t.findMsg(scope, id)
	if m == nil {
		// A message still streaming in this scope was cut without a
		// message_stop; messages assembled from lines are complete.
		for _, o := range t.scopeMsgs(scope) {
			if o.Live {
				o.Failed = true
			}
		}
		dst = t.closeMsgs(dst, inScope(scope), nil)
		m = t.newMsg(scope, id)
	}
	m.Live = true
	if tk, ok := anthropic.ReadUsage(msg.Sub("usage")); ok {
		m.Usage = m.keepUsage(&tk)
	}
	if mdl := msg.Get("model").Str; mdl != "" && mdl != syntheticModel {
		m.Model = t.w.Copy(mdl)
	}
	if t.s.Cur == nil {
		t.s.Cur = map[string]string{}
	}
	t.s.Cur[m.Scope] = m.ID
	return dst
}

func (t *Translator) blockStart(dst events, ev, idx jsonscan.Value, c sc) events {
	if idx.Type() != gjson.Number {
		return t.unparsed(dst, "event.index", errors.New("content_block_start without an index"))
	}
	i := int(idx.Int())
	dst, m := t.streamMsg(dst, c)
	m.Open = i
	if b := m.block(i); b != nil {
		if !b.Stopped {
			return dst // a repeated start
		}
		// Qwen Code numbers every block of a response 0, each with its
		// own assistant line: the stopped block gives its index up.
		b.Index = -1
	}
	cb := ev.Sub("content_block")
	var typ universal.PartType
	var text string
	bt := cb.Get("type").Str
	switch bt {
	case "text":
		typ, text = universal.PartText, cb.Get("text").Str
	case "thinking":
		typ, text = universal.PartReasoning, cb.Get("thinking").Str
	case "redacted_thinking":
		typ = universal.PartReasoning
	case "tool_use", "server_tool_use", "mcp_tool_use":
		id := cb.Get("id").Str
		if id == "" {
			return t.unparsed(dst, "event.content_block.id", fmt.Errorf("%s block without an id", bt))
		}
		m.Blocks = append(m.Blocks, block{Index: i, Slot: -1, Tool: t.w.Copy(id)})
		if tl := t.toolFor(id); tl != nil && !reused(tl, m) {
			return dst
		}
		dst = t.ensureStarted(dst, m, universal.SourceAgent)
		dst, _ = t.startTool(dst, m, id, cb.Get("name").Str, universal.SourceAgent, "")
		return dst
	default:
		// Kept whole; the complete assistant line gives its content.
		typ = universal.PartJSON
	}
	si := m.addSlot(typ, i)
	if bt == "redacted_thinking" {
		m.Slots[si].Private, m.Slots[si].Meta = true, `{"redacted":true}`
	}
	if typ == universal.PartJSON {
		m.Slots[si].Final, m.Slots[si].HasFinal = t.w.Copy(cb.Raw()), true
	}
	m.Blocks = append(m.Blocks, block{Index: i, Slot: si})
	if m.Started {
		// The block takes its place now, so that one that streams nothing
		// (JSON, redacted thinking, an empty text) stays in block order
		// among those that do.
		var pi int
		if dst, pi = t.w.AddPart(dst, m.ItemID, m.Slots[si].part("", true)); pi >= 0 {
			m.Slots[si].Part, m.Parts = pi, pi+1
		}
	}
	if typ == universal.PartReasoning {
		t.streamDisplay(&m.Slots[si], c.display)
	}
	if typ != universal.PartJSON {
		dst = t.slotDelta(dst, m, si, text)
	}
	return dst
}

// blockDelta is the hot path: one text, thinking or tool-argument chunk.
func (t *Translator) blockDelta(dst events, idx, d jsonscan.Value, c sc) events {
	if idx.Type() != gjson.Number {
		return t.unparsed(dst, "event.index", errors.New("content_block_delta without an index"))
	}
	i := int(idx.Int())
	// One walk finds the delta's type and its chunk, whichever field
	// holds it (the first of duplicates, as Get finds).
	var dtv, text, thinking, partial, sig jsonscan.Value
	d.Members(func(k string, v jsonscan.Value) bool {
		var p *jsonscan.Value
		switch k {
		case "type":
			p = &dtv
		case "text":
			p = &text
		case "thinking":
			p = &thinking
		case "partial_json":
			p = &partial
		case "signature":
			p = &sig
		}
		if p != nil {
			jsonscan.KeepFirst(p, v)
		}
		return true
	})
	dst, m := t.streamMsg(dst, c)
	b := m.block(i)
	dt := dtv.Str()
	var want universal.PartType
	switch dt {
	case "text_delta":
		want = universal.PartText
	case "thinking_delta", "signature_delta":
		want = universal.PartReasoning
	}
	si := -1
	if want != "" {
		if si = t.deltaSlot(m, b, i, want); si < 0 {
			return t.unparsed(dst, "event.delta.type", fmt.Errorf("%s for block %d, which is not a %s block", dt, i, want))
		}
	}
	switch dt {
	case "text_delta":
		t.scan.Mark(&t.delta, text)
		return t.slotDelta(dst, m, si, text.Str())
	case "thinking_delta":
		t.scan.Mark(&t.delta, thinking)
		if m.Slots[si].Display == "" {
			t.streamDisplay(&m.Slots[si], c.display)
		}
		// Redacted thinking streams "" with estimated_tokens: nothing to add.
		return t.slotDelta(dst, m, si, thinking.Str())
	case "signature_delta":
		// Claude Code sends one signature delta a block; more are
		// appended, not the signature so far copied again with each.
		s := &m.Slots[si]
		sig.Extend(&s.Signature, &s.sig)
		return dst
	case "input_json_delta":
		if b == nil || b.Tool == "" {
			return t.unparsed(dst, "event.index", fmt.Errorf("input_json_delta for block %d, which is not a tool call", i))
		}
		tl := t.toolFor(b.Tool)
		if tl == nil || !t.w.IsOpen(tl.ItemID) {
			return dst // the call completed already (its final input is known)
		}
		return t.w.Delta(dst, tl.ItemID, 0, universal.PartToolCall, partial.Str(), universal.SourceAgent, t.raw)
	case "citations_delta":
		return dst // citations come with the complete text block
	default:
		return t.unparsed(dst, "event.delta.type", fmt.Errorf("unknown delta %q", dt))
	}
}

// deltaSlot returns the slot of a streamed block, creating it when the
// block's start was not seen; -1 when the block is not of type typ (a
// text delta for a thinking block, any delta for a JSON block).
func (t *Translator) deltaSlot(m *message, b *block, index int, typ universal.PartType) int {
	if b != nil && b.Slot >= 0 {
		if m.Slots[b.Slot].Type != typ {
			return -1
		}
		return b.Slot
	}
	si := m.addSlot(typ, index)
	m.Blocks = append(m.Blocks, block{Index: index, Slot: si})
	return si
}

func (t *Translator) blockStop(dst events, idx jsonscan.Value, c sc) events {
	i := int(idx.Int())
	dst, m := t.streamMsg(dst, c)
	if m.Open == i {
		m.Open = -1
	}
	b := m.block(i)
	if b != nil {
		b.Stopped = true
	}
	switch {
	case b == nil:
	case b.Slot >= 0:
		m.Slots[b.Slot].Stopped = true
	default:
		// A tool call whose complete line has not come yet: its streamed
		// arguments are final now, if they are whole (the CLI also stops
		// blocks of a broken stream; message_stop then says so).
		if tl := t.toolFor(b.Tool); tl != nil && !tl.Done && t.w.IsOpen(tl.ItemID) && gjson.Valid(t.w.StreamedText(tl.ItemID, 0)) {
			dst = t.closeTool(dst, tl, universal.StatusCompleted, universal.SourceAgent)
		}
	}
	return dst
}

func (t *Translator) messageDelta(dst events, ev jsonscan.Value, c sc) events {
	dst, m := t.streamMsg(dst, c)
	if sr := ev.Get("delta.stop_reason").Str; sr != "" {
		m.Stop = t.w.Copy(sr)
	}
	tk, ok := anthropic.ReadUsage(ev.Sub("usage"))
	if !ok {
		return dst
	}
	u := tk.Usage() // copied into the event's data by usage
	var total int64
	if m.Usage != nil {
		u = overlay(*m.Usage, u, &total)
	}
	return t.usage(dst, universal.ScopeCall, u, nil, nil, t.callMD(m), universal.SourceAgent)
}

// keptUsage returns the counts tk as a Usage the translator keeps: the
// Usage and its counts in one allocation.
func keptUsage(tk *anthropic.Tokens) *universal.Usage {
	return new(keptUsageMem).keep(tk)
}

// keptUsageMem is the memory of a kept Usage: the Usage and its counts.
type keptUsageMem struct {
	u  universal.Usage
	tk anthropic.Tokens
}

// keep sets k to the counts tk and returns its Usage.
func (k *keptUsageMem) keep(tk *anthropic.Tokens) *universal.Usage {
	k.tk = *tk
	k.u = k.tk.Usage()
	return &k.u
}

// keepUsage is keptUsage in the memory newMsg made for the message's
// first usage, while it is unused: a streamed message's message_start
// usage then takes no allocation of its own. The memory is used once, so
// a Usage given out before is never written again.
func (m *message) keepUsage(tk *anthropic.Tokens) *universal.Usage {
	if k := m.spare; k != nil {
		m.spare = nil
		return k.keep(tk)
	}
	return keptUsage(tk)
}

// overlay returns base with every count that over reports replaced: the
// message_start counts completed by message_delta's. Their total is
// written to *total, memory the caller gives.
func overlay(base, over universal.Usage, total *int64) universal.Usage {
	pick := func(b, o *int64) *int64 {
		if o != nil {
			return o
		}
		return b
	}
	u := universal.Usage{
		InputTokens:       pick(base.InputTokens, over.InputTokens),
		CachedInputTokens: pick(base.CachedInputTokens, over.CachedInputTokens),
		CacheWriteTokens:  pick(base.CacheWriteTokens, over.CacheWriteTokens),
		OutputTokens:      pick(base.OutputTokens, over.OutputTokens),
		ReasoningTokens:   pick(base.ReasoningTokens, over.ReasoningTokens),
	}
	if u.InputTokens != nil && u.OutputTokens != nil {
		*total = *u.InputTokens + *u.OutputTokens
		u.TotalTokens = total
	}
	return u
}

func (t *Translator) messageStop(dst events, r jsonscan.Value, c sc) events {
	dst, m := t.streamMsg(dst, c)
	ab := r.Get("abandoned_blocks")
	if !ab.Exists() {
		return t.completeMsg(dst, m, msgStatus(m), universal.SourceAgent)
	}
	// The stream broke: the CLI closed it with synthetic stops and retries
	// the request. What streamed is not an answer.
	from := int(ab.Get("from_block_index").Int())
	m.Failed = true
	for _, b := range m.Blocks {
		if b.Tool == "" || b.Index < from {
			continue
		}
		if tl := t.toolFor(b.Tool); tl != nil && t.w.IsOpen(tl.ItemID) {
			dst = t.closeTool(dst, tl, universal.StatusFailed, universal.SourceAgent)
		}
	}
	dst = t.completeMsg(dst, m, universal.StatusFailed, universal.SourceAgent)
	var o jsonw.Object
	o.Raw("abandoned_blocks", ab.Raw)
	return t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
		Message:   "the response stream broke off; Claude Code retries the request",
		Code:      "stream_abandoned",
		Details:   o.Bytes(),
		WillRetry: true,
	}, t.raw)
}
