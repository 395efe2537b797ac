package acp

import (
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// mGooseUpdate is Goose's twin of session/update: the same envelope
// {sessionId, update: {sessionUpdate, …}} for the kinds ACP does not
// define (block/goose crates/goose-sdk-types/src/custom_notifications.rs,
// GooseSessionNotification).
const mGooseUpdate = "_goose/unstable/session/update"

// gooseUpdate translates Goose's session updates (GooseSessionUpdate):
//
//	usage_update    SessionUsageUpdate {used, contextLimit,
//	                accumulatedInputTokens, accumulatedOutputTokens,
//	                accumulatedCost?}: the session's running totals,
//	                usage.updated with scope session (context_window
//	                contextLimit, metadata context_used used, cost_usd
//	                accumulatedCost), as ACP's usage_update
//	message_usage   MessageUsageUpdate {messageId?, usage {inputTokens,
//	                outputTokens, totalTokens, cacheReadTokens,
//	                cacheWriteTokens, cost, costSource, elapsedMs,
//	                timeToFirstTokenMs, isCompaction}}: one message's
//	                usage, usage.updated with scope call (the message id
//	                and the other figures in its metadata)
//	status_message  StatusMessageUpdate {status {type notice|progress,
//	                message}}: a status item labelled by the status's
//	                type, the message as detail
//
// device_code_update (an OAuth sign-in's code) and kinds Goose may add
// are ignored, as the protocol says of "_" methods.
func (t *Translator) gooseUpdate(dst []universal.Event, in *input, params jsonscan.Value) []universal.Event {
	u := params.Sub("update")
	switch u.Get("sessionUpdate").Str {
	case "usage_update":
		return t.gooseSessionUsage(dst, in, u)
	case "message_usage":
		return t.gooseMessageUsage(dst, in, u)
	case "status_message":
		s := u.Sub("status")
		label := s.Get("type").Str
		if label == "" {
			label = "status_message"
		}
		return t.status(dst, label, s.Get("message").Str, t.rawObject("status", s), "", in.raw)
	}
	return dst
}

// gooseSessionUsage is gooseUpdate's usage_update.
func (t *Translator) gooseSessionUsage(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	dst = t.begin(dst)
	d := &universal.UsageUpdated{TurnID: t.w.Turn(), Scope: universal.ScopeSession}
	d.Usage.InputTokens = intOf(u.Get("accumulatedInputTokens"))
	d.Usage.OutputTokens = intOf(u.Get("accumulatedOutputTokens"))
	d.ContextWindow = intOf(u.Get("contextLimit"))
	d.CostUSD = floatOf(u.Get("accumulatedCost"))
	var md jsonw.Object
	u.Sub("used").AddTo(&md, "context_used")
	if md.Len() > 0 {
		d.Metadata = md.Bytes()
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, agent, d, in.raw)
}

// gooseMessageUsage is gooseUpdate's message_usage.
func (t *Translator) gooseMessageUsage(dst []universal.Event, in *input, u jsonscan.Value) []universal.Event {
	us := u.Sub("usage")
	if !us.IsObject() {
		return dst
	}
	dst = t.begin(dst)
	d := &universal.UsageUpdated{TurnID: t.w.Turn(), Scope: universal.ScopeCall}
	d.Usage.InputTokens = intOf(us.Get("inputTokens"))
	d.Usage.OutputTokens = intOf(us.Get("outputTokens"))
	d.Usage.CachedInputTokens = intOf(us.Get("cacheReadTokens"))
	d.Usage.CacheWriteTokens = intOf(us.Get("cacheWriteTokens"))
	d.Usage.TotalTokens = intOf(us.Get("totalTokens"))
	d.CostUSD = floatOf(us.Get("cost"))
	var md jsonw.Object
	md.OptString("message_id", u.Get("messageId").Str)
	us.Sub("costSource").AddTo(&md, "cost_source")
	us.Sub("elapsedMs").AddTo(&md, "elapsed_ms")
	us.Sub("timeToFirstTokenMs").AddTo(&md, "time_to_first_token_ms")
	if us.Get("isCompaction").Bool() {
		md.Bool("is_compaction", true) // a compaction's summarizing call
	}
	if md.Len() > 0 {
		d.Metadata = md.Bytes()
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, agent, d, in.raw)
}

// floatOf returns an amount, nil when r is not a number.
func floatOf(r gjson.Result) *float64 {
	if r.Type != gjson.Number {
		return nil
	}
	v := r.Float()
	return &v
}

// intOf returns a count, nil when r is not a number.
func intOf(r gjson.Result) *int64 {
	if r.Type != gjson.Number {
		return nil
	}
	n := r.Int()
	return &n
}
