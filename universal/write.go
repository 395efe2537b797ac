package universal

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// NDJSONWriter writes events as newline-delimited JSON, one event a line.
// It buffers: call Flush when done.
type NDJSONWriter struct {
	w   *bufio.Writer
	buf []byte
}

// NewNDJSONWriter returns a writer of events to w.
func NewNDJSONWriter(w io.Writer) *NDJSONWriter {
	return &NDJSONWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

// Write writes one event and its newline.
func (w *NDJSONWriter) Write(ev *Event) error {
	w.buf = ev.AppendJSON(release(w.buf))
	w.buf = append(w.buf, '\n')
	_, err := w.w.Write(w.buf)
	return err
}

// Flush writes any buffered data to the underlying writer.
func (w *NDJSONWriter) Flush() error { return w.w.Flush() }

// SSEWriter writes events as server-sent events: "id:" is the event's
// sequence (so a browser's Last-Event-ID resumes the stream) and "data:"
// the event's JSON. It buffers: call Flush after each batch a client should
// see.
type SSEWriter struct {
	w   *bufio.Writer
	buf []byte
}

// NewSSEWriter returns a writer of events to w.
func NewSSEWriter(w io.Writer) *SSEWriter {
	return &SSEWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

// Write writes one event.
func (w *SSEWriter) Write(ev *Event) error {
	b := append(release(w.buf), "id: "...)
	b = strconv.AppendInt(b, ev.Sequence, 10)
	b = append(b, "\ndata: "...)
	b = ev.AppendJSON(b) // JSON from AppendJSON never contains a raw newline
	b = append(b, "\n\n"...)
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// Comment writes an SSE comment line, such as a heartbeat.
func (w *SSEWriter) Comment(text string) error {
	b := append(w.buf[:0], ": "...)
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != '\n' && c != '\r' {
			b = append(b, c)
		}
	}
	b = append(b, '\n', '\n')
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// Flush writes any buffered data to the underlying writer.
func (w *SSEWriter) Flush() error { return w.w.Flush() }

// EventReader reads universal events written as NDJSON (by NDJSONWriter or
// any producer of the schema).
type EventReader struct {
	lines *LineReader
}

// NewEventReader returns a reader of universal NDJSON events from r.
func NewEventReader(r io.Reader) *EventReader {
	return &EventReader{lines: NewLineReader(r, 0)}
}

// Next decodes the next event. It returns io.EOF after the last one.
// Heartbeats (see [ErrHeartbeat]) are not events: Next skips them.
func (r *EventReader) Next() (Event, error) {
	for {
		m, err := r.lines.Next()
		if err != nil {
			return Event{}, err
		}
		if m.Err != nil {
			return Event{}, m.Err
		}
		var ev Event
		if err := ev.UnmarshalJSON(m.Data); err != nil {
			if errors.Is(err, ErrHeartbeat) {
				continue
			}
			return Event{}, &LineError{Line: m.Line, Err: err}
		}
		return ev, nil
	}
}

// ErrHeartbeat is what decoding returns for a heartbeat instead of an
// event: {"type":"heartbeat","seq":N,"ts":MS}, which a live stream of a
// session log sends while nothing happens (seq is the log's version, ts
// the server's time in Unix milliseconds). A client keeps the connection
// and its version and goes on reading.
var ErrHeartbeat = errors.New("universal: a heartbeat, not an event")

// AppendHeartbeat appends the JSON of a heartbeat for a log at version seq,
// sent at ts (Unix milliseconds).
func AppendHeartbeat(dst []byte, seq, ts int64) []byte {
	dst = append(dst, `{"type":"heartbeat","seq":`...)
	dst = strconv.AppendInt(dst, seq, 10)
	dst = append(dst, `,"ts":`...)
	dst = strconv.AppendInt(dst, ts, 10)
	return append(dst, '}')
}

// LineError is an error at a line of an input.
type LineError struct {
	Line int64
	Err  error
}

func (e *LineError) Error() string {
	return "line " + strconv.FormatInt(e.Line, 10) + ": " + e.Err.Error()
}

func (e *LineError) Unwrap() error { return e.Err }
