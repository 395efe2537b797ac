// Package slab hands out pointers to zeroed values from blocks: one
// allocation for many values that a translator makes one by one (an
// event's data, a native item) instead of one each.
//
//	var s slab.Slab[T]
//	p := s.Alloc(4, 1024) // blocks of 4, 8, … up to 1024 values
//
// A value is handed out once and never reused: whatever refers to it has
// it as its own, and a block lives as long as any of its values does.
package slab

// Slab is a source of values of T; its zero value is ready to use.
type Slab[T any] struct {
	block []T
	size  int // the length of the last block made
}

// Alloc returns a pointer to a zeroed T. Blocks start at first values and
// double up to most: a short session does not pay for a big block, and a
// long one makes one allocation per most values.
func (s *Slab[T]) Alloc(first, most int) *T {
	if len(s.block) == 0 {
		s.size = min(max(2*s.size, first), most)
		s.block = make([]T, s.size)
	}
	p := &s.block[0]
	s.block = s.block[1:]
	return p
}
