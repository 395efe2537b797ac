package universal

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrCheckpoint is the sentinel inside errors about a checkpoint that
// cannot be restored (another format, a part missing).
var ErrCheckpoint = errors.New("unusable checkpoint")

// SaveCheckpoint returns the checkpoint of a translator built on w: the
// JSON object {"format", "stream", "state"} with the translator's format,
// w's state and the translator's own state (any value encoding/json
// marshals; it must not share memory the translator changes later while
// marshalling). Errors name w's agent.
func SaveCheckpoint(format string, w *Stream, state any) ([]byte, error) {
	b, err := json.Marshal(struct {
		Format string      `json:"format"`
		Stream StreamState `json:"stream"`
		State  any         `json:"state"`
	}{format, w.State(), state})
	if err != nil {
		return nil, fmt.Errorf("%s: checkpoint: %w", w.agent, err)
	}
	return b, nil
}

// LoadCheckpoint restores a checkpoint made by SaveCheckpoint for the same
// format: it decodes the translator's own state into state (a pointer),
// then restores w. On error w is unchanged; state may be partly filled, so
// decode into a fresh value and keep it only on success.
func LoadCheckpoint(b []byte, format string, w *Stream, state any) error {
	var c struct {
		Format string          `json:"format"`
		Stream *StreamState    `json:"stream"`
		State  json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return fmt.Errorf("%s: restore: %w", w.agent, err)
	}
	switch {
	case c.Format != format:
		return fmt.Errorf("%s: restore: %w: checkpoint of format %q into a %q translator", w.agent, ErrCheckpoint, c.Format, format)
	case c.Stream == nil || len(c.State) == 0:
		return fmt.Errorf("%s: restore: %w: no stream or no state", w.agent, ErrCheckpoint)
	}
	if err := json.Unmarshal(c.State, state); err != nil {
		return fmt.Errorf("%s: restore: state: %w", w.agent, err)
	}
	w.Restore(*c.Stream)
	return nil
}
