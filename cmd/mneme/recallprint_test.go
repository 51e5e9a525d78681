package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecallShowsWhere: a document's hit says where its text is (the path
// as stored, repo-relative, and its lines) and shows a snippet of it, so a
// person need not `get` it; a plain memory keeps its two lines.
func TestRecallShowsWhere(t *testing.T) {
	home := t.TempDir()
	docs := filepath.Join(t.TempDir(), "docs")
	os.MkdirAll(docs, 0o755)
	os.WriteFile(filepath.Join(docs, "deploy.md"), []byte("# Deploy\n\nWe deploy on Tuesdays.\n\n## Rollback\n\nRevert the tag and push.\n"), 0o644)
	ok(t, home, "ingest", docs, "--embedder", "hash")
	ok(t, home, "remember", "Rollbacks need a second reviewer", "--embedder", "hash")
	out := ok(t, home, "recall", "rollback", "--mode", "lexical", "--include-unmatched")
	for _, want := range []string{"\n   docs/deploy.md:5-7 · ", "\n   ## Rollback Revert the tag and push.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("recall does not show %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Rollbacks need") && strings.Contains(out, "   Rollbacks need") {
			t.Errorf("a memory without a title shows its text twice:\n%s", out)
		}
	}
}
