//go:build long

package corpus_test

// The long run: every recorded input.
const wholeCorpus = true
