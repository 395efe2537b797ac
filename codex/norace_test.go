//go:build !race

package codex_test

const raceEnabled = false
