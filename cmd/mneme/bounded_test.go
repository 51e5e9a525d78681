package main_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/skips"
)

// TestBoundedErrors: a huge bad value (a project name, a tag, a time, a
// flag) gives an error that quotes at most the start of it. One command
// line argument is limited to 128 KiB by the kernel, so the megabyte
// values travel in files.
func TestBoundedErrors(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "--embedder", "hash", "a home for the reads to open")
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	arg := strings.Repeat("x", 100<<10) // under the kernel's limit for one argument
	mb := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"project flag", []string{"remember", "text", "--project", arg}, "is not a valid name"},
		{"tag flag", []string{"remember", "text", "--tags", arg}, "is longer than"},
		{"time flag", []string{"remember", "text", "--at", arg}, "is not a time"},
		{"ttl flag", []string{"remember", "text", "--ttl", arg}, "is not a positive duration"},
		{"type flag", []string{"remember", "text", "--type", arg}, "is not valid"},
		{"recall since", []string{"recall", "text", "--since", arg}, "is not a time"},
		{"forget before", []string{"forget", "--before", arg}, "is not a time"},
		{"get id", []string{"get", arg}, "is not a record id"},
		{"list cursor", []string{"list", "--cursor", arg}, "cursor"},
		{"unknown flag", []string{"recall", "x", "--" + arg}, "flag provided but not defined"},
		{"bad flag value", []string{"recall", "x", "--k", arg}, "invalid value"},
		{"stray argument", []string{"stats", arg}, "no arguments, only flags"},
		{"unknown command", []string{arg}, "unknown command"},
		{"request project", []string{"recall", "--request", file("p.json", `{"query":"x","project":"`+mb+`"}`)}, "is not a valid name"},
		{"request since", []string{"recall", "--request", file("s.json", `{"query":"x","since":"`+mb+`"}`)}, "is not a time"},
		{"request unknown field", []string{"recall", "--request", file("f.json", `{"query":"x","`+mb+`":1}`)}, "unknown field"},
		{"request wrong type", []string{"recall", "--request", file("k.json", `{"query":"x","k":1`+strings.Repeat("0", 1<<20)+`}`)}, "must be a number"},
		{"import project", []string{"import", file("i1.jsonl", `{"text":"x","project":"`+mb+`"}`)}, "is not a valid name"},
		{"import tag", []string{"import", file("i2.jsonl", `{"text":"x","tags":["`+mb+`"]}`)}, "is longer than"},
		{"import time", []string{"import", file("i3.jsonl", `{"text":"x","created_at":"`+mb+`"}`)}, "is not RFC 3339"},
		{"import id", []string{"import", file("i4.jsonl", `{"text":"x","id":"`+mb+`"}`)}, "is not a UUID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, json := range []bool{false, true} {
				args := c.args
				if json {
					args = append(args[:len(args):len(args)], "--json")
				}
				r := mneme(t, home, "", args...)
				if r.code != 2 || !strings.Contains(r.stderr, c.want) {
					t.Fatalf("exit %d, want 2 and %q: %.300s", r.code, c.want, r.stderr)
				}
				if len(r.stderr) > 1024 {
					t.Fatalf("a %d-byte error (want under 1 KB): %.300s…", len(r.stderr), r.stderr)
				}
			}
		})
	}
}

// TestIgnoreFilesBounded: a FIFO at .git/info/exclude and a sparse 1 GiB
// .gitignore neither hang nor swell `code explore`, `ingest` and the
// server's code route: each ends within seconds, in little memory, and
// says which ignore file it did not read.
func TestIgnoreFilesBounded(t *testing.T) {
	src := t.TempDir()
	repo := filepath.Join(src, "repo")
	os.MkdirAll(filepath.Join(repo, ".git", "info"), 0o755)
	os.MkdirAll(filepath.Join(repo, "sub"), 0o755)
	os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "sub", "util.go"), []byte("package sub\n"), 0o644)
	if err := mkfifo(filepath.Join(repo, ".git", "info", "exclude")); err != nil {
		skips.Skip(t, "", "mkfifo: "+err.Error())
	}
	if err := os.WriteFile(filepath.Join(repo, "sub", ".gitignore"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(repo, "sub", ".gitignore"), 1<<30); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"code": map[string]any{"roots": []string{src}}})
	os.WriteFile(filepath.Join(home, "config.json"), cfg, 0o600)
	env := []string{"MNEME_HOME=" + home, "XDG_CACHE_HOME=" + t.TempDir(), "MNEME_EMBEDDER=hash"}
	for _, args := range [][]string{{"code", "explore", repo}, {"code", "explore", repo, "--json"}, {"ingest", repo}} {
		r, rss := runBounded(t, 20*time.Second, env, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		if rss > 100<<20 {
			t.Fatalf("%v: %d MiB of memory", args, rss>>20)
		}
		out := r.stderr + r.stdout
		for _, want := range []string{".git/info/exclude was not read (it is not a regular file)", "sub/.gitignore was not read (it is over 1 MiB)"} {
			if !strings.Contains(out, want) {
				t.Fatalf("%v: no note %q: %s", args, want, out)
			}
		}
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	s := serve(t, home, "--embedder", "hash")
	body, _ := json.Marshal(map[string]any{"project_root": repo})
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Post(s.url+"/v1/code/explore", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("POST /v1/code/explore: %v", err)
	}
	defer resp.Body.Close()
	var served struct {
		Stats struct {
			FileCount int `json:"file_count"`
		} `json:"stats"`
		Notes []string `json:"notes"`
	}
	if json.NewDecoder(resp.Body).Decode(&served); resp.StatusCode != 200 || served.Stats.FileCount != 2 || len(served.Notes) != 2 {
		t.Fatalf("POST /v1/code/explore: %d %+v", resp.StatusCode, served)
	}
}

// runBounded runs mneme with env, killing it after limit (a failure), and
// returns its result and peak resident memory in bytes (see watch).
func runBounded(t *testing.T, limit time.Duration, env []string, args ...string) (result, int64) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err, took, peak := watch(t, cmd, limit)
	if took > limit {
		t.Fatalf("mneme %v still running after %v: %s", args, limit, errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run mneme %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}, peak << 20
}
