package opencode

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// callItem returns the tool_call item of a session's call id, "" when
// unknown, and the call_id of its parts (the native id, or the one made
// unique when a later response reused it; see onTool).
func (t *Translator) callItem(sid, callID string) (item, id string) {
	if callID == "" {
		return "", ""
	}
	if p := t.st.Parts[t.st.Calls[callKey(sid, callID)]]; p != nil {
		return p.Call, p.CallID
	}
	return "", t.w.Copy(callID)
}

// request reads the id and session of a permission request or question
// and says how to route it: routeSkip for another session's, and for a
// repeat of one pending or answered.
func (t *Translator) request(e *event, pending func(string) bool) (id, sid string, rt int) {
	id, sid = e.props.Get("id").Str, e.props.Get("sessionID").Str
	if id == "" {
		return "", sid, routeSkip
	}
	rt = t.route(sid, true)
	if pending(id) || t.st.Resolved[id] {
		rt = routeSkip
	}
	return id, sid, rt
}

// onPermission handles the three generations of permission requests:
//
//	permission.updated  {id, type, pattern, title, metadata, callID, messageID}   ≤ 1.0
//	permission.asked    {id, permission, patterns, metadata, always, tool{callID}} ≥ 1.1
//	permission.v2.asked {id, action, resources, save, metadata, source{callID}}
//	permission.asked    {id, action, resources, save?, metadata?, source?{type, messageID, id}, message?}  2.x
func (t *Translator) onPermission(dst []universal.Event, e *event) []universal.Event {
	p := e.props
	id, sid, rt := t.request(e, t.w.PermissionPending)
	if id == "" {
		return t.unparsed(dst, e, errors.New("permission request without id"))
	}
	if rt == routeSkip {
		return dst
	}
	var action, callID string
	var md jsonw.Object
	switch {
	case e.typ == "permission.updated":
		action, callID = p.Get("type").Str, p.Get("callID").Str
		md.OptString("title", p.Get("title").Str)
		md.Raw("pattern", p.Get("pattern").Raw)
	case e.typ == "permission.asked" && !p.Get("action").Exists():
		action, callID = p.Get("permission").Str, p.Get("tool.callID").Str
		md.Raw("patterns", p.Get("patterns").Raw)
		md.Raw("always", p.Get("always").Raw)
	default:
		// permission.v2.asked, and 2.x's permission.asked: source
		// {type: "tool", messageID, id}, the call's id in id.
		action, callID = p.Get("action").Str, p.Get("source.callID").Str
		if callID == "" {
			callID = p.Get("source.id").Str
		}
		md.Raw("resources", p.Get("resources").Raw)
		md.Raw("save", p.Get("save").Raw)
		md.Raw("source", p.Get("source").Raw)
		md.OptString("message", p.Get("message").Str)
	}
	md.Raw("metadata", p.Get("metadata").Raw)
	if rt == routeChild {
		md.String("session_id", sid)
	}
	id = t.w.Copy(id)
	item, call := t.callItem(sid, callID)
	info := permInfo{Action: t.w.Copy(action), Item: item, CallID: call}
	put(&t.st.Perms, id, info)
	return t.w.RequestPermission(dst, universal.Permission{
		PermissionID: id,
		Action:       info.Action,
		Metadata:     md.Bytes(),
		ItemID:       info.Item,
		CallID:       info.CallID,
	}, universal.SourceAgent, e.raw)
}

// onPermissionReplied handles permission.replied in both shapes
// ({permissionID, response} and {requestID, reply}) and
// permission.v2.replied: once and always approve, reject denies.
func (t *Translator) onPermissionReplied(dst []universal.Event, e *event) []universal.Event {
	p := e.props
	id := p.Get("requestID").Str
	if id == "" {
		id = p.Get("permissionID").Str
	}
	reply := p.Get("reply").Str
	if reply == "" {
		reply = p.Get("response").Str
	}
	if id == "" {
		return t.unparsed(dst, e, errors.New("permission reply without requestID"))
	}
	if !t.w.PermissionPending(id) && (t.st.Resolved[id] || t.route(p.Get("sessionID").Str, false) == routeSkip) {
		return dst
	}
	status, ok := replyStatus(reply)
	if !ok {
		return t.unparsed(dst, e, fmt.Errorf("unknown permission reply %q", reply))
	}
	id = t.w.Copy(id)
	put(&t.st.Resolved, id, true)
	info := t.st.Perms[id]
	return t.w.ResolvePermission(dst, universal.Permission{
		PermissionID: id,
		Action:       info.Action,
		Status:       status,
		Metadata:     decisionMetadata(reply, ""),
		ItemID:       info.Item,
		CallID:       info.CallID,
	}, universal.SourceAgent, e.raw)
}

func replyStatus(reply string) (universal.PermissionStatus, bool) {
	switch reply {
	case "once", "always", "allow", "approve", "approved":
		return universal.PermissionApproved, true
	case "reject", "deny", "denied":
		return universal.PermissionDenied, true
	}
	return "", false
}

// decisionMetadata is the metadata of a resolved permission.
func decisionMetadata(reply, message string) []byte {
	var o jsonw.Object
	o.OptString("reply", reply)
	o.OptString("message", message)
	return metaOrNil(&o)
}

// onQuestion handles question.asked: every question is kept in metadata;
// the prompt joins the questions (after a 2.x form's title) and the
// options list every label.
func (t *Translator) onQuestion(dst []universal.Event, e *event) []universal.Event {
	p := e.props
	id, sid, rt := t.request(e, t.w.QuestionPending)
	if id == "" {
		return t.unparsed(dst, e, errors.New("question without id"))
	}
	if rt == routeSkip {
		return dst
	}
	qs := p.Sub("questions")
	prompt, options := questionText(p.Get("title").Str, qs) // a 2.x form's title
	var md jsonw.Object
	qs.AddTo(&md, "questions")
	md.Raw("form", p.Get("form").Raw)
	if rt == routeChild {
		md.String("session_id", sid)
	}
	id = t.w.Copy(id)
	item, _ := t.callItem(sid, p.Get("tool.callID").Str)
	q := questionInfo{Item: item, Prompt: prompt, Options: options}
	p.Get("form.fields").ForEach(func(_, fd gjson.Result) bool {
		q.Keys = append(q.Keys, strings.Clone(fd.Get("key").Str))
		return true
	})
	put(&t.st.Questions, id, q)
	return t.w.AskQuestion(dst, universal.Question{
		QuestionID: id,
		Prompt:     q.Prompt,
		Options:    q.Options,
		ItemID:     q.Item,
		Metadata:   md.Bytes(),
	}, universal.SourceAgent, e.raw)
}

// questionText is a question request's prompt (the title, then each
// question's text, a line each) and its options (every question's
// labels).
func questionText(title string, qs jsonscan.Value) (string, []string) {
	var prompt strings.Builder
	prompt.WriteString(title)
	var options []string
	qs.ForEach(func(_, q gjson.Result) bool {
		if prompt.Len() > 0 {
			prompt.WriteByte('\n')
		}
		prompt.WriteString(q.Get("question").Str)
		q.Get("options").ForEach(func(_, o gjson.Result) bool {
			options = append(options, strings.Clone(o.Get("label").Str))
			return true
		})
		return true
	})
	return prompt.String(), options
}

// answersText is the response of a question's answers (one list of
// labels per question): a question's labels joined by ", ", the
// questions' by "; ".
func answersText(answers jsonscan.Value) string {
	var resp strings.Builder
	answers.ForEach(func(_, a gjson.Result) bool {
		if resp.Len() > 0 {
			resp.WriteString("; ")
		}
		first := true
		a.ForEach(func(_, s gjson.Result) bool {
			if !first {
				resp.WriteString(", ")
			}
			first = false
			resp.WriteString(s.Str)
			return true
		})
		return true
	})
	return resp.String()
}

// onQuestionResolved handles question.replied (answers: one list of
// labels per question) and question.rejected.
func (t *Translator) onQuestionResolved(dst []universal.Event, e *event) []universal.Event {
	p := e.props
	id := p.Get("requestID").Str
	if id == "" {
		return t.unparsed(dst, e, errors.New("question reply without requestID"))
	}
	if !t.w.QuestionPending(id) && (t.st.Resolved[id] || t.route(p.Get("sessionID").Str, false) == routeSkip) {
		return dst
	}
	asked := t.st.Questions[id]
	q := universal.Question{QuestionID: t.w.Copy(id), Status: universal.QuestionAnswered, ItemID: asked.Item, Prompt: asked.Prompt, Options: asked.Options}
	if strings.HasSuffix(e.typ, "rejected") {
		q.Status = universal.QuestionRejected
	} else {
		answers := p.Sub("answers")
		q.Response = answersText(answers)
		var md jsonw.Object
		answers.AddTo(&md, "answers")
		md.Raw("answer", p.Get("answer").Raw) // a 2.x form's
		q.Metadata = md.Bytes()
	}
	put(&t.st.Resolved, q.QuestionID, true)
	return t.w.ResolveQuestion(dst, q, universal.SourceAgent, e.raw)
}

// onTodo maps todo.updated to a completed status item holding the plan
// as a checklist (detail) and the native todos (metadata); each update is
// a new item.
func (t *Translator) onTodo(dst []universal.Event, e *event) []universal.Event {
	sid := e.props.Get("sessionID").Str
	rt := t.route(sid, true)
	if rt == routeSkip {
		return dst
	}
	parent := ""
	if rt == routeChild {
		parent = t.st.Links[sid]
	}
	return t.todoItem(dst, e.props.Sub("todos"), parent, e.raw)
}

// onStepFinish reports a step-finish part's tokens and cost as the usage
// of one model call, once per message: a message whose usage was already
// reported from its info.tokens (it completed before this part came) is
// not reported again.
func (t *Translator) onStepFinish(dst []universal.Event, f *partFields, rt int, e *event) []universal.Event {
	if rt == routeRoot {
		t.st.Turn.StepOpen = false
	}
	tok := f.tokens
	if !tok.IsObject() {
		return dst
	}
	m := t.st.Msgs[f.msg.Str()]
	if m != nil {
		if m.InfoUsage {
			return dst
		}
		m.StepUsage = true
	}
	return t.emitUsage(dst, tok, f.cost, m, e.raw)
}

// emitUsage reports OpenCode tokens ({input, output, reasoning, cache:
// {read, write}, total?}: a step-finish part's, or an assistant message's
// info.tokens) and cost as the usage of one model call. OpenCode's input
// excludes the cache reads and writes; output excludes reasoning in
// current versions (total = input + output + reasoning + cache, observed
// in 1.17 and 1.18) and includes it in old ones. The universal usage
// counts all input (cached ⊂ input) and all output (reasoning ⊂ output).
// The metadata names the model and provider of m, the call's message (nil
// when unknown), when its info named them.
func (t *Translator) emitUsage(dst []universal.Event, tok, cost jsonscan.Value, m *msgState, raw []byte) []universal.Event {
	f := readTokens(tok)
	in, out, rsn := f.input.Int(), f.output.Int(), f.reasoning.Int()
	cr, cw := f.cacheCount("read"), f.cacheCount("write")
	input := in + cr + cw
	output := out
	total := f.total
	switch {
	case !total.Exists():
		// Builds without a total counted reasoning inside output.
	case total.Int() == input+out:
		// Reasoning already inside output.
	default:
		output = out + rsn
	}
	// One allocation for the event's data and the numbers it points to.
	mem := &struct {
		d    universal.UsageUpdated
		n    [6]int64
		cost float64
	}{n: [6]int64{input, cr, cw, output, rsn, input + output}}
	if total.Exists() {
		mem.n[5] = total.Int()
	}
	d := &mem.d
	*d = universal.UsageUpdated{TurnID: t.w.Turn(), Scope: universal.ScopeCall, Usage: universal.Usage{
		InputTokens:       &mem.n[0],
		CachedInputTokens: &mem.n[1],
		CacheWriteTokens:  &mem.n[2],
		OutputTokens:      &mem.n[3],
		ReasoningTokens:   &mem.n[4],
		TotalTokens:       &mem.n[5],
	}}
	if cost.Type() == gjson.Number {
		mem.cost = cost.Result().Float()
		d.CostUSD = &mem.cost
	}
	if m != nil && (m.Model != "" || m.Provider != "") {
		d.Metadata = t.usageMetadata(m.Model, m.Provider, m.Variant)
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, universal.SourceAgent, d, raw)
}

// usageMetadata is the metadata of a call usage: the model and provider
// that made the call, and the model's variant (its reasoning effort,
// model_variant as session.started names the session's). It is made once a model (events may share it:
// nothing writes to it), not once a call.
func (t *Translator) usageMetadata(model, provider, variant string) []byte {
	u := &t.usageMD
	if u.md == nil || u.model != model || u.provider != provider || u.variant != variant {
		var o jsonw.Object
		o.Grow(len(`{"model":"","provider":"","model_variant":""}`) + len(model) + len(provider) + len(variant))
		md := o.OptString("model", model).OptString("provider", provider).OptString("model_variant", variant).Bytes()
		u.md, u.model, u.provider, u.variant = md[:len(md):len(md)], model, provider, variant
	}
	return u.md
}

// tokenFields are the members of OpenCode tokens, read in one walk (the
// first of duplicate keys, as a lookup finds).
type tokenFields struct {
	tok                             jsonscan.Value
	input, output, reasoning, total jsonscan.Value
	cache                           jsonscan.Value
	cacheDup                        bool // more than one cache member
}

func readTokens(tok jsonscan.Value) (f tokenFields) {
	f.tok = tok
	tok.Members(func(k string, v jsonscan.Value) bool {
		switch k {
		case "input":
			jsonscan.KeepFirst(&f.input, v)
		case "output":
			jsonscan.KeepFirst(&f.output, v)
		case "reasoning":
			jsonscan.KeepFirst(&f.reasoning, v)
		case "total":
			jsonscan.KeepFirst(&f.total, v)
		case "cache":
			f.cacheDup = f.cache.Exists()
			jsonscan.KeepFirst(&f.cache, v)
		}
		return true
	})
	return f
}

// cacheCount returns tokens cache.<key> as an integer, what
// tok.Get("cache." + key).Int() returns: with several cache members,
// gjson's rule picks the member.
func (f *tokenFields) cacheCount(key string) int64 {
	if f.cacheDup {
		return f.tok.Get("cache." + key).Int()
	}
	return f.cache.Get(key).Int()
}

// tokensReported reports whether OpenCode tokens count anything (an
// assistant message's info carries zeros until its first step finishes).
func tokensReported(tok jsonscan.Value) bool {
	if !tok.IsObject() {
		return false
	}
	f := readTokens(tok)
	for _, v := range [...]jsonscan.Value{f.input, f.output, f.reasoning, f.total} {
		if v.Int() != 0 {
			return true
		}
	}
	return f.cache.Exists() && (f.cacheCount("read") != 0 || f.cacheCount("write") != 0)
}
