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

// plain is Session without its methods, for the JSON encoder.
type plain Session

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
	p := plain(*s)
	if p.Status == "" {
		p.Status = StatusIdle
	}
	p.Turns = nonNil(p.Turns)
	p.Items = nonNil(p.Items)
	p.Permissions = nonNil(p.Permissions)
	p.Questions = nonNil(p.Questions)
	p.Errors = nonNil(p.Errors)
	p.Unparsed = nonNil(p.Unparsed)
	p.Anomalies = nonNil(p.Anomalies)
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
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("reduce: decoding a session: %w", err)
	}
	if err := check(&p); err != nil {
		return fmt.Errorf("reduce: decoding a session: %w", err)
	}
	*s = Session(p)
	s.idx = nil
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
	for i := range s.Items {
		it := &s.Items[i].Item
		cleanFields(it.Extra)
		for j := range it.Content {
			p := &it.Content[j]
			p.JSON = cleanRaw(p.JSON)
			p.Metadata = cleanRaw(p.Metadata)
			cleanFields(p.Extra)
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
func check(p *plain) error {
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
