package claude

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentnorm/agentnorm/internal/anthropic"
	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

type events = []universal.Event

// assistant translates an assistant line: one (or, in some versions and in
// transcripts, several) content blocks of the API message message.id.
func (t *Translator) assistant(dst events, r jsonscan.Value, scope string) events {
	// One walk of the line and one of its message find the members read
	// below (the first of duplicates, as Get finds): most are absent, and
	// a Get of an absent member walks them all.
	var msg, uuid, sup, apiIndex, aborted, apiErr, apiErrOld, localRun, localSrc, localOut, effort, narration, costUSD, durationMs jsonscan.Value
	var ranBy, hidden, hostContent, thinkMs, thinkDisplay jsonscan.Value
	var attrib [len(attributionFields)]jsonscan.Value
	r.Members(func(k string, v jsonscan.Value) bool {
		var p *jsonscan.Value
		switch k {
		case "message":
			p = &msg
		case "effort":
			p = &effort
		case "attributionAgent", "attributionSkill", "attributionPlugin", "attributionMcpServer", "attributionMcpTool":
			for i, f := range attributionFields {
				if f[0] == k {
					p = &attrib[i]
				}
			}
		case "uuid":
			p = &uuid
		case "supersedes":
			p = &sup
		case "apiBlockIndex":
			p = &apiIndex
		case "aborted":
			p = &aborted
		case "is_api_error_message":
			p = &apiErr
		case "isApiErrorMessage":
			p = &apiErrOld
		case "local_command_run":
			p = &localRun
		case "local_command_source":
			p = &localSrc
		case "local_command_outcome":
			p = &localOut
		case "narration_block_indexes":
			p = &narration
		case "costUSD":
			p = &costUSD
		case "durationMs":
			p = &durationMs
		case "ranByToolUseId":
			p = &ranBy
		case "hostHiddenToolUseIds":
			p = &hidden
		case "hostContent":
			p = &hostContent
		case "thinking_duration_ms", "thinkingDurationMs":
			p = &thinkMs
		case "thinking_display", "thinkingDisplay":
			p = &thinkDisplay
		}
		if p != nil {
			jsonscan.KeepFirst(p, v)
		}
		return true
	})
	if !msg.IsObject() {
		return t.unparsed(dst, "message", errors.New("assistant line without a message object"))
	}
	if t.seenID(uuid.Str()) {
		return dst
	}
	if hidden.Exists() || hostContent.Exists() || ranBy.Exists() {
		// Read by toolUse for this line's blocks (see hostMeta).
		t.hidden, t.hostContent, t.ranBy = hidden, hostContent, ""
		if ranBy.Type() == gjson.String {
			t.ranBy = ranBy.Str()
		}
		defer func() { t.hidden, t.hostContent, t.ranBy = jsonscan.Value{}, jsonscan.Value{}, "" }()
	}
	var model, msgID, content, stop, usage, diag jsonscan.Value
	msg.Members(func(k string, v jsonscan.Value) bool {
		var p *jsonscan.Value
		switch k {
		case "model":
			p = &model
		case "diagnostics":
			p = &diag
		case "id":
			p = &msgID
		case "content":
			p = &content
		case "stop_reason":
			p = &stop
		case "usage":
			p = &usage
		}
		if p != nil {
			jsonscan.KeepFirst(p, v)
		}
		return true
	})
	synthetic := model.Str() == syntheticModel
	// The CLI's answer to a slash command it runs itself (/compact,
	// /context, /cost, …) on stream-json: a synthetic assistant line with
	// local_command_run (the command and its arguments),
	// local_command_source (its output wrapped in <local-command-stdout>
	// or <local-command-stderr>) or, since 2.1.281, local_command_outcome
	// (how it went, when not plainly).
	if synthetic && (localRun.Exists() || localSrc.Exists() || localOut.Exists()) {
		return t.localCommand(dst, r, msg, scope)
	}
	if synthetic && (apiErr.Type() == gjson.False || apiErrOld.Type() == gjson.False) && !r.Get("error").Exists() {
		return t.syntheticFiller(dst, r, msg, scope)
	}
	dst = t.ensureTurn(dst, scope)
	if sup.Exists() {
		dst = t.supersede(dst, sup, uuid.Str())
	}
	id := msgID.Str()
	if id == "" {
		id = uuid.Str()
	}
	m := t.findMsg(scope, id)
	chained := false
	if m == nil {
		if item := t.doneMsg(scope, id); item != "" && id != "" {
			return t.lateLine(dst, msg, item, scope)
		}
		if m = t.chainedMsg(scope, r); m != nil {
			chained = true
		} else if m = t.streamingMsg(scope, uuid.Str(), id); m != nil {
			chained = true
		} else {
			dst = t.closeIdle(dst, scope)
			m = t.newMsg(scope, id)
		}
	}
	t.lineItem = m.ItemID
	if t.transcript {
		m.Last = uuid.OwnStr(t.w.Copy)
	}
	if !synthetic && m.Model == "" && model.Str() != "" {
		m.Model = model.OwnStr(t.w.Copy)
	}
	if !synthetic && m.Effort == "" && effort.Str() != "" {
		m.Effort = effort.OwnStr(t.w.Copy)
	}
	if !synthetic && m.Attrib == "" {
		m.Attrib = attribution(&attrib)
	}
	if !synthetic && diag.IsObject() {
		if d := diag.OwnJSON(t.w.Copy); d != "{}" {
			m.Diag = d
		}
	}
	api := -1
	if apiIndex.Type() == gjson.Number && !chained {
		api = int(apiIndex.Result().Int())
	}
	switch {
	case content.Type() == gjson.String:
		si := t.matchSlot(m, universal.PartText, api)
		m.Slots[si].Final, m.Slots[si].HasFinal = content.OwnStr(t.w.Copy), true
	case content.IsArray():
		// narration_block_indexes (stream-json, 2.1.2xx): the blocks of
		// this line's content that are not the model's reasoning but the
		// progress updates it writes for the user between tool calls,
		// sent as thinking blocks; Claude Code shows them as prose.
		var narrated []int64
		if narration.IsArray() {
			for _, v := range narration.Result().Array() {
				narrated = append(narrated, v.Int())
			}
		}
		think := thinkingMeta(thinkMs, thinkDisplay)
		n := 0
		content.Each(func(_ gjson.Result, b jsonscan.Value) bool {
			idx := api
			if n > 0 {
				idx = -1 // apiBlockIndex names the first block of the line
			}
			dst = t.assistantBlock(dst, m, b, idx, slices.Contains(narrated, int64(n)), think)
			n++
			return true
		})
	case content.Exists() && content.Type() != gjson.Null:
		return t.unparsed(dst, "message.content", errors.New("content is neither a string nor an array"))
	}
	if t.transcript {
		if tk, ok := anthropic.ReadUsage(usage); ok {
			u := keptUsage(&tk)
			if e := t.earlierCalls(usage.Sub("iterations"), u); e != nil {
				m.Earlier = e
			}
			if m.Usage != nil {
				// The larger of each count, which one or the other holds.
				mu := anthropic.MaxUsage(*m.Usage, *u)
				u = &mu
			}
			m.Usage = u
		}
		// Before 1.0.9 (ccusage issue 4) an assistant entry gave its
		// call's cost (costUSD) and duration (durationMs) beside the
		// message; the larger, should several lines repeat them.
		if !synthetic && costUSD.Type() == gjson.Number {
			if c := costUSD.Result().Num; m.Cost == nil || c > *m.Cost {
				m.Cost = &c
			}
		}
		if !synthetic && durationMs.Type() == gjson.Number {
			m.Duration = max(m.Duration, durationMs.Result().Int())
		}
	}
	if sr := stop.Str(); sr != "" {
		m.Stop = t.w.Copy(sr)
	}
	if aborted.Result().Bool() {
		m.Failed = true
	}
	if synthetic || apiErr.Result().Bool() || apiErrOld.Result().Bool() {
		return t.apiErrorMessage(dst, m, r)
	}
	if !m.Live {
		dst = t.ensureStarted(dst, m, universal.SourceAgent)
	}
	return dst
}

// attributionFields are the members with which a transcript's assistant
// line (2.1.2xx) attributes its API call to what made it: the sub-agent
// type (attributionAgent, "general-purpose", "Explore", …), the skill,
// plugin or MCP server and tool in use. Call usage keeps them under the
// second name.
var attributionFields = [...][2]string{
	{"attributionAgent", "attribution_agent"}, {"attributionSkill", "attribution_skill"},
	{"attributionPlugin", "attribution_plugin"}, {"attributionMcpServer", "attribution_mcp_server"},
	{"attributionMcpTool", "attribution_mcp_tool"},
}

// attribution returns the attribution members found under their
// universal names, as an object's text between its braces
// (jsonw.Object.RawMembers), "" when there are none.
func attribution(vs *[len(attributionFields)]jsonscan.Value) string {
	var o jsonw.Object
	for i, v := range vs {
		if v.Type() == gjson.String && v.Str() != "" {
			o.RawClean(attributionFields[i][1], v.Compacted())
		}
	}
	if o.Len() == 0 {
		return ""
	}
	b := o.Bytes()
	return string(b[1 : len(b)-1])
}

// chainedMsg returns the open message a transcript's assistant line
// continues although it names another message id: Claude Code chains the
// lines of one response by parentUuid, and a new response follows a user
// entry (a prompt, a tool result, a notification), never an assistant
// line of another response. nil if the line starts a response.
func (t *Translator) chainedMsg(scope string, r jsonscan.Value) *message {
	if !t.transcript {
		return nil
	}
	p := r.Get("parentUuid").Str
	if p == "" {
		return nil
	}
	for _, m := range t.scopeMsgs(scope) {
		if m.Last == p && !m.Live && !m.Failed {
			return m
		}
	}
	return nil
}

// streamingMsg returns the message still streaming in scope (its
// message_start came, its message_stop not yet) that a stream-json
// assistant line with another id belongs to: Qwen Code writes one
// assistant line per content block, the first with the message_start's
// id, each further one with an id of its own (the line's uuid). nil
// otherwise.
func (t *Translator) streamingMsg(scope, uuid, id string) *message {
	if t.transcript || id == "" || id != uuid {
		return nil
	}
	if m := t.findMsg(scope, t.s.Cur[scope]); m != nil && m.Live && !m.Failed {
		return m
	}
	return nil
}

// lateLine handles an assistant line of a message already completed: its
// text is not shown again, but a tool call it carries still belongs to the
// message.
func (t *Translator) lateLine(dst events, msg jsonscan.Value, item, scope string) events {
	m := &message{Scope: scope, ItemID: item, Started: true, Open: -1}
	msg.Sub("content").Each(func(_ gjson.Result, b jsonscan.Value) bool {
		switch typ := b.Get("type").Str; typ {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			dst = t.toolUse(dst, m, b, typ)
		}
		return true
	})
	return dst
}

// thinkingMeta gives the members a thinking block's reasoning part adds
// to its metadata from its line (2.1.33x): how long the model thought
// (thinking_duration_ms; a transcript's thinkingDurationMs) as duration_ms,
// and how the thinking was asked to be shown (thinking_display;
// thinkingDisplay: "summarized", a summary of it) as display. "" when the
// line has neither.
func thinkingMeta(ms, display jsonscan.Value) string {
	var o jsonw.Object
	if display.Type() == gjson.String {
		o.String("display", display.Str())
	}
	if ms.Type() == gjson.Number {
		o.Int("duration_ms", ms.Result().Int())
	}
	if o.Len() == 0 {
		return ""
	}
	b := o.Bytes()
	return string(b[1 : len(b)-1])
}

// lineThink gives the members a thinking block's line adds to its
// metadata (think, as thinkingMeta gives them) with the display its
// stream events gave first when the line does not say one: 2.1.285 to
// 2.1.329 write the display on the stream events only, and some of them
// the duration on the line.
func (s *slot) lineThink(think string) string {
	if s.Display == "" || strings.Contains(think, `"display":`) {
		return think
	}
	if think == "" {
		return displayMember(s.Display)
	}
	return displayMember(s.Display) + "," + think
}

// displayMember is the member "display": v, as thinkingMeta writes it.
func displayMember(v string) string {
	var o jsonw.Object
	b := o.String("display", v).Bytes()
	return string(b[1 : len(b)-1])
}

// withMembers gives the object meta (`{…}`, or "" for none) with the
// members add (as thinkingMeta gives them) after its own, once: a block a
// later line repeats adds them again.
func withMembers(meta, add string) string {
	switch {
	case add == "" || strings.Contains(meta, add):
		return meta
	case meta == "":
		return "{" + add + "}"
	}
	return meta[:len(meta)-1] + "," + add + "}"
}

// assistantBlock records one content block of an assistant line. api is
// the block's index in the API message when the line says it, else -1;
// narration, that the line lists the block in narration_block_indexes;
// think, the members its thinking adds to its metadata (thinkingMeta).
func (t *Translator) assistantBlock(dst events, m *message, b jsonscan.Value, api int, narration bool, think string) events {
	switch typ := b.Get("type").Str; typ {
	case "text":
		si := t.matchSlot(m, universal.PartText, api)
		s := &m.Slots[si]
		s.Final, s.HasFinal = t.w.Copy(b.Get("text").Str), true
		if c := b.Get("citations"); c.IsArray() && len(c.Raw) > 2 {
			var o jsonw.Object
			s.Meta = string(o.Raw("citations", c.Raw).Bytes())
		}
	case "thinking":
		si := t.matchSlot(m, universal.PartReasoning, api)
		s := &m.Slots[si]
		s.Final, s.HasFinal = t.w.Copy(b.Get("thinking").Str), true
		if sig := b.Get("signature").Str; sig != "" {
			s.Signature = t.w.Copy(sig)
		}
		if narration && s.Final != "" {
			// Not reasoning but a progress update for the user (an
			// empty one is shown as any empty thinking is).
			s.Meta = `{"narration":true}`
		}
		s.Meta = withMembers(s.Meta, s.lineThink(think))
	case "redacted_thinking":
		si := t.matchSlot(m, universal.PartReasoning, api)
		s := &m.Slots[si]
		s.Final, s.HasFinal, s.Private = "", true, true
		s.Meta = withMembers(`{"redacted":true}`, s.lineThink(think))
	case "tool_use", "server_tool_use", "mcp_tool_use":
		return t.toolUse(dst, m, b, typ)
	case "":
		return t.unparsed(dst, "message.content", errors.New("content block without a type"))
	default:
		if isResultBlock(typ) {
			// Results of server-side tools (web search, code execution, MCP
			// connector) come inside the assistant message, which must be
			// open to be their parent (a line may start with one).
			dst = t.ensureStarted(dst, m, universal.SourceAgent)
			return t.toolResult(dst, jsonscan.Value{}, b, m.Scope, jsonscan.Value{}, m.ItemID)
		}
		// Any other block (container_upload, future types) is kept whole.
		si := t.matchSlot(m, universal.PartJSON, api)
		s := &m.Slots[si]
		s.Final, s.HasFinal = t.w.Copy(b.Raw()), true
	}
	return dst
}

// isResultBlock reports content blocks that carry a tool's result
// (tool_result, web_search_tool_result, mcp_tool_result, …).
func isResultBlock(typ string) bool {
	return typ == "tool_result" || len(typ) > len("_tool_result") && typ[len(typ)-len("_tool_result"):] == "_tool_result"
}

// matchSlot returns the slot a final block of type typ belongs to: the one
// with the API block index when known, else the streamed block still open,
// else the oldest streamed block of that type without final content, else
// a new slot.
func (t *Translator) matchSlot(m *message, typ universal.PartType, api int) int {
	if api >= 0 {
		for i := range m.Slots {
			if m.Slots[i].Index == api {
				return i
			}
		}
		return m.addSlot(typ, api)
	}
	if m.Open >= 0 {
		if b := m.block(m.Open); b != nil && b.Slot >= 0 && m.Slots[b.Slot].Type == typ {
			return b.Slot
		}
	}
	// The slots before m.settled match no final block: each has no API
	// index or has its final content, and keeps it. Skipping them keeps
	// a message of many blocks linear (without stream events every slot
	// is such, and the scan was of all the slots for each block).
	for i := m.settled; i < len(m.Slots); i++ {
		s := &m.Slots[i]
		if s.Index < 0 || s.HasFinal {
			if i == m.settled {
				m.settled++
			}
			continue
		}
		if s.Type == typ {
			return i
		}
	}
	return m.addSlot(typ, -1)
}

func (m *message) addSlot(typ universal.PartType, index int) int {
	m.Slots = append(m.Slots, slot{Type: typ, Index: index, Part: -1})
	return len(m.Slots) - 1
}

// block returns the stream block with the native index, nil if none.
func (m *message) block(index int) *block {
	for i := range m.Blocks {
		if m.Blocks[i].Index == index {
			return &m.Blocks[i]
		}
	}
	return nil
}

// ensureStarted emits the message item's item.started once, with a part
// for every slot known so far (their text arrives as deltas).
func (t *Translator) ensureStarted(dst events, m *message, src universal.Source) events {
	if m.Started {
		return dst
	}
	m.Started = true
	content := t.itemParts(len(m.Slots))
	for i := range m.Slots {
		content = append(content, m.Slots[i].part("", true))
		m.Slots[i].Part = i
	}
	m.Parts = len(m.Slots)
	if m.Parent == "" && t.s.Turn != nil {
		t.s.Turn.Answered = true
	}
	return t.w.StartItem(dst, universal.Item{
		ItemID: m.ItemID, NativeItemID: m.ID, ParentID: m.Parent,
		Kind: universal.KindMessage, Role: universal.RoleAssistant, Content: content,
	}, src, t.raw)
}

// part returns the slot as a content part with the given streamed text.
func (s *slot) part(text string, start bool) universal.Part {
	var p universal.Part
	switch s.Type {
	case universal.PartReasoning:
		p = universal.Reasoning(text, universal.VisibilityPublic)
		if s.Private {
			p.Visibility = universal.VisibilityPrivate
		}
		p.Signature = s.Signature
	case universal.PartJSON:
		p = anthropic.JSONPart(s.Final)
	default:
		p = universal.Text(text)
	}
	meta := s.Meta
	if s.Display != "" && !strings.Contains(meta, `"display":`) {
		meta = withMembers(meta, displayMember(s.Display)) // no line came
	}
	if meta != "" && !start {
		p.Metadata = []byte(meta)
	}
	return p
}

// slotDelta appends streamed text to a slot's part.
func (t *Translator) slotDelta(dst events, m *message, si int, text string) events {
	if text == "" {
		return dst
	}
	if !m.Started {
		dst = t.ensureStarted(dst, m, universal.SourceAgent)
	}
	s := &m.Slots[si]
	if s.Part < 0 {
		s.Part = m.Parts
		m.Parts++
	}
	return t.w.Delta(dst, m.ItemID, s.Part, s.Type, text, universal.SourceAgent, t.raw)
}

// completeMsg emits the message item's completion: parts the Stream knows
// in their order, then parts only the final lines gave, in block order.
func (t *Translator) completeMsg(dst events, m *message, status universal.ItemStatus, src universal.Source) events {
	dst = t.ensureStarted(dst, m, src)
	content := t.itemParts(len(m.Slots))
	for p := 0; p < m.Parts; p++ {
		for i := range m.Slots {
			if m.Slots[i].Part == p {
				content = append(content, t.finalPart(m, &m.Slots[i]))
			}
		}
	}
	for i := range m.Slots {
		if m.Slots[i].Part < 0 {
			content = append(content, t.finalPart(m, &m.Slots[i]))
		}
	}
	dst = t.w.Complete(dst, universal.Item{
		ItemID: m.ItemID, NativeItemID: m.ID, ParentID: m.Parent,
		Kind: universal.KindMessage, Role: universal.RoleAssistant, Content: content, Status: status,
	}, src, t.raw)
	if m.Parent == "" && t.s.Turn != nil {
		// A response of the session itself (or of a sub-agent transcript
		// read on its own), not of a sub-agent under a call.
		t.s.Turn.Finished = status != universal.StatusFailed && finalStop(m)
	}
	t.dropMsg(m)
	if t.transcript && (m.Usage != nil || m.Cost != nil) {
		var u universal.Usage
		if m.Usage != nil {
			u = *m.Usage
		}
		for _, e := range m.Earlier {
			md := t.callMD(m)
			if e.Model != "" && e.Model != m.Model {
				var o jsonw.Object
				md = o.String("model", e.Model).Bytes()
			}
			dst = t.usage(dst, universal.ScopeCall, e.Usage, nil, nil, md, src)
		}
		dst = t.usage(dst, universal.ScopeCall, u, m.Cost, nil, t.callMD(m), src)
	}
	return dst
}

// earlierCalls reads a transcript line's usage.iterations (2.1.217+:
// each model call of the message, {input_tokens, …, type, model}) and
// returns the calls the message's usage leaves out, each to be a call
// usage of its own: where the usage counts the last call alone (a refused
// call that handed over to a fallback model: type message, then
// fallback_message), the calls before it; where it counts the message's
// own calls (type message, fallback_message) but not another model's
// (type advisor_message: the advisor tool, 2.1.23x), those. nil
// otherwise (one call, or a usage that sums them all).
func (t *Translator) earlierCalls(iterations jsonscan.Value, total *universal.Usage) []earlierCall {
	if !iterations.IsArray() || iterations.Len() < 2 {
		return nil
	}
	var calls []earlierCall
	var own []bool
	iterations.Each(func(_ gjson.Result, it jsonscan.Value) bool {
		tk, ok := anthropic.ReadUsage(it)
		if !ok {
			calls = nil
			return false
		}
		calls = append(calls, earlierCall{Usage: *keptUsage(&tk), Model: t.w.Copy(it.Get("model").Str)})
		typ := it.Get("type").Str
		own = append(own, typ == "" || typ == "message" || typ == "fallback_message")
		return true
	})
	if len(calls) < 2 {
		return nil
	}
	want := tokenCounts(total)
	if tokenCounts(&calls[len(calls)-1].Usage) == want {
		return calls[:len(calls)-1]
	}
	var sum [4]int64
	var others []earlierCall
	for i := range calls {
		if !own[i] {
			others = append(others, calls[i])
			continue
		}
		for j, n := range tokenCounts(&calls[i].Usage) {
			sum[j] += n
		}
	}
	if len(others) == 0 || sum != want {
		return nil
	}
	return others
}

// tokenCounts are a usage's input, cached input, cache write and output
// counts, 0 where it has none.
func tokenCounts(u *universal.Usage) (c [4]int64) {
	for j, n := range [...]*int64{u.InputTokens, u.CachedInputTokens, u.CacheWriteTokens, u.OutputTokens} {
		if n != nil {
			c[j] = *n
		}
	}
	return c
}

// itemParts returns an empty slice with room for n parts, for the content
// of an item given to Stream.StartItem or Complete, which copy it: the
// memory is the translator's, reused from one item to the next (a
// message, a tool call and a tool result each made a slice of their own,
// garbage once copied). Nothing else may take it until that call
// returns.
func (t *Translator) itemParts(n int) []universal.Part {
	if cap(t.parts) < n {
		t.parts = make([]universal.Part, 0, max(n, 4))
	}
	return t.parts[:0]
}

func (t *Translator) finalPart(m *message, s *slot) universal.Part {
	text := s.Final
	if !s.HasFinal && s.Part >= 0 {
		text = t.w.StreamedText(m.ItemID, s.Part)
	}
	return s.part(text, false)
}

// finalStop reports whether a response ends the agent's turn: it called
// no tools and stopped for good (end_turn, stop_sequence, refusal; older
// transcripts record no stop reason on a response's lines).
func finalStop(m *message) bool {
	if m.Tools {
		return false
	}
	switch m.Stop {
	case "end_turn", "stop_sequence", "refusal":
		return true
	case "":
		// No stop reason recorded (older transcripts write a line per
		// block before the message ends): a final response ends with
		// its text, never with its thinking.
		n := len(m.Slots)
		return n > 0 && m.Slots[n-1].Type == universal.PartText
	}
	return false
}

func msgStatus(m *message) universal.ItemStatus {
	if m.Failed {
		return universal.StatusFailed
	}
	return universal.StatusCompleted
}

// closeIdle completes the open messages of a scope that no stream drives:
// a line of another message in the same scope means they are complete.
func (t *Translator) closeIdle(dst events, scope string) events {
	return t.closeMsgs(dst, inScope(scope), idle)
}

func idle(m *message) bool { return !m.Live }

// closeMsgs completes every open message of the set (in start order)
// that matches; nil matches every one.
func (t *Translator) closeMsgs(dst events, set msgSet, match func(*message) bool) events {
	for i := 0; ; {
		l := t.msgs(set) // anew: completing a message takes it out
		if i >= len(l) {
			return dst
		}
		if m := l[i]; match == nil || match(m) {
			dst = t.completeMsg(dst, m, msgStatus(m), universal.SourceDaemon)
			continue
		}
		i++
	}
}

// toolUse records a complete tool_use block: the tool_call item completes
// with the final input (the streamed arguments are kept when they hold the
// same JSON value).
func (t *Translator) toolUse(dst events, m *message, b jsonscan.Value, typ string) events {
	id := b.Get("id").Str
	if id == "" {
		return t.unparsed(dst, "message.content", fmt.Errorf("%s block without an id", typ))
	}
	tl := t.toolFor(id)
	var prev *tool
	if reused(tl, m) {
		prev, tl = tl, nil
	}
	if tl != nil && (tl.Done || !t.w.IsOpen(tl.ItemID)) {
		// The same call again (a duplicate line): already complete. Or a
		// call whose item the Stream closed already, with the message or
		// the turn it belongs to (its final line came after them): its
		// item is over.
		return dst
	}
	dst = t.ensureStarted(dst, m, universal.SourceAgent)
	name := b.Get("name").Str
	inputV := b.Sub("input")
	input := inputV.Result()
	args := inputV.Compacted() // the same text however the line was spaced
	if tl == nil {
		tl = &tool{ItemID: t.w.NewItemID(), Msg: m.ItemID, Scope: m.Scope, Name: t.w.Copy(name)}
		if prev != nil {
			t.reuse(id, prev, tl)
		}
		t.addTool(id, tl)
	}
	if t.transcript && isAgentTool(name) && !t.linked(id) {
		tl.Prompt = t.w.Copy(input.Get("prompt").Str)
	}
	own := false // args are the stream's own text, which needs no copy
	if t.w.IsOpen(tl.ItemID) {
		if streamed := t.w.StreamedText(tl.ItemID, 0); streamed != "" && (streamed == args || anthropic.JSONEqual(streamed, args)) {
			args, own = streamed, true
		}
	}
	if !own {
		args = t.w.Copy(args)
	}
	var meta []byte
	if typ != "tool_use" || t.hidden.Exists() || t.hostContent.Exists() || t.ranBy != "" {
		var o jsonw.Object
		if typ != "tool_use" {
			o.String("block_type", typ)
		}
		o.OptString("ran_by_tool_use_id", t.ranBy)
		hostMeta(&o, id, "id", "tool_use", t.hidden, t.hostContent)
		if o.Len() > 0 {
			meta = o.Bytes()
		}
	}
	m.Tools = true
	if m.Parent == "" && t.s.Turn != nil {
		t.s.Turn.Finished = false
	}
	tl.Done = true
	part := t.toolPart(tl.Name, args, t.callLink(id), meta)
	tl.Kind, tl.Paths = part.ToolKind, part.ToolInput.Paths
	dst = t.w.Complete(dst, universal.Item{
		ItemID: tl.ItemID, NativeItemID: t.w.Copy(id), ParentID: tl.Msg,
		Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: append(t.itemParts(1), part),
	}, universal.SourceAgent, t.raw)
	if name == "AskUserQuestion" && !tl.Question {
		dst = t.askQuestion(dst, tl, id, input, universal.SourceAgent)
	}
	return dst
}

// startTool opens a tool_call item whose arguments will stream.
func (t *Translator) startTool(dst events, m *message, id, name string, src universal.Source, args string) (events, *tool) {
	tl := &tool{ItemID: t.w.NewItemID(), Msg: m.ItemID, Scope: m.Scope, Name: t.w.Copy(name)}
	if prev := t.toolFor(id); reused(prev, m) {
		t.reuse(id, prev, tl)
	}
	t.addTool(id, tl)
	m.Tools = true
	part := t.toolPart(tl.Name, t.w.Copy(args), t.callLink(id), nil)
	tl.Kind, tl.Paths = part.ToolKind, part.ToolInput.Paths
	dst = t.w.StartItem(dst, universal.Item{
		ItemID: tl.ItemID, NativeItemID: t.w.Copy(id), ParentID: m.ItemID,
		Kind: universal.KindToolCall, Role: universal.RoleAssistant,
		Content: append(t.itemParts(1), part),
	}, src, t.raw)
	return dst, tl
}

// closeTool completes a tool_call item whose arguments streamed, with the
// kind and input its streamed arguments give.
func (t *Translator) closeTool(dst events, tl *tool, status universal.ItemStatus, src universal.Source) events {
	tl.Done = true
	it, ok := t.w.Tracked(tl.ItemID)
	if !ok {
		return dst
	}
	for i := range it.Content {
		if p := &it.Content[i]; p.Type == universal.PartToolCall {
			p.ToolKind, p.ToolInput = t.describe(p.Name, p.Arguments)
			tl.Kind, tl.Paths = p.ToolKind, p.ToolInput.Paths
		}
	}
	it.Status = status
	return t.w.Complete(dst, it, src, t.raw)
}

// apiErrorMessage handles the CLI's synthetic assistant message after an
// API failure: a failed message item with the error text, and an error.
func (t *Translator) apiErrorMessage(dst events, m *message, r jsonscan.Value) events {
	m.Failed = true
	// The error line's own text: in a transcript it may continue a
	// response that stopped arriving (2.1.274: its parentUuid is the cut
	// response's last line), whose text comes first in the message.
	text := ""
	r.Get("message.content").ForEach(func(_, b gjson.Result) bool {
		if b.Get("type").Str == "text" && b.Get("text").Str != "" {
			text = t.w.Copy(b.Get("text").Str)
			return false
		}
		return true
	})
	for i := range m.Slots {
		if text != "" {
			break
		}
		if m.Slots[i].Type == universal.PartText && m.Slots[i].Final != "" {
			text = m.Slots[i].Final
			break
		}
	}
	dst = t.completeMsg(dst, m, universal.StatusFailed, universal.SourceAgent)
	if text == "" {
		text = "API error"
	}
	code := first(r.Get("api_error_type").Str, r.Get("apiErrorType").Str, r.Get("error").Str)
	var o jsonw.Object
	o.Raw("error", r.Get("error").Raw).
		Raw("api_error_status", first(r.Get("api_error_status").Raw, r.Get("apiErrorStatus").Raw)).
		Raw("api_error_type", first(r.Get("api_error_type").Raw, r.Get("apiErrorType").Raw)).
		// 2.1.274 and later: the kind of API error (api_error, an open
		// set: usage_limit_reached, provider_credentials, media_removed,
		// …; api_error_kind here, api_error being the body of an "API
		// Error: NNN {…}" text), the server's own code (api_error_code),
		// the parameters of
		// the kinds that have some (api_error_params: the refused effort,
		// the provider and its remedy, the rate limit's record, the
		// removed media) and error_details.
		// A transcript writes the message as the CLI keeps it, in
		// camelCase (apiError, apiErrorCode, apiErrorParams,
		// errorDetails); stream-json renames the members it sends.
		Raw("api_error_kind", first(r.Get("api_error").Raw, r.Get("apiError").Raw)).
		Raw("api_error_code", first(r.Get("api_error_code").Raw, r.Get("apiErrorCode").Raw)).
		Raw("api_error_params", first(r.Get("api_error_params").Raw, r.Get("apiErrorParams").Raw)).
		Raw("error_details", first(r.Get("error_details").Raw, r.Get("errorDetails").Raw)).
		// The subscription's rate-limit state a rate_limit error came
		// with (transcripts only: status, resetsAt, rateLimitType,
		// overageStatus, upgradePaths, …): when the limit resets.
		Raw("quota_limits", r.Get("quotaLimits").Raw)
	if !t.ownThread(m.Scope) {
		// A sub-agent's failure is not the session's.
		return t.subAgentError(dst, m.Scope, text, code, o.Bytes())
	}
	// The message item keeps the text as printed; the error event gives
	// the API's message when the text is "API Error: NNN {body}".
	emsg, ecode := unwrapAPIError(text, code, &o)
	dst = t.w.Emit(dst, universal.TypeError, universal.SourceAgent,
		&universal.Error{Message: t.w.Copy(emsg), Code: t.w.Copy(ecode), Details: o.Bytes()}, t.raw)
	if t.s.Turn != nil {
		t.s.Turn.Errored = true
	}
	t.s.Last = outcome{Failed: true, Message: text}
	if t.transcript {
		// The record shows the turn failed: Claude Code stops there.
		dst = t.endTranscriptTurn(dst, universal.SourceAgent)
	}
	return dst
}

// syntheticFiller translates a synthetic assistant line that says it is
// no API error (isApiErrorMessage / is_api_error_message false, no error
// member): the text the CLI puts in place of a response nobody asked
// for, "No response requested.", when a session is resumed or forked
// after a turn that did not finish (a prompt or an interrupted call with
// no answer; Claude Code 2.1.37 to 2.1.270 at least, after an isMeta
// "Continue from where you left off." when forking). No model made it
// and nothing failed: it is a system item with the text, and the turn
// goes on as before it. In a transcript it stays outside a turn, as the
// CLI's other notices do.
func (t *Translator) syntheticFiller(dst events, r, msg jsonscan.Value, scope string) events {
	if !t.transcript {
		dst = t.ensureTurn(dst, scope)
	}
	parts := t.syntheticParts(msg)
	if len(parts) == 0 {
		return dst
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(first(r.Get("uuid").Str, msg.Get("id").Str)), ParentID: t.scopeParent(scope),
		Kind: universal.KindSystem, Role: universal.RoleSystem, Status: universal.StatusCompleted, Content: parts,
	}, universal.SourceAgent, t.raw)
}

// syntheticParts gives the parts of a message the CLI wrote itself (a
// filler, a local command's output): its content as one text part when
// it is a string, else a text part a text block and a value part any
// other block.
func (t *Translator) syntheticParts(msg jsonscan.Value) []universal.Part {
	var parts []universal.Part
	if c := msg.Sub("content"); c.Result().Type == gjson.String {
		parts = append(parts, universal.Text(t.w.Copy(c.Result().Str)))
	} else {
		c.Each(func(_ gjson.Result, b jsonscan.Value) bool {
			if b.Get("type").Str == "text" {
				parts = append(parts, universal.Text(t.w.Copy(b.Get("text").Str)))
			} else {
				parts = append(parts, anthropic.ValuePart(b))
			}
			return true
		})
	}
	return parts
}

// localCommand translates a local command's answer: no model response and
// no API error, but what the command printed, a system item like a
// transcript's local_command entry, failed when the command failed (the
// outcome kinds failed, unknown and unavailable_headless, or, without an
// outcome, output on stderr). The turn and the session go on: the result
// line after it says how the turn ended.
func (t *Translator) localCommand(dst events, r, msg jsonscan.Value, scope string) events {
	dst = t.ensureTurn(dst, scope)
	if tn := t.s.Turn; tn != nil && scope == "" {
		// The command's output is the turn's answer: the result, which
		// may repeat it, adds no message (see resultAnswer).
		tn.Answered = true
	}
	parts := t.syntheticParts(msg)
	src := r.Get("local_command_source").Str
	stream := ""
	switch {
	case strings.HasPrefix(src, "<local-command-stderr>"):
		stream = "stderr"
	case strings.HasPrefix(src, "<local-command-stdout>"):
		stream = "stdout"
	}
	if len(parts) == 0 {
		text := strings.TrimPrefix(strings.TrimPrefix(src, "<local-command-stderr>"), "<local-command-stdout>")
		text = strings.TrimSuffix(strings.TrimSuffix(text, "</local-command-stderr>"), "</local-command-stdout>")
		parts = append(parts, universal.Text(t.w.Copy(text)))
	}
	if tn := t.s.Turn; tn != nil && scope == "" && len(parts) == 1 && parts[0].Type == universal.PartText {
		if parts[0].Text == tn.LocalOut {
			return dst // the output system/local_command_output gave
		}
		tn.LocalOut = parts[0].Text
	}
	status := universal.StatusCompleted
	outcome := r.Get("local_command_outcome")
	switch kind := outcome.Get("kind").Str; {
	case kind == "failed", kind == "unknown", kind == "unavailable_headless":
		status = universal.StatusFailed
	case !outcome.Exists() && stream == "stderr":
		status = universal.StatusFailed
	}
	var o jsonw.Object
	o.Raw("local_command_run", r.Get("local_command_run").Raw).
		Raw("local_command_outcome", outcome.Raw).
		OptString("stream", stream)
	if md := o.Bytes(); len(md) > 2 {
		parts[0].Metadata = md
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(first(r.Get("uuid").Str, msg.Get("id").Str)), ParentID: t.scopeParent(scope),
		Kind: universal.KindSystem, Role: universal.RoleSystem, Status: status, Content: parts,
	}, universal.SourceAgent, t.raw)
}

// localCommandOutput translates system/local_command_output {content}:
// the output of a slash command the CLI ran itself (/cost, /usage,
// /context, /voice, …), "displayed as assistant-style text in the
// transcript" (the Agent SDK's SDKLocalCommandOutputMessage, 0.3.332;
// claude-agent-acp shows it as the agent's message). It is the command's
// answer as the synthetic assistant line with local_command_source is: a
// system item, the turn answered by it; the same output already shown in
// the turn in that other shape is a mirror and adds nothing. Without text
// it gives nothing; content that is not a string is agent.unparsed.
func (t *Translator) localCommandOutput(dst events, r jsonscan.Value) events {
	c := r.Get("content")
	if c.Exists() && c.Type != gjson.String && c.Type != gjson.Null {
		return t.unparsed(dst, "content", errors.New("local_command_output whose content is not a string"))
	}
	if c.Str == "" {
		return dst
	}
	dst = t.ensureTurn(dst, "")
	text := t.w.CopyValue(c)
	if tn := t.s.Turn; tn != nil {
		if tn.LocalOut == text {
			return dst
		}
		tn.Answered = true
		tn.LocalOut = text
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r.Get("uuid").Str),
		Kind: universal.KindSystem, Role: universal.RoleSystem, Status: universal.StatusCompleted,
		Content: []universal.Part{universal.Text(text)},
	}, universal.SourceAgent, t.raw)
}

// streamlined translates the lines of Claude Code's streamlined
// stream-json output (CLAUDE_CODE_STREAMLINED_OUTPUT with --output-format
// stream-json, a build-flag-gated mode; SDKStreamlinedTextMessage and
// SDKStreamlinedToolUseSummaryMessage of the CLI's StdoutMessage schema),
// which replace the assistant lines: streamlined_text {text, uuid,
// session_id} holds the text of an assistant message, its thinking and
// tool calls removed — an assistant message item, which answers the turn
// as a message would (the result repeats it); streamlined_tool_use_summary
// {tool_summary} the cumulative account of the tool calls since the last
// text ("Read 2 files, ran 1 command"), the only trace of them — a system
// item with the summary (metadata streamlined "tool_use_summary"). Both
// belong to the main thread (the mode writes no sub-agent lines). Without
// text they give nothing; a text that is not a string is agent.unparsed.
func (t *Translator) streamlined(dst events, r jsonscan.Value, typ string) events {
	field := "text"
	if typ == "streamlined_tool_use_summary" {
		field = "tool_summary"
	}
	c := r.Get(field)
	if c.Exists() && c.Type != gjson.String && c.Type != gjson.Null {
		return t.unparsed(dst, field, fmt.Errorf("%s whose %s is not a string", typ, field))
	}
	if c.Str == "" {
		return dst
	}
	dst = t.ensureTurn(dst, "")
	it := universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r.Get("uuid").Str),
		Kind: universal.KindMessage, Role: universal.RoleAssistant, Status: universal.StatusCompleted,
		Content: []universal.Part{universal.Text(t.w.CopyValue(c))},
	}
	if field == "text" {
		if tn := t.s.Turn; tn != nil {
			tn.Answered = true
		}
	} else {
		it.Kind, it.Role = universal.KindSystem, universal.RoleSystem
		it.Content[0].Metadata = []byte(`{"streamlined":"tool_use_summary"}`)
	}
	return t.w.Complete(dst, it, universal.SourceAgent, t.raw)
}

// subAgentError records the failure of a sub-agent (scope: the tool_use
// id of the Agent/Task call that spawned it) by the sub-agent convention of
// package universal: no error event; the call's tool result gets it as
// metadata sub_agent_error, or, when that result was already translated
// (a background agent) or the call is unknown, a status item
// sub_agent_error under the call reports it.
func (t *Translator) subAgentError(dst events, scope, msg, code string, details []byte) events {
	var o jsonw.Object
	o.String("message", msg).OptString("code", code).RawBytes("details", details)
	md := o.Bytes()
	if tl := t.toolFor(scope); tl != nil && !tl.Result {
		if tl.SubErr == "" {
			tl.SubErr = string(md)
		}
		return dst
	}
	if !t.transcript {
		dst = t.ensureTurn(dst, scope)
	}
	return t.w.Complete(dst, universal.Item{
		ItemID: t.w.NewItemID(), NativeItemID: t.w.Copy(r0(t.raw)), ParentID: t.scopeParent(scope), Kind: universal.KindStatus,
		Content: []universal.Part{{Type: universal.PartStatus, Label: "sub_agent_error", Detail: t.w.Copy(msg), Metadata: md}},
	}, universal.SourceAgent, t.raw)
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
