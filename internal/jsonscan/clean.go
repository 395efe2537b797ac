package jsonscan

import (
	"bytes"
	"unicode/utf8"
)

// Clean returns msg itself when it is valid UTF-8 with no escaped
// surrogate, else a copy in which each invalid UTF-8 sequence is replaced
// by U+FFFD and each \u escape of a surrogate that is not half of a
// well-formed pair by \ufffd. It is universal.CleanInput (see there why),
// here so that both universal's readers and the translators' scans use
// it without an import cycle.
func Clean(b []byte) []byte {
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	if i := nextSurrogateEscape(b, 0); i >= 0 {
		return cleanSurrogates(b, i)
	}
	return b
}

// nextSurrogateEscape returns the index of the backslash of the first
// escape \uD800–\uDFFF at or after from (in either case), or -1. A
// backslash that is itself escaped ("\\ud800", text) does not count.
func nextSurrogateEscape(b []byte, from int) int {
	for from < len(b) {
		j := bytes.Index(b[from:], []byte(`\u`))
		if j < 0 {
			return -1
		}
		i := from + j
		from = i + 2
		if i+5 < len(b) && (b[i+2] == 'd' || b[i+2] == 'D') && isSurrogateDigit(b[i+3]) && isHex(b[i+4]) && isHex(b[i+5]) && escapes(b, i) {
			return i
		}
	}
	return -1
}

// escapes reports whether the backslash at b[i] starts an escape: an even
// number of backslashes precede it.
func escapes(b []byte, i int) bool {
	n := 0
	for i-1-n >= 0 && b[i-1-n] == '\\' {
		n++
	}
	return n%2 == 0
}

// isSurrogateDigit reports whether c is the third hex digit of a
// surrogate, \uD8xx–\uDFxx.
func isSurrogateDigit(c byte) bool {
	return ('8' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// isHigh reports whether the surrogate escape at b[i] is a high
// (leading) one, \uD800–\uDBFF.
func isHigh(b []byte, i int) bool {
	switch b[i+3] {
	case '8', '9', 'a', 'b', 'A', 'B':
		return true
	}
	return false
}

// cleanSurrogates copies b, replacing each surrogate escape that is not
// half of a pair by \ufffd; first is the first surrogate escape.
func cleanSurrogates(b []byte, first int) []byte {
	var out []byte
	done := 0 // b[:done] is settled (copied to out, or out is nil and nothing changed)
	for i := first; i >= 0; {
		if isHigh(b, i) {
			if j := i + 6; j+5 < len(b) && b[j] == '\\' && b[j+1] == 'u' && (b[j+2] == 'd' || b[j+2] == 'D') &&
				isSurrogateDigit(b[j+3]) && !isHigh(b, j) && isHex(b[j+4]) && isHex(b[j+5]) {
				i = nextSurrogateEscape(b, j+6) // a well-formed pair
				continue
			}
		}
		if out == nil {
			out = make([]byte, 0, len(b))
		}
		out = append(out, b[done:i]...)
		out = append(out, `\ufffd`...)
		done = i + 6
		i = nextSurrogateEscape(b, done)
	}
	if out == nil {
		return b
	}
	return append(out, b[done:]...)
}
