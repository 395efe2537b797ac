package amp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// thread translates a thread document: {v, id, created, agentMode, title,
// messages[], env, meta, …}.
func (t *Translator) thread(dst events, doc gjson.Result) events {
	if t.s.Doc {
		return t.unparsed(dst, "", errSecondThread)
	}
	msgs := doc.Get("messages")
	if !msgs.IsArray() {
		return t.unparsed(dst, "messages", errors.New("a thread document without a messages array"))
	}
	t.s.Doc = true
	if id := doc.Get("id").Str; id != "" {
		t.w.SetNativeSessionID(t.w.Copy(id))
	}
	dst = t.w.Begin(dst, threadMetadata(doc), universal.SourceAgent, t.raw)
	whole := t.raw
	i := 0
	msgs.ForEach(func(_, m gjson.Result) bool {
		t.at, t.raw = "messages["+strconv.Itoa(i)+"]", bytesOf(m.Raw)
		dst = t.threadMessage(dst, m)
		i++
		return true
	})
	t.at, t.raw = "", whole
	if t.w.Turn() != "" {
		// The document is the whole thread so far: its last turn ends
		// with it.
		status := t.inferredStatus(true)
		var md jsonw.Object
		if t.s.LastRole != "assistant" {
			md.String("reason", "the thread ends before the agent answered")
		}
		dst = t.endTurn(dst, status, &md, universal.SourceDaemon, nil)
	}
	t.s.Outcome.Seen = true
	return dst
}

// threadMetadata is session.started's metadata for a thread document.
func threadMetadata(doc gjson.Result) []byte {
	var md jsonw.Object
	md.String("agent", agentName)
	platform := doc.Get("env.initial.platform")
	md.Raw("agent_version", platform.Get("clientVersion").Raw).Raw("client", platform.Get("client").Raw)
	if m := threadModel(doc); m != "" {
		md.String("model", m)
	}
	if uri := doc.Get("env.initial.trees.0.uri").Str; uri != "" {
		md.String("cwd", filePath(uri))
	}
	md.Raw("agent_mode", doc.Get("agentMode").Raw).Raw("title", doc.Get("title").Raw).
		Raw("schema_version", doc.Get("v").Raw).Raw("created_ms", doc.Get("created").Raw).
		Raw("trees", doc.Get("env.initial.trees").Raw)
	return md.Bytes()
}

// threadModel is the thread's model: its "model:" tag, else the model of
// the first message usage that names one.
func threadModel(doc gjson.Result) string {
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
	doc.Get("messages").ForEach(func(_, m gjson.Result) bool {
		model = m.Get("usage.model").Str
		return model == ""
	})
	return model
}

// threadMessage translates one message of a thread.
func (t *Translator) threadMessage(dst events, m gjson.Result) events {
	native := ""
	if id := m.Get("messageId"); id.Exists() {
		native = t.w.Copy(strings.Trim(id.Raw, `"`))
	}
	switch role := m.Get("role").Str; role {
	case "user":
		parts, results, ok := t.blocks(m.Get("content"), func(b gjson.Result) {
			dst = t.threadResult(dst, b)
		})
		switch {
		case !ok:
			return t.unparsed(dst, "content", errNoContent)
		case len(parts) == 0:
			return dst
		case results > 0:
			dst = t.ensureTurn(dst)
			return t.userMessage(dst, native, "", parts, universal.SourceAgent, t.raw)
		}
		return t.prompt(dst, native, parts)
	case "assistant":
		return t.threadAssistant(dst, m, native)
	default:
		return t.unparsed(dst, "role", fmt.Errorf("unknown message role %q", role))
	}
}

// threadAssistant translates an assistant message of a thread: content
// as in stream-json, state {type, stopReason}, usage in camelCase with the
// model, turnElapsedMs on a turn's last message.
func (t *Translator) threadAssistant(dst events, m gjson.Result, native string) events {
	content := m.Get("content")
	if content.Type != gjson.String && !content.IsArray() {
		return t.unparsed(dst, "content", errNoContent)
	}
	state := m.Get("state")
	ended := state.Get("type").Str
	if ended == "" {
		ended = "complete"
	}
	dst = t.ensureTurn(dst)
	dst = t.answer(dst, content, native, "", ended)
	t.s.Ended, t.s.Stop, t.s.LastRole = t.w.Copy(ended), t.w.Copy(state.Get("stopReason").Raw), "assistant"
	t.s.Answers++
	if e := m.Get("turnElapsedMs"); e.Type == gjson.Number {
		t.s.Elapsed = t.w.Copy(e.Raw)
	}
	t.s.Outcome = outcome{}
	if ended == "error" {
		msg := first(state.Get("error.message").Str, state.Get("error").Str, "the model call failed")
		var details jsonw.Object
		details.Raw("state", state.Raw)
		dst = t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
			Message: t.w.Copy(msg), Code: "error", Details: details.Bytes(),
		}, t.raw)
		t.s.Outcome = outcome{Failed: true, Message: t.w.Copy(msg)}
	}
	if u := m.Get("usage"); u.IsObject() {
		// The camelCase names are those of Claude Code's per-model usage.
		totals := anthropic.ModelUsage(gjson.Parse(`{"m":` + u.Raw + `}`))
		if totals.Usage.InputTokens != nil || totals.Usage.OutputTokens != nil {
			dst = t.usage(dst, totals.Usage, u.Get("maxInputTokens"))
		}
		if model := u.Get("model").Str; model != "" {
			t.s.Model = t.w.Copy(model)
		}
	}
	return dst
}

// threadResult translates a thread's tool_result block {toolUseID,
// run{status, result, error, reason, progress}}. The output is what
// stream-json would have sent for it: the result (its readable part, see
// structured), the error, or the cancellation or refusal with its reason.
func (t *Translator) threadResult(dst events, b gjson.Result) events {
	o := toolOut{call: b.Get("toolUseID").Str}
	run := b.Get("run")
	o.status = run.Get("status").Str
	c := t.s.Calls[o.call]
	switch o.status {
	case "done":
		res := run.Get("result")
		switch {
		case res.Type == gjson.String:
			o.output = t.w.Copy(res.Str)
		case res.IsObject():
			if out, ok := t.structured(&o, res); ok {
				o.output = out
				o.extra = append(o.extra, anthropic.JSONPart(res.Raw))
			} else {
				o.output = string(jsonw.AppendRaw(nil, res.Raw))
			}
		case res.Exists():
			o.output = string(jsonw.AppendRaw(nil, res.Raw))
		}
	case "error":
		o.isError = true
		e := run.Get("error")
		o.output = t.w.Copy(first(e.Str, e.Get("message").Str, "Tool execution error"))
		if e.IsObject() {
			o.extra = append(o.extra, anthropic.JSONPart(e.Raw))
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
		if c == nil || t.w.PermissionPending(o.call) {
			return dst
		}
		var md jsonw.Object
		md.String("source", "user")
		id := t.w.Copy(o.call)
		return t.w.RequestPermission(dst, universal.Permission{
			PermissionID: id, Action: c.Name, ItemID: c.Item, CallID: id, Metadata: md.Bytes(),
		}, universal.SourceAgent, t.raw)
	default:
		return t.unparsed(dst, "content", fmt.Errorf("tool_result %q: unknown run status %q", o.call, o.status))
	}
	return t.toolResult(dst, c, &o, "")
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
