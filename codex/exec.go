package codex

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// exec translates one line of codex exec --json output.
// Its fields are read through the line's index (line), s is its text.
func (t *Translator) exec(dst []event, c *ctx, line jsonscan.Value, s string) []event {
	typ := line.Get("type")
	if typ.Type != gjson.String {
		return t.execLegacy(dst, c, s, line)
	}
	if typ.Str != "turn.failed" {
		// Whatever follows an error line other than turn.failed shows the
		// error was retried.
		dst = t.execFlushError(dst, true)
	}
	switch typ.Str {
	case "thread.started":
		return t.execThread(dst, c, line.Get("thread_id").Str)
	case "turn.started":
		return t.execTurn(dst, c)
	case "turn.completed":
		dst = t.execEnsureTurn(dst)
		t.st.EarlyTurn = false
		dst = t.endResponses(dst, false)
		dst = t.execUsage(dst, c, line.Sub("usage"))
		return t.endTurn(dst, "", universal.TurnCompleted, nil, agent, c.raw)
	case "turn.failed":
		dst = t.execEnsureTurn(dst)
		t.st.EarlyTurn = false
		e := line.Get("error")
		msg := e.Get("message").Str
		if h := t.st.HeldErr; h != nil && h.Text == msg {
			dst = t.execFlushError(dst, false)
		} else {
			dst = t.execFlushError(dst, false)
			dst = t.emitError(dst, t.w.Copy(msg), "", nil, false, agent, c.raw)
		}
		return t.endTurn(dst, "", universal.TurnError, metaOf("error", e), agent, c.raw)
	case "error":
		msg := line.Get("message").Str
		if strings.HasPrefix(msg, "Reconnecting...") {
			dst = t.execEnsureSession(dst)
			return t.emitError(dst, t.w.Copy(msg), "", nil, true, agent, c.raw)
		}
		t.st.HeldErr = &held{Text: strings.Clone(msg), Raw: string(c.raw)}
		return dst
	case "item.started", "item.updated", "item.completed":
		it := line.Sub("item")
		warning := it.Get("type").Str == "error"
		if !warning || t.w.Turn() == "" {
			early := warning && t.st.ProcTurns == 0
			dst = t.execEnsureTurn(dst)
			t.st.EarlyTurn = early
		}
		return t.execItem(dst, c, it, typ.Str)
	case "item.plan.delta":
		dst = t.execEnsureTurn(dst)
		t.st.EarlyTurn = false
		key := t.execKey(line.Get("item_id").Str)
		m := msgSpec{native: t.w.Copy(line.Get("item_id").Str), role: universal.RoleAssistant}
		return t.messageDelta(dst, key, kindMessage, m, 0, universal.PartText, line.Get("delta").Str, c.raw)
	case "request_user_input":
		dst = t.execEnsureTurn(dst)
		t.st.EarlyTurn = false
		p := line.Result()
		key, rid := "q"+p.Get("id").Raw, ""
		if id := p.Get("id"); id.Type == gjson.String || id.Type == gjson.Number {
			rid = idString(id)
		}
		if rid == "" {
			// No question id: one from its item, else from its line,
			// stable across a checkpoint and never empty.
			if item := p.Get("itemId").Str; item != "" {
				rid = "question_" + item
			} else {
				rid = "question_line_" + strconv.FormatInt(c.line, 10)
			}
			key = "q:" + rid
		}
		return t.userInputRequest(dst, c, key, t.w.Copy(rid), "", p)
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown exec event %q", typ.Str), c.raw)
}

// execFlushError emits an error line held back: retried when a later line
// other than turn.failed followed it.
func (t *Translator) execFlushError(dst []event, retried bool) []event {
	h := t.st.HeldErr
	if h == nil {
		return dst
	}
	t.st.HeldErr = nil
	dst = t.execEnsureSession(dst)
	return t.emitError(dst, t.w.Copy(h.Text), "", nil, retried, agent, []byte(h.Raw))
}

func (t *Translator) execEnsureSession(dst []event) []event {
	if t.st.Proc == 0 {
		t.st.Proc = 1
	}
	return t.ensureSession(dst, "")
}

// execThread handles thread.started: the session starts on the first one;
// later ones (codex exec resume) start the next process's turn.
func (t *Translator) execThread(dst []event, c *ctx, id string) []event {
	if id == "" {
		return t.w.Unparsed(dst, c.loc(), errors.New("codex: thread.started without a thread_id"), c.raw)
	}
	if t.w.Begun() {
		// A new process. A turn it left open (an interrupted run emits no
		// terminal event) ends now.
		t.st.Proc++
		t.st.ProcTurns, t.st.EarlyTurn = 0, false
		if t.w.Turn() != "" {
			dst = t.endTurn(dst, "", universal.TurnInterrupted, nil, daemon, nil)
		}
		if id != t.st.Thread {
			// Another thread's process (several runs' output joined in
			// one log): its events carry its thread as their native
			// session, its turns are named after it, and its usage
			// totals are its own, as a later init does in Claude Code
			// and Amp output.
			t.st.Thread = t.w.Copy(id)
			t.w.SetNativeSessionID(t.st.Thread)
		}
		return dst
	}
	t.st.Proc = 1
	t.st.Thread = t.w.Copy(id)
	t.w.SetNativeSessionID(t.st.Thread)
	o := obj().String("agent", agentName)
	o.Raw("config", t.st.Meta["config"])
	return t.w.BeginClean(dst, o.Bytes(), agent, c.raw)
}

func (t *Translator) execTurnID() string {
	if t.st.Thread == "" {
		return ""
	}
	// Made in the stream's memory, as the turn keeps it.
	var kb [64]byte
	b := append(append(kb[:0], t.st.Thread...), ':')
	b = strconv.AppendInt(b, int64(t.st.Proc), 10)
	// A process runs one turn; a second turn.started of the same process
	// (the first never ended, or ended and another began) is another
	// turn, which needs its own id: <thread>:<process>.<n>.
	if n := t.st.ProcTurns; n > 0 {
		b = strconv.AppendInt(append(b, '.'), int64(n+1), 10)
	}
	return t.str(b)
}

// execStartTurn starts the process's next turn.
func (t *Translator) execStartTurn(dst []event, src universal.Source, raw []byte) []event {
	id := t.execTurnID()
	dst = t.startTurn(dst, id, nil, src, raw)
	if id != "" && t.w.Turn() == id {
		t.st.ProcTurns++
	}
	return dst
}

func (t *Translator) execTurn(dst []event, c *ctx) []event {
	dst = t.execEnsureSession(dst)
	if t.st.EarlyTurn && t.w.Turn() != "" {
		// The turn a warning before it opened is this one.
		t.st.EarlyTurn = false
		return dst
	}
	if t.w.Turn() != "" {
		dst = t.endTurn(dst, "", universal.TurnInterrupted, nil, daemon, nil)
	}
	dst = t.execStartTurn(dst, agent, c.raw)
	// codex exec does not echo the prompt: the host's becomes the turn's
	// user message.
	return t.flushPrompts(dst, nil)
}

// execEnsureTurn opens a turn for output that arrives outside one.
func (t *Translator) execEnsureTurn(dst []event) []event {
	dst = t.execEnsureSession(dst)
	if t.w.Turn() == "" {
		dst = t.execStartTurn(dst, daemon, nil)
		dst = t.flushPrompts(dst, nil)
	}
	return dst
}

// execUsage reports turn.completed usage: the thread's running total
// (session scope) and, when the previous total is known, the turn's share.
func (t *Translator) execUsage(dst []event, c *ctx, u jsonscan.Value) []event {
	if !u.IsObject() {
		return dst
	}
	cur := readCounts(u, &snakeUsage)
	turn := t.w.Turn()
	if prev := t.st.Usage[t.st.Thread]; prev != nil {
		if d, ok := cur.minus(prev.counts()); ok {
			dst = t.usage(dst, turn, universal.ScopeTurn, d, -1, c.raw)
		}
		prev.set(&cur) // events copy the counts: the state's are its own
	} else {
		first := cur.vals()
		put(&t.st.Usage, t.st.Thread, &first)
	}
	return t.usage(dst, turn, universal.ScopeSession, cur, -1, c.raw)
}

// execKey returns the key of an exec item: ids restart at item_0 in every
// process, so they are scoped by the process ordinal.
func (t *Translator) execKey(id string) string {
	// Made in the stream's memory: one a line, and items keep it.
	var kb [64]byte
	b := append(strconv.AppendInt(kb[:0], int64(t.st.Proc), 10), ':')
	return t.str(append(b, id...))
}

// execItem maps item.started/updated/completed.
func (t *Translator) execItem(dst []event, c *ctx, it jsonscan.Value, ev string) []event {
	typ := it.Get("type").Str
	if typ == "" {
		typ = it.Get("item_type").Str // ≤ 0.44
	}
	id := it.Get("id").Str // the first "id" wins (web_search repeats the key)
	if id == "" {
		return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: %s item without an id", typ), c.raw)
	}
	key := t.execKey(id)
	native := t.w.Copy(id)
	final := ev == "item.completed"
	callID := t.w.Copy(key)
	switch typ {
	case "agent_message", "assistant_message", "plan":
		var meta []byte
		if typ == "plan" {
			meta = []byte(`{"type":"plan"}`)
		}
		return t.execText(dst, c, key, native, kindMessage, universal.PartText, t.msgStr(it.Sub("text")), meta, final)
	case "reasoning":
		return t.execText(dst, c, key, native, kindReasoning, universal.PartReasoning, t.msgStr(it.Sub("text")), nil, final)
	case "command_execution":
		spec := toolSpec{native: native, callID: callID, name: "command_execution",
			args: commandArgs(it.Get("command"), gjson.Result{})}
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		st := it.Get("status").Str
		res := t.commandResult(it.Sub("aggregated_output").OwnStr(t.w.Copy), st, intPtr(it.Get("exit_code")), nil)
		if st == "declined" {
			// The decision came before the (empty) result.
			dst = t.toolCall(dst, key, &spec, true, agent, c.raw)
			dst = t.reviewerDeclined(dst, c, key, spec.args)
		}
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "file_change":
		spec := toolSpec{native: native, callID: callID, name: "file_change"}
		var refs []part
		spec.args, refs = t.fileChanges(it.Sub("changes"))
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		res := patchResult(it.Get("status").Str)
		res.extra = refs
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "mcp_tool_call":
		spec := toolSpec{native: native, callID: callID,
			name: t.w.Copy(mcpToolName(it.Get("server").Str, it.Get("tool").Str)),
			args: t.w.Copy(argsJSON(it.Get("arguments")))}
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		res := mcpResult(t, it.Get("result"), it.Get("error"), it.Get("status").Str, nil, "structured_content")
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "web_search":
		spec := toolSpec{native: native, callID: callID, name: "web_search"}
		o := obj().String("query", it.Get("query").Str)
		o.Raw("action", it.Get("action").Raw)
		spec.args = t.str(o.Bytes())
		if ws := secondID(it); ws != "" {
			spec.meta = obj().String("provider_id", ws).Bytes()
		}
		if !final {
			return t.toolCall(dst, key, &spec, false, agent, c.raw)
		}
		res := t.webSearchResult(it.Get("results"))
		return t.toolResult(dst, key, &spec, &res, agent, c.raw)
	case "todo_list":
		return t.planStatus(dst, c, "", it.Get("items"), "", native)
	case "collab_tool_call":
		return t.collabItem(dst, c, key, native, callID, "", it.Result(), final, snakeCollab)
	case "error":
		if !final {
			return dst
		}
		return t.status(dst, native, "", "warning", t.w.CopyValue(it.Get("message")), nil, agent, c.raw)
	}
	return t.w.Unparsed(dst, c.loc(), fmt.Errorf("codex: unknown exec item type %q", typ), c.raw)
}

// secondID returns the value of a second "id" key in an object (exec
// web_search items carry the exec id first and the provider's id second;
// gjson paths only ever see the first).
func secondID(it jsonscan.Value) string {
	seen := 0
	id := ""
	it.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "id" {
			seen++
			if seen == 2 {
				id = v.Str
				return false
			}
		}
		return true
	})
	return id
}

// execText maps an exec message or reasoning item. Exec reports them
// complete; started/updated snapshots (when a version sends them) stream
// the text they add.
func (t *Translator) execText(dst []event, c *ctx, key, native string, kind uint8, typ universal.PartType, text string, meta []byte, final bool) []event {
	m := msgSpec{native: native, role: universal.RoleAssistant}
	p := part{Type: typ, Metadata: meta}
	if typ == universal.PartReasoning {
		p.Visibility = universal.VisibilityPublic
	}
	// The part is read into the translator's scratch slice: the stream
	// copies it (as v2Item's agentMessage).
	if final {
		p.SetStreamed(text) // copied where it is kept (finalize)
		t.parts = append(t.parts[:0], p)
		m.parts = t.parts
		return t.completeMessage(dst, key, kind, m, agent, c.raw)
	}
	t.parts = append(t.parts[:0], p)
	m.parts = t.parts
	dst = t.startMessage(dst, key, kind, m, agent, c.raw)
	n := t.item(key)
	if n == nil || n.Done || len(n.PI) == 0 || !t.w.IsOpen(n.ID) {
		// Its response ended before it completed: the completion shows it.
		return dst
	}
	if sofar := t.w.StreamedText(n.ID, n.PI[0]); strings.HasPrefix(text, sofar) {
		dst = t.w.Delta(dst, n.ID, n.PI[0], typ, text[len(sofar):], agent, c.raw)
	}
	return dst
}

// reviewerDeclined reports a command the automatic reviewer refused (exec
// has no approval requests: the declined item is all there is).
func (t *Translator) reviewerDeclined(dst []event, c *ctx, key, args string) []event {
	n := t.item(key)
	if n == nil {
		return dst
	}
	req := &request{ID: n.CallID, Action: gjson.Get(args, "command").String(), Item: n.ID, CallID: n.CallID}
	pk := "d" + key
	dst = t.requestPermission(dst, pk, req, []byte(`{"source":"exec item status"}`), daemon, c.raw)
	return t.resolvePermission(dst, pk, false, []byte(`{"decision":"declined","decided_by":"reviewer"}`), agent, c.raw)
}

// configSummary reports whether an object is the configuration summary
// pre-0.44 codex exec prints first ({"workdir", "model", "provider",
// "approval", "sandbox", "reasoning effort", …}, 0.28 recorded), not
// another program's JSON log line.
func configSummary(v gjson.Result) bool {
	return v.IsObject() && (v.Get("model").Exists() || v.Get("workdir").Exists() || v.Get("sandbox").Exists())
}

// legacyProcess handles a configuration summary after {"id","msg"} events
// in pre-0.44 exec output: the next process's (codex exec resume appends
// to the same output; 0.40 recorded). The earlier process
// exited, which is how that output ends a turn (it prints no
// task_complete), so its open turn ends as at an exit 0. The new process
// counts its token_count totals from 0 (0.40's second process: 1300
// input tokens, its own call's), so the session's total is what the
// earlier processes counted plus the new totals (Codex restores them on
// resume from ~0.95, long after this output).
func (t *Translator) legacyProcess(dst []event, cfg gjson.Result) []event {
	dst = t.endLegacyExec(dst)
	t.st.Proc++
	t.st.ProcTurns, t.st.EarlyTurn = 0, false
	if prev := t.st.Usage["t:"]; prev != nil {
		if t.st.UsageBase == nil {
			t.st.UsageBase = new(usageVals)
		}
		base := t.st.UsageBase.counts()
		base.add(prev.counts())
		t.st.UsageBase.set(&base)
		delete(t.st.Usage, "t:")
	}
	t.setModel("", cfg.Get("model").Str, cfg.Get("reasoning effort").Str)
	return dst
}

// execLegacy handles lines of the pre-0.44 exec output: a configuration
// summary, the prompt, and {"id","msg"} events.
func (t *Translator) execLegacy(dst []event, c *ctx, s string, line jsonscan.Value) []event {
	// The event through the line's index: eventMsg reads some members
	// (the deltas' text) only through an index.
	if msg := line.Sub("msg"); msg.IsObject() {
		dst = t.execFlushError(dst, true)
		t.st.LegacyExec = true
		return t.eventMsg(dst, c, msg, live, "")
	}
	switch prompt := line.Get("prompt"); {
	case prompt.Type == gjson.String:
		t.st.Held = append(t.st.Held, held{Text: strings.Clone(prompt.Str), Raw: string(c.raw), Src: srcPrompt})
		return dst
	case t.st.LegacyExec && configSummary(gjson.Parse(s)):
		return t.legacyProcess(dst, gjson.Parse(s))
	case !t.w.Begun() && t.st.Meta["config"] == "" && configSummary(gjson.Parse(s)):
		// The configuration summary printed before the first event. Any
		// other object is reported (the stream holds it until the
		// session starts).
		put(&t.st.Meta, "config", strings.Clone(s))
		// Its model (and "reasoning effort") runs the session's calls:
		// their usage names it (0.28 recorded).
		cfg := gjson.Parse(s)
		t.setModel("", cfg.Get("model").Str, cfg.Get("reasoning effort").Str)
		return dst
	}
	return t.w.Unparsed(dst, c.loc(), errors.New("codex: exec line without a type"), c.raw)
}
