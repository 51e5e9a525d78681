package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type ingestRun struct {
	Files, Unchanged, Inserted, Updated, Deleted int
	Skipped                                      int `json:"skipped_duplicates"`
}

// TestIngestCredentialMessage: a credential in a document names the file
// and the file's line (not the chunk's), and suggests --redact first.
func TestIngestCredentialMessage(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	var b strings.Builder
	for range 60 {
		b.WriteString("Some words of the introduction, to fill a few chunks of text.\n\n")
	}
	b.WriteString("# Setup\n\nConnect with postgres://user:pass@host/db to start.\n") // line 123
	os.WriteFile(filepath.Join(dir, "README.md"), []byte(b.String()), 0o644)
	r := mneme(t, home, "", "ingest", dir, "--chunk-tokens", "100")
	redact, secret := strings.Index(r.stderr, "--redact"), strings.Index(r.stderr, "--sensitivity secret")
	if r.code != 2 || !strings.Contains(r.stderr, "README.md: the text contains a credential (a password in a connection string on line 123)") ||
		redact < 0 || secret >= 0 && secret < redact || !strings.Contains(r.stderr, "nothing was ingested") {
		t.Fatalf("exit %d %q", r.code, r.stderr)
	}
	w := decode[ingestRun](t, ok(t, home, "ingest", dir, "--chunk-tokens", "100", "--redact", "--json"))
	if w.Inserted == 0 {
		t.Fatalf("ingest --redact = %+v", w)
	}
}

// TestIngestAfterImport: export and import carry what ingest knows of the
// documents, so a later ingest of the same files changes nothing, an edit
// replaces its stale chunks, and a document whose chunks were forgotten is
// ingested again; --force re-ingests every file.
func TestIngestAfterImport(t *testing.T) {
	a, b, dir := t.TempDir(), t.TempDir(), t.TempDir()
	doc := filepath.Join(dir, "guide.md")
	os.WriteFile(doc, []byte("# Deploy\n\nDeploys run on Tuesdays.\n\n# Rollback\n\nRevert the tag and redeploy.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# Notes\n\nThe cache is warm.\n"), 0o644)
	ingest := func(home string, extra ...string) ingestRun {
		return decode[ingestRun](t, ok(t, home, append([]string{"ingest", dir, "--chunk-tokens", "16", "--json"}, extra...)...))
	}
	first := ingest(a)
	dump := filepath.Join(t.TempDir(), "dump.jsonl")
	os.WriteFile(dump, []byte(ok(t, a, "export")), 0o600)
	ok(t, b, "import", dump)
	if st := decode[struct{ Documents int }](t, ok(t, b, "stats", "--json")); st.Documents != 2 {
		t.Fatalf("documents after import = %d, want 2", st.Documents)
	}
	if again := ingest(b); again.Inserted+again.Updated+again.Deleted+again.Skipped != 0 {
		t.Fatalf("ingest after import = %+v (first ingest %+v)", again, first)
	}
	os.WriteFile(doc, []byte("# Deploy\n\nDeploys run on Tuesdays.\n\n# Rollback\n\nUse the rollback workflow.\n"), 0o644)
	if edit := ingest(b); edit.Inserted != 1 || edit.Deleted != 1 {
		t.Fatalf("ingest of an edit after import = %+v", edit)
	}
	if r := decode[recallJSON](t, ok(t, b, "recall", "redeploy", "--json", "--mode", "lexical")); len(r.Hits) != 0 {
		t.Fatal("a stale chunk survived the edit")
	}
	ok(t, b, "forget", "--project", "default", "--yes")
	if back := ingest(b); back.Unchanged != 0 || back.Inserted != first.Inserted {
		t.Fatalf("ingest after forget = %+v, want %d inserted", back, first.Inserted)
	}
	if forced := ingest(b, "--force"); forced.Unchanged != 0 || forced.Files != 2 {
		t.Fatalf("ingest --force = %+v", forced)
	}
	// A document whose chunks were all duplicates of other records, which
	// were then forgotten.
	c := t.TempDir()
	copyDir := t.TempDir()
	os.WriteFile(filepath.Join(copyDir, "notes.md"), []byte("# Notes\n\nThe cache is warm.\n"), 0o644)
	ok(t, c, "ingest", filepath.Join(dir, "notes.md"))
	ok(t, c, "ingest", copyDir)
	ok(t, c, "forget", "--project", "default", "--yes")
	if w := decode[ingestRun](t, ok(t, c, "ingest", copyDir, "--json")); w.Inserted != 1 {
		t.Fatalf("ingest of a copy whose original was forgotten = %+v", w)
	}
}
