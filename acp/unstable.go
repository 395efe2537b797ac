package acp

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// The unstable session updates the unstable schema defines: plans by id
// (plan_update, plan_removed) and context compactions (compaction_update,
// compaction_summary_chunk). An update in a shape the schema does not
// define is agent.unparsed, as before the schema settled them.

// unsettled reports an unstable update whose shape or value the schema
// does not define.
func (t *Translator) unsettled(dst []universal.Event, in *input, kind string) []universal.Event {
	return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: session update %q", errUnstable, kind), in.raw)
}

// planUpdate translates plan_update: a plan identified by planId, given
// whole as entries (a status item labelled plan, as the stable plan), a
// file's URI or markdown text.
func (t *Translator) planUpdate(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	p := u.Sub("plan")
	id := p.Sub("planId")
	if !p.IsObject() || id.Type() != gjson.String {
		return t.unsettled(dst, in, "plan_update")
	}
	var md jsonw.Object
	md.String("plan_id", id.Str())
	var detail string
	switch typ := p.Sub("type").Str(); typ {
	case "items":
		entries := p.Sub("entries")
		if entries.IsArray() {
			entries.AddTo(&md, "entries")
		}
		detail = planChecklist(entries)
	case "file", "markdown":
		// The file's URI, the markdown's text.
		field, key := "uri", "uri"
		if typ == "markdown" {
			field, key = "content", "markdown"
		}
		v := p.Sub(field)
		if v.Type() != gjson.String {
			return t.unsettled(dst, in, "plan_update")
		}
		detail = v.Str()
		md.String(key, detail)
	default:
		if !t.st.V2 || typ == "" {
			// v1's unstable schema knows these three types only.
			return t.unsettled(dst, in, "plan_update")
		}
		// ACP v2's PlanUpdateContent "other": a custom ("_…") or
		// future plan type, {type, planId, …}; what it says is not
		// known, so the plan is kept whole.
		md.String("plan_type", typ)
		p.AddTo(&md, "plan")
	}
	p.Sub("_meta").AddTo(&md, "_meta")
	u.Sub("_meta").AddTo(&md, "update_meta")
	return t.planStatus(dst, in, u, universal.LabelPlan, detail, md.Bytes())
}

// planRemoved translates plan_removed: a status item labelled
// plan_removed, the planId its detail and in its metadata.
func (t *Translator) planRemoved(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	id := u.Sub("planId")
	if id.Type() != gjson.String {
		return t.unsettled(dst, in, "plan_removed")
	}
	var md jsonw.Object
	md.String("plan_id", id.Str())
	u.Sub("_meta").AddTo(&md, "_meta")
	return t.planStatus(dst, in, u, "plan_removed", id.Str(), md.Bytes())
}

// compaction is one context compaction (compaction_update), as its
// updates and summary chunks have told it so far.
type compaction struct {
	// ID is its compactionId.
	ID string `json:"id"`
	// Item is its status item.
	Item string `json:"item"`
	// Status is the last status an update gave.
	Status string `json:"status"`
	// Summary holds the summary's content blocks (compact JSON each).
	Summary []string `json:"summary,omitempty"`
	// ChunkMeta holds the _meta of the chunks that brought summary
	// blocks: {"index": block, "_meta": …} (compact JSON each).
	ChunkMeta []string `json:"chunk_meta,omitempty"`
	// Error is the error an update gave.
	Error string `json:"error,omitempty"`
	// Meta is the compaction's _meta (compact JSON).
	Meta string `json:"meta,omitempty"`
	// Facts are the facts claude-agent-acp's compaction call gives
	// (compact JSON; see compactionToolCall).
	Facts string `json:"facts,omitempty"`
	// InTurn: the item started while a turn was open; it is completed
	// when the turn ends.
	InTurn bool `json:"in_turn,omitempty"`
	// Done: the item is complete; a later update shows the compaction
	// again in a new item.
	Done bool `json:"done,omitempty"`
}

// maxCompactions bounds the compactions remembered.
const maxCompactions = 1024

// compactionUpdate translates compaction_update, an upsert by
// compactionId: the first update starts a status item labelled
// context_compaction, the terminal one (completed; failed and cancelled
// fail it) completes it with the summary and error the updates and
// chunks gave. An update for a compaction already complete shows it
// again, patched, in a new complete item (same native id).
func (t *Translator) compactionUpdate(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	id := u.Sub("compactionId")
	status := u.Sub("status").Str()
	if id.Type() != gjson.String || id.Str() == "" || u.Sub("status").Type() != gjson.String {
		return t.unsettled(dst, in, "compaction_update")
	}
	switch status {
	case "in_progress":
		status = "in_progress" // not the message's bytes: kept
	case "completed":
		status = "completed"
	case "failed":
		status = "failed"
	case "cancelled":
		status = "cancelled"
	default:
		// A status the schema leaves to future versions or to
		// extensions ("_…"): whether the compaction ended is not known.
		return t.unsettled(dst, in, "compaction_update")
	}
	return t.applyCompaction(dst, in, id.Str(), status, func(c *compaction) {
		t.patchCompaction(c, u)
	})
}

// applyCompaction makes an update of status (in_progress, completed,
// failed, cancelled) to the compaction id, which patch changes: the
// first starts its status item, a terminal one completes it.
func (t *Translator) applyCompaction(dst []universal.Event, in *input, id, status string, patch func(*compaction)) []universal.Event {
	dst = t.begin(dst)
	dst = t.closeUser(dst, in.raw)
	c, started := t.compactionOf(id)
	c.Status = status
	patch(c)
	if status == "in_progress" {
		if started {
			return dst
		}
		return t.w.StartItem(dst, t.compactionItem(c), agent, in.raw)
	}
	it := t.compactionItem(c)
	if status != "completed" {
		it.Status = universal.StatusFailed
	}
	c.Done = true
	return t.w.Complete(dst, it, agent, in.raw)
}

// patchCompaction applies a compaction_update's summary, error and
// _meta: absent leaves the value, null clears it, a value replaces it
// (one of another type is ignored, as the schema's default on error has
// it).
func (t *Translator) patchCompaction(c *compaction, u jsonscan.Value) {
	if s := u.Sub("summary"); s.Exists() && (s.Type() == gjson.Null || s.IsArray()) {
		c.Summary, c.ChunkMeta = nil, nil
		if s.IsArray() {
			s.Each(func(_ gjson.Result, b jsonscan.Value) bool {
				c.Summary = append(c.Summary, b.OwnJSON(t.w.Copy))
				return true
			})
		}
	}
	if e := u.Sub("error"); e.Exists() {
		switch e.Type() {
		case gjson.Null:
			c.Error = ""
		case gjson.String:
			c.Error = t.copy(e.Str())
		}
	}
	if m := u.Sub("_meta"); m.Exists() {
		switch {
		case m.Type() == gjson.Null:
			c.Meta = ""
		case m.IsObject():
			c.Meta = m.OwnJSON(t.w.Copy)
		}
	}
}

// compactionCall reports whether a tool call is claude-agent-acp's
// "Compact conversation" call: its report of a context compaction to a
// client without the compaction updates (0.101.0
// dist/tool-calls/reporters/compaction.js compactionToolCall, the
// "legacy" presentation of dist/context-compaction.js): toolCallId the
// compaction's id, title "Compact conversation", kind think, status
// in_progress, then completed or failed, the facts (trigger, preTokens,
// postTokens, durationMs, error) in rawOutput and _meta.claudeCode
// {toolName: "compact"}, or for JetBrains AIR in
// _meta.jetbrains.air.contextCompaction. Claude Code has no tool of that
// name: no call the model made. @agentclientprotocol/codex-acp reports
// Codex's compactions the same way, its facts (version, trigger,
// preTokens, postTokens, durationMs, error) in the "provider-neutral"
// _meta.contextCompaction (src/ContextCompactionMeta.ts at ba5bcc3).
func compactionCall(u jsonscan.Value) bool {
	return u.Get("_meta.claudeCode.toolName").Str == "compact" || compactionFacts(u).IsObject()
}

// compactionFacts returns the facts of a compaction call in its _meta:
// JetBrains AIR's, else the provider-neutral contextCompaction.
func compactionFacts(u jsonscan.Value) jsonscan.Value {
	if f := u.Sub("_meta.jetbrains.air.contextCompaction"); f.IsObject() {
		return f
	}
	return u.Sub("_meta.contextCompaction")
}

// compactionToolCall translates claude-agent-acp's compaction call (see
// compactionCall) as the compaction it reports, as compaction_update
// does: a status item labelled compaction (native id the toolCallId),
// started in progress and completed (failed: failed), its error the
// facts' error, the facts in its metadata as "facts" and the update's
// _meta as "_meta". An update without a status (the adapter's later
// facts) keeps the last one.
func (t *Translator) compactionToolCall(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	id := u.Get("toolCallId").String()
	status := ""
	switch u.Sub("status").Str() {
	case "in_progress", "pending":
		status = "in_progress"
	case "completed":
		status = "completed"
	case "failed":
		status = "failed"
	default:
		status = "in_progress"
		if c := t.st.Compactions[id]; c != nil {
			status = c.Status
		}
	}
	return t.applyCompaction(dst, in, id, status, func(c *compaction) {
		facts := u.Sub("rawOutput")
		if !facts.IsObject() {
			facts = compactionFacts(u)
		}
		if facts.IsObject() {
			c.Facts = facts.OwnJSON(t.w.Copy)
			if e := facts.Sub("error"); e.Type() == gjson.String {
				c.Error = t.copy(e.Str())
			}
		}
		if m := u.Sub("_meta"); m.IsObject() {
			c.Meta = m.OwnJSON(t.w.Copy)
		}
	})
}

// compactionSummaryChunk translates compaction_summary_chunk: a content
// block appended to the summary of a compaction in progress (one not
// seen before starts then, in progress). The summary shows when the
// compaction completes. A chunk for a compaction already complete is
// agent.unparsed: the schema sends none after the terminal update.
func (t *Translator) compactionSummaryChunk(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	id := u.Sub("compactionId")
	content := u.Sub("content")
	if id.Type() != gjson.String || id.Str() == "" || !content.IsObject() {
		return t.unsettled(dst, in, "compaction_summary_chunk")
	}
	if c := t.st.Compactions[id.Str()]; c != nil && c.Done {
		return t.w.Unparsed(dst, in.where(), fmt.Errorf("%w: compaction_summary_chunk for compaction %q, which ended (%s)", errUnstable, id.Str(), c.Status), in.raw)
	}
	dst = t.begin(dst)
	dst = t.closeUser(dst, in.raw)
	c, started := t.compactionOf(id.Str())
	if !started {
		c.Status = "in_progress"
		dst = t.w.StartItem(dst, t.compactionItem(c), agent, in.raw)
	}
	if m := u.Sub("_meta"); m.IsObject() {
		var o jsonw.Object
		o.Int("index", int64(len(c.Summary)))
		m.AddTo(&o, "_meta")
		c.ChunkMeta = append(c.ChunkMeta, t.w.Stamper().CopyBytes(o.Bytes()))
	}
	c.Summary = append(c.Summary, content.OwnJSON(t.w.Copy))
	return dst
}

// compactionOf returns the compaction of an id and whether its item is
// open; a new one (or a new showing of one complete) gets a new item id.
func (t *Translator) compactionOf(id string) (*compaction, bool) {
	if t.st.Compactions == nil {
		t.st.Compactions = map[string]*compaction{}
	}
	c := t.st.Compactions[id]
	if c != nil && !c.Done {
		return c, true
	}
	if c == nil {
		if len(t.st.Compactions) >= maxCompactions {
			for k, o := range t.st.Compactions {
				if o.Done {
					delete(t.st.Compactions, k)
				}
			}
		}
		c = &compaction{ID: t.copy(id)}
		t.st.Compactions[c.ID] = c
	}
	c.Item = t.w.NewItemID()
	c.InTurn = t.st.Turn.Open
	c.Done = false
	return c, false
}

// compactionItem is a compaction's status item: detail the error, else
// the summary's text; metadata the compaction id, status, summary
// blocks, error and _meta.
func (t *Translator) compactionItem(c *compaction) universal.Item {
	var md jsonw.Object
	md.String("compaction_id", c.ID).String("status", c.Status)
	var text strings.Builder
	if len(c.Summary) > 0 {
		n := 2
		for _, b := range c.Summary {
			n += len(b) + 1
			if gjson.Get(b, "type").Str == "text" {
				text.WriteString(gjson.Get(b, "text").Str)
			}
		}
		arr := make([]byte, 0, n)
		arr = append(arr, '[')
		for i, b := range c.Summary {
			if i > 0 {
				arr = append(arr, ',')
			}
			arr = append(arr, b...)
		}
		arr = append(arr, ']')
		md.RawClean("summary", string(arr))
	}
	if len(c.ChunkMeta) > 0 {
		md.RawClean("summary_chunk_meta", "["+strings.Join(c.ChunkMeta, ",")+"]")
	}
	md.OptString("error", c.Error)
	md.RawClean("facts", c.Facts)
	md.RawClean("_meta", c.Meta)
	detail := c.Error
	if detail == "" {
		detail = text.String()
	}
	return universal.Item{
		ItemID:       c.Item,
		NativeItemID: c.ID,
		Kind:         universal.KindStatus,
		Content: []universal.Part{{
			Type:     universal.PartStatus,
			Label:    universal.LabelCompaction,
			Detail:   t.w.Copy(detail),
			Metadata: md.Bytes(),
		}},
	}
}

// closeCompactions completes, as failed, the items of compactions still
// in progress (those started in the turn, or all at the end of input),
// with what their updates and chunks told: the compaction did not finish
// while the record showed it.
func (t *Translator) closeCompactions(dst []universal.Event, all bool, raw []byte) []universal.Event {
	keys := make([]string, 0, len(t.st.Compactions))
	for k, c := range t.st.Compactions {
		if !c.Done && (all || c.InTurn) {
			keys = append(keys, k)
		}
	}
	sortByItem(keys, func(k string) string { return t.st.Compactions[k].Item })
	for _, k := range keys {
		c := t.st.Compactions[k]
		it := t.compactionItem(c)
		it.Status = universal.StatusFailed
		c.Done = true
		dst = t.w.Complete(dst, it, srcOf(raw), raw)
	}
	return dst
}
