package main_test

import (
	"encoding/base64"
	"encoding/json"
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

// TestExportCarriesRegistryAndVectors: an export carries the ingest
// document registry (an unchanged file is not re-ingested after a move)
// and, with --vectors, the vectors and their embedder: an import with that
// embedder stores them as they are, without embedding again (a vector
// changed in the file arrives changed).
func TestExportCarriesRegistryAndVectors(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	docs := filepath.Join(t.TempDir(), "docs")
	os.MkdirAll(docs, 0o755)
	os.WriteFile(filepath.Join(docs, "deploy.md"), []byte("# Deploy\n\nWe deploy on Tuesdays.\n\n## Rollback\n\nRevert the tag.\n"), 0o644)
	ok(t, a, "ingest", docs, "--project", "kb", "--embedder", "hash")
	dump := ok(t, a, "export", "--vectors")
	if strings.Count(dump, `{"mneme_document":`) != 1 || strings.Count(dump, `{"mneme_embedder":`) != 1 || strings.Count(dump, `{"mneme_vector":`) != 2 {
		t.Fatalf("export --vectors:\n%s", dump)
	}
	if plain := ok(t, a, "export"); strings.Contains(plain, "mneme_vector") || !strings.Contains(plain, "mneme_document") {
		t.Fatalf("export without --vectors:\n%s", plain)
	}
	// Tamper with the first vector: all ones (the import must keep it).
	lines := strings.Split(strings.TrimSpace(dump), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, `{"mneme_vector":`) {
			var v struct {
				V struct{ ID, F32 string } `json:"mneme_vector"`
			}
			json.Unmarshal([]byte(l), &v)
			raw, _ := base64.StdEncoding.DecodeString(v.V.F32)
			for j := 0; j < len(raw); j += 4 {
				copy(raw[j:], []byte{0, 0, 0x80, 0x3f})
			}
			v.V.F32 = base64.StdEncoding.EncodeToString(raw)
			b, _ := json.Marshal(map[string]any{"mneme_vector": struct {
				ID  string `json:"id"`
				F32 string `json:"f32"`
			}{v.V.ID, v.V.F32}})
			lines[i] = string(b)
			break
		}
	}
	file := filepath.Join(t.TempDir(), "dump.jsonl")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	ok(t, b, "import", file, "--embedder", "hash")
	if again := ok(t, b, "export", "--vectors"); again != strings.Join(lines, "\n")+"\n" {
		t.Fatalf("the vectors were not kept as imported:\n%s\n---\n%s", again, strings.Join(lines, "\n"))
	}
	if out := ok(t, b, "ingest", docs, "--project", "kb", "--embedder", "hash"); !strings.Contains(out, "1 unchanged") {
		t.Fatalf("ingest after the move: %s", out)
	}
	// Another embedder: the vectors are not used; the records are embedded
	// (or wait) as any import's.
	c := t.TempDir()
	if r := mneme(t, c, "", "import", file, "--embedder", "none"); r.code != 0 {
		t.Fatalf("import with another embedder: %s", r.stderr)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(lines[0]+"\n"+`{"mneme_vector":{"id":"01a21c1a-3713-70bf-8370-389d81e8f077","f32":"AAAA"}}`+"\n"), 0o600)
	if r := mneme(t, t.TempDir(), "", "import", bad); r.code != 2 || !strings.Contains(r.stderr, "line 2") {
		t.Fatalf("a vector before its embedder: exit %d, %s", r.code, r.stderr)
	}
}

// TestImportFrom: `import --from FORMAT` reads each tool's fixture, counts
// by type, changes nothing the second time; another tool's file, or an
// unknown format, exits 2 naming the file.
func TestImportFrom(t *testing.T) {
	home := t.TempDir()
	fixtures := map[string]string{"mcp-memory": "mcp-memory.jsonl", "mem0": "mem0.json", "basic-memory": "basic-memory",
		"engram": "engram.json", "records-jsonl": "records.jsonl"}
	for format, file := range fixtures {
		path := filepath.Join("..", "..", "importers", "testdata", file)
		type out struct {
			Records, Inserted, Updated int
			Types                      map[string]int
		}
		first := decode[out](t, ok(t, home, "import", "--from", format, path, "--project", "imported", "--embedder", "none", "--json"))
		again := decode[out](t, ok(t, home, "import", "--from", format, path, "--project", "imported", "--embedder", "none", "--json"))
		if first.Records == 0 || first.Inserted != first.Records || again.Inserted+again.Updated != 0 || len(first.Types) == 0 {
			t.Fatalf("%s: %+v, then %+v", format, first, again)
		}
	}
	if out := ok(t, home, "import", "--from", "mem0", filepath.Join("..", "..", "importers", "testdata", "mem0.json"), "--embedder", "none"); !strings.Contains(out, "imported 2 memories from mem0 (2 semantic)") {
		t.Fatalf("text output: %q", out)
	}
	r := mneme(t, home, "", "import", "--from", "mem0", filepath.Join("..", "..", "importers", "testdata", "engram.json"))
	if r.code != 2 || !strings.Contains(r.stderr, "engram.json") {
		t.Fatalf("mem0 fed Engram's export: exit %d, %s", r.code, r.stderr)
	}
	if r := mneme(t, home, "", "import", "--from", "notion", "x.json"); r.code != 2 || !strings.Contains(r.stderr, "mcp-memory") {
		t.Fatalf("unknown format: exit %d, %s", r.code, r.stderr)
	}
}
