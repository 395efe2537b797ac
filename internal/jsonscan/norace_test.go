//go:build !race

package jsonscan

// raceEnabled: the race detector makes sync.Pool drop what is put in it at
// random, so a test of what a pool lends is skipped under it.
const raceEnabled = false
