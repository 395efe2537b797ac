package uninit

import (
	"fmt"
	"testing"
)

// TestBytes: an empty slice with room for exactly the bytes asked (a
// size class may give more, never less), memory of its own for each call,
// and nil for nothing.
func TestBytes(t *testing.T) {
	for _, n := range []int{-1, 0} {
		if b := Bytes(n); b != nil {
			t.Errorf("Bytes(%d) = %v, want nil", n, b)
		}
	}
	for _, n := range []int{1, 7, 64, 4096, 1 << 20} {
		a, b := Bytes(n), Bytes(n)
		if len(a) != 0 || cap(a) < n {
			t.Fatalf("Bytes(%d): len %d cap %d", n, len(a), cap(a))
		}
		a = append(a, make([]byte, n)...)
		b = append(b, make([]byte, n)...)
		a[0], b[0] = 1, 2
		if a[0] != 1 {
			t.Fatalf("Bytes(%d) twice shares memory", n)
		}
	}
}

func BenchmarkBytes(b *testing.B) {
	for _, n := range []int{64, 64 << 10} {
		b.Run(fmt.Sprintf("uninit/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				sink = append(Bytes(n), filler[:n]...)
			}
		})
		b.Run(fmt.Sprintf("make/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				sink = append(make([]byte, 0, n), filler[:n]...)
			}
		})
	}
}

var (
	sink   []byte
	filler = make([]byte, 64<<10)
)
