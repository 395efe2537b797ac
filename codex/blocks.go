package codex

// blocks hands out pointers to zeroed values of T from blocks: one
// allocation for many values that a session makes one by one (a native
// item, a response, a usage event's data) instead of one each. Blocks
// double from 2 values up to limit (a session of a few lines does not pay
// for a big one). A value is handed out once and never reused: whatever
// refers to it (the state, events) has it as its own, and a block lives
// as long as any of its values does.
type blocks[T any] struct {
	free []T
	size int // the length of the last block made
}

func (b *blocks[T]) next(limit int) *T {
	if len(b.free) == 0 {
		b.size = min(max(2*b.size, 2), limit)
		b.free = make([]T, b.size)
	}
	p := &b.free[0]
	b.free = b.free[1:]
	return p
}
