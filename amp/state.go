package amp

import (
	"fmt"

	"github.com/agentnorm/agentnorm/internal/ordered"
	"github.com/agentnorm/agentnorm/universal"
)

// state is everything a translator remembers between messages; it is the
// checkpoint.
type state struct {
	// Prompts the host reported (or wrote to stdin) that no user line has
	// shown yet, oldest first.
	Prompts []string `json:"prompts,omitempty"`
	// Shown are the prompt texts shown in the open (or last) turn: a
	// prompt reported after its echo is not shown again.
	Shown []string `json:"shown,omitempty"`

	// Calls are the tool calls by native tool_use id; Pending lists the
	// ids of calls without a result, oldest first.
	Calls   map[string]*call `json:"calls,omitempty"`
	Pending []string         `json:"pending,omitempty"`
	// Joined counts the prompts of the open turn that joined its first
	// (promptJoins) and have not started a turn of their own (nextJoined);
	// JoinedItems are their user message items, oldest first, and
	// PromptItem the one the turn about to start answers (its
	// turn.started metadata prompt_item_id).
	Joined      int      `json:"joined,omitempty"`
	JoinedItems []string `json:"joined_items,omitempty"`
	PromptItem  string   `json:"prompt_item,omitempty"`
	// Denied are the tool names the open turn reported as denied.
	Denied []string `json:"denied,omitempty"`
	// Perms counts permission ids made up for denials with no call.
	Perms int `json:"perms,omitempty"`

	// Turn state: how the open turn's last main assistant message ended
	// ("complete", "incomplete" for a null stop_reason, or a thread
	// message's state.type), its stop_reason as raw JSON, the thread's
	// turnElapsedMs as raw JSON, and the role of the last main message.
	Ended    string `json:"ended,omitempty"`
	Stop     string `json:"stop,omitempty"`
	Elapsed  string `json:"elapsed,omitempty"`
	LastRole string `json:"last_role,omitempty"`
	// Model is the model of the turn's last thread message that names one.
	Model string `json:"model,omitempty"`

	// Answers counts the main assistant messages of the current process
	// (a result line without any gets its result text as the answer).
	Answers int `json:"answers,omitempty"`
	// Outcome is what the last result line (or the thread) said.
	Outcome outcome `json:"outcome"`
	// Cwd is the session's working directory (init's cwd, a thread's
	// first tree), against which relative tool paths are resolved.
	Cwd string `json:"cwd,omitempty"`
	// LastMsg is the last main assistant message item: the parent of a
	// result whose call is unknown (a stream picked up mid-turn).
	LastMsg string `json:"last_msg,omitempty"`
	// Held is the message item of a response that so far only thought,
	// held open for the next assistant message of its scope (HeldParent:
	// the item's parent) to continue.
	Held       string `json:"held,omitempty"`
	HeldParent string `json:"held_parent,omitempty"`
	// RunInfo is the metadata of a later amp process's init (JSON), for
	// the turn.started of the next turn.
	RunInfo string `json:"run_info,omitempty"`
	// Doc is set once a thread document was translated.
	Doc bool `json:"doc,omitempty"`
	// In jsonl output: JSONLNext is the index of the next message to
	// translate (those below it were), JSONLHeld the JSON of the last copy
	// of a message still streaming and JSONLHeldAt its index.
	JSONLNext   int64  `json:"jsonl_next,omitempty"`
	JSONLHeld   string `json:"jsonl_held,omitempty"`
	JSONLHeldAt int64  `json:"jsonl_held_at,omitempty"`
}

// call is one tool call.
type call struct {
	Item string `json:"item"`           // the tool_call item
	Msg  string `json:"msg"`            // the message item that made it
	Name string `json:"name"`           // the tool's name
	Path string `json:"path,omitempty"` // input.path, for file references
	Done bool   `json:"done,omitempty"` // its result was translated
	// SubErr is the error of the sub-agent the call runs (JSON), for its
	// result's metadata.
	SubErr string `json:"sub_err,omitempty"`
}

// outcome is how the session's run ended.
type outcome struct {
	Seen      bool   `json:"seen,omitempty"`
	Failed    bool   `json:"failed,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
	Message   string `json:"message,omitempty"`
}

// pending removes a call id from the pending list.
func (s *state) done(id string) {
	for i, p := range s.Pending {
		if p == id {
			s.Pending = append(s.Pending[:i], s.Pending[i+1:]...)
			return
		}
	}
}

// resetTurn forgets what belonged to the turn that ended (its prompts are
// forgotten when the next turn starts).
func (s *state) resetTurn() {
	s.Denied, s.Joined, s.JoinedItems = nil, 0, nil
	s.Ended, s.Stop, s.Elapsed, s.LastRole, s.Model = "", "", "", "", ""
}

// validate checks a state read from a checkpoint against the stream it
// was restored with: every reference the translator follows later must
// hold, so that no later line makes it fail or make a call its Stream
// refuses.
func (s *state) validate(w *universal.Stream) error {
	known := func(what, id string) error {
		if id != "" && !w.Known(id) {
			return fmt.Errorf("%s %q was never started", what, id)
		}
		return nil
	}
	for id, c := range ordered.ByKey(s.Calls) {
		if c == nil || c.Item == "" {
			return fmt.Errorf("call %q missing or without an item", id)
		}
		if err := known("tool call", c.Item); err != nil {
			return err
		}
		if err := known("tool call message", c.Msg); err != nil {
			return err
		}
	}
	for _, id := range s.Pending {
		if s.Calls[id] == nil {
			return fmt.Errorf("pending call %q is not in the call table", id)
		}
	}
	if err := known("last message", s.LastMsg); err != nil {
		return err
	}
	if s.Held != "" && !w.IsOpen(s.Held) {
		return fmt.Errorf("held message %q is not open", s.Held)
	}
	if err := known("held message parent", s.HeldParent); err != nil {
		return err
	}
	if s.Perms < 0 || s.Answers < 0 || s.JSONLNext < 0 || s.JSONLHeldAt < 0 {
		return fmt.Errorf("negative counter")
	}
	return nil
}
