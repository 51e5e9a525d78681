package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgressOnlyOnATerminal runs ingest under a pseudo-terminal (script
// from util-linux): progress bars appear there, and never in piped output.
func TestProgressOnlyOnATerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("this test needs `script` (util-linux) to provide a terminal: %v", err)
	}
	dir, home := t.TempDir(), t.TempDir()
	for i := range 3 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("d%d.md", i)), []byte(fmt.Sprintf("# Doc %d\n\nText %d.\n", i, i)), 0o644)
	}
	cmd := exec.Command(script, "-qec", bin+" ingest "+dir+" --embedder hash --home "+home, "/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ingest [") || !strings.Contains(string(out), "3/3 files") || !strings.Contains(string(out), "embed  [") {
		t.Fatalf("on a terminal: %v\n%q", err, out)
	}
	r := mneme(t, t.TempDir(), "", "ingest", dir, "--embedder", "hash")
	if r.code != 0 || strings.Contains(r.stderr, "[") {
		t.Fatalf("piped: exit %d, stderr %q", r.code, r.stderr)
	}
}
