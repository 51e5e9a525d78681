//go:build unix

package minilm

import "syscall"

// cpuSeconds is the process's user+system CPU time. On a shared, loaded
// machine the wall clock measures the share of the CPU a benchmark got;
// CPU time (with -cpu 1) measures the work.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
