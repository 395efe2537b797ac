package jsonscan

import (
	"math"
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
		return true // scanned from this mark: the same place, before it the same bytes
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
	*m = Mark{s: s, gen: s.gen, cur: int32(cur), depth: depth, prefix: append(m.prefix[:0], s.src[:at]...), stack: stack}
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
	for _, c := range msg[from:to] {
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
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
	ok := s.run(at, m.cur)
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
