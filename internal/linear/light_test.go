//go:build !long

package linear

// The light run of go test: the main captures of each agent (no public
// logs, no crosscheck recordings) up to 128 KiB, one message per kind,
// fewer repeats. The build tag long runs them all (long_test.go).
const (
	wholeCorpus = false
	maxInput    = 128 << 10
	perKind     = 1
	corpusN     = 150
	eventsN     = 60
)
