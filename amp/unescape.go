package amp

import (
	"strings"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// text returns the string v as str does, faster for strings dense with
// escapes: a tool result's JSON text (every quote in it escaped) and the
// output it holds (every line ending in \n). Value.Str copies the run
// before each escape with a call of its own, which on such strings costs
// more than the escapes; here the bytes are copied in one plain loop. A
// string with a \u escape (rare in them; Str reads those with gjson's
// surrogate rules) goes to str.
func (t *Translator) text(v jsonscan.Value) string {
	if v.Type() != gjson.String {
		return ""
	}
	raw := v.Raw()
	s := raw[1 : len(raw)-1]
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return t.w.Copy(s)
	}
	// Unescaping never lengthens a string, so one buffer of s's length
	// holds the text; it is fresh and held by nothing else, so the
	// string is made on it without a copy.
	b := make([]byte, len(s))
	j := copy(b, s[:i])
	for i < len(s) {
		c := s[i]
		i++
		if c == '\\' {
			// s is valid JSON: an escape is complete.
			switch c = s[i]; c {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case 'u':
				return t.str(v)
			}
			i++
		}
		b[j] = c
		j++
	}
	return unsafe.String(unsafe.SliceData(b), j)
}
