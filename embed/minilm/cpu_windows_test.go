package minilm

import "syscall"

// cpuSeconds is the process's user+system CPU time (see cpu_unix_test.go).
func cpuSeconds() float64 {
	var creation, exit, kernel, user syscall.Filetime
	h, err := syscall.GetCurrentProcess()
	if err != nil || syscall.GetProcessTimes(h, &creation, &exit, &kernel, &user) != nil {
		return 0
	}
	return float64(kernel.Nanoseconds()+user.Nanoseconds()) / 1e9
}
