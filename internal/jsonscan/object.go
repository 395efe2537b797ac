package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/agentnorm/agentnorm/internal/jsonw"
	"github.com/tidwall/gjson"
)

// A Value is a value of a scanned message: the top-level value
// (Scanner.Root), a member or element the scan recorded (Field, Sub,
// Each, Members), a value gjson found where the index does not answer (a
// path with gjson syntax), or absent (the zero Value). An object or array
// the scan recorded is walked in the index. Every method answers exactly
// what the same lookup of gjson on Result() answers. A Value is small
// (three words) and valid until the Scanner's next Scan.
type Value struct {
	s *Scanner // nil: a value gjson found (r), or absent
	i int      // the member, or -1 for the top-level value; absent: the Index gjson gives
	r *gjson.Result
}

// found returns r as a Value; absent values keep only their Index, so
// that the common case (a missing member) allocates nothing.
func found(r gjson.Result) Value {
	if !r.Exists() && r.Str == "" && r.Num == 0 && r.Indexes == nil {
		return Value{i: r.Index}
	}
	return Value{i: -1, r: &r}
}

// gj returns a value gjson found or an absent one as a Result.
func (v Value) gj() gjson.Result {
	if v.r != nil {
		return *v.r
	}
	return gjson.Result{Index: v.i}
}

// CompactRaw returns v's raw bytes and whether they are known to be
// compact JSON: v is a value the scan recorded inside the top-level one
// (not one gjson found), of a message with no whitespace between tokens
// (Scanner.Compact).
func (v Value) CompactRaw() (string, bool) {
	if v.s == nil || v.i < 0 || v.s.spaced {
		return v.Raw(), false
	}
	return v.Raw(), true
}

// CleanRaw returns v's raw bytes and whether they are already what
// jsonw.AppendRaw writes for them, so that they can be copied instead of
// compacted again: v is compact (see CompactRaw), not empty, of a message
// whose bytes are valid UTF-8 (ScanClean's, or one of ASCII only), and not
// nested deeper than jsonw accepts.
func (v Value) CleanRaw() (string, bool) {
	raw, ok := v.CompactRaw()
	return raw, ok && raw != "" && v.s.utf8 && v.s.depth <= jsonw.MaxDepth
}

// Compacted returns v's JSON text as jsonw.AppendRaw writes it: v's own
// bytes when CleanRaw says they are that already, else a compacted copy;
// "" when v is absent. Added to a jsonw.Object with RawClean, it is
// copied, not scanned again.
func (v Value) Compacted() string {
	if raw, ok := v.CleanRaw(); ok {
		return raw
	}
	if v.Raw() != "" {
		b := v.AppendCompacted(nil)
		return unsafe.String(unsafe.SliceData(b), len(b)) // b is held by nothing else
	}
	return ""
}

// AppendCompacted appends what Compacted returns. A value the scan
// recorded in a message of valid UTF-8, nested no deeper than jsonw
// accepts, is what jsonw.AppendRaw writes for it but for the whitespace
// between its tokens (jsonw keeps escapes and numbers as written): the
// whitespace is left out without checking the value again, as jsonw
// would (a pretty-printed document's values are most of what it reads).
func (v Value) AppendCompacted(dst []byte) []byte {
	raw := v.Raw()
	switch {
	case raw == "":
		return dst
	case v.s == nil || v.i < 0 || !v.s.utf8 || v.s.depth > jsonw.MaxDepth:
		return jsonw.AppendRaw(dst, raw)
	case !v.s.spaced:
		return append(dst, raw...) // clean (see CleanRaw)
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '"':
			j := stringEnd(raw, i)
			dst = append(dst, raw[i:j]...)
			i = j
		case ws[c]:
			i++
		default:
			j := i + 1
			for j < len(raw) && !ws[raw[j]] && raw[j] != '"' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
		}
	}
	return dst
}

// stringEnd returns the index after the closing quote of the string of
// valid JSON that starts at s[i].
func stringEnd(s string, i int) int {
	for j := i + 1; ; {
		q := strings.IndexByte(s[j:], '"')
		if q < 0 {
			return len(s) // not in valid JSON
		}
		q += j
		b := q // an escaped quote has an odd number of backslashes before it
		for b > j && s[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// OwnJSON returns what Compacted returns in memory that does not alias
// the message: v's own bytes, when they are what jsonw writes already,
// given to keep (which copies them: a translator passes its stream's
// Copy); else the compacted copy, which is of its own already.
func (v Value) OwnJSON(keep func(string) string) string {
	if raw, ok := v.CleanRaw(); ok {
		return keep(raw)
	}
	return v.Compacted()
}

// AddTo adds v to o as the member k, as o.RawClean(k, v.Compacted())
// does, without the copy Compacted makes of text that is not in jsonw's
// form yet (a pretty-printed document): that text is compacted straight
// into o. An absent v adds nothing.
func (v Value) AddTo(o *jsonw.Object, k string) *jsonw.Object {
	if raw, ok := v.CleanRaw(); ok {
		return o.RawClean(k, raw)
	}
	if raw := v.Raw(); raw != "" {
		return o.RawAppend(k, len(raw), v.AppendCompacted)
	}
	return o
}

// Str returns what Result().Str is (a string's unescaped text, "" for
// other values), without building the Result.
func (v Value) Str() string {
	s, _ := v.str()
	return s
}

// OwnStr returns what Str returns in memory that does not alias the
// message: a string with escapes is unescaped into a new string (once,
// where copying what Str returns would unescape and then copy), and one
// without is given to keep, which copies it (a translator passes its
// stream's Copy).
func (v Value) OwnStr(keep func(string) string) string {
	s, own := v.str()
	if own || s == "" {
		return s
	}
	return keep(s)
}

// Extend appends what Str returns to *s, through buf, a buffer of the
// caller's own that *s is made on: a string grown by many chunks (a
// terminal's output, a signature streamed in deltas) costs each chunk
// only, never the text so far again. The buffer is only ever appended to,
// so strings made on it earlier stay as they are. A *s that is not made
// on buf (the first call, or a string set otherwise since) is copied into
// it first.
func (v Value) Extend(s *string, buf *[]byte) {
	b := *buf
	if len(b) != len(*s) || unsafe.SliceData(b) != unsafe.StringData(*s) {
		b = append(b[:0:0], *s...)
	}
	b = v.AppendStr(b)
	*buf, *s = b, unsafe.String(unsafe.SliceData(b), len(b))
}

// str returns what Str returns, and whether it is a new string of its
// own (unescaped) rather than a view of the message.
func (v Value) str() (string, bool) {
	if v.s == nil || v.i < 0 {
		return v.Result().Str, false
	}
	m := &v.s.members[v.i]
	switch {
	case m.kind != '"':
		return "", false
	case m.flags&valEscaped != 0:
		return unescapeString(v.s.src[m.valStart+1 : m.valEnd-1]), true
	}
	return v.s.src[m.valStart+1 : m.valEnd-1], false
}

// Int returns what Result().Int() returns. A plain non-negative integer
// of up to 18 digits (a block index, a token count) is read from its
// digits, without building the Result and parsing it as a float.
func (v Value) Int() int64 {
	raw := v.Raw()
	if len(raw) == 0 || len(raw) > 18 {
		return v.Result().Int()
	}
	var n int64
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c < '0' || c > '9' {
			return v.Result().Int()
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// KeepFirst sets *dst to v unless *dst holds a value already. A walk over
// an object's members that collects several of them calls it for each,
// so that the first of duplicate keys counts, as it does for a lookup.
func KeepFirst(dst *Value, v Value) {
	if !dst.Exists() {
		*dst = v
	}
}

// AppendStr appends what Str returns to dst: a string with escapes is
// unescaped into dst instead of a new string.
func (v Value) AppendStr(dst []byte) []byte {
	if v.s == nil || v.i < 0 {
		return append(dst, v.Result().Str...)
	}
	m := &v.s.members[v.i]
	switch {
	case m.kind != '"':
		return dst
	case m.flags&valEscaped != 0:
		return unescape(dst, v.s.src[m.valStart+1:m.valEnd-1])
	}
	return append(dst, v.s.src[m.valStart+1:m.valEnd-1]...)
}

// EqualStr reports whether v is a string whose text (what Str returns)
// is t. A string with escapes is compared as it is read, run by run and
// escape by escape, so that a translator comparing a value with a name
// does not unescape it into memory of its own first.
func (v Value) EqualStr(t string) bool {
	if v.s == nil || v.i < 0 {
		r := v.Result()
		return r.Type == gjson.String && r.Str == t
	}
	m := &v.s.members[v.i]
	switch {
	case m.kind != '"':
		return false
	case m.flags&valEscaped != 0:
		return equalUnescaped(v.s.src[m.valStart+1:m.valEnd-1], t)
	}
	return v.s.src[m.valStart+1:m.valEnd-1] == t
}

// equalUnescaped reports whether the inside of a valid JSON string, s,
// unescaped as unescape does, is t. It reads byte by byte: the strings
// compared with names and paths are short, with escapes every few bytes.
func equalUnescaped(s, t string) bool {
	if len(t) > len(s) {
		return false // unescaping never lengthens text
	}
	var buf [utf8.UTFMax]byte
	j := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' {
			if i+1 >= len(s) {
				break // a backslash that ends the text (not in valid JSON)
			}
			if c = s[i+1]; c == 'u' {
				r, l := hex4(s[i+2:]), 6
				if utf16.IsSurrogate(r) && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
					r, l = utf16.DecodeRune(r, hex4(s[i+8:])), 12
				}
				n := utf8.EncodeRune(buf[:], r)
				if len(t)-j < n || t[j:j+n] != string(buf[:n]) {
					return false
				}
				i += l
				j += n
				continue
			}
			if e := unescapes[c]; e != 0 {
				c = e
			}
			i++
		}
		if j >= len(t) || t[j] != c {
			return false
		}
		i++
		j++
	}
	return j == len(t)
}

// Type returns what Result().Type is, without building the Result.
func (v Value) Type() gjson.Type {
	if v.s == nil || v.i < 0 {
		return v.Result().Type
	}
	switch v.s.members[v.i].kind {
	case '"':
		return gjson.String
	case '{', '[':
		return gjson.JSON
	case 't':
		return gjson.True
	case 'f':
		return gjson.False
	case 'n':
		return gjson.Null
	}
	return gjson.Number
}

// Exists reports whether v is a value of the message.
func (v Value) Exists() bool { return v.s != nil || v.r != nil && v.r.Exists() }

// IsArray reports whether v is an array.
func (v Value) IsArray() bool {
	if v.s == nil {
		return v.r != nil && v.r.IsArray()
	}
	return v.kind() == '['
}

// IsObject reports whether v is an object.
func (v Value) IsObject() bool {
	if v.s == nil {
		return v.r != nil && v.r.IsObject()
	}
	return v.kind() == '{'
}

// indexed reports an object whose members the index holds.
// absent reports a Value that is no value (Exists is false): a lookup in
// it finds nothing, which gjson would answer after parsing the path.
func (v Value) absent() bool { return v.s == nil && v.r == nil }

func (v Value) indexed() bool { return v.s != nil && v.kind() == '{' }

func (v Value) kind() byte {
	if v.i < 0 {
		return v.s.src[v.s.start]
	}
	return v.s.members[v.i].kind
}

// members returns the range of an indexed container's members: the
// first, and the index after the last one's members.
func (v Value) members() (int, int) {
	if v.i < 0 {
		return 0, len(v.s.members)
	}
	return v.i + 1, int(v.s.members[v.i].skip)
}

// start returns the offset of v in the message.
func (v Value) start() int {
	if v.i < 0 {
		return v.s.start
	}
	return int(v.s.members[v.i].valStart)
}

// Raw returns v's bytes, as Result().Raw (without unescaping a string).
func (v Value) Raw() string {
	switch {
	case v.s == nil:
		return v.gj().Raw
	case v.i < 0:
		return gjson.Parse(v.s.src).Raw
	}
	m := &v.s.members[v.i]
	return v.s.src[m.valStart:m.valEnd]
}

// Result returns v as gjson returns it: for the top-level value what
// gjson.Parse returns (an object's raw runs to the message's end), for a
// member what gjson's lookup of it returns.
func (v Value) Result() gjson.Result {
	switch {
	case v.s == nil:
		return v.gj()
	case v.i < 0:
		return gjson.Parse(v.s.src)
	}
	return v.s.result(&v.s.members[v.i])
}

// find returns the first member of object v named key, or -1.
func (v Value) find(key string) int {
	if !v.indexed() {
		return -1
	}
	s := v.s
	for i, end := v.members(); i < end; i = int(s.members[i].skip) {
		if s.keyIs(&s.members[i], key) {
			return i
		}
	}
	return -1
}

// keyIs reports whether m's key, unescaped as gjson unescapes it, is key.
// It is small enough to be inlined in the loops over members.
func (s *Scanner) keyIs(m *member, key string) bool {
	if m.flags&keyEscaped == 0 {
		return int(m.keyEnd-m.keyStart) == len(key) && s.src[m.keyStart:m.keyEnd] == key
	}
	return s.escapedKeyIs(m, key)
}

// escapedKeyIs is keyIs for a key with escapes (rare). There is no length
// shortcut: a lone surrogate escape (6 bytes) becomes U+FFFD (3).
func (s *Scanner) escapedKeyIs(m *member, key string) bool {
	s.scratch = unescape(s.scratch[:0], s.src[m.keyStart:m.keyEnd])
	return string(s.scratch) == key
}

// Field returns the first member of object v named key (gjson's choice
// among duplicates), or the absent Value (also when v is not an object).
func (v Value) Field(key string) Value {
	if v.r != nil {
		return wrappedField(*v.r, key, false)
	}
	if i := v.find(key); i >= 0 {
		return Value{s: v.s, i: i}
	}
	return Value{}
}

// LastField returns the last member of object v named key (the one a
// ForEach that keeps what it sees ends with), or the absent Value.
func (v Value) LastField(key string) Value {
	if v.r != nil {
		return wrappedField(*v.r, key, true)
	}
	if !v.indexed() {
		return Value{}
	}
	s := v.s
	last := -1
	for i, end := v.members(); i < end; i = int(s.members[i].skip) {
		if s.keyIs(&s.members[i], key) {
			last = i
		}
	}
	if last < 0 {
		return Value{}
	}
	return Value{s: s, i: last}
}

// Get returns the value at path, exactly what v.Result().Get(path)
// returns. On an indexed object, a path of plain keys joined by dots is
// answered from the index (through an array member it goes on with gjson
// on that array); any other path (wildcards, escapes, modifiers, queries,
// pipes), and any path on another value, goes to gjson.
func (v Value) Get(path string) gjson.Result {
	dot := plainPath(path)
	if !v.indexed() || dot == notPlain {
		if v.absent() && dot != notPlain {
			return gjson.Result{Index: v.i} // as gjson answers, without asking it
		}
		return v.Result().Get(path)
	}
	first, end := v.members()
	i := v.s.walk(first, end, path, dot)
	if i == throughArray {
		var r gjson.Result
		var ok bool
		if i, r, ok = v.s.lookup(first, end, path); ok && i < 0 {
			return r
		}
	}
	if i < 0 {
		// What gjson answers for a path it does not find: no value, at
		// the object's index.
		return gjson.Result{Index: v.start()}
	}
	return v.s.result(&v.s.members[i])
}

// Sub returns the value at path as a Value: Sub(path).Result() is
// Get(path), and an object found through the index is indexed too, so
// that its own lookups do not scan it.
func (v Value) Sub(path string) Value {
	dot := plainPath(path)
	if !v.indexed() || dot == notPlain {
		if v.absent() && dot != notPlain {
			return v // nothing inside what is not there
		}
		return found(v.Result().Get(path))
	}
	first, end := v.members()
	i := v.s.walk(first, end, path, dot)
	if i == throughArray {
		var r gjson.Result
		var ok bool
		if i, r, ok = v.s.lookup(first, end, path); ok && i < 0 {
			return found(r)
		}
	}
	if i < 0 {
		return Value{i: v.start()}
	}
	return Value{s: v.s, i: i}
}

// throughArray is what walk returns for a path whose member may be
// inside an array.
const throughArray = -2

// walk is lookup for the common path, the one through objects only (the
// hot paths of every translator): the member's index, -1 if there is
// none, or throughArray when the path meets an array on its way before it
// is found, for lookup to answer. dot is the index of the path's first
// dot, -1 if it has none.
func (s *Scanner) walk(first, end int, path string, dot int) int {
	key, rest := path, ""
	if dot >= 0 {
		key, rest = path[:dot], path[dot+1:]
	}
	members := s.members[:end]
	for i := first; i < end; {
		m := &members[i]
		next := int(m.skip)
		if s.keyIs(m, key) {
			if rest == "" {
				return i
			}
			switch m.kind {
			case '{':
				// Duplicates: gjson goes on to the next member named
				// key when the rest of the path is not in this one.
				if j := s.walk(i+1, next, rest, firstDot(rest)); j != -1 {
					return j
				}
			case '[':
				return throughArray
			}
		}
		i = next
	}
	return -1
}

// lookup finds a plain path in the object whose members are first to
// end: the member it names (i >= 0), or the value gjson found in an array
// on the way (i < 0); ok false if there is none.
func (s *Scanner) lookup(first, end int, path string) (i int, r gjson.Result, ok bool) {
	key, rest, more := path, "", false
	for j := 0; j < len(path); j++ {
		if path[j] == '.' {
			key, rest, more = path[:j], path[j+1:], true
			break
		}
	}
	// gjson looks at every member named key, in order, until the rest of
	// the path is found in one (duplicates included).
	for i := first; i < end; i = int(s.members[i].skip) {
		m := &s.members[i]
		if !s.keyIs(m, key) {
			continue
		}
		if !more {
			return i, gjson.Result{}, true
		}
		switch m.kind {
		case '{':
			if j, r, ok := s.lookup(i+1, int(m.skip), rest); ok {
				return j, r, true
			}
		case '[':
			if r := s.result(m).Get(rest); r.Exists() {
				return -1, r, true
			}
		}
	}
	return -1, gjson.Result{}, false
}

// plainPath tells a path that names members only: non-empty keys with
// none of the characters gjson's path syntax gives a meaning, joined by
// single dots. It returns the index of its first dot (-1 if it has none),
// or notPlain for any other path.
func plainPath(path string) (dot int) {
	if path == "" || path[0] == '.' || path[len(path)-1] == '.' {
		return notPlain
	}
	dot = -1
	for j := 0; j < len(path); j++ {
		if c := path[j]; pathSyntax[c] {
			if c != '.' || path[j-1] == '.' {
				return notPlain
			}
			if dot < 0 {
				dot = j
			}
		}
	}
	return dot
}

// notPlain is what plainPath returns for a path that is not plain.
const notPlain = -2

// firstDot returns the index of the first dot in a plain path, -1 if it
// has none. A path is a few bytes: a loop beats a call.
func firstDot(path string) int {
	for j := 0; j < len(path); j++ {
		if path[j] == '.' {
			return j
		}
	}
	return -1
}

// pathSyntax marks the characters of gjson's path syntax (and some more,
// to be safe): a path with any but single dots between keys goes to gjson.
var pathSyntax = func() (t [256]bool) {
	for _, c := range "|*?\\#@![]{}()=<>%~,:\".\x00" {
		t[c] = true
	}
	return t
}()

// ForEach calls fn with every member of an object or element of an
// array, in order, exactly as gjson's ForEach on Result() does (an
// object's key a String Result with its quotes in Raw and Index at the
// quote; an array's key a Number Result counting from 0), until fn
// returns false. An indexed container is walked in its index.
func (v Value) ForEach(fn func(key, value gjson.Result) bool) {
	if v.s == nil || (v.kind() != '{' && v.kind() != '[') {
		v.Result().ForEach(fn)
		return
	}
	s := v.s
	k := gjson.Result{Type: gjson.Number, Num: -1}
	for i, end := v.members(); i < end; i = int(s.members[i].skip) {
		m := &s.members[i]
		k = s.key(m, k)
		if !fn(k, s.result(m)) {
			return
		}
	}
}

// Each is ForEach with the values as Values: those of an indexed
// container are indexed too, so that lookups in them do not scan them.
func (v Value) Each(fn func(key gjson.Result, value Value) bool) {
	if v.s == nil || (v.kind() != '{' && v.kind() != '[') {
		v.Result().ForEach(func(k, x gjson.Result) bool { return fn(k, found(x)) })
		return
	}
	s := v.s
	k := gjson.Result{Type: gjson.Number, Num: -1}
	for i, end := v.members(); i < end; i = int(s.members[i].skip) {
		k = s.key(&s.members[i], k)
		if !fn(k, Value{s: s, i: i}) {
			return
		}
	}
}

// Members calls fn with every member of an object, in order, its key
// unescaped (as ForEach's key.Str), until fn returns false: one walk that
// reads several members, where each Field walks the object again. For
// another value it does nothing; an object gjson found is walked with
// gjson.
func (v Value) Members(fn func(key string, value Value) bool) {
	if v.s == nil {
		if r := v.gj(); r.IsObject() {
			r.ForEach(func(k, x gjson.Result) bool { return fn(k.Str, found(x)) })
		}
		return
	}
	if v.kind() != '{' {
		return
	}
	s := v.s
	// The index and the message in locals: fn is not known to leave the
	// scanner alone, so fields would be loaded again after every call.
	i, end := v.members()
	members, src := s.members[:end], s.src
	for i < end {
		m := &members[i]
		k := src[m.keyStart:m.keyEnd]
		if m.flags&keyEscaped != 0 {
			k = unescapeString(k)
		}
		next := int(m.skip)
		if !fn(k, Value{s: s, i: i}) {
			return
		}
		i = next
	}
}

// key returns the key ForEach gives member m: for an object member its
// key, for an array element the count after the previous one's.
func (s *Scanner) key(m *member, prev gjson.Result) gjson.Result {
	if m.keyStart < 0 {
		prev.Num++
		return prev
	}
	k := gjson.Result{Type: gjson.String, Raw: s.src[m.keyStart-1 : m.keyEnd+1], Index: int(m.keyStart) - 1}
	if m.flags&keyEscaped != 0 {
		k.Str = unescapeString(s.src[m.keyStart:m.keyEnd])
	} else {
		k.Str = s.src[m.keyStart:m.keyEnd]
	}
	return k
}

// Len returns the number of members of an object or elements of an array
// (0 for other values).
func (v Value) Len() int {
	if v.s == nil {
		n := 0
		if r := v.gj(); r.IsObject() || r.IsArray() {
			r.ForEach(func(_, _ gjson.Result) bool { n++; return true })
		}
		return n
	}
	n := 0
	if k := v.kind(); k == '{' || k == '[' {
		for i, end := v.members(); i < end; i = int(v.s.members[i].skip) {
			n++
		}
	}
	return n
}

// result builds the gjson.Result of a member's value, as gjson's object
// lookup builds it.
func (s *Scanner) result(m *member) gjson.Result {
	raw := s.src[m.valStart:m.valEnd]
	r := gjson.Result{Raw: raw, Index: int(m.valStart)}
	switch m.kind {
	case '"':
		r.Type = gjson.String
		if m.flags&valEscaped != 0 {
			r.Str = unescapeString(raw[1 : len(raw)-1])
		} else {
			r.Str = raw[1 : len(raw)-1]
		}
	case '{', '[':
		r.Type = gjson.JSON
	case 't':
		r.Type = gjson.True
	case 'f':
		r.Type = gjson.False
	case 'n':
		r.Type = gjson.Null
	default:
		r.Type = gjson.Number
		r.Num, _ = strconv.ParseFloat(raw, 64)
	}
	return r
}

// unescape appends the unescaped contents of a valid JSON string (without
// its quotes) to dst, reading escapes as gjson does: a surrogate escape
// followed by another \u escape takes both (U+FFFD unless they are a
// high and a low surrogate); a lone surrogate is U+FFFD.
//
// Unescaping never lengthens text, so dst is grown once and written in
// place, eight bytes at a time between escapes: command output has an
// escape every few bytes, where a call per run would cost more than the
// run.
func unescape(dst []byte, s string) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(s))[:n+len(s)]
	w := n
	for i := 0; i < len(s); {
		// Plain bytes a word at a time: the word is stored whole (w+8
		// stays within dst, as w-n <= i) and w advances past the bytes
		// before the first backslash in it, if any.
		for i+8 <= len(s) {
			t := s[i : i+8] // one bounds check, not eight
			v := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
				uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
			binary.LittleEndian.PutUint64(dst[w:], v)
			b := v ^ (ones * '\\')
			if m := (b - ones) & ^b & highs; m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				w += k
				i += k
				goto escape
			}
			w += 8
			i += 8
		}
		for i < len(s) && s[i] != '\\' {
			dst[w] = s[i]
			w++
			i++
		}
		if i >= len(s) {
			break
		}
	escape:
		if i+1 >= len(s) {
			break // a backslash that ends the text
		}
		if e := s[i+1]; e != 'u' {
			if c := unescapes[e]; c != 0 {
				e = c
			}
			dst[w] = e
			w++
			i += 2
			continue
		}
		r := hex4(s[i+2:])
		i += 6
		if utf16.IsSurrogate(r) && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
			r = utf16.DecodeRune(r, hex4(s[i+2:]))
			i += 6
		}
		w += utf8.EncodeRune(dst[w:], r)
	}
	return dst[:w]
}

// unescapes maps the letter after a backslash to the byte it stands for.
var unescapes = [256]byte{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unescapeString returns the unescaped text of the inside of a valid JSON
// string. Unescaping never lengthens a string (an escape is at least as
// long as what it stands for), so one buffer of s's length holds it; the
// buffer is fresh and held by nothing else, so the string is made on it
// without a copy.
func unescapeString(s string) string {
	b := unescape(make([]byte, 0, len(s)), s)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// hex4 reads the four hex digits a \u escape of valid JSON has.
func hex4(s string) rune {
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// Strings calls f with every string value of the last scanned message
// below its top level (object members and array elements, in the order
// they appear). Package ratio uses it to measure what reading a message's
// text costs at the least.
func (s *Scanner) Strings(f func(Value)) {
	if !s.valid {
		return
	}
	for i := range s.members {
		if s.members[i].kind == '"' {
			f(Value{s: s, i: i})
		}
	}
}

// Wrap returns r as a Value whose lookups are gjson's, for code that
// takes a Value and is also given values found by gjson.
func Wrap(r gjson.Result) Value { return found(r) }

// wrappedField is Field (LastField with last set) of a value gjson found:
// its members are walked by gjson, keys compared unescaped as the index
// compares them (a path would read dots and wildcards in key).
func wrappedField(r gjson.Result, key string, last bool) Value {
	out := Value{}
	if !r.IsObject() {
		return out
	}
	r.ForEach(func(k, v gjson.Result) bool {
		if k.Str != key {
			return true
		}
		out = found(v)
		return last
	})
	return out
}

// GetMany returns what gjson.GetMany(json, paths...) returns, field for
// field, from one indexing scan instead of a pass per path (a key the
// message lacks made gjson read all of it). Input that is not valid JSON,
// such as a first line cut short at the end of a file's head, goes to
// gjson, which reads what it can of it.
func GetMany(json string, paths ...string) []gjson.Result {
	var s Scanner
	if !s.ScanString(json) {
		return gjson.GetMany(json, paths...)
	}
	top := s.Root()
	out := make([]gjson.Result, len(paths))
	for i, p := range paths {
		out[i] = top.Get(p)
	}
	return out
}
