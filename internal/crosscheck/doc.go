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
// The same recordings prove the first promise of the universal schema, that
// a client never special-cases an agent: TestFormatsAgree requires every
// format of one recording (live output, protocol exchange, the record at
// rest) to reduce to the same client-visible projection (package
// internal/conformance), and TestAgentsAgree the same of every agent and
// version that recorded a scenario. What may differ is listed case by case
// with its reason: what a format does not record, where the scripted model
// did other things for an agent, where the agents themselves behave
// differently. TestResumedRun holds a resumed process's own output (the
// s19-resume captures' "-resumed") to the last turn of its whole session:
// the same native id, no history shown again, usage not added twice.
//
// TestRecordings, which runs every recording through the whole golden
// harness, takes a few minutes; it runs with the build tag long:
//
//	go test -tags long ./internal/crosscheck
//
// The recordings live in testdata/crosscheck/<agent>/<version>/ under the
// capture lab's names; session files are renamed out of their folders
// (see testdata/SOURCES.md).
package crosscheck
