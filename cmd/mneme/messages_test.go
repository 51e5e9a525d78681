package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// TestMessages: what the CLI says reads well: counts are pluralised, a
// damaged index snapshot is a note (or a JSON warning), not a log line,
// and a prefix is never doubled.
func TestMessages(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "the deploy key rotates on Mondays", "--embedder", "hash")
	if out := ok(t, home, "stats"); !strings.HasPrefix(out, "1 memory (") || !strings.Contains(out, ", 0 documents") {
		t.Errorf("stats: %q", out)
	}
	if out := ok(t, home, "forget", "--project", "default", "--dry-run"); strings.Contains(out, "1 memories") {
		t.Errorf("forget: %q", out)
	}
	ok(t, home, "recall", "deploy key", "--embedder", "hash") // saves the snapshots
	for _, name := range []string{"vectors.idx", "lexical.idx"} {
		if err := os.WriteFile(filepath.Join(home, name), []byte("not a snapshot"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// New queries: the one above is answered from the result cache, which reads no index.
	r := mneme(t, home, "", "recall", "deploy key rotation", "--embedder", "hash")
	logLine := regexp.MustCompile(`(?m)^\d{4}/\d\d/\d\d |level=|WARN `)
	if r.code != 0 || logLine.MatchString(r.stderr) || !strings.Contains(r.stderr, "note: vector index snapshot unusable; rebuilding: ") {
		t.Errorf("damaged snapshot: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, name := range []string{"vectors.idx", "lexical.idx"} {
		os.WriteFile(filepath.Join(home, name), []byte("not a snapshot"), 0o600)
	}
	r = mneme(t, home, "", "recall", "deploy key mondays", "--embedder", "hash", "--json")
	if r.code != 0 || !strings.Contains(r.stderr, `{"warning":{"code":"WINDEX","message":"vector index snapshot unusable; rebuilding: `) {
		t.Errorf("damaged snapshot, --json: exit %d, stderr %q", r.code, r.stderr)
	}
	// init on a terminal whose input ends names itself once.
	script, err := exec.LookPath("script")
	if err != nil {
		skips.Skip(t, "install `script` (util-linux)", "no `script` to provide a terminal")
	}
	h := t.TempDir()
	cmd := exec.Command(script, "-qec", bin+" init --home "+h, "/dev/null")
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	if s := string(out); !strings.Contains(s, "mneme init: no answer on standard input") {
		t.Errorf("init at the end of input: %q", s)
	}
}
