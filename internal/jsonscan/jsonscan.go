// Package jsonscan validates a JSON message and indexes it in one pass,
// so that a translator reads the fields it needs without scanning the
// message again.
//
// A translator used to call gjson.Valid (one full pass) and then many
// gjson Get calls on the message, each scanning it from its start; a key
// the message does not have scanned all of it. A Scanner validates and,
// in the same pass, records every object member and array element: where
// its key and value are, and where its siblings are. A lookup is then a
// walk over the handful of members of one object, present or not, and a
// nested object or array is walked in the index too (Value.Sub,
// Value.Each). Only what the index cannot answer (gjson path syntax
// beyond plain keys, numeric paths into arrays) goes to gjson, on the
// value's bytes alone.
//
// Acceptance is exactly gjson.Valid's: the same inputs are accepted and
// refused (the RFC 8259 grammar, with the bytes inside strings not checked
// as UTF-8, as gjson does not check them). Values come back as the
// gjson.Result gjson returns for the same lookup, field for field (Str
// unescaped as gjson unescapes, Num, Index), so code can go on with gjson.
// A differential fuzz target and a rapid property check both against
// gjson.
//
// Example:
//
//	var s jsonscan.Scanner // reused: no allocation per message once warm
//	if !s.Scan(line) {
//		return errNotJSON // exactly when !gjson.ValidBytes(line)
//	}
//	top := s.Root()
//	if !top.IsObject() {
//		return errNotObject
//	}
//	typ := top.Get("type").Str          // from the index: no scan
//	text := top.Get("event.delta.text") // nested objects too
//	_ = top.Get("no_such_key")          // a walk over the top-level members
//	top.Sub("message").Sub("content").Each(func(_ gjson.Result, block jsonscan.Value) bool {
//		_ = block.Get("type").Str // each block is indexed as well
//		return true
//	})
//
// Results alias the scanned bytes: they are valid while the bytes are, and
// Values until the Scanner's next Scan.
package jsonscan

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
)

// member is one recorded value inside a container: an object member (its
// key and value) or an array element (no key). Members are recorded in
// the order their values start, so a container's members follow it
// directly; skip is the index after a member's own members, that is its
// next sibling's (if it has one). Offsets are int32 to keep the index
// small; a message of 2 GiB or more is not indexed (see Scan).
type member struct {
	keyStart, keyEnd int32 // an object member's key without its quotes (-1: an array element)
	valStart, valEnd int32 // the value's bytes
	skip             int32 // the index after this member and its members
	kind             byte  // the value's first byte
	flags            byte
}

// maxKeep is the most members (24 bytes each) or frames a Scanner keeps
// between messages.
const maxKeep = 1 << 16

const (
	keyEscaped = 1 << iota // the key has a backslash escape
	valEscaped             // the (string) value has a backslash escape
)

// frame is an open container during the scan.
type frame struct {
	obj   bool
	owner int32 // the member whose value the container is, or -1 for the top level
}

// A Scanner validates JSON messages and indexes them. The zero value is
// ready; reuse one across messages so that its buffers are reused. It is
// not safe for concurrent use.
type Scanner struct {
	src     string
	buf     []byte // src as bytes, for word loads
	members []member
	stack   []frame
	start   int // offset of the top-level value
	valid   bool
	big     bool   // not indexed: every lookup goes to gjson
	high    uint64 // the bytes of strings (and some others) ORed: bit 7 set if any is not ASCII
	surr    bool   // a \u escape of a surrogate (D800–DFFF) was seen
	spaced  bool   // whitespace between tokens was seen
	depth   int    // the deepest nesting of containers
	utf8    bool   // the message is known to be valid UTF-8 (see CleanRaw)
	scratch []byte // unescaped keys, compared on lookup
	gen     uint64 // counts the scans: a Mark is of the index of one
}

// Scan validates msg and indexes it, and reports whether it is valid JSON
// (exactly gjson.ValidBytes(msg)). The index and the values read from it
// alias msg.
func (s *Scanner) Scan(msg []byte) bool {
	s.buf = msg
	s.src = unsafe.String(unsafe.SliceData(msg), len(msg))
	ok := s.scan()
	s.utf8 = !s.NonASCII()
	return ok
}

// ScanClean scans msg as Clean (universal.CleanInput) returns it (every translator
// reads its messages so) and returns those bytes with Scan's verdict.
// CleanInput returns msg itself when it is valid UTF-8 without surrogate
// escapes, so the scan tells when it must be asked (a byte that is not
// ASCII, a surrogate escape, or not JSON at all), and the message is
// scanned again only when cleaning changed it.
func (s *Scanner) ScanClean(msg []byte) ([]byte, bool) {
	return s.Cleaned(msg, s.Scan(msg))
}

// Cleaned returns what ScanClean(msg) returns when msg was just scanned
// (Scan) with verdict ok: a caller that needed Scan's verdict first (the
// answer gjson.ValidBytes gives) goes on without scanning msg again.
func (s *Scanner) Cleaned(msg []byte, ok bool) ([]byte, bool) {
	if !ok || s.SurrogateEscapes() || s.NonASCII() && !utf8.Valid(msg) {
		if c := Clean(msg); len(c) != len(msg) || len(c) > 0 && &c[0] != &msg[0] {
			msg, ok = c, s.Scan(c)
		}
	}
	s.utf8 = true // as Clean returns it
	return msg, ok
}

// ScanString is Scan for a string.
func (s *Scanner) ScanString(msg string) bool {
	s.src = msg
	s.buf = unsafe.Slice(unsafe.StringData(msg), len(msg)) // only read
	ok := s.scan()
	s.utf8 = !s.NonASCII()
	return ok
}

// Valid reports whether the last scanned message is valid JSON.
func (s *Scanner) Valid() bool { return s.valid }

// NonASCII reports whether the last scanned message, valid JSON, may have
// bytes that are not ASCII (false: it has none), so that a caller that
// needs valid UTF-8 checks only messages that may not be.
func (s *Scanner) NonASCII() bool { return s.big || s.high&highs != 0 }

// Compact reports whether the last scanned message, valid JSON, has no
// whitespace between its tokens (before and after its top-level value
// aside): every value's raw bytes are then compact JSON.
func (s *Scanner) Compact() bool { return !s.big && !s.spaced }

// Depth returns the deepest nesting of objects and arrays in the last
// scanned message, valid JSON (0 for a message that is a scalar).
func (s *Scanner) Depth() int {
	if s.big {
		return math.MaxInt
	}
	return s.depth
}

// SurrogateEscapes reports whether the last scanned message, valid JSON,
// has a \u escape of a UTF-16 surrogate (\uD800–\uDFFF, paired or not).
func (s *Scanner) SurrogateEscapes() bool { return s.big || s.surr }

// Root returns the top-level value of the last scanned message, absent if
// the message is not valid JSON. If it is an object (IsObject), it is
// indexed.
func (s *Scanner) Root() Value {
	switch {
	case !s.valid:
		return Value{}
	case s.big:
		return found(gjson.Parse(s.src))
	}
	return Value{s: s, i: -1}
}

// ws reports JSON whitespace (what gjson.Valid skips).
var ws = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func skipWS(src string, i int) int {
	for i < len(src) && ws[src[i]] {
		i++
	}
	return i
}

// skip skips whitespace between tokens, noting that there was some. A
// compact message has none: the byte at i is checked first, inline, and
// only whitespace goes on to the loop.
func (s *Scanner) skip(i int) int {
	if i < len(s.src) && s.src[i] > ' ' {
		return i
	}
	j := skipWS(s.src, i)
	if j != i {
		s.spaced = true
	}
	return j
}

// index is the memory of a scanner's index, which Release lends to the
// next scanner that starts.
type index struct {
	members []member
	stack   []frame
	scratch []byte
}

// released holds the indexes of released scanners.
var released sync.Pool

// Release gives the memory of the scanner's index to the next scanner that
// starts, once nothing read from this one is used any more: a translator
// whose input has ended. Translators are made one per session and most
// sessions are short, so each would otherwise grow an index of its own to
// the size of its messages. A released scanner scans again as a new one
// does; values and marks of its last scan are no longer valid.
func (s *Scanner) Release() {
	// An index grown past what a scanner keeps (maxKeep) is not lent.
	if s.members != nil && cap(s.members) <= maxKeep && cap(s.stack) <= maxKeep {
		released.Put(&index{s.members[:0], s.stack[:0], s.scratch[:0]})
	}
	gen := s.gen + 1 // no mark of the last scan matches
	*s = Scanner{gen: gen}
}

func (s *Scanner) scan() bool {
	s.gen++
	s.valid, s.high, s.surr, s.spaced, s.depth = false, 0, false, false, 0
	// A huge message grows the index; a long session should not keep
	// that for good (the next huge one grows it again, at its own cost).
	if cap(s.members) > maxKeep {
		s.members = nil
	}
	if cap(s.stack) > maxKeep {
		s.stack = nil
	}
	if s.members == nil {
		if ix, ok := released.Get().(*index); ok {
			s.members, s.stack, s.scratch = ix.members, ix.stack, ix.scratch
		} else {
			// A first size that holds nine messages in ten of the
			// recorded ones (a Claude Code line has about 24 members, 48
			// at the 90th percentile): growing from nothing would take
			// about six allocations on the first one.
			s.members = make([]member, 0, 64)
			s.stack = make([]frame, 0, 8)
		}
	}
	s.members = s.members[:0]
	s.stack = s.stack[:0]
	src := s.src
	n := len(src)
	if s.big = n > math.MaxInt32; s.big {
		// Offsets would not fit the index: validate only (rare enough
		// not to matter), and let lookups scan.
		s.valid = gjson.Valid(src)
		return s.valid
	}
	i := skipWS(src, 0) // leading whitespace: not between tokens
	if i >= n {
		return false
	}
	s.start = i
	return s.run(i, -1)
}

// run is scan's pass from a value that starts at s.src[i] (i < len), the
// value of member cur (-1: the top level), with the containers it is in
// on s.stack and the members before it in s.members.
func (s *Scanner) run(i int, cur int32) bool {
	src := s.src
	n := len(src)
	var ok, esc bool
value:
	// A value starts at src[i] (i < n).
	switch c := src[i]; c {
	case '{':
		i = s.skip(i + 1)
		if i >= n {
			return false
		}
		if src[i] == '}' {
			i++
			goto done
		}
		if src[i] != '"' {
			return false
		}
		s.stack = append(s.stack, frame{obj: true, owner: cur})
		s.depth = max(s.depth, len(s.stack))
		goto key
	case '[':
		i = s.skip(i + 1)
		if i >= n {
			return false
		}
		if src[i] == ']' {
			i++
			goto done
		}
		s.stack = append(s.stack, frame{owner: cur})
		s.depth = max(s.depth, len(s.stack))
		goto elem
	case '"':
		if i, esc, ok = s.str(i + 1); !ok {
			return false
		}
		if esc && cur >= 0 {
			s.members[cur].flags |= valEscaped
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if i, ok = number(src, i); !ok {
			return false
		}
	case 't':
		if i+4 > n || src[i+1] != 'r' || src[i+2] != 'u' || src[i+3] != 'e' {
			return false
		}
		i += 4
	case 'f':
		if i+5 > n || src[i+1] != 'a' || src[i+2] != 'l' || src[i+3] != 's' || src[i+4] != 'e' {
			return false
		}
		i += 5
	case 'n':
		if i+4 > n || src[i+1] != 'u' || src[i+2] != 'l' || src[i+3] != 'l' {
			return false
		}
		i += 4
	default:
		return false
	}
done:
	// A value ended just before src[i].
	if cur >= 0 {
		s.members[cur].valEnd = int32(i)
	}
	if len(s.stack) == 0 {
		if skipWS(src, i) != n { // trailing whitespace: not between tokens
			return false
		}
		s.valid = true
		return true
	}
	i = s.skip(i)
	if i >= n {
		return false
	}
	{
		f := s.stack[len(s.stack)-1]
		switch src[i] {
		case ',':
			i = s.skip(i + 1)
			if i >= n {
				return false
			}
			if !f.obj {
				goto elem
			}
			if src[i] != '"' {
				return false
			}
			goto key
		case '}', ']':
			if (src[i] == '}') != f.obj {
				return false
			}
			i++
			cur = f.owner
			if cur >= 0 {
				s.members[cur].skip = int32(len(s.members))
			}
			s.stack = s.stack[:len(s.stack)-1]
			goto done
		}
		return false
	}
elem:
	// An array element starts at src[i] (i < n).
	// (The fields are stored into the index one by one, here and for a
	// key below: a member built whole and then copied in was stored as
	// small words and loaded back as wide ones, a store-forwarding stall
	// on every member.)
	cur = int32(len(s.members))
	if len(s.members) == cap(s.members) {
		s.members = slices.Grow(s.members, 1)
	}
	s.members = s.members[:cur+1]
	{
		m := &s.members[cur]
		m.keyStart, m.keyEnd, m.valStart, m.valEnd, m.skip, m.kind, m.flags = -1, -1, int32(i), 0, cur+1, src[i], 0
	}
	goto value
key:
	// A member's key starts at src[i] == '"'.
	{
		ks := i + 1
		if i, esc, ok = s.str(ks); !ok {
			return false
		}
		ke := i - 1
		i = s.skip(i)
		if i >= n || src[i] != ':' {
			return false
		}
		i = s.skip(i + 1)
		if i >= n {
			return false
		}
		var flags byte
		if esc {
			flags = keyEscaped
		}
		cur = int32(len(s.members))
		if len(s.members) == cap(s.members) {
			s.members = slices.Grow(s.members, 1)
		}
		s.members = s.members[:cur+1]
		m := &s.members[cur]
		m.keyStart, m.keyEnd, m.valStart, m.valEnd, m.skip, m.kind, m.flags = int32(ks), int32(ke), int32(i), 0, cur+1, src[i], flags
		goto value
	}
}

// stop marks the bytes that end the fast run inside a string: the quote,
// the backslash and the control characters gjson.Valid refuses.
var stop = func() (t [256]bool) {
	for c := 0; c < ' '; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// simple marks the bytes that make a two-byte escape after a backslash.
var simple = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

var hex = func() (t [256]bool) {
	for _, c := range "0123456789abcdefABCDEF" {
		t[c] = true
	}
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// str reads a string whose contents start at i, up to and including its
// closing quote: the position after it, whether it has escapes, and
// whether it is valid. Text runs are skipped a word at a time: a word
// with no quote, backslash or control character (most of a message's
// bytes are such text) costs a few operations for eight bytes. A word
// that has some is read through, its flagged bytes one by one, and the
// next word is at the next eight bytes whatever they were: command output
// has an escape every few bytes, and a loop that resumed at the byte
// after each escape made every escape wait for the load and the tests
// that found it.
func (s *Scanner) str(i int) (int, bool, bool) {
	src, buf := s.src, s.buf
	n := len(src)
	esc := false
	// Every word and byte read, ORed, for NonASCII. A word may run past
	// the string's end into bytes read again later: harmless (a byte not
	// ASCII outside a string makes the message invalid).
	var high uint64
	ok := false
	for i+8 <= n {
		v := binary.LittleEndian.Uint64(buf[i : i+8])
		high |= v
		// A byte is flagged if below 0x20, or equal to '"' or '\\'
		// (the classic has-less-than and has-zero-byte tests). With bit
		// 1 flipped, the bytes below 0x20 stay below it and the quote
		// (0x22) becomes 0x20, while no other byte goes below 0x21: one
		// test flags both. A borrow only carries upwards from a flagged
		// byte, so the lowest flagged byte is exact, and one above it
		// may not be: each is checked against the byte itself.
		x := v ^ (ones * 0x02)
		b := v ^ (ones * '\\')
		m := ((x - ones*0x21) & ^x) | ((b - ones) & ^b)
		m &= highs
	flagged:
		for m != 0 {
			z := bits.TrailingZeros64(m)
			switch c := byte(v >> (z &^ 7)); {
			case c == '"':
				i += z>>3 + 1
				ok = true
				goto out
			case c == '\\':
				esc = true
				p := i + z>>3
				if p+1 >= n {
					i = p
					goto out
				}
				e := p + 2
				if !simple[src[p+1]] {
					if src[p+1] != 'u' || p+6 > n || !hex[src[p+2]] || !hex[src[p+3]] || !hex[src[p+4]] || !hex[src[p+5]] {
						i = p
						goto out
					}
					if src[p+2]|0x20 == 'd' && surrogate3[src[p+3]] {
						s.surr = true
					}
					e = p + 6
				}
				// The bytes up to e are the escape's (an escaped quote
				// or backslash is flagged too). One that runs past the
				// word's end makes the next word start after it.
				d := uint(e-i) * 8
				if d >= 64 {
					i = e - 8
					break flagged
				}
				m &= ^uint64(0) << (d & 63)
			case c < 0x20:
				i += z >> 3
				goto out
			default:
				m &= m - 1 // flagged by a borrow
			}
		}
		i += 8
	}
	for i < n {
		c := src[i]
		if !stop[c] {
			high |= uint64(c)
			i++
			continue
		}
		switch c {
		case '"':
			i++
			ok = true
			goto out
		case '\\':
			esc = true
			e, good := escape(src, i)
			if !good {
				goto out
			}
			if e == i+6 && src[i+2]|0x20 == 'd' && surrogate3[src[i+3]] {
				s.surr = true
			}
			i = e
		default:
			goto out // a control character
		}
	}
out:
	s.high |= high
	return i, esc, ok
}

// escape checks the escape at src[i] == '\\' and returns the position
// after it.
func escape(src string, i int) (int, bool) {
	if i+1 >= len(src) {
		return i, false
	}
	switch src[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, true
	case 'u':
		if i+6 > len(src) || !hex[src[i+2]] || !hex[src[i+3]] || !hex[src[i+4]] || !hex[src[i+5]] {
			return i, false
		}
		return i + 6, true
	}
	return i, false
}

// surrogate3 marks the third hex digit of a surrogate escape, \uD800–\uDFFF.
var surrogate3 = func() (t [256]bool) {
	for _, c := range "89abcdefABCDEF" {
		t[c] = true
	}
	return t
}()

// number reads a number starting at src[i] ('-' or a digit): the position
// after it, and whether it is well formed. What follows it is checked by
// the caller, as gjson.Valid does.
func number(src string, i int) (int, bool) {
	n := len(src)
	if src[i] == '-' {
		i++
		if i >= n || src[i] < '0' || src[i] > '9' {
			return i, false
		}
	}
	if src[i] == '0' {
		i++
	} else {
		for i < n && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	if i < n && src[i] == '.' {
		i++
		if i >= n || src[i] < '0' || src[i] > '9' {
			return i, false
		}
		for i < n && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	if i < n && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < n && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= n || src[i] < '0' || src[i] > '9' {
			return i, false
		}
		for i < n && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	return i, true
}
