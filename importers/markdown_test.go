package importers_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/importers"
)

// memoryRepo copies testdata/markdown-memory/repo into a temporary
// repository (with .git), adds what a search must skip (dependencies, a
// hidden folder, a README) and returns its root.
func memoryRepo(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "shop-api")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "markdown-memory", "repo"))); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", "web/node_modules/x/CLAUDE.md": "# dependency\n\ntext\n",
		".idea/CLAUDE.md": "# hidden\n\ntext\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func readMemory(t *testing.T, path string) ([]*mneme.Record, error) {
	t.Helper()
	f, _ := importers.Lookup("markdown-memory")
	in, err := importers.Read(f, path, "shop-api")
	if err != nil {
		return nil, err
	}
	return f.Parse(in)
}

// TestMarkdownMemory: a folder's memory files become one record per
// section, typed, with the repo-relative path and line range; dependency
// and hidden folders are skipped.
func TestMarkdownMemory(t *testing.T) {
	root := memoryRepo(t)
	recs, err := readMemory(t, root)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		typ        mneme.Type
		start, end int
	}
	wants := map[string]want{
		"CLAUDE.md#shop-api":                          {mneme.Semantic, 1, 3},
		"CLAUDE.md#shop-api > Build and test":         {mneme.Procedural, 5, 10},
		"CLAUDE.md#shop-api > Architecture":           {mneme.Semantic, 12, 15},
		"CLAUDE.md#shop-api > Architecture > Gotchas": {mneme.Semantic, 17, 19},
		"CLAUDE.md#shop-api > Architecture#2":         {mneme.Semantic, 21, 23},
		"AGENTS.md#AGENTS.md":                         {mneme.Semantic, 1, 1},
		"AGENTS.md#Conventions":                       {mneme.Procedural, 3, 6},
		".cursor/rules/go-style.mdc#go-style.mdc":     {mneme.Procedural, 6, 6},
		"svc/GEMINI.md#Service notes":                 {mneme.Semantic, 1, 3},
	}
	got := map[string]bool{}
	for _, r := range recs {
		var m struct{ Key string }
		decodeMeta(t, r, &m)
		w, ok := wants[m.Key]
		if !ok {
			t.Errorf("unexpected record %q: %q", m.Key, r.Text)
			continue
		}
		got[m.Key] = true
		if r.Type != w.typ || r.Source.LineStart != w.start || r.Source.LineEnd != w.end {
			t.Errorf("%s: %s lines %d-%d, want %s lines %d-%d", m.Key, r.Type, r.Source.LineStart, r.Source.LineEnd, w.typ, w.start, w.end)
		}
		if strings.HasPrefix(r.Source.URI, "/") || r.Project != "shop-api" {
			t.Errorf("%s: source %q project %q", m.Key, r.Source.URI, r.Project)
		}
		if err := mneme.Check(*r, mneme.WriteOptions{}); err != nil {
			t.Errorf("%s: %v", m.Key, err)
		}
	}
	for k := range wants {
		if !got[k] {
			t.Errorf("no record %s", k)
		}
	}
	// One file: named relative to its repository's root.
	recs, err = readMemory(t, filepath.Join(root, "svc", "GEMINI.md"))
	if err != nil || len(recs) != 1 || recs[0].Source.URI != "svc/GEMINI.md" {
		t.Fatalf("one file: %v %+v", err, recs)
	}
}

// TestMarkdownMemoryIdempotent: importing an unchanged folder again
// writes nothing; an edited section updates its own record.
func TestMarkdownMemoryIdempotent(t *testing.T) {
	ctx := context.Background()
	root := memoryRepo(t)
	eng := engine(t)
	imp := func() mneme.WriteResult {
		t.Helper()
		recs, err := readMemory(t, root)
		if err != nil {
			t.Fatal(err)
		}
		res, err := eng.Import(ctx, recs, mneme.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := imp(); res.Inserted != 9 {
		t.Fatalf("first import: %+v", res)
	}
	if res := imp(); res.Inserted+res.Updated != 0 {
		t.Fatalf("unchanged import wrote: %+v", res)
	}
	p := filepath.Join(root, "svc", "GEMINI.md")
	os.WriteFile(p, []byte("# Service notes\n\nThe billing service talks to orders over gRPC on port 7444.\n"), 0o644)
	if res := imp(); res.Inserted != 0 || res.Updated != 1 {
		t.Fatalf("an edited section: %+v, want one update", res)
	}
	recs, _, err := eng.List(ctx, mneme.Filter{Project: "shop-api", Clearance: mneme.Secret}, 100, "")
	if err != nil || len(recs) != 9 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
}

// TestMarkdownMemoryBadInput: bad input names the file and line, and a
// symbolic link out of the folder is refused.
func TestMarkdownMemoryBadInput(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("# secret\n\nkey\n"), 0o644)
	for _, c := range []struct {
		name, file, data, link, msg string
	}{
		{"invalid utf-8", "CLAUDE.md", "# a\n\nok\n\xff\xfe\n", "", "CLAUDE.md: line 4: not valid UTF-8"},
		{"binary", "AGENTS.md", "# a\n\x00\x01\n", "", "AGENTS.md: line 2: a NUL byte"},
		{"front matter", ".cursor/rules/x.mdc", "---\ndescription: x\n", "", ".cursor/rules/x.mdc: line 1: front matter"},
		{"link out", "MEMORY.md", "", outside, "MEMORY.md: a symbolic link out of the folder"},
		{"too large", "GEMINI.md", strings.Repeat("x", importers.MaxMemoryFileBytes+1), "", "GEMINI.md: not a regular file of at most 4 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := memoryRepo(t)
			p := filepath.Join(root, filepath.FromSlash(c.file))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if c.link != "" {
				os.Remove(p)
				if err := os.Symlink(c.link, p); err != nil {
					t.Fatal(err)
				}
			} else {
				os.WriteFile(p, []byte(c.data), 0o644)
			}
			_, err := readMemory(t, root)
			if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want EINVALID saying %q", err, c.msg)
			}
		})
	}
	// A link inside the folder is read once, under the target's name.
	root := memoryRepo(t)
	os.Symlink("CLAUDE.md", filepath.Join(root, "MEMORY.md"))
	recs, err := readMemory(t, root)
	if err != nil || len(recs) != 9 {
		t.Fatalf("a link inside: %d records, %v", len(recs), err)
	}
}

func decodeMeta(t *testing.T, r *mneme.Record, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Meta, v); err != nil {
		t.Fatalf("meta %s: %v", r.Meta, err)
	}
}

// TestMarkdownMemoryRemoved: Removed names the records of sections taken
// out of the files imported now, and nothing of the files left out of
// the import or of another project.
func TestMarkdownMemoryRemoved(t *testing.T) {
	ctx := context.Background()
	root := memoryRepo(t)
	eng := engine(t)
	f, _ := importers.Lookup("markdown-memory")
	imp := func(path, project string) (importers.Input, []*mneme.Record) {
		t.Helper()
		in, err := importers.Read(f, path, project)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := f.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Import(ctx, recs, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		return in, recs
	}
	_, before := imp(root, "shop-api")
	imp(root, "other")
	claude := filepath.Join(root, "CLAUDE.md")
	data, _ := os.ReadFile(claude)
	cut := strings.Replace(string(data), "### Gotchas\n\nThe payment webhook retries for 24 hours: handlers must be idempotent.\n", "", 1)
	if cut == string(data) {
		t.Fatal("the fixture changed: no Gotchas section to cut")
	}
	os.WriteFile(claude, []byte(cut), 0o644)
	in, recs := imp(root, "shop-api")
	gone, err := importers.Removed(ctx, eng, "markdown-memory", in, recs)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range before {
		if strings.HasSuffix(r.Title, "Gotchas") {
			want = append(want, r.ID)
		}
	}
	if len(want) != 1 || strings.Join(gone, ",") != want[0] {
		t.Fatalf("removed %q, want %q", gone, want)
	}
	in.Files = in.Files[:0] // no file imported: nothing is anyone's to forget
	if gone, _ := importers.Removed(ctx, eng, "markdown-memory", in, nil); len(gone) != 0 {
		t.Fatalf("with no files: %q", gone)
	}
}
