package main_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// TestReadCommandsNeedAHome: a read command on a directory that holds no
// home (a mistyped --home) says so and creates nothing; only a write does.
func TestReadCommandsNeedAHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "typo")
	reads := [][]string{{"list"}, {"stats"}, {"export"}, {"recall", "deploys"}, {"doctor"},
		{"get", "01a21bd1-de3e-7598-b18e-fc7a3b2d021e"}, {"history", "--key", "deploys"},
		{"context", "deploys"}}
	for _, args := range reads {
		r := mneme(t, home, "", args...)
		named := home
		if args[0] == "doctor" { // doctor shows no absolute path: the data directory is <home>
			named = "<home>"
		}
		if r.code != 2 || !strings.Contains(r.stderr, named) || !strings.Contains(r.stderr, "not a mneme data directory") || !strings.Contains(r.stderr, "mneme init") {
			t.Errorf("%v on a directory that is not a home: exit %d, %q; want exit 2 naming %s and `mneme init`", args, r.code, r.stderr, home)
		}
		if _, err := os.Stat(home); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%v created %s", args, home)
		}
	}
	// An empty directory is not a home either.
	os.MkdirAll(home, 0o700)
	if r := mneme(t, home, "", "stats"); r.code != 2 {
		t.Errorf("stats in an empty directory: exit %d, %q", r.code, r.stderr)
	}
	ok(t, home, "remember", "--embedder", "hash", "we deploy on Tuesdays")
	if out := ok(t, home, "stats"); !strings.Contains(out, "1 memor") {
		t.Errorf("stats after the first write: %q", out)
	}
}

// TestReadsOnAFullDisk: when the disk holding the home is full, reads
// still work and doctor says the disk is full. It needs a small tmpfs
// (root); without one it is skipped.
func TestReadsOnAFullDisk(t *testing.T) {
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Logf("mount: %v: %s", err, out)
		skips.Skip(t, "run as root (it mounts a 4 MB tmpfs)", "cannot mount a tmpfs")
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	home := filepath.Join(mnt, "home")
	id := strings.TrimSpace(ok(t, home, "remember", "--embedder", "hash", "--json", "we deploy on Tuesdays"))
	id = decode[writeJSON](t, id).ID
	ok(t, home, "remember", "--embedder", "hash", "rollback by reverting the tag")
	fill, err := os.Create(filepath.Join(mnt, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	for {
		if _, err := fill.Write(buf); err != nil {
			break
		}
	}
	fill.Close()
	for _, args := range [][]string{{"list"}, {"stats"}, {"export"}, {"get", id}, {"recall", "deploy"}, {"recall", "--embedder", "hash", "deploy"}} {
		r := mneme(t, home, "", args...)
		if r.code != 0 || (args[0] != "stats" && !strings.Contains(r.stdout, "Tuesdays")) {
			t.Errorf("%v on a full disk: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	r := mneme(t, home, "", "doctor", "--embedder", "hash")
	if !strings.Contains(r.stdout, "disk is full") || !strings.Contains(r.stdout, "memories") {
		t.Errorf("doctor on a full disk does not say the disk is full, or cannot read: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mneme(t, home, "", "remember", "--embedder", "hash", "one more")
	if r.code == 0 || !strings.Contains(r.stderr, "disk is full") {
		t.Errorf("a write on a full disk: exit %d, %q; want a failure that says the disk is full", r.code, r.stderr)
	}
	os.Remove(filepath.Join(mnt, "fill"))
	ok(t, home, "remember", "--embedder", "hash", "space again")
	if out := ok(t, home, "list"); !strings.Contains(out, "space again") || !strings.Contains(out, "Tuesdays") {
		t.Errorf("list after space was freed: %q", out)
	}
}

// TestFailedWriteDoesNotBindTheHome: a write that fails because the
// embedder is misconfigured (its dimension) leaves the home without an
// embedder, so the corrected configuration works at once; init refuses an
// embedder other than the one the home's vectors come from.
func TestFailedWriteDoesNotBindTheHome(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "")
	home, p := t.TempDir(), newProvider(t, "ok")
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"ollama","url":"`+p.URL+`","model":"fake","dim":4}}`), 0o600)
	if r := mneme(t, home, "", "remember", "the release train leaves on Tuesdays"); r.code != 2 || !strings.Contains(r.stderr, "dimension 8") {
		t.Fatalf("remember with a wrong dimension: exit %d, %s", r.code, r.stderr)
	}
	useProvider(t, home, "ollama", p.URL) // dim 8, right
	if w := decode[writeJSON](t, ok(t, home, "remember", "the release train leaves on Tuesdays", "--json")); w.Inserted != 1 || w.PendingEmbeddings != 0 {
		t.Fatalf("remember once the dimension is right: %+v", w)
	}
	r := mneme(t, home, "", "init", "--embedder", "hash", "--yes")
	if r.code != 2 || !strings.Contains(r.stderr, "mneme reindex --embedder hash") {
		t.Fatalf("init --embedder hash on a home of ollama vectors: exit %d, %s%s", r.code, r.stdout, r.stderr)
	}
	if w := decode[writeJSON](t, ok(t, home, "remember", "still writable", "--json")); w.Inserted != 1 || w.PendingEmbeddings != 0 {
		t.Fatalf("remember after the refused init: %+v", w)
	}
}
