//go:build !race

package opencode_test

const raceEnabled = false
