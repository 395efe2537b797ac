//go:build unix

package reduce_test

import "syscall"

// cpuTime returns the CPU time the process has used, in nanoseconds (user
// and system, all threads): benchmarks report it next to the wall clock,
// which a loaded machine inflates.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
