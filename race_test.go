//go:build race

package agentnorm_test

const raceEnabled = true
