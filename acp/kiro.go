package acp

import (
	"math"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// mKiroToolChunk is Kiro CLI's notification of a running call's output
// as it comes: {sessionId, toolCallId, content}, content one
// ToolCallContent ({type: content, content: {type: text, text}}), sent
// between the call's in_progress update and its completed one, whose
// rawOutput and content hold the whole output (Kiro CLI 2.19.1, an ACP
// client's proxy log: a command's lines one a second).
const mKiroToolChunk = "_kiro/tools/content_chunk"

// kiroToolChunk streams a chunk of a running call's output into its
// tool_result item, as terminal output chunks do. A chunk of a call not
// running (unknown, not started, ended, or whose output stopped
// extending what streamed) adds nothing: it is an extension
// notification, which a client that cannot place it ignores.
func (t *Translator) kiroToolChunk(dst []universal.Event, in *input) []universal.Event {
	p := in.params
	tl := t.st.Tools[p.Get("toolCallId").String()]
	if tl == nil || tl.Done || tl.Diverged || tl.Result == "" || !t.w.IsOpen(tl.Result) {
		return dst
	}
	c := p.Sub("content")
	if c.Sub("type").Str() != "content" {
		return dst
	}
	var text string
	switch cc := c.Sub("content"); cc.Sub("type").Str() {
	case "text":
		text = cc.Sub("text").Str()
	default:
		return dst
	}
	tl.streamed = 0
	return t.w.Delta(dst, tl.Result, 0, universal.PartToolResult, text, agent, in.raw)
}

// mKiroMetadata is Kiro CLI's notification of a session's context use
// {sessionId, contextUsagePercentage}, which at the end of a prompt's
// turn, before the prompt's response, also says what the turn was
// metered: meteringUsage [{value, unit: "credit", unitPlural: "credits"}]
// and turnDurationMs (Kiro CLI 2.11–2.18 public logs).
const mKiroMetadata = "_kiro.dev/metadata"

// kiroMetadata translates a _kiro.dev/metadata notification that carries
// meteringUsage: the turn's spend in credits, Kiro's billing unit (not
// dollars, not tokens), which is how Kiro reports usage. It is a
// usage.updated of scope turn with no token counts and no cost in
// dollars, the credits in its metadata as Amp's are ("credits", the sum
// of the entries in credits), with the entries (metering_usage) and the
// turn's duration (turn_duration_ms). One that carries only the context
// percentage is ignored, as Kiro's other extension notifications are.
func (t *Translator) kiroMetadata(dst []universal.Event, in *input) []universal.Event {
	p := in.params
	return t.kiroMetering(dst, in, p.Get("sessionId").Str, p.Sub("meteringUsage"), "value", "metering_usage", p.Sub("turnDurationMs"))
}

// kiroTurnCompletion translates what Kiro CLI 2.19's session_info_update
// of kind turn_completion (_meta.kiro {kind, promptTurnSummaries [{unit,
// unitPlural, usage, usedTools}], elapsedTime, status, requestIds}; its
// status item keeps it whole) says the turn was metered, as
// _kiro.dev/metadata's meteringUsage is: a usage.updated of scope turn,
// "credits" the sum of the summaries' usage in credits, the summaries
// (prompt_turn_summaries) and elapsedTime (turn_duration_ms) in its
// metadata.
func (t *Translator) kiroTurnCompletion(dst []universal.Event, in *input, sid string, u jsonscan.Value) []universal.Event {
	k := u.Sub("_meta").Sub("kiro")
	if k.Get("kind").Str != "turn_completion" {
		return dst
	}
	return t.kiroMetering(dst, in, sid, k.Sub("promptTurnSummaries"), "usage", "prompt_turn_summaries", k.Sub("elapsedTime"))
}

// kiroMetering emits the metering entries (an array, none when empty)
// as a turn's usage: "credits" the sum of the entries' key in credits,
// the entries under name, the turn's duration as turn_duration_ms.
func (t *Translator) kiroMetering(dst []universal.Event, in *input, sid string, entries jsonscan.Value, key, name string, duration jsonscan.Value) []universal.Event {
	if !entries.IsArray() || entries.Len() == 0 {
		return dst
	}
	var md jsonw.Object
	kiroCredits(&md, entries, key)
	entries.AddTo(&md, name)
	duration.AddTo(&md, "turn_duration_ms")
	return t.kiroUsage(dst, in, sid, md.Bytes())
}

// kiroCredits adds "credits" to md: the sum of the entries' key whose
// unit is credit (or unitPlural credits), when one is.
func kiroCredits(md *jsonw.Object, entries jsonscan.Value, key string) {
	sum, n := 0.0, 0
	entries.Each(func(_ gjson.Result, e jsonscan.Value) bool {
		v := e.Get(key)
		if v.Type == gjson.Number && (e.Get("unit").Str == "credit" || e.Get("unitPlural").Str == "credits") {
			sum += v.Num
			n++
		}
		return true
	})
	if n > 0 && !math.IsInf(sum, 0) && !math.IsNaN(sum) {
		md.Float("credits", math.Round(sum*1e9)/1e9)
	}
}

// kiroUsage emits a turn's metering: the open turn's, or, for a
// sub-agent's session (Kiro CLI runs each in a session of its own), of
// the sub-agent's own turn, named by its session id, as its calls' usage
// is for Grok Build.
func (t *Translator) kiroUsage(dst []universal.Event, in *input, sid string, md []byte) []universal.Event {
	turn := t.w.Turn()
	if sid != "" && t.subCall(sid) != nil {
		turn = t.copy(sid)
	}
	dst = t.begin(dst)
	d := &universal.UsageUpdated{TurnID: turn, Scope: universal.ScopeTurn}
	if len(md) > 2 {
		d.Metadata = md
	}
	return t.w.Emit(dst, universal.TypeUsageUpdated, agent, d, in.raw)
}
