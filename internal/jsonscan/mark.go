package jsonscan

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// A Mark is where a string value starts in a scanned message, with what
// the scan had read before it, so that a message that begins with the
// same bytes is scanned from there on (ScanCleanFrom) instead of from its
// start: the text deltas of a stream are alike up to their text (a Claude
// Code delta line up to its text is a third of it, an ACP chunk's three
// quarters), and the scan is most of what a delta costs.
//
// The zero Mark marks nothing. A Mark is of one Scanner's index: a scan
// of another message (Scan, ScanClean) ends it, a scan from it
// (ScanCleanFrom) keeps it.
type Mark struct {
	s      *Scanner
	gen    uint64  // the scan it is of (Scanner.gen)
	cur    int32   // the member whose value starts at len(prefix)
	depth  int     // the deepest nesting before it
	prefix []byte  // the message before it
	stack  []frame // the containers it is in
	// vary is the text of a string value in prefix, from and to, that
	// may differ in the next message (MarkVarying); empty for none.
	vary [2]int32
	// The rest of the message after the marked string (its tail), as of
	// scan tailGen, with its members and the ends of the containers the
	// string is in, offsets from the string's end, and the message's
	// deepest nesting: a message with the same rest after its text (a
	// delta line's ids and closing braces) is indexed from them instead
	// of scanned to its end.
	tail    []byte
	tailIdx []member
	encl    []enclosing
	whole   int
	tailGen uint64
	// varied is 1 + the index in tailIdx of the value that differed in
	// the last message whose rest did, 0 for none: the next message's is
	// checked there first (a uuid differs in every delta line).
	varied int
}

// enclosing is a container a marked string is in: its member, and its
// end and skip in the marked message (the end from the string's).
type enclosing struct {
	owner, end, skip int32
}

// Mark sets m to the start of v, a string value of the last scanned
// message, and reports whether it did. It marks only a message that is
// valid, compact and all ASCII without surrogate escapes (the common
// message, and one whose flags before the mark are known: none); for
// another, or a v that is not such a value, m marks nothing.
func (s *Scanner) Mark(m *Mark, v Value) bool {
	if v.s != s || v.i < 0 || !s.valid || s.big || s.spaced || s.surr || s.high&highs != 0 {
		m.s = nil
		return false
	}
	cur := v.i
	if s.members[cur].kind != '"' {
		m.s = nil
		return false
	}
	if m.s == s && m.gen == s.gen && m.cur == int32(cur) {
		// Scanned from this mark: the same place, before it the same
		// bytes; after it maybe not.
		if m.tailGen != s.gen {
			s.markTail(m)
		}
		return true
	}
	at := int(s.members[cur].valStart)
	// The containers open at the value, and the deepest nesting before
	// it: the top level, then the members before it that hold members
	// (an empty container is not nested into by the scan).
	stack := append(m.stack[:0], frame{obj: s.src[s.start] == '{', owner: -1})
	depth := 1
	for j := 0; j < cur; j++ {
		for len(stack) > 1 && int(s.members[stack[len(stack)-1].owner].skip) <= j {
			stack = stack[:len(stack)-1]
		}
		if k := s.members[j].kind; (k == '{' || k == '[') && int(s.members[j].skip) > j+1 {
			stack = append(stack, frame{obj: k == '{', owner: int32(j)})
			depth = max(depth, len(stack))
		}
	}
	for len(stack) > 1 && int(s.members[stack[len(stack)-1].owner].skip) <= cur {
		stack = stack[:len(stack)-1]
	}
	*m = Mark{s: s, gen: s.gen, cur: int32(cur), depth: depth, prefix: append(m.prefix[:0], s.src[:at]...), stack: stack,
		tail: m.tail, tailIdx: m.tailIdx, encl: m.encl}
	s.markTail(m)
	return true
}

// markTail records in m the rest of the last scanned message after the
// marked string, and its index (see Mark.tail).
func (s *Scanner) markTail(m *Mark) {
	cur := int(m.cur)
	end := s.members[cur].valEnd
	m.tail = append(m.tail[:0], s.src[end:]...)
	m.tailIdx = m.tailIdx[:0]
	for _, x := range s.members[cur+1:] {
		x.valStart -= end
		x.valEnd -= end
		if x.keyStart >= 0 {
			x.keyStart -= end
			x.keyEnd -= end
		}
		m.tailIdx = append(m.tailIdx, x)
	}
	m.encl = m.encl[:0]
	for _, f := range m.stack {
		if f.owner >= 0 {
			o := &s.members[f.owner]
			m.encl = append(m.encl, enclosing{owner: f.owner, end: o.valEnd - end, skip: o.skip})
		}
	}
	m.whole = s.depth
	m.tailGen = s.gen
	m.varied = 0
}

// sameTail reports whether rest, what follows the marked string in a
// message, is the marked message's rest, or differs from it only within
// one value, where what differs would be indexed and flagged the same:
// the text of a string without escapes, now plain ASCII without quotes
// or backslashes (an event's id), or digits after the first of an
// integer (a timestamp).
func (m *Mark) sameTail(rest []byte) bool {
	if len(rest) != len(m.tail) {
		return false
	}
	if m.varied > 0 {
		// The text or digits of the value that differed last time.
		x := &m.tailIdx[m.varied-1]
		from, to := int(x.valStart)+1, int(x.valEnd)
		if x.kind == '"' {
			to--
		}
		if string(rest[to:]) == string(m.tail[to:]) && string(rest[:from]) == string(m.tail[:from]) {
			if x.kind == '"' {
				return plain(rest[from:to])
			}
			return digits(rest[from:to])
		}
	}
	if string(rest) == string(m.tail) {
		return true
	}
	p := firstDiff(rest, m.tail)
	for k := range m.tailIdx {
		x := &m.tailIdx[k]
		from, to := int(x.valStart), int(x.valEnd)
		switch {
		case to <= p:
			continue // before p
		case from > p:
			return false // p is in a key or between values
		case x.kind == '{' || x.kind == '[':
			continue // p is in one of its members
		case x.kind == '"':
			to-- // the closing quote
			if p == from || p >= to || x.flags&valEscaped != 0 {
				return false
			}
			if !plain(rest[p:to]) {
				return false
			}
		case '1' <= x.kind && x.kind <= '9':
			if p == from || !digits(m.tail[from:to]) || !digits(rest[p:to]) {
				return false
			}
		default:
			return false
		}
		if string(rest[to:]) != string(m.tail[to:]) {
			return false
		}
		m.varied = k + 1
		return true
	}
	return false
}

// digits reports whether b is all decimal digits.
func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// MarkVarying is Mark, and lets the text of vary, a string value before
// v without escapes, differ in the next message, when it has the same
// length there and is plain ASCII without quotes or backslashes: an
// event id that changes with each event of a stream of deltas (OpenCode
// writes it first). Such text would be indexed, and flagged, the same.
func (s *Scanner) MarkVarying(m *Mark, v, vary Value) bool {
	if !s.Mark(m, v) {
		return false
	}
	m.vary = [2]int32{}
	if vary.s == s && vary.i >= 0 && vary.i < int(m.cur) {
		if c := &s.members[vary.i]; c.kind == '"' && c.flags&valEscaped == 0 && c.valEnd-c.valStart > 2 {
			m.vary = [2]int32{c.valStart + 1, c.valEnd - 1}
		}
	}
	return true
}

// begins reports whether msg begins with the marked prefix, but for
// the text that may vary, which must be plain there (see MarkVarying).
func (m *Mark) begins(msg []byte) bool {
	at := len(m.prefix)
	if len(msg) <= at {
		return false
	}
	from, to := int(m.vary[0]), int(m.vary[1])
	if from == to {
		return string(msg[:at]) == string(m.prefix)
	}
	if string(msg[:from]) != string(m.prefix[:from]) || string(msg[to:at]) != string(m.prefix[to:at]) {
		return false
	}
	return plain(msg[from:to])
}

// plain reports whether b is all ASCII without control characters,
// quotes or backslashes: string text that needs no escape. Eight bytes
// are tested at a time, as str tests them.
func plain(b []byte) bool {
	for len(b) >= 8 {
		v := binary.LittleEndian.Uint64(b)
		x := v ^ (ones * 0x02)
		e := v ^ (ones * '\\')
		if ((x-ones*0x21)&^x|(e-ones)&^e|v)&highs != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if stop[c] || c >= 0x80 {
			return false
		}
	}
	return true
}

// firstDiff returns the index of the first byte where a and b, of the
// same length and not equal, differ.
func firstDiff(a, b []byte) int {
	i := 0
	for ; i+8 <= len(a); i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for a[i] == b[i] {
		i++
	}
	return i
}

// ScanCleanFrom is ScanClean(msg), which it returns, scanning msg from m
// on when msg begins with the bytes m marks the end of, in the Scanner m
// is of: the index, the flags and the verdict are those ScanClean gives.
// m then marks the same place in msg.
func (s *Scanner) ScanCleanFrom(msg []byte, m *Mark) ([]byte, bool) {
	at := len(m.prefix)
	if m.s != s || m.gen != s.gen || len(msg) > math.MaxInt32 || !m.begins(msg) {
		return s.ScanClean(msg)
	}
	s.buf = msg
	s.src = unsafe.String(unsafe.SliceData(msg), len(msg))
	s.gen++
	m.gen = s.gen
	s.valid, s.big, s.high, s.surr, s.spaced, s.depth = false, false, 0, false, false, m.depth
	// The members before the value are the marked message's, at the same
	// offsets; the containers it is in are closed again by the scan, which
	// sets their ends.
	s.members = s.members[:m.cur+1]
	c := &s.members[m.cur]
	c.kind, c.flags, c.valEnd = msg[at], c.flags&^valEscaped, 0
	s.stack = append(s.stack[:0], m.stack...)
	ok := false
	if c.kind == '"' {
		// The string, then the rest: the marked message's again, its
		// index copied, or else scanned (the string again too: a scan
		// that could start after a value cost the common scan 3%).
		if j, esc, good := s.str(at + 1); good && m.sameTail(msg[j:]) {
			if esc {
				c.flags |= valEscaped
			}
			base := int32(j)
			c.valEnd = base
			for _, x := range m.tailIdx {
				x.valStart += base
				x.valEnd += base
				if x.keyStart >= 0 {
					x.keyStart += base
					x.keyEnd += base
				}
				s.members = append(s.members, x)
			}
			for _, e := range m.encl {
				o := &s.members[e.owner]
				o.valEnd, o.skip = base+e.end, e.skip
			}
			s.stack = s.stack[:0]
			s.depth, s.valid, ok = m.whole, true, true
			m.tailGen = s.gen
		}
	}
	if !ok {
		ok = s.run(at, m.cur)
	}
	if !ok {
		m.s = nil // what the scan left of the index is not kept
	}
	if !ok || s.surr || s.high&highs != 0 && !utf8.Valid(msg) {
		// As ScanClean: cleaned, and scanned again if that changed it.
		if cl := Clean(msg); len(cl) != len(msg) || len(cl) > 0 && &cl[0] != &msg[0] {
			msg, ok = cl, s.Scan(cl)
		}
	}
	s.utf8 = true
	return msg, ok
}
