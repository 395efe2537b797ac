package acp

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
)

// kiroSummarization translates the session_info_update by which Kiro's
// ACP server (KAS, kiro-cli 2.16 on) tells that it summarized the
// conversation to free its context: _meta.kiro {kind:
// "summarization_completed", conversationSummary, truncated} (the same
// also nested as summarization {status, summary {conversationSummary,
// truncated}}), or {kind: "summarization_failed", reason: "error" |
// "canceled"}, the KiroSessionInfoUpdate kinds of @kiro/agent's
// session/session-info-update.d.ts. That is a context compaction: a
// status item labelled compaction, as every agent's, its detail the
// summary, failed with the reason as detail when the summarization
// failed; the update's _meta in its metadata. It reports false for any
// other update (summarization_started and summarization_separator, which
// tell nothing more, stay session_info notices).
func (t *Translator) kiroSummarization(dst []universal.Event, in *input, u jsonscan.Value) ([]universal.Event, bool) {
	k := u.Sub("_meta").Sub("kiro")
	var detail string
	failed := false
	switch k.Get("kind").Str {
	case "summarization_completed":
		detail = k.Get("conversationSummary").Str
		if detail == "" {
			detail = k.Get("summarization.summary.conversationSummary").Str
		}
	case "summarization_failed":
		failed = true
		detail = k.Get("reason").Str
	default:
		return dst, false
	}
	dst = t.begin(dst)
	var md jsonw.Object
	u.Sub("_meta").AddTo(&md, "_meta")
	it := universal.Item{
		ItemID: t.w.NewItemID(),
		Kind:   universal.KindStatus,
		Content: []universal.Part{{
			Type:     universal.PartStatus,
			Label:    universal.LabelCompaction,
			Detail:   t.copy(detail),
			Metadata: md.Bytes(),
		}},
	}
	if failed {
		it.Status = universal.StatusFailed
	}
	return t.w.Complete(dst, it, agent, in.raw), true
}
