package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/universal"
	"github.com/tidwall/gjson"
)

// MemberOrder is a way to rewrite the members of every JSON object of a
// native input. JSON objects are unordered (RFC 8259: "An object is an
// unordered collection"), and real logs reach a host reordered: written
// by another language's serializer (Kimi Code CLI, a Python agent, writes
// sessionUpdate last), re-serialized by json.dumps(sort_keys=True),
// `jq -S`, a log shipper or a Go map. A translator reads a message by its
// members' names, never by their order.
type MemberOrder int

// The orders checked.
const (
	// Reversed puts every object's members in reverse order, at every
	// depth.
	Reversed MemberOrder = iota + 1
	// Sorted sorts every object's members by name (by code point, as
	// `jq -S` and Python's sort_keys do), at every depth.
	Sorted
)

func (o MemberOrder) String() string {
	if o == Sorted {
		return "members sorted"
	}
	return "members reversed"
}

// Reorder returns input with the members of every object of each JSON
// value of it in order o, as the input's framing reads it: each line that
// is a JSON value (each SSE data line that is one), and each value printed
// over several lines (pretty-printed, as `jq .` writes it, re-indented
// with two spaces after). Only the order of members changes: keys,
// strings and numbers keep their bytes, and a string that holds JSON
// (tool arguments in some formats) is left as it is. A value with the
// same key twice in one object is left as it is: its first member counts,
// and moving it would change what the value says. Lines that are no JSON
// are kept.
func Reorder(input []byte, f universal.Framing, o MemberOrder) []byte {
	out := make([]byte, 0, len(input))
	for rest := input; len(rest) > 0; {
		line, next := rest, []byte(nil)
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, next = rest[:i+1], rest[i+1:]
		}
		body := bytes.TrimRight(line, "\r\n")
		end := line[len(body):]
		prefix := []byte(nil)
		if f == universal.FrameSSE {
			v, ok := bytes.CutPrefix(body, []byte("data:"))
			if !ok {
				out = append(out, line...)
				rest = next
				continue
			}
			prefix, body = body[:len(body)-len(v)], v
		}
		lead := body[:len(body)-len(bytes.TrimLeft(body, " \t"))]
		v := bytes.TrimSpace(body)
		if len(v) > 0 && json.Valid(v) {
			if r, ok := reorderValue(nil, gjson.ParseBytes(v), o); ok {
				out = append(out, prefix...)
				out = append(out, lead...)
				out = append(out, r...)
				out = append(out, body[len(lead)+len(v):]...)
				out = append(out, end...)
				rest = next
				continue
			}
		} else if f != universal.FrameSSE && len(v) > 0 && (v[0] == '{' || v[0] == '[') {
			// A value printed over several lines: the value that starts
			// here, if it ends at the end of a line.
			d := json.NewDecoder(bytes.NewReader(rest))
			var raw json.RawMessage
			if d.Decode(&raw) == nil {
				n := int(d.InputOffset())
				after := rest[n:]
				eol := bytes.IndexByte(after, '\n')
				if eol < 0 {
					eol = len(after)
				}
				if len(bytes.TrimSpace(after[:eol])) == 0 {
					if r, ok := reorderValue(nil, gjson.ParseBytes(raw), o); ok {
						var b bytes.Buffer
						if json.Indent(&b, r, string(lead), "  ") == nil {
							out = append(out, lead...)
							out = append(out, b.Bytes()...)
							rest = rest[n:]
							continue
						}
					}
				}
			}
		}
		out = append(out, line...)
		rest = next
	}
	return out
}

// member is one member of an object being reordered.
type member struct {
	name string // decoded
	text []byte // "key":value, the value reordered
}

// reorderValue appends v with its objects' members in order o; ok is
// false when an object of it has a key twice.
func reorderValue(dst []byte, v gjson.Result, o MemberOrder) ([]byte, bool) {
	switch {
	case v.IsObject():
		var ms []member
		ok := true
		v.ForEach(func(k, e gjson.Result) bool {
			var b []byte
			b = append(b, k.Raw...)
			b = append(b, ':')
			if b, ok = reorderValue(b, e, o); ok {
				ms = append(ms, member{k.String(), b})
			}
			return ok
		})
		if !ok {
			return dst, false
		}
		names := make([]string, len(ms))
		for i := range ms {
			names[i] = ms[i].name
		}
		slices.Sort(names)
		if len(slices.Compact(names)) < len(ms) {
			return dst, false
		}
		if o == Sorted {
			slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.name, b.name) })
		} else {
			slices.Reverse(ms)
		}
		dst = append(dst, '{')
		for i := range ms {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, ms[i].text...)
		}
		return append(dst, '}'), true
	case v.IsArray():
		dst = append(dst, '[')
		ok, n := true, 0
		v.ForEach(func(_, e gjson.Result) bool {
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst, ok = reorderValue(dst, e, o)
			return ok
		})
		return append(dst, ']'), ok
	}
	return append(dst, v.Raw...), true
}

// CheckMemberOrder translates the case's input with its objects' members
// reversed and sorted (Reorder) and requires the same events, compared as
// decoded JSON (objects as maps, a string that holds a JSON object or
// array decoded too, since a translator may copy a native object into
// one), their order and every value but member order unchanged. want is
// the translation of the input as it is, with Options (raw payloads,
// which keep the native text, off). An input none of whose members moves
// is not checked.
func CheckMemberOrder(t *testing.T, c *Case, input []byte, want []universal.Event) {
	t.Helper()
	a := decodeEvents(Encode(want))
	for _, o := range []MemberOrder{Reversed, Sorted} {
		in := Reorder(input, c.Framing, o)
		if bytes.Equal(in, input) {
			continue
		}
		evs, err := c.Translate(in, Options(), nil, 0)
		if err != nil {
			t.Errorf("%s: %v", o, err)
			continue
		}
		b := decodeEvents(Encode(evs))
		if len(a) != len(b) {
			t.Errorf("%s: %d events, want %d", o, len(b), len(a))
		}
		for i := range min(len(a), len(b)) {
			if !reflect.DeepEqual(a[i], b[i]) {
				t.Errorf("%s: event %d differs:\n%s\nwant\n%s", o, i+1, jsonOf(b[i]), jsonOf(a[i]))
				break
			}
		}
	}
}

// decodeEvents decodes NDJSON events, strings holding JSON objects or
// arrays decoded too.
func decodeEvents(ndjson []byte) []any {
	var out []any
	for line := range bytes.Lines(ndjson) {
		var v any
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			v = "unparsable: " + string(line)
		}
		out = append(out, deepDecode(v))
	}
	return out
}

func deepDecode(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = deepDecode(e)
		}
	case []any:
		for i, e := range x {
			x[i] = deepDecode(e)
		}
	case string:
		if s := strings.TrimSpace(x); len(s) > 1 && (s[0] == '{' || s[0] == '[') {
			var inner any
			d := json.NewDecoder(strings.NewReader(s))
			d.UseNumber()
			if d.Decode(&inner) == nil && !d.More() {
				return map[string]any{"(json)": deepDecode(inner)}
			}
		}
	}
	return v
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
