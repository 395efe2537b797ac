package opencode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentnorm/agentnorm/internal/ordered"
	"github.com/agentnorm/agentnorm/universal"
)

// state is everything the translator remembers between messages. It is
// saved as JSON by Checkpoint; maps are only looked up, never iterated
// for output, so the output does not depend on their order.
type state struct {
	// Session is the followed (root) native session, "" until chosen.
	Session string `json:"session,omitempty"`
	// Named says the host named Session (Follow): run output then stays
	// with it (see nextRun).
	Named bool `json:"named,omitempty"`
	// Runs are the sessions followed before Session in run output that
	// joins several runs' (see nextRun): a set, so that a log of many
	// runs costs a lookup a line, not a pass over the runs before.
	Runs map[string]bool `json:"runs,omitempty"`
	// Agent is the agent (build, plan, …) the followed session's last
	// message was for (see agentMode).
	Agent string `json:"agent,omitempty"`
	// Parents maps a session to its parent session (session.created
	// parentID, the task tool's metadata).
	Parents map[string]string `json:"parents,omitempty"`
	// Links maps a child session to the tool_call item that spawned it.
	Links map[string]string `json:"links,omitempty"`
	// Tasks are the tool_call items of the followed session's task calls
	// that run without naming their sub-agent's session (later versions
	// name it in metadata.sessionId; 0.5 only in the finished call's
	// summary), and Roots the sessions created without a parent that are
	// not followed: a session of no known origin whose parts come while
	// exactly one such call runs is that call's sub-agent (see adopt).
	Tasks map[string]bool `json:"tasks,omitempty"`
	Roots map[string]bool `json:"roots,omitempty"`
	// SubErrs holds, by tool_call item, the error of the sub-agent the
	// call runs, for its tool_result's metadata.
	SubErrs map[string]rawText `json:"sub_errs,omitempty"`
	// Msgs and Parts are the messages and parts seen, by native id.
	Msgs  map[string]*msgState  `json:"msgs,omitempty"`
	Parts map[string]*partState `json:"parts,omitempty"`
	// Calls maps session + "\x00" + callID to the tool part's id.
	Calls map[string]string `json:"calls,omitempty"`
	// CallUses counts, per key of Calls, the session's calls with that
	// callID: the n-th one's call_id is callID#n (see onTool).
	CallUses map[string]int `json:"call_uses,omitempty"`
	// Pending holds message.part.delta events that came before their
	// part, in arrival order.
	Pending []pendingDelta `json:"pending,omitempty"`
	// OpenMsgs lists the messages whose items are open, in start order.
	OpenMsgs []string `json:"open_msgs,omitempty"`
	// Turn is the root session's current turn.
	Turn turnState `json:"turn"`
	// Durable says the input is OpenCode's durable event log, the rows
	// of its database's event table: a record with no status events,
	// whose turns end as a message list's do.
	Durable bool `json:"durable,omitempty"`
	// LastTurnFailed says whether the last turn ended in error.
	LastTurnFailed bool `json:"last_turn_failed,omitempty"`
	// LastErr identifies the last error emitted (name and message), so
	// that session.error and the assistant's info.error give one event.
	LastErr string `json:"last_err,omitempty"`
	// LastRetry is the attempt of the last retry reported in this turn.
	LastRetry int64 `json:"last_retry,omitempty"`
	// Cwd is the followed session's working directory, once known (its
	// Session's directory, an assistant message's path.cwd): tool paths
	// are resolved against it.
	Cwd string `json:"cwd,omitempty"`
	// WhereSession and WhereDir are the session and location directory
	// of the last 2.x session event seen while no session is followed
	// (see located): that session's directory when it is selected.
	WhereSession string `json:"where_session,omitempty"`
	WhereDir     string `json:"where_dir,omitempty"`
	// Title is the followed session's title: the one it started with or
	// the last one reported since.
	Title string `json:"title,omitempty"`
	// TitleTime is the time.updated of the first Session state that
	// showed Title (0 when unknown).
	TitleTime int64 `json:"title_time,omitempty"`
	// Recent holds the ids of the last events, to drop the sync wrapper
	// that repeats a classic event on /global/event.
	Recent idRing `json:"recent"`
	// Prompts are reported prompts not yet emitted (run --format json).
	Prompts []string `json:"prompts,omitempty"`
	// Perms remembers what each permission request guarded.
	Perms map[string]permInfo `json:"perms,omitempty"`
	// Questions remembers what each question asked.
	Questions map[string]questionInfo `json:"questions,omitempty"`
	// Resolved holds answered permission and question ids.
	Resolved map[string]bool `json:"resolved,omitempty"`
	// RunPerms counts synthetic run-mode permission pairs.
	RunPerms int `json:"run_perms,omitempty"`
	// V2Tools holds, by tool part, the name and input of an OpenCode
	// 2.x tool call whose result has not come (see v2Tool).
	V2Tools map[string]v2Tool `json:"v2_tools,omitempty"`
	// V2Inbox holds, by inbox id, a user prompt put in an OpenCode 2.x
	// session's inbox that has not been delivered (see v2Queued).
	V2Inbox map[string]v2Queued `json:"v2_inbox,omitempty"`
	// V2Shells holds, by shell id, the items of an OpenCode 2.x shell
	// command the user ran whose output has not come (see v2Shell).
	V2Shells map[string]v2Shell `json:"v2_shells,omitempty"`
	// Reverts holds, by session, the revert point last reported
	// (session info revert: message id, part id).
	Reverts map[string]revertState `json:"reverts,omitempty"`
	// SystemPrompts holds, by session, a hash of the system prompt an
	// assistant message of OpenCode before 1.0 last named (its info's
	// system array, see assistantSystem).
	SystemPrompts map[string]string `json:"system_prompts,omitempty"`
	// HostPrompts holds, by message id, the texts of a prompt a replay
	// transcript shows the host sending (replay.go), until the user
	// message it named completes: that message's text when the events
	// gave it none.
	HostPrompts map[string][]string `json:"host_prompts,omitempty"`
}

// revertState is a session's revert point as last reported.
type revertState struct {
	Msg  string `json:"msg"`
	Part string `json:"part,omitempty"`
	// Removed: OpenCode removed the message reverted to (a new prompt
	// made the revert final).
	Removed bool `json:"removed,omitempty"`
}

// recentSize is how many event ids are remembered for de-duplication.
const recentSize = 8

// put sets m[k] = v, making the map on its first use: most inputs are
// short, and a translator makes none of its maps until it needs them.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}

// idRing remembers the last few event ids without allocating per event.
type idRing struct {
	ids  [recentSize][maxID]byte
	lens [recentSize]uint8
	next int
}

// maxID is the longest event id remembered (OpenCode's are 30 bytes).
const maxID = 64

// seen reports whether an event with this id was handled recently, and
// remembers it otherwise. Events without an id are never duplicates.
func (r *idRing) seen(id string) bool {
	if id == "" || len(id) > maxID {
		return false
	}
	for i := range r.ids {
		if int(r.lens[i]) == len(id) && string(r.ids[i][:len(id)]) == id {
			return true
		}
	}
	copy(r.ids[r.next][:], id)
	r.lens[r.next] = uint8(len(id))
	r.next = (r.next + 1) % recentSize
	return false
}

// MarshalJSON saves the ids oldest first.
func (r *idRing) MarshalJSON() ([]byte, error) {
	ids := make([]string, 0, recentSize)
	for k := range recentSize {
		i := (r.next + k) % recentSize
		if r.lens[i] > 0 {
			ids = append(ids, string(r.ids[i][:r.lens[i]]))
		}
	}
	return json.Marshal(ids)
}

// UnmarshalJSON restores what MarshalJSON saved.
func (r *idRing) UnmarshalJSON(b []byte) error {
	var ids []string
	if err := json.Unmarshal(b, &ids); err != nil {
		return err
	}
	*r = idRing{}
	for _, id := range ids {
		r.seen(id)
	}
	return nil
}

// turnState is the root session's turn.
type turnState struct {
	Open bool `json:"open,omitempty"`
	// Prompted: the reported prompt of this turn was emitted (run mode).
	Prompted bool `json:"prompted,omitempty"`
	// Failed and Aborted: an error (other than an abort) or an abort
	// happened in the turn.
	Failed  bool `json:"failed,omitempty"`
	Aborted bool `json:"aborted,omitempty"`
	// Settling: the aborted turn's idle came while a tool still ran; the
	// turn ends at the next idle (or before the next turn, or at the end).
	Settling bool `json:"settling,omitempty"`
	// Finished: the root session's last assistant message of the turn
	// completed with a finish reason other than tool-calls (a message
	// list ends its last turn when it shows that).
	Finished bool `json:"finished,omitempty"`
	// Answered: an assistant message of the root session started in the
	// turn.
	Answered bool `json:"answered,omitempty"`
	// StepOpen (run mode): a step started and did not finish yet.
	StepOpen bool `json:"step_open,omitempty"`
	// Denied: a tool of the root session's last assistant message was
	// refused a permission, or its question dismissed; OpenCode stops
	// the turn there (run output ends it with the step, a message list
	// at its end).
	Denied bool `json:"denied,omitempty"`
	// BusyUntil (a message list): the time.completed (Unix ms) of the
	// root session's last assistant message in the turn, which a user
	// message created before it was queued while the agent worked.
	BusyUntil int64 `json:"busy_until,omitempty"`
	// Error is the native error of a failed or aborted turn, for the
	// turn.ended metadata.
	Error rawText `json:"error,omitempty"`
	// Settled (a durable event log) is the event that showed the agent
	// finished the turn, the raw payload of the turn's end when no
	// prompt follows (see Durable).
	Settled rawText `json:"settled,omitempty"`
}

// msgState is one native message.
type msgState struct {
	ID      string `json:"id"`
	Item    string `json:"item"`
	Session string `json:"session"`
	Role    string `json:"role,omitempty"`
	Parent  string `json:"parent,omitempty"`
	// Parts are the native part ids by content index, in native order: a
	// text or reasoning part once, a part that does not stream once per
	// content part it gives.
	Parts []string `json:"parts,omitempty"`
	// Extra are the parts that do not stream (files, patches, agent and
	// subtask mentions) with their current content.
	Extra []extraPart `json:"extra,omitempty"`
	// ErrSeen: the message's info.error was handled.
	ErrSeen bool `json:"err_seen,omitempty"`
	// Stub: the item was started before the message.updated that
	// declares it.
	Stub bool `json:"stub,omitempty"`
	// Tools: a tool part of the message was seen.
	Tools bool `json:"tools,omitempty"`
	// Steps: a part only an assistant's message has (a step, reasoning,
	// a tool, a patch) was seen; StepDone: its last step finished (a
	// step-finish part after the last step-start). They tell what a
	// message whose info never came was (see finish).
	Steps    bool `json:"steps,omitempty"`
	StepDone bool `json:"step_done,omitempty"`
	// Done: the message's info said it was complete before any of its
	// parts came; its item stays open for them until the next message of
	// its session starts, the turn or the input ends (DoneFailed: it
	// completes as failed).
	Done       bool `json:"done,omitempty"`
	DoneFailed bool `json:"done_failed,omitempty"`
	// Model and Provider are the info's modelID and providerID (an
	// assistant message's): its usage names them.
	Model    string `json:"model,omitempty"`
	Provider string `json:"provider,omitempty"`
	// Variant is the info's variant (the model's reasoning effort,
	// 1.2+; 2.x: session.step.started's model.variant).
	Variant string `json:"variant,omitempty"`
	// Tokens and Cost are the last non-zero info.tokens (and info.cost)
	// of the message, reported as its usage when it completes unless a
	// step-finish part reported it (StepUsage); InfoUsage: they were
	// reported, so a step-finish part that comes later is not.
	Tokens    rawText `json:"tokens,omitempty"`
	Cost      rawText `json:"cost,omitempty"`
	TokensRaw []byte  `json:"tokens_raw,omitempty"` // the native message that gave them (with IncludeRaw)
	StepUsage bool    `json:"step_usage,omitempty"`
	InfoUsage bool    `json:"info_usage,omitempty"`
}

// extraPart is the content one non-streaming native part contributes.
type extraPart struct {
	Part    string           `json:"part"`
	Content []universal.Part `json:"content"`
}

// partState is one native part.
type partState struct {
	ID   string `json:"id"`
	Msg  string `json:"msg"`
	Type string `json:"type"`
	// Index is the content index of a text or reasoning part, -1 until
	// its first text was emitted.
	Index int `json:"index"`
	// Final is the part's last snapshot text when it differs from what
	// was streamed (HasFinal); otherwise the streamed text is final.
	Final    string  `json:"final,omitempty"`
	HasFinal bool    `json:"has_final,omitempty"`
	Meta     rawText `json:"meta,omitempty"`
	Removed  bool    `json:"removed,omitempty"`
	// Late: the part arrived after its message completed and got an
	// item of its own.
	Late bool `json:"late,omitempty"`
	// Tool parts: the call and result items.
	Call       string `json:"call,omitempty"`
	Result     string `json:"result,omitempty"`
	CallID     string `json:"call_id,omitempty"`
	CallDone   bool   `json:"call_done,omitempty"`
	ResultDone bool   `json:"result_done,omitempty"`
}

// pendingDelta is a message.part.delta that arrived before its part.
type pendingDelta struct {
	Session string `json:"session"`
	Msg     string `json:"msg"`
	Part    string `json:"part"`
	Text    string `json:"text"`
	Raw     []byte `json:"raw,omitempty"`
}

// permInfo is what a permission request guarded.
type permInfo struct {
	Action string `json:"action,omitempty"`
	Item   string `json:"item,omitempty"`
	CallID string `json:"call_id,omitempty"`
}

// questionInfo is what a question asked.
type questionInfo struct {
	Item    string   `json:"item,omitempty"`
	Prompt  string   `json:"prompt,omitempty"`
	Options []string `json:"options,omitempty"`
	// Keys are a 2.x form's field keys, in the form's order: its reply's
	// answer is an object keyed by them, whose member order says nothing.
	Keys []string `json:"keys,omitempty"`
}

func (s *state) permissionInfo(id string) (action, item, callID string) {
	p := s.Perms[id]
	return p.Action, p.Item, p.CallID
}

// validate checks a state read from a checkpoint against the stream it
// was restored with: every reference the translator follows later must
// hold (a message listed open is in the message table, a part's message
// too, the items they name exist), so that no later event makes it fail
// or make a call its Stream refuses.
func (s *state) validate(w *universal.Stream) error {
	known := func(what, id string) error {
		if id != "" && !w.Known(id) {
			return fmt.Errorf("%s %q was never started", what, id)
		}
		return nil
	}
	items := map[string]string{}
	for id, m := range ordered.ByKey(s.Msgs) {
		if m == nil || m.ID != id || m.Item == "" {
			return fmt.Errorf("message %q missing, misfiled or without an item", id)
		}
		if other, dup := items[m.Item]; dup {
			return fmt.Errorf("messages %q and %q share item %q", other, id, m.Item)
		}
		items[m.Item] = id
		if err := known("message "+id, m.Item); err != nil {
			return err
		}
		if err := known("message parent", m.Parent); err != nil {
			return err
		}
		for _, pid := range m.Parts {
			if s.Parts[pid] == nil {
				return fmt.Errorf("message %q: part %q is not in the part table", id, pid)
			}
		}
		if it, open := w.Tracked(m.Item); open {
			if len(it.Content) > len(m.Parts) {
				return fmt.Errorf("message %q: %d parts, the stream %d", id, len(m.Parts), len(it.Content))
			}
			if it.Role != "" && it.Role != role(m.Role) {
				return fmt.Errorf("message %q: role %q, the stream's %q", id, m.Role, it.Role)
			}
		}
	}
	for pid, p := range ordered.ByKey(s.Parts) {
		if p == nil || p.ID != pid {
			return fmt.Errorf("part %q missing or misfiled", pid)
		}
		m := s.Msgs[p.Msg]
		if m == nil {
			return fmt.Errorf("part %q: message %q is not in the message table", pid, p.Msg)
		}
		if p.Index < -1 || p.Index >= 0 && (p.Index >= len(m.Parts) || m.Parts[p.Index] != pid) {
			return fmt.Errorf("part %q: index %d is not its place in message %q", pid, p.Index, p.Msg)
		}
		if p.Index >= 0 && p.Type != "text" && p.Type != "reasoning" {
			return fmt.Errorf("part %q of type %q has a text index", pid, p.Type)
		}
		if err := known("tool call", p.Call); err != nil {
			return err
		}
		if err := known("tool result", p.Result); err != nil {
			return err
		}
	}
	open := map[string]bool{}
	for _, id := range s.OpenMsgs {
		if s.Msgs[id] == nil || open[id] {
			return fmt.Errorf("open message %q is not in the message table, or repeated", id)
		}
		open[id] = true
	}
	for _, d := range s.Pending {
		if d.Msg == "" || d.Part == "" {
			return errors.New("a pending delta without its message or part")
		}
	}
	for child, item := range ordered.ByKey(s.Links) {
		if err := known("sub-agent "+child+" call", item); err != nil {
			return err
		}
	}
	for id, sh := range ordered.ByKey(s.V2Shells) {
		if sh.Call == "" || sh.Result == "" {
			return fmt.Errorf("shell %q without its items", id)
		}
		if err := known("shell "+id+" call", sh.Call); err != nil {
			return err
		}
		if err := known("shell "+id+" result", sh.Result); err != nil {
			return err
		}
	}
	if (s.WhereSession == "") != (s.WhereDir == "") || s.WhereSession != "" && s.Session != "" {
		return errors.New("a location without its session, or kept once a session is followed")
	}
	if s.Turn.Open != (w.Turn() != "") {
		return fmt.Errorf("turn open %v, the stream's %q", s.Turn.Open, w.Turn())
	}
	return nil
}

// rawText is raw JSON kept in the state (see universal.RawText).
type rawText = universal.RawText

// MarshalJSON saves the content as the text of its JSON (a string), for
// the reason of rawText: parts carry raw JSON metadata.
func (x extraPart) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x.Content); err != nil {
		return nil, err
	}
	return json.Marshal(extraJSON{x.Part, rawText(bytes.TrimSpace(b.Bytes()))})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (x *extraPart) UnmarshalJSON(b []byte) error {
	var j extraJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	x.Part, x.Content = j.Part, nil
	if len(j.Content) == 0 {
		return nil
	}
	return json.Unmarshal(j.Content, &x.Content)
}

// extraJSON is how an extraPart is saved.
type extraJSON struct {
	Part    string  `json:"part"`
	Content rawText `json:"content"`
}
