package opencode

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// How an event's session relates to the followed one.
const (
	routeSkip  = iota // another session: not mixed in
	routeRoot         // the followed session
	routeChild        // a sub-agent session linked to it
)

// maxDepth bounds the walk up the chain of parent sessions.
const maxDepth = 16

// route says how to treat an event of session sid. selects: the event is
// activity that may choose the session to follow when none is chosen yet.
func (t *Translator) route(sid string, selects bool) int {
	s := &t.st
	switch {
	case sid == "":
		return routeSkip
	case s.Session == "":
		if !selects {
			return routeSkip
		}
		if _, child := s.Parents[sid]; child {
			return routeSkip
		}
		s.Session = t.w.Copy(sid)
		t.w.SetNativeSessionID(s.Session)
		if s.Cwd == "" && sid == s.WhereSession {
			// A 2.x session event's location (see located).
			s.Cwd = s.WhereDir
		}
		return routeRoot
	case sid == s.Session:
		return routeRoot
	case t.linked(sid):
		return routeChild
	}
	return routeSkip
}

// linked reports whether sid descends from the followed session.
func (t *Translator) linked(sid string) bool {
	for range maxDepth {
		p, ok := t.st.Parents[sid]
		if !ok {
			return false
		}
		if p == t.st.Session {
			return true
		}
		sid = p
	}
	return false
}

// link records that child was spawned from session parent by the tool
// call item call ("" when unknown).
func (t *Translator) link(child, parent, call string) {
	if child == "" || child == t.st.Session {
		return
	}
	if _, ok := t.st.Parents[child]; !ok && parent != "" && parent != child {
		put(&t.st.Parents, t.w.Copy(child), t.w.Copy(parent))
	}
	if call != "" && t.st.Links[child] == "" {
		put(&t.st.Links, t.w.Copy(child), call)
	}
}

// onSessionInfo handles session.created and session.updated: a root
// session's creation starts the translated session with its metadata;
// a child's records its parent.
func (t *Translator) onSessionInfo(dst []universal.Event, e *event, created bool) []universal.Event {
	info := e.props.Sub("info")
	if !info.Exists() {
		// OpenCode 2.x: the session's fields are the data itself,
		// {sessionID, parentID?, title, slug, …}.
		info = e.props
	}
	id := info.Get("id").Str
	if id == "" {
		id = e.props.Get("sessionID").Str
	}
	if id == "" {
		return t.unparsed(dst, e, errors.New("session event without info.id"))
	}
	if parent := info.Get("parentID").Str; parent != "" {
		t.link(id, parent, "")
		return t.onRevert(dst, id, info, e.raw)
	}
	// A 2.x session's directory is its event's location.
	dir := cmp.Or(info.Get("directory").Str, e.dir)
	if created && t.route(id, true) == routeRoot && !t.w.Begun() {
		dst = t.w.BeginClean(dst, sessionMetadata(info, dir), universal.SourceAgent, e.raw)
		t.st.Title = t.w.Copy(info.Get("title").Str)
		t.st.TitleTime = info.Get("time.updated").Int()
	} else if id == t.st.Session {
		dst = t.title(dst, info.Get("title").Str, info.Get("time.updated").Int(), e.raw)
	}
	if id == t.st.Session && t.st.Cwd == "" {
		t.st.Cwd = t.w.Copy(dir)
	}
	if id != t.st.Session && !t.st.Roots[id] {
		put(&t.st.Roots, t.w.Copy(id), true)
	}
	return t.onRevert(dst, id, info, e.raw)
}

// adopt links sid, a session of no known origin whose part came, to the
// followed session's one running task call that named no sub-agent
// session (see state.Tasks), and reports whether it did. A stream of part
// events alone (no session.created) shows sub-agents of OpenCode 0.5 no
// other way.
func (t *Translator) adopt(sid string) bool {
	if sid == "" || t.st.Session == "" || len(t.st.Tasks) != 1 || t.st.Roots[sid] {
		return false
	}
	if _, known := t.st.Parents[sid]; known {
		return false
	}
	for call := range t.st.Tasks { // the one
		t.link(sid, t.st.Session, call)
	}
	t.st.Tasks = nil
	return true
}

// title reports a new title of the followed session (a session.updated
// that changes it, a 2.x session.renamed) as a status item labelled
// "title" whose detail is the title. The title the session starts with is
// session.started metadata; session.updated repeats the title it has
// with every other change, which is no change. A title before the session
// started is not reported: session.created, which starts it, has it.
//
// updated is the Session's time.updated (0 when it has none): a server
// re-sends older Session states after a reconnect, and a title from a
// state no later than the one the current title came from is stale.
// (Two states of one millisecond can carry two titles, so a title is
// taken when its state is later than the first state showing the
// current title, not than the last one.)
func (t *Translator) title(dst []universal.Event, title string, updated int64, raw []byte) []universal.Event {
	if title == "" || title == t.st.Title || !t.w.Begun() || updated != 0 && updated <= t.st.TitleTime {
		return dst
	}
	t.st.Title, t.st.TitleTime = t.w.Copy(title), updated
	return t.w.Complete(dst, universal.Item{
		ItemID:  t.w.NewItemID(),
		Kind:    universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: universal.LabelTitle, Detail: t.st.Title}},
	}, universal.SourceAgent, raw)
}

// onRevert reports a change of a session's revert point (Session
// info.revert {messageID, partID?, snapshot, diff}: the user reverted the
// session to before that message, or part, and OpenCode restored the
// files). A new revert point is a completed status item "reverted" naming
// the message (and part) reverted to, with the item of that message, the
// snapshot and the diff in its metadata; a revert point that goes away
// is a status item "unreverted" (the user undid the revert), except once
// OpenCode removed the reverted message (a new prompt made the revert
// final, and message.removed reported each message). Items are notices
// about the session (no parent; a sub-agent's are under its task call).
func (t *Translator) onRevert(dst []universal.Event, sid string, info jsonscan.Value, raw []byte) []universal.Event {
	rt := t.route(sid, false)
	if rt == routeSkip {
		return dst
	}
	parent := ""
	if rt == routeChild {
		parent = t.st.Links[sid]
	}
	rv := info.Sub("revert")
	prev, had := t.st.Reverts[sid]
	if !rv.IsObject() || rv.Get("messageID").Str == "" {
		if !had {
			return dst
		}
		delete(t.st.Reverts, sid)
		if prev.Removed {
			return dst
		}
		var o jsonw.Object
		o.String("message_id", prev.Msg).OptString("part_id", prev.Part)
		if m := t.st.Msgs[prev.Msg]; m != nil {
			o.String("item_id", m.Item)
		}
		return t.w.Complete(dst, universal.Item{
			ItemID:   t.w.NewItemID(),
			ParentID: parent,
			Kind:     universal.KindStatus,
			Content:  []universal.Part{{Type: universal.PartStatus, Label: "unreverted", Detail: "revert to message " + prev.Msg + " undone", Metadata: o.Bytes()}},
		}, universal.SourceAgent, raw)
	}
	cur := revertState{Msg: rv.Get("messageID").Str, Part: rv.Get("partID").Str}
	if had && prev.Msg == cur.Msg && prev.Part == cur.Part {
		return dst
	}
	cur.Msg, cur.Part = t.w.Copy(cur.Msg), t.w.Copy(cur.Part)
	put(&t.st.Reverts, t.w.Copy(sid), cur)
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: parent,
		Kind:     universal.KindStatus,
		Content:  []universal.Part{revertPart(cur, rv, t.st.Msgs[cur.Msg])},
	}, universal.SourceAgent, raw)
}

// revertPart is the status part of a revert point.
func revertPart(r revertState, rv jsonscan.Value, m *msgState) universal.Part {
	var o jsonw.Object
	o.String("message_id", r.Msg).OptString("part_id", r.Part)
	if m != nil {
		o.String("item_id", m.Item)
	}
	o.OptString("snapshot", rv.Get("snapshot").Str)
	o.OptString("diff", rv.Get("diff").Str)
	detail := "reverted to before message " + r.Msg
	if r.Part != "" {
		detail = "reverted to before part " + r.Part + " of message " + r.Msg
	}
	return universal.Part{Type: universal.PartStatus, Label: universal.LabelReverted, Detail: detail, Metadata: o.Bytes()}
}

// sessionMetadata is the session.started metadata from a Session object.
func sessionMetadata(info jsonscan.Value, dir string) []byte {
	var o jsonw.Object
	o.String("agent", agentName)
	o.OptString("agent_version", info.Get("version").Str)
	o.OptString("cwd", dir)
	o.OptString("title", info.Get("title").Str)
	o.OptString("slug", info.Get("slug").Str)
	o.OptString("project_id", info.Get("projectID").Str)
	o.OptString("workspace_id", info.Get("workspaceID").Str)
	if m := info.Sub("model"); m.IsObject() {
		// {id, providerID, variant}: the model and provider as every
		// agent names them.
		o.OptString("model", m.Get("id").Str)
		o.OptString("provider", m.Get("providerID").Str)
		o.OptString("model_variant", m.Get("variant").Str)
	}
	o.OptString("agent_name", info.Get("agent").Str)
	o.OptString("parent_id", info.Get("parentID").Str)
	o.OptString("share_url", info.Get("share.url").Str)
	if ms := info.Sub("time").Sub("created"); ms.Type() == gjson.Number {
		if n, err := strconv.ParseInt(ms.Raw(), 10, 64); err == nil {
			o.String("created_at", time.UnixMilli(n).UTC().Format(universal.TimeLayout))
		}
	}
	return o.Bytes()
}

// onSessionDeleted ends the session when the followed one is deleted.
func (t *Translator) onSessionDeleted(dst []universal.Event, e *event) []universal.Event {
	id := e.props.Get("info.id").Str
	if id == "" {
		id = e.props.Get("sessionID").Str
	}
	if id == "" || id != t.st.Session {
		return dst
	}
	dst = t.finish(dst)
	return t.w.End(dst, universal.SessionEnded{Reason: universal.EndCompleted, TerminatedBy: universal.ByAgent, Message: "session deleted"}, universal.SourceAgent, e.raw)
}

// onStatus handles session.status: busy starts the turn (once), idle ends
// it, retry reports a transient error.
func (t *Translator) onStatus(dst []universal.Event, e *event) []universal.Event {
	sid := e.props.Get("sessionID").Str
	status := e.props.Sub("status")
	switch status.Get("type").Str {
	case "busy":
		return t.busy(dst, sid, e.raw)
	case "idle":
		return t.idle(dst, sid, e.raw)
	case "retry":
		return t.retryOf(dst, sid, status.Get("attempt").Int(), status.Get("message").Str, status.Raw(), e.raw)
	}
	return t.unparsed(dst, e, fmt.Errorf("unknown session status %q", status.Get("type").Str))
}

// busy starts the turn when sid is the followed session.
func (t *Translator) busy(dst []universal.Event, sid string, raw []byte) []universal.Event {
	if t.route(sid, true) == routeRoot {
		dst = t.startTurn(dst, universal.SourceAgent, raw)
	}
	return dst
}

// idle ends the turn when sid is the followed session. An aborted turn
// whose tool still runs waits for the next idle: OpenCode (1.18) reports
// the abort (session.error MessageAbortedError, then idle) before the
// tool part's last updates (its output, then status error "Tool execution
// aborted" or completed), which the idle after them follows.
func (t *Translator) idle(dst []universal.Event, sid string, raw []byte) []universal.Event {
	if t.route(sid, false) == routeRoot {
		if t.st.Turn.Open && t.st.Turn.Aborted && t.toolRunning() {
			t.st.Turn.Settling = true
			return dst
		}
		dst = t.endTurn(dst, universal.SourceAgent, raw)
	}
	return dst
}

// toolRunning reports a tool part of the followed session whose call or
// result item is still open.
func (t *Translator) toolRunning() bool {
	for _, p := range t.st.Parts {
		if p.Type != "tool" || p.ResultDone {
			continue
		}
		if m := t.st.Msgs[p.Msg]; m == nil || m.Session != t.st.Session {
			continue
		}
		if p.Call != "" && !p.CallDone && t.w.IsOpen(p.Call) || p.Result != "" && t.w.IsOpen(p.Result) {
			return true
		}
	}
	return false
}

// retryOf reports a retry of session sid (the followed one or a
// sub-agent), starting the followed session's turn.
func (t *Translator) retryOf(dst []universal.Event, sid string, attempt int64, message, details string, raw []byte) []universal.Event {
	r := t.route(sid, true)
	if r == routeSkip {
		return dst
	}
	if r == routeRoot {
		dst = t.startTurn(dst, universal.SourceAgent, raw)
	}
	return t.retry(dst, attempt, message, details, raw)
}

// onExecution handles the execution lifecycle of OpenCode 2.x
// (session.execution.*, data {sessionID, error?, reason?}), which takes
// the place of session.status busy and idle: started starts the turn,
// succeeded ends it, failed is a session.error (its {type, message}) that
// ends the turn in error, interrupted (reason user, shutdown or
// superseded) ends it interrupted, as an abort does. A sub-agent
// session's execution does not start or end turns; its failure goes to
// its task call (subAgentError).
func (t *Translator) onExecution(dst []universal.Event, e *event) []universal.Event {
	sid := e.props.Get("sessionID").Str
	if sid == "" {
		return t.unparsed(dst, e, errors.New("execution event without data.sessionID"))
	}
	switch e.typ {
	case "session.execution.started":
		return t.busy(dst, sid, e.raw)
	case "session.execution.succeeded":
		return t.idle(dst, sid, e.raw)
	case "session.execution.failed":
		switch t.route(sid, true) {
		case routeRoot:
			dst = t.emitError(dst, e.props.Sub("error"), "", e.raw)
			t.st.Turn.Failed = true
			dst = t.endTurn(dst, universal.SourceAgent, e.raw)
		case routeChild:
			dst = t.emitError(dst, e.props.Sub("error"), sid, e.raw)
		}
	case "session.execution.interrupted":
		if t.route(sid, false) == routeRoot && t.st.Turn.Open {
			t.st.Turn.Aborted = true
			dst = t.endTurn(dst, universal.SourceAgent, e.raw)
		}
	}
	return dst
}

// onRetryScheduled handles session.retry.scheduled of OpenCode 2.x (data
// {sessionID, assistantMessageID, attempt, at, error: {type, message}}),
// the 2.x form of the retry status: an error with will_retry, once per
// attempt.
func (t *Translator) onRetryScheduled(dst []universal.Event, e *event) []universal.Event {
	p := e.props
	return t.retryOf(dst, p.Get("sessionID").Str, p.Get("attempt").Int(), p.Get("error.message").Str, p.Raw(), e.raw)
}

// retry reports a retried model call once per attempt.
func (t *Translator) retry(dst []universal.Event, attempt int64, message, details string, raw []byte) []universal.Event {
	if attempt != 0 && attempt == t.st.LastRetry {
		return dst
	}
	t.st.LastRetry = attempt
	if message == "" {
		message = "retrying the model request"
	}
	return t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
		Message:   t.w.Copy(message),
		Code:      "retry",
		Details:   jsonw.AppendRaw(nil, details),
		WillRetry: true,
	}, raw)
}

// onSessionError handles session.error; without a sessionID it belongs
// to the followed session.
func (t *Translator) onSessionError(dst []universal.Event, e *event) []universal.Event {
	sid := e.props.Get("sessionID").Str
	r := routeRoot
	if sid != "" {
		r = t.route(sid, true)
	}
	if r == routeSkip {
		return dst
	}
	child := ""
	if r == routeChild {
		child = sid
	}
	return t.emitError(dst, e.props.Sub("error"), child, e.raw)
}

// emitError reports a named OpenCode error ({name, data:{message,…}})
// once: session.error and the failed assistant message carry the same
// one. An abort is not an error event; it makes the turn interrupted.
// child names the sub-agent session the error belongs to ("" for the
// followed session): a sub-agent's error is not the session's and goes to
// the task call that spawned it (subAgentError).
func (t *Translator) emitError(dst []universal.Event, errv jsonscan.Value, child string, raw []byte) []universal.Event {
	root := child == ""
	name := errv.Get("name").Str
	if name == "" {
		// Newer errors are {type, message}: "provider.no-route", …
		name = errv.Get("type").Str
	}
	if name == "" {
		// 2.x builds that publish the core's tagged error as it is:
		// {_tag: "Integration.Authorization", message}.
		name = errv.Get("_tag").Str
	}
	msg := errv.Get("data.message").Str
	if msg == "" {
		msg = errv.Get("message").Str
	}
	if msg == "" && errv.Type() == gjson.String {
		msg = errv.Str()
	}
	if name == "MessageAbortedError" || name == "aborted" { // 1.x, 2.x
		if root {
			t.st.Turn.Aborted = true
			t.st.Turn.Error = cleanJSON(errv)
		}
		return dst
	}
	key := name + "\x00" + msg
	if key == t.st.LastErr {
		return dst
	}
	t.st.LastErr = key
	if root {
		t.st.Turn.Failed = true
		if errv.Exists() {
			t.st.Turn.Error = cleanJSON(errv)
		}
	}
	switch {
	case msg != "":
	case name != "":
		msg = name
	default:
		msg = "session error"
	}
	var details []byte
	if errv.Exists() {
		details = cleanJSON(errv)
	}
	if !root {
		return t.subAgentError(dst, child, msg, name, details, raw)
	}
	return t.w.Emit(dst, universal.TypeError, universal.SourceAgent, &universal.Error{
		Message: t.w.Copy(msg),
		Code:    t.w.Copy(name),
		Details: details,
	}, raw)
}

// subAgentError records the error of a sub-agent session on the task call
// that spawned it (the sub-agent convention of package universal): it is
// not an error of the followed session, so no error event. The call's
// tool_result carries it as metadata sub_agent_error when it completes;
// when that result is already complete, or the call is not known, a status
// item sub_agent_error under the call reports it.
func (t *Translator) subAgentError(dst []universal.Event, child, msg, code string, details, raw []byte) []universal.Event {
	var o jsonw.Object
	o.String("message", msg).OptString("code", code).RawBytes("details", details).String("session_id", child)
	md := o.Bytes()
	call := t.st.Links[child]
	if p := t.callPart(call); p != nil && !p.ResultDone {
		if _, ok := t.st.SubErrs[call]; !ok {
			put(&t.st.SubErrs, call, md)
		}
		return dst
	}
	return t.w.Complete(dst, universal.Item{
		ItemID:   t.w.NewItemID(),
		ParentID: call,
		Kind:     universal.KindStatus,
		Content:  []universal.Part{{Type: universal.PartStatus, Label: "sub_agent_error", Detail: t.w.Copy(msg), Metadata: md}},
	}, universal.SourceAgent, raw)
}

// callPart returns the tool part whose tool_call item is call, nil if none.
func (t *Translator) callPart(call string) *partState {
	if call == "" {
		return nil
	}
	for _, p := range t.st.Parts {
		if p.Call == call {
			return p // call items are unique: map order does not matter
		}
	}
	return nil
}

// startTurn starts the root session's turn unless one is open.
func (t *Translator) startTurn(dst []universal.Event, src universal.Source, raw []byte) []universal.Event {
	if t.st.Turn.Open {
		if !t.st.Turn.Settling {
			return dst
		}
		// An aborted turn whose tool never settled ends before the next.
		dst = t.endTurn(dst, universal.SourceDaemon, nil)
	}
	dst, _ = t.w.StartTurn(dst, "", nil, src, raw)
	t.st.Turn = turnState{Open: true}
	t.st.LastRetry = 0
	t.st.LastErr = ""
	return dst
}

// endTurn ends the open turn with the status its events imply.
func (t *Translator) endTurn(dst []universal.Event, src universal.Source, raw []byte) []universal.Event {
	if !t.st.Turn.Open {
		return dst
	}
	status := universal.TurnCompleted
	switch {
	case t.st.Turn.Failed:
		status = universal.TurnError
	case t.st.Turn.Aborted:
		status = universal.TurnInterrupted
	}
	return t.endTurnWith(dst, status, src, raw)
}

// endTurnWith completes what the turn left open and emits turn.ended.
func (t *Translator) endTurnWith(dst []universal.Event, status universal.TurnStatus, src universal.Source, raw []byte) []universal.Event {
	dst = t.flushPending(dst, "")
	for _, id := range append([]string(nil), t.st.OpenMsgs...) {
		m := t.st.Msgs[id]
		switch {
		case m.Role == "user":
			dst = t.completeMessage(dst, id, m, universal.StatusCompleted, universal.SourceDaemon, nil)
		case m.Done:
			dst = t.completeMessage(dst, id, m, m.doneStatus(), universal.SourceDaemon, nil)
		case t.format == FormatRunJSON:
			// Run output has no message events: a step's message is
			// complete when its turn is.
			dst = t.completeMessage(dst, id, m, universal.StatusCompleted, universal.SourceDaemon, nil)
		default:
			dst = t.completeMessage(dst, id, m, universal.StatusFailed, universal.SourceDaemon, nil)
		}
	}
	var md []byte
	if len(t.st.Turn.Error) > 0 && status != universal.TurnCompleted {
		var o jsonw.Object
		md = o.RawBytes("error", t.st.Turn.Error).Bytes()
	}
	dst = t.w.EndTurn(dst, "", status, md, src, raw)
	t.st.LastTurnFailed = status == universal.TurnError
	t.st.Turn = turnState{}
	return dst
}

// finish completes what the input left open before the session ends,
// except the turn: buffered deltas are emitted, open user messages are
// complete. A turn still open is one the agent never finished: the
// Stream's End ends it (interrupted, session_ending) and fails what it
// left open.
func (t *Translator) finish(dst []universal.Event) []universal.Event {
	if t.w.Ended() {
		return dst
	}
	if t.st.Turn.Open && t.st.Turn.Settling {
		// An aborted turn that waited for its tool: the agent did end it.
		dst = t.endTurn(dst, universal.SourceDaemon, nil)
	}
	dst = t.flushPending(dst, "")
	for _, id := range append([]string(nil), t.st.OpenMsgs...) {
		switch m := t.st.Msgs[id]; {
		case m.Role == "user":
			dst = t.completeMessage(dst, id, m, universal.StatusCompleted, universal.SourceDaemon, nil)
		case m.Done:
			dst = t.completeMessage(dst, id, m, m.doneStatus(), universal.SourceDaemon, nil)
		case m.Role == "" && m.StepDone:
			// No info of the message came (a capture of part events
			// alone), but its last step finished: it is complete.
			dst = t.completeMessage(dst, id, m, universal.StatusCompleted, universal.SourceDaemon, nil)
		}
	}
	return dst
}
