// Package crosscheck runs every translator over a second set of recordings
// that no golden file was made from: the capture lab's "v2" scenarios (same
// shapes as the main captures, other texts, commands and file names),
// recorded for this repository with the shared capture lab against the same
// agent versions. Each recording is checked only by what must hold for any
// correct translation: the stream invariants, zero agent.unparsed,
// identical output under re-chunking and checkpoint/restore, and the
// capture's own expect block. A translator that handles the format, not
// the sample, passes them without having seen them.
//
// The recordings live in testdata/crosscheck/<agent>/<version>/ under the
// capture lab's names; session files are renamed out of their folders
// (see testdata/SOURCES.md).
package crosscheck
