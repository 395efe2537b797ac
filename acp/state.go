package acp

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/agentnorm/agentnorm/internal/ordered"
	"github.com/agentnorm/agentnorm/internal/stderr"
	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// state is everything the translator keeps between messages besides the
// Stream. It is saved by Checkpoint as JSON.
type state struct {
	// Oriented: an exchange's first message that only one side sends
	// was seen; HostOut: its recorder wrote "out" for what the host sent
	// (see orient).
	Oriented bool `json:"oriented,omitempty"`
	HostOut  bool `json:"host_out,omitempty"`
	// BothSides: a log in the agent format showed a message of the host
	// (see sideOf).
	BothSides bool `json:"both_sides,omitempty"`
	// Meta is the session.started metadata gathered so far (initialize,
	// session/new, commands, modes), as fields in arrival order; the
	// session starts when the first work arrives.
	Meta []field `json:"meta,omitempty"`
	// Title is the session's title: the last one a session_info_update
	// gave.
	Title string `json:"title,omitempty"`
	// Goal is the session's goal as the goal extension last published it
	// (session_info_update _meta.goal): its status and objective, NUL
	// between; "" with no goal.
	Goal string `json:"goal,omitempty"`
	// Mode is the session's mode id as the agent last named it
	// (session/new's current mode, a set_mode it accepted, a
	// current_mode_update): a mode item says what it replaces, and the
	// same mode again is no change.
	Mode string `json:"mode,omitempty"`
	// Cwd is the session's working directory (session/new, session/load).
	Cwd string `json:"cwd,omitempty"`
	// Requests are the JSON-RPC requests waiting for their response, keyed
	// by direction and id ("in:3" the host asked, "out:0" the agent asked).
	Requests map[string]request `json:"requests,omitempty"`
	// Remembered counts the requests remembered, which numbers them
	// (request.N): the oldest are forgotten first.
	Remembered int64 `json:"remembered,omitempty"`
	// Prompts are host prompts (reported) not yet matched with a turn.
	Prompts []string `json:"prompts,omitempty"`
	// Turn is the universal turn in progress.
	Turn turnState `json:"turn"`
	// Loading: a session/load request is waiting for its response; the
	// updates before it are the history the agent replays.
	Loading bool `json:"loading,omitempty"`
	// Failed: the last turn or a session request failed.
	Failed bool `json:"failed,omitempty"`
	// Scopes hold the response message of the session ("" key) and of
	// each sub-agent (keyed by its spawning call's toolCallId).
	Scopes map[string]*scope `json:"scopes,omitempty"`
	// Tools are the tool calls of the session, by toolCallId.
	Tools map[string]*tool `json:"tools,omitempty"`
	// Order lists the tool call ids in the order they became known.
	Order []string `json:"order,omitempty"`
	// CallUses counts, per toolCallId, the calls of the session that had
	// it: an agent that passes the model's ids through, with a provider
	// that numbers each response's calls from 0 (Kimi K2's
	// functions.bash:0), reuses an id for later calls (see tool.Link).
	CallUses map[string]int `json:"call_uses,omitempty"`
	// ReplayUses counts the same for the history the latest session/load
	// (or replaying session/resume) replays: its calls are the session's
	// calls again, from the first, and get the call_ids they had.
	ReplayUses map[string]int `json:"replay_uses,omitempty"`
	// Ended lists the toolCallIds of the last ended turn's calls: an
	// update of one after the prompt's response (codex-acp 2.6.0 sends a
	// cancelled command's output after answering cancelled) is no new call.
	Ended []string `json:"ended,omitempty"`
	// Terminals maps terminal ids to the toolCallId they serve.
	Terminals map[string]string `json:"terminals,omitempty"`
	// GrokTasks maps Grok Build's background task ids to the toolCallId
	// of the call that started them (_x.ai/task_backgrounded).
	GrokTasks map[string]string `json:"grok_tasks,omitempty"`
	// AsyncTasks maps claude-agent-acp's async task ids to the toolCallId
	// of the call that started them (see asyncTask), until they end.
	AsyncTasks map[string]string `json:"async_tasks,omitempty"`
	// GrokEnded: Grok Build's turn_completed ended the last turn; a
	// prompt's response that follows adds nothing.
	GrokEnded bool `json:"grok_ended,omitempty"`
	// AgentTerminals are the agent-owned terminals (ACP v2) no call has
	// claimed yet, by terminal id.
	AgentTerminals map[string]*agentTerminal `json:"agent_terminals,omitempty"`
	// User is the open user message item being streamed by chunks.
	User string `json:"user,omitempty"`
	// V2: the agent speaks ACP v2 (initialize's protocolVersion 2): a
	// prompt's response accepts it, state_update idle ends its turn.
	V2 bool `json:"v2,omitempty"`
	// Agent is the agent's name (initialize's agentInfo.name), for the
	// agents whose dialect differs (kimiAgent, vibeAgent, claudeAgent:
	// the adapter's names, or its _meta seen without initialize).
	Agent string `json:"agent,omitempty"`
	// UserID is the messageId of User's chunks ("" when they had none).
	UserID string `json:"user_id,omitempty"`
	// Seq numbers permission and question ids.
	Seq int `json:"seq,omitempty"`
	// Activities are the toolCallIds of the codex-acp sub-agent
	// activities shown (see subagentActivity), the latest maxActivities.
	Activities []string `json:"activities,omitempty"`
	// Compactions are the context compactions (compaction_update,
	// unstable), by compactionId.
	Compactions map[string]*compaction `json:"compactions,omitempty"`
	// Sessions are the ids of the sessions the host opened (session/new,
	// load, resume, fork) or the first update named.
	Sessions map[string]bool `json:"sessions,omitempty"`
	// SubSessions maps every other session an update named to the
	// toolCallId of the call it goes under: a sub-agent's (as Kiro CLI
	// runs them), until its call's turn ends; "" for a session whose
	// updates are the session's own (see subCall).
	SubSessions map[string]string `json:"sub_sessions,omitempty"`
	// CopilotAgents maps the agentId Copilot CLI puts on a sub-agent's
	// updates (_meta["github.com/copilot"].agentId) to the toolCallId of
	// the task call it runs under (see copilotParent).
	CopilotAgents map[string]string `json:"copilot_agents,omitempty"`
	// TurnSubs are the sessions of SubSessions under a call of the turn,
	// in the order they came.
	TurnSubs []string `json:"turn_subs,omitempty"`
	// Subagents are the sub-agent sessions the agent announced
	// (subagent_spawned, subagent_update), by session id.
	Subagents map[string]*subagent `json:"subagents,omitempty"`
	// Todos are Cursor's todo list (cursor/update_todos), which an update
	// that merges changes.
	Todos []todo `json:"todos,omitempty"`
	// Stderr is the agent's stderr an exchange's recorder kept (see
	// keepStderr).
	Stderr *stderr.Kept `json:"stderr,omitempty"`
}

// field is one metadata field: a key and its raw JSON value.
type field struct {
	K string `json:"k"`
	V string `json:"v"` // raw JSON (a string: a json.RawMessage would be re-encoded)
}

// request is a JSON-RPC request waiting for its response.
type request struct {
	Method string `json:"method"`
	// Call is the toolCallId the request serves (permissions, fs/*,
	// terminal/*).
	Call string `json:"call,omitempty"`
	// ID is the universal permission or question id.
	ID string `json:"id,omitempty"`
	// Options are a permission request's options: id → kind and name.
	Options []option `json:"options,omitempty"`
	// Path is the file of an fs request.
	Path string `json:"path,omitempty"`
	// Terminal is the terminal id of a terminal request.
	Terminal string `json:"terminal,omitempty"`
	// Action is what a permission request asks to do.
	Action string `json:"action,omitempty"`
	// N numbers the request among those remembered (state.Remembered).
	N int64 `json:"n,omitempty"`
}

type option struct {
	ID   string `json:"id"`
	Kind string `json:"kind,omitempty"`
	Name string `json:"name,omitempty"`
}

// turnState is the universal turn in progress: one session/prompt until
// its response, or a replayed exchange of a loaded session.
type turnState struct {
	// Open: a turn is open (the stream knows its id).
	Open bool `json:"open,omitempty"`
	// Replay: the turn is history the agent replays (session/load).
	Replay bool `json:"replay,omitempty"`
	// Prompted: the turn's user message exists.
	Prompted bool `json:"prompted,omitempty"`
	// Answered: the turn has agent content (a replayed turn ends at the
	// next user message).
	Answered bool `json:"answered,omitempty"`
	// Cancelled: the host sent session/cancel.
	Cancelled bool `json:"cancelled,omitempty"`
	// Failed: the agent told the turn failed outside the prompt's
	// response (Copilot CLI's "Error: " notice, see copilotNotice): an
	// end_turn response ends it failed.
	Failed bool `json:"failed,omitempty"`
	// Calls counts the turn's call-scope usage reports; LastCall is the
	// input and output counts of the last one.
	Calls    int      `json:"calls,omitempty"`
	LastCall [2]int64 `json:"last_call,omitzero"`
}

// scope is where the messages of one conversation go: the session's, or a
// sub-agent's under its spawning call.
type scope struct {
	// Parent is the item the scope's messages go under ("" for the
	// session, the task call's item for a sub-agent).
	Parent string `json:"parent,omitempty"`
	// Msg is the current response's message item, "" before one.
	Msg string `json:"msg,omitempty"`
	// Open: Msg is still open and takes chunks.
	Open bool `json:"open,omitempty"`
	// NativeID is the messageId of the chunks of Msg.
	NativeID string `json:"native_id,omitempty"`
	// Items is the stream's item count when Msg started: while it is the
	// same, no item started after Msg.
	Items int64 `json:"items,omitempty"`
	// Parts are the types of Msg's parts so far.
	Parts []universal.PartType `json:"parts,omitempty"`
	// Phases are the phases codex-acp marked Msg's text parts with
	// (_meta.codex.phase: commentary, final_answer), by part index, ""
	// for none; the completed parts carry them as metadata (closeMsg).
	Phases []string `json:"phases,omitempty"`
	// Replaced is how many of Msg's first parts an ACP v2 agent_message
	// or agent_thought upsert replaced: they stream no more and complete
	// empty (closeMsg).
	Replaced int `json:"replaced,omitempty"`
	// Results: a call of Msg got its result; the next call is another
	// response's.
	Results bool `json:"results,omitempty"`
	// User is a sub-agent's prompt message (its session's
	// user_message_chunk), while it takes chunks.
	User string `json:"user,omitempty"`
	// Inter is the inter-session message being streamed by
	// session_message_chunk (unstable), "" when none is open; InterID
	// its messageId (or that of a session_message without content, whose
	// references wait for its chunks), InterRefs the references the
	// session_message upserts of InterID gave (a JSON object, the
	// metadata "session_message" of its first part), InterRole the role
	// they imply ("" while no upsert named the sender).
	Inter     string         `json:"inter,omitempty"`
	InterID   string         `json:"inter_id,omitempty"`
	InterRefs string         `json:"inter_refs,omitempty"`
	InterRole universal.Role `json:"inter_role,omitempty"`
}

// tool is one ACP tool call: its tool_call item and its tool_result item.
type tool struct {
	ID string `json:"id"`
	// Link is the call_id the call, its result and its permission carry
	// when ID, the toolCallId, was an earlier call's of the session too:
	// ID#n for the session's n-th call with it; "" for ID itself.
	Link  string `json:"link,omitempty"`
	Scope string `json:"scope,omitempty"`
	// Msg is the message item the call and its result are under.
	Msg    string `json:"msg"`
	Call   string `json:"call"`
	Result string `json:"result,omitempty"`
	// Name is the tool's name: the adapter's (_meta) or the title.
	Name  string             `json:"name,omitempty"`
	Title string             `json:"title,omitempty"`
	Kind  string             `json:"kind,omitempty"` // ACP's kind
	UKind universal.ToolKind `json:"ukind,omitempty"`
	// Input is the rawInput (JSON text).
	Input     string   `json:"input,omitempty"`
	Locations []string `json:"locations,omitempty"`
	Status    string   `json:"status,omitempty"`
	// Content is the latest content collection (JSON text), but for the
	// items ACP v2's content chunks appended to it since, in Chunks (each
	// item's JSON text): they are joined into Content when it is read
	// (settle), not at each chunk, which would copy all of it again.
	Content string   `json:"content,omitempty"`
	Chunks  []string `json:"chunks,omitempty"`
	// RawOutput is the latest rawOutput (JSON text).
	RawOutput string `json:"raw_output,omitempty"`
	// Later: a replayed call whose result an update is to bring (see
	// resultLater).
	Later bool `json:"later,omitempty"`
	// KimiArgs: the call streamed its arguments as content (Kimi Code
	// CLI, see kimiArguments); KimiNamed: its name is its title's start.
	KimiArgs  bool `json:"kimi_args,omitempty"`
	KimiNamed bool `json:"kimi_named,omitempty"`
	// CopilotAgent: a Copilot CLI sub-agent (an agentId) was placed
	// under the call (see copilotSpawner).
	CopilotAgent bool `json:"copilot_agent,omitempty"`
	// Terminal is the output the client reported for the call's terminal,
	// ExitCode its exit code when known.
	Terminal string `json:"terminal,omitempty"`
	term     []byte // Terminal's bytes while output chunks add to it (Value.Extend)
	// streamed is 1 + the length of Terminal that the result streamed in
	// full when the output was Terminal alone, 0 when not known: while
	// Terminal only grows, the next output chunk is streamed without
	// comparing all the output before it again.
	streamed    int
	HasTerminal bool   `json:"has_terminal,omitempty"`
	ExitCode    *int64 `json:"exit_code,omitempty"`
	Signal      string `json:"signal,omitempty"`
	// TermTail holds the bytes of an agent-owned terminal's output that
	// end in the middle of a character.
	TermTail []byte `json:"term_tail,omitempty"`
	// Files are the files the client read or wrote for the call.
	Files []fileOp `json:"files,omitempty"`
	// Meta is the call's _meta (JSON text), the last one seen.
	Meta string `json:"meta,omitempty"`
	// Diverged: the output stopped extending what streamed.
	Diverged bool `json:"diverged,omitempty"`
	// Done: the call reached completed or failed.
	Done bool `json:"done,omitempty"`
}

type fileOp struct {
	Path   string               `json:"path"`
	Action universal.FileAction `json:"action"`
}

// validate checks a state read from a checkpoint against the stream it
// was restored with: every reference the translator follows later must
// hold (the items it streams into are open and shaped as it remembers,
// the items it names exist and are of their kind), so that no later
// message makes it fail or make a call its Stream refuses.
func (s *state) validate(w *universal.Stream) error {
	known := func(what, id string) error {
		if id != "" && !w.Known(id) {
			return fmt.Errorf("%s %q was never started", what, id)
		}
		return nil
	}
	// open checks an item the translator may still stream into or
	// complete: if open, it has the kind (and role) it remembers.
	open := func(what, id string, kind universal.Kind, role universal.Role) error {
		if err := known(what, id); err != nil {
			return err
		}
		if it, ok := w.Tracked(id); ok && (it.Kind != kind || role != "" && it.Role != role) {
			return fmt.Errorf("%s %q is a %s of %q", what, id, it.Kind, it.Role)
		}
		return nil
	}
	if s.Turn.Open != (w.Turn() != "") {
		return fmt.Errorf("turn open %v, the stream's %q", s.Turn.Open, w.Turn())
	}
	if err := open("user message", s.User, universal.KindMessage, universal.RoleUser); err != nil {
		return err
	}
	for i, f := range s.Meta {
		if f.K == "" || !gjson.Valid(f.V) {
			return fmt.Errorf("session metadata field %d (%q) is not valid JSON", i, f.K)
		}
	}
	for key, sc := range ordered.ByKey(s.Scopes) {
		if sc == nil {
			return fmt.Errorf("scope %q is null", key)
		}
		if key != "" {
			under := func(call string) bool { tl := s.Tools[call]; return tl != nil && tl.Call == sc.Parent }
			sid, isSession := strings.CutPrefix(key, subScopePrefix)
			sa := s.Subagents[sid]
			announced := isSession && sa != nil && (sa.Call == "" || s.Tools[sa.Call] == nil) && sa.Item == sc.Parent
			if !under(key) && !(isSession && under(s.SubSessions[sid])) && !announced {
				return fmt.Errorf("scope %q is not under its call", key)
			}
		} else if sc.Parent != "" || sc.User != "" {
			return errors.New("the session's scope has a parent or a sub-agent's prompt")
		}
		if err := open("sub-agent prompt", sc.User, universal.KindMessage, universal.RoleUser); err != nil {
			return err
		}
		if err := open("inter-session message", sc.Inter, universal.KindMessage, ""); err != nil {
			return err
		}
		if sc.InterRefs != "" && !gjson.Valid(sc.InterRefs) {
			return fmt.Errorf("inter-session message %q: references not valid JSON", sc.InterID)
		}
		if err := known("scope parent", sc.Parent); err != nil {
			return err
		}
		if err := open("response message", sc.Msg, universal.KindMessage, universal.RoleAssistant); err != nil {
			return err
		}
		if sc.Replaced < 0 || sc.Replaced > len(sc.Parts) {
			return fmt.Errorf("message %q: %d parts replaced of %d", sc.Msg, sc.Replaced, len(sc.Parts))
		}
		if !sc.Open {
			continue
		}
		it, ok := w.Tracked(sc.Msg)
		if !ok {
			return fmt.Errorf("streaming message %q is not open", sc.Msg)
		}
		if len(it.Content) != len(sc.Parts) {
			return fmt.Errorf("streaming message %q has %d parts, the stream %d", sc.Msg, len(sc.Parts), len(it.Content))
		}
		for i, p := range sc.Parts {
			if it.Content[i].Type != p {
				return fmt.Errorf("streaming message %q: part %d is %s, the stream's %s", sc.Msg, i, p, it.Content[i].Type)
			}
		}
	}
	for id, tl := range ordered.ByKey(s.Tools) {
		switch {
		case tl == nil:
			return fmt.Errorf("tool call %q is null", id)
		case tl.ID != id:
			return fmt.Errorf("tool call %q holds %q", id, tl.ID)
		case tl.Msg == "" || tl.Call == "":
			return fmt.Errorf("tool call %q without its items", id)
		case tl.Call == tl.Msg || tl.Result == tl.Msg || tl.Result == tl.Call:
			return fmt.Errorf("tool call %q: its message, call and result items are not distinct", id)
		case !validKind(tl.UKind):
			return fmt.Errorf("tool call %q of kind %q", id, tl.UKind)
		}
		for _, f := range tl.Files {
			if f.Path == "" || f.Action != universal.FileRead && f.Action != universal.FileWrite && f.Action != universal.FilePatch {
				return fmt.Errorf("tool call %q: file %q %q", id, f.Path, f.Action)
			}
		}
		if tl.Scope != "" && s.Scopes[tl.Scope] == nil {
			return fmt.Errorf("tool call %q in scope %q, which does not exist", id, tl.Scope)
		}
		if err := known("tool message", tl.Msg); err != nil {
			return err
		}
		if err := open("tool call", tl.Call, universal.KindToolCall, universal.RoleAssistant); err != nil {
			return err
		}
		if err := open("tool result", tl.Result, universal.KindToolResult, universal.RoleTool); err != nil {
			return err
		}
		if tl.Result != "" && !tl.Done && !w.IsOpen(tl.Result) {
			return fmt.Errorf("tool result %q completed before its call", tl.Result)
		}
		if it, ok := w.Tracked(tl.Result); ok && (len(it.Content) == 0 || it.Content[0].Type != universal.PartToolResult) {
			return fmt.Errorf("tool result %q has no output part", tl.Result)
		}
		for _, j := range append([]string{tl.Input, tl.Content, tl.Meta}, tl.Chunks...) {
			if j != "" && !gjson.Valid(j) {
				return fmt.Errorf("tool call %q holds invalid JSON", id)
			}
		}
		for _, c := range tl.Chunks {
			if !gjson.Parse(c).IsObject() {
				return fmt.Errorf("tool call %q holds a content chunk that is not an object", id)
			}
		}
		if len(tl.Chunks) > 0 && tl.Content != "" && !gjson.Parse(tl.Content).IsArray() {
			return fmt.Errorf("tool call %q holds content chunks after content that is not a list", id)
		}
		// The raw output is written to the metadata as it is kept: in
		// the form jsonw writes (OwnJSON keeps it so).
		if tl.RawOutput != "" && !jsonw.Clean(tl.RawOutput) {
			return fmt.Errorf("tool call %q holds a raw output that is not compact JSON", id)
		}
		if len(tl.TermTail) >= utf8.UTFMax {
			return fmt.Errorf("tool call %q holds %d bytes of an unfinished character", id, len(tl.TermTail))
		}
	}
	for id, term := range ordered.ByKey(s.AgentTerminals) {
		switch {
		case id == "" || term == nil:
			return fmt.Errorf("agent terminal %q is null", id)
		case len(term.Tail) >= utf8.UTFMax:
			return fmt.Errorf("agent terminal %q holds %d bytes of an unfinished character", id, len(term.Tail))
		}
	}
	for sid, call := range ordered.ByKey(s.SubSessions) {
		if sid == "" || call != "" && s.Tools[call] == nil {
			return fmt.Errorf("sub-agent session %q under an unknown call %q", sid, call)
		}
	}
	for sid, sa := range ordered.ByKey(s.Subagents) {
		if sa == nil || sid == "" {
			return fmt.Errorf("sub-agent %q is null", sid)
		}
		if err := known("sub-agent item", sa.Item); err != nil {
			return err
		}
		if err := known("sub-agent parent", sa.Parent); err != nil {
			return err
		}
	}
	for _, sid := range s.TurnSubs {
		if s.SubSessions[sid] == "" {
			return fmt.Errorf("sub-agent session %q of the turn is under no call", sid)
		}
	}
	items := map[string]string{}
	for id, c := range ordered.ByKey(s.Compactions) {
		switch {
		case c == nil:
			return fmt.Errorf("compaction %q is null", id)
		case c.ID != id:
			return fmt.Errorf("compaction %q holds %q", id, c.ID)
		case c.Item == "":
			return fmt.Errorf("compaction %q without its item", id)
		}
		switch c.Status {
		case "in_progress", "completed", "failed", "cancelled":
		default:
			return fmt.Errorf("compaction %q of status %q", id, c.Status)
		}
		if err := open("compaction", c.Item, universal.KindStatus, ""); err != nil {
			return err
		}
		if !c.Done && !w.IsOpen(c.Item) {
			return fmt.Errorf("compaction %q: its item %q is not open", id, c.Item)
		}
		if c.InTurn && !c.Done && !s.Turn.Open {
			return fmt.Errorf("compaction %q in progress in a turn, and no turn is open", id)
		}
		if !c.Done {
			if other, ok := items[c.Item]; ok {
				return fmt.Errorf("compactions %q and %q share item %q", id, other, c.Item)
			}
			items[c.Item] = id
		}
		// Written to the metadata as they are kept: in the form jsonw
		// writes.
		if c.Meta != "" && !jsonw.Clean(c.Meta) {
			return fmt.Errorf("compaction %q holds a _meta that is not compact JSON", id)
		}
		if c.Facts != "" && !jsonw.Clean(c.Facts) {
			return fmt.Errorf("compaction %q holds facts that are not compact JSON", id)
		}
		for _, j := range append(c.Summary[:len(c.Summary):len(c.Summary)], c.ChunkMeta...) {
			if !jsonw.Clean(j) {
				return fmt.Errorf("compaction %q holds a summary that is not compact JSON", id)
			}
		}
	}
	if err := s.Stderr.Validate(); err != nil {
		return err
	}
	return nil
}

func validKind(k universal.ToolKind) bool {
	switch k {
	case universal.ToolRead, universal.ToolEdit, universal.ToolDelete, universal.ToolMove, universal.ToolSearch,
		universal.ToolExecute, universal.ToolThink, universal.ToolFetch, universal.ToolTask, universal.ToolOther:
		return true
	}
	return false
}

// link returns the call_id the call and its result carry.
func (tl *tool) link() string {
	if tl.Link != "" {
		return tl.Link
	}
	return tl.ID
}
