package vault

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// Temporary files and folders carry the pid of the export that writes
// them, so a later export can tell the leftovers of one killed mid-way
// (its process is gone) from the work of one still running.

// tmpPrefix starts the name of a temporary file or folder made by this
// process.
func tmpPrefix(prefix string) string {
	return prefix + strconv.Itoa(os.Getpid()) + "-"
}

// leftover reports whether name starts with prefix and was made by a
// process that no longer runs.
func leftover(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	digits, _, ok := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(digits)
	return ok && err == nil && pid > 0 && !running(pid)
}

// running reports whether process pid exists. Where that cannot be told
// (Windows), every process counts as running: nothing is removed.
func running(pid int) bool {
	if runtime.GOOS == "windows" {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// removeLeftovers removes the temporary folders that killed exports of
// dir left beside it.
func removeLeftovers(dir string) {
	parent, prefix := filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-"
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && leftover(e.Name(), prefix) {
			_ = os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}
