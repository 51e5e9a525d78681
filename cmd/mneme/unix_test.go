//go:build unix

package main_test

import (
	"os"
	"syscall"
)

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }

// peakRSS is a finished process's peak resident memory in bytes (0 when
// unknown).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) << 10 // KiB on Linux
	}
	return 0
}
