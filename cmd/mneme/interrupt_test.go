package main_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// interruptImport starts `mneme import corpus` on home, sends sig once the
// embedding cache holds rows (the import is embedding), and returns how it
// ended. A run that ends before it embeds fails the test.
func interruptImport(t *testing.T, home, corpus string, sig syscall.Signal, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"import", corpus, "--embedder", "hash"}, args...)...)
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	base := cachedRows(home)
	for sent := false; ; {
		select {
		case err := <-done:
			if !sent {
				t.Fatalf("the import ended (%v) before it could be interrupted: %s", err, errb.String())
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			return result{out.String(), errb.String(), code}
		case <-time.After(5 * time.Millisecond):
			if !sent && cachedRows(home) > base {
				cmd.Process.Signal(sig)
				sent = true
			}
		}
	}
}

// cachedRows counts the embedding cache of home's database (0 while it
// cannot be read).
func cachedRows(home string) int {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "mneme.db")+"?mode=ro")
	if err != nil {
		return 0
	}
	defer db.Close()
	n := 0
	db.QueryRow("SELECT count(*) FROM embedding_cache").Scan(&n)
	return n
}

func countRecords(t *testing.T, home string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "mneme.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := -1
	if err := db.QueryRow("SELECT count(*) FROM records").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestInterruptedImport: Ctrl-C (SIGINT) while an import embeds exits 130
// and says what was kept (JSON on --json); SIGTERM exits 143. The cache
// holds what was embedded, nothing is written, and the same command run
// again finishes.
func TestInterruptedImport(t *testing.T) {
	home := t.TempDir()
	var lines strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&lines, `{"project":"p","text":"memory %d about the release train and rule %d"}`+"\n", i, i%97)
	}
	corpus := filepath.Join(t.TempDir(), "corpus.jsonl")
	os.WriteFile(corpus, []byte(lines.String()), 0o600)

	r := interruptImport(t, home, corpus, syscall.SIGINT, "--json")
	var e struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(r.stderr), &e); err != nil || r.code != 130 || r.stdout != "" {
		t.Fatalf("SIGINT with --json: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	m := regexp.MustCompile(`^interrupted: ([\d,]+) embeddings kept in the cache; nothing was written; run the same command again to resume$`).FindStringSubmatch(e.Error.Message)
	if e.Error.Code != "EUNAVAILABLE" || m == nil {
		t.Fatalf("SIGINT error = %+v", e.Error)
	}
	kept, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	if cached := cachedRows(home); kept == 0 || cached != kept || countRecords(t, home) != 0 {
		t.Fatalf("after SIGINT: %d kept, %d cached, %d records", kept, cached, countRecords(t, home))
	}

	r = interruptImport(t, home, corpus, syscall.SIGTERM)
	if r.code != 143 || !regexp.MustCompile(`^mneme import: interrupted: [\d,]+ embeddings kept in the cache; nothing was written; run the same command again to resume\n$`).MatchString(r.stderr) {
		t.Fatalf("SIGTERM: exit %d, stderr %q", r.code, r.stderr)
	}
	if cached := cachedRows(home); cached <= kept || countRecords(t, home) != 0 {
		t.Fatalf("after SIGTERM: %d cached (before: %d), %d records", cached, kept, countRecords(t, home))
	}
	if w := decode[writeJSON](t, ok(t, home, "import", corpus, "--embedder", "hash", "--json")); w.Inserted != 10_000 {
		t.Fatalf("the run after the interruptions: %+v", w)
	}
}
