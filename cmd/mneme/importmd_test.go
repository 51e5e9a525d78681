package main_test

import (
	"os"
	"path/filepath"
	"slices"
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

// TestImportMarkdownMemoryRemovedSection: re-importing an edited memory
// file leaves exactly its current sections: a section taken out forgets
// its record, a new one is added, the moved ones (a setext heading now)
// keep their records with their new lines, and another
// project's records from a file of the same name are untouched.
func TestImportMarkdownMemoryRemovedSection(t *testing.T) {
	home, repo := hookHome(t)
	file := filepath.Join(repo, "CLAUDE.md")
	os.WriteFile(file, []byte("# Build\n\nRun make ci.\n\n# Deploy\n\nOn Tuesdays.\n\n# Ports\n\nBilling uses 7443.\n"), 0o644)
	ok(t, home, "import", "--from", "markdown-memory", file)
	other := filepath.Join(t.TempDir(), "CLAUDE.md")
	os.WriteFile(other, []byte("# Deploy\n\nOther team deploys on Fridays.\n"), 0o644)
	ok(t, home, "import", "--from", "markdown-memory", other, "--project", "other")
	os.WriteFile(file, []byte("Build\n=====\n\nRun make ci.\n\n# Ports\n\nBilling uses 7443.\n\n# Review\n\nTwo approvals.\n"), 0o644)
	out := ok(t, home, "import", "--from", "markdown-memory", file)
	if !strings.Contains(out, "1 inserted, 2 updated, 0 unchanged, 1 forgotten") {
		t.Fatalf("re-import: %s", out)
	}
	titles := func(project string) []string {
		var out []string
		for _, r := range decode[listed](t, ok(t, home, "list", "--project", project, "--json", "--limit", "100")).Records {
			out = append(out, r.Title)
		}
		slices.Sort(out)
		return out
	}
	if got := titles(filepath.Base(repo)); !slices.Equal(got, []string{"Build", "Ports", "Review"}) {
		t.Fatalf("after the edit: %q, want Build, Ports, Review", got)
	}
	if got := titles("other"); !slices.Equal(got, []string{"Deploy"}) {
		t.Fatalf("another project's record: %q", got)
	}
	if out := ok(t, home, "import", "--from", "markdown-memory", file, "--json"); !strings.Contains(out, `"forgotten":0`) {
		t.Fatalf("unchanged re-import: %s", out)
	}
}
