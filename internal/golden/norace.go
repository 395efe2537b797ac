//go:build !race

package golden

// Race reports whether the race detector is on: allocation counts and
// timings mean nothing then.
const Race = false
