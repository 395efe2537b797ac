package universal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrCheckpoint is the sentinel inside errors about a checkpoint that
// cannot be restored (another format, a part missing).
var ErrCheckpoint = errors.New("unusable checkpoint")

// checkpointVersion is the version of the checkpoint envelope; a
// checkpoint of another version is refused.
const checkpointVersion = 1

// SaveCheckpoint returns the checkpoint of a translator built on w: the
// JSON object {"version", "agent", "format", "session", "stream", "state"}
// with the envelope's version, w's agent, the translator's format, the
// session id its events carry (Options.SessionID), w's state and
// the translator's own state (any value encoding/json
// marshals; it must not share memory the translator changes later while
// marshalling). Errors name w's agent.
func SaveCheckpoint(format string, w *Stream, state any) ([]byte, error) {
	// Without HTML escaping: raw JSON in the state (an open item's
	// metadata) must come back byte for byte, so that a restored
	// translator writes what the one that never stopped writes.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		Version int         `json:"version"`
		Agent   string      `json:"agent"`
		Format  string      `json:"format"`
		Session string      `json:"session"`
		Stream  StreamState `json:"stream"`
		State   any         `json:"state"`
	}{checkpointVersion, w.agent, format, w.st.sessionID, w.State(), state})
	if err != nil {
		return nil, fmt.Errorf("%s: checkpoint: %w", w.agent, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// LoadCheckpoint restores a checkpoint made by SaveCheckpoint for the same
// agent, format and session id: it decodes the translator's own state
// into state (a pointer), then restores w. A checkpoint is data read back
// from disk, so it is checked before anything is restored: the envelope's
// version, the agent, format and session id (a translator built with
// another Options.SessionID would switch ids in the middle of the
// session; a checkpoint of a version that did not save the id is taken
// as it is), and the stream state's internal references (open
// items, turns, counters); a checkpoint that fails a check is refused with
// an error wrapping ErrCheckpoint. The translator checks its own state
// the same way before it uses it. On error w is unchanged; state may be
// partly filled, so decode into a fresh value and keep it only on success.
func LoadCheckpoint(b []byte, format string, w *Stream, state any) error {
	var c struct {
		Version int             `json:"version"`
		Agent   string          `json:"agent"`
		Format  string          `json:"format"`
		Session *string         `json:"session"`
		Stream  *StreamState    `json:"stream"`
		State   json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return fmt.Errorf("%s: restore: %w: %w", w.agent, ErrCheckpoint, err)
	}
	switch {
	case c.Version != checkpointVersion:
		return fmt.Errorf("%s: restore: %w: version %d, want %d", w.agent, ErrCheckpoint, c.Version, checkpointVersion)
	case c.Agent != w.agent:
		return fmt.Errorf("%s: restore: %w: checkpoint of agent %q", w.agent, ErrCheckpoint, c.Agent)
	case c.Format != format:
		return fmt.Errorf("%s: restore: %w: checkpoint of format %q into a %q translator", w.agent, ErrCheckpoint, c.Format, format)
	case c.Session != nil && *c.Session != w.st.sessionID:
		return fmt.Errorf("%s: restore: %w: checkpoint of session %q into a translator of session %q (Options.SessionID)", w.agent, ErrCheckpoint, *c.Session, w.st.sessionID)
	case c.Stream == nil || len(c.State) == 0 || string(c.State) == "null":
		return fmt.Errorf("%s: restore: %w: no stream or no state", w.agent, ErrCheckpoint)
	}
	if err := c.Stream.validate(); err != nil {
		return fmt.Errorf("%s: restore: %w: stream: %w", w.agent, ErrCheckpoint, err)
	}
	if err := json.Unmarshal(c.State, state); err != nil {
		return fmt.Errorf("%s: restore: %w: state: %w", w.agent, ErrCheckpoint, err)
	}
	w.Restore(*c.Stream)
	return nil
}

// LoadCheckedCheckpoint is LoadCheckpoint followed by check, the
// translator's test of its own state (already decoded into state) against
// the restored stream: when check fails, w is put back as it was and the
// error, naming w's agent, wraps ErrCheckpoint. On any error the caller
// keeps its old state. A checkpoint of a session that ended is not
// checked: a translator reads nothing once its session ended (Translate
// and Report return at once), so no reference in its state is followed
// again, and its items and turns were closed by the end.
func LoadCheckedCheckpoint(b []byte, format string, w *Stream, state any, check func() error) error {
	prev := w.State()
	if err := LoadCheckpoint(b, format, w, state); err != nil {
		return err
	}
	if w.Ended() {
		return nil
	}
	if err := check(); err != nil {
		w.Restore(prev)
		return fmt.Errorf("%s: restore: %w: state: %w", w.agent, ErrCheckpoint, err)
	}
	return nil
}

// validate checks a stream state read from a checkpoint: everything Restore
// and the Stream's methods rely on.
func (s *StreamState) validate() error {
	st := &s.Stamper
	if st.Sequence < 0 || st.Items < 0 || st.Turns < 0 {
		return errors.New("negative counter")
	}
	if !utf8.ValidString(st.NativeSessionID) {
		return errors.New("native session id is not UTF-8")
	}
	ss := &s.Stream
	if ss.Ended && (len(ss.Open) > 0 || len(ss.Turns) > 0) {
		return errors.New("ended with items or turns open")
	}
	if (len(ss.Open) > 0 || len(ss.Turns) > 0) && !ss.Begun {
		return errors.New("items or turns open before the session began")
	}
	if len(ss.Held) > 0 && (ss.Begun || ss.Ended) {
		return errors.New("unparsed events held after the session began")
	}
	if kept := heldBytes(ss.Held); len(ss.Held) > maxHeld || kept > maxHeldBytes {
		return fmt.Errorf("%d unparsed events held, %d bytes: more than a stream holds", len(ss.Held), kept)
	}
	// Default item ids ("itm_N") already issued must not come again: the
	// counter is at least every N seen. The error names the highest (the
	// first of its spellings), not one in the map's order.
	high, highID := st.Items, ""
	for id := range ss.Seen {
		if n, ok := strings.CutPrefix(id, "itm_"); ok {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil && (v > high || v == high && highID != "" && id < highID) {
				high, highID = v, id
			}
		}
	}
	if highID != "" {
		return fmt.Errorf("item counter %d below the issued id %q", st.Items, highID)
	}
	turns := map[string]bool{}
	for _, t := range ss.Turns {
		if t == "" || turns[t] {
			return fmt.Errorf("open turn %q empty or repeated", t)
		}
		turns[t] = true
	}
	open := map[string]bool{}
	for i, o := range ss.Open {
		switch {
		case o == nil:
			return fmt.Errorf("open item %d missing", i)
		case o.Item.ItemID == "" || open[o.Item.ItemID]:
			return fmt.Errorf("open item %q empty or repeated", o.Item.ItemID)
		case o.Turn != "" && !turns[o.Turn]:
			return fmt.Errorf("open item %q in turn %q, which is not open", o.Item.ItemID, o.Turn)
		case len(o.Streamed) > len(o.Item.Content) || len(o.Deltas) > len(o.Item.Content):
			return fmt.Errorf("open item %q: more streamed parts than parts", o.Item.ItemID)
		}
		if _, seen := ss.Seen[o.Item.ItemID]; !seen {
			return fmt.Errorf("open item %q never started", o.Item.ItemID)
		}
		switch o.Item.Kind {
		case KindMessage, KindToolCall, KindToolResult, KindSystem, KindStatus, KindUnknown:
		default:
			return fmt.Errorf("open item %q of kind %q", o.Item.ItemID, o.Item.Kind)
		}
		open[o.Item.ItemID] = true
	}
	return nil
}

// RawText is raw JSON a translator keeps in its checkpoint state (a
// native payload, provider metadata). It is saved as a JSON string, so it
// comes back byte for byte: encoding/json rewrites raw JSON it writes
// (compacted), and a restored translator would then write other bytes
// than the one that never stopped.
type RawText []byte

// MarshalJSON writes the raw JSON as a string.
func (r RawText) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	return json.Marshal(string(r))
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (r *RawText) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = nil
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*r = RawText(s)
	return nil
}
