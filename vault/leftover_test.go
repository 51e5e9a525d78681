package vault_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		skips.Skip(t, "", "no `true` to run: "+err.Error())
	}
	return cmd.Process.Pid
}

// TestCrashLeftoversAreRemoved: an export killed mid-way leaves a
// temporary folder beside the vault, or temporary files inside it; the next
// export removes those of exports no longer running, and keeps those of a
// running one.
func TestCrashLeftoversAreRemoved(t *testing.T) {
	eng := engine(t)
	seed(t, eng, records())
	parent := t.TempDir()
	dir := filepath.Join(parent, "v")
	dead, live := deadPID(t), os.Getpid()
	for _, name := range []string{fmt.Sprintf(".v.tmp-%d-1", dead), fmt.Sprintf(".v.tmp-%d-2", live)} {
		write(filepath.Join(parent, name), "a.md", "half a vault")
	}
	export(t, eng, dir, "secret")
	if _, err := os.Stat(filepath.Join(parent, fmt.Sprintf(".v.tmp-%d-1", dead))); !os.IsNotExist(err) {
		t.Errorf("a dead export's folder is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(parent, fmt.Sprintf(".v.tmp-%d-2", live))); err != nil {
		t.Errorf("a running export's folder was removed: %v", err)
	}

	deadFile, liveFile := fmt.Sprintf(".tmp-%d-ab-x.md", dead), fmt.Sprintf(".tmp-%d-cd-x.md", live)
	write(dir, deadFile, "half a note")
	write(dir, liveFile, "half a note")
	export(t, eng, dir, "secret")
	if _, err := os.Stat(filepath.Join(dir, deadFile)); !os.IsNotExist(err) {
		t.Errorf("a dead export's temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, liveFile)); err != nil {
		t.Errorf("a running export's temporary file was removed: %v", err)
	}
}
