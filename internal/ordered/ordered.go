// Package ordered walks a map in the order of its keys, for the code
// whose outcome must not depend on Go's random map order: a checkpoint's
// validation, which reports the first bad entry it meets.
package ordered

import (
	"cmp"
	"iter"
	"maps"
	"slices"
)

// ByKey yields the entries of m in increasing key order. It sorts the
// keys first: for code that walks a map once (a restore), not a hot path.
func ByKey[K cmp.Ordered, V any](m map[K]V) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}
