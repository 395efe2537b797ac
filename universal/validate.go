package universal

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// ErrInvalid is the sentinel inside every error Validate returns;
// ErrUnknownType additionally marks an event type this version does not
// know (valid for a tolerant consumer, not for our producers).
var (
	ErrInvalid     = errors.New("invalid event")
	ErrUnknownType = errors.New("unknown event type")
)

// ValidationError describes why one event is invalid.
type ValidationError struct {
	Sequence int64
	Type     Type
	Field    string
	Err      error
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("event %d (%s): %s: %v", e.Sequence, e.Type, e.Field, e.Err)
}

func (e *ValidationError) Unwrap() []error { return []error{ErrInvalid, e.Err} }

// Validate checks one event on its own: every envelope field set and
// consistent (synthetic mirrors source), data of the right type for the
// event type, enumerations in range, required ids present, raw valid JSON.
// It does not look at other events; [Checker] checks a stream.
func Validate(ev *Event) error {
	bad := func(field string, format string, args ...any) error {
		return &ValidationError{Sequence: ev.Sequence, Type: ev.Type, Field: field, Err: fmt.Errorf(format, args...)}
	}
	switch {
	case ev.EventID == "":
		return bad("event_id", "empty")
	case ev.Sequence < 1:
		return bad("sequence", "%d is not positive", ev.Sequence)
	case ev.Time.IsZero():
		return bad("time", "zero")
	case ev.SessionID == "":
		return bad("session_id", "empty")
	case ev.Source != SourceAgent && ev.Source != SourceDaemon:
		return bad("source", "%q", ev.Source)
	case ev.Synthetic != (ev.Source == SourceDaemon):
		return bad("synthetic", "%v with source %s", ev.Synthetic, ev.Source)
	case ev.Raw != nil && !jsonw.Valid(ev.Raw):
		return bad("raw", "not valid JSON")
	case !ev.Type.Known():
		return &ValidationError{Sequence: ev.Sequence, Type: ev.Type, Field: "type", Err: ErrUnknownType}
	case ev.Data == nil || nilPointer(ev.Data):
		return bad("data", "missing")
	}
	wrongData := func() error { return bad("data", "%T for %s", ev.Data, ev.Type) }
	switch ev.Type {
	case TypeSessionStarted:
		d, ok := ev.Data.(*SessionStarted)
		if !ok {
			return wrongData()
		}
		if len(d.Metadata) > 0 && (!jsonw.Valid(d.Metadata) || d.Metadata[0] != '{') {
			return bad("metadata", "not a JSON object")
		}
	case TypeSessionEnded:
		d, ok := ev.Data.(*SessionEnded)
		if !ok {
			return wrongData()
		}
		if d.Reason != EndCompleted && d.Reason != EndError && d.Reason != EndTerminated {
			return bad("reason", "%q", d.Reason)
		}
		if d.TerminatedBy != ByAgent && d.TerminatedBy != ByDaemon {
			return bad("terminated_by", "%q", d.TerminatedBy)
		}
	case TypeTurnStarted:
		d, ok := ev.Data.(*TurnStarted)
		if !ok {
			return wrongData()
		}
		if d.TurnID == "" {
			return bad("turn_id", "empty")
		}
	case TypeTurnEnded:
		d, ok := ev.Data.(*TurnEnded)
		if !ok {
			return wrongData()
		}
		if d.TurnID == "" {
			return bad("turn_id", "empty")
		}
		if d.Status != TurnCompleted && d.Status != TurnInterrupted && d.Status != TurnError {
			return bad("status", "%q", d.Status)
		}
	case TypeItemStarted, TypeItemCompleted:
		d, ok := ev.Data.(*ItemSnapshot)
		if !ok {
			return wrongData()
		}
		if err := validateItem(&d.Item); err != nil {
			return bad("item", "%w", err)
		}
		if ev.Type == TypeItemStarted && d.Item.Status != StatusInProgress {
			return bad("item.status", "%q at start", d.Item.Status)
		}
		if ev.Type == TypeItemCompleted && d.Item.Status == StatusInProgress {
			return bad("item.status", "in_progress at completion")
		}
	case TypeItemDelta:
		d, ok := ev.Data.(*ItemDelta)
		if !ok {
			return wrongData()
		}
		switch {
		case d.ItemID == "":
			return bad("item_id", "empty")
		case d.PartIndex < 0:
			return bad("part_index", "%d", d.PartIndex)
		case !d.PartType.Streams():
			return bad("part_type", "%q does not stream", d.PartType)
		case d.Delta == "":
			return bad("delta", "empty")
		}
	case TypeError:
		d, ok := ev.Data.(*Error)
		if !ok {
			return wrongData()
		}
		if d.Message == "" {
			return bad("message", "empty")
		}
	case TypePermissionRequested, TypePermissionResolved:
		d, ok := ev.Data.(*Permission)
		if !ok {
			return wrongData()
		}
		if d.PermissionID == "" {
			return bad("permission_id", "empty")
		}
		want := d.Status == PermissionRequested
		if ev.Type == TypePermissionResolved {
			want = d.Status == PermissionApproved || d.Status == PermissionDenied
		}
		if !want {
			return bad("status", "%q", d.Status)
		}
	case TypeQuestionRequested, TypeQuestionResolved:
		d, ok := ev.Data.(*Question)
		if !ok {
			return wrongData()
		}
		if d.QuestionID == "" {
			return bad("question_id", "empty")
		}
		want := d.Status == QuestionRequested
		if ev.Type == TypeQuestionResolved {
			want = d.Status == QuestionAnswered || d.Status == QuestionRejected
		}
		if !want {
			return bad("status", "%q", d.Status)
		}
	case TypeUsageUpdated:
		d, ok := ev.Data.(*UsageUpdated)
		if !ok {
			return wrongData()
		}
		if d.Scope != ScopeCall && d.Scope != ScopeTurn && d.Scope != ScopeSession {
			return bad("scope", "%q", d.Scope)
		}
		for _, n := range []*int64{d.Usage.InputTokens, d.Usage.CachedInputTokens, d.Usage.CacheWriteTokens,
			d.Usage.OutputTokens, d.Usage.ReasoningTokens, d.Usage.TotalTokens, d.ContextWindow} {
			if n != nil && *n < 0 {
				return bad("usage", "negative count %d", *n)
			}
		}
	case TypeUnparsed:
		d, ok := ev.Data.(*Unparsed)
		if !ok {
			return wrongData()
		}
		if d.Error == "" || d.Location == "" {
			return bad("error", "error and location are required")
		}
		if ev.Source != SourceDaemon {
			return bad("source", "agent.unparsed comes from the daemon")
		}
	}
	return nil
}

func validateItem(it *Item) error {
	switch {
	case it.ItemID == "":
		return errors.New("item_id empty")
	case it.ParentID == it.ItemID:
		return errors.New("item is its own parent")
	}
	switch it.Kind {
	case KindMessage, KindToolCall, KindToolResult, KindSystem, KindStatus, KindUnknown:
	default:
		return fmt.Errorf("kind %q", it.Kind)
	}
	switch it.Role {
	case "", RoleUser, RoleAssistant, RoleSystem, RoleTool:
	default:
		return fmt.Errorf("role %q", it.Role)
	}
	switch it.Status {
	case StatusInProgress, StatusCompleted, StatusFailed:
	default:
		return fmt.Errorf("status %q", it.Status)
	}
	for i := range it.Content {
		if err := validatePart(&it.Content[i]); err != nil {
			return fmt.Errorf("content[%d]: %w", i, err)
		}
	}
	return nil
}

func validatePart(p *Part) error {
	if p.Metadata != nil && !jsonw.Valid(p.Metadata) {
		return errors.New("metadata is not valid JSON")
	}
	switch p.Type {
	case PartText, PartToolResult, PartStatus:
	case PartToolCall:
		switch p.ToolKind {
		case "", ToolRead, ToolEdit, ToolDelete, ToolMove, ToolSearch, ToolExecute, ToolThink, ToolFetch, ToolTask, ToolOther:
		default:
			return fmt.Errorf("tool_kind %q", p.ToolKind)
		}
	case PartJSON:
		if p.JSON != nil && !jsonw.Valid(p.JSON) {
			return errors.New("json is not valid JSON")
		}
	case PartFileRef:
		if p.Action != FileRead && p.Action != FileWrite && p.Action != FilePatch {
			return fmt.Errorf("file_ref action %q", p.Action)
		}
	case PartReasoning:
		if p.Visibility != VisibilityPublic && p.Visibility != VisibilityPrivate {
			return fmt.Errorf("reasoning visibility %q", p.Visibility)
		}
	case PartImage:
		if p.Path == "" && p.Mime == "" {
			return errors.New("image without path or mime")
		}
	default:
		return fmt.Errorf("part type %q", p.Type)
	}
	return nil
}

// nilPointer reports data that is a typed nil pointer, such as
// (*ItemSnapshot)(nil): missing data, which must not reach a type switch.
func nilPointer(d Data) bool {
	v := reflect.ValueOf(d)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
