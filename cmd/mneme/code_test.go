package main_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type codeJSON struct {
	Command     string `json:"command"`
	ProjectID   string `json:"project_id"`
	CacheStatus string `json:"cache_status"`
	Stats       struct {
		FileCount int `json:"file_count"`
		Reused    int `json:"reused_entries"`
		Rehashed  int `json:"rehashed_entries"`
	} `json:"stats"`
	Delta struct {
		Added, Modified, Removed int
		Files                    []struct{ Path, Change string }
	} `json:"delta"`
	Context *struct {
		EntryPoints []struct{ Kind, Path string } `json:"entry_points"`
	} `json:"context"`
	Index *struct {
		Project string `json:"project"`
		Files   int    `json:"files"`
		Removed int    `json:"removed"`
	} `json:"index"`
}

// TestCodeFlow runs the code commands through the binary: a cold explore,
// a hit, a delta after an edit, --index into memory, recall of code by
// meaning, a deleted file's records forgotten.
func TestCodeFlow(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + t.TempDir(), "MNEME_MODEL_DIR=" + modelDir()}
	files := map[string]string{
		"go.mod":              "module example.com/shop\n",
		"cmd/shop/main.go":    "package main\n\nimport \"example.com/shop/internal/db\"\n\nfunc main() { db.Open() }\n",
		"internal/db/db.go":   "package db\n\n// Open connects to the PostgreSQL database that stores the orders.\nfunc Open() {}\n",
		"README.md":           "# Shop\n\nSells things.\n",
		"node_modules/x/a.js": "module.exports = 1\n",
		".gitignore":          "tmp/\n",
		"tmp/scratch.go":      "package tmp\n",
	}
	for p, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755)
		os.WriteFile(filepath.Join(repo, p), []byte(body), 0o644)
	}
	code := func(args ...string) codeJSON {
		t.Helper()
		r := mnemeEnv(t, home, "", env, append([]string{"code"}, append(args, repo, "--json")...)...)
		if r.code != 0 {
			t.Fatalf("code %v: exit %d: %s", args, r.code, r.stderr)
		}
		return decode[codeJSON](t, r.stdout)
	}
	c := code("explore")
	if c.CacheStatus != "miss" || c.Stats.FileCount != 4 || c.Delta.Added != 4 || c.Context == nil ||
		len(c.Context.EntryPoints) != 1 || c.Context.EntryPoints[0].Path != "cmd/shop" {
		t.Fatalf("cold explore = %+v", c)
	}
	if c = code("explore"); c.CacheStatus != "hit" || c.Stats.Reused != 4 || c.Stats.Rehashed != 0 {
		t.Fatalf("second explore = %+v", c)
	}
	os.WriteFile(filepath.Join(repo, "internal/db/db.go"), []byte(files["internal/db/db.go"]+"\n// Close closes it.\nfunc Close() {}\n"), 0o644)
	if c = code("delta"); c.Delta.Modified != 1 || len(c.Delta.Files) != 1 || c.Delta.Files[0].Path != "internal/db/db.go" || c.Context != nil {
		t.Fatalf("delta = %+v", c)
	}
	if c = code("explore", "--index"); c.Index == nil || c.Index.Files != 4 || c.Index.Project != c.ProjectID {
		t.Fatalf("index = %+v", c)
	}
	r := decode[recallJSON](t, ok(t, home, "recall", "where do we connect to the database", "--project", c.ProjectID, "--json"))
	if len(r.Hits) == 0 || r.Hits[0].Record["kind"] != "code" || r.Hits[0].Record["source"].(map[string]any)["uri"] != "internal/db/db.go" {
		t.Fatalf("recall = %+v", r)
	}
	os.Remove(filepath.Join(repo, "README.md"))
	if c = code("delta", "--index"); c.Delta.Removed != 1 || c.Index.Removed != 1 || c.Index.Files != 0 {
		t.Fatalf("delta --index after a removal = %+v", c)
	}
	out := mnemeEnv(t, home, "", env, "code", "explore", repo, "--detail", "normal")
	if out.code != 0 || !strings.Contains(out.stdout, "go-main") || !strings.Contains(out.stdout, "cache hit") {
		t.Fatalf("text explore: %d %s %s", out.code, out.stdout, out.stderr)
	}
	if bad := mnemeEnv(t, home, "", env, "code", "explore", repo, "--detail", "huge"); bad.code != 2 {
		t.Fatalf("bad detail: %d %s", bad.code, bad.stderr)
	}
}

// modelDir is where the built-in model is outside the test's own cache
// directory.
func modelDir() string {
	if d := os.Getenv("MNEME_MODEL_DIR"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "mneme", "models", "all-minilm-l6-v2")
}

// TestCodeWatchIndex runs `code watch --index` through the binary: its
// first line indexes the repository, a new file is indexed as it lands,
// an interrupt ends it cleanly, and recall then finds the new file.
func TestCodeWatchIndex(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	cmd := exec.Command(bin, "code", "watch", repo, "--index", "--embedder", "hash", "--interval", "300ms")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home, "XDG_CACHE_HOME="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() //nolint:errcheck // ended already when the test passes
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(what string) codeJSON {
		t.Helper()
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("watch ended before %s: %s", what, stderr.String())
			}
			return decode[codeJSON](t, line)
		case <-time.After(20 * time.Second):
			t.Fatalf("no line for %s: %s", what, stderr.String())
		}
		return codeJSON{}
	}
	if c := next("the first delta"); c.Delta.Added != 1 || c.Index == nil || c.Index.Files != 1 {
		t.Fatalf("first line = %+v", c)
	}
	os.WriteFile(filepath.Join(repo, "billing.go"), []byte("package main\n\n// Round rounds invoice totals to whole cents for the ledger.\nfunc Round() {}\n"), 0o644)
	c := next("the new file")
	if c.Delta.Added != 1 || c.Delta.Files[0].Path != "billing.go" || c.Index == nil || c.Index.Files != 1 {
		t.Fatalf("after a new file = %+v", c)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("interrupted watch: %v: %s", err, stderr.String())
	}
	r := decode[recallJSON](t, ok(t, home, "recall", "invoice totals ledger cents", "--project", c.ProjectID, "--embedder", "hash", "--json"))
	if len(r.Hits) == 0 || r.Hits[0].Record["source"].(map[string]any)["uri"] != "billing.go" {
		t.Fatalf("recall = %+v", r)
	}
}

// TestCodeTextEscapes: file names carrying terminal escapes are shown
// escaped by `code explore` and `code delta` (as list and get show them),
// never raw.
func TestCodeTextEscapes(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	os.MkdirAll(filepath.Join(repo, "\x1b[2Jdir"), 0o755)
	os.WriteFile(filepath.Join(repo, "\x1b[2Jdir", "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/x\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "title\x1b]0;pwned\x07.go"), []byte("package x\n"), 0o644)
	for i, args := range [][]string{{"explore", "--detail", "verbose"}, {"delta"}} {
		if i == 1 {
			os.WriteFile(filepath.Join(repo, "new\x1b[31m.go"), []byte("package x\n"), 0o644)
			os.WriteFile(filepath.Join(repo, "title\x1b]0;pwned\x07.go"), []byte("package x\n\nvar Y = 1\n"), 0o644)
		}
		r := mnemeEnv(t, home, "", env, append([]string{"code", args[0], repo}, args[1:]...)...)
		if r.code != 0 {
			t.Fatalf("code %v: exit %d: %s", args, r.code, r.stderr)
		}
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") {
			t.Fatalf("code %v printed a raw escape: %q", args, r.stdout)
		}
		if !strings.Contains(r.stdout, `\x1b`) {
			t.Fatalf("code %v: no escaped name: %q", args, r.stdout)
		}
	}
}

// TestCodeWatchQuiet: `code watch` on a repository whose artifact is
// current prints nothing until something changes: its first line is the
// first change, not an empty delta.
func TestCodeWatchQuiet(t *testing.T) {
	home, repo, cache := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	mnemeEnv(t, home, "", []string{"XDG_CACHE_HOME=" + cache}, "code", "explore", repo)
	cmd := exec.Command(bin, "code", "watch", repo, "--interval", "200ms", "--poll")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home, "XDG_CACHE_HOME="+cache)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() //nolint:errcheck // ended already when the test passes
	lines := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	time.Sleep(time.Second) // the first scan is done
	os.WriteFile(filepath.Join(repo, "b.go"), []byte("package main\n"), 0o644)
	select {
	case line := <-lines:
		if c := decode[codeJSON](t, line); c.Delta.Added != 1 || c.Delta.Files[0].Path != "b.go" {
			t.Fatalf("first line = %s", line)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no line after a change")
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
}

// TestCodeHelpFlags: each code subcommand's help lists only the flags it
// takes (--interval and --poll are watch's), and the others refuse them.
func TestCodeHelpFlags(t *testing.T) {
	home := t.TempDir()
	for _, sub := range []string{"explore", "context", "delta", "refresh", "watch"} {
		r := mneme(t, home, "", "code", sub, "-h")
		help := r.stdout + r.stderr
		if !strings.Contains(help, "--detail") && !strings.Contains(help, "-detail") {
			t.Fatalf("code %s -h: no --detail: %s", sub, help)
		}
		if watch := strings.Contains(help, "interval") || strings.Contains(help, "poll"); watch != (sub == "watch") {
			t.Fatalf("code %s -h lists watch's flags: %v: %s", sub, watch, help)
		}
	}
	if r := mneme(t, home, "", "code", "explore", t.TempDir(), "--poll"); r.code != 2 {
		t.Fatalf("code explore --poll: exit %d: %s", r.code, r.stderr)
	}
}
