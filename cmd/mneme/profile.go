package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// profileEnv names a folder where each process writes its CPU profile
// (cpu-PID.prof): a hidden switch for developers, since a hook's work is
// one short process and a benchmark cannot profile it from outside. Merge
// the files with `go tool pprof mneme DIR/cpu-*.prof`.
const profileEnv = "MNEME_CPUPROFILE"

// startProfile starts the CPU profile profileEnv asks for; the returned
// function stops it. Failing to profile never fails the command.
func startProfile(getenv func(string) string) func() {
	dir := getenv(profileEnv)
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.prof", os.Getpid())))
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}
