package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentnorm/agentnorm/internal/mcp"
	"github.com/agentnorm/agentnorm/internal/ordered"
	"github.com/agentnorm/agentnorm/internal/stderr"
	"github.com/agentnorm/agentnorm/universal"
)

// state is everything a translator remembers between messages besides the
// Stream's own state. It is saved as JSON by Checkpoint; maps are only
// looked up, never iterated to produce output, so output never depends on
// map order.
type state struct {
	// Thread is the root thread (the session's native id).
	Thread string `json:"thread,omitempty"`
	// Searches are the actions (compact JSON) of the rollout's latest
	// web_search_end events, oldest first, for the web_search_call
	// without an id that records the same search after them (0.136).
	Searches []string `json:"searches,omitempty"`
	// Prompts are prompts the host sent that no user message has shown
	// yet; PromptTurn is the turn that already has its user message.
	Prompts    []string `json:"prompts,omitempty"`
	PromptTurn string   `json:"prompt_turn,omitempty"`
	// Items maps native item keys to what was emitted for them.
	Items map[string]*nitem `json:"items,omitempty"`
	// open lists the items of Items that are not settled (the item, or
	// its result, not done): the only ones the end of a turn has to look
	// at (see markClosed), where Items holds every item of the session.
	// Restore makes it again from Items.
	open []*nitem
	// Reqs are requests one side made of the other (permissions,
	// questions, client-executed tools) by key; Pending lists the keys of
	// unanswered ones in order.
	Reqs    map[string]*request `json:"reqs,omitempty"`
	Pending []string            `json:"pending,omitempty"`
	// Client maps the ids of the host's requests to their methods, so the
	// server's responses can be told apart.
	Client map[string]string `json:"client,omitempty"`
	// Children maps sub-agent threads to the universal id of the item that
	// spawned them ("" while unknown); ChildItems lists the items started
	// in child threads, to close them when the child's turn ends.
	Children   map[string]string `json:"children,omitempty"`
	ChildItems []childItem       `json:"child_items,omitempty"`
	// Spawn is the spawn call whose sub-agent thread is not known yet.
	Spawn string `json:"spawn,omitempty"`
	// Code maps threads to the key of their code-mode exec call whose
	// output has not come (0.147+: the model's script calls tools, whose
	// items come before that output and belong under the call).
	Code map[string]string `json:"code,omitempty"`
	// Review is the thread of a detached review (review/start with
	// delivery "detached", Codex before 0.16x: reviewThreadId names a new
	// thread forked from the reviewed one): the session's review turn runs
	// there, so its messages are read as the root thread's.
	Review string `json:"review,omitempty"`
	// Hosted are the other threads the host started on the connection
	// (the response to its thread/start, resume or fork names a thread
	// other than the root): no sub-agent's, their messages are read as
	// the root thread's, as a detached review's are.
	Hosted map[string]bool `json:"hosted,omitempty"`
	// Failed is set when the last turn ended in error; TurnErr when a
	// terminal error was already reported in the open turn.
	Failed  bool `json:"failed,omitempty"`
	TurnErr bool `json:"turn_err,omitempty"`
	// Declined is the key of a command whose app-server completion said
	// declined with no output: its result waits for the next server
	// message, as Codex before 0.100 (0.77, 0.95) completes a declined
	// command twice, declined and then failed with the text the model got
	// ("exec command rejected by user"), which the result then shows.
	Declined string `json:"declined,omitempty"`
	// DeclinedRaw is that completion's message, the result's raw payload.
	DeclinedRaw string `json:"declined_raw,omitempty"`
	// LegacyExec is set once a pre-0.44 exec event ({"id","msg"}) was
	// read: that output never prints task_complete (0.28 ends the process
	// instead), so the end of the input ends its turn (see finish).
	LegacyExec bool `json:"legacy_exec,omitempty"`
	// Mode is what the root thread's turns run with, as the last
	// turn_context or thread settings named it: the collaboration mode,
	// the approval policy and the sandbox's type (see modeSettings); set
	// once one named any.
	Mode *runMode `json:"mode,omitempty"`
	// V2 is set once app-server v2 notifications were seen: legacy
	// codex/event/* notifications then repeat them and are skipped.
	V2 bool `json:"v2,omitempty"`
	// V2Usage is set once a thread/tokenUsage/updated notification came;
	// until then a v2 connection's usage is its legacy token_count (0.63
	// sends no v2 usage notification).
	V2Usage bool `json:"v2_usage,omitempty"`
	// MCP is set once the stream is known to be codex mcp-server's (its
	// initialize answer names it, or a codex/event notification came):
	// without the host's lines, only then is a CallToolResult the answer
	// to a tools/call of its codex tool.
	MCP bool `json:"mcp,omitempty"`
	// Title is the session's title: the thread's name at the start or
	// the last one reported since.
	Title string `json:"title,omitempty"`
	// Meta collects session metadata seen before the session started
	// (client info, thread/start parameters).
	Meta map[string]string `json:"meta,omitempty"`
	// Kept is what the agent wrote outside its protocol (exec stdout
	// noise, an exchange's stderr records), reported on session.ended;
	// the lines past its bound are counted, and the first is reported
	// as agent.unparsed. Embedded, so that a checkpoint's JSON has its
	// fields where it always had them.
	stderr.Kept
	// Plumb lists the exchange's server requests the host has not
	// answered yet, by key, so that a response to none is reported.
	Plumb map[string]bool `json:"plumb,omitempty"`

	// exec: the process (turn) ordinal, an error line waiting for the next
	// line to tell whether it was retried, the last cumulative usage per
	// thread (keyed "t:" and the thread for the legacy token_count, "a:"
	// and the thread for the app-server's thread/tokenUsage/updated).
	Proc    int                   `json:"proc,omitempty"`
	HeldErr *held                 `json:"held_err,omitempty"`
	Usage   map[string]*usageVals `json:"usage,omitempty"`
	// UsageBase is what the root thread's legacy token_count totals
	// counted before Codex restarted them (they went down: a resumed
	// process counts from 0 again), added to the totals after.
	UsageBase *usageVals `json:"usage_base,omitempty"`
	// ProcTurns counts the turns the current process started (one, but
	// for a process whose output starts a turn again: see execTurnID).
	ProcTurns int `json:"proc_turns,omitempty"`
	// EarlyTurn says the open turn was opened for a warning its
	// process printed before turn.started (a configuration warning), and
	// holds warnings alone: that turn.started starts no other turn.
	EarlyTurn bool `json:"early_turn,omitempty"`

	// rollout: which copy of the conversation is used per kind, user
	// messages held until the event copy shows up, whether turns come
	// from task_started or are inferred, token bookkeeping, the current
	// thread of a multi-thread file.
	Lock     [3]uint8 `json:"lock,omitempty"`
	Held     []held   `json:"held,omitempty"`
	TaskMode bool     `json:"task_mode,omitempty"`
	Inferred string   `json:"inferred,omitempty"`
	Records  bool     `json:"records,omitempty"`
	// Activity is the form the file gives sub-agent activity in, the
	// first one read (lockEvent: sub_agent_activity events, as 0.146's
	// rollouts write them; lockResponse: item_completed SubAgentActivity
	// items, as 0.157's do): a file that wrote both would show each
	// activity once.
	Activity uint8  `json:"activity,omitempty"`
	Cur      string `json:"cur,omitempty"`
	// Window is the root thread's model context window, as its latest
	// task_started or token_count gave it (0: none), for the usage of
	// token_usage_record lines, which do not give it.
	Window int64 `json:"window,omitempty"`
	// Model is the model a rollout's latest turn_context or
	// thread_settings_applied named for the root thread (setModel): the
	// model of its calls since.
	Model string `json:"model,omitempty"`
	// Effort is the reasoning effort named with Model, "" when none was.
	Effort string `json:"effort,omitempty"`
	// HeldRes lists the keys of tools whose result waits (nitem.Held)
	// for the function_call_output of the same call, in order.
	HeldRes []string `json:"held_res,omitempty"`
	// Fork is the fork (or sub-agent) thread whose copy of its parent's
	// history is being read, with what is kept of it (see fork.go).
	Fork *forkReplay `json:"fork,omitempty"`
	// ForkFrom, ForkID and ForkTime describe the current thread's
	// session_meta: the thread it was forked from, its id and its
	// timestamp.
	ForkFrom string `json:"fork_from,omitempty"`
	ForkID   string `json:"fork_id,omitempty"`
	ForkTime string `json:"fork_time,omitempty"`
	// ForkCont says the current fork continues the session's thread (a
	// user's fork read after its parent).
	ForkCont bool `json:"fork_cont,omitempty"`

	// Cwd is the session's working directory, when known: relative paths
	// of tool inputs are resolved against it.
	Cwd string `json:"cwd,omitempty"`
	// Resps are the open model responses, one per thread at most: the
	// assistant message item that holds the response's reasoning and text
	// and parents its tool calls and results.
	Resps []*resp `json:"resps,omitempty"`
	// Goals is the last thread goal reported per thread (app-server
	// thread/goal/updated), its objective and status, so that updates of
	// its usage alone make no item.
	Goals map[string]string `json:"goals,omitempty"`
	// HeldNotices are the app-server's config warnings and deprecation
	// notices read before the session started (Codex sends them before
	// the thread/start response), reported once it starts.
	HeldNotices []heldNotice `json:"held_notices,omitempty"`
	// HeldGoals are a rollout's goal updates read before the session
	// started (which waits for the first turn_context's model), reported
	// once it starts.
	HeldGoals []heldGoal `json:"held_goals,omitempty"`
	// Turns lists the ids of the session's turns in order, so that a
	// rollback of the last n turns can name the first one it removes;
	// a rollback removes its turns from the list.
	Turns []string `json:"turns,omitempty"`
	// TurnOrdinals are the rollout ordinals of the lines that started
	// Turns (-1 where a line had none), while some had one: a paginated
	// thread's next page names where the history it keeps ends by
	// ordinal (history_base). Never longer than Turns.
	TurnOrdinals []int64 `json:"turn_ordinals,omitempty"`
	// Revert is the turn a host's thread/revert request named
	// (beforeTurnId), for the thread/reverted notification that follows.
	Revert string `json:"revert,omitempty"`
	// Resumed is the thread a thread/resume response named, until its
	// first turn starts: the usage Codex re-sends in between is no call of
	// the session's (see resumeResent).
	Resumed string `json:"resumed,omitempty"`
	// Compactions pairs, per thread, the two reports of one app-server
	// compaction (a contextCompaction item and the legacy thread/compacted
	// notification), which is shown once: "l"+turn, a notification shown
	// and waiting for its item; "i"+turn+"\x1f"+item, an item shown and
	// waiting for its notification; "s"+item, an item whose notification
	// came first, not shown; "p"+item, an item shown and paired (see
	// compactionItem).
	Compactions map[string]string `json:"compactions,omitempty"`
}

// resp is an open model response: its assistant message item.
type resp struct {
	ID     string `json:"id"`
	Thread string `json:"thread,omitempty"` // "" for the root thread
	// Open counts the native reasoning and message items started in it
	// and not completed yet: a response that ends with some is cut short.
	Open int `json:"open,omitempty"`
	// Calls says the response called a tool; Resulted that one of its
	// tools has its result.
	Calls    bool `json:"calls,omitempty"`
	Resulted bool `json:"resulted,omitempty"`
	// Final holds the final content of parts whose native item completed,
	// applied when the message completes (the text already streamed).
	Final []finalPart `json:"final,omitempty"`
}

// finalPart is the final text and metadata of one part of a response.
type finalPart struct {
	I    int             `json:"i"`
	Set  bool            `json:"set,omitempty"` // Text replaces what streamed
	Text string          `json:"text,omitempty"`
	Meta json.RawMessage `json:"meta,omitempty"`
}

// nitem is what was emitted for one native item.
type nitem struct {
	ID     string `json:"id"`               // the message or tool_call item
	Result string `json:"result,omitempty"` // the tool_result item
	Kind   uint8  `json:"kind"`
	CallID string `json:"call_id,omitempty"`
	// Uses is n for the session's n-th call with its native call id (0
	// for the first): its CallID is then the id followed by "#n" (see
	// functionCall).
	Uses   int    `json:"uses,omitempty"`
	Name   string `json:"name,omitempty"`
	Thread string `json:"thread,omitempty"`
	Turn   string `json:"turn,omitempty"`
	// Parent is the parent of a tool's call and result items: the
	// response's message (a user's own command: none).
	Parent string `json:"parent,omitempty"`
	// Caller is the call_id of the code-mode exec call whose script
	// called the tool (its tool_call part's metadata caller_call_id).
	Caller string `json:"caller,omitempty"`
	// PI maps the native sections of a message or reasoning item to the
	// parts of its response's message (a message: its one text part;
	// reasoning: one per entry of Parts, in the same order).
	PI []int `json:"pi,omitempty"`
	// Counted says the native item is counted in its response's Open.
	Counted bool `json:"counted,omitempty"`
	// User marks a tool the user ran themselves.
	User bool `json:"user,omitempty"`
	// Patch is an apply_patch call's patch, and Image the file a
	// view_image call names, for the result's file and image parts.
	Patch   string `json:"patch,omitempty"`
	Changes string `json:"changes,omitempty"` // a file change's changes (JSON)
	Image   string `json:"image,omitempty"`
	Done    bool   `json:"done,omitempty"`  // the item (the call) completed
	RDone   bool   `json:"rdone,omitempty"` // the result completed
	// Aborted says the result is the "aborted by user" text of an
	// interrupted call: the command's own end record may still come.
	Aborted bool `json:"aborted,omitempty"`
	// Parts maps reasoning parts to the native section they hold:
	// summary index i as i, raw content index i as -1-i.
	Parts []int `json:"parts,omitempty"`
	// Perm is a permission waiting for the item's outcome (the answer was
	// not visible).
	Perm string `json:"perm,omitempty"`
	// Carry holds the bytes of an incomplete UTF-8 sequence at the end of
	// the streamed output, until the next chunk completes it.
	Carry []byte `json:"carry,omitempty"`
	// Held is a rollout command result (one of the model's calls, or one
	// whose output Codex truncated), or the result of a
	// collab_agent_spawn_end, waiting for the function_call_output of the
	// same call.
	Held *heldResult `json:"held_result,omitempty"`
	// listed says the item is in state.open.
	listed bool
}

// settled reports whether the item and its result (if any) are done:
// nothing about it changes when a turn ends.
func (n *nitem) settled() bool { return n.Done && (n.Result == "" || n.RDone) }

// heldResult is a tool result kept back (see nitem.Held).
type heldResult struct {
	Native  string          `json:"native,omitempty"`
	Output  string          `json:"output,omitempty"`
	Failed  bool            `json:"failed,omitempty"`
	IsError bool            `json:"is_error,omitempty"`
	Meta    json.RawMessage `json:"meta,omitempty"`
	Raw     string          `json:"raw,omitempty"`
	// Running: the function_call_output of a command still running when
	// the model got its first output, waiting for the command's end
	// record (it waits until the turn ends, not only the response).
	Running bool `json:"running,omitempty"`
	// Whole: a command's end-record output without a truncation marker,
	// waiting for the function_call_output in case that one has more.
	Whole bool `json:"whole,omitempty"`
	// Search: a web_search_end's result (the results listed), waiting for
	// the function_call_output of the model's web.run call (what the
	// model read).
	Search bool `json:"search,omitempty"`
	// ImageMime and ImageLen describe the inline image of a rollout's
	// image_generation_call, held for the image_generation_end that names
	// the file Codex saved it to.
	ImageMime string `json:"image_mime,omitempty"`
	ImageLen  int64  `json:"image_len,omitempty"`
}

// The kinds of native items.
const (
	kindMessage uint8 = iota
	kindReasoning
	kindTool
	kindStatus
)

// request is a request one side of the protocol made of the other.
type request struct {
	ID       string   `json:"id"` // the permission or question id
	Kind     uint8    `json:"kind"`
	Method   string   `json:"method,omitempty"`
	Item     string   `json:"item,omitempty"` // the guarded item
	Key      string   `json:"key,omitempty"`  // its native key
	CallID   string   `json:"call_id,omitempty"`
	Action   string   `json:"action,omitempty"`
	Turn     string   `json:"turn,omitempty"`
	Prompt   string   `json:"prompt,omitempty"`
	Options  []string `json:"options,omitempty"`
	Answered bool     `json:"answered,omitempty"`
	// Fields are an MCP elicitation form's fields, to read its answer by.
	Fields []mcp.FormField `json:"fields,omitempty"`
}

// The kinds of requests.
const (
	reqPermission uint8 = iota
	reqQuestion
	reqTool
)

type childItem struct {
	Thread string `json:"thread"`
	ID     string `json:"id"`
}

// held is a native message kept back until a later one decides what it
// means.
// heldGoal is a goal update held until the session starts: its thread,
// the goal (JSON) and its line.
type heldGoal struct {
	Thread string `json:"thread"`
	Goal   string `json:"goal"`
	Raw    string `json:"raw"`
}

// heldNotice is a status item held until the session starts: its thread,
// label, detail, metadata (JSON, or "") and line.
//
// Error marks the refusal of a host's thread/start (resume, fork) read
// before the session started: an error event whose message is Detail,
// code Code and details Meta.
type heldNotice struct {
	Thread string `json:"thread,omitempty"`
	Label  string `json:"label"`
	Detail string `json:"detail,omitempty"`
	Meta   string `json:"meta,omitempty"`
	Raw    string `json:"raw"`
	Error  bool   `json:"error,omitempty"`
	Code   string `json:"code,omitempty"`
}

// maxHeldNotices bounds the notices held before a session starts; past it
// they start the session.
const maxHeldNotices = 64

// maxHeldGoals bounds the goal updates held before a session starts;
// past it they start the session.
const maxHeldGoals = 64

type held struct {
	Text   string `json:"text,omitempty"`
	Raw    string `json:"raw,omitempty"`
	Src    string `json:"src,omitempty"`
	Thread string `json:"thread,omitempty"`
	Native string `json:"native,omitempty"`
	Aux    string `json:"aux,omitempty"` // image paths as a JSON array
	// Source is who injected the message (an injected_message's source:
	// "timer <id>", another program's name), its text part's metadata.
	Source string `json:"source,omitempty"`
}

// usageVals are token counts, nil when not reported.
type usageVals struct {
	Input, Cached, CacheWrite, Output, Reasoning, Total *int64
}

// put sets m[k] = v, making the map on its first entry: most sessions
// leave most of the state's maps empty, and a new translator makes none.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = make(map[K]V)
	}
	(*m)[k] = v
}

// addItem registers a native item under key.
func (s *state) addItem(key string, n *nitem) {
	put(&s.Items, key, n)
	s.list(n)
}

// list adds an item to the unsettled ones, unless it is there already: a
// new item, or a settled one that got a result.
func (s *state) list(n *nitem) {
	if !n.listed {
		n.listed = true
		s.open = append(s.open, n)
	}
}

// listUnsettled makes state.open from Items (a restored state). Its order
// is the map's, which nothing depends on: markClosed treats each item on
// its own.
func (s *state) listUnsettled() {
	for _, n := range s.Items {
		if !n.settled() {
			s.list(n)
		}
	}
}

// addPrompt records a prompt the host sent, unless the same text is
// already waiting (the host reported it and the exchange shows it too).
func (s *state) addPrompt(text string) {
	for _, p := range s.Prompts {
		if p == text {
			return
		}
	}
	s.Prompts = append(s.Prompts, text)
}

// consumePrompt removes a waiting prompt that the agent echoed.
func (s *state) consumePrompt(text string) bool {
	text = strings.TrimSpace(text)
	for i, p := range s.Prompts {
		if strings.TrimSpace(p) == text {
			s.Prompts = append(s.Prompts[:i], s.Prompts[i+1:]...)
			return true
		}
	}
	return false
}

func (s *state) pendingIndex(key string) int {
	for i, k := range s.Pending {
		if k == key {
			return i
		}
	}
	return -1
}

func (s *state) dropPending(key string) {
	if i := s.pendingIndex(key); i >= 0 {
		s.Pending = append(s.Pending[:i], s.Pending[i+1:]...)
	}
}

// dropPrompt forgets a waiting prompt.
func (s *state) dropPrompt(text string) {
	for i, p := range s.Prompts {
		if p == text {
			s.Prompts = append(s.Prompts[:i], s.Prompts[i+1:]...)
			return
		}
	}
}

// validate checks a state read from a checkpoint against the stream it
// was restored with: every reference the translator follows later must
// hold (items, responses, calls, turns, permissions and questions it
// refers to exist, or are open where it expects them open; indexes are in
// range), so that no later message makes it fail or make a call its
// Stream refuses.
func (s *state) validate(w *universal.Stream) error {
	known := func(what, id string) error {
		if id != "" && !w.Known(id) {
			return fmt.Errorf("%s %q was never started", what, id)
		}
		return nil
	}
	if len(s.TurnOrdinals) > len(s.Turns) {
		return fmt.Errorf("%d turn ordinals for %d turns", len(s.TurnOrdinals), len(s.Turns))
	}
	if err := s.Kept.Validate(); err != nil {
		return err
	}
	for i, id := range s.Turns {
		if id == "" || i > 0 && s.Turns[i-1] == id {
			return fmt.Errorf("turn %d of %d empty or repeated", i, len(s.Turns))
		}
	}
	resps := map[string]*resp{}
	for i, r := range s.Resps {
		if r == nil || r.ID == "" || resps[r.ID] != nil {
			return fmt.Errorf("open response %d missing, without an item or repeated", i)
		}
		resps[r.ID] = r
		it, open := w.Tracked(r.ID)
		if !open {
			return fmt.Errorf("open response %q: its message is not open", r.ID)
		}
		if r.Open < 0 {
			return fmt.Errorf("open response %q: %d open items", r.ID, r.Open)
		}
		for j, f := range r.Final {
			if f.I < 0 || f.I >= len(it.Content) {
				return fmt.Errorf("open response %q: final part %d is part %d of %d", r.ID, j, f.I, len(it.Content))
			}
			if f.Meta != nil && !json.Valid(f.Meta) {
				return fmt.Errorf("open response %q: final part %d: metadata not JSON", r.ID, j)
			}
		}
	}
	for key, n := range ordered.ByKey(s.Items) {
		if n == nil || n.ID == "" {
			return fmt.Errorf("item %q missing or without an item", key)
		}
		if n.Kind > kindStatus {
			return fmt.Errorf("item %q of kind %d", key, n.Kind)
		}
		if err := known("item "+key, n.ID); err != nil {
			return err
		}
		if err := known("result of "+key, n.Result); err != nil {
			return err
		}
		if err := known("parent of "+key, n.Parent); err != nil {
			return err
		}
		if n.Counted && n.Kind != kindMessage && n.Kind != kindReasoning {
			return fmt.Errorf("item %q of kind %d counted in a response", key, n.Kind)
		}
		// A native message or reasoning item still counted in its
		// response may outlive it: the response ended (a user message, the
		// next response) before the item completed, whose completion then
		// goes to the thread's next response. Any other item not done is
		// open.
		if !n.Done && !n.Counted && !w.IsOpen(n.ID) {
			return fmt.Errorf("item %q: %q not done, but not open", key, n.ID)
		}
		if !n.RDone && n.Result != "" && !w.IsOpen(n.Result) {
			return fmt.Errorf("item %q: result %q not done, but not open", key, n.Result)
		}
		if it, open := w.Tracked(n.ID); open {
			want := universal.KindMessage
			switch n.Kind {
			case kindTool:
				want = universal.KindToolCall
			case kindStatus:
				want = it.Kind
			}
			if it.Kind != want {
				return fmt.Errorf("item %q of kind %d: its item %q is a %s", key, n.Kind, n.ID, it.Kind)
			}
		}
		if it, open := w.Tracked(n.Result); open && n.Result != "" && it.Kind != universal.KindToolResult {
			return fmt.Errorf("item %q: its result %q is a %s", key, n.Result, it.Kind)
		}
		if n.Changes != "" && !json.Valid([]byte(n.Changes)) {
			return fmt.Errorf("item %q: changes not JSON", key)
		}
		if len(n.Carry) > 3 {
			return fmt.Errorf("item %q: %d bytes carried", key, len(n.Carry))
		}
		if n.Held != nil && n.Held.Meta != nil && !json.Valid(n.Held.Meta) {
			return fmt.Errorf("item %q: held metadata not JSON", key)
		}
		if n.Held != nil && n.Held.ImageLen < 0 {
			return fmt.Errorf("item %q: held image of %d bytes", key, n.Held.ImageLen)
		}
		if len(n.PI) == 0 {
			continue
		}
		// The parts of the response's message it maps to.
		var it universal.Item
		open := false
		if n.ID != "" {
			it, open = w.Tracked(n.ID)
		}
		want := universal.PartText
		switch n.Kind {
		case kindMessage:
		case kindReasoning:
			want = universal.PartReasoning
		default:
			return fmt.Errorf("item %q of kind %d maps parts", key, n.Kind)
		}
		for i, pi := range n.PI {
			if pi < 0 || open && !n.Done && pi >= len(it.Content) {
				return fmt.Errorf("item %q: section %d is part %d", key, i, pi)
			}
			if open && !n.Done && it.Content[pi].Type != want {
				return fmt.Errorf("item %q: section %d is a %s part, not %s", key, i, it.Content[pi].Type, want)
			}
		}
	}
	for key, r := range ordered.ByKey(s.Reqs) {
		if r == nil || r.ID == "" {
			return fmt.Errorf("request %q missing or without an id", key)
		}
		if r.Kind > reqTool {
			return fmt.Errorf("request %q of kind %d", key, r.Kind)
		}
		if err := known("item of request "+key, r.Item); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for i, key := range s.Pending {
		if s.Reqs[key] == nil || seen[key] {
			return fmt.Errorf("pending request %d (%q) unknown or repeated", i, key)
		}
		seen[key] = true
	}
	for thread, key := range ordered.ByKey(s.Code) {
		if s.Items[key] == nil {
			return fmt.Errorf("code call %q of thread %q unknown", key, thread)
		}
	}
	for thread, item := range ordered.ByKey(s.Children) {
		if err := known("spawn of thread "+thread, item); err != nil {
			return err
		}
		if s.Hosted[thread] {
			return fmt.Errorf("thread %q is both a sub-agent's and the host's", thread)
		}
	}
	for thread := range s.Hosted {
		if thread == "" || thread == s.Thread {
			return errors.New("a host thread without an id or that is the root thread")
		}
	}
	for i, c := range s.ChildItems {
		if c.ID == "" {
			return fmt.Errorf("child item %d without an id", i)
		}
		if err := known("child item", c.ID); err != nil {
			return err
		}
	}
	if err := known("spawn call", s.Spawn); err != nil {
		return err
	}
	for i, l := range s.Lock {
		if l > 2 {
			return fmt.Errorf("lock %d is %d", i, l)
		}
	}
	seen = map[string]bool{}
	for i, key := range s.HeldRes {
		if n := s.Items[key]; n == nil || n.Held == nil || seen[key] {
			return fmt.Errorf("held result %d (%q) unknown, not held or repeated", i, key)
		}
		seen[key] = true
	}
	if s.Fork != nil {
		if s.Fork.Thread == "" || s.Fork.Lines < 0 || s.Fork.Turns < 0 || s.Fork.Calls < 0 {
			return errors.New("a fork replay without a thread or with negative counts")
		}
	}
	if len(s.HeldNotices) > maxHeldNotices {
		return fmt.Errorf("%d notices held, at most %d", len(s.HeldNotices), maxHeldNotices)
	}
	for i, n := range s.HeldNotices {
		if n.Label == "" || !json.Valid([]byte(n.Raw)) || n.Meta != "" && !json.Valid([]byte(n.Meta)) {
			return fmt.Errorf("held notice %d has no label or is not JSON", i)
		}
	}
	if len(s.HeldGoals) > maxHeldGoals {
		return fmt.Errorf("%d goal updates held, at most %d", len(s.HeldGoals), maxHeldGoals)
	}
	for i, g := range s.HeldGoals {
		if !json.Valid([]byte(g.Goal)) || !json.Valid([]byte(g.Raw)) {
			return fmt.Errorf("held goal update %d is not JSON", i)
		}
	}
	for thread, slot := range ordered.ByKey(s.Compactions) {
		ok := false
		switch {
		case slot == "":
		case slot[0] == 'i':
			ok = strings.Contains(slot, "\x1f")
		case slot[0] == 'l' || slot[0] == 's' || slot[0] == 'p':
			ok = true
		}
		if !ok {
			return fmt.Errorf("compaction of thread %q: %q", thread, slot)
		}
	}
	if s.Proc < 0 || s.ProcTurns < 0 {
		return fmt.Errorf("process %d, its turn %d", s.Proc, s.ProcTurns)
	}
	return nil
}
