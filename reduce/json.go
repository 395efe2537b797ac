package reduce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/agentnorm/agentnorm/universal"
)

// Since returns the events of log after sequence v: the patch that brings
// a client at version v up to date (incremental sync). log must be in
// sequence order, as a session log is; the result is a sub-slice of it
// (empty when v is at or past the end). Applying Since(log, s.Sequence)
// to a session restored from a snapshot gives the state of the whole log.
func Since(log []universal.Event, v int64) []universal.Event {
	i := sort.Search(len(log), func(i int) bool { return log[i].Sequence > v })
	return log[i:]
}

// snapshot is the JSON form of a Session: its exported fields, with the
// items between the turns and the permissions.
type snapshot struct {
	SessionID       string          `json:"session_id"`
	NativeSessionID string          `json:"native_session_id"`
	Metadata        json.RawMessage `json:"metadata"`
	Title           string          `json:"title"`
	Status          Status          `json:"status"`
	Sequence        int64           `json:"sequence"`
	StartedSeq      int64           `json:"started_seq"`
	End             *End            `json:"end"`
	Turns           []Turn          `json:"turns"`
	Items           []Item          `json:"items"`
	Permissions     []Permission    `json:"permissions"`
	Questions       []Question      `json:"questions"`
	Errors          []Error         `json:"errors"`
	Unparsed        []Unparsed      `json:"unparsed"`
	Usage           Usage           `json:"usage"`
	Anomalies       []Anomaly       `json:"anomalies"`
}

// MarshalJSON writes the session as one compact JSON object. The output is
// deterministic (slices in their order, no maps) and does not escape HTML
// characters; empty lists are written as [].
func (s Session) MarshalJSON() ([]byte, error) {
	return s.encode("")
}

// JSON returns the session's JSON; with a non-empty indent it is indented,
// one field a line, for files people read (golden states).
func (s *Session) JSON(indent string) ([]byte, error) {
	return s.encode(indent)
}

func (s *Session) encode(indent string) ([]byte, error) {
	p := snapshot{
		SessionID: s.SessionID, NativeSessionID: s.NativeSessionID, Metadata: s.Metadata, Title: s.Title,
		Status: s.Status, Sequence: s.Sequence, StartedSeq: s.StartedSeq, End: s.End,
		Turns: nonNil(s.Turns), Items: make([]Item, len(s.items)),
		Permissions: nonNil(s.Permissions), Questions: nonNil(s.Questions), Errors: nonNil(s.Errors),
		Unparsed: nonNil(s.Unparsed), Usage: s.Usage, Anomalies: nonNil(s.Anomalies),
	}
	if p.Status == "" {
		p.Status = StatusIdle
	}
	for i, it := range s.Items() {
		p.Items[i] = *it
	}
	p.Usage.Other = nonNil(p.Usage.Other)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(&p); err != nil {
		return nil, fmt.Errorf("reduce: encoding the session: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// UnmarshalJSON restores a session from its JSON. The restored session
// folds later events exactly as the session it was taken from.
func (s *Session) UnmarshalJSON(b []byte) error {
	var p snapshot
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("reduce: decoding a session: %w", err)
	}
	if err := check(&p); err != nil {
		return fmt.Errorf("reduce: decoding a session: %w", err)
	}
	*s = Session{
		SessionID: p.SessionID, NativeSessionID: p.NativeSessionID, Metadata: p.Metadata, Title: p.Title,
		Status: p.Status, Sequence: p.Sequence, StartedSeq: p.StartedSeq, End: p.End,
		Turns: p.Turns, Permissions: p.Permissions, Questions: p.Questions, Errors: p.Errors,
		Unparsed: p.Unparsed, Usage: p.Usage, Anomalies: p.Anomalies,
	}
	// Raw fields as the reducer keeps them (see cleanRaw): nil for null,
	// compact, without the escapes json.Marshal adds for HTML.
	s.Metadata = cleanRaw(s.Metadata)
	for i := range s.Turns {
		s.Turns[i].Metadata = cleanRaw(s.Turns[i].Metadata)
		s.Turns[i].EndMetadata = cleanRaw(s.Turns[i].EndMetadata)
	}
	for i := range s.Permissions {
		s.Permissions[i].Metadata = cleanRaw(s.Permissions[i].Metadata)
		s.Permissions[i].Resolution = cleanRaw(s.Permissions[i].Resolution)
	}
	for i := range s.Questions {
		s.Questions[i].Metadata = cleanRaw(s.Questions[i].Metadata)
	}
	for i := range s.Errors {
		s.Errors[i].Details = cleanRaw(s.Errors[i].Details)
	}
	for i := range p.Items {
		it := &p.Items[i].Item
		cleanFields(it.Extra)
		for j := range it.Content {
			p := &it.Content[j]
			p.JSON = cleanRaw(p.JSON)
			p.Metadata = cleanRaw(p.Metadata)
			cleanFields(p.Extra)
		}
	}
	// The items open first, indexed, then the completed ones packed (which
	// refers to the index).
	s.idx = &index{}
	if len(p.Items) > 0 {
		s.items = make([]stored, len(p.Items))
		for i := range p.Items {
			s.setOpen(i, &p.Items[i])
		}
	}
	s.build()
	for i := range p.Items {
		if it := &p.Items[i]; it.CompletedSeq != 0 {
			s.pack(i, it, nil, true, true)
		}
	}
	return nil
}

func cleanFields(fs []universal.Field) {
	for i := range fs {
		fs[i].Value = cleanRaw(fs[i].Value)
	}
}

// check refuses a snapshot that no event could be applied to: a negative
// version, or ids the indexes need unique that are repeated.
func check(p *snapshot) error {
	if p.Sequence < 0 || p.StartedSeq < 0 || p.StartedSeq > p.Sequence {
		return fmt.Errorf("sequence %d, started_seq %d", p.Sequence, p.StartedSeq)
	}
	seen := map[string]bool{}
	for _, it := range p.Items {
		id := it.Item.ItemID
		if seen[id] {
			return fmt.Errorf("item id %q repeated", id)
		}
		seen[id] = true
		if it.StartedSeq < 0 || it.StartedSeq > p.Sequence || it.CompletedSeq < 0 || it.CompletedSeq > p.Sequence {
			return fmt.Errorf("item %q: sequences out of range", id)
		}
	}
	return nil
}
