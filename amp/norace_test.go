//go:build !race

package amp_test

const raceEnabled = false
