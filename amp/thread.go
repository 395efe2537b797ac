package amp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// thread translates a thread document: {v, id, created, agentMode, title,
// messages[], env, meta, …}.
func (t *Translator) thread(dst events, doc jsonscan.Value) events {
	if t.s.Doc {
		return t.unparsed(dst, "", errSecondThread)
	}
	msgs := doc.Sub("messages")
	if !msgs.IsArray() {
		return t.unparsed(dst, "messages", errors.New("a thread document without a messages array"))
	}
	t.s.Doc = true
	if id := doc.Get("id").Str; id != "" {
		t.w.SetNativeSessionID(t.w.Copy(id))
	}
	uri := doc.Get("env.initial.trees.0.uri").Str
	if uri != "" {
		t.s.Cwd = t.w.Copy(filePath(uri))
	}
	dst = t.w.BeginClean(dst, threadMetadata(doc, uri), universal.SourceAgent, t.raw)
	whole := t.raw
	t.calls = 0
	msgs.Each(func(_ gjson.Result, m jsonscan.Value) bool {
		t.at++
		t.raw = bytesOf(m.Raw())
		dst = t.threadMessage(dst, m)
		return true
	})
	t.at, t.raw = 0, whole
	if t.calls == 0 {
		dst = t.ledger(dst, doc.Sub("usageLedger"))
	}
	if status, ok := t.threadEnd(); ok && t.w.Turn() != "" {
		// The document is the whole thread so far: its last turn ends
		// with it when the agent finished it.
		dst = t.endTurn(dst, status, nil, universal.SourceDaemon, nil)
	}
	t.s.Outcome.Seen = true
	return dst
}

// threadEnd is how a thread's last turn ended, ok false when the thread
// does not show that the agent finished it: it ends on a user message (a
// prompt or tool results the agent had not answered), a call without a
// result, or a message still streaming. Then the turn stays open, for
// the end of the session to interrupt.
func (t *Translator) threadEnd() (universal.TurnStatus, bool) {
	if t.s.LastRole != "assistant" {
		return "", false
	}
	for _, id := range t.s.Pending {
		if c := t.s.Calls[id]; c != nil && c.Msg == t.s.LastMsg {
			return "", false // the last response's call has no result yet
		}
	}
	switch t.s.Ended {
	case "complete":
		return universal.TurnCompleted, true
	case "error":
		return universal.TurnError, true
	case "cancelled":
		return universal.TurnInterrupted, true
	}
	return "", false
}

// ledger reports the usage ledger of a thread whose messages carry none
// (threads written before Amp put usage on messages, January 2026):
// usageLedger {events [{timestamp, model, credits, tokens {input, output,
// cacheReadInputTokens, cacheCreationInputTokens}, operationType}]}, one
// event per billed model call, the thread's own and its sub-agents'. Their
// sum is the session's usage so far (scope session); the metadata names
// the basis, the number of events and their credits, which are Amp's
// billing unit, not dollars. The ledger does not say reliably which turn
// an event belongs to, so no turn gets a share.
func (t *Translator) ledger(dst events, l jsonscan.Value) events {
	evs := l.Sub("events")
	if !evs.IsArray() {
		return dst
	}
	var sum [5]int64
	var got [5]bool
	n, credits, paid := 0, 0.0, false
	evs.Each(func(_ gjson.Result, e jsonscan.Value) bool {
		u, ok := anthropic.Counts(e.Sub("tokens"), "input", "cacheReadInputTokens", "cacheCreationInputTokens", "output", "reasoningTokens")
		if c := e.Get("credits"); c.Type == gjson.Number {
			credits += c.Num
			paid = true
		}
		if !ok {
			return true
		}
		n++
		for i, p := range [5]*int64{u.InputTokens, u.CachedInputTokens, u.CacheWriteTokens, u.OutputTokens, u.ReasoningTokens} {
			if p != nil {
				sum[i] += *p
				got[i] = true
			}
		}
		return true
	})
	if n == 0 {
		return dst
	}
	var u universal.Usage
	for i, p := range [5]**int64{&u.InputTokens, &u.CachedInputTokens, &u.CacheWriteTokens, &u.OutputTokens, &u.ReasoningTokens} {
		if got[i] {
			v := sum[i]
			*p = &v
		}
	}
	total := sum[0] + sum[3]
	u.TotalTokens = &total
	var md jsonw.Object
	md.String("basis", "usageLedger").Int("events", int64(n))
	if paid {
		// Rounded to a billionth: the sum of decimal fractions.
		md.Float("credits", math.Round(credits*1e9)/1e9)
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, universal.SourceAgent, &universal.UsageUpdated{
		TurnID: t.w.Turn(), Scope: universal.ScopeSession, Usage: u, Metadata: md.Bytes(),
	}, t.raw)
}

// threadMetadata is session.started's metadata for a thread document
// whose first tree is uri.
func threadMetadata(doc jsonscan.Value, uri string) []byte {
	var md jsonw.Object
	md.String("agent", agentName)
	platform := doc.Sub("env.initial.platform")
	platform.Field("clientVersion").AddTo(&md, "agent_version")
	platform.Field("client").AddTo(&md, "client")
	if m := threadModel(doc); m != "" {
		md.String("model", m)
	}
	if uri != "" {
		md.String("cwd", filePath(uri))
	}
	doc.Field("agentMode").AddTo(&md, "agent_mode")
	doc.Field("title").AddTo(&md, "title")
	doc.Field("v").AddTo(&md, "schema_version")
	if created := doc.Field("created"); !addTime(&md, "created_at", created) {
		created.AddTo(&md, "created_at")
	}
	doc.Sub("env.initial.trees").AddTo(&md, "trees")
	doc.Field("relationships").AddTo(&md, "relationships")
	doc.Field("activatedSkills").AddTo(&md, "activated_skills")
	return md.Bytes()
}

// addTime adds v, a number of milliseconds since the epoch (when the
// thread was created), to o as the member k written as the envelope
// writes times, and reports whether it was one.
func addTime(o *jsonw.Object, k string, v jsonscan.Value) bool {
	if v.Type() != gjson.Number {
		return false
	}
	ms, err := strconv.ParseInt(v.Raw(), 10, 64)
	if err != nil {
		return false
	}
	o.String(k, time.UnixMilli(ms).UTC().Format(universal.TimeLayout))
	return true
}

// threadModel is the thread's model: its "model:" tag, else the model of
// the first message usage that names one.
func threadModel(doc jsonscan.Value) string {
	model := ""
	doc.Get("env.initial.tags").ForEach(func(_, tag gjson.Result) bool {
		if m, ok := strings.CutPrefix(tag.Str, "model:"); ok {
			model = m
			return false
		}
		return true
	})
	if model != "" {
		return model
	}
	doc.Sub("messages").Each(func(_ gjson.Result, m jsonscan.Value) bool {
		model = m.Get("usage.model").Str
		return model == ""
	})
	return model
}

// msgFields are the members of a thread message that its translation
// reads.
type msgFields struct {
	id, scope, role, content, state, elapsed, usage, meta jsonscan.Value
}

// threadMessage translates one message of a thread.
func (t *Translator) threadMessage(dst events, m jsonscan.Value) events {
	// One walk over the message's members instead of a lookup each.
	var msg msgFields
	m.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "messageId":
			jsonscan.KeepFirst(&msg.id, v)
		case "parentToolUseId":
			jsonscan.KeepFirst(&msg.scope, v)
		case "role":
			jsonscan.KeepFirst(&msg.role, v)
		case "content":
			jsonscan.KeepFirst(&msg.content, v)
		case "state":
			jsonscan.KeepFirst(&msg.state, v)
		case "turnElapsedMs":
			jsonscan.KeepFirst(&msg.elapsed, v)
		case "usage":
			jsonscan.KeepFirst(&msg.usage, v)
		case "meta":
			jsonscan.KeepFirst(&msg.meta, v)
		}
		return true
	})
	native := ""
	if msg.id.Exists() {
		native = t.w.Copy(strings.Trim(msg.id.Raw(), `"`))
	}
	scope := msg.scope.Str()
	role := msg.role.Str()
	if role != "assistant" {
		dst = t.release(dst) // a held response ends before anything else
	}
	switch role {
	case "user":
		return t.userContent(dst, msg.content, "content", native, scope, func(dst events, b jsonscan.Value) events {
			id := b.Field("toolUseID").Str()
			run := b.Field("run")
			if ui := b.Field("userInput"); ui.IsObject() {
				dst = t.userDecision(dst, t.s.Calls[id], id, ui, run.Field("status").Str())
			}
			return t.threadRun(dst, t.s.Calls[id], id, run, scope, false)
		})
	case "assistant":
		return t.threadAssistant(dst, &msg, native, scope)
	case "info":
		return t.threadInfo(dst, msg.content, native, scope)
	default:
		return t.unparsed(dst, "role", fmt.Errorf("unknown message role %q", role))
	}
}

// threadAssistant translates an assistant message of a thread: content
// as in stream-json, state {type, stopReason}, usage in camelCase with the
// model, turnElapsedMs on a turn's last message; a sub-agent's message
// (scope: its Task call's id) hangs under the call and leaves the turn's
// state alone.
func (t *Translator) threadAssistant(dst events, m *msgFields, native, scope string) events {
	content := m.content
	if content.Type() != gjson.String && !content.IsArray() {
		return t.unparsed(dst, "content", errNoContent)
	}
	state := m.state
	ended := typeOf(state)
	if ended == "" {
		ended = "complete"
	}
	if scope == "" {
		dst = t.nextJoined(dst)
	}
	dst = t.ensureTurn(dst)
	dst = t.answer(dst, content, native, t.scopeItem(scope), ended, m.meta.Get("openAIResponsePhase").Str)
	if scope == "" {
		t.s.Ended, t.s.Stop, t.s.LastRole = t.w.Copy(ended), t.w.Copy(state.Get("stopReason").Raw), "assistant"
		t.s.Answers++
		if e := m.elapsed; e.Type() == gjson.Number {
			t.s.Elapsed = t.w.Copy(e.Raw())
		}
		t.s.Outcome = outcome{}
	}
	if ended == "error" {
		msg := first(state.Get("error.message").Str, state.Get("error").Str, "the model call failed")
		var details jsonw.Object
		details.Raw("state", state.Raw())
		if scope != "" {
			dst = t.subAgentError(dst, scope, msg, details.Bytes())
		} else {
			dst = t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
				Message: t.w.Copy(msg), Code: "error", Details: details.Bytes(),
			}, t.raw)
			t.s.Outcome = outcome{Failed: true, Message: t.w.Copy(msg)}
		}
	}
	if u := m.usage; u.IsObject() {
		if d := u.Sub("thinkingDropped"); d.IsObject() {
			dst = t.thinkingDropped(dst, d, scope)
		}
		if use, _ := threadUsage(u); use.InputTokens != nil || use.OutputTokens != nil {
			var md []byte
			var o jsonw.Object
			o.Grow(64)
			if c := u.Get("credits"); c.Type == gjson.Number {
				// Amp's billing unit for the call, not dollars.
				o.Raw("credits", c.Raw)
			}
			if b := u.Get("thinkingBudget"); b.Type == gjson.Number {
				o.Raw("thinking_budget", b.Raw) // the reasoning tokens the call allowed
			}
			o.OptString("model", u.Get("model").Str)
			if o.Len() > 0 {
				md = o.Bytes()
			}
			dst = t.usage(dst, new(callUsage), use, u.Get("maxInputTokens"), md)
			t.calls++
		}
		if model := u.Get("model").Str; model != "" && scope == "" {
			t.s.Model = t.w.Copy(model)
		}
	}
	return dst
}

// subAgentError records the error of a sub-agent's message (scope: the id
// of its Task call) by the sub-agent convention of package universal: not
// an error of the session, so no error event; the Task call's result gets
// it as metadata sub_agent_error, or, when that result was already
// translated or the call is unknown, a status item sub_agent_error under
// the call reports it.
func (t *Translator) subAgentError(dst events, scope, msg string, details []byte) events {
	var o jsonw.Object
	o.String("message", msg).String("code", "error").RawBytes("details", details)
	md := o.Bytes()
	if c := t.s.Calls[scope]; c != nil && !c.Done {
		if c.SubErr == "" {
			c.SubErr = string(md)
		}
		return dst
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), ParentID: t.scopeItem(scope), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: "sub_agent_error", Detail: t.w.Copy(msg), Metadata: md}},
	}, universal.SourceAgent, t.raw)
}

// thinkingDropped reports a call whose usage says the model's thinking of
// earlier turns was left out of its request ({turns, reason}, which Amp's
// transcript shows as a row of its own): a status item thinking_dropped,
// the reason as detail, the object in the part's metadata.
func (t *Translator) thinkingDropped(dst events, d jsonscan.Value, scope string) events {
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), ParentID: t.scopeItem(scope), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: "thinking_dropped",
			Detail: t.w.Copy(d.Get("reason").Str), Metadata: bytesOf(t.ownJSON(d))}},
	}, universal.SourceAgent, t.raw)
}

// threadRun translates the run of a thread's tool call {status, result,
// error, reason, progress} (a tool_result block's run, a manual bash
// invocation's toolRun) into its result. The output is what stream-json
// would have sent for it (Amp derives one from the other): done → the
// result (its readable part, see structured); error → the error text;
// cancelled → "Tool execution cancelled: <reason>"; rejected-by-user →
// "Tool execution rejected by user: <reason>". cancellation-requested is
// read as cancelled, keeping its reason (Amp's printer would say "Tool
// status: cancellation-requested"). A run still in progress or queued
// has no result yet; one blocked on the user asks for permission.
func (t *Translator) threadRun(dst events, c *call, callID string, run jsonscan.Value, scope string, manual bool) events {
	o := toolOut{call: callID, status: run.Field("status").Str(), manual: manual}
	// A Task's run names the thread its sub-agent ran in (0.0.1767830505
	// saves that thread in a file of its own): the link to it.
	if id := run.Get("progress.threadID").Str; id != "" {
		o.subThread = t.w.Copy(id)
	}
	switch o.status {
	case "done":
		res := run.Field("result")
		switch {
		case res.Type() == gjson.String:
			o.output = t.str(res)
		case res.IsObject():
			if out, ok := t.structured(&o, res); ok {
				o.output = out
				o.extra = append(o.extra, t.valuePart(res))
			} else {
				o.output = t.ownJSON(res)
			}
		case res.Exists():
			o.output = t.ownJSON(res)
		}
	case "error":
		o.isError = true
		e := run.Sub("error")
		o.output = t.w.Copy(first(e.Str(), e.Get("message").Str, "Tool execution error"))
		if e.IsObject() {
			o.extra = append(o.extra, t.valuePart(e))
		}
	case "cancelled", "cancellation-requested":
		o.isError, o.cancelled = true, true
		o.output = cancelledPrefix + ": " + first(run.Get("reason").Str, "Unknown reason")
	case "rejected-by-user":
		o.isError, o.rejected = true, true
		o.output = rejectedPrefix + ": " + first(run.Get("reason").Str, "User declined permission")
	case "in-progress", "queued":
		// Still running when the thread was saved: no result yet.
		return dst
	case "blocked-on-user":
		// Waiting for the user's approval when the thread was saved.
		if c == nil || callID == "" {
			return dst
		}
		return t.askUser(dst, c, callID, "")
	default:
		return t.unparsed(dst, "content", fmt.Errorf("tool run of %q: unknown status %q", callID, o.status))
	}
	return t.toolResult(dst, c, &o, scope)
}

// askUser emits the approval Amp shows call callID waiting for (a
// blocked-on-user run, or the request a userInput answers):
// permission.requested, source user (runStatus, when given, in its
// metadata), unless it is pending already.
func (t *Translator) askUser(dst events, c *call, callID, runStatus string) events {
	if t.w.PermissionPending(callID) {
		return dst
	}
	var md jsonw.Object
	md.String("source", "user").OptString("run_status", runStatus)
	id, name, item := t.w.Copy(callID), "", ""
	if c != nil {
		name, item = c.Name, c.Item
	}
	return t.w.RequestPermission(dst, universal.Permission{
		PermissionID: id, Action: name, ItemID: item, CallID: id, Metadata: md.Bytes(),
	}, universal.SourceAgent, t.raw)
}

// userDecision translates a thread tool_result's userInput {accepted,
// askAnswers, denyFeedback}: the user's answer to the call's approval
// request (what the client sent as client_tool_approval_response), which
// Amp keeps with the result. An accepted call gets permission.requested
// (unless it is pending already) and permission.resolved approved, before
// its result; a refused one is denied the same way, except a run
// rejected-by-user, whose result reports the denial itself. The answers
// to the tool's questions (askAnswers) and the user's reason
// (denyFeedback) go to the resolution's metadata (ask_answers, reason).
func (t *Translator) userDecision(dst events, c *call, callID string, ui jsonscan.Value, status string) events {
	accepted := ui.Field("accepted")
	if callID == "" || (accepted.Type() != gjson.True && accepted.Type() != gjson.False) {
		return t.unparsed(dst, "content", fmt.Errorf("tool result of %q: userInput without accepted", callID))
	}
	ok := accepted.Type() == gjson.True
	if !ok && status == "rejected-by-user" {
		return dst
	}
	dst = t.askUser(dst, c, callID, "")
	id, name, item := t.w.Copy(callID), "", ""
	if c != nil {
		name, item = c.Name, c.Item
	}
	var md jsonw.Object
	md.String("source", "user")
	if fb := ui.Field("denyFeedback"); fb.Type() == gjson.String {
		md.String("reason", t.str(fb))
	}
	if aa := ui.Field("askAnswers"); aa.IsObject() {
		md.Raw("ask_answers", t.ownJSON(aa))
	}
	st := universal.PermissionDenied
	if ok {
		st = universal.PermissionApproved
	}
	return t.w.ResolvePermission(dst, universal.Permission{
		PermissionID: id, Action: name, Status: st, ItemID: item, CallID: id, Metadata: md.Bytes(),
	}, universal.SourceAgent, t.raw)
}

// threadInfo translates an info message: notices Amp adds to a thread
// (text), compaction summaries (summary {summary: {summary}}) and shell
// commands the user ran themselves (manual_bash_invocation {args, toolRun,
// hidden}). Text and summaries make one system item; a manual command is
// a tool_call item with role user (tool name "manual_bash_invocation",
// arguments its args, metadata hidden, call_id the item's own id, since
// the command has none) and, once it ran, its result under it.
func (t *Translator) threadInfo(dst events, content jsonscan.Value, native, scope string) events {
	if !content.IsArray() {
		return t.unparsed(dst, "content", errNoContent)
	}
	parts := t.msgParts[:0]
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		switch typeOf(b) {
		case "text":
			parts = append(parts, universal.Text(t.str(b.Field("text"))))
		case "summary":
			// {"summary": {"type": "message", "summary": text}}; a
			// summary given as the text itself is read as well.
			sum := b.Sub("summary")
			if sum.Type() != gjson.String {
				sum = sum.Sub("summary")
			}
			p := universal.Text(t.str(sum))
			p.Metadata = summaryMeta
			parts = append(parts, p)
		case "manual_bash_invocation":
			dst = t.manualBash(dst, b, t.scopeItem(scope))
		default:
			parts = append(parts, t.valuePart(b))
		}
		return true
	})
	t.msgParts = parts
	if len(parts) == 0 {
		return dst
	}
	kind := universal.KindSystem
	if onlyJSON(parts) {
		// Blocks of kinds this package does not know: a notice, not
		// information about the session, so a status item that names
		// the first block's type and keeps the blocks.
		label := gjson.GetBytes(parts[0].JSON, "type").Str
		if label == "" {
			label = "info"
		}
		kind = universal.KindStatus
		parts = append([]universal.Part{{Type: universal.PartStatus, Label: t.w.Copy(label)}}, parts...)
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: native, ParentID: t.scopeItem(scope),
		Kind: kind, Role: universal.RoleSystem, Content: parts,
	}, universal.SourceAgent, t.raw)
}

func onlyJSON(parts []universal.Part) bool {
	for i := range parts {
		if parts[i].Type != universal.PartJSON {
			return false
		}
	}
	return true
}

var (
	summaryMeta = []byte(`{"summary":true}`)
	hiddenMeta  = []byte(`{"hidden":true}`)
)

// manualBashTool names the tool of a shell command the user ran themselves.
const manualBashTool = "manual_bash_invocation"

func (t *Translator) manualBash(dst events, b jsonscan.Value, parent string) events {
	args := "{}"
	if a := b.Sub("args"); a.Exists() {
		args = t.ownJSON(a)
	}
	c := &call{Item: t.w.NewItemID(), Name: manualBashTool}
	c.Msg = c.Item // its result hangs under the call: there is no message
	// The command has no id of its own: the call item's id links call
	// and result.
	p := universal.Part{Type: universal.PartToolCall, Name: manualBashTool, Arguments: args, CallID: c.Item}
	p.ToolKind, p.ToolInput = t.describe(manualBashTool, args)
	if b.Get("hidden").Bool() {
		p.Metadata = hiddenMeta
	}
	t.parts = append(t.parts[:0], p)
	dst = t.w.Complete(dst, universal.Item{
		ItemID: c.Item, ParentID: parent, Kind: universal.KindToolCall, Role: universal.RoleUser, Content: t.parts,
	}, universal.SourceAgent, t.raw)
	if run := b.Sub("toolRun"); run.Exists() {
		dst = t.threadRun(dst, c, c.Item, run, "", true)
	}
	return dst
}

// first returns the first non-empty string.
func first(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
