package codemem

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// repo writes files (path → content) under a new directory.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		write(t, dir, p, body)
	}
	return dir
}

func write(t *testing.T, dir, p, body string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func run(t *testing.T, s *Service, cmd, root string, refresh bool) *Envelope {
	t.Helper()
	env, err := s.Run(cmd, Request{ProjectRoot: root, Refresh: refresh})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func expect(t *testing.T, step string, env *Envelope, status string, st Stats, d [3]int) {
	t.Helper()
	if env.CacheStatus != status || env.Stats != st || [3]int{env.Delta.Added, env.Delta.Modified, env.Delta.Removed} != d {
		t.Fatalf("%s: got %s %+v delta %+v; want %s %+v %v", step, env.CacheStatus, env.Stats, env.Delta, status, st, d)
	}
}

// TestArtifactLifecycle: miss → hit → touched file → delta → refresh →
// stale → version mismatch → torn artifact, each with its status, counts
// and delta.
func TestArtifactLifecycle(t *testing.T) {
	root := repo(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n", "lib/a.go": "package lib\n", "README.md": "# r\n",
		"node_modules/x/index.js": "noise", "logo.png": "\x89PNG\x00", ".gitignore": "gen/\n", "gen/out.go": "package gen\n"})
	clk := &clock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{CacheDir: t.TempDir(), Now: clk.now})

	expect(t, "first", run(t, s, CmdExplore, root, false), Miss, Stats{3, 0, 3}, [3]int{3, 0, 0})
	env := run(t, s, CmdExplore, root, false)
	expect(t, "again", env, Hit, Stats{3, 3, 0}, [3]int{})
	if b, _ := json.Marshal(env.Context); strings.Contains(string(b), "null") {
		t.Fatalf("the slice read from the artifact has null lists: %s", b)
	}

	// Touched but unchanged: rehashed, not modified; then reused.
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(root, "README.md"), later, later)
	expect(t, "touched", run(t, s, CmdDelta, root, false), Hit, Stats{3, 2, 1}, [3]int{})
	expect(t, "touched again", run(t, s, CmdDelta, root, false), Hit, Stats{3, 3, 0}, [3]int{})

	write(t, root, "lib/a.go", "package lib\n\nfunc A() {}\n")
	write(t, root, "lib/b.go", "package lib\n")
	os.Remove(filepath.Join(root, "README.md"))
	env = run(t, s, CmdDelta, root, false)
	expect(t, "edited", env, Hit, Stats{3, 1, 2}, [3]int{1, 1, 1})
	want := []Change{{"README.md", "removed"}, {"lib/a.go", "modified"}, {"lib/b.go", "added"}}
	if fmt.Sprint(env.Delta.Files) != fmt.Sprint(want) {
		t.Fatalf("delta files %v, want %v", env.Delta.Files, want)
	}
	expect(t, "refresh", run(t, s, CmdRefresh, root, false), Refreshed, Stats{3, 0, 3}, [3]int{})

	clk.t = clk.t.Add(DefaultTTL + time.Second)
	expect(t, "stale", run(t, s, CmdExplore, root, false), StaleRebuild, Stats{3, 0, 3}, [3]int{})
	expect(t, "after stale", run(t, s, CmdExplore, root, false), Hit, Stats{3, 3, 0}, [3]int{})

	file := artifactPath(s.o.CacheDir, env.ProjectID)
	data, _ := os.ReadFile(file)
	data[len(magic)]++ // another format version
	os.WriteFile(file, data, 0o600)
	if _, err := load(file); err != errVersion {
		t.Fatalf("version mismatch read as %v", err)
	}
	expect(t, "version", run(t, s, CmdExplore, root, false), Miss, Stats{3, 0, 3}, [3]int{3, 0, 0})

	// A torn artifact (cut short, or a byte changed) is never read.
	data, _ = os.ReadFile(file)
	for _, torn := range [][]byte{data[:len(data)/2], append(append([]byte{}, data[:len(data)-1]...), data[len(data)-1]^1)} {
		os.WriteFile(file, torn, 0o600)
		if a, err := load(file); a != nil || err == nil {
			t.Fatal("a torn artifact was read")
		}
		expect(t, "torn", run(t, s, CmdExplore, root, false), Miss, Stats{3, 0, 3}, [3]int{3, 0, 0})
	}
	if left, _ := filepath.Glob(filepath.Join(s.o.CacheDir, "*.tmp*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// TestEviction: beyond MaxRepos artifacts, the least recently used go.
func TestEviction(t *testing.T) {
	clk := &clock{time.Now()}
	cache := t.TempDir()
	s := New(Options{CacheDir: cache, MaxRepos: 3, Now: clk.now})
	var roots []string
	for i := range 4 {
		roots = append(roots, repo(t, map[string]string{"a.txt": fmt.Sprint(i)}))
	}
	for _, r := range roots[:3] {
		run(t, s, CmdDelta, r, false)
		clk.t = clk.t.Add(time.Minute)
		time.Sleep(10 * time.Millisecond)
	}
	// Use the first again: the second is now the least recently used.
	for _, f := range []string{roots[0]} {
		os.Chtimes(artifactPath(cache, ProjectID(canon(t, f))), clk.t, clk.t)
	}
	clk.t = clk.t.Add(time.Minute)
	run(t, s, CmdDelta, roots[3], false)
	arts, _ := filepath.Glob(filepath.Join(cache, "*.art"))
	if len(arts) != 3 {
		t.Fatalf("%d artifacts kept, want 3", len(arts))
	}
	if _, err := os.Stat(artifactPath(cache, ProjectID(canon(t, roots[1])))); !os.IsNotExist(err) {
		t.Fatalf("the least recently used artifact was kept: %v", err)
	}
	expect(t, "evicted", run(t, s, CmdDelta, roots[1], false), Miss, Stats{1, 0, 1}, [3]int{1, 0, 0})
}

func canon(t *testing.T, p string) string {
	c, err := canonical(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRoots: a restricted service serves only roots under its allowed
// directories.
func TestRoots(t *testing.T) {
	allowed := repo(t, map[string]string{"a/x.go": "package a\n"})
	other := repo(t, map[string]string{"b.go": "package b\n"})
	s := New(Options{CacheDir: t.TempDir(), Restrict: true, Roots: []string{allowed}})
	for _, tc := range []struct {
		root, code string
	}{{allowed, ""}, {filepath.Join(allowed, "a"), ""}, {other, "EFORBIDDEN"}, {allowed + "-x", "EFORBIDDEN"},
		{filepath.Join(allowed, "..", filepath.Base(other)), "EFORBIDDEN"}, {"/nonexistent/dir", "EFORBIDDEN"},
		{filepath.Join(allowed, "missing"), "EINVALID"}, {"", "EINVALID"}} {
		_, err := s.Run(CmdDelta, Request{ProjectRoot: tc.root})
		if code := errCode(err); code != tc.code {
			t.Errorf("%s: %v, want %s", tc.root, err, tc.code)
		}
	}
}
