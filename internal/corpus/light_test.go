//go:build !long

package corpus_test

// The light run of go test leaves out the crosscheck recordings; the
// build tag long runs them too (long_test.go).
const wholeCorpus = false
