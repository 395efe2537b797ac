// Package uninit makes byte buffers whose memory is not cleared first.
//
// make([]byte, 0, n) clears all n bytes, though a buffer that is only
// ever appended to is written before it is read: for the blocks a reduced
// session packs its items into, or a rollout's metadata that a system
// prompt of some kilobytes is copied into, clearing is work (and, for a
// fresh large block, a pass over memory) that nothing needs.
// strings.Builder.Grow allocates without clearing; Bytes borrows that.
// (Where the clearing could not be shown to cost anything, as for the
// stamper's arena, buffers are made with make.)
//
// The caller promises to read no byte it did not write: a slice from
// Bytes is appended to, and only what was appended (b[:len(b)], or views
// of it capped at their length) is handed on.
//
//	b := uninit.Bytes(len(s))
//	b = append(b, s...)
package uninit

import (
	"strings"
	"unsafe"
)

// Bytes returns an empty slice with room for n bytes, whose memory may
// hold anything until it is written. n <= 0 gives a nil slice.
func Bytes(n int) []byte {
	if n <= 0 {
		return nil
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(0) // String of an empty builder has no memory to borrow
	return unsafe.Slice(unsafe.StringData(b.String()), n)[:0]
}
