package universal

import (
	"bytes"
	"errors"
	"io"
)

// Framing names how a native input is split into messages.
type Framing int

// The framings.
const (
	// FrameLines is newline-delimited JSON: one message per line.
	FrameLines Framing = iota
	// FrameSSE is a server-sent event stream: one message per event.
	FrameSSE
	// FrameExchange is the recorded two-way exchange format.
	FrameExchange
	// FrameDocument is one JSON document: the whole input is one message.
	FrameDocument
)

// String returns the framing's name.
func (f Framing) String() string {
	switch f {
	case FrameSSE:
		return "sse"
	case FrameExchange:
		return "exchange"
	case FrameDocument:
		return "document"
	}
	return "lines"
}

// Format is one native input format of an agent.
type Format struct {
	// Name is the format's name on the command line ("stream-json", "sse" …).
	Name string
	// Framing splits input of this format into messages.
	Framing Framing
	// Doc says in a few words what the format is.
	Doc string
}

// NewReader returns the message reader for a framing, with messages no
// longer than limit bytes (DefaultMaxMessage when limit <= 0). It is a
// Resumer.
func NewReader(r io.Reader, f Framing, limit int) Resumer {
	switch f {
	case FrameSSE:
		return NewSSEReader(r, limit)
	case FrameExchange:
		return NewExchangeReader(r, limit)
	case FrameDocument:
		return NewDocumentReader(r, limit)
	}
	return NewLineReader(r, limit)
}

// DocumentReader reads its whole input as one message, for formats that
// are a single JSON document (a saved message list, a thread export).
type DocumentReader struct {
	r     io.Reader
	limit int
	done  bool
	pos   Position
}

// Position returns how far the input is consumed (see Resumer): all of it,
// one record, once Next has returned the document.
func (d *DocumentReader) Position() Position { return d.pos }

// Resume tells the reader where its input starts (see Resumer).
func (d *DocumentReader) Resume(p Position) { d.pos = p }

// NewDocumentReader returns a reader of one message of at most limit bytes
// (DefaultMaxMessage when limit <= 0).
func NewDocumentReader(r io.Reader, limit int) *DocumentReader {
	if limit <= 0 {
		limit = DefaultMaxMessage
	}
	return &DocumentReader{r: r, limit: limit}
}

// Next returns the document, then io.EOF. An empty input has no message.
func (d *DocumentReader) Next() (Message, error) {
	if d.done {
		return Message{}, io.EOF
	}
	d.done = true
	r := progress{d.r}
	b, err := io.ReadAll(io.LimitReader(r, int64(d.limit)+1))
	d.pos.Offset += int64(len(b))
	if err != nil {
		return Message{}, err
	}
	b = bytes.TrimPrefix(b, []byte(bom))
	if len(b) == 0 {
		return Message{}, io.EOF
	}
	d.pos.Line++
	m := Message{Data: b, Line: d.pos.Line, TimeMS: -1}
	if len(b) > d.limit {
		n, err := io.Copy(io.Discard, r)
		d.pos.Offset += n
		if err != nil {
			return Message{}, err
		}
		m.Err = &TooLongError{Line: d.pos.Line, Size: int64(len(b)) + n, Limit: d.limit}
		m.Data = b[:min(len(b), keptOfTooLong)]
	}
	return m, nil
}

// progress reads from a reader and fails with io.ErrNoProgress when it
// returns neither data nor an error many times in a row, as a bufio.Reader
// does: io.ReadAll would wait on such a reader for ever.
type progress struct{ r io.Reader }

func (p progress) Read(b []byte) (int, error) {
	for range 100 {
		if n, err := p.r.Read(b); n > 0 || err != nil || len(b) == 0 {
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// ErrUnknownFormat is returned by provider constructors for a format name
// they do not read.
var ErrUnknownFormat = errors.New("unknown format")
