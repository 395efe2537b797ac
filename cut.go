package agentnorm

import (
	"bytes"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// detectCut tells the format of a head whose last line is a JSON value
// the head cuts short: a first line longer than what detection reads (a
// transcript that opens with a pasted image or a long prompt, a session
// header holding long instructions). The value is closed where it was cut
// (closeCut) and detected as if it had been written whole. "" when it
// does not tell. DetectReader uses it only when its buffer is full, for a
// line longer than the buffer: a head cut anywhere else, a few bytes into
// a line, can drop the members whose absence a detector reads (a Pi
// session header cut before its version reads as a v1 session file's).
func (a Agent) detectCut(head []byte) string {
	i := bytes.LastIndexByte(head, '\n')
	last := bytes.TrimSpace(head[i+1:])
	if len(last) == 0 || last[0] != '{' && last[0] != '[' || gjson.ValidBytes(last) {
		return ""
	}
	closed := closeCut(last)
	if closed == nil {
		return ""
	}
	in := append(append(append(make([]byte, 0, i+1+len(closed)+1), head[:i+1]...), closed...), '\n')
	return a.detect(in)
}

// detectCutHead is detectCut for a full buffer's head, as Detect reads a
// head: its lines, or the values they join into when it is JSON printed
// for people (see joinPretty), for a format read a line at a time.
func (a Agent) detectCutHead(head []byte) (universal.Format, bool) {
	if name := a.detectCut(head); name != "" {
		f, err := a.Format(name)
		return f, err == nil
	}
	if lines := joinPretty(head); lines != nil {
		if f, ok := a.lineFormat(a.detectCut(bytes.TrimSuffix(lines, []byte{'\n'}))); ok {
			return f, true
		}
	}
	return universal.Format{}, false
}

// closeCut returns the JSON value that cut, a value cut short, begins
// closed: the members and elements that are whole before the cut are
// kept, a string value the cut is in is ended there (without an escape
// the cut splits), what is left of a key, a number or a literal is
// dropped, and the open objects and arrays are closed. nil when cut is
// not the start of a JSON value (it is then no JSON cut short, but noise).
// One pass, whatever the nesting: between the last whole value and the
// cut no object or array opens or closes, so the ones open at the cut
// are those to close.
func closeCut(cut []byte) []byte {
	var (
		stack  []byte // '}' or ']' for each open object or array
		safe   int    // cut[:safe] closes into a valid value
		key    bool   // the next string of the open object is a key
		inStr  bool
		isKey  bool // the string read is a key
		escAt  = -1 // where the escape the cut may split starts
		scalar bool // inside a number or a literal
	)
	for i := 0; i < len(cut); i++ {
		c := cut[i]
		if inStr {
			switch {
			case escAt >= 0:
				if cut[escAt+1] != 'u' || i-escAt == 5 {
					escAt = -1
				}
			case c == '\\':
				escAt = i
			case c == '"':
				inStr = false
				if !isKey {
					safe = i + 1
				}
			}
			continue
		}
		if scalar {
			if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '.' || c == '-' || c == '+' || c == 'E' {
				continue
			}
			scalar = false
			safe = i
		}
		switch c {
		case ' ', '\t', '\r', '\n', ':':
		case '{', '[':
			if c == '{' {
				stack = append(stack, '}')
			} else {
				stack = append(stack, ']')
			}
			key = c == '{'
			safe = i + 1
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return nil
			}
			stack = stack[:len(stack)-1]
			key = false
			safe = i + 1
		case ',':
			key = len(stack) > 0 && stack[len(stack)-1] == '}'
		case '"':
			inStr, isKey = true, key
			key = false
		default:
			scalar = true
		}
		if len(stack) == 0 && safe > 0 && i > 0 {
			return nil // a whole value: not cut short
		}
	}
	if len(stack) == 0 {
		return nil
	}
	out := cut[:safe:safe]
	if inStr && !isKey {
		end := len(cut)
		if escAt >= 0 {
			end = escAt
		}
		out = append(cut[:end:end], '"')
	}
	for i := len(stack) - 1; i >= 0; i-- {
		out = append(out, stack[i])
	}
	if !gjson.ValidBytes(out) {
		return nil
	}
	return out
}
