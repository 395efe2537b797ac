package jsonscan

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Skim calls yield with each member of the JSON object s, in order, with
// the member's key (unescaped) and the raw text of its value, until yield
// returns false. It reports whether it read the members it gave as an
// object's: false when s is not an object, or ends or breaks before its
// closing brace (after yielding the members before that point).
//
// Skim does not validate: it finds the end of each value (a string's
// closing quote, found a word at a time; the bracket that closes an object
// or array) and checks nothing else, which makes it many times faster than
// a scan on the long strings a first line can hold (a Codex rollout's
// session_meta carries the whole system prompt). It is meant for telling
// an input's format from its first line, before the input is read, and
// validated, by a Scanner.
func Skim(s string, yield func(key, raw string) bool) bool {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return false
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return true
	}
	for i < len(s) && s[i] == '"' {
		end := skimString(s, i)
		if end < 0 {
			return false
		}
		key := s[i+1 : end-1]
		if strings.IndexByte(key, '\\') >= 0 {
			key = gjson.Parse(s[i:end]).Str
		}
		i = skipSpace(s, end)
		if i >= len(s) || s[i] != ':' {
			return false
		}
		i = skipSpace(s, i+1)
		end = skimValue(s, i)
		if end < 0 {
			return false
		}
		if !yield(key, s[i:end]) {
			return true
		}
		i = skipSpace(s, end)
		if i >= len(s) {
			return false
		}
		switch s[i] {
		case '}':
			return true
		case ',':
			i = skipSpace(s, i+1)
		default:
			return false
		}
	}
	return false
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skimString returns the index after the closing quote of the string that
// starts at s[i] ('"'), -1 when it does not end.
func skimString(s string, i int) int {
	j := i + 1
	for {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		// The quote is escaped when an odd number of backslashes
		// precede it.
		n := 0
		for m := j - 1; m > i && s[m] == '\\'; m-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j
		}
	}
}

// skimValue returns the index after the value that starts at s[i], -1
// when it does not end.
func skimValue(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		return skimString(s, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				end := skimString(s, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	// A number or literal runs to the next delimiter.
	j := i
	for j < len(s) && s[j] != ',' && s[j] != '}' && s[j] != ']' && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
