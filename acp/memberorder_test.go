package acp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agentnorm/agentnorm/internal/golden"
)

// TestMemberOrder: JSON objects are unordered (RFC 8259: "An object is an
// unordered collection"), and ACP's messages are read by name: every
// capture, each line's objects with their members in reverse order at
// every depth (Kimi Code CLI, a Python agent, writes sessionUpdate last),
// translates to the same events, compared as decoded JSON (objects as
// maps; a string that holds a JSON object or array, as arguments do,
// decoded too), their order and every value but member order unchanged.
// Lines that are no JSON are left as they are.
func TestMemberOrder(t *testing.T) {
	for _, c := range all(t) {
		if c.allowUnparsed {
			continue // hostile lines: duplicate members, whose first counts
		}
		t.Run(c.name(), func(t *testing.T) {
			in := read(t, c.input)
			gc := c.golden(t)
			want, err := gc.Translate(in, golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			rev := reverseLines(t, in)
			if bytes.Equal(rev, in) {
				t.Fatal("no member moved")
			}
			got, err := gc.Translate(rev, golden.Options(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			a, b := decodeEvents(t, golden.Encode(want)), decodeEvents(t, golden.Encode(got))
			if len(a) != len(b) {
				t.Fatalf("%d events, want %d", len(b), len(a))
			}
			for i := range a {
				if !reflect.DeepEqual(a[i], b[i]) {
					t.Fatalf("event %d differs with the members reversed:\n%s\nwant\n%s", i, jsonOf(b[i]), jsonOf(a[i]))
				}
			}
		})
	}
}

// reverseLines rewrites each JSON line with every object's members in
// reverse order.
func reverseLines(t *testing.T, in []byte) []byte {
	var out bytes.Buffer
	for _, line := range bytes.Split(in, []byte("\n")) {
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		var b bytes.Buffer
		if err := reverseValue(d, &b); err != nil || d.More() {
			out.Write(line)
		} else {
			out.Write(b.Bytes())
		}
		out.WriteByte('\n')
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

func reverseValue(d *json.Decoder, b *bytes.Buffer) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			var members [][]byte
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return err
				}
				var m bytes.Buffer
				kb, _ := json.Marshal(k)
				m.Write(kb)
				m.WriteByte(':')
				if err := reverseValue(d, &m); err != nil {
					return err
				}
				members = append(members, m.Bytes())
			}
			if _, err := d.Token(); err != nil {
				return err
			}
			b.WriteByte('{')
			for i := len(members) - 1; i >= 0; i-- {
				b.Write(members[i])
				if i > 0 {
					b.WriteByte(',')
				}
			}
			b.WriteByte('}')
		case '[':
			b.WriteByte('[')
			for n := 0; d.More(); n++ {
				if n > 0 {
					b.WriteByte(',')
				}
				if err := reverseValue(d, b); err != nil {
					return err
				}
			}
			if _, err := d.Token(); err != nil {
				return err
			}
			b.WriteByte(']')
		}
	case json.Number:
		b.WriteString(v.String())
	default:
		vb, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(vb)
	}
	return nil
}

// decodeEvents decodes NDJSON events, strings holding JSON objects or
// arrays decoded too.
func decodeEvents(t *testing.T, ndjson []byte) []any {
	var out []any
	for _, line := range bytes.Split(bytes.TrimSpace(ndjson), []byte("\n")) {
		var v any
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
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
