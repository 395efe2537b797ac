package amp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/apierror"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// lineFields are the top-level members of a stream-json line that the
// translation of user and assistant lines reads.
type lineFields struct {
	typ, session, scope, message jsonscan.Value
}

// output translates one line amp -x --stream-json wrote.
func (t *Translator) output(dst events, r jsonscan.Value) events {
	// One walk over the top-level members instead of a lookup each.
	var l lineFields
	r.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "type":
			jsonscan.KeepFirst(&l.typ, v)
		case "session_id":
			jsonscan.KeepFirst(&l.session, v)
		case "parent_tool_use_id":
			jsonscan.KeepFirst(&l.scope, v)
		case "message":
			jsonscan.KeepFirst(&l.message, v)
		}
		return true
	})
	if l.typ.Type() != gjson.String {
		return t.unparsed(dst, "", errNoType)
	}
	switch typ := l.typ.Str(); typ {
	case "system":
		switch sub := r.Get("subtype").Str; sub {
		case "init":
		case "status":
			return t.systemStatus(dst, r, l.session)
		default:
			return t.unparsed(dst, "subtype", fmt.Errorf("unknown system subtype %q", sub))
		}
		dst = t.release(dst)
		return t.init(dst, r)
	case "user":
		dst = t.sameThread(dst, l.session)
		dst = t.release(dst)
		return t.user(dst, &l)
	case "assistant":
		dst = t.sameThread(dst, l.session)
		return t.assistant(dst, &l)
	case "result":
		dst = t.sameThread(dst, l.session)
		dst = t.release(dst)
		return t.result(dst, r)
	default:
		return t.unparsed(dst, "type", fmt.Errorf("unknown type %q", typ))
	}
}

// systemStatus consumes a system/status line, Claude Code's stream-json
// progress notice ({status: "requesting" | "compacting" | null, …}, whose
// format Amp's imitates). No Amp build is known to write one (the
// stream-json writer of 0.0.1790142911 makes system lines of subtype init
// alone, and the Amp SDK's StreamMessage type has no other), but the
// shape appears in hosts' fixtures of Amp's output: a progress notice
// tells nothing the turn's own lines do not (Claude Code's translator
// consumes them too), so it makes no event. One without a status (a
// string or null) is not that notice: agent.unparsed.
func (t *Translator) systemStatus(dst events, r jsonscan.Value, session jsonscan.Value) events {
	if st := r.Sub("status"); !st.Exists() || st.Type() != gjson.String && st.Type() != gjson.Null {
		return t.unparsed(dst, "status", errStatusNotice)
	}
	// What Claude Code's notice says beyond progress (a compaction that
	// failed and why, a new permission mode) is news: not mapped for
	// Amp, it is reported rather than dropped.
	if res := r.Sub("compact_result"); res.Exists() && res.Str() != "success" {
		return t.unparsed(dst, "compact_result", errStatusNews)
	}
	for _, k := range [...]string{"compact_error", "permissionMode"} {
		if r.Sub(k).Exists() {
			return t.unparsed(dst, k, errStatusNews)
		}
	}
	return t.sameThread(dst, session)
}

// input translates a line the host wrote to amp's stdin
// (--stream-json-input): a user message, the prompt of a turn. Amp echoes
// it on stdout, where it is shown; it is queued like a reported prompt in
// case the echo never comes.
func (t *Translator) input(dst events, r jsonscan.Value) events {
	if typ := r.Get("type").Str; typ != "user" {
		return t.unparsed(dst, "type", fmt.Errorf("unknown stdin message type %q", typ))
	}
	parts, _, ok := t.blocks(r.Sub("message.content"), nil)
	if !ok {
		return t.unparsed(dst, "message.content", errNoContent)
	}
	return t.reportPrompt(dst, joinText(parts))
}

// sameThread checks the thread id every line carries against the
// session's. The first id seen names the session when no init did. A line
// of another thread cannot belong to this session: it is reported as
// agent.unparsed, then translated anyway, so nothing it says is lost.
func (t *Translator) sameThread(dst events, id jsonscan.Value) events {
	if id.Type() != gjson.String {
		return dst
	}
	s := id.Str()
	if s == "" {
		return dst
	}
	switch cur := t.w.Stamper().NativeSessionID(); {
	case cur == "":
		t.w.SetNativeSessionID(t.w.Copy(s))
	case cur != s:
		dst = t.unparsed(dst, "session_id", fmt.Errorf("%w: %q is not the session's thread %q (translated as part of it)", errOtherThread, s, cur))
	}
	return dst
}

// initFields are the init fields session.started carries first, in this
// order; any other field follows with its native name.
var initFields = [...]string{"cwd", "agent_mode", "reasoning_effort", "tools", "mcp_servers"}

// init translates system/init, the first line of every amp process: the
// first one starts the session (its metadata), a later one is the run
// information of the next turn (state.RunInfo, flushRunInfo).
func (t *Translator) init(dst events, r jsonscan.Value) events {
	var md jsonw.Object
	md.Grow(len(t.raw)) // about the line's size: one allocation, not one per doubling
	md.String("agent", agentName)
	for _, k := range initFields {
		r.Field(k).AddTo(&md, k)
	}
	var sid jsonscan.Value
	r.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "session_id":
			jsonscan.KeepFirst(&sid, v)
		case "type", "subtype", "cwd", "agent_mode", "reasoning_effort", "tools", "mcp_servers":
		default:
			v.AddTo(&md, k)
		}
		return true
	})
	if cwd := r.Field("cwd").Str(); cwd != "" {
		t.s.Cwd = t.w.Copy(cwd)
	}
	id := sid.Str()
	if !t.w.Begun() {
		if id != "" {
			t.w.SetNativeSessionID(t.w.Copy(id))
		}
		return t.w.BeginClean(dst, md.Bytes(), universal.SourceAgent, t.raw)
	}
	// Another process on the session: amp threads continue, or output of
	// several runs fed to one translator. A turn the last process left
	// open got no result.
	if t.w.Turn() != "" {
		var end jsonw.Object
		end.String("reason", "the amp process ended without a result line")
		dst = t.endTurn(dst, universal.TurnInterrupted, &end, universal.SourceDaemon, nil)
	}
	if id != "" && id != t.w.Stamper().NativeSessionID() {
		t.w.SetNativeSessionID(t.w.Copy(id))
	}
	t.s.Outcome, t.s.Answers = outcome{}, 0
	dst = t.flushRunInfo(dst)
	t.s.RunInfo = string(md.Bytes())
	return dst
}

// flushRunInfo shows the information of a later amp process that no turn
// took (the process ended before its prompt's echo) as a status item
// (label "init", the init's metadata in the part's metadata), so that
// nothing it said is lost.
func (t *Translator) flushRunInfo(dst events) events {
	if t.s.RunInfo == "" {
		return dst
	}
	md := []byte(t.s.RunInfo)
	t.s.RunInfo = ""
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: "init", Detail: "amp process started", Metadata: md}},
	}, universal.SourceAgent, nil)
}

// blocks reads a user message's content (a block array, or a string as
// Claude Code accepts): text and image blocks become parts, tool_result
// blocks go to result, any other block is kept whole as a json part. ok is
// false when content is neither an array nor a string.
func (t *Translator) blocks(content jsonscan.Value, result func(jsonscan.Value)) (parts []universal.Part, results int, ok bool) {
	if content.Type() == gjson.String {
		t.msgParts = append(t.msgParts[:0], universal.Text(t.str(content)))
		return t.msgParts, 0, true
	}
	if !content.IsArray() {
		return nil, 0, false
	}
	parts = t.msgParts[:0]
	content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
		switch typeOf(b) {
		case "text":
			parts = append(parts, universal.Text(t.str(b.Field("text"))))
		case "image":
			p := anthropic.Image(b.Result(), t.w.Copy)
			if mt := b.Get("source.mediaType").Str; p.Mime == "image/*" && mt != "" {
				p.Mime = t.w.Copy(mt) // thread files write it in camelCase
			}
			parts = append(parts, t.imageSource(p, b.Get("sourcePath").Str))
		case "tool_result":
			results++
			if result != nil {
				result(b)
			}
		default:
			parts = append(parts, t.valuePart(b))
		}
		return true
	})
	t.msgParts = parts
	return parts, results, true
}

// imageSource adds a thread image block's sourcePath to its part: where
// Amp took the image from (the attached file's path, a URL, the stdin
// line of --stream-json-input, "pasted image"; Amp reads it as the
// image's file path). It is the part's path when the source names none
// (a base64 image), else metadata source_path when it differs from the
// path.
func (t *Translator) imageSource(p universal.Part, src string) universal.Part {
	switch {
	case src == "" || src == p.Path:
	case p.Path == "":
		p.Path = t.w.Copy(src)
	default:
		var o jsonw.Object
		if len(p.Metadata) > 2 {
			o.RawMembers(string(p.Metadata[1 : len(p.Metadata)-1]))
		}
		p.Metadata = o.String("source_path", src).Bytes()
	}
	return p
}

// user translates a user line: the echo of a prompt (the first user line
// of a run, and every prompt in --stream-json-input mode), tool results,
// and in older builds a sub-agent's prompt.
func (t *Translator) user(dst events, l *lineFields) events {
	scope := l.scope.Str()
	return t.userContent(dst, l.message.Sub("content"), "message.content", "", scope,
		func(dst events, b jsonscan.Value) events { return t.streamResult(dst, b, scope) })
}

// userContent translates a user message's content (field names it for
// errors): tool_result blocks through result, then the rest: a sub-agent's
// prompt (scope is its Task call's id), text next to tool results (it
// continues the turn), or a prompt, which starts a turn.
func (t *Translator) userContent(dst events, content jsonscan.Value, field, native, scope string, result func(events, jsonscan.Value) events) events {
	parts, results, ok := t.blocks(content, func(b jsonscan.Value) { dst = result(dst, b) })
	switch {
	case !ok:
		return t.unparsed(dst, field, errNoContent)
	case len(parts) == 0:
		return dst
	case scope != "":
		dst = t.ensureTurn(dst)
		return t.userMessage(dst, native, t.scopeItem(scope), parts, universal.SourceAgent, t.raw)
	case results > 0:
		dst = t.ensureTurn(dst)
		return t.userMessage(dst, native, "", parts, universal.SourceAgent, t.raw)
	}
	return t.prompt(dst, native, parts)
}

// scopeItem is the item of the tool call a sub-agent line belongs to, ""
// when the call is unknown.
func (t *Translator) scopeItem(scope string) string {
	if c := t.s.Calls[scope]; c != nil {
		return c.Item
	}
	return ""
}

// assistant translates an assistant line: one whole model message.
func (t *Translator) assistant(dst events, l *lineFields) events {
	msg := l.message
	if !msg.IsObject() {
		return t.unparsed(dst, "message", errors.New("assistant line without a message object"))
	}
	var content, stop, usage, id, model jsonscan.Value
	msg.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "content":
			jsonscan.KeepFirst(&content, v)
		case "id":
			// The Amp SDK's message type has an id and a model; the CLI's
			// lines of the versions recorded have neither.
			jsonscan.KeepFirst(&id, v)
		case "model":
			jsonscan.KeepFirst(&model, v)
		case "stop_reason":
			jsonscan.KeepFirst(&stop, v)
		case "usage":
			jsonscan.KeepFirst(&usage, v)
		}
		return true
	})
	if content.Type() != gjson.String && !content.IsArray() {
		return t.unparsed(dst, "message.content", errNoContent)
	}
	scope := l.scope.Str()
	ended := "complete"
	if stop.Type() == gjson.Null {
		ended = "incomplete" // cancelled or errored
	}
	if scope == "" {
		dst = t.nextJoined(dst)
	}
	dst = t.ensureTurn(dst)
	dst = t.answer(dst, content, id.Str(), t.scopeItem(scope), ended, "")
	if scope == "" {
		t.s.Ended, t.s.Stop, t.s.LastRole = ended, t.w.Copy(stop.Raw()), "assistant"
		t.s.Answers++
		if m := model.Str(); m != "" {
			t.s.Model = t.w.Copy(m) // as a thread's usage.model: the turn's last model
		}
	}
	if tk, ok := anthropic.ReadUsage(usage); ok {
		d := &callUsage{tokens: tk}
		var md []byte
		if m := model.Str(); m != "" {
			var o jsonw.Object
			md = o.Grow(16+len(m)).String("model", m).Bytes()
		}
		dst = t.usage(dst, d, d.tokens.Usage(), usage.Get("max_tokens"), md)
	}
	return dst
}

// threadUsage reads a thread message's usage: the counts Claude Code's
// per-model usage names (anthropic.ModelUsage for a map of that object).
func threadUsage(u jsonscan.Value) (universal.Usage, bool) {
	return anthropic.Counts(u, "inputTokens", "cacheReadInputTokens", "cacheCreationInputTokens", "outputTokens", "thinkingTokens")
}

// callUsage is the data of a model call's usage event with what its
// pointers point to, the counts (when read by value) and the context
// window, in one allocation.
type callUsage struct {
	universal.UsageUpdated
	tokens anthropic.Tokens
	window int64
}

// usage emits the usage u of one model call as d; window is the context
// window (Amp's max_tokens, a thread's maxInputTokens), md its metadata
// (JSON) or nil.
func (t *Translator) usage(dst events, d *callUsage, u universal.Usage, window gjson.Result, md []byte) events {
	d.UsageUpdated = universal.UsageUpdated{TurnID: t.w.Turn(), Scope: universal.ScopeCall, Usage: u, Metadata: md}
	if window.Type == gjson.Number && window.Num > 0 {
		d.window = window.Int()
		d.ContextWindow = &d.window
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, universal.SourceAgent, &d.UsageUpdated, t.raw)
}

// approvalPrefix starts the error of a run that stopped because a tool
// needed approval.
const approvalPrefix = "The following tools require user approval"

// result translates the result line: the end of the amp process, and of
// its last turn.
func (t *Translator) result(dst events, r jsonscan.Value) events {
	sub := r.Get("subtype").Str
	isErr := r.Get("is_error").Bool()
	failed := isErr || strings.HasPrefix(sub, "error")
	if sub != "success" && !strings.HasPrefix(sub, "error") {
		return t.unparsed(dst, "subtype", fmt.Errorf("unknown result subtype %q", sub))
	}
	dst = t.ensureTurn(dst)
	if text := r.Sub("result"); !failed && t.s.Answers == 0 && text.Type() == gjson.String && text.Str() != "" {
		// The run's answer without its assistant line (a cut recording):
		// the result repeats it.
		dst = t.answer(dst, text, "", "", "complete", "")
	}
	// Claude Code's result fields, which the manual shows for Amp too.
	if u, ok := resultUsage(r.Sub("usage")); ok {
		d := &universal.UsageUpdated{TurnID: t.w.Turn(), Scope: universal.ScopeSession, Usage: u}
		if c := r.Get("total_cost_usd"); c.Type == gjson.Number {
			d.CostUSD = &c.Num
		}
		dst = t.w.Emit(dst, universal.TypeUsageUpdated, universal.SourceAgent, d, t.raw)
	}
	if denials := r.Sub("permission_denials"); denials.IsArray() {
		denials.Each(func(_ gjson.Result, d jsonscan.Value) bool {
			if d.Type() == gjson.String {
				// The Amp SDK's result type: the names of the denied tools.
				dst = t.denyTool(dst, d.Str(), "permission denied", d.Raw())
				return true
			}
			if !d.IsObject() {
				dst = t.unparsed(dst, "permission_denials", fmt.Errorf("a permission denial of type %s, neither a tool name nor an object", d.Type()))
				return true
			}
			dst = t.denyCall(dst, d.Get("tool_use_id").Str, d.Get("tool_name").Str, "policy", "permission denied", d.Raw())
			return true
		})
	}

	msg := resultError(r, failed)
	cancelled := failed && (strings.Contains(msg, "SIGINT") || strings.Contains(msg, "SIGTERM") || strings.HasPrefix(msg, "User cancelled"))
	if failed && strings.HasPrefix(msg, approvalPrefix) {
		dst = t.approvalDenied(dst, msg)
	}
	if failed && !cancelled {
		var details jsonw.Object
		details.Grow(64)
		r.Field("num_turns").AddTo(&details, "num_turns")
		r.Field("duration_ms").AddTo(&details, "duration_ms")
		text := msg
		if b, ok := apierror.Parse(msg); ok {
			// "413 {"type":"error","error":{…}}": the model API's
			// status and body as Amp passes them on.
			text = b.Message
			b.AddTo(&details)
		}
		dst = t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
			Message: t.w.Copy(text), Code: t.w.Copy(sub), Details: details.Bytes(),
		}, t.raw)
	}
	status := universal.TurnCompleted
	switch {
	case cancelled:
		status = universal.TurnInterrupted
	case failed:
		status = universal.TurnError
	}
	// Room for what endTurn adds too, so that the object is made once.
	var md jsonw.Object
	md.Grow(128 + len(msg) + len(t.s.Stop) + len(t.s.Model) + len(t.s.Elapsed))
	md.String("subtype", sub)
	r.Field("duration_ms").AddTo(&md, "duration_ms")
	r.Field("num_turns").AddTo(&md, "num_turns")
	if failed {
		md.String("error", msg)
	}
	dst = t.endTurn(dst, status, &md, universal.SourceAgent, t.raw)
	t.s.Outcome = outcome{Seen: true, Failed: failed, Cancelled: cancelled, Message: t.w.Copy(msg)}
	return dst
}

// resultUsage is anthropic.Usage of a result line's usage, which Amp's
// own result lines do not have: an absent one is not searched for each
// count.
func resultUsage(u jsonscan.Value) (universal.Usage, bool) {
	if !u.IsObject() {
		return universal.Usage{}, false
	}
	return anthropic.Usage(u)
}

// resultError is the error text of a failed result: error (a string),
// Claude Code's errors[], or the result text; "" for a success.
func resultError(r jsonscan.Value, failed bool) string {
	if !failed {
		return ""
	}
	if e := r.Get("error"); e.Type == gjson.String && e.Str != "" {
		return e.Str
	}
	var msgs []string
	r.Get("errors").ForEach(func(_, e gjson.Result) bool {
		if e.Type == gjson.String {
			msgs = append(msgs, e.Str)
		} else {
			msgs = append(msgs, e.Raw)
		}
		return true
	})
	if len(msgs) > 0 {
		return strings.Join(msgs, "\n")
	}
	if s := r.Get("result").Str; s != "" {
		return s
	}
	if s := r.Get("subtype").Str; s != "" {
		return s
	}
	return "the run failed"
}

// approvalDenied reports the tools an approval error names as denied by
// policy: Amp's stream-json mode cannot ask, so the run ends instead. Each
// name is matched to the oldest pending call of that tool.
func (t *Translator) approvalDenied(dst events, msg string) events {
	names := msg[len(approvalPrefix):]
	if i := strings.LastIndex(names, ": "); i >= 0 {
		names = names[i+2:]
	} else {
		names = ""
	}
	for name := range strings.SplitSeq(names, ",") {
		name = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(name), "."))
		if name == "" {
			continue
		}
		dst = t.denyTool(dst, name, msg, "")
	}
	return dst
}

// denyTool denies the oldest pending call of the tool name (a permission
// of its own when none is pending), unless the tool was denied already
// and no call of it waits.
func (t *Translator) denyTool(dst events, name, reason, nativeRaw string) events {
	id := ""
	for _, p := range t.s.Pending {
		if c := t.s.Calls[p]; c != nil && c.Name == name {
			id = p
			break
		}
	}
	if id == "" && contains(t.s.Denied, name) {
		return dst // its call was reported rejected already
	}
	return t.denyCall(dst, id, name, "policy", reason, nativeRaw)
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
