package ordered

import (
	"slices"
	"testing"
)

func TestByKey(t *testing.T) {
	m := map[string]int{"c": 3, "a": 1, "b": 2, "": 0}
	for range 20 {
		var keys []string
		var vals []int
		for k, v := range ByKey(m) {
			keys, vals = append(keys, k), append(vals, v)
		}
		if !slices.Equal(keys, []string{"", "a", "b", "c"}) || !slices.Equal(vals, []int{0, 1, 2, 3}) {
			t.Fatalf("ByKey gave %q %v", keys, vals)
		}
	}
	for k := range ByKey(m) {
		if k != "" {
			t.Fatalf("a break still yields %q", k)
		}
		break
	}
	for range ByKey(map[string]int(nil)) {
		t.Fatal("a nil map has entries")
	}
}
