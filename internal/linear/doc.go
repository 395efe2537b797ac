// Package linear checks that no translator, and none of reduce, notify and
// sessionlog, does work that grows faster than its input: re-concatenating
// accumulated text, re-scanning a log, copying a growing slice per
// message. It has tests only.
//
// The checks count allocations, which are deterministic, never time:
// golden.MeasureGrowth measures a run with some work repeated 0, n and 4n
// times, and golden.Growth.Superlinear fails when the bytes or the
// allocations of 4n repeats exceed 10 times those of n (linear work gives
// about 4, quadratic 16).
//
//   - TestTranslators repeats each kind of native message of every
//     translator (text, reasoning and tool argument deltas, tool output
//     chunks, part updates, notices, requests and responses …) within a
//     recorded capture, then finishes the capture.
//   - TestEventStreams folds long event logs into reduce.Session,
//     notify.Feed (throttled and not) and sessionlog.Log: a recorded log
//     with one delta repeated 10n and 40n times, or one item or one turn
//     repeated n and 4n times with its ids renamed per copy (many items,
//     tool calls, permissions and turns).
//
// By default they run on the main captures of each agent up to 128 KiB
// with few repeats (a few seconds); with the build tag long, on every
// capture, public logs and crosscheck recordings included, with more.
//
// Work that scans without allocating is invisible to these counts. Seven
// such paths that were quadratic (a Claude message of many blocks, many
// turns in notify, nested turns ending oldest first in reduce, many turns
// of a Codex session, OpenCode run output of many runs, many permissions
// asked and not answered, Claude sub-agents left open under many calls)
// have benchmarks instead, which show the cost per repeat at n and 4n
// side by side: go test -bench . ./internal/linear.
package linear
