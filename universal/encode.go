package universal

import (
	"strings"
	"time"

	"github.com/agentnorm/agentnorm/internal/jsonw"
)

// The encoders below write fields in a fixed order with no reflection. The
// output is strict JSON (valid UTF-8 even when native input was not) and
// matches, byte for byte, what encoding/json writes for the same values with
// HTML escaping off; encode_test.go proves it against a reflection-based
// reference over every golden event.

// AppendJSON appends the event's JSON encoding (one line, no newline) to dst.
func (e *Event) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"event_id":`...)
	dst = jsonw.AppendString(dst, e.EventID)
	dst = append(dst, `,"sequence":`...)
	dst = jsonw.AppendInt(dst, e.Sequence)
	dst = append(dst, `,"time":"`...)
	dst = appendTime(dst, e.Time)
	dst = append(dst, `","session_id":`...)
	dst = jsonw.AppendString(dst, e.SessionID)
	dst = append(dst, `,"native_session_id":`...)
	dst = jsonw.AppendNullString(dst, e.NativeSessionID)
	dst = append(dst, `,"synthetic":`...)
	dst = jsonw.AppendBool(dst, e.Synthetic)
	dst = append(dst, `,"source":`...)
	dst = jsonw.AppendString(dst, e.Source)
	dst = append(dst, `,"type":`...)
	dst = jsonw.AppendString(dst, e.Type)
	dst = append(dst, `,"data":`...)
	if e.Data == nil {
		dst = append(dst, "null"...)
	} else if d, ok := e.Data.(cleanAppender); ok {
		dst = d.appendJSON(dst, e.CleanJSON)
	} else {
		dst = e.Data.AppendJSON(dst)
	}
	dst = append(dst, `,"raw":`...)
	dst = appendRaw(dst, e.Raw, e.CleanJSON)
	dst = appendExtra(dst, e.Extra, e.CleanJSON)
	return append(dst, '}')
}

// cleanAppender is implemented by the data types of this package: with
// clean set (the event's CleanJSON), raw JSON values are copied as they
// are instead of checked and compacted.
type cleanAppender interface {
	appendJSON(dst []byte, clean bool) []byte
}

// appendRaw appends raw JSON as jsonw.AppendRaw writes it; with clean set
// r is in that form already (or empty) and is copied.
func appendRaw(dst []byte, r []byte, clean bool) []byte {
	if !clean {
		return jsonw.AppendRaw(dst, r)
	}
	if len(r) == 0 {
		return append(dst, "null"...)
	}
	return append(dst, r...)
}

// appendTime appends t as TimeLayout formats it in UTC. Every event
// writes one: formatting the few fields directly costs a fraction of
// interpreting the layout each time.
func appendTime(dst []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(dst, TimeLayout)
	}
	hour, minute, sec := t.Clock()
	ms := t.Nanosecond() / 1e6
	two := func(dst []byte, v int) []byte { return append(dst, byte('0'+v/10), byte('0'+v%10)) }
	dst = two(dst, year/100)
	dst = two(dst, year%100)
	dst = append(dst, '-')
	dst = two(dst, int(month))
	dst = append(dst, '-')
	dst = two(dst, day)
	dst = append(dst, 'T')
	dst = two(dst, hour)
	dst = append(dst, ':')
	dst = two(dst, minute)
	dst = append(dst, ':')
	dst = two(dst, sec)
	return append(dst, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10), 'Z')
}

// MarshalJSON implements [json.Marshaler] with [Event.AppendJSON].
func (e Event) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil), nil }

func appendExtra(dst []byte, fs []Field, clean bool) []byte {
	for _, f := range fs {
		dst = append(dst, ',')
		dst = jsonw.AppendString(dst, f.Name)
		dst = append(dst, ':')
		dst = appendRaw(dst, f.Value, clean)
	}
	return dst
}

// AppendJSON appends the JSON encoding of the item.
func (it *Item) AppendJSON(dst []byte) []byte { return it.appendJSON(dst, false) }

func (it *Item) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"item_id":`...)
	dst = jsonw.AppendString(dst, it.ItemID)
	dst = append(dst, `,"native_item_id":`...)
	dst = jsonw.AppendNullString(dst, it.NativeItemID)
	dst = append(dst, `,"parent_id":`...)
	dst = jsonw.AppendNullString(dst, it.ParentID)
	dst = append(dst, `,"kind":`...)
	dst = jsonw.AppendString(dst, it.Kind)
	dst = append(dst, `,"role":`...)
	dst = jsonw.AppendNullString(dst, string(it.Role))
	dst = append(dst, `,"content":[`...)
	for i := range it.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = it.Content[i].appendJSON(dst, clean)
	}
	dst = append(dst, `],"status":`...)
	dst = jsonw.AppendString(dst, it.Status)
	dst = appendExtra(dst, it.Extra, clean)
	return append(dst, '}')
}

// AppendJSON appends the JSON encoding of the part.
func (p *Part) AppendJSON(dst []byte) []byte { return p.appendJSON(dst, false) }

func (p *Part) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsonw.AppendString(dst, p.Type)
	switch p.Type {
	case PartText:
		dst = append(dst, `,"text":`...)
		dst = jsonw.AppendString(dst, p.Text)
	case PartJSON:
		dst = append(dst, `,"json":`...)
		dst = appendRaw(dst, p.JSON, clean)
	case PartToolCall:
		dst = append(dst, `,"name":`...)
		dst = jsonw.AppendString(dst, p.Name)
		dst = append(dst, `,"arguments":`...)
		dst = jsonw.AppendString(dst, p.Arguments)
		dst = append(dst, `,"call_id":`...) // "" when the agent gives no id, never null
		dst = jsonw.AppendString(dst, p.CallID)
		if p.ToolKind != "" {
			dst = append(dst, `,"tool_kind":`...)
			dst = jsonw.AppendString(dst, p.ToolKind)
		}
		if p.ToolKind != "" || p.ToolInput != nil {
			dst = append(dst, `,"tool_input":`...)
			dst = p.ToolInput.AppendJSON(dst)
		}
	case PartToolResult:
		dst = append(dst, `,"call_id":`...)
		dst = jsonw.AppendString(dst, p.CallID)
		dst = append(dst, `,"output":`...)
		dst = jsonw.AppendString(dst, p.Output)
		dst = append(dst, `,"is_error":`...)
		dst = jsonw.AppendBool(dst, p.IsError)
	case PartFileRef:
		dst = append(dst, `,"path":`...)
		dst = jsonw.AppendString(dst, p.Path)
		dst = append(dst, `,"action":`...)
		dst = jsonw.AppendString(dst, p.Action)
		dst = append(dst, `,"diff":`...)
		dst = jsonw.AppendNullString(dst, p.Diff)
	case PartReasoning:
		dst = append(dst, `,"text":`...)
		dst = jsonw.AppendString(dst, p.Text)
		dst = append(dst, `,"visibility":`...)
		dst = jsonw.AppendNullString(dst, string(p.Visibility))
		if p.Signature != "" {
			dst = append(dst, `,"signature":`...)
			dst = jsonw.AppendString(dst, p.Signature)
		}
	case PartImage:
		dst = append(dst, `,"path":`...)
		dst = jsonw.AppendString(dst, p.Path)
		dst = append(dst, `,"mime":`...)
		dst = jsonw.AppendNullString(dst, p.Mime)
	case PartStatus:
		dst = append(dst, `,"label":`...)
		dst = jsonw.AppendString(dst, p.Label)
		dst = append(dst, `,"detail":`...)
		dst = jsonw.AppendNullString(dst, p.Detail)
	}
	if p.Metadata != nil {
		dst = append(dst, `,"metadata":`...)
		dst = appendRaw(dst, p.Metadata, clean)
	}
	if p.Rewritten {
		dst = append(dst, `,"rewritten":true`...)
	}
	dst = appendExtra(dst, p.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *SessionStarted) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *SessionStarted) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"metadata":`...)
	dst = appendRaw(dst, d.Metadata, clean)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *SessionEnded) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *SessionEnded) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"reason":`...)
	dst = jsonw.AppendString(dst, d.Reason)
	dst = append(dst, `,"terminated_by":`...)
	dst = jsonw.AppendString(dst, d.TerminatedBy)
	dst = append(dst, `,"message":`...)
	dst = jsonw.AppendNullString(dst, d.Message)
	dst = append(dst, `,"exit_code":`...)
	if d.ExitCode == nil {
		dst = append(dst, "null"...)
	} else {
		dst = jsonw.AppendInt(dst, int64(*d.ExitCode))
	}
	dst = append(dst, `,"stderr":`...)
	dst = appendStderr(dst, d.Stderr)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// appendStderr writes a process's standard error as the object the peer
// implementation of the schema defines, all of it in head: {"head",
// "tail": null, "total_lines", "truncated": false}; null when empty.
func appendStderr(dst []byte, stderr string) []byte {
	if stderr == "" {
		return append(dst, "null"...)
	}
	dst = append(dst, `{"head":`...)
	dst = jsonw.AppendString(dst, stderr)
	dst = append(dst, `,"tail":null,"total_lines":`...)
	lines := int64(strings.Count(stderr, "\n"))
	if !strings.HasSuffix(stderr, "\n") {
		lines++
	}
	dst = jsonw.AppendInt(dst, lines)
	return append(dst, `,"truncated":false}`...)
}

// AppendJSON implements [Data].
func (d *TurnStarted) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *TurnStarted) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"turn_id":`...)
	dst = jsonw.AppendString(dst, d.TurnID)
	dst = append(dst, `,"phase":"started","metadata":`...)
	dst = appendRaw(dst, d.Metadata, clean)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *TurnEnded) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *TurnEnded) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"turn_id":`...)
	dst = jsonw.AppendString(dst, d.TurnID)
	dst = append(dst, `,"phase":"ended","status":`...)
	dst = jsonw.AppendString(dst, d.Status)
	dst = append(dst, `,"metadata":`...)
	dst = appendRaw(dst, d.Metadata, clean)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *ItemSnapshot) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *ItemSnapshot) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"item":`...)
	dst = d.Item.appendJSON(dst, clean)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *ItemDelta) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *ItemDelta) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"item_id":`...)
	dst = jsonw.AppendString(dst, d.ItemID)
	dst = append(dst, `,"native_item_id":`...)
	dst = jsonw.AppendNullString(dst, d.NativeItemID)
	dst = append(dst, `,"delta":`...)
	dst = jsonw.AppendString(dst, d.Delta)
	dst = append(dst, `,"part_index":`...)
	dst = jsonw.AppendInt(dst, int64(d.PartIndex))
	dst = append(dst, `,"part_type":`...)
	dst = jsonw.AppendString(dst, d.PartType)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *Error) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *Error) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"message":`...)
	dst = jsonw.AppendString(dst, d.Message)
	dst = append(dst, `,"code":`...)
	dst = jsonw.AppendNullString(dst, d.Code)
	dst = append(dst, `,"details":`...)
	dst = appendRaw(dst, d.Details, clean)
	dst = append(dst, `,"will_retry":`...)
	dst = jsonw.AppendBool(dst, d.WillRetry)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *Permission) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *Permission) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"permission_id":`...)
	dst = jsonw.AppendString(dst, d.PermissionID)
	dst = append(dst, `,"action":`...)
	dst = jsonw.AppendString(dst, d.Action)
	dst = append(dst, `,"status":`...)
	dst = jsonw.AppendString(dst, d.Status)
	dst = append(dst, `,"metadata":`...)
	dst = appendRaw(dst, d.Metadata, clean)
	dst = append(dst, `,"item_id":`...)
	dst = jsonw.AppendNullString(dst, d.ItemID)
	dst = append(dst, `,"call_id":`...)
	dst = jsonw.AppendNullString(dst, d.CallID)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *Question) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *Question) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"question_id":`...)
	dst = jsonw.AppendString(dst, d.QuestionID)
	dst = append(dst, `,"prompt":`...)
	dst = jsonw.AppendString(dst, d.Prompt)
	dst = append(dst, `,"options":[`...)
	for i, o := range d.Options {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonw.AppendString(dst, o)
	}
	dst = append(dst, `],"response":`...)
	dst = jsonw.AppendNullString(dst, d.Response)
	dst = append(dst, `,"status":`...)
	dst = jsonw.AppendString(dst, d.Status)
	dst = append(dst, `,"item_id":`...)
	dst = jsonw.AppendNullString(dst, d.ItemID)
	dst = append(dst, `,"metadata":`...)
	dst = appendRaw(dst, d.Metadata, clean)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

func appendCount(dst []byte, n *int64) []byte {
	if n == nil {
		return append(dst, "null"...)
	}
	return jsonw.AppendInt(dst, *n)
}

// AppendJSON appends the JSON encoding of the usage.
func (u *Usage) AppendJSON(dst []byte) []byte { return u.appendJSON(dst, false) }

func (u *Usage) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"input_tokens":`...)
	dst = appendCount(dst, u.InputTokens)
	dst = append(dst, `,"cached_input_tokens":`...)
	dst = appendCount(dst, u.CachedInputTokens)
	dst = append(dst, `,"cache_write_tokens":`...)
	dst = appendCount(dst, u.CacheWriteTokens)
	dst = append(dst, `,"output_tokens":`...)
	dst = appendCount(dst, u.OutputTokens)
	dst = append(dst, `,"reasoning_tokens":`...)
	dst = appendCount(dst, u.ReasoningTokens)
	dst = append(dst, `,"total_tokens":`...)
	dst = appendCount(dst, u.TotalTokens)
	dst = appendExtra(dst, u.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *UsageUpdated) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *UsageUpdated) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"turn_id":`...)
	dst = jsonw.AppendNullString(dst, d.TurnID)
	dst = append(dst, `,"scope":`...)
	dst = jsonw.AppendString(dst, d.Scope)
	dst = append(dst, `,"usage":`...)
	dst = d.Usage.appendJSON(dst, clean)
	dst = append(dst, `,"cost_usd":`...)
	if d.CostUSD == nil {
		dst = append(dst, "null"...)
	} else {
		dst = jsonw.AppendFloat(dst, *d.CostUSD)
	}
	dst = append(dst, `,"context_window":`...)
	dst = appendCount(dst, d.ContextWindow)
	if d.Metadata != nil {
		dst = append(dst, `,"metadata":`...)
		dst = appendRaw(dst, d.Metadata, clean)
	}
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *Unparsed) AppendJSON(dst []byte) []byte { return d.appendJSON(dst, false) }

func (d *Unparsed) appendJSON(dst []byte, clean bool) []byte {
	dst = append(dst, `{"error":`...)
	dst = jsonw.AppendString(dst, d.Error)
	dst = append(dst, `,"location":`...)
	dst = jsonw.AppendString(dst, d.Location)
	dst = append(dst, `,"raw_hash":`...)
	dst = jsonw.AppendNullString(dst, d.RawHash)
	dst = appendExtra(dst, d.Extra, clean)
	return append(dst, '}')
}

// AppendJSON implements [Data].
func (d *Unknown) AppendJSON(dst []byte) []byte { return jsonw.AppendRaw(dst, d.JSON) }

func (d *Unknown) appendJSON(dst []byte, clean bool) []byte { return appendRaw(dst, d.JSON, clean) }

// MarshalJSON implements [json.Marshaler] with [Item.AppendJSON].
func (it Item) MarshalJSON() ([]byte, error) { return it.AppendJSON(nil), nil }

// MarshalJSON implements [json.Marshaler] with [Part.AppendJSON].
func (p Part) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil), nil }
