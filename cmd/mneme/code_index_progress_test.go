package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodeIndexProgress: `code explore --index` off a terminal (stderr a
// pipe, as in a log or CI) says how many files it will embed and when it
// is done; --json keeps stderr quiet unless --progress asks for JSON
// lines; --progress=false silences it; nothing stale, nothing said.
func TestCodeIndexProgress(t *testing.T) {
	repo := t.TempDir()
	for i := range 230 {
		p := filepath.Join(repo, "pkg", fmt.Sprintf("f%03d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("package pkg\n\n// F%d returns %d.\nfunc F%d() int { return %d }\n", i, i, i, i)), 0o644)
	}
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	run := func(home string, args ...string) result {
		t.Helper()
		r := mnemeEnv(t, home, "", env, append([]string{"code", "explore", repo, "--index", "--embedder", "hash"}, args...)...)
		if r.code != 0 {
			t.Fatalf("code explore --index %v: exit %d: %s", args, r.code, r.stderr)
		}
		return r
	}

	r := run(t.TempDir())
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if lines[0] != "index: 230 files to read and embed" || !strings.HasPrefix(lines[len(lines)-1], "index: 230/230 files (100%), ") {
		t.Errorf("text: stderr %q", r.stderr)
	}
	if !strings.Contains(r.stdout, "index: 230 files embedded") || strings.Contains(r.stdout, "to read and embed") {
		t.Errorf("text: progress in stdout, or no result: %q", r.stdout)
	}

	if r := run(t.TempDir(), "--json"); strings.TrimSpace(r.stderr) != "" {
		t.Errorf("--json wrote to stderr: %q", r.stderr)
	}
	if r := run(t.TempDir(), "--progress=false"); strings.TrimSpace(r.stderr) != "" {
		t.Errorf("--progress=false wrote to stderr: %q", r.stderr)
	}

	home := t.TempDir()
	r = run(home, "--json", "--progress")
	var last struct {
		Progress struct {
			Task        string
			Done, Total int
		}
	}
	jl := strings.Split(strings.TrimSpace(r.stderr), "\n")
	for _, l := range jl {
		if err := json.Unmarshal([]byte(l), &last); err != nil {
			t.Fatalf("--json --progress: not a JSON line: %q", l)
		}
	}
	if len(jl) < 2 || last.Progress.Task != "index" || last.Progress.Done != 230 || last.Progress.Total != 230 {
		t.Errorf("--json --progress: %q", r.stderr)
	}
	if r := run(home); strings.TrimSpace(r.stderr) != "" {
		t.Errorf("nothing stale, yet stderr says %q", r.stderr)
	}
}
