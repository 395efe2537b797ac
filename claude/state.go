package claude

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/ordered"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// state is everything the translator remembers between messages; it is
// what a checkpoint saves. Strings in it never alias native input.
type state struct {
	// Prompts the host sent that are not shown yet, oldest first.
	Prompts []prompt `json:"prompts,omitempty"`
	// Queued are the contents of a transcript's queue-operation enqueues
	// not dequeued or removed yet, oldest first (see queueOperation).
	Queued []string `json:"queued,omitempty"`
	// Echoed are the prompt texts shown in the current turn (a replayed
	// echo of one of them is not shown again).
	Echoed []string `json:"echoed,omitempty"`
	// Msgs are the open assistant messages, in start order.
	Msgs []*message `json:"msgs,omitempty"`
	// Done are the last messages completed, so that a late line of one of
	// them does not show its content again.
	Done []done `json:"done,omitempty"`
	// Cur names, per scope, the message whose stream events arrive now
	// (for stream events without api_message_id).
	Cur map[string]string `json:"cur,omitempty"`
	// Tools are the tool calls seen, by tool_use id.
	Tools map[string]*tool `json:"tools,omitempty"`
	// Agents maps a sub-agent's agent_id (= task_id) to the tool_use id of
	// the Agent/Task call that spawned it.
	Agents map[string]string `json:"agents,omitempty"`
	// Tasks maps a task_id to its status item.
	Tasks map[string]string `json:"tasks,omitempty"`
	// Requests maps a can_use_tool request_id to its tool_use id, an
	// elicitation's to elicitKey.
	Requests map[string]string `json:"requests,omitempty"`
	// Elicits maps the elicitation_id of a URL-mode elicitation to its
	// request_id, until the MCP server's elicitation_complete names it.
	Elicits map[string]string `json:"elicits,omitempty"`
	// Asked are the request_ids of the control requests seen (either
	// side's) not yet answered, oldest first, at most maxAsked: in an
	// exchange every control_response answers one.
	Asked []string `json:"asked,omitempty"`
	// Perms are the permissions by tool_use id.
	Perms map[string]*perm `json:"perms,omitempty"`
	// Waiting are the tool_use ids of the calls that may still wait for a
	// permission (no result, no permission when last looked at), in the
	// order they came: what a can_use_tool without a tool_use_id is about
	// (see waitingCall). Calls that stopped waiting leave it when it is
	// read and as it grows (compactWaiting).
	Waiting []string `json:"waiting,omitempty"`
	// Turn is the open main turn, nil between turns.
	Turn *turn `json:"turn,omitempty"`
	// Last is the outcome of the last result (or transcript error).
	Last outcome `json:"last"`
	// Shell is the shell command the user ran whose output has not come
	// yet.
	Shell *shell `json:"shell,omitempty"`
	// Seen are the uuids of the transcript entries translated so far.
	Seen map[string]bool `json:"seen,omitempty"`
	// Chains maps the uuid of each transcript entry of an inline sidechain
	// (isSidechain without agentId: Claude Code 1.0.x wrote its
	// sub-agents' entries into the main transcript) to the scope it was
	// given, the Agent/Task call of its sub-agent, so that the entries
	// chained to it by parentUuid get the same.
	Chains map[string]string `json:"chains,omitempty"`
	// Main: an entry of a main transcript (not a sidechain) was read, so a
	// sub-agent file read after it that no call spawned is an orphan.
	Main bool `json:"main,omitempty"`
	// Cwd is the session's working directory (session metadata), which
	// resolves relative paths of tool inputs.
	Cwd string `json:"cwd,omitempty"`
	// AgentSetting is the agent a transcript's agent-setting entry
	// names before the session started (session metadata).
	AgentSetting string `json:"agent_setting,omitempty"`
	// Title is the session's title so far (a transcript's ai-title or
	// custom-title), and TitleByUser says the user set it: a title
	// Claude Code generates does not replace it.
	Title       string `json:"title,omitempty"`
	TitleByUser bool   `json:"title_by_user,omitempty"`
	// Mode is the latest permission mode the CLI named (an init's
	// permissionMode, a transcript's permission-mode entry or prompt, a
	// status line's permissionMode): a change from it is reported.
	Mode string `json:"mode,omitempty"`
	// Collapses are the metadata of context-collapse commits written
	// before the session started (a transcript's marble-origami-commit
	// entries ahead of its first message), at most maxCollapses, shown
	// once it starts.
	Collapses []string `json:"collapses,omitempty"`
	// Cut is the start of a stream-json line that another line written
	// into its middle cut in two (see spliced), held for its rest, which
	// the next line is; CutLine is where it was. The bytes are as they
	// were written (a character may be cut in two), so they are saved as
	// base64, not as a JSON string.
	Cut     []byte `json:"cut,omitempty"`
	CutLine int64  `json:"cut_line,omitempty"`
	// Early are transcript tool_result lines written before the line of
	// their call, held until it comes, or stream-json task lines written
	// before the init, held until it comes (see early.go).
	Early []early `json:"early,omitempty"`
	// Unclaimed are the lines of sub-agent files whose agent no call has
	// named yet, held until one does (see unclaimed.go), and
	// UnclaimedSize their bytes.
	Unclaimed     []early `json:"unclaimed,omitempty"`
	UnclaimedSize int64   `json:"unclaimed_size,omitempty"`
	// Continues: the CLI that wrote the transcript answers a background
	// sub-agent's notification in the turn that launched it (2.1.41 and
	// later; older ones ended the turn without it).
	Continues bool `json:"continues,omitempty"`
	// Entries are the positions (in the order written) of the main-chain
	// transcript entries read, by uuid; Conv the conversation entries of
	// the path shown, in that order (see branch.go).
	Entries map[string]int64 `json:"entries,omitempty"`
	Conv    []convEntry      `json:"conv,omitempty"`
	// Derived is the session metadata of a derived-from entry read
	// before the session started (a JSON object), shown when it starts.
	Derived string `json:"derived,omitempty"`
	// Made are the items the latest lines made, by uuid (see
	// supersede.go).
	Made []madeItem `json:"made,omitempty"`
	// Hooks are the hook contexts of stream-json hook_response lines
	// that arrived before the session began (SessionStart hooks run
	// before system/init) or between turns, held until the next init.
	Hooks []hook `json:"hooks,omitempty"`
	// Totals are the CLI's last running totals (result.total_cost_usd
	// and modelUsage, a transcript's cost-state), and Carried what the
	// processes of the same session before the current one spent that it
	// did not restore (see sessionUsage).
	Totals  *totals `json:"totals,omitempty"`
	Carried *totals `json:"carried,omitempty"`
}

// totals are running totals of a session's processes; Models is the
// last report's modelUsage (compacted JSON), not kept for carried totals.
type totals struct {
	Session string          `json:"session,omitempty"`
	Usage   universal.Usage `json:"usage"`
	Cost    *float64        `json:"cost,omitempty"`
	Models  string          `json:"models,omitempty"`
}

// shell is the tool_call item of a shell command the user ran.
type shell struct {
	Item   string `json:"item"`
	CallID string `json:"call_id"`
}

// prompt is a user prompt the host sent.
type prompt struct {
	Text string `json:"text"`
	// Native is set when the prompt was seen in the native input (a user
	// message on stdin); Raw then holds that message.
	Native bool   `json:"native,omitempty"`
	UUID   string `json:"uuid,omitempty"`
	Raw    string `json:"raw,omitempty"`
}

// message is one API message (one message.id within one scope) being
// assembled from its per-block lines and stream events.
// earlierCall is a model call of a message that its usage does not count.
type earlierCall struct {
	Usage universal.Usage `json:"usage"`
	Model string          `json:"model,omitempty"`
}

type message struct {
	Scope  string `json:"scope,omitempty"`
	ID     string `json:"id,omitempty"`
	ItemID string `json:"item"`
	Parent string `json:"parent,omitempty"`
	// Started: item.started was emitted. Live: stream events drive the
	// message (it completes on message_stop).
	Started bool `json:"started,omitempty"`
	Live    bool `json:"live,omitempty"`
	Failed  bool `json:"failed,omitempty"`
	// Slots are the text, thinking and other non-tool blocks in block
	// order; Blocks maps native block indexes of stream events.
	Slots  []slot  `json:"slots,omitempty"`
	Blocks []block `json:"blocks,omitempty"`
	// Open is the native index of the streamed block not yet stopped, -1.
	Open int `json:"open"`
	// Parts is how many parts the Stream knows for the item.
	Parts int `json:"parts"`
	// Usage is the message_start usage (stream) or the per-field maximum of
	// the lines' usage (transcript).
	Usage *universal.Usage `json:"usage,omitempty"`
	// Earlier are the model calls of the message before the one its
	// usage counts (usage.iterations: a refused call that handed over to
	// a fallback model, 2.1.217+), each its own call usage.
	Earlier []earlierCall `json:"earlier,omitempty"`
	Stop    string        `json:"stop,omitempty"`
	// Model is the message's model (message_start or the line's
	// message.model), never "<synthetic>"; call usage names it.
	Model string `json:"model,omitempty"`
	// Effort is the reasoning effort a transcript line names for the
	// message's call (2.1.220 and later); call usage names it too.
	Effort string `json:"effort,omitempty"`
	// Attrib is the attribution members (the text between an object's braces) of the
	// message's transcript line (see attributionFields), Diag its
	// message.diagnostics (why the call missed the prompt cache,
	// 2.1.2xx): call usage names both.
	Attrib string `json:"attrib,omitempty"`
	Diag   string `json:"diag,omitempty"`
	// Cost and Duration are the call's costUSD and durationMs, which a
	// transcript's assistant entries gave before 1.0.9; Duration 0 when
	// none.
	Cost     *float64 `json:"cost,omitempty"`
	Duration int64    `json:"duration,omitempty"`
	// Tools: the message called tools.
	Tools bool `json:"tools,omitempty"`
	// Last is the uuid of the message's last transcript line.
	Last string `json:"last,omitempty"`
	// settled counts the leading slots matchSlot skips.
	settled int
	// spare is memory for the message's first usage, made with the
	// message (see keepUsage); nil once used.
	spare *keptUsageMem
}

// slot is one content part of a message item.
type slot struct {
	Type universal.PartType `json:"type"`
	// Index is the native block index, -1 when unknown.
	Index int `json:"index"`
	// Part is the part's index in the Stream's item, -1 until it has one.
	Part      int    `json:"part"`
	Final     string `json:"final,omitempty"`
	HasFinal  bool   `json:"has_final,omitempty"`
	Signature string `json:"sig,omitempty"`
	// sig holds Signature's bytes while signature deltas add to it: each
	// is appended, not the whole signature copied again.
	sig     []byte
	Private bool   `json:"private,omitempty"`
	Meta    string `json:"meta,omitempty"`
	// Display: the thinking_display of the block's stream events, for
	// its metadata when its line does not say it (see streamDisplay).
	Display string `json:"display,omitempty"`
	Stopped bool   `json:"stopped,omitempty"`
}

// block maps a native block index to a slot or a tool call.
type block struct {
	Index int    `json:"index"`
	Slot  int    `json:"slot"`
	Tool  string `json:"tool,omitempty"`
	// Stopped: its content_block_stop came.
	Stopped bool `json:"stopped,omitempty"`
}

// tool is one tool call.
type tool struct {
	ItemID string `json:"item"`
	Msg    string `json:"msg,omitempty"` // the message item it belongs to
	Scope  string `json:"scope,omitempty"`
	Name   string `json:"name,omitempty"`
	// Kind and Paths are the call's tool kind and the files its input
	// names (for the result's file_ref and image parts).
	Kind   universal.ToolKind `json:"kind,omitempty"`
	Paths  []string           `json:"paths,omitempty"`
	Done   bool               `json:"done,omitempty"`   // the tool_call item completed
	Result bool               `json:"result,omitempty"` // its result seen
	// Question: an AskUserQuestion call, asked as a question; QDone once
	// answered or rejected.
	Question bool     `json:"question,omitempty"`
	QDone    bool     `json:"qdone,omitempty"`
	QPrompt  string   `json:"qprompt,omitempty"`
	QOptions []string `json:"qoptions,omitempty"`
	// Async: a sub-agent launched in the background (its scope outlives
	// the tool result).
	Async bool `json:"async,omitempty"`
	// SubErr is the failure of the sub-agent the call spawned (JSON), for
	// the metadata of its tool result.
	SubErr string `json:"sub_err,omitempty"`
	// Prompt is an Agent/Task call's prompt until a sub-agent is linked to
	// it: a sidechain whose first prompt it is belongs to the call.
	Prompt string `json:"prompt,omitempty"`
	// Seq is the call's place among the session's calls (1 for the
	// first): of several calls with the same prompt, the earliest gets
	// the first sidechain that starts with it.
	Seq int `json:"seq,omitempty"`
	// Link is the call_id the call, its result and its permission carry
	// when its tool_use id, the native id, was an earlier call's too:
	// id#n for the session's n-th call with it (see reuse); "" for the
	// native id. Uses is that n (0 for the first call).
	Link string `json:"link,omitempty"`
	Uses int    `json:"uses,omitempty"`
}

// perm is the permission of one tool call.
type perm struct {
	ID   string `json:"id"`
	Done bool   `json:"done,omitempty"`
}

// turn is the open main turn.
type turn struct {
	ID string `json:"id"`
	// Extra counts system/init lines seen while the turn was open (a
	// background sub-agent's continuation): that many results are folded
	// into this turn before it ends.
	Extra       int    `json:"extra,omitempty"`
	Errored     bool   `json:"errored,omitempty"`
	ErrMsg      string `json:"errmsg,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
	// Finished: the last main-thread response of the turn completed
	// without calling tools (transcripts: the agent finished the turn).
	Finished bool `json:"finished,omitempty"`
	// Answered: a message of the session itself (not a sub-agent's) was
	// seen in the turn; a result ending a turn without one gives its text
	// as the turn's answer (see resultAnswer).
	Answered bool `json:"answered,omitempty"`
	// LocalOut is the output of a slash command the CLI ran itself that
	// the turn already showed, from system/local_command_output or from
	// the synthetic assistant line with local_command_source: the CLI may
	// send the same output in both shapes, and an exact mirror adds
	// nothing.
	LocalOut string `json:"local_out,omitempty"`
	// Structured: a StructuredOutput call of the session itself (the
	// answer to --json-schema) was seen in the turn; its result's
	// structured_output adds nothing then (see resultAnswer).
	Structured bool `json:"structured,omitempty"`
	// Background are the tool_use ids of the sub-agents the turn launched
	// in the background that have not reported back: Claude Code answers
	// their notification in the same turn.
	Background []string `json:"background,omitempty"`
	// EndsAfter are the calls whose results the turn still waits for
	// before it ends: a result marked toolEndsTurn came while other calls
	// of the same response had none (see toolEndedTurn).
	EndsAfter []string `json:"ends_after,omitempty"`
	// Folded results: the worst status and the summed usage so far.
	Status universal.TurnStatus `json:"status,omitempty"`
	Usage  *universal.Usage     `json:"usage,omitempty"`
	// Results counts the results folded in; EndMD and UsageMD are the
	// metadata of the last one while the turn waits for more (JSON).
	Results int    `json:"results,omitempty"`
	EndMD   string `json:"end_md,omitempty"`
	UsageMD string `json:"usage_md,omitempty"`
}

// outcome is how the session stands after the last result.
type outcome struct {
	Failed  bool   `json:"failed,omitempty"`
	Message string `json:"message,omitempty"`
}

// msgIndex sorts the open messages of a state (its Msgs) by scope, and
// keeps apart those without a parent item (the main thread's, and a
// sub-agent's whose call is unknown). A line looks at the messages of its
// own scope: a scan of every open message made each line cost as much as
// the sub-agents left open before it (one each, for calls that never
// finish). Each list is in start order, as Msgs is. It is derived from
// Msgs, made when first needed after New or Restore.
type msgIndex struct {
	made  bool
	main  []*message            // scope ""
	sub   map[string][]*message // the other scopes, made with the first
	empty int                   // lists of sub left empty, kept for their scope's next message
	top   []*message
	// Room for the first two of main and top, as a session mostly has
	// one or two messages open: no allocation for a translator's lists.
	mainRoom, topRoom [2]*message
}

// index returns the index of the open messages, made from s.Msgs if it
// is not yet.
func (t *Translator) index() *msgIndex {
	x := &t.open
	if !x.made {
		*x = msgIndex{made: true}
		x.main, x.top = x.mainRoom[:0], x.topRoom[:0]
		for _, m := range t.s.Msgs {
			x.add(m)
		}
	}
	return x
}

func (x *msgIndex) list(scope string) []*message {
	if scope == "" {
		return x.main
	}
	return x.sub[scope]
}

func (x *msgIndex) add(m *message) {
	if m.Parent == "" {
		x.top = append(x.top, m)
	}
	if m.Scope == "" {
		x.main = append(x.main, m)
		return
	}
	if x.sub == nil {
		x.sub = make(map[string][]*message)
	}
	l, ok := x.sub[m.Scope]
	if ok && len(l) == 0 {
		x.empty--
	}
	x.sub[m.Scope] = append(l, m)
}

func (x *msgIndex) remove(m *message) {
	if m.Parent == "" {
		x.top = without(x.top, m)
	}
	if m.Scope == "" {
		x.main = without(x.main, m)
		return
	}
	l, ok := x.sub[m.Scope]
	if !ok || len(l) == 0 {
		return // not indexed: nothing to take out
	}
	l = without(l, m)
	x.sub[m.Scope] = l
	if len(l) > 0 {
		return
	}
	// A scope's messages mostly follow one another (the one before
	// completes as the next starts), so its empty list is kept; once
	// most scopes are over, they go.
	x.empty++
	if x.empty > 32 && x.empty > len(x.sub)/2 {
		for s, l := range x.sub {
			if len(l) == 0 {
				delete(x.sub, s)
			}
		}
		x.empty = 0
	}
}

// without removes m from l, looking from the end: the message completed
// is most often the one started last.
func without(l []*message, m *message) []*message {
	for i := len(l) - 1; i >= 0; i-- {
		if l[i] == m {
			return slices.Delete(l, i, i+1)
		}
	}
	return l
}

// A msgSet names a set of open messages: every one, the top ones (see
// topMsgs) or those of a scope.
type msgSet struct {
	every, top bool
	scope      string
}

var (
	everyMsg = msgSet{every: true}
	topMsg   = msgSet{top: true}
)

func inScope(scope string) msgSet { return msgSet{scope: scope} }

// msgs returns the open messages of a set, in start order (see scopeMsgs).
func (t *Translator) msgs(set msgSet) []*message {
	switch {
	case set.every:
		return t.s.Msgs
	case set.top:
		return t.topMsgs()
	}
	return t.scopeMsgs(set.scope)
}

// scopeMsgs returns the open messages of a scope, in start order. The
// slice changes as messages start and complete: a loop that completes
// messages reads it anew each time.
func (t *Translator) scopeMsgs(scope string) []*message {
	return t.index().list(scope)
}

// topMsgs returns the open messages without a parent item, in start
// order (see scopeMsgs).
func (t *Translator) topMsgs() []*message {
	return t.index().top
}

// findMsg returns the open message with the id in the scope.
func (t *Translator) findMsg(scope, id string) *message {
	for _, m := range t.scopeMsgs(scope) {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// newMsg opens a message; scope and id may alias input.
func (t *Translator) newMsg(scope, id string) *message {
	// The message with room for its first slot and two blocks (most
	// have no more) in one allocation, where growing them from nothing
	// took two or three.
	one := new(struct {
		message
		slots  [1]slot
		blocks [2]block
		usage  keptUsageMem // message_start's, which most streamed messages have
	})
	m := &one.message
	*m = message{Scope: t.w.Copy(scope), ID: t.w.Copy(id), ItemID: t.w.NewItemID(), Parent: t.scopeParent(scope), Open: -1,
		Slots: one.slots[:0], Blocks: one.blocks[:0], spare: &one.usage}
	x := t.index() // before m is in Msgs, or a new index would hold it twice
	if t.s.Msgs == nil {
		t.s.Msgs = t.msgsRoom[:0]
	}
	t.s.Msgs = append(t.s.Msgs, m)
	x.add(m)
	return m
}

// done is a completed message.
type done struct {
	Scope  string `json:"scope,omitempty"`
	ID     string `json:"id"`
	ItemID string `json:"item"`
}

// maxDone bounds the memory of completed messages.
const maxDone = 32

// doneMsg returns the item of a message completed recently, "" if none.
func (t *Translator) doneMsg(scope, id string) string {
	for _, d := range t.s.Done {
		if d.ID == id && d.Scope == scope {
			return d.ItemID
		}
	}
	return ""
}

// dropMsg forgets a message (after its completion).
func (t *Translator) dropMsg(m *message) {
	if len(t.s.Done) == maxDone {
		t.s.Done = append(t.s.Done[:0], t.s.Done[1:]...)
	}
	if t.s.Done == nil {
		t.s.Done = t.doneRoom[:0]
	}
	t.s.Done = append(t.s.Done, done{Scope: m.Scope, ID: m.ID, ItemID: m.ItemID})
	x := t.index() // before m leaves Msgs, as in newMsg
	t.s.Msgs = without(t.s.Msgs, m)
	x.remove(m)
	if id, ok := t.s.Cur[m.Scope]; ok && id == m.ID {
		delete(t.s.Cur, m.Scope)
	}
}

// scopeParent returns the item a scope's items hang under: the Agent/Task
// tool call of a sub-agent, "" for the main thread or an unknown call.
func (t *Translator) scopeParent(scope string) string {
	if scope == "" {
		return ""
	}
	if tl := t.s.Tools[scope]; tl != nil {
		return tl.ItemID
	}
	return ""
}

// lineScope returns the scope of an assistant or user line: the tool_use
// id of the sub-agent call it belongs to, "" for the main thread. Stream
// lines carry parent_tool_use_id; transcript sidechain entries carry
// agentId, resolved through the Agent call's result when it was seen, or
// (1.0.x, inline) chain by parentUuid to a root that gives its call's
// prompt (see inlineScope).
func (t *Translator) lineScope(r jsonscan.Value) string {
	return t.scopeOf(r, r.Sub("parent_tool_use_id"), r.Sub("agent_id"), r.Sub("isSidechain"))
}

// scopeOf is lineScope given the line's parent_tool_use_id, agent_id and
// isSidechain members (the first of each, as Get finds), which
// translate's walk over the line's members found already.
func (t *Translator) scopeOf(r, parent, agentID, sidechain jsonscan.Value) string {
	if parent.Type() == gjson.String {
		if p := parent.Str(); p != "" {
			if a := agentID.Str(); a != "" {
				t.learnAgent(a, p)
			}
			return p
		}
	}
	if sidechain.Result().Bool() {
		a := r.Get("agentId").Str
		if a == "" {
			return t.inlineScope(r)
		}
		if call, ok := t.s.Agents[a]; ok {
			return call
		}
		if call := t.promptCall(r); call != "" {
			t.learnAgent(a, call)
			return call
		}
		return orphanPrefix + a
	}
	return ""
}

// orphanPrefix starts the scope of a sidechain whose agentId no call has
// named yet.
const orphanPrefix = "agent:"

// ownThread reports whether a line of this scope is on the input's own
// thread, whose turns and failures are the session's: the main thread,
// or, in a transcript, that of a sub-agent's file read by itself (its
// agentId named by no call of the input). A sub-agent's lines under a
// call of the input are not.
func (t *Translator) ownThread(scope string) bool {
	return scope == "" || t.transcript && strings.HasPrefix(scope, orphanPrefix)
}

// inlineScope returns the scope of an inline sidechain entry (one without
// agentId). Claude Code 1.0.x wrote its sub-agents' entries into the main
// transcript, interleaved with the main thread's and, for sub-agents run
// in parallel, with each other's (observed 1.0.98: each sub-agent's
// entries together, flushed when it finished, before its call's result).
// Each sub-agent's entries form one chain by parentUuid: its root is a
// user entry whose parentUuid is null and whose text is the prompt of
// the Task call that spawned it (the earliest such call not linked yet,
// when several have the same prompt); every other entry names an entry
// of its chain as parent. An entry whose chain starts with no call's
// prompt gets the scope "sidechain" (top level: no call to hang under).
func (t *Translator) inlineScope(r jsonscan.Value) string {
	uuid := r.Get("uuid").Str
	if scope, ok := t.s.Chains[uuid]; ok && uuid != "" {
		return scope // the same entry asked again (settle, then Translate)
	}
	scope := ""
	if p := r.Get("parentUuid").Str; p != "" {
		scope = t.s.Chains[p]
	}
	if scope == "" {
		if scope = t.promptCall(r); scope != "" {
			t.s.Tools[scope].Prompt = ""
		}
	}
	if scope == "" {
		return "sidechain"
	}
	if uuid != "" {
		if t.s.Chains == nil {
			t.s.Chains = map[string]string{}
		}
		t.s.Chains[t.w.Copy(uuid)] = scope // scope is a key of Tools already
	}
	return scope
}

// promptCall returns the Agent/Task call (not linked to a sub-agent yet)
// whose prompt is the text of a sidechain's first entry, "" if none: a
// sub-agent's transcript starts with the prompt its call gave, so it links
// to the call even when the call's result (which names the agentId) never
// came, or comes only after the sub-agent's entries. Of several calls
// with that prompt, the earliest.
func (t *Translator) promptCall(r jsonscan.Value) string {
	if r.Get("type").Str != "user" || r.Get("parentUuid").Type != gjson.Null {
		return ""
	}
	c := r.Get("message.content")
	text := c.Str
	if c.IsArray() {
		var b strings.Builder
		c.ForEach(func(_, x gjson.Result) bool {
			if x.Get("type").Str == "text" {
				b.WriteString(x.Get("text").Str)
			}
			return true
		})
		text = b.String()
	}
	if text == "" {
		return ""
	}
	call := ""
	for _, id := range sortedKeys(t.s.Tools) {
		if tl := t.s.Tools[id]; tl.Prompt != "" && tl.Prompt == text && (call == "" || tl.Seq < t.s.Tools[call].Seq) {
			call = id
		}
	}
	return call
}

// orphan reports a transcript entry to ignore: one of a sub-agent file
// read after the main transcript whose agentId no call of the session
// named and whose first prompt no call gave (Claude Code 2.0.x's cache
// warmup conversations, "Warmup", a compaction agent's file). Read on its
// own (no main-file entry before it), such a file is translated.
func (t *Translator) orphan(scope string) bool {
	return t.transcript && t.s.Main && strings.HasPrefix(scope, orphanPrefix)
}

// learnAgent records which tool call spawned a sub-agent.
func (t *Translator) learnAgent(agentID, call string) {
	if agentID == "" || call == "" {
		return
	}
	if _, ok := t.s.Agents[agentID]; ok {
		return
	}
	if tl := t.s.Tools[call]; tl != nil {
		tl.Prompt = ""
	}
	if t.s.Agents == nil {
		t.s.Agents = map[string]string{}
	}
	t.s.Agents[t.w.Copy(agentID)] = t.w.Copy(call)
	if len(t.s.Unclaimed) > 0 {
		t.claim(agentID)
	}
}

// linked reports whether a sub-agent is known to belong to the call.
func (t *Translator) linked(call string) bool {
	for _, c := range t.s.Agents {
		if c == call {
			return true
		}
	}
	return false
}

// toolFor returns the tool call with the id, nil if unknown.
func (t *Translator) toolFor(id string) *tool {
	if id == "" {
		return nil
	}
	return t.s.Tools[id]
}

// reused reports whether a tool_use block with the id of a known call tl
// in message m is another call: some providers number each response's
// calls from 0 (Kimi K2 behind a gateway: functions.Bash:0), so a later
// API message reuses the id of a call whose result came already. The
// same call again (a repeated line, a stream event and its message's
// line) is in the same message, or has no result yet.
func reused(tl *tool, m *message) bool {
	return tl != nil && tl.Result && tl.Msg != m.ItemID
}

// reuse returns the tool entry of a new call whose tool_use id the
// session's earlier call prev had (see reused): it takes the id's place,
// so that the results and permissions that name the id find it, and its
// call_id is id#n.
func (t *Translator) reuse(id string, prev *tool, tl *tool) {
	n := max(prev.Uses, 1) + 1
	tl.Uses, tl.Link = n, universal.ReusedCallID(t.w.Copy(id), n)
	delete(t.s.Perms, id)
}

// callLink returns the call_id of the session's latest call with tool_use
// id id (a copy).
func (t *Translator) callLink(id string) string {
	if tl := t.toolFor(id); tl != nil && tl.Link != "" {
		return tl.Link
	}
	return t.w.Copy(id)
}

func (t *Translator) addTool(id string, tl *tool) {
	if t.s.Tools == nil {
		t.s.Tools = map[string]*tool{}
	}
	tl.Seq = len(t.s.Tools) + 1
	if tl.Scope == "" && tl.Name == "StructuredOutput" && t.s.Turn != nil {
		t.s.Turn.Structured = true
	}
	id = t.w.Copy(id)
	t.s.Tools[id] = tl
	if t.s.Waiting == nil {
		t.s.Waiting = t.waitingRoom[:0]
	}
	t.s.Waiting = append(t.s.Waiting, id)
	if n := len(t.s.Waiting); n >= 16 && n&(n-1) == 0 {
		// At each power of two: the list stays about the calls still
		// waiting, at a cost amortized over the calls added.
		t.compactWaiting()
	}
}

// done reports whether the record shows the agent finished the open turn:
// its last response called no tools and no background sub-agent it
// launched is still to report.
func (t *Translator) done() bool {
	tn := t.s.Turn
	return tn != nil && tn.Finished && (len(tn.Background) == 0 || !t.s.Continues)
}

// continuesAfterBackground reports whether a Claude Code version answers
// a background sub-agent's notification in the same turn: 2.1.41 and
// later do; 2.1.40 and older exit after the turn's first result while the
// sub-agent still runs (2.0.76, 2.1.14, 2.1.38, 2.1.39 and 2.1.40 so
// recorded, 2.1.41, 2.1.44, 2.1.50, 2.1.61, 2.1.90 and 2.1.120 answer it).
func continuesAfterBackground(version string) bool {
	var v [3]int
	for i, f := range strings.SplitN(version, ".", 3) {
		n, err := strconv.Atoi(strings.TrimFunc(f, func(r rune) bool { return r < '0' || r > '9' }))
		if err != nil {
			return true
		}
		v[i] = n
	}
	return v[0] > 2 || v[0] == 2 && (v[1] > 1 || v[1] == 1 && v[2] >= 41)
}

// backgroundDone records that a background sub-agent of the open turn
// reported back: the agent answers its notification, so the turn goes on
// (the responses before the notification are complete).
func (t *Translator) backgroundDone(dst events, call string) events {
	tn := t.s.Turn
	if tn == nil || !slices.Contains(tn.Background, call) {
		return dst
	}
	tn.Background = slices.DeleteFunc(tn.Background, func(c string) bool { return c == call })
	if t.transcript {
		dst = t.closeMsgs(dst, topMsg, idle)
		tn.Finished = false
	}
	return dst
}

func (t *Translator) turnID() string {
	if t.s.Turn == nil {
		return ""
	}
	return t.s.Turn.ID
}

// sortedKeys returns a map's keys in order, for deterministic iteration.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// validate checks a state read from a checkpoint against the stream it
// was restored with: every reference the translator follows later must
// hold, so that no later message makes it fail or make a call its Stream
// refuses.
func (s *state) validate(w *universal.Stream) error {
	known := func(what, id string) error {
		if id != "" && !w.Known(id) {
			return fmt.Errorf("%s %q was never started", what, id)
		}
		return nil
	}
	items := map[string]bool{}
	for i, m := range s.Msgs {
		if m == nil {
			return fmt.Errorf("open message %d missing", i)
		}
		if m.ItemID == "" || items[m.ItemID] {
			return fmt.Errorf("open message %d: item %q empty or repeated", i, m.ItemID)
		}
		items[m.ItemID] = true
		if err := m.validate(w); err != nil {
			return fmt.Errorf("open message %q: %w", m.ItemID, err)
		}
		if err := known("parent", m.Parent); err != nil {
			return err
		}
	}
	for id, tl := range ordered.ByKey(s.Tools) {
		if tl == nil || tl.ItemID == "" {
			return fmt.Errorf("tool %q missing or without an item", id)
		}
		if err := known("tool call", tl.ItemID); err != nil {
			return err
		}
		if err := known("tool message", tl.Msg); err != nil {
			return err
		}
	}
	for uuid, scope := range ordered.ByKey(s.Chains) {
		if scope == "" {
			return fmt.Errorf("sidechain entry %q without a scope", uuid)
		}
	}
	for id, p := range ordered.ByKey(s.Perms) {
		if p == nil || p.ID == "" {
			return fmt.Errorf("permission of %q missing", id)
		}
	}
	for id, item := range ordered.ByKey(s.Tasks) {
		if err := known("task "+id, item); err != nil {
			return err
		}
	}
	if s.Turn != nil && (s.Turn.ID == "" || w.Turn() != s.Turn.ID) {
		return fmt.Errorf("turn %q is not open", s.Turn.ID)
	}
	if s.Shell != nil {
		if s.Shell.Item == "" {
			return errors.New("a shell command without an item")
		}
		if err := known("shell command", s.Shell.Item); err != nil {
			return err
		}
	}
	if len(s.Cut) > maxCut {
		return fmt.Errorf("a cut line of %d bytes held, at most %d", len(s.Cut), maxCut)
	}
	for _, k := range [...]*totals{s.Totals, s.Carried} {
		if k != nil && k.Models != "" && (len(k.Models) > maxModels || !gjson.Valid(k.Models) || !gjson.Parse(k.Models).IsObject()) {
			return fmt.Errorf("running totals' models: at most %d bytes of a JSON object, not %.40q", maxModels, k.Models)
		}
	}
	if len(s.Collapses) > maxCollapses {
		return fmt.Errorf("%d collapse commits held, at most %d", len(s.Collapses), maxCollapses)
	}
	for _, md := range s.Collapses {
		// Each is the metadata of a status item: a JSON object.
		if !gjson.Valid(md) || !gjson.Parse(md).IsObject() {
			return fmt.Errorf("a held collapse commit is not a JSON object: %.40q", md)
		}
	}
	if len(s.Asked) > maxAsked {
		return fmt.Errorf("%d control requests remembered, at most %d", len(s.Asked), maxAsked)
	}
	for i, e := range s.Conv {
		if p, ok := s.Entries[e.UUID]; !ok || p != e.Pos || i > 0 && s.Conv[i-1].Pos >= e.Pos {
			return fmt.Errorf("conversation entry %d (%q) out of place", i, e.UUID)
		}
		if err := known("entry item", e.Item); err != nil {
			return err
		}
	}
	for uuid, p := range ordered.ByKey(s.Entries) {
		if p < 0 || p >= int64(len(s.Entries)) {
			return fmt.Errorf("entry %q at %d of %d", uuid, p, len(s.Entries))
		}
	}
	if s.Derived != "" && (!gjson.Valid(s.Derived) || !gjson.Parse(s.Derived).IsObject()) {
		return fmt.Errorf("held derived-from metadata is not a JSON object: %.40q", s.Derived)
	}
	if len(s.Made) > 2*maxMade {
		return fmt.Errorf("%d lines remembered, at most %d", len(s.Made), 2*maxMade)
	}
	for i, m := range s.Made {
		if m.UUID == "" {
			return fmt.Errorf("remembered line %d without a uuid", i)
		}
		if err := known("line item", m.Item); err != nil {
			return err
		}
	}
	for i, d := range s.Done {
		if d.ItemID == "" {
			return fmt.Errorf("done message %d without an item", i)
		}
	}
	var held int64
	for i, e := range s.Unclaimed {
		if e.Agent == "" {
			return fmt.Errorf("held sub-agent line %d without an agent", i)
		}
		held += int64(len(e.Data))
	}
	if held != s.UnclaimedSize {
		return fmt.Errorf("held sub-agent lines of %d bytes, recorded as %d", held, s.UnclaimedSize)
	}
	return nil
}

// validate checks one open message.
func (m *message) validate(w *universal.Stream) error {
	if m.Open < -1 || m.Parts < 0 {
		return fmt.Errorf("open block %d, %d parts", m.Open, m.Parts)
	}
	var it universal.Item
	if m.Started {
		var open bool
		if it, open = w.Tracked(m.ItemID); !open {
			return errors.New("started, but not open")
		}
		if m.Parts != len(it.Content) {
			return fmt.Errorf("%d parts, the stream %d", m.Parts, len(it.Content))
		}
	} else if m.Parts != 0 {
		return fmt.Errorf("%d parts before it started", m.Parts)
	} else if m.ItemID != "" && w.Known(m.ItemID) {
		return errors.New("not started, but its item was")
	}
	used := map[int]bool{}
	for i, sl := range m.Slots {
		if sl.Part < -1 || sl.Part >= m.Parts || sl.Index < -1 || sl.Part >= 0 && used[sl.Part] {
			return fmt.Errorf("slot %d: part %d of %d (or repeated), block %d", i, sl.Part, m.Parts, sl.Index)
		}
		if sl.Part >= 0 {
			used[sl.Part] = true
			if it.Content[sl.Part].Type != sl.Type {
				return fmt.Errorf("slot %d is %s, its part %s", i, sl.Type, it.Content[sl.Part].Type)
			}
		}
		switch sl.Type {
		case universal.PartText, universal.PartReasoning, universal.PartJSON:
		default:
			return fmt.Errorf("slot %d of type %q", i, sl.Type)
		}
		// The part's metadata, written as it is and added to as an object
		// (withMembers).
		if m := sl.Meta; m != "" && (m[0] != '{' || m[len(m)-1] != '}' || !gjson.Valid(m)) {
			return fmt.Errorf("slot %d: metadata %.40q is not a JSON object", i, m)
		}
	}
	for i, b := range m.Blocks {
		if b.Slot < -1 || b.Slot >= len(m.Slots) {
			return fmt.Errorf("block %d: slot %d of %d", i, b.Slot, len(m.Slots))
		}
	}
	return nil
}
