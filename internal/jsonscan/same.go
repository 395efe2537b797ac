package jsonscan

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Same reports whether a and b are the same JSON value read by name: an
// object's members in any order (JSON objects are unordered, and a log
// re-serialized by jq -S, json.dumps(sort_keys=True) or a Go map reorders
// them), the first of a key given twice counting, as a lookup by name
// finds it; strings compared unescaped, numbers as written, arrays
// element by element. Text that is not valid JSON is the same only as the
// same text. It is for the rare comparison of two whole values (a tool
// call's streamed arguments with its final ones), not for hot paths: it
// allocates a member list per object.
func Same(a, b string) bool {
	if a == b {
		return true
	}
	if !gjson.Valid(a) || !gjson.Valid(b) {
		return false
	}
	return sameValue(gjson.Parse(a), gjson.Parse(b), 0)
}

// maxSameDepth bounds the recursion of sameValue: deeper values are compared
// as their text.
const maxSameDepth = 1000

// Named is one member of an object, by its unescaped key.
type Named struct {
	Key string
	Val gjson.Result
}

func sameValue(a, b gjson.Result, depth int) bool {
	if a.Type != b.Type || a.IsObject() != b.IsObject() || a.IsArray() != b.IsArray() {
		return false
	}
	if depth > maxSameDepth {
		return a.Raw == b.Raw
	}
	switch {
	case a.IsObject():
		ma, mb := SortedMembers(a), SortedMembers(b)
		if len(ma) != len(mb) {
			return false
		}
		for i := range ma {
			if ma[i].Key != mb[i].Key || !sameValue(ma[i].Val, mb[i].Val, depth+1) {
				return false
			}
		}
		return true
	case a.IsArray():
		ea, eb := a.Array(), b.Array()
		if len(ea) != len(eb) {
			return false
		}
		for i := range ea {
			if !sameValue(ea[i], eb[i], depth+1) {
				return false
			}
		}
		return true
	case a.Type == gjson.String:
		return a.Str == b.Str
	}
	return a.Raw == b.Raw
}

// SortedMembers returns an object's members sorted by key, the first of a
// key given twice kept: the object read by name, whatever its order.
func SortedMembers(o gjson.Result) []Named {
	var ms []Named
	o.ForEach(func(k, v gjson.Result) bool {
		ms = append(ms, Named{k.Str, v})
		return true
	})
	slices.SortStableFunc(ms, func(x, y Named) int { return strings.Compare(x.Key, y.Key) })
	return slices.CompactFunc(ms, func(x, y Named) bool { return x.Key == y.Key })
}
