package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportMarkdownMemory: the hosts' memory files of a repository,
// imported through the real binary, land in the repository's project
// (as the hooks name it), once; recall finds them and the next session
// start injects them; bad input exits 2 naming the file and line and
// writes nothing.
func TestImportMarkdownMemory(t *testing.T) {
	home, repo := hookHome(t)
	if err := os.CopyFS(repo, os.DirFS(filepath.Join("..", "..", "importers", "testdata", "markdown-memory", "repo"))); err != nil {
		t.Fatal(err)
	}
	out := ok(t, home, "import", "--from", "markdown-memory", repo)
	if !strings.Contains(out, "imported 9 memories from markdown-memory") || !strings.Contains(out, "9 inserted") {
		t.Fatalf("import: %s", out)
	}
	if out := ok(t, home, "import", "--from", "markdown-memory", repo); !strings.Contains(out, "0 inserted, 0 updated, 9 unchanged") {
		t.Fatalf("import again: %s", out)
	}
	l := decode[listed](t, ok(t, home, "list", "--project", "shop-api", "--json", "--limit", "100"))
	if len(l.Records) != 9 {
		t.Fatalf("%d records in shop-api, want 9", len(l.Records))
	}
	rec := decode[recallJSON](t, ok(t, home, "recall", "which port does billing use for gRPC", "--project", "shop-api", "--json"))
	if len(rec.Hits) == 0 || !strings.Contains(rec.Hits[0].Record["text"].(string), "7443") {
		t.Fatalf("recall: %+v", rec.Hits)
	}
	start := `{"session_id":"s1","cwd":"` + repo + `","hook_event_name":"SessionStart","source":"startup"}`
	if out := hookRun(t, home, "claude-code", start); !strings.Contains(out, "make ci") {
		t.Errorf("session start does not inject the imported build steps: %s", out)
	}
	before := len(decode[listed](t, ok(t, home, "list", "--json", "--limit", "1000")).Records)
	os.WriteFile(filepath.Join(repo, "svc", "GEMINI.md"), []byte("# Service notes\n\nport 7444\n\xff\n"), 0o644)
	r := mneme(t, home, "", "import", "--from", "markdown-memory", repo)
	if r.code != 2 || !strings.Contains(r.stderr, "svc/GEMINI.md: line 4: not valid UTF-8") {
		t.Fatalf("bad input: exit %d: %s", r.code, r.stderr)
	}
	if after := len(decode[listed](t, ok(t, home, "list", "--json", "--limit", "1000")).Records); after != before {
		t.Errorf("a refused import changed the store: %d -> %d records", before, after)
	}
}
