package universal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/agentnorm/agentnorm/internal/uninit"
	"github.com/tidwall/gjson"
)

// DefaultMaxMessage is the default limit on one native message (a line or
// an SSE event). Real agent lines exceed 1 MiB (file reads, big tool
// outputs), so the limit is generous.
const DefaultMaxMessage = 64 << 20

// keptOfTooLong is how much of an over-long message a reader keeps in
// Message.Data, so the translator can show its start and hash it.
const keptOfTooLong = 4 << 10

// ErrTooLong is the sentinel inside a [TooLongError].
var ErrTooLong = errors.New("message longer than the limit")

// ErrNotSSE is the error of a Message for a line in a server-sent event
// stream that is no SSE field (data, event, id, retry) nor a comment: the
// SSE specification says to ignore such a line, and the reader does not let
// it go unnoticed — it is usually a sign of the wrong framing (an NDJSON
// file read as SSE) or of garbage in the stream.
var ErrNotSSE = errors.New("not a server-sent event field")

// bom is the UTF-8 byte order mark some editors put at the start of a file;
// every reader drops it there.
const bom = "\xef\xbb\xbf"

// Position is how far a reader has read its input: the bytes it consumed
// and the lines (or records) they hold. A host that follows a file and
// restarts keeps a session's Position with its translator's checkpoint,
// seeks the file to Offset and hands the Position to the new reader
// (Resume), so that line numbers go on where they were.
type Position struct {
	Offset int64 // bytes
	Line   int64 // lines, or records of a format whose messages are not lines
}

// A Resumer is a MessageReader that says how far it has read and can be
// told where its input starts; every reader of this package is one.
type Resumer interface {
	MessageReader
	// Position returns how far the input is consumed through the last
	// message Next returned (its terminator and what was skipped before
	// it included), or through its end once Next returned io.EOF: the
	// same input read from Position().Offset on continues with the next
	// message.
	Position() Position
	// Resume tells the reader, before its first Next, that its input
	// starts at p in its source: Message.Line and Position count on
	// from p.
	Resume(p Position)
}

// TooLongError reports a message longer than a reader's limit. The reader
// skips the rest of it and goes on with the next one.
type TooLongError struct {
	Line  int64 // where the message started
	Size  int64 // its length in bytes
	Limit int
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("line %d: %d bytes, over the limit of %d", e.Line, e.Size, e.Limit)
}

func (e *TooLongError) Unwrap() error { return ErrTooLong }

// A MessageReader splits native input into messages. Next returns io.EOF
// after the last message; any other error is terminal (a read error). A
// message that could not be framed properly is not an error: it comes back
// with Message.Err set, and reading goes on.
type MessageReader interface {
	Next() (Message, error)
}

// Messages iterates over a reader's messages. The iteration stops at the
// first error, which it yields unless it is io.EOF.
func Messages(r MessageReader) iter.Seq2[Message, error] {
	return func(yield func(Message, error) bool) {
		for {
			m, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(m, err) || err != nil {
				return
			}
		}
	}
}

// LineReader reads newline-delimited messages (NDJSON). It strips CR LF and
// LF terminators, skips blank lines, and hands every other line on as is:
// a line that is not JSON is for the translator to report. Only LF ends a
// line (never U+2028 or a lone CR).
//
// It also reads JSON that was printed for people: logs saved by `jq .`,
// test fixtures written with an indent, a session dumped as one array
// (`jq -s .`, claude --output-format json --verbose piped through jq).
// A line that is a brace alone, followed by a line indented further,
// starts a value printed over several lines: its lines are joined, with
// the whitespace between tokens removed, into one message that starts on
// the brace's line, as if the value had been written on one line. A line
// that is a square bracket alone, followed by a line indented further (or
// by an object on one line with the comma after it), opens an array of
// messages: the bracket, the closing one and the commas between the
// elements are no part of any message. A value whose lines are cut short —
// the input ends inside it, or a line indented no further than its brace
// comes that does not close it — is handed on as far as it got, for the
// translator to report as not JSON, and the line after it is read anew; a
// bracket alone that opens nothing is handed on like any other line. A
// reader resumed inside such a value or array does not know it is in one.
type LineReader struct {
	r     *bufio.Reader
	limit int
	line  int64
	buf   []byte
	off   int64 // the bytes read, terminators included

	// JSON printed over several lines.
	opening byte   // '{' or '[' when the last line was that bracket alone
	val     []byte // that line, then the value's tokens (limit+2 bytes kept)
	valLen  int64  // the tokens' length, counted on beyond what is kept
	valLine int64  // the line of the value's brace
	indent  int    // that line's indent
	depth   int    // brackets open in the value; 0 when none is joined
	inStr   bool   // the last line ended inside a string (invalid JSON)
	array   bool   // inside an array of messages
	arrInd  int    // the indent of its opening bracket
	// held is a line read past the end of a value or a bracket alone,
	// read again by the next call.
	held     []byte
	heldSize int64 // its size in the input, terminator included
	heldLen  int64 // its size without the terminator (held may be cut)
	lastSize int64 // the last line read's size, terminator included
}

// Position returns how far the input is consumed (see Resumer).
func (r *LineReader) Position() Position {
	if r.held != nil {
		return Position{r.off - r.heldSize, r.line - 1}
	}
	return Position{r.off, r.line}
}

// Resume tells the reader where its input starts (see Resumer).
func (r *LineReader) Resume(p Position) { r.off, r.line = p.Offset, p.Line }

// NewLineReader returns a reader of lines from r no longer than limit bytes
// (DefaultMaxMessage when limit <= 0).
func NewLineReader(r io.Reader, limit int) *LineReader {
	if limit <= 0 {
		limit = DefaultMaxMessage
	}
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// Next returns the next non-blank line, or the next value printed over
// several lines. Message.Data is valid until the next call.
func (r *LineReader) Next() (Message, error) {
	for {
		data, size, err := r.nextLine()
		if err != nil && (err != io.EOF || size == 0) {
			if err == io.EOF && r.opening != 0 {
				return r.alone(), nil
			}
			if err == io.EOF && r.depth > 0 {
				return r.endValue(), nil // the input ended inside it
			}
			r.recycle()
			return Message{}, err
		}
		t := bytes.TrimSpace(data)
		if len(t) == 0 && size <= int64(r.limit) {
			continue // blank (at the end, what is pending is handed on above)
		}
		var first, last byte // of t; 0 for a line of spaces over the limit
		if len(t) > 0 {
			first, last = t[0], t[len(t)-1]
		}
		ind := len(data) - len(bytes.TrimLeft(data, " \t"))
		switch {
		case r.opening == '{' && ind > r.indent:
			r.opening, r.depth, r.inStr = 0, 1, false
			r.val, r.valLen = append(r.val[:0], '{'), 1
		case r.opening == '[' && (ind > r.indent || first == '{' && last == ','):
			r.opening, r.array, r.arrInd = 0, true, r.indent
		case r.opening != 0:
			r.hold(data, size)
			return r.alone(), nil
		}
		if r.depth > 0 {
			if ind <= r.indent && first != '}' && first != ']' {
				r.hold(data, size)
				return r.endValue(), nil // cut short
			}
			if r.addLine(data, size); r.depth == 0 {
				return r.endValue(), nil
			}
			continue
		}
		if size > int64(r.limit) {
			data = data[:min(len(data), keptOfTooLong, r.limit)]
			return Message{Data: data, Line: r.line, TimeMS: -1,
				Err: &TooLongError{Line: r.line, Size: size, Limit: r.limit}}, nil
		}
		if len(t) == 1 && (t[0] == '{' || t[0] == '[') {
			// A bracket alone: the next line tells what it opens.
			r.opening, r.indent, r.valLine = t[0], ind, r.line
			r.val = append(r.val[:0], data...)
			continue
		}
		if r.array {
			if (string(t) == "]" || string(t) == "],") && ind <= r.arrInd {
				r.array = false
				continue
			}
			if first == '{' && last == ',' {
				data = bytes.TrimRight(t[:len(t)-1], " \t") // the comma after an element
			}
		}
		return Message{Data: data, Line: r.line, TimeMS: -1}, nil
	}
}

// alone hands on a bracket that was alone on its line as that line.
func (r *LineReader) alone() Message {
	r.opening = 0
	return Message{Data: r.val, Line: r.valLine, TimeMS: -1}
}

// nextLine returns the line held back by the last call, if any, or reads
// the next one and counts it.
func (r *LineReader) nextLine() ([]byte, int64, error) {
	if r.held != nil {
		data := r.held
		r.held = nil
		return data, r.heldLen, nil
	}
	before := r.off
	data, size, err := r.readLine()
	r.lastSize = r.off - before
	if err != nil && (err != io.EOF || size == 0) {
		return data, size, err
	}
	r.line++
	if r.line == 1 && bytes.HasPrefix(data, []byte(bom)) {
		data = data[len(bom):]
		size -= int64(len(bom))
	}
	return data, size, err
}

// hold keeps a line read past the end of a value for the next call.
// Position does not count it until then.
func (r *LineReader) hold(data []byte, size int64) {
	r.heldSize, r.heldLen = r.lastSize, size
	r.held = append(make([]byte, 0, len(data)), data...)
}

// addLine adds one line of a value printed over several lines: its
// tokens without the whitespace between them, counting the brackets it
// opens and closes. What follows the value's last bracket on its line is
// kept too (making the message invalid), but for a separating comma.
func (r *LineReader) addLine(data []byte, size int64) {
	if size > int64(len(data)) {
		r.valLen += size // a line over the limit: the value is too long
	}
	keep := r.limit + 2
	for i := 0; i < len(data); i++ {
		c := data[i]
		if r.inStr {
			switch c {
			case '\\':
				if i+1 < len(data) {
					r.addByte(c, keep)
					i++
					c = data[i]
				}
			case '"':
				r.inStr = false
			}
			r.addByte(c, keep)
			continue
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case '"':
			r.inStr = true
		case '{', '[':
			r.depth++
		case '}', ']':
			r.depth--
		case ',':
			if r.depth == 0 {
				continue // between an array's elements
			}
		}
		r.addByte(c, keep)
	}
	if r.depth < 0 {
		r.depth = 0 // more closed than opened: handed on as it is
	}
}

func (r *LineReader) addByte(c byte, keep int) {
	if len(r.val) < keep {
		r.val = append(r.val, c)
	}
	r.valLen++
}

// endValue returns the value gathered, closed or cut short.
func (r *LineReader) endValue() Message {
	r.depth, r.inStr = 0, false
	m := Message{Data: r.val, Line: r.valLine, TimeMS: -1}
	if r.valLen > int64(r.limit) {
		m.Data = m.Data[:min(len(m.Data), keptOfTooLong, r.limit)]
		m.Err = &TooLongError{Line: r.valLine, Size: r.valLen, Limit: r.limit}
	}
	return m
}

// readLine reads one line without its terminator and returns it with its
// size. It keeps at most limit+2 bytes of a line (the caller cuts an
// over-long one further). At the end of input it returns what is left with
// io.EOF.
func (r *LineReader) readLine() ([]byte, int64, error) {
	r.buf = release(r.buf)
	var size int64
	for {
		chunk, err := r.r.ReadSlice('\n')
		r.off += int64(len(chunk))
		if err == nil && size == 0 {
			// The common case: the whole line is in bufio's buffer.
			chunk = trimEOL(chunk)
			return chunk, int64(len(chunk)), nil
		}
		size += int64(len(chunk))
		if r.buf == nil {
			if p, _ := lineBuffers.Get().(*[]byte); p != nil {
				r.buf = (*p)[:0]
			}
		}
		if room := r.limit + 2 - len(r.buf); room > 0 {
			r.buf = appendLimited(r.buf, chunk[:min(len(chunk), room)], r.limit+2)
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
			size -= int64(len(chunk) - len(trimEOL(chunk)))
			return trimEOL(r.buf), size, nil
		case io.EOF:
			return bytes.TrimSuffix(r.buf, []byte{'\r'}), size, io.EOF
		default:
			return nil, size, err
		}
	}
}

// lineBuffers keeps the buffers of lines longer than the read buffer from
// one reader to the next. A program that reads a directory of session
// files, many with a line of a large tool result, would otherwise grow a
// new buffer for the first long line of each file, a cost of the order of
// translating the line.
var lineBuffers sync.Pool // of *[]byte

// recycle hands the reader's line buffer on to the next reader once its
// input is read to the end (or failed): no message refers to it any more.
func (r *LineReader) recycle() {
	if b := release(r.buf); b != nil {
		lineBuffers.Put(&b)
	}
	r.buf = nil
}

// keptBuffer is the largest message buffer a reader or writer keeps for
// the next message. A bigger one (a single huge line) is dropped once its
// message is done, so one big message does not hold its size for the rest
// of a long session.
const keptBuffer = 4 << 20

// release returns buf emptied for reuse, or nil when it is too big to keep.
func release(buf []byte) []byte {
	if cap(buf) > keptBuffer {
		return nil
	}
	return buf[:0]
}

// appendLimited appends b to buf, doubling the capacity when it must grow
// (append's gentler growth for big slices allocates about five times a
// long line in all), but never beyond limit.
func appendLimited(buf, b []byte, limit int) []byte {
	if need := len(buf) + len(b); need > cap(buf) {
		c := min(max(2*cap(buf), need, 64<<10), max(limit, need))
		// Not cleared: only what is appended is read.
		buf = append(uninit.Bytes(c), buf...)
	}
	return append(buf, b...)
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

// SSEReader reads a server-sent event stream (text/event-stream): fields
// event, data, id and retry; multi-line data joined with LF; comment lines
// (the heartbeats of some servers) skipped; LF, CR LF or CR line ends.
// Each dispatched event with data becomes one Message (Data = the data,
// Event = the event name, ID = the last event id). An event still pending
// at the end of input is dispatched too, so a recording cut after its
// last data line loses nothing; Next returns io.EOF after the last.
//
// A session log's live stream (package sessionlog) sends its heartbeats
// as data events, not comments: they are Messages too, and decoding one
// with [Event.UnmarshalJSON] returns [ErrHeartbeat].
type SSEReader struct {
	r       *bufio.Reader
	limit   int
	line    int64
	lbuf    []byte // a line that does not lie whole in the reader's buffer
	cut     int64  // the bytes of the last line beyond what readLine kept
	data    []byte
	hasData bool
	event   string
	name    string // the last event name seen, reused to avoid allocations
	lastID  string
	retry   int64
	start   int64
	tooLong int64
	resume  bool // the last Next reported a line inside an event, which goes on

	read    int64    // the bytes read
	lineEnd int64    // the offset after the last logical line, its end included
	safe    Position // after the last event dispatched or dropped
}

// NewSSEReader returns a reader of SSE events whose data is no longer than
// limit bytes (DefaultMaxMessage when limit <= 0).
func NewSSEReader(r io.Reader, limit int) *SSEReader {
	if limit <= 0 {
		limit = DefaultMaxMessage
	}
	return &SSEReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit, retry: -1}
}

// Retry returns the last retry field the stream sent, -1 if none.
func (r *SSEReader) Retry() int64 { return r.retry }

// Position returns how far the input is consumed (see Resumer): through
// the blank line that ended the last event Next returned. A malformed
// line inside an event (ErrNotSSE) does not move it: the event it is part
// of has not been returned yet, and a resume there reads the line again.
func (r *SSEReader) Position() Position { return r.safe }

// Resume tells the reader where its input starts (see Resumer).
func (r *SSEReader) Resume(p Position) {
	r.read, r.line, r.safe = p.Offset, p.Line, p
}

// Next returns the next event. Message.Data is valid until the next call.
func (r *SSEReader) Next() (Message, error) {
	if !r.resume {
		r.data = release(r.data)
		r.hasData = false
		r.event = ""
		r.tooLong = 0
		r.start = 0
	}
	r.resume = false
	for {
		line, err := r.readLine()
		if err == io.EOF {
			r.safe = Position{r.read, r.line}
			if r.hasData {
				return r.dispatch(), nil
			}
			return Message{}, io.EOF
		}
		if err != nil {
			return Message{}, err
		}
		if len(line) == 0 {
			r.safe = Position{r.lineEnd, r.line}
			if r.hasData {
				return r.dispatch(), nil
			}
			r.event = ""
			r.start = 0
			continue
		}
		if r.line == 1 && bytes.HasPrefix(line, []byte(bom)) {
			line = line[len(bom):]
			if len(line) == 0 {
				continue
			}
		}
		if line[0] == ':' {
			continue
		}
		if r.start == 0 {
			r.start = r.line
		}
		name, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			name, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(name) {
		case "data":
			if r.hasData {
				r.add([]byte{'\n'})
			}
			r.add(value)
			if r.cut > 0 {
				r.tooLong += r.cut // a line cut to the limit: its value was longer
			}
			r.hasData = true
		case "event":
			if string(value) != r.name {
				r.name = string(value) // streams repeat names: allocate on change only
			}
			r.event = r.name
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				r.lastID = string(value)
			}
		case "retry":
			if n, err := strconv.ParseInt(string(value), 10, 64); err == nil && n >= 0 {
				r.retry = n
			}
		default:
			// Reported, not dropped: see ErrNotSSE. The event being built
			// goes on after it.
			r.resume = true
			return Message{Data: line[:min(len(line), keptOfTooLong)], ID: r.lastID, Line: r.line, TimeMS: -1, Err: ErrNotSSE}, nil
		}
	}
}

func (r *SSEReader) add(b []byte) {
	if r.tooLong > 0 || len(r.data)+len(b) > r.limit {
		if r.tooLong == 0 {
			r.tooLong = int64(len(r.data))
			r.data = r.data[:min(len(r.data), keptOfTooLong)]
		}
		r.tooLong += int64(len(b))
		if len(r.data) < keptOfTooLong {
			r.data = append(r.data, b[:min(len(b), keptOfTooLong-len(r.data))]...)
		}
		return
	}
	r.data = appendLimited(r.data, b, r.limit)
}

func (r *SSEReader) dispatch() Message {
	m := Message{Data: r.data, Event: r.event, ID: r.lastID, Line: r.start, TimeMS: -1}
	if r.tooLong > 0 {
		m.Err = &TooLongError{Line: r.start, Size: r.tooLong, Limit: r.limit}
	}
	return m
}

// sseSlack is what an SSE reader keeps of a line beyond its limit: the
// field name and its colon and space ("data: ") and a byte more, so that
// add notices a value longer than the limit.
const sseSlack = 16

// readLine returns the next line without its end (LF, CR LF or a lone CR).
// A line longer than the limit keeps only its first limit+sseSlack bytes,
// however it arrived. The line is a view of the reader's buffer when it
// lies there whole, valid until the next read.
func (r *SSEReader) readLine() ([]byte, error) {
	r.lbuf = release(r.lbuf)
	part := false // the start of the line is in lbuf
	most := r.limit + sseSlack
	total := 0 // the line's length, kept or not
	keep := func(b []byte) {
		total += len(b)
		if room := most - len(r.lbuf); room > 0 {
			r.lbuf = appendLimited(r.lbuf, b[:min(len(b), room)], most)
		}
	}
	for {
		avail, err := r.r.Peek(max(r.r.Buffered(), 1))
		if len(avail) == 0 {
			if err == io.EOF && part { // the last line, without its end
				r.line++
				r.lineEnd = r.read
				r.cut = int64(total - len(r.lbuf))
				return r.lbuf, nil
			}
			return nil, err
		}
		// The line ends at its first CR or LF: an LF found eight bytes
		// at a time, then a CR before it.
		i := bytes.IndexByte(avail, '\n')
		before := avail
		if i >= 0 {
			before = avail[:i]
		}
		if j := bytes.IndexByte(before, '\r'); j >= 0 {
			i = j
		}
		if i < 0 {
			keep(avail)
			part = true
			r.discard(len(avail))
			continue
		}
		line := avail[:min(i, most)]
		if part {
			keep(avail[:i])
			line = r.lbuf
		} else {
			total = i
		}
		n := i + 1
		if avail[i] == '\r' {
			if i+1 < len(avail) {
				if avail[i+1] == '\n' {
					n++
				}
			} else {
				// The CR ends what has arrived: an LF may follow it,
				// and looking moves the buffer the line is in.
				if !part {
					keep(line)
					total = i
					line = r.lbuf
				}
				r.discard(n)
				n = 0
				if b, err := r.r.Peek(1); err == nil && b[0] == '\n' {
					r.discard(1)
				}
			}
		}
		r.discard(n)
		r.line++
		r.lineEnd = r.read
		r.cut = int64(total - len(line))
		return line, nil
	}
}

// discard consumes n bytes the reader has peeked at.
func (r *SSEReader) discard(n int) {
	r.r.Discard(n)
	r.read += int64(n)
}

// ExchangeReader reads the recorded two-way exchange format: one JSON object
// a line, {"dir":"out"|"in","t_ms":…,"msg":…}, where out is what the agent
// wrote and in what the host wrote to it. Message.Data is msg's JSON text
// (a sub-slice of the line). The recorder writes a line the agent printed
// that was not JSON as {"_unparsed": "<line>"}; such a msg comes back as
// the line itself, so the translator sees the same noise as on stdout. A
// record that is not of this shape comes back with Message.Err set.
//
// Records other recorders write are read too: the direction spelled
// "agent->client" or "agent_to_client" (Out) and "client->agent" or
// "client_to_agent" (In), under "dir" or "direction"; the message under
// "msg" or "parsed"; the time as "ts", in milliseconds, or in seconds
// when it is below 10^11 (a Unix time in seconds until the year 5138).
// A recorder that writes "out" for what the host sent (Kiro CLI's
// KIRO_ACP_RECORD_PATH does) gives the directions the other way round:
// package acp's translator tells such an exchange from what its messages
// are; the other translators read the directions as written.
//
// So are the records of the wire tap of the cyril project (an ACP
// client; experiments/bh7g-harness/tap.py): {"ts", "dir", "msg"} with the
// directions above, "agent-stderr" for a line the agent wrote to its
// stderr (a stderr record, as "stderr" below), "<dir>:raw" for a line of
// that stream that was not JSON (msg the line, which comes back as
// itself), and "<dir>:eof" when a stream closed (msg null; the tap's
// note, skipped).
//
// So are the records of recorders that name the direction from the
// host's side, {"t": <ms since the capture started>, "dir": "send" (In) |
// "recv" (Out) | "stderr" | "note", "frame": <message>} (the replay
// fixtures of the orquester project): a "stderr" record's frame is a line
// the agent wrote to its stderr, which comes back as that line (Out) with
// Message.Stderr set; a "note" record is the recorder's own commentary
// (what it did, what it saw), written by neither side, and is skipped.
//
// So are the session event logs of the acpx client (an ACP host),
// {"seq", "at": <RFC 3339 time>, "direction": "outbound" (what the host
// sent: In) | "inbound" (what the agent sent: Out), "message": <message>}:
// the directions are named from the host's side, the time is "at".
//
// So are the captures of the a2acp project's ACP frame corpus, {"dir":
// "send" (In) | "recv" (Out), "line": <message>}, after a header record
// {"_provenance", "agent", "version", "cmd", "captured", …} that names
// the capture and holds no message (skipped like a note).
//
// So are the session logs of the yoloswe project's agent CLI wrapper
// (agent-cli-wrapper/codex/session_log.go, claude/recorder.go): a header
// {"format": "codex", "version", "client", "timestamp"} that holds no
// message (skipped like a note), then {"timestamp": <RFC 3339 time>,
// "direction": "sent" (what the host sent: In) | "received" (Out),
// "message": <message>}.
//
// And so are the provider replay transcripts of hosts that record from
// their side, {"type": "expect_outbound" (In) | "emit_inbound" (Out),
// "label"?, "frame": <message>}, after a {"type": "transcript_start",
// "provider", "protocol", "version", "scenario", "metadata"?} header and
// up to a {"type": "runtime_exit", …} record (t3code's replay fixtures:
// real Codex app-server traffic among them), when the record has no
// "dir": the header and the exit record are skipped like a note (see
// ReplayRecord).
type ExchangeReader struct {
	lines *LineReader
	scan  jsonscan.Scanner
}

// Position returns how far the input is consumed (see Resumer).
func (r *ExchangeReader) Position() Position { return r.lines.Position() }

// Resume tells the reader where its input starts (see Resumer).
func (r *ExchangeReader) Resume(p Position) { r.lines.Resume(p) }

// ErrExchange is the sentinel inside errors about malformed exchange
// records.
var ErrExchange = errors.New("malformed exchange record")

// NewExchangeReader returns a reader of exchange records no longer than
// limit bytes (DefaultMaxMessage when limit <= 0).
func NewExchangeReader(r io.Reader, limit int) *ExchangeReader {
	return &ExchangeReader{lines: NewLineReader(r, limit)}
}

// Next returns the next record's message. Message.Data is valid until the
// next call.
func (r *ExchangeReader) Next() (Message, error) {
	for {
		m, note, err := r.next()
		if !note {
			return m, err
		}
	}
}

// next reads one record; note says it was a recorder's note, which Next
// skips.
func (r *ExchangeReader) next() (m Message, note bool, err error) {
	m, err = r.lines.Next()
	if err != nil || m.Err != nil {
		return m, false, err
	}
	line := m.Data
	fail := func(why string) (Message, bool, error) {
		m.Err = fmt.Errorf("%w: line %d: %s", ErrExchange, m.Line, why)
		return m, false, nil
	}
	// One validating scan indexes the record; the fields are then read
	// from the index, not by scanning the line again.
	sc := &r.scan
	if !sc.Scan(line) {
		return fail("not JSON")
	}
	rec := sc.Root()
	dir := rec.Field("dir")
	if !dir.Exists() {
		dir = rec.Field("direction")
	}
	if !dir.Exists() {
		if d, aside, ok := ReplayRecord(rec.Field("type").Str()); ok {
			if aside {
				return m, true, nil
			}
			return replayFrame(m, line, rec, d)
		}
		if rec.Field("_provenance").Exists() {
			// A capture's header (a2acp's corpus), no message.
			return m, true, nil
		}
		if SessionLogHeader(rec.Field("format").Str(), rec.Field("version").Str(), rec.Field("client").Exists()) {
			// A session log's header (yoloswe's), no message.
			return m, true, nil
		}
	}
	stderr, rawLine := false, false
	switch dir.Str() {
	case "out", "agent->client", "agent_to_client", "recv", "inbound", "received":
		m.Dir = Out
	case "in", "client->agent", "client_to_agent", "send", "outbound", "sent":
		m.Dir = In
	case "stderr":
		m.Dir, stderr = Out, true
	case "note":
		return m, true, nil
	default:
		if m.Dir, stderr, rawLine, note = tapDir(dir.Str()); note {
			return m, true, nil
		}
		if !stderr && !rawLine {
			return fail(`"dir" is neither "out" nor "in"`)
		}
	}
	if t := rec.Field("t_ms"); t.Type() == gjson.Number {
		m.TimeMS = t.Result().Int()
	} else if t := rec.Field("ts"); t.Type() == gjson.Number {
		if v := t.Result().Float(); v > 0 && v < 1e11 {
			m.TimeMS = int64(v * 1000)
		} else if v >= 1e11 && v < 1e15 {
			m.TimeMS = int64(v)
		}
	} else if t := rec.Field("t"); t.Type() == gjson.Number {
		m.TimeMS = t.Result().Int()
	} else if t := rec.Field("at"); t.Type() == gjson.String {
		if at, err := time.Parse(time.RFC3339Nano, t.Str()); err == nil {
			m.TimeMS = at.UnixMilli()
		}
	} else if t := rec.Field("timestamp"); t.Type() == gjson.String {
		if at, err := time.Parse(time.RFC3339Nano, t.Str()); err == nil {
			m.TimeMS = at.UnixMilli()
		}
	}
	msg := rec.Field("msg")
	if !msg.Exists() {
		msg = rec.Field("parsed")
	}
	if !msg.Exists() {
		msg = rec.Field("frame")
	}
	if !msg.Exists() {
		msg = rec.Field("message")
	}
	if !msg.Exists() {
		msg = rec.Field("line")
	}
	if !msg.Exists() {
		return fail(`no "msg"`)
	}
	if stderr || rawLine {
		if msg.Type() != gjson.String && rawLine {
			return fail(`a ":raw" record's msg is not a string`)
		}
		if msg.Type() != gjson.String {
			return fail(`a "stderr" record's frame is not a string`)
		}
		// A raw record's line was not JSON: it comes back as the line,
		// as an "_unparsed" msg does.
		m.Data, m.Stderr = []byte(msg.Str()), stderr
		return m, false, nil
	}
	if u := msg.Field("_unparsed"); u.Type() == gjson.String && msg.IsObject() && msg.Len() == 1 {
		m.Data = []byte(u.Str())
		return m, false, nil
	}
	m.Data = within(line, msg.Raw())
	return m, false, nil
}

// within returns raw, the text of a value read from line, as the
// sub-slice of line it is (a copy when it is not one).
func within(line []byte, raw string) []byte {
	start := int(uintptr(unsafe.Pointer(unsafe.StringData(raw))) - uintptr(unsafe.Pointer(unsafe.SliceData(line))))
	if start < 0 || start+len(raw) > len(line) {
		return []byte(raw)
	}
	return line[start : start+len(raw) : start+len(raw)]
}

// ReplayRecord reads the type of a provider replay transcript record (the
// NDJSON replay fixtures of the t3code project and others, recorded from
// the host's side; see ExchangeReader), for a format's detection as for
// the reader: "expect_outbound" is what the host sent (In),
// "emit_inbound" what the agent sent (Out), each with its message as
// "frame" ("label", a name for the reader, and "afterMs", a delay the
// replay waits, are not read). "transcript_start", the header that names
// the provider, protocol, version and scenario, and "runtime_exit", how
// the agent process ended, are the recorder's own records: aside reports
// them (they are skipped like a note; the caller reports the process's
// exit). ok is false for any other type.
func ReplayRecord(typ string) (d Direction, aside, ok bool) {
	switch typ {
	case "expect_outbound":
		return In, false, true
	case "emit_inbound":
		return Out, false, true
	case "transcript_start", "runtime_exit":
		return Out, true, true
	}
	return Out, false, false
}

// SessionLogHeader reports whether a record of no direction with these
// "format" and "version" strings, and a "client" member or none, is the
// header of a session log of the yoloswe project (see ExchangeReader):
// {"format": "codex" | "claude", "version": "1.0", "client", "timestamp"}.
func SessionLogHeader(format, version string, client bool) bool {
	return client && version != "" && (format == "codex" || format == "claude")
}

// replayFrame returns the message of a provider replay transcript record
// (see ReplayRecord), its frame, written by the side d names.
func replayFrame(m Message, line []byte, rec jsonscan.Value, d Direction) (Message, bool, error) {
	frame := rec.Field("frame")
	if !frame.Exists() {
		m.Err = fmt.Errorf("%w: line %d: %s", ErrExchange, m.Line, `no "frame"`)
		return m, false, nil
	}
	m.Dir, m.Data = d, within(line, frame.Raw())
	return m, false, nil
}

// tapDir reads a direction of the cyril wire tap's records that the other
// recorders do not write (see ExchangeReader): "agent-stderr" (a stderr
// line of the agent), "<direction>:raw" (a line of that stream that was
// not JSON) and "<direction>:eof" (the tap noting that a stream closed,
// also "agent-stderr:eof"). It returns the direction of a raw line, and
// which of the three dir is; none for any other name.
func tapDir(dir string) (d Direction, stderr, raw, note bool) {
	if dir == "agent-stderr" {
		return Out, true, false, false
	}
	base, kind, ok := strings.Cut(dir, ":")
	if !ok {
		return Out, false, false, false
	}
	switch base {
	case "agent->client":
		d = Out
	case "client->agent":
		d = In
	case "agent-stderr":
		return Out, false, false, kind == "eof"
	default:
		return Out, false, false, false
	}
	switch kind {
	case "raw":
		return d, false, true, false
	case "eof":
		return Out, false, false, true
	}
	return Out, false, false, false
}
