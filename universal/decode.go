package universal

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// ErrSyntax reports input that is not valid JSON.
var ErrSyntax = errors.New("universal: invalid JSON")

// UnmarshalJSON implements [json.Unmarshaler]: it decodes one event, a line
// of an NDJSON log or the data of a server-sent event.
//
// Decoding is tolerant, as a consumer of a newer producer needs: unknown
// fields are kept in Extra, unknown part types keep their fields, and an
// unknown event type decodes into *Unknown. Known fields of the wrong JSON
// type are errors, and input that is not JSON is [ErrSyntax]. When a key
// repeats, the last one wins, as in encoding/json.
//
// A heartbeat of a live stream (see [ErrHeartbeat]) is not an event: it
// returns ErrHeartbeat, which a client skips. [EventReader] skips them
// itself.
func (e *Event) UnmarshalJSON(b []byte) error {
	valid, clean := jsonw.Check(b)
	if !valid {
		return ErrSyntax
	}
	// Every raw value of a clean line is a clean slice of it.
	*e = Event{CleanJSON: clean}
	r := gjson.Parse(string(b))
	typ := r.Get("type")
	if typ.Type != gjson.String {
		return errors.New(`universal: event without a string "type"`)
	}
	e.Type = Type(validString(typ.Str))
	if typ.Str == "heartbeat" && !r.Get("event_id").Exists() {
		return ErrHeartbeat
	}
	return decodeObject(r, &e.Extra, func(k string, v gjson.Result) (bool, error) {
		var err error
		switch k {
		case "event_id":
			err = decString(v, &e.EventID)
		case "sequence":
			err = decInt(v, &e.Sequence)
		case "time":
			var s string
			if err = decString(v, &s); err == nil {
				e.Time, err = time.Parse(time.RFC3339Nano, s)
			}
		case "session_id":
			err = decString(v, &e.SessionID)
		case "native_session_id":
			err = decString(v, &e.NativeSessionID)
		case "synthetic":
			err = decBool(v, &e.Synthetic)
		case "source":
			err = decString(v, &e.Source)
		case "type":
		case "data":
			e.Data, err = decodeData(e.Type, v)
		case "raw":
			e.Raw = decRaw(v)
		default:
			return false, nil
		}
		if err != nil {
			return true, fmt.Errorf("universal: event %s: %w", k, err)
		}
		return true, nil
	})
}

// DecodeData decodes the data of an event of type t.
func DecodeData(t Type, data []byte) (Data, error) {
	if !jsonw.Valid(data) {
		return nil, ErrSyntax
	}
	return decodeData(t, gjson.Parse(string(data)))
}

func decodeData(t Type, v gjson.Result) (Data, error) {
	if v.Type == gjson.Null {
		return nil, nil
	}
	var d interface {
		Data
		decode(gjson.Result) error
	}
	switch t {
	case TypeSessionStarted:
		d = new(SessionStarted)
	case TypeSessionEnded:
		d = new(SessionEnded)
	case TypeTurnStarted:
		d = new(TurnStarted)
	case TypeTurnEnded:
		d = new(TurnEnded)
	case TypeItemStarted, TypeItemCompleted:
		d = new(ItemSnapshot)
	case TypeItemDelta:
		d = new(ItemDelta)
	case TypeError:
		d = new(Error)
	case TypePermissionRequested, TypePermissionResolved:
		d = new(Permission)
	case TypeQuestionRequested, TypeQuestionResolved:
		d = new(Question)
	case TypeUsageUpdated:
		d = new(UsageUpdated)
	case TypeUnparsed:
		d = new(Unparsed)
	default:
		return &Unknown{JSON: json.RawMessage(v.Raw)}, nil
	}
	if err := d.decode(v); err != nil {
		return nil, err
	}
	return d, nil
}

// decodeObject calls field for every member of the object r; members it
// does not claim are appended to extra.
func decodeObject(r gjson.Result, extra *[]Field, field func(k string, v gjson.Result) (bool, error)) error {
	if !r.IsObject() {
		return fmt.Errorf("want an object, got %s", kindOf(r))
	}
	var err error
	r.ForEach(func(k, v gjson.Result) bool {
		var known bool
		known, err = field(validString(k.Str), v)
		if err != nil {
			return false
		}
		if !known {
			*extra = append(*extra, Field{Name: validString(k.Str), Value: json.RawMessage(v.Raw)})
		}
		return true
	})
	return err
}

func kindOf(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "an array"
	}
	switch v.Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "a number"
	case gjson.True, gjson.False:
		return "a boolean"
	case gjson.Null:
		return "null"
	}
	return "nothing"
}

func decString[S ~string](v gjson.Result, dst *S) error {
	switch v.Type {
	case gjson.String:
		*dst = S(validString(v.Str))
	case gjson.Null:
		*dst = ""
	default:
		return fmt.Errorf("want a string, got %s", kindOf(v))
	}
	return nil
}

// validString replaces invalid UTF-8 with U+FFFD, so that a decoded event
// re-encodes the same way every time.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func decInt(v gjson.Result, dst *int64) error {
	if v.Type != gjson.Number {
		return fmt.Errorf("want a number, got %s", kindOf(v))
	}
	*dst = v.Int()
	return nil
}

func decIntPtr(v gjson.Result, dst **int64) error {
	if v.Type == gjson.Null {
		*dst = nil
		return nil
	}
	var n int64
	if err := decInt(v, &n); err != nil {
		return err
	}
	*dst = &n
	return nil
}

func decBool(v gjson.Result, dst *bool) error {
	switch v.Type {
	case gjson.True:
		*dst = true
	case gjson.False, gjson.Null:
		*dst = false
	default:
		return fmt.Errorf("want a boolean, got %s", kindOf(v))
	}
	return nil
}

func decRaw(v gjson.Result) json.RawMessage {
	if v.Type == gjson.Null {
		return nil
	}
	return json.RawMessage(v.Raw)
}

// UnmarshalJSON implements [json.Unmarshaler].
func (it *Item) UnmarshalJSON(b []byte) error {
	if !jsonw.Valid(b) {
		return ErrSyntax
	}
	return it.decode(gjson.Parse(string(b)))
}

func (it *Item) decode(r gjson.Result) error {
	*it = Item{}
	return decodeObject(r, &it.Extra, func(k string, v gjson.Result) (bool, error) {
		var err error
		switch k {
		case "item_id":
			err = decString(v, &it.ItemID)
		case "native_item_id":
			err = decString(v, &it.NativeItemID)
		case "parent_id":
			err = decString(v, &it.ParentID)
		case "kind":
			err = decString(v, &it.Kind)
		case "role":
			err = decString(v, &it.Role)
		case "status":
			err = decString(v, &it.Status)
		case "content":
			if v.Type == gjson.Null {
				it.Content = nil
				break
			}
			if !v.IsArray() {
				err = fmt.Errorf("want an array, got %s", kindOf(v))
				break
			}
			it.Content = make([]Part, 0, 2)
			v.ForEach(func(_, pv gjson.Result) bool {
				var p Part
				if err = p.decode(pv); err != nil {
					return false
				}
				it.Content = append(it.Content, p)
				return true
			})
		default:
			return false, nil
		}
		if err != nil {
			return true, fmt.Errorf("item %s: %w", k, err)
		}
		return true, nil
	})
}

// partFields lists, per known part type, the fields its encoding writes;
// other fields of a decoded part go to Extra so nothing is lost.
var partFields = map[PartType][]string{
	PartText:       {"text"},
	PartJSON:       {"json"},
	PartToolCall:   {"name", "arguments", "call_id", "tool_kind", "tool_input"},
	PartToolResult: {"call_id", "output", "is_error"},
	PartFileRef:    {"path", "action", "diff"},
	PartReasoning:  {"text", "visibility", "signature"},
	PartImage:      {"path", "mime"},
	PartStatus:     {"label", "detail"},
}

// UnmarshalJSON implements [json.Unmarshaler].
func (p *Part) UnmarshalJSON(b []byte) error {
	if !jsonw.Valid(b) {
		return ErrSyntax
	}
	return p.decode(gjson.Parse(string(b)))
}

func (p *Part) decode(r gjson.Result) error {
	*p = Part{}
	if t := r.Get("type"); t.Type == gjson.String {
		p.Type = PartType(validString(t.Str))
	} else {
		return errors.New(`part without a string "type"`)
	}
	fields, known := partFields[p.Type]
	return decodeObject(r, &p.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "type":
			return true, nil
		case "metadata":
			if known {
				p.Metadata = decRaw(v)
				return true, nil
			}
			return false, nil
		case "rewritten":
			if known {
				return true, decBool(v, &p.Rewritten)
			}
			return false, nil
		}
		ok := false
		for _, f := range fields {
			if f == k {
				ok = true
				break
			}
		}
		if !ok {
			return false, nil
		}
		var err error
		switch k {
		case "text":
			err = decString(v, &p.Text)
		case "visibility":
			err = decString(v, &p.Visibility)
		case "signature":
			err = decString(v, &p.Signature)
		case "json":
			p.JSON = decRaw(v)
		case "name":
			err = decString(v, &p.Name)
		case "arguments":
			err = decString(v, &p.Arguments)
		case "call_id":
			err = decString(v, &p.CallID)
		case "tool_kind":
			err = decString(v, &p.ToolKind)
		case "tool_input":
			// Only an input this version writes back unchanged is
			// decoded; any other value stays in Extra, so nothing is lost.
			in := &ToolInput{}
			if !v.IsObject() || !in.decode(v) {
				return false, nil
			}
			p.ToolInput = in
		case "output":
			err = decString(v, &p.Output)
		case "is_error":
			err = decBool(v, &p.IsError)
		case "path":
			err = decString(v, &p.Path)
		case "action":
			err = decString(v, &p.Action)
		case "diff":
			err = decString(v, &p.Diff)
		case "mime":
			err = decString(v, &p.Mime)
		case "label":
			err = decString(v, &p.Label)
		case "detail":
			err = decString(v, &p.Detail)
		}
		if err != nil {
			return true, fmt.Errorf("part %s: %w", k, err)
		}
		return true, nil
	})
}

func (d *SessionStarted) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		if k == "metadata" {
			d.Metadata = decRaw(v)
			return true, nil
		}
		return false, nil
	})
}

func (d *SessionEnded) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "reason":
			return true, decString(v, &d.Reason)
		case "terminated_by":
			return true, decString(v, &d.TerminatedBy)
		case "message":
			return true, decString(v, &d.Message)
		case "stderr":
			if v.IsObject() { // {"head", "tail", "total_lines", "truncated"}
				d.Stderr = validString(v.Get("head").String())
				if tail := v.Get("tail"); tail.Type == gjson.String && tail.Str != "" {
					d.Stderr += "\n" + validString(tail.Str)
				}
				return true, nil
			}
			return true, decString(v, &d.Stderr)
		case "exit_code":
			var n *int64
			if err := decIntPtr(v, &n); err != nil {
				return true, err
			}
			if n != nil {
				c := int(*n)
				d.ExitCode = &c
			}
			return true, nil
		}
		return false, nil
	})
}

func (d *TurnStarted) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "turn_id":
			return true, decString(v, &d.TurnID)
		case "phase":
			return true, nil // the encoder writes it from the event type
		case "metadata":
			d.Metadata = decRaw(v)
			return true, nil
		}
		return false, nil
	})
}

func (d *TurnEnded) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "turn_id":
			return true, decString(v, &d.TurnID)
		case "phase":
			return true, nil // the encoder writes it from the event type
		case "status":
			return true, decString(v, &d.Status)
		case "metadata":
			d.Metadata = decRaw(v)
			return true, nil
		}
		return false, nil
	})
}

func (d *ItemSnapshot) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		if k == "item" {
			return true, d.Item.decode(v)
		}
		return false, nil
	})
}

func (d *ItemDelta) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "item_id":
			return true, decString(v, &d.ItemID)
		case "native_item_id":
			return true, decString(v, &d.NativeItemID)
		case "delta":
			return true, decString(v, &d.Delta)
		case "part_index":
			var n int64
			err := decInt(v, &n)
			d.PartIndex = int(n)
			return true, err
		case "part_type":
			return true, decString(v, &d.PartType)
		}
		return false, nil
	})
}

func (d *Error) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "message":
			return true, decString(v, &d.Message)
		case "code":
			return true, decString(v, &d.Code)
		case "details":
			d.Details = decRaw(v)
			return true, nil
		case "will_retry":
			return true, decBool(v, &d.WillRetry)
		}
		return false, nil
	})
}

func (d *Permission) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "permission_id":
			return true, decString(v, &d.PermissionID)
		case "action":
			return true, decString(v, &d.Action)
		case "status":
			return true, decString(v, &d.Status)
		case "metadata":
			d.Metadata = decRaw(v)
			return true, nil
		case "item_id":
			return true, decString(v, &d.ItemID)
		case "call_id":
			return true, decString(v, &d.CallID)
		}
		return false, nil
	})
}

func (d *Question) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "question_id":
			return true, decString(v, &d.QuestionID)
		case "prompt":
			return true, decString(v, &d.Prompt)
		case "options":
			if v.Type == gjson.Null {
				return true, nil
			}
			if !v.IsArray() {
				return true, fmt.Errorf("options: want an array, got %s", kindOf(v))
			}
			var err error
			d.Options = []string{}
			v.ForEach(func(_, o gjson.Result) bool {
				var s string
				if err = decString(o, &s); err != nil {
					return false
				}
				d.Options = append(d.Options, s)
				return true
			})
			return true, err
		case "response":
			return true, decString(v, &d.Response)
		case "status":
			return true, decString(v, &d.Status)
		case "item_id":
			return true, decString(v, &d.ItemID)
		case "metadata":
			d.Metadata = decRaw(v)
			return true, nil
		}
		return false, nil
	})
}

func (u *Usage) decode(r gjson.Result) error {
	return decodeObject(r, &u.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "input_tokens":
			return true, decIntPtr(v, &u.InputTokens)
		case "cached_input_tokens":
			return true, decIntPtr(v, &u.CachedInputTokens)
		case "cache_write_tokens":
			return true, decIntPtr(v, &u.CacheWriteTokens)
		case "output_tokens":
			return true, decIntPtr(v, &u.OutputTokens)
		case "reasoning_tokens":
			return true, decIntPtr(v, &u.ReasoningTokens)
		case "total_tokens":
			return true, decIntPtr(v, &u.TotalTokens)
		}
		return false, nil
	})
}

func (d *UsageUpdated) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "turn_id":
			return true, decString(v, &d.TurnID)
		case "scope":
			return true, decString(v, &d.Scope)
		case "usage":
			if v.Type == gjson.Null {
				return true, nil
			}
			return true, d.Usage.decode(v)
		case "cost_usd":
			switch v.Type {
			case gjson.Null:
				d.CostUSD = nil
			case gjson.Number:
				f := v.Float()
				d.CostUSD = &f
			default:
				return true, fmt.Errorf("cost_usd: want a number, got %s", kindOf(v))
			}
			return true, nil
		case "context_window":
			return true, decIntPtr(v, &d.ContextWindow)
		case "metadata":
			d.Metadata = decRaw(v)
			return true, nil
		}
		return false, nil
	})
}

func (d *Unparsed) decode(r gjson.Result) error {
	return decodeObject(r, &d.Extra, func(k string, v gjson.Result) (bool, error) {
		switch k {
		case "error":
			return true, decString(v, &d.Error)
		case "location":
			return true, decString(v, &d.Location)
		case "raw_hash":
			return true, decString(v, &d.RawHash)
		}
		return false, nil
	})
}
