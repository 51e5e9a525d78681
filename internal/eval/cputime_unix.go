//go:build unix

package eval

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time this process has used (user and system). On a
// shared, loaded machine the wall clock measures the share of the CPU a
// benchmark got; CPU time measures the work.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
