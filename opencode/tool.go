package opencode

import (
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// hasInput reports whether a tool state carries real arguments: the
// pending state has {} (or nothing; clients that re-encode JSON write []).
func hasInput(in gjson.Result) bool {
	return in.IsObject() && strings.TrimSpace(in.Raw[1:len(in.Raw)-1]) != ""
}

// callKey keys a tool call by session and provider call id (call ids are
// only unique within a session).
func callKey(sid, callID string) string { return sid + "\x00" + callID }

// onTool handles a tool part. The part is an upsert that goes pending →
// running (repeated, with cumulative metadata.output) → completed | error:
//
//   - the tool_call item starts at the first sight of the part and is
//     completed as soon as the input is known (the pending state's {}
//     never overwrites it), with the name of that update;
//   - the tool_result item (parent: the call) starts at running, streams
//     metadata.output as deltas when it extends what was emitted, and is
//     completed at completed (output, title, metadata) or error (failed,
//     the error text).
func (t *Translator) onTool(dst []universal.Event, m *msgState, p *partState, part gjson.Result, sid string, e *event) []universal.Event {
	if p.ResultDone {
		return dst
	}
	state := part.Get("state")
	status := state.Get("status").Str
	switch status {
	case "pending", "running", "completed", "error":
	default:
		return t.unparsed(dst, e, fmt.Errorf("unknown tool status %q", status))
	}
	pid := p.ID
	name := part.Get("tool").Str
	input := state.Get("input")
	if p.Call == "" {
		p.Call = t.w.NewItemID()
		p.CallID = t.w.Copy(part.Get("callID").Str)
		if p.CallID != "" {
			t.st.Calls[callKey(m.Session, p.CallID)] = pid
		}
		dst = t.w.StartItem(dst, universal.Item{
			ItemID:       p.Call,
			NativeItemID: pid,
			ParentID:     m.Item,
			Kind:         universal.KindToolCall,
			Role:         universal.RoleAssistant,
			Content:      []universal.Part{{Type: universal.PartToolCall, Name: t.w.Copy(name), CallID: p.CallID}},
		}, universal.SourceAgent, e.raw)
	}
	if !p.CallDone && (hasInput(input) || status == "completed" || status == "error") {
		p.CallDone = true
		args := "{}"
		if hasInput(input) {
			// Compact: clients that re-encode events pretty-print them.
			args = string(jsonw.AppendRaw(nil, input.Raw))
		}
		dst = t.w.Complete(dst, universal.Item{
			ItemID:       p.Call,
			NativeItemID: pid,
			ParentID:     m.Item,
			Kind:         universal.KindToolCall,
			Role:         universal.RoleAssistant,
			Content:      []universal.Part{{Type: universal.PartToolCall, Name: t.w.Copy(name), Arguments: args, CallID: p.CallID}},
		}, universal.SourceAgent, e.raw)
	}
	if child := state.Get("metadata.sessionId").Str; child != "" {
		// The task tool names the sub-agent session it runs.
		t.link(child, m.Session, p.Call)
	}
	switch status {
	case "running":
		dst = t.startResult(dst, pid, p, e.raw)
		if out := state.Get("metadata.output"); out.Type == gjson.String {
			emitted := t.w.StreamedText(p.Result, 0)
			if s := out.Str; len(s) > len(emitted) && strings.HasPrefix(s, emitted) {
				dst = t.w.Delta(dst, p.Result, 0, universal.PartToolResult, s[len(emitted):], universal.SourceAgent, e.raw)
			}
		}
	case "completed", "error":
		dst = t.completeResult(dst, pid, p, name, status, state, e)
	}
	return dst
}

// startResult starts the tool_result item once.
func (t *Translator) startResult(dst []universal.Event, pid string, p *partState, raw []byte) []universal.Event {
	if p.Result != "" {
		return dst
	}
	p.Result = t.w.NewItemID()
	return t.w.StartItem(dst, universal.Item{
		ItemID:       p.Result,
		NativeItemID: pid,
		ParentID:     p.Call,
		Kind:         universal.KindToolResult,
		Role:         universal.RoleTool,
		Content:      []universal.Part{{Type: universal.PartToolResult, CallID: p.CallID}},
	}, universal.SourceAgent, raw)
}

// completeResult completes the tool_result item from a final tool state.
func (t *Translator) completeResult(dst []universal.Event, pid string, p *partState, name, status string, state gjson.Result, e *event) []universal.Event {
	p.ResultDone = true
	failed := status == "error"
	out := state.Get("output").Str
	if failed {
		out = state.Get("error").Str
		if t.format == FormatRunJSON && rejectedPermission(out) {
			dst = t.policyDenial(dst, p, name)
		}
	}
	var md jsonw.Object
	md.OptString("title", state.Get("title").Str)
	if v := state.Get("metadata"); v.IsObject() && v.Raw != "{}" {
		md.Raw("metadata", v.Raw)
	}
	if v := state.Get("attachments"); v.IsArray() && v.Raw != "[]" {
		md.Raw("attachments", v.Raw)
	}
	if e, ok := t.st.SubErrs[p.Call]; ok {
		md.RawBytes("sub_agent_error", e)
		delete(t.st.SubErrs, p.Call)
	}
	content := []universal.Part{{
		Type:     universal.PartToolResult,
		CallID:   p.CallID,
		Output:   t.w.Copy(out),
		IsError:  failed,
		Metadata: metaOrNil(&md),
	}}
	if !failed {
		content = append(content, fileRefs(name, state)...)
	}
	it := universal.Item{
		ItemID:       p.Result,
		NativeItemID: pid,
		ParentID:     p.Call,
		Kind:         universal.KindToolResult,
		Role:         universal.RoleTool,
		Content:      content,
		Status:       universal.StatusCompleted,
	}
	if failed {
		it.Status = universal.StatusFailed
	}
	if p.Result == "" {
		p.Result = t.w.NewItemID()
		it.ItemID = p.Result
	}
	return t.w.Complete(dst, it, universal.SourceAgent, e.raw)
}

// fileRefs names the file a completed built-in file tool read or changed.
func fileRefs(name string, state gjson.Result) []universal.Part {
	path := state.Get("input.filePath").Str
	if path == "" {
		return nil
	}
	switch name {
	case "read":
		return []universal.Part{{Type: universal.PartFileRef, Path: strings.Clone(path), Action: universal.FileRead}}
	case "write":
		return []universal.Part{{Type: universal.PartFileRef, Path: strings.Clone(path), Action: universal.FileWrite}}
	case "edit":
		return []universal.Part{{Type: universal.PartFileRef, Path: strings.Clone(path), Action: universal.FilePatch, Diff: strings.Clone(state.Get("metadata.diff").Str)}}
	}
	return nil
}

// rejectedPermission reports whether a tool's error says a permission
// request was rejected: "The user rejected permission to use this specific
// tool call." (also with an "Error: " prefix, 1.1), or the error's tagged
// name, PermissionRejectedError({"_tag":…}) (observed in 1.2.27).
func rejectedPermission(err string) bool {
	return strings.Contains(err, "rejected permission") || strings.HasPrefix(err, "PermissionRejectedError")
}

// policyDenial reports, for run output, the permission request that
// opencode run rejected on its own (it never prints the request): a
// synthetic requested/resolved pair, denied by policy.
func (t *Translator) policyDenial(dst []universal.Event, p *partState, name string) []universal.Event {
	t.st.RunPerms++
	t.st.Turn.Denied = true
	id := fmt.Sprintf("run_perm_%d", t.st.RunPerms)
	var o jsonw.Object
	md := o.String("source", "policy").String("reason", "opencode run rejects permission requests unless run with --auto").Bytes()
	perm := universal.Permission{PermissionID: id, Action: t.w.Copy(name), Metadata: md, ItemID: p.Call, CallID: p.CallID}
	dst = t.w.RequestPermission(dst, perm, universal.SourceDaemon, nil)
	perm.Status = universal.PermissionDenied
	return t.w.ResolvePermission(dst, perm, universal.SourceDaemon, nil)
}
