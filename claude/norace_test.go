//go:build !race

package claude_test

const raceEnabled = false
