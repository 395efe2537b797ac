package universal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// This file proves that the hand-written encoder (AppendJSON) writes what
// the straightforward encoding/json path writes for the same values. The
// reference below is built only from struct tags and encoding/json; it
// shares no code with encode.go.

type refEvent struct {
	EventID         string          `json:"event_id"`
	Sequence        int64           `json:"sequence"`
	Time            string          `json:"time"`
	SessionID       string          `json:"session_id"`
	NativeSessionID *string         `json:"native_session_id"`
	Synthetic       bool            `json:"synthetic"`
	Source          string          `json:"source"`
	Type            string          `json:"type"`
	Data            any             `json:"data"`
	Raw             json.RawMessage `json:"raw"`
}

type refItem struct {
	ItemID       string    `json:"item_id"`
	NativeItemID *string   `json:"native_item_id"`
	ParentID     *string   `json:"parent_id"`
	Kind         string    `json:"kind"`
	Role         *string   `json:"role"`
	Content      []refPart `json:"content"`
	Status       string    `json:"status"`
}

// refPart is marshalled through a per-type struct, as a reader of the
// schema would write it.
type refPart struct{ p *Part }

type refToolInput struct {
	Command string   `json:"command,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	Query   string   `json:"query,omitempty"`
	URL     string   `json:"url,omitempty"`
	Prompt  string   `json:"prompt,omitempty"`
	Agent   string   `json:"agent,omitempty"`
}

func refInput(p *Part) *refToolInput {
	if p.ToolKind == "" && p.ToolInput == nil {
		return nil
	}
	if p.ToolInput == nil {
		return &refToolInput{}
	}
	in := p.ToolInput
	return &refToolInput{in.Command, in.Paths, in.Query, in.URL, in.Prompt, in.Agent}
}

// refStderr is the peer schema's stderr object, all of it in head.
type refStderr struct {
	Head       string  `json:"head"`
	Tail       *string `json:"tail"`
	TotalLines int     `json:"total_lines"`
	Truncated  bool    `json:"truncated"`
}

func stderrOf(s string) *refStderr {
	if s == "" {
		return nil
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return &refStderr{Head: s, TotalLines: n}
}

type refCommon struct {
	Metadata  json.RawMessage `json:"metadata,omitempty"`
	Rewritten bool            `json:"rewritten,omitempty"`
}

func (r refPart) MarshalJSON() ([]byte, error) {
	p := r.p
	c := refCommon{Metadata: p.Metadata, Rewritten: p.Rewritten}
	var v any
	switch p.Type {
	case PartText:
		v = struct {
			Type string `json:"type"`
			Text string `json:"text"`
			refCommon
		}{string(p.Type), p.Text, c}
	case PartJSON:
		v = struct {
			Type string          `json:"type"`
			JSON json.RawMessage `json:"json"`
			refCommon
		}{string(p.Type), p.JSON, c}
	case PartToolCall:
		v = struct {
			Type      string        `json:"type"`
			Name      string        `json:"name"`
			Arguments string        `json:"arguments"`
			CallID    *string       `json:"call_id"`
			ToolKind  string        `json:"tool_kind,omitempty"`
			ToolInput *refToolInput `json:"tool_input,omitempty"`
			refCommon
		}{string(p.Type), p.Name, p.Arguments, &p.CallID, string(p.ToolKind), refInput(p), c}
	case PartToolResult:
		v = struct {
			Type    string  `json:"type"`
			CallID  *string `json:"call_id"`
			Output  string  `json:"output"`
			IsError bool    `json:"is_error"`
			refCommon
		}{string(p.Type), &p.CallID, p.Output, p.IsError, c}
	case PartFileRef:
		v = struct {
			Type   string  `json:"type"`
			Path   string  `json:"path"`
			Action string  `json:"action"`
			Diff   *string `json:"diff"`
			refCommon
		}{string(p.Type), p.Path, string(p.Action), nullable(p.Diff), c}
	case PartReasoning:
		v = struct {
			Type       string  `json:"type"`
			Text       string  `json:"text"`
			Visibility *string `json:"visibility"`
			Signature  string  `json:"signature,omitempty"`
			refCommon
		}{string(p.Type), p.Text, nullable(string(p.Visibility)), p.Signature, c}
	case PartImage:
		v = struct {
			Type string  `json:"type"`
			Path string  `json:"path"`
			Mime *string `json:"mime"`
			refCommon
		}{string(p.Type), p.Path, nullable(p.Mime), c}
	case PartStatus:
		v = struct {
			Type   string  `json:"type"`
			Label  string  `json:"label"`
			Detail *string `json:"detail"`
			refCommon
		}{string(p.Type), p.Label, nullable(p.Detail), c}
	default:
		v = struct {
			Type string `json:"type"`
			refCommon
		}{string(p.Type), c}
	}
	return marshalRef(v)
}

type refUsage struct {
	InputTokens       *int64 `json:"input_tokens"`
	CachedInputTokens *int64 `json:"cached_input_tokens"`
	CacheWriteTokens  *int64 `json:"cache_write_tokens"`
	OutputTokens      *int64 `json:"output_tokens"`
	ReasoningTokens   *int64 `json:"reasoning_tokens"`
	TotalTokens       *int64 `json:"total_tokens"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func rawOrNull(r json.RawMessage) json.RawMessage {
	if r == nil {
		return json.RawMessage("null")
	}
	return r
}

func refItemOf(it *Item) refItem {
	r := refItem{
		ItemID: it.ItemID, NativeItemID: nullable(it.NativeItemID), ParentID: nullable(it.ParentID),
		Kind: string(it.Kind), Role: nullable(string(it.Role)), Status: string(it.Status),
		Content: []refPart{},
	}
	for i := range it.Content {
		r.Content = append(r.Content, refPart{&it.Content[i]})
	}
	return r
}

func refData(d Data) any {
	switch d := d.(type) {
	case *SessionStarted:
		return struct {
			Metadata json.RawMessage `json:"metadata"`
		}{rawOrNull(d.Metadata)}
	case *SessionEnded:
		return struct {
			Reason       string     `json:"reason"`
			TerminatedBy string     `json:"terminated_by"`
			Message      *string    `json:"message"`
			ExitCode     *int       `json:"exit_code"`
			Stderr       *refStderr `json:"stderr"`
		}{string(d.Reason), string(d.TerminatedBy), nullable(d.Message), d.ExitCode, stderrOf(d.Stderr)}
	case *TurnStarted:
		return struct {
			TurnID   string          `json:"turn_id"`
			Phase    string          `json:"phase"`
			Metadata json.RawMessage `json:"metadata"`
		}{d.TurnID, "started", rawOrNull(d.Metadata)}
	case *TurnEnded:
		return struct {
			TurnID   string          `json:"turn_id"`
			Phase    string          `json:"phase"`
			Status   string          `json:"status"`
			Metadata json.RawMessage `json:"metadata"`
		}{d.TurnID, "ended", string(d.Status), rawOrNull(d.Metadata)}
	case *ItemSnapshot:
		return struct {
			Item refItem `json:"item"`
		}{refItemOf(&d.Item)}
	case *ItemDelta:
		return struct {
			ItemID       string  `json:"item_id"`
			NativeItemID *string `json:"native_item_id"`
			Delta        string  `json:"delta"`
			PartIndex    int     `json:"part_index"`
			PartType     string  `json:"part_type"`
		}{d.ItemID, nullable(d.NativeItemID), d.Delta, d.PartIndex, string(d.PartType)}
	case *Error:
		return struct {
			Message   string          `json:"message"`
			Code      *string         `json:"code"`
			Details   json.RawMessage `json:"details"`
			WillRetry bool            `json:"will_retry"`
		}{d.Message, nullable(d.Code), rawOrNull(d.Details), d.WillRetry}
	case *Permission:
		return struct {
			PermissionID string          `json:"permission_id"`
			Action       string          `json:"action"`
			Status       string          `json:"status"`
			Metadata     json.RawMessage `json:"metadata"`
			ItemID       *string         `json:"item_id"`
			CallID       *string         `json:"call_id"`
		}{d.PermissionID, d.Action, string(d.Status), rawOrNull(d.Metadata), nullable(d.ItemID), nullable(d.CallID)}
	case *Question:
		opts := d.Options
		if opts == nil {
			opts = []string{}
		}
		return struct {
			QuestionID string          `json:"question_id"`
			Prompt     string          `json:"prompt"`
			Options    []string        `json:"options"`
			Response   *string         `json:"response"`
			Status     string          `json:"status"`
			ItemID     *string         `json:"item_id"`
			Metadata   json.RawMessage `json:"metadata"`
		}{d.QuestionID, d.Prompt, opts, nullable(d.Response), string(d.Status), nullable(d.ItemID), rawOrNull(d.Metadata)}
	case *UsageUpdated:
		var cost *float64
		if d.CostUSD != nil && !math.IsNaN(*d.CostUSD) && !math.IsInf(*d.CostUSD, 0) {
			cost = d.CostUSD
		}
		u := d.Usage
		return struct {
			TurnID        *string         `json:"turn_id"`
			Scope         string          `json:"scope"`
			Usage         refUsage        `json:"usage"`
			CostUSD       *float64        `json:"cost_usd"`
			ContextWindow *int64          `json:"context_window"`
			Metadata      json.RawMessage `json:"metadata,omitempty"`
		}{nullable(d.TurnID), string(d.Scope),
			refUsage{u.InputTokens, u.CachedInputTokens, u.CacheWriteTokens, u.OutputTokens, u.ReasoningTokens, u.TotalTokens},
			cost, d.ContextWindow, d.Metadata}
	case *Unparsed:
		return struct {
			Error    string  `json:"error"`
			Location string  `json:"location"`
			RawHash  *string `json:"raw_hash"`
		}{d.Error, d.Location, nullable(d.RawHash)}
	case *Unknown:
		return rawOrNull(d.JSON)
	case nil:
		return nil
	}
	panic(fmt.Sprintf("refData: %T", d))
}

func marshalRef(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func referenceJSON(t testing.TB, ev *Event) []byte {
	t.Helper()
	r := refEvent{
		EventID: ev.EventID, Sequence: ev.Sequence, Time: ev.Time.UTC().Format(TimeLayout),
		SessionID: ev.SessionID, NativeSessionID: nullable(ev.NativeSessionID),
		Synthetic: ev.Synthetic, Source: string(ev.Source), Type: string(ev.Type),
		Data: refData(ev.Data), Raw: rawOrNull(ev.Raw),
	}
	b, err := marshalRef(r)
	if err != nil {
		t.Fatalf("reference encoding: %v", err)
	}
	return b
}

// hasExtra reports whether an event carries unknown fields, which the
// reference (struct tags only) cannot express.
func hasExtra(ev *Event) bool {
	if len(ev.Extra) > 0 {
		return true
	}
	switch d := ev.Data.(type) {
	case *ItemSnapshot:
		if len(d.Extra) > 0 || len(d.Item.Extra) > 0 {
			return true
		}
		for _, p := range d.Item.Content {
			if len(p.Extra) > 0 {
				return true
			}
		}
	case *SessionStarted:
		return len(d.Extra) > 0
	case *SessionEnded:
		return len(d.Extra) > 0
	case *TurnStarted:
		return len(d.Extra) > 0
	case *TurnEnded:
		return len(d.Extra) > 0
	case *ItemDelta:
		return len(d.Extra) > 0
	case *Error:
		return len(d.Extra) > 0
	case *Permission:
		return len(d.Extra) > 0
	case *Question:
		return len(d.Extra) > 0
	case *UsageUpdated:
		return len(d.Extra) > 0 || len(d.Usage.Extra) > 0
	case *Unparsed:
		return len(d.Extra) > 0
	}
	return false
}

// goldenEvents loads every event of every golden stream in the repository.
func goldenEvents(t testing.TB) []Event {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../testdata/*/*.golden.ndjson", "../testdata/*/*/*.golden.ndjson"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no golden streams under testdata")
	}
	var events []Event
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := NewEventReader(bytes.NewReader(b))
		for {
			ev, err := r.Next()
			if err != nil {
				if err.Error() == "EOF" {
					break
				}
				t.Fatalf("%s: %v", f, err)
			}
			events = append(events, ev)
		}
	}
	return events
}

func TestAppendJSONMatchesEncodingJSONOnGoldens(t *testing.T) {
	events := goldenEvents(t)
	for i := range events {
		ev := &events[i]
		if hasExtra(ev) {
			t.Fatalf("golden event %s has unknown fields", ev.EventID)
		}
		got := ev.AppendJSON(nil)
		want := referenceJSON(t, ev)
		if !bytes.Equal(got, want) {
			t.Fatalf("event %s:\n got %s\nwant %s", ev.EventID, got, want)
		}
	}
	t.Logf("%d golden events encode identically", len(events))
}

// hostile strings: control characters, invalid UTF-8, separators, HTML.
var hostile = []string{
	"", "plain", "quote \" backslash \\ slash /", "\x00\x01\x07\b\f\n\r\t\x1f\x7f",
	"<script>&amp;</script>", "\u2028\u2029", "é中文👋🏽👨‍👩‍👧‍👦", "bad \xff\xfe utf8 \xc3", "\xed\xa0\x80 surrogate",
	strings.Repeat("a", 300),
}

func TestAppendJSONMatchesEncodingJSONOnHostileValues(t *testing.T) {
	cost, nan, exp := 0.0000012, math.NaN(), 1e22
	n := int64(7)
	code := 3
	for _, s := range hostile {
		datas := []Data{
			&SessionStarted{Metadata: json.RawMessage(`{"k":"v"}`)},
			&SessionEnded{Reason: EndError, TerminatedBy: ByAgent, Message: s, ExitCode: &code, Stderr: s},
			&TurnStarted{TurnID: s},
			&TurnEnded{TurnID: s, Status: TurnError},
			&ItemSnapshot{Item: Item{ItemID: s, NativeItemID: s, ParentID: s, Kind: KindMessage, Role: RoleUser, Status: StatusCompleted,
				Content: []Part{
					{Type: PartText, Text: s}, {Type: PartReasoning, Text: s, Visibility: VisibilityPrivate, Signature: s},
					{Type: PartToolCall, Name: s, Arguments: s, CallID: s}, {Type: PartToolResult, CallID: s, Output: s, IsError: true},
					{Type: PartFileRef, Path: s, Action: FilePatch, Diff: s}, {Type: PartImage, Path: s, Mime: s},
					{Type: PartStatus, Label: s, Detail: s, Metadata: json.RawMessage(`[1,2]`), Rewritten: true},
					{Type: PartJSON, JSON: json.RawMessage(`{"a":[true,null,1.5e3]}`)},
					{Type: "future_part"},
				}}},
			&ItemDelta{ItemID: s, Delta: s, PartIndex: 3, PartType: PartToolResult},
			&Error{Message: s, Code: s, WillRetry: true},
			&Permission{PermissionID: s, Action: s, Status: PermissionDenied, ItemID: s, CallID: s},
			&Question{QuestionID: s, Prompt: s, Options: []string{s, "b"}, Response: s, Status: QuestionAnswered},
			&Question{QuestionID: s, Status: QuestionRequested},
			&UsageUpdated{TurnID: s, Scope: ScopeCall, Usage: Usage{InputTokens: &n, TotalTokens: &n}, CostUSD: &cost, ContextWindow: &n},
			&UsageUpdated{Scope: ScopeSession, CostUSD: &exp, Metadata: json.RawMessage(`{"basis":"x"}`)},
			&UsageUpdated{Scope: ScopeSession, CostUSD: &nan},
			&Unparsed{Error: s, Location: s, RawHash: s},
			&Unknown{JSON: json.RawMessage(`{"x":1}`)},
		}
		for _, d := range datas {
			ev := &Event{EventID: s, Sequence: 9, Time: time.Date(2026, 2, 3, 4, 5, 6, 789_000_000, time.UTC),
				SessionID: s, NativeSessionID: s, Source: SourceAgent, Type: "x", Data: d, Raw: json.RawMessage(`{"native":true}`)}
			got := ev.AppendJSON(nil)
			want := referenceJSON(t, ev)
			if !bytes.Equal(got, want) {
				t.Errorf("%T with %q:\n got %s\nwant %s", d, s, got, want)
			}
			if !utf8.Valid(got) || !json.Valid(got) {
				t.Errorf("%T with %q: output is not strict JSON: %s", d, s, got)
			}
		}
	}
}

func TestDecodeRoundTripKeepsUnknowns(t *testing.T) {
	in := `{"event_id":"e1","sequence":1,"time":"2026-01-01T00:00:00.000Z","session_id":"s","native_session_id":null,` +
		`"synthetic":false,"source":"agent","type":"item.completed","data":{"item":{"item_id":"i","native_item_id":null,` +
		`"parent_id":null,"kind":"message","role":"assistant","content":[{"type":"text","text":"hi","lang":"en"},` +
		`{"type":"hologram","frames":[1,2],"fps":30}],"status":"completed","pinned":true},"replay":false},"raw":null,"trace":{"span":"ab"}}` + "\n" +
		`{"event_id":"e2","sequence":2,"time":"2026-01-01T00:00:00.001Z","session_id":"s","native_session_id":"n",` +
		`"synthetic":true,"source":"daemon","type":"agent.thought","data":{"mood":"calm","depth":[1,{"x":null}]},"raw":null}` + "\n" +
		`{"event_id":"e3","sequence":3,"time":"2026-01-01T00:00:00.002Z","session_id":"s","native_session_id":"n",` +
		`"synthetic":false,"source":"agent","type":"item.delta","data":{"item_id":"i","native_item_id":null,"delta":"x",` +
		`"part_index":0,"part_type":"text","offset":12},"raw":{"a":1}}` + "\n"
	r := NewEventReader(strings.NewReader(in))
	var out []byte
	for {
		ev, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatal(err)
		}
		out = ev.AppendJSON(out)
		out = append(out, '\n')
	}
	// Unknown fields come back after the known ones of their object; compare
	// as parsed values so key order does not matter.
	if diff := cmp.Diff(parseAll(t, in), parseAll(t, string(out))); diff != "" {
		t.Errorf("round trip lost something (-in +out):\n%s", diff)
	}
}

func parseAll(t *testing.T, s string) []any {
	t.Helper()
	var out []any
	for line := range strings.Lines(s) {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		out = append(out, v)
	}
	return out
}

func TestDecodeRejectsWrongTypes(t *testing.T) {
	for _, in := range []string{
		`{"type":"item.delta","sequence":"one"}`,
		`{"type":"item.delta","data":{"part_index":"0"}}`,
		`{"type":"item.completed","data":{"item":{"content":{}}}}`,
		`{"type":"item.completed","data":{"item":{"content":[{"text":"no type"}]}}}`,
		`{"sequence":1}`,
		`{"type":"error"`,
	} {
		var ev Event
		if err := json.Unmarshal([]byte(in), &ev); err == nil {
			t.Errorf("%s: decoded without error", in)
		}
	}
}

func TestStrictOutputFromInvalidNativeInput(t *testing.T) {
	st := NewStamper(Options{IncludeRaw: true})
	var evs []Event
	evs = st.Emit(evs, TypeError, SourceAgent, &Error{Message: "bad \xff byte"}, []byte("{\"t\":\"\xff\xfe\",\n \"n\": 1}"))
	evs = st.Unparsed(evs, "line 1", fmt.Errorf("not JSON"), []byte("noise \x00\xff line"))
	for i := range evs {
		b := evs[i].AppendJSON(nil)
		if !utf8.Valid(b) || !json.Valid(b) || bytes.ContainsAny(b, "\n\r") {
			t.Errorf("not strict one-line JSON: %q", b)
		}
	}
	if got, want := string(evs[0].Raw), `{"t":"\ufffd\ufffd","n":1}`; got != want {
		t.Errorf("raw = %s, want %s", got, want)
	}
	if got, want := string(evs[1].Raw), `"noise \u0000\ufffd line"`; got != want {
		t.Errorf("raw of a non-JSON line = %s, want %s", got, want)
	}
}

// TestAppendTime: the direct formatter writes what TimeLayout does, for
// every time it takes (years 0–9999, any zone, any sub-millisecond part)
// and the ones it leaves to AppendFormat.
func TestAppendTime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sec := rapid.Int64Range(-70000000000, 260000000000).Draw(t, "sec")
		nsec := rapid.Int64Range(0, 999999999).Draw(t, "nsec")
		zone := rapid.IntRange(-14*3600, 14*3600).Draw(t, "zone")
		tm := time.Unix(sec, nsec).In(time.FixedZone("z", zone))
		got := string(appendTime([]byte("x"), tm))
		want := "x" + tm.UTC().Format(TimeLayout)
		if got != want {
			t.Fatalf("appendTime(%v) = %q, want %q", tm, got, want)
		}
	})
}

// TestCleanJSONEncodesAsChecked: an event marked CleanJSON (as decoded
// golden lines are) encodes to the same bytes as the same event unmarked,
// whose raw values the encoder checks and compacts.
func TestCleanJSONEncodesAsChecked(t *testing.T) {
	events := goldenEvents(t)
	marked := 0
	for i := range events {
		ev := events[i]
		if !ev.CleanJSON {
			continue
		}
		marked++
		got := ev.AppendJSON(nil)
		ev.CleanJSON = false
		if want := ev.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("event %s:\nmarked   %s\nunmarked %s", ev.EventID, got, want)
		}
	}
	if marked < len(events)/2 {
		t.Fatalf("only %d of %d golden events decoded as clean", marked, len(events))
	}
}

func TestDecodeMarksCleanLines(t *testing.T) {
	compact := `{"event_id":"e1","sequence":1,"time":"2026-01-01T00:00:00.000Z","session_id":"s","native_session_id":null,"synthetic":false,"source":"agent","type":"session.started","data":{"metadata":{"agent":"x","n":[1,2]}},"raw":null}`
	spaced := strings.ReplaceAll(compact, `"n":[1,2]`, `"n": [1, 2]`)
	var a, b Event
	if err := json.Unmarshal([]byte(compact), &a); err != nil {
		t.Fatal(err)
	}
	if err := b.UnmarshalJSON([]byte(spaced)); err != nil {
		t.Fatal(err)
	}
	if !a.CleanJSON || b.CleanJSON {
		t.Fatalf("CleanJSON: compact line %v, spaced line %v", a.CleanJSON, b.CleanJSON)
	}
	if got := b.AppendJSON(nil); string(got) != compact {
		t.Fatalf("spaced line encodes as\n%s\nwant\n%s", got, compact)
	}
	if err := CheckStream([]Event{a}); errors.Is(err, ErrNotClean) {
		t.Fatal(err)
	}
}
