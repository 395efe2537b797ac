package jsonw

import "unicode/utf8"

// MaxDepth bounds the nesting of values that AppendValue accepts.
const MaxDepth = 10000

// AppendValue appends the single JSON value in src in compact form, with
// invalid UTF-8 inside strings replaced by \ufffd. Escapes, numbers and key
// order are kept as written. If src is not one valid JSON value (surrounding
// whitespace allowed), dst is returned unchanged and ok is false.
func AppendValue[T ~string | ~[]byte](dst []byte, src T) (out []byte, ok bool) {
	s := scanner[T]{src: src}
	n := len(dst)
	dst, ok = s.value(dst, 0)
	if !ok {
		return dst[:n], false
	}
	s.space()
	if s.i != len(s.src) {
		return dst[:n], false
	}
	return dst, true
}

// AppendRaw appends src as a JSON value: compacted and cleaned by
// AppendValue when it is valid JSON, null when it is empty, and otherwise
// as a JSON string holding the bytes, so that nothing is lost and the
// output stays valid.
func AppendRaw[T ~string | ~[]byte](dst []byte, src T) []byte {
	if len(src) == 0 {
		return append(dst, "null"...)
	}
	if out, ok := AppendValue(dst, src); ok {
		return out
	}
	return AppendString(dst, src)
}

// Compact returns JSON text as AppendRaw writes it: src itself when it is
// clean already (see Clean), else a compacted copy; "" for "". Tool
// arguments given as JSON text read the same however their line was
// spaced.
func Compact(src string) string {
	if src == "" || Clean(src) {
		return src
	}
	return string(AppendRaw(nil, src))
}

// Valid reports whether src is one JSON value.
func Valid[T ~string | ~[]byte](src T) bool {
	s := scanner[T]{src: src, check: true}
	if _, ok := s.value(nil, 0); !ok {
		return false
	}
	s.space()
	return s.i == len(s.src)
}

// Clean reports whether src is already what AppendRaw would write for it:
// valid, compact JSON with valid UTF-8. Such input can be copied verbatim.
func Clean[T ~string | ~[]byte](src T) bool {
	if len(src) == 0 {
		return false
	}
	s := scanner[T]{src: src, check: true, strict: true}
	_, ok := s.value(nil, 0)
	return ok && s.i == len(s.src) && !s.dirty
}

// Check reports, in one scan, what Valid and Clean report.
func Check[T ~string | ~[]byte](src T) (valid, clean bool) {
	if len(src) == 0 {
		return false, false
	}
	s := scanner[T]{src: src, check: true, strict: true}
	if _, ok := s.value(nil, 0); !ok {
		return false, false
	}
	end := s.i == len(s.src)
	s.space()
	if s.i != len(s.src) {
		return false, false
	}
	return true, end && !s.dirty
}

// Canonical reports whether src is clean (see Clean) and also has none of
// the escapes encoding/json adds for HTML: \u003c, \u003e, \u0026,
// \u2028 and \u2029 (any case). Such input is its own canonical form: what
// a snapshot that went through json.Marshal and back restores to. One
// scan decides both.
func Canonical[T ~string | ~[]byte](src T) bool {
	if len(src) == 0 {
		return false
	}
	s := scanner[T]{src: src, check: true, strict: true, html: true}
	_, ok := s.value(nil, 0)
	return ok && s.i == len(s.src) && !s.dirty
}

// scanner is a recursive-descent JSON reader. With check set it only
// validates; with strict set it also notes (in dirty) anything AppendValue
// would change: whitespace or invalid UTF-8.
type scanner[T ~string | ~[]byte] struct {
	src    T
	i      int
	check  bool
	strict bool
	html   bool // with strict: an HTML escape (see Canonical) is dirty too
	dirty  bool
}

func (s *scanner[T]) space() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
			s.dirty = true
		default:
			return
		}
	}
}

func (s *scanner[T]) emit(dst []byte, b ...byte) []byte {
	if s.check {
		return dst
	}
	return append(dst, b...)
}

func (s *scanner[T]) value(dst []byte, depth int) ([]byte, bool) {
	if depth > MaxDepth {
		return dst, false
	}
	s.space()
	if s.i >= len(s.src) {
		return dst, false
	}
	switch c := s.src[s.i]; {
	case c == '{':
		return s.object(dst, depth)
	case c == '[':
		return s.array(dst, depth)
	case c == '"':
		return s.str(dst)
	case c == 't':
		return s.literal(dst, "true")
	case c == 'f':
		return s.literal(dst, "false")
	case c == 'n':
		return s.literal(dst, "null")
	case c == '-' || ('0' <= c && c <= '9'):
		return s.number(dst)
	}
	return dst, false
}

func (s *scanner[T]) object(dst []byte, depth int) ([]byte, bool) {
	s.i++
	dst = s.emit(dst, '{')
	s.space()
	if s.i < len(s.src) && s.src[s.i] == '}' {
		s.i++
		return s.emit(dst, '}'), true
	}
	for {
		s.space()
		if s.i >= len(s.src) || s.src[s.i] != '"' {
			return dst, false
		}
		var ok bool
		if dst, ok = s.str(dst); !ok {
			return dst, false
		}
		s.space()
		if s.i >= len(s.src) || s.src[s.i] != ':' {
			return dst, false
		}
		s.i++
		dst = s.emit(dst, ':')
		if dst, ok = s.value(dst, depth+1); !ok {
			return dst, false
		}
		s.space()
		if s.i >= len(s.src) {
			return dst, false
		}
		switch s.src[s.i] {
		case ',':
			s.i++
			dst = s.emit(dst, ',')
		case '}':
			s.i++
			return s.emit(dst, '}'), true
		default:
			return dst, false
		}
	}
}

func (s *scanner[T]) array(dst []byte, depth int) ([]byte, bool) {
	s.i++
	dst = s.emit(dst, '[')
	s.space()
	if s.i < len(s.src) && s.src[s.i] == ']' {
		s.i++
		return s.emit(dst, ']'), true
	}
	for {
		var ok bool
		if dst, ok = s.value(dst, depth+1); !ok {
			return dst, false
		}
		s.space()
		if s.i >= len(s.src) {
			return dst, false
		}
		switch s.src[s.i] {
		case ',':
			s.i++
			dst = s.emit(dst, ',')
		case ']':
			s.i++
			return s.emit(dst, ']'), true
		default:
			return dst, false
		}
	}
}

func (s *scanner[T]) literal(dst []byte, lit string) ([]byte, bool) {
	if len(s.src)-s.i < len(lit) || string(s.src[s.i:s.i+len(lit)]) != lit {
		return dst, false
	}
	s.i += len(lit)
	if !s.check {
		dst = append(dst, lit...)
	}
	return dst, true
}

func (s *scanner[T]) digits() int {
	n := 0
	for s.i < len(s.src) && '0' <= s.src[s.i] && s.src[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

func (s *scanner[T]) number(dst []byte) ([]byte, bool) {
	start := s.i
	if s.src[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.src) && s.src[s.i] == '0' {
		s.i++
	} else if s.digits() == 0 {
		return dst, false
	}
	if s.i < len(s.src) && s.src[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return dst, false
		}
	}
	if s.i < len(s.src) && (s.src[s.i] == 'e' || s.src[s.i] == 'E') {
		s.i++
		if s.i < len(s.src) && (s.src[s.i] == '+' || s.src[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return dst, false
		}
	}
	if !s.check {
		dst = append(dst, s.src[start:s.i]...)
	}
	return dst, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// str copies a string token, validating escapes and replacing invalid UTF-8.
func (s *scanner[T]) str(dst []byte) ([]byte, bool) {
	s.i++ // opening quote
	dst = s.emit(dst, '"')
	start := s.i
	flush := func(dst []byte) []byte {
		if !s.check {
			dst = append(dst, s.src[start:s.i]...)
		}
		return dst
	}
	for s.i < len(s.src) {
		if s.i = plainRun(s.src, s.i); s.i >= len(s.src) {
			break
		}
		c := s.src[s.i]
		switch {
		case c == '"':
			dst = flush(dst)
			s.i++
			return s.emit(dst, '"'), true
		case c == '\\':
			if s.i+1 >= len(s.src) {
				return dst, false
			}
			switch s.src[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.src) || !isHex(s.src[s.i+2]) || !isHex(s.src[s.i+3]) || !isHex(s.src[s.i+4]) || !isHex(s.src[s.i+5]) {
					return dst, false
				}
				if s.html && htmlEscape(s.src[s.i+2], s.src[s.i+3], s.src[s.i+4], s.src[s.i+5]) {
					s.dirty = true
				}
				s.i += 6
			default:
				return dst, false
			}
		case c < 0x20:
			return dst, false
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := decodeRune(s.src[s.i:])
			if r == utf8.RuneError && size == 1 {
				s.dirty = true
				dst = flush(dst)
				if !s.check {
					dst = append(dst, `\ufffd`...)
				}
				s.i++
				start = s.i
				continue
			}
			s.i += size
		}
	}
	return dst, false
}

// htmlEscape reports whether the hex digits of a \u escape are one of the
// escapes encoding/json writes for HTML: 003c, 003e, 0026, 2028, 2029.
func htmlEscape(a, b, c, d byte) bool {
	c, d = c|0x20, d|0x20 // lower case; digits are unchanged by it
	switch {
	case a == '0' && b == '0':
		return c == '3' && (d == 'c' || d == 'e') || c == '2' && d == '6'
	case a == '2' && b == '0':
		return c == '2' && (d == '8' || d == '9')
	}
	return false
}
