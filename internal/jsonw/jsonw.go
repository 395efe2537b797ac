// Package jsonw appends strict JSON: valid UTF-8, compact, and
// byte-compatible with what encoding/json writes when HTML escaping is off.
//
// Every function appends to a caller-owned buffer and allocates only when
// that buffer must grow, so the encoders in universal and the translators
// can build output without reflection.
package jsonw

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// plain reports the ASCII bytes that appear unescaped inside a JSON string.
var plain = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// shortEscape holds, for each ASCII byte written escaped as a backslash and
// one letter, that letter; the other bytes to escape are written \u00XX.
var shortEscape = [utf8.RuneSelf]byte{
	'"':  '"',
	'\\': '\\',
	'\b': 'b',
	'\f': 'f',
	'\n': 'n',
	'\r': 'r',
	'\t': 't',
}

// AppendString appends s as a JSON string. Control characters are escaped,
// invalid UTF-8 becomes U+FFFD and U+2028/U+2029 are escaped, exactly as
// encoding/json does with SetEscapeHTML(false).
func AppendString[T ~string | ~[]byte](dst []byte, s T) []byte {
	dst = append(dst, '"')
	dst = appendStringBody(dst, s)
	return append(dst, '"')
}

// bigString is the length from which appendStringBody grows its buffer
// once for the whole string.
const bigString = 64 << 10

func appendStringBody[T ~string | ~[]byte](dst []byte, s T) []byte {
	if n := len(s); n > bigString && cap(dst)-len(dst) < n+n/8 {
		// Grow once for a long string (a command's whole output): append's
		// gentle growth of big slices would allocate it about five times
		// over while it is copied in.
		dst = slices.Grow(dst, n+n/8)
	}
	start := 0
	for i := 0; i < len(s); {
		if i = plainRun(s, i); i >= len(s) {
			break
		}
		// plainRun stopped at a byte to escape or at the start of a
		// multi-byte sequence.
		if b := s[i]; b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			if e := shortEscape[b]; e != 0 {
				dst = append(dst, '\\', e)
			} else {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := decodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

func decodeRune[T ~string | ~[]byte](s T) (rune, int) {
	// A conversion of at most four bytes stays on the stack.
	return utf8.DecodeRuneInString(string(s[:min(len(s), utf8.UTFMax)]))
}

// AppendNullString appends s as a JSON string, or null when s is empty.
func AppendNullString(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, "null"...)
	}
	return AppendString(dst, s)
}

// AppendBool appends true or false.
func AppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// AppendInt appends n in decimal.
func AppendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// AppendFloat appends f the way encoding/json formats a float64; NaN and
// infinities, which JSON cannot represent, become null.
func AppendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Shorten a two-digit negative exponent "e-07" to "e-7".
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainRun returns the position of the first byte at or after i that is
// not printable ASCII other than '"' and '\\' (len(s) when there is
// none). Most bytes of the strings written are such text: it reads them
// a word at a time, eight bytes for a few operations, where a loop over
// bytes would cost a table lookup and a branch each.
func plainRun[T ~string | ~[]byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := special(word(s[i : i+8])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if i == len(s) {
		return i
	}
	if j := len(s) - 8; j >= 0 {
		// The last eight bytes, shifted so that the first is s[i]: the
		// zero bytes shifted in are flagged, but only past the end.
		m := special(word(s[j:]) >> (8 * (i - j)))
		return min(i+bits.TrailingZeros64(m)>>3, len(s))
	}
	for i < len(s) && s[i] < utf8.RuneSelf && plain[s[i]] {
		i++
	}
	return i
}

// word reads the first eight bytes of w, little-endian: one load.
func word[T ~string | ~[]byte](w T) uint64 {
	_ = w[7]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// special sets the high bit of each byte of v below 0x20, equal to '"' or
// '\\', or not ASCII (the has-less-than and has-zero-byte tests). A borrow
// carries only upwards from a flagged byte, so the lowest flag is exact.
func special(v uint64) uint64 {
	q := v ^ (ones * '"')
	b := v ^ (ones * '\\')
	return (((v - ones*0x20) & ^v) | ((q - ones) & ^q) | ((b - ones) & ^b) | v) & highs
}
