package sessionlog

import (
	"bufio"
	"math"

	"github.com/agentnorm/agentnorm/universal"
)

// span is where the value of an event's "raw" member is in its line:
// line[start:end]. It is empty (start == end == 0) when the event has no
// payload (the line says null already), and start is -1 for a line too
// long for the offsets (served without its payload by encoding the event
// again).
type span struct{ start, end int32 }

// emptyPrefix is the length of the JSON of an empty event up to the value
// of its "raw" member.
var emptyPrefix = len(new(universal.Event).AppendJSON(nil)) - len("null}")

// RawSpan returns where the raw payload of ev is in line, ev's JSON as
// ev.AppendJSON wrote it: line[start:end] is the value of the "raw"
// member ("null" when ev has none). universal.Event.AppendJSON writes
// "raw" after every other member of the envelope but the unknown ones
// (ev.Extra), so the span is found from the end of the line, from the
// lengths of the payload and of those members, without reading the line;
// ok is false when line does not have the "raw" key right before the span
// (it is not ev's JSON).
//
// The line without the payload, line[:start] + "null" + line[end:], is
// byte for byte the JSON of ev with Raw nil.
func RawSpan(ev *universal.Event, line []byte) (start, end int, ok bool) {
	tail := 1 // the closing brace
	if len(ev.Extra) > 0 {
		x := universal.Event{Extra: ev.Extra, CleanJSON: ev.CleanJSON}
		tail = len(x.AppendJSON(nil)) - emptyPrefix - len("null")
	}
	var n int
	switch {
	case len(ev.Raw) == 0:
		n = len("null")
	case ev.CleanJSON:
		n = len(ev.Raw) // a clean payload is copied as it is
	default:
		r := universal.Event{Raw: ev.Raw}
		n = len(r.AppendJSON(nil)) - emptyPrefix - 1
	}
	end = len(line) - tail
	start = end - n
	const key = `,"raw":`
	if start < len(key) || string(line[start-len(key):start]) != key {
		return 0, 0, false
	}
	return start, end, true
}

// rawSpanOf is the span of ev's payload in line, its JSON.
func rawSpanOf(ev *universal.Event, line []byte) span {
	if len(ev.Raw) == 0 {
		return span{}
	}
	start, end, ok := RawSpan(ev, line)
	if !ok || end > math.MaxInt32 {
		return span{start: -1}
	}
	if string(line[start:end]) == "null" {
		return span{}
	}
	return span{start: int32(start), end: int32(end)}
}

// cut reports whether the line is served cut around its payload, and
// whether it must be encoded again for that (a line too long for a span).
func (s span) cut() (cut, encode bool) { return s.end > s.start, s.start < 0 }

// appendWithoutRaw appends line, the JSON of ev with payload span sp, with
// the payload written as null.
func appendWithoutRaw(dst, line []byte, sp span, ev *universal.Event) []byte {
	switch cut, encode := sp.cut(); {
	case encode:
		e := *ev
		e.Raw = nil
		return e.AppendJSON(dst)
	case cut:
		dst = append(dst, line[:sp.start]...)
		dst = append(dst, "null"...)
		return append(dst, line[sp.end:]...)
	}
	return append(dst, line...)
}

// writeLine writes line, the JSON of ev with payload span sp, to w: as it
// is with raw set, else with its payload written as null (three writes,
// no copy, unless the line is too long for a span).
func writeLine(w *bufio.Writer, line []byte, sp span, ev *universal.Event, raw bool) {
	cut, encode := sp.cut()
	switch {
	case raw || !(cut || encode):
		w.Write(line)
	case encode:
		w.Write(appendWithoutRaw(nil, line, sp, ev))
	default:
		w.Write(line[:sp.start])
		w.WriteString("null")
		w.Write(line[sp.end:])
	}
}
