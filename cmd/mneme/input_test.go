package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/skips"
)

// boundedRun runs mneme with stdin (nil: none) and stops it with SIGKILL
// once it has run for limit or its resident set passes 400 MB, so an
// unbounded read cannot take the machine with it. It returns how the run
// ended, its wall time and its peak resident set in MB, sampled from
// /proc (VmHWM): rusage's Maxrss of a child counts the test process's own
// memory at the fork, which grows as the package's tests run.
func boundedRun(t *testing.T, home string, stdin *os.File, limit time.Duration, args ...string) (result, time.Duration, int64) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err, took, peak := watch(t, cmd, limit)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return result{out.String(), errb.String(), code}, took, peak
}

// watch starts cmd and waits for it, killing it once it has run for limit
// or its resident set passes 400 MB; it returns how it ended, its wall
// time and its peak resident set in MB.
func watch(t *testing.T, cmd *exec.Cmd, limit time.Duration) (error, time.Duration, int64) {
	t.Helper()
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak int64
	for {
		select {
		case err := <-done:
			return err, time.Since(t0), peak
		case <-time.After(5 * time.Millisecond):
			peak = max(peak, statusMB(cmd.Process.Pid, "VmHWM:"))
			if time.Since(t0) > limit || statusMB(cmd.Process.Pid, "VmRSS:") > 400 {
				cmd.Process.Kill()
			}
		}
	}
}

// statusMB is a running process's memory figure named field (VmRSS:, its
// resident set; VmHWM:, its peak) in MB, 0 when unknown.
func statusMB(pid int, field string) int64 {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb >> 10
		}
	}
	return 0
}

// TestEndlessInput: every flag and argument that reads a file or standard
// input, given /dev/zero, ends within 5 s and 100 MB with a clear error
// that names the input and the limit.
func TestEndlessInput(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		skips.Skip(t, "", "no /dev/zero")
	}
	home := t.TempDir()
	ok(t, home, "remember", "a memory about the release train", "--embedder", "hash")
	pkg := filepath.Join(t.TempDir(), "pkg.json")
	os.WriteFile(pkg, []byte(ok(t, home, "context", "release", "--embedder", "hash", "--json")), 0o600)
	const z = "/dev/zero"
	for _, c := range []struct {
		name  string
		stdin bool // /dev/zero on standard input, named "-" or not at all
		args  []string
		want  string
	}{
		{"import file", false, []string{"import", z}, z + ": line 1 is longer than 8 MiB"},
		{"import stdin", true, []string{"import", "-"}, "standard input: line 1 is longer than 8 MiB"},
		{"recall request", false, []string{"recall", "--request", z}, z + " is larger than 8 MiB"},
		{"recall request stdin", true, []string{"recall", "--request", "-"}, "standard input is larger than 8 MiB"},
		{"recall batch", false, []string{"recall", "--batch", z}, z + ": line 1 is longer than 8 MiB"},
		{"context request", false, []string{"context", "--request", z}, z + " is larger than 8 MiB"},
		{"context batch", false, []string{"context", "--batch", z}, z + ": line 1 is longer than 8 MiB"},
		{"ground package", false, []string{"ground", "--package", z, "--answer", "yes"}, z + " is larger than 8 MiB"},
		{"ground answer", true, []string{"ground", "--package", pkg, "--answer", "-"}, "standard input is larger than 8 MiB"},
		{"embed batch", false, []string{"embed", "--batch", z, "--embedder", "hash"}, z + ": line 1 is longer than 8 MiB"},
		{"bench locomo", false, []string{"bench", "locomo", z}, z + " is not a regular file"},
		{"bench ground", false, []string{"bench", "ground", z}, z + " is not a regular file"},
		{"remember stdin", true, []string{"remember", "-"}, "standard input is larger than 8 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdin *os.File
			if c.stdin {
				f, err := os.Open(z)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				stdin = f
			}
			r, took, mb := boundedRun(t, home, stdin, 10*time.Second, c.args...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, want 2 and %q: %.300s", r.code, c.want, r.stderr)
			}
			if took > 5*time.Second || mb > 100 {
				t.Errorf("took %v and %d MB (want under 5 s and 100 MB)", took, mb)
			}
		})
	}
}

// TestInterruptedInput: a command waiting on input that does not come
// ends at the first SIGTERM (exit 143) or SIGINT (130), without writing.
func TestInterruptedInput(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		sig  syscall.Signal
		code int
	}{
		{[]string{"import", "-"}, syscall.SIGTERM, 143},
		{[]string{"recall", "--request", "-"}, syscall.SIGINT, 130},
		{[]string{"embed", "--batch", "-"}, syscall.SIGTERM, 143},
		{[]string{"remember", "-"}, syscall.SIGTERM, 143},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			pr, pw, err := os.Pipe() // nothing is ever written
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			cmd := exec.Command(bin, c.args...)
			cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
			cmd.Stdin = pr
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pr.Close()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			time.Sleep(300 * time.Millisecond)
			cmd.Process.Signal(c.sig)
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("still running 3 s after the signal: %s", errb.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(errb.String(), "interrupted") {
				t.Errorf("exit %d, want %d and \"interrupted\": %q", code, c.code, errb.String())
			}
		})
	}
}
