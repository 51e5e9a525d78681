package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVaultRoundTrip: export → import into another home → export is
// byte-identical, through the binary; secret records only with
// --clearance secret; bad input exits 2 naming the file and writes
// nothing.
func TestVaultRoundTrip(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	ok(t, a, "remember", "Postgres in production, SQLite on laptops", "--title", "Store choice", "--kind", "decision", "--tags", "db", "--embedder", "none")
	ok(t, a, "remember", "Deploy with make deploy", "--type", "procedural", "--key", "deploy", "--project", "ops", "--embedder", "none")
	ok(t, a, "remember", "the vault password is hunter2", "--sensitivity", "secret", "--embedder", "none")
	d1, d2 := filepath.Join(t.TempDir(), "v1"), filepath.Join(t.TempDir(), "v2")
	if out := ok(t, a, "vault", "export", d1); !strings.Contains(out, "exported 2 records") {
		t.Fatalf("export = %q", out)
	}
	if out := ok(t, a, "vault", "export", d1, "--clearance", "secret"); !strings.Contains(out, "1 written, 2 unchanged") {
		t.Fatalf("export --clearance secret = %q", out)
	}
	ok(t, b, "vault", "import", d1, "--embedder", "none")
	ok(t, b, "vault", "export", d2, "--clearance", "secret")
	f1, f2 := files(t, d1), files(t, d2)
	if len(f1) != 4 || len(f1) != len(f2) {
		t.Fatalf("%d files, then %d", len(f1), len(f2))
	}
	for p, s := range f1 {
		if f2[p] != s {
			t.Fatalf("%s changed in the round trip", p)
		}
	}
	if out := ok(t, b, "vault", "import", d1, "--embedder", "none"); !strings.Contains(out, "0 inserted, 0 updated, 3 unchanged") {
		t.Fatalf("second import = %q", out)
	}
	bad := filepath.Join(d1, "ops", "broken.md")
	os.WriteFile(bad, []byte("---\nkind: note\n  oops\n---\n\ntext\n"), 0o644)
	r := mneme(t, b, "", "vault", "import", d1, "--embedder", "none")
	if r.code != 2 || !strings.Contains(r.stderr, "ops/broken.md: line 3") {
		t.Fatalf("malformed front matter: exit %d, %s", r.code, r.stderr)
	}
	if n := strings.Count(ok(t, b, "list", "--clearance", "secret"), "\n"); n != 3 {
		t.Fatalf("%d records after a refused import, want 3", n)
	}
}

func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[rel] = string(b)
		}
		return err
	})
	return out
}

// TestManifestCommand: `mneme manifest` names the commands with their
// schemas, the MCP tools and the HTTP routes, and carries the schemas; a
// CLI error with --json has the published envelope's shape.
func TestManifestCommand(t *testing.T) {
	home := t.TempDir()
	m := decode[struct {
		Name, Version, Schema string
		Capabilities          []string
		Commands              []struct{ Name, Request, Response string }
		MCP                   struct{ Tools []struct{ Name string } }
		HTTPRoutes            []struct{ Method, Path string } `json:"http_routes"`
		ErrorSchema           string                          `json:"error_schema"`
		Schemas               map[string]any
	}](t, ok(t, home, "manifest"))
	found := false
	for _, c := range m.Commands {
		found = found || c.Name == "vault export" && c.Response == "VaultExportResult"
	}
	if m.Name != "mneme" || m.Schema != "mneme.manifest/v1" || !found || len(m.MCP.Tools) < 5 || len(m.HTTPRoutes) < 10 ||
		m.Schemas[m.ErrorSchema] == nil || !strings.Contains(strings.Join(m.Capabilities, ","), "recall-hybrid") {
		t.Fatalf("manifest = %+v", m)
	}
	r := mneme(t, home, "", "remember", "x", "--type", "dream", "--json")
	e := decode[struct {
		Error struct{ Code, Message string }
	}](t, r.stderr)
	if r.code != 2 || e.Error.Code != "EINVALID" || e.Error.Message == "" {
		t.Fatalf("error envelope: exit %d, %s", r.code, r.stderr)
	}
}
