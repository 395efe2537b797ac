package universal

import "encoding/json"

// Kind is what an item is.
type Kind string

// The item kinds.
const (
	KindMessage    Kind = "message"
	KindToolCall   Kind = "tool_call"
	KindToolResult Kind = "tool_result"
	KindSystem     Kind = "system"
	KindStatus     Kind = "status"
	KindUnknown    Kind = "unknown"
)

// Role is who speaks in an item. The empty role is written as null.
type Role string

// The roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleTool      Role = "tool"
)

// ItemStatus is where an item is in its life.
type ItemStatus string

// The item statuses.
const (
	StatusInProgress ItemStatus = "in_progress"
	StatusCompleted  ItemStatus = "completed"
	StatusFailed     ItemStatus = "failed"
)

// Item is one unit of session content: a message, a tool call, a tool
// result, a system or status notice. Items are started, may grow through
// deltas, and are completed exactly once with their authoritative content.
type Item struct {
	ItemID       string
	NativeItemID string // "" is written as null
	ParentID     string // "" is written as null
	Kind         Kind
	Role         Role // "" is written as null
	Content      []Part
	Status       ItemStatus
	Extra        []Field
}

// PartType is the type of a content part. It also names, in an item.delta,
// the part whose text grows.
type PartType string

// The content part types.
const (
	PartText       PartType = "text"
	PartJSON       PartType = "json"
	PartToolCall   PartType = "tool_call"
	PartToolResult PartType = "tool_result"
	PartFileRef    PartType = "file_ref"
	PartReasoning  PartType = "reasoning"
	PartImage      PartType = "image"
	PartStatus     PartType = "status"
)

// Streams reports whether parts of this type grow through item.delta events,
// and so whether it may appear as a delta's part type.
func (t PartType) Streams() bool {
	switch t {
	case PartText, PartReasoning, PartToolCall, PartToolResult:
		return true
	}
	return false
}

// Visibility says whether reasoning was shown to the user.
type Visibility string

// The reasoning visibilities.
const (
	VisibilityPublic  Visibility = "public"
	VisibilityPrivate Visibility = "private"
)

// FileAction is what a file_ref part did to its file.
type FileAction string

// The file actions.
const (
	FileRead  FileAction = "read"
	FileWrite FileAction = "write"
	FilePatch FileAction = "patch"
)

// Part is one element of an item's content. Type selects which fields are
// written:
//
//	text         Text
//	json         JSON
//	tool_call    Name, Arguments (JSON text), CallID, ToolKind, ToolInput
//	tool_result  CallID, Output, IsError
//	file_ref     Path, Action, Diff
//	reasoning    Text, Visibility, and Signature when set
//	image        Path, Mime
//	status       Label, Detail
//
// Any part may carry Metadata (provider detail worth keeping) and Rewritten.
// Nullable string fields (CallID, Diff, Mime, Detail, Visibility) are
// written as null when empty. A part of a type this version does not know
// keeps all its fields in Extra.
type Part struct {
	Type       PartType
	Text       string
	Visibility Visibility
	Signature  string
	JSON       json.RawMessage
	Name       string
	Arguments  string
	CallID     string
	// ToolKind and ToolInput describe a tool_call under the same names for
	// every agent (see [ToolKind], [ToolInput]); Name and Arguments stay
	// the agent's own. ToolKind and ToolInput are set on every tool_call
	// a translator completes (ToolInput with no field set when the call
	// has no key argument); ToolKind "" (left out of the JSON) only on
	// decoded events of producers that did not set it. ToolInput is a
	// pointer: where it may be nil (such a decoded event, or a snapshot
	// of a call still being written), check it before reading its fields.
	ToolKind  ToolKind
	ToolInput *ToolInput
	Output    string
	IsError   bool
	Path      string
	Action    FileAction
	Diff      string
	Mime      string
	Label     string
	Detail    string
	Metadata  json.RawMessage
	// Rewritten records that the agent's final content for this part
	// differs from what streamed at its index (the started text plus the
	// deltas): OpenCode trims trailing whitespace, a plugin rewrites a
	// message. The part holds the final content; consumers replace what
	// they accumulated.
	Rewritten bool
	Extra     []Field
}

// Labels of status parts that mean the same for every agent, so that a
// client tells these notices apart without knowing which agent wrote them.
// Every other label is an agent's own name for a notice of its own (Codex's
// "warning", Pi's "model", ACP's "session_info" …), kept as the agent
// names it.
const (
	// LabelCompaction: the context was compacted, or compaction failed
	// (the status item is then failed); Detail says what started it or
	// why it failed, when the record tells.
	LabelCompaction = "compaction"
	// LabelPlan: the agent's plan or todo list. Detail is the list, an
	// entry a line: "[x] " done, "[~] " under way, "[ ] " to do, "[-] "
	// dropped.
	LabelPlan = "plan"
	// LabelTitle: the session has a new title, in Detail. Status items
	// with it are notices about the session, under no other item.
	LabelTitle = "title"
	// LabelReverted: the user reverted the conversation (a rewind, an
	// edited prompt, a rollback of turns): what came after the point
	// reverted to is abandoned. Or the agent retracted messages it
	// replaces (Claude Code's supersedes): metadata "uuids" lists them. Metadata "item_id" or "turn_id" names
	// where the abandoned part starts, when the record tells, besides the
	// agent's own id of it.
	LabelReverted = "reverted"
	// LabelMode: the mode the session runs in changed after it started
	// (a permission or approval mode, plan mode entered or left, another
	// agent or mode picked). Detail names the mode now in force, as the
	// agent names it; metadata holds the mode under the agent's own keys
	// and, where the translator knows what it replaces, "previous": an
	// object of the same keys with the values they had. The mode a
	// session starts in is session.started metadata where the agent says
	// it.
	LabelMode = "mode"
)

// Streamed returns the part's string that item.delta events grow: Text for
// text and reasoning, Arguments for tool_call, Output for tool_result.
func (p *Part) Streamed() string {
	switch p.Type {
	case PartText, PartReasoning:
		return p.Text
	case PartToolCall:
		return p.Arguments
	case PartToolResult:
		return p.Output
	}
	return ""
}

// SetStreamed sets the string that Streamed returns.
func (p *Part) SetStreamed(s string) {
	switch p.Type {
	case PartText, PartReasoning:
		p.Text = s
	case PartToolCall:
		p.Arguments = s
	case PartToolResult:
		p.Output = s
	}
}

// Text returns a text part.
func Text(s string) Part { return Part{Type: PartText, Text: s} }

// Reasoning returns a reasoning part.
func Reasoning(s string, v Visibility) Part {
	return Part{Type: PartReasoning, Text: s, Visibility: v}
}

// Clone returns a deep copy of the item.
func (it *Item) Clone() Item {
	c := *it
	if it.Content != nil {
		c.Content = make([]Part, len(it.Content))
		for i := range it.Content {
			c.Content[i] = it.Content[i].clone()
		}
	}
	c.Extra = cloneFields(it.Extra)
	return c
}

func (p *Part) clone() Part {
	c := *p
	c.JSON = cloneRaw(p.JSON)
	c.ToolInput = p.ToolInput.clone()
	c.Metadata = cloneRaw(p.Metadata)
	c.Extra = cloneFields(p.Extra)
	return c
}

func cloneRaw(r json.RawMessage) json.RawMessage {
	if r == nil {
		return nil
	}
	return append(json.RawMessage(nil), r...)
}

func cloneFields(fs []Field) []Field {
	if fs == nil {
		return nil
	}
	c := make([]Field, len(fs))
	for i, f := range fs {
		c[i] = Field{Name: f.Name, Value: cloneRaw(f.Value)}
	}
	return c
}
