//go:build long

package linear

// The long run: every recorded capture, two messages per kind, more
// repeats.
const (
	wholeCorpus = true
	maxInput    = 64 << 20
	perKind     = 2
	corpusN     = 600
	eventsN     = 300
)
