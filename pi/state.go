package pi

import (
	"errors"
	"fmt"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// state is everything the translator keeps between messages besides the
// Stream. It is saved by Checkpoint as JSON.
type state struct {
	// Header is the native id of the session header seen, "" before one.
	Header string `json:"header,omitempty"`
	// Cwd is the session's working directory, when known (the header's
	// cwd, else the cwd section of a system prompt): tool paths resolve
	// against it.
	Cwd string `json:"cwd,omitempty"`
	// Title is the session's title: the header's, or the last rename.
	Title string `json:"title,omitempty"`
	// Mode is the mode the last mode_change (oh-my-pi) named: the next
	// one's metadata says what it replaces.
	Mode string `json:"mode,omitempty"`
	// Pending is a turn started but not yet emitted: Pi sends the system
	// prompt of a run right after agent_start and turn_start, and it goes
	// into the turn.started metadata.
	Pending *pendingTurn `json:"pending,omitempty"`
	// SystemPrompt is a system prompt that arrived outside a turn (a
	// session file writes it before the prompt): the next turn.started
	// carries it.
	SystemPrompt rawText `json:"system_prompt,omitempty"`
	// Prompts are host prompts (reported, or rpc prompt commands) not yet
	// matched with a run, oldest first. A run consumes one.
	Prompts []string `json:"prompts,omitempty"`
	// Queued are steering and follow-up messages the host queued; Pi
	// echoes them later inside the run.
	Queued []string `json:"queued,omitempty"`
	// Turn is the universal turn in progress.
	Turn turnState `json:"turn"`
	// Failed records that the last settled turn ended in error.
	Failed bool `json:"failed,omitempty"`
	// Msg is the assistant message being streamed.
	Msg *message `json:"msg,omitempty"`
	// Tools are the tool calls of the open turn, in the order they became
	// known.
	Tools []tool `json:"tools,omitempty"`
	// CallUses counts, per native call id, the calls of the session that
	// had it: a provider that numbers each response's calls from 0 (Kimi
	// K2's functions.bash:0) reuses an id for later calls (see tool.Link).
	CallUses map[string]int `json:"call_uses,omitempty"`
	// LastToolStart is the call id of the tool whose
	// tool_execution_start was the event just before, "" otherwise: an
	// extension UI request right after it guards that tool.
	LastToolStart string `json:"last_tool_start,omitempty"`
	// Commands are the host's rpc commands (exchange) not yet answered
	// (commandKey: their ids, or types when they have none), oldest first,
	// at most maxCommands: a response must answer one.
	Commands []string `json:"commands,omitempty"`
	// Bash are the host's rpc bash commands (exchange) not yet answered,
	// oldest first, at most maxCommands: the response carries the result
	// and not the command.
	Bash []bashCommand `json:"bash,omitempty"`
	// Requests are extension UI requests not yet answered.
	Requests []request `json:"requests,omitempty"`
	// Compactions are the open compaction items, oldest first. Pi 0.70
	// ran two threshold compactions at once in print mode; their events
	// carry no id, so an end completes the oldest open one.
	Compactions []string `json:"compactions,omitempty"`
	// Session is the state of the session-file reader.
	Session sessionState `json:"session"`
	// Goal is oh-my-pi's goal as last reported (status, NUL,
	// objective), "" when there is none.
	Goal string `json:"goal,omitempty"`
	// Irc are the custom messages oh-my-pi's irc_message showed
	// (customType, NUL, timestamp), oldest first, at most maxIrc: their
	// message_end is not emitted again.
	Irc []string `json:"irc,omitempty"`
	// Chunk is the oh-my-pi rpc frame being reassembled from its chunks.
	Chunk *chunked `json:"chunk,omitempty"`
	// Subagents are the oh-my-pi sub-agents its rpc frames announced and
	// did not end, oldest first, at most maxSubagents.
	Subagents []subagent `json:"subagents,omitempty"`
}

// chunked is a frame oh-my-pi's rpc protocol version 2 split into
// rpc_chunk lines: the bytes of the chunks read so far.
type chunked struct {
	ID     string `json:"id"`
	Count  int    `json:"count"`
	Length int    `json:"length"`
	Next   int    `json:"next"`
	Data   []byte `json:"data,omitempty"`
}

// turnState is the universal turn in progress: one user prompt until Pi
// settles (agent_settled, or for older Pi the next run or end of input).
// dropErr forgets the error a failed message left pending (Err, its
// details): Pi retries, or the retry's end reported it.
func (tr *turnState) dropErr() { tr.ErrSet, tr.Err, tr.ErrDetails = false, "", nil }

type turnState struct {
	// PromptSeen: the turn's prompt was echoed or synthesised.
	PromptSeen bool `json:"prompt_seen,omitempty"`
	// RunEnded: agent_end came and no new agent_start since.
	RunEnded bool `json:"run_ended,omitempty"`
	// Continuing: after agent_end, Pi announced more work for the same
	// prompt (auto retry, compaction retry, agent_end.willRetry).
	Continuing bool `json:"continuing,omitempty"`
	// Runs and PiTurns count agent_start and turn_start events.
	Runs    int `json:"runs,omitempty"`
	PiTurns int `json:"pi_turns,omitempty"`
	// StepAnswered: an assistant message_end came since the last
	// turn_end, which repeats it (see stepEnd).
	StepAnswered bool `json:"step_answered,omitempty"`
	// StepOpen: a turn_start came and no assistant message since; a tool
	// seen before the step's message goes under a message opened for it
	// (see orphanParent).
	StepOpen bool `json:"step_open,omitempty"`
	// LastStop is the stopReason of the last assistant message.
	LastStop string `json:"last_stop,omitempty"`
	// Err is the error of the last assistant message that failed, until
	// it is known whether Pi retries (ErrSet tells it is pending).
	Err    string `json:"err,omitempty"`
	ErrSet bool   `json:"err_set,omitempty"`
	// ErrDetails are the details of Err (oh-my-pi's http_status and
	// error_kind), a JSON object, or empty.
	ErrDetails rawText `json:"err_details,omitempty"`
	// Errored: a terminal error was emitted in this turn.
	Errored bool `json:"errored,omitempty"`
	// SystemPrompt is the system prompt in the turn.started metadata (or
	// the last one seen in the turn): a repeat is not shown again.
	SystemPrompt rawText `json:"system_prompt,omitempty"`
	// LastMsg is the turn's last assistant message item: a tool whose
	// call was never seen goes under it.
	LastMsg string `json:"last_msg,omitempty"`
	// Unfinished: the turn's last message asks for more work (a user
	// message, a tool result, an assistant message that calls tools); a
	// session file that ends there leaves the turn open.
	Unfinished bool `json:"unfinished,omitempty"`
	// EndRaw is the payload that showed the agent finished the prompt
	// (agent_end, a session file's last assistant message, failed), for the
	// turn.ended emitted at the end of input; kept only when the options
	// ask for raw payloads.
	EndRaw []byte `json:"end_raw,omitempty"`
	// The model of the last assistant message.
	API      string `json:"api,omitempty"`
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
}

// message is an assistant message that is streaming.
type message struct {
	Item string `json:"item"`
	// Blocks are indexed by Pi's contentIndex.
	Blocks []block `json:"blocks,omitempty"`
	// Parts are the types of the parts the universal item has so far
	// (each created by its first delta), in part order.
	Parts []universal.PartType `json:"parts,omitempty"`
	// blocks is the first memory of Blocks, which most messages do not
	// outgrow (appended to one by one, it took an allocation a block).
	blocks [4]block
}

// block is one content block of a streaming assistant message.
type block struct {
	Kind string `json:"kind,omitempty"` // "text", "thinking", "toolCall"
	// Part is the universal part index plus one (0: none yet).
	Part int `json:"part,omitempty"`
	// Tool is the tool_call item of a toolCall block.
	Tool string `json:"tool,omitempty"`
}

// tool is one tool call and its result.
type tool struct {
	CallID string `json:"call_id"`
	// Link is the call_id the call and its result carry when CallID, the
	// native id, was an earlier call's too: CallID#n for the session's
	// n-th call with it (see callLink).
	Link string `json:"link,omitempty"`
	Name string `json:"name,omitempty"`
	// Msg is the assistant message item that holds the call.
	Msg string `json:"msg,omitempty"`
	// Call and Result are the tool_call and tool_result items.
	Call   string `json:"call,omitempty"`
	Result string `json:"result,omitempty"`
	// Kind and Paths: the call's tool kind and the files it names (from
	// its arguments), for the file_ref and image parts of its result.
	Kind  universal.ToolKind `json:"kind,omitempty"`
	Paths []string           `json:"paths,omitempty"`
	// Updated: a tool_execution_update arrived (the tool ran).
	Updated bool `json:"updated,omitempty"`
	// Guarded: an extension's dialog asked permission for it.
	Guarded bool `json:"guarded,omitempty"`
	// Diverged: a partial result did not extend what was streamed, so
	// output deltas stopped; the final result replaces the text.
	Diverged bool `json:"diverged,omitempty"`
}

// pendingTurn is a turn whose turn.started waits for the system prompt.
type pendingTurn struct {
	Source universal.Source `json:"source"`
	Raw    []byte           `json:"raw,omitempty"`
}

// request is an extension UI request waiting for its answer.
type request struct {
	ID string `json:"id"`
	// Permission: it was mapped to permission.requested (it guards the
	// tool with CallID); otherwise to question.requested.
	Permission bool     `json:"permission,omitempty"`
	CallID     string   `json:"call_id,omitempty"`
	Action     string   `json:"action,omitempty"`
	Prompt     string   `json:"prompt,omitempty"`
	Options    []string `json:"options,omitempty"`
}

// sessionState is the state of the session-file reader.
type sessionState struct {
	// Decided: the file's layout is known. Tree: it is a v2/v3 tree
	// (entries with id and parentId), laid out in Layout as it is read.
	Decided bool `json:"decided,omitempty"`
	Tree    bool `json:"tree,omitempty"`
	// Title and TitleSource are oh-my-pi's title slot (the line before
	// the header), until the header takes them.
	Title       string `json:"title,omitempty"`
	TitleSource string `json:"title_source,omitempty"`
	// Layout is a tree's entries read so far and its current branch.
	Layout tree `json:"layout,omitzero"`
	// Head is the session.started metadata of a file's header, held
	// until an entry other than the settings Pi writes right after the
	// header (the model and thinking level the session starts with, which
	// it takes) or the end of input; HeadRaw is the header line, kept
	// for the event's raw when raw payloads are included.
	Head    string `json:"head,omitempty"`
	HeadRaw string `json:"head_raw,omitempty"`
	// HeadNoise and HeadNoiseBytes count the lines (and their bytes)
	// between the header and its settings that did not start the
	// session (see headNoise).
	HeadNoise      int `json:"head_noise,omitempty"`
	HeadNoiseBytes int `json:"head_noise_bytes,omitempty"`
}

// validate checks a state read from a checkpoint against the stream it
// was restored with: every reference the translator follows later must
// hold (items it streams into are open and shaped as it remembers,
// items it names exist, indexes are in range), so that no later message
// makes it fail or make a call its Stream refuses.
func (s *state) validate(w *universal.Stream, format string) error {
	if c := s.Chunk; c != nil && (c.ID == "" || c.Next < 1 || c.Next >= c.Count || c.Count > maxChunks ||
		c.Length > maxChunked || len(c.Data) > c.Length) {
		return errors.New("an rpc chunk sequence out of range")
	}
	if len(s.Irc) > maxIrc {
		return errors.New("more irc records than remembered")
	}
	known := func(what, id string) error {
		if id != "" && !w.Known(id) {
			return fmt.Errorf("%s %q was never started", what, id)
		}
		return nil
	}
	if h := s.Session.Head; h != "" {
		// It becomes session.started metadata as it is.
		if w.Begun() || !gjson.Valid(h) || !gjson.Parse(h).IsObject() || len(h) > 1<<20 {
			return errors.New("a held session header that is not a JSON object, or held after the session began")
		}
	}
	if n, b := s.Session.HeadNoise, s.Session.HeadNoiseBytes; n < 0 || n > maxHeadNoise || b < 0 || b > maxHeadNoiseBytes {
		return fmt.Errorf("%d lines (%d bytes) of noise after the header", n, b)
	}
	if s.Pending != nil {
		if w.Turn() != "" || !w.Begun() {
			return errors.New("a deferred turn while a turn is open or before the session began")
		}
		if !validSource(s.Pending.Source) {
			return fmt.Errorf("deferred turn of source %q", s.Pending.Source)
		}
	}
	if err := known("the turn's last message", s.Turn.LastMsg); err != nil {
		return err
	}
	if m := s.Msg; m != nil {
		if err := s.validateMsg(w, m); err != nil {
			return err
		}
	}
	for i := range s.Tools {
		tl := &s.Tools[i]
		for _, r := range [...][2]string{{"tool message", tl.Msg}, {"tool call", tl.Call}, {"tool result", tl.Result}} {
			if err := known(r[0], r[1]); err != nil {
				return err
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range s.Requests {
		switch {
		case r.ID == "" || seen[r.ID]:
			return fmt.Errorf("extension UI request %q empty or repeated", r.ID)
		case r.Permission && !w.PermissionPending(r.ID):
			return fmt.Errorf("permission %q is not pending", r.ID)
		case !r.Permission && !w.QuestionPending(r.ID):
			return fmt.Errorf("question %q is not pending", r.ID)
		}
		seen[r.ID] = true
	}
	for _, id := range s.Compactions {
		if id == "" {
			return errors.New("an empty compaction item")
		}
		if err := known("compaction", id); err != nil {
			return err
		}
	}
	if len(s.Commands) > maxCommands {
		return fmt.Errorf("%d unanswered commands, at most %d", len(s.Commands), maxCommands)
	}
	if len(s.Bash) > maxCommands {
		return fmt.Errorf("%d unanswered bash commands, at most %d", len(s.Bash), maxCommands)
	}
	if err := s.validateSubagents(w); err != nil {
		return err
	}
	ss := &s.Session
	if len(ss.Layout.Nodes) > 0 && (format != FormatSession || !ss.Tree) {
		return errors.New("a session tree outside a session file")
	}
	if err := ss.Layout.validate(w); err != nil {
		return err
	}
	return nil
}

// validateMsg checks the streaming assistant message.
func (s *state) validateMsg(w *universal.Stream, m *message) error {
	if m.Item == "" || !w.Known(m.Item) {
		return fmt.Errorf("streaming message %q was never started", m.Item)
	}
	if len(m.Blocks) > maxContentIndex+1 {
		return fmt.Errorf("streaming message with %d blocks", len(m.Blocks))
	}
	for i, p := range m.Parts {
		if p != universal.PartText && p != universal.PartReasoning {
			return fmt.Errorf("streaming message part %d of type %q", i, p)
		}
	}
	it, open := w.Tracked(m.Item)
	if !open {
		return fmt.Errorf("streaming message %q is not open", m.Item)
	}
	// Parts are created by their first delta, in order: the item has
	// exactly these parts.
	if len(it.Content) != len(m.Parts) {
		return fmt.Errorf("streaming message %q has %d parts, the stream %d", m.Item, len(m.Parts), len(it.Content))
	}
	for i, p := range m.Parts {
		if it.Content[i].Type != p {
			return fmt.Errorf("streaming message %q: part %d is %s, the stream's %s", m.Item, i, p, it.Content[i].Type)
		}
	}
	used := map[int]bool{}
	for i, b := range m.Blocks {
		switch b.Kind {
		case "", "text", "thinking", "toolCall":
		default:
			return fmt.Errorf("streaming message block %d of kind %q", i, b.Kind)
		}
		if b.Part < 0 || b.Part > len(m.Parts) || b.Part > 0 && used[b.Part] {
			return fmt.Errorf("streaming message block %d: part %d of %d, or repeated", i, b.Part, len(m.Parts))
		}
		used[b.Part] = b.Part > 0
		if b.Tool != "" && !w.Known(b.Tool) {
			return fmt.Errorf("streaming message block %d: tool call %q was never started", i, b.Tool)
		}
	}
	return nil
}

func validSource(s universal.Source) bool {
	return s == universal.SourceAgent || s == universal.SourceDaemon
}

// rawText is raw JSON kept in the state (see universal.RawText).
type rawText = universal.RawText

// bashCommand is an rpc bash command the host sent: its commandKey and
// the command line.
type bashCommand struct {
	Key     string `json:"key"`
	Command string `json:"command"`
}
