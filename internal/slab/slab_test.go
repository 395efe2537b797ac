package slab

import "testing"

// TestAlloc: every value is distinct and zeroed, and blocks double from
// first up to most, so n values take about log2(most/first) + n/most
// allocations.
func TestAlloc(t *testing.T) {
	var s Slab[[2]int]
	seen := map[*[2]int]bool{}
	var sizes []int
	for range 40 {
		p := s.Alloc(2, 8)
		if seen[p] || *p != ([2]int{}) {
			t.Fatalf("value %p handed out twice or not zeroed: %v", p, *p)
		}
		seen[p] = true
		p[0] = 1 // written by its owner: no later value may see it
		if len(sizes) == 0 || sizes[len(sizes)-1] != s.size || len(s.block) == s.size-1 {
			sizes = append(sizes, s.size)
		}
	}
	want := []int{2, 4, 8, 8, 8, 8, 8}
	if len(sizes) != len(want) {
		t.Fatalf("block sizes %v, want %v", sizes, want)
	}
	for i := range want {
		if sizes[i] != want[i] {
			t.Fatalf("block sizes %v, want %v", sizes, want)
		}
	}
}
