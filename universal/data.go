package universal

import "encoding/json"

// SessionStarted is the data of session.started.
type SessionStarted struct {
	// Metadata describes the session: agent, agent version, model, cwd,
	// tools and whatever else the native start carried.
	Metadata json.RawMessage
	Extra    []Field
}

// EndReason says why a session ended.
type EndReason string

// The end reasons.
const (
	EndCompleted  EndReason = "completed"
	EndError      EndReason = "error"
	EndTerminated EndReason = "terminated"
)

// Actor says who ended a session.
type Actor string

// The actors.
const (
	ByAgent  Actor = "agent"
	ByDaemon Actor = "daemon"
)

// SessionEnded is the data of session.ended.
type SessionEnded struct {
	Reason       EndReason
	TerminatedBy Actor
	Message      string // "" is written as null
	ExitCode     *int   // nil is written as null
	Stderr       string // "" is written as null
	Extra        []Field
}

// TurnStatus says how a turn ended.
type TurnStatus string

// The turn statuses.
const (
	TurnCompleted   TurnStatus = "completed"
	TurnInterrupted TurnStatus = "interrupted"
	TurnError       TurnStatus = "error"
)

// TurnStarted is the data of turn.started.
type TurnStarted struct {
	TurnID   string
	Metadata json.RawMessage
	Extra    []Field
}

// TurnEnded is the data of turn.ended.
type TurnEnded struct {
	TurnID   string
	Status   TurnStatus
	Metadata json.RawMessage
	Extra    []Field
}

// ItemSnapshot is the data of item.started and item.completed: the item as
// it is at that point. The snapshot in item.completed is complete and
// authoritative.
type ItemSnapshot struct {
	Item  Item
	Extra []Field
}

// ItemDelta is the data of item.delta: Delta is appended to the string of
// part PartIndex of the item (see [Part.Streamed]), whose type is PartType.
type ItemDelta struct {
	ItemID       string
	NativeItemID string // "" is written as null
	Delta        string
	PartIndex    int
	PartType     PartType
	Extra        []Field
}

// Error is the data of error. An error with WillRetry set is transient: the
// agent retries, and the session has not failed.
type Error struct {
	Message   string
	Code      string          // "" is written as null
	Details   json.RawMessage // nil is written as null
	WillRetry bool
	Extra     []Field
}

// PermissionStatus is the state of a permission request.
type PermissionStatus string

// The permission statuses.
const (
	PermissionRequested PermissionStatus = "requested"
	PermissionApproved  PermissionStatus = "approved"
	PermissionDenied    PermissionStatus = "denied"
)

// Permission is the data of permission.requested and permission.resolved.
//
// Action is the agent's own short name for what it asks to do, for display
// when nothing better is known: the tool's name for Claude Code, OpenCode,
// Pi and Amp ("Bash", "edit"), the command or "file change" for Codex, the
// tool call's title for ACP agents. What the request is about, the same
// way for every agent, is the guarded tool item (ItemID): its tool_call
// part's ToolKind and ToolInput (the command, the paths); render a
// request from that item when it is set.
type Permission struct {
	PermissionID string
	Action       string
	Status       PermissionStatus
	Metadata     json.RawMessage
	ItemID       string // the guarded tool item; "" is written as null
	CallID       string // the guarded tool call's native id; "" is written as null
	Extra        []Field
}

// QuestionStatus is the state of a question.
type QuestionStatus string

// The question statuses.
const (
	QuestionRequested QuestionStatus = "requested"
	QuestionAnswered  QuestionStatus = "answered"
	QuestionRejected  QuestionStatus = "rejected"
)

// Question is the data of question.requested and question.resolved.
// Multi-question prompts keep every question in Metadata.
type Question struct {
	QuestionID string
	Prompt     string
	Options    []string
	Response   string // "" is written as null
	Status     QuestionStatus
	ItemID     string // "" is written as null
	Metadata   json.RawMessage
	Extra      []Field
}

// UsageScope says what the numbers of a usage.updated event cover.
type UsageScope string

// The usage scopes.
const (
	// ScopeCall covers one model call; call usages of a turn may be summed.
	ScopeCall UsageScope = "call"
	// ScopeTurn covers one turn.
	ScopeTurn UsageScope = "turn"
	// ScopeSession is the running total so far: it replaces, never adds.
	ScopeSession UsageScope = "session"
)

// Usage is token usage with explicit meaning. Nil counts were not reported
// (written as null, never as 0).
type Usage struct {
	InputTokens       *int64 // all input tokens
	CachedInputTokens *int64 // the part of InputTokens read from cache
	CacheWriteTokens  *int64 // tokens written to the cache
	OutputTokens      *int64 // all output tokens
	ReasoningTokens   *int64 // the part of OutputTokens spent reasoning
	TotalTokens       *int64
	Extra             []Field
}

// UsageUpdated is the data of usage.updated.
type UsageUpdated struct {
	TurnID        string // "" is written as null
	Scope         UsageScope
	Usage         Usage
	CostUSD       *float64
	ContextWindow *int64
	// Metadata is provider detail worth keeping (what the numbers are
	// based on, a per-model breakdown); written only when set. A call's
	// usage names its model as "model" (and "provider") when the agent
	// says it: see the package doc, Usage and models.
	Metadata json.RawMessage
	Extra    []Field
}

// Unparsed is the data of agent.unparsed: a native payload the translator
// could not map. Real captures must produce none.
type Unparsed struct {
	Error    string
	Location string
	RawHash  string // "" is written as null
	Extra    []Field
}

// Unknown is the data of an event type this version does not know: the
// whole data value, kept so that it re-encodes unchanged.
type Unknown struct {
	JSON json.RawMessage
}
