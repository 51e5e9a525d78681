package codemem

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/internal/walk"
	"github.com/mneme-ai/mneme/sqlite"
)

func newEngine(t *testing.T) *mneme.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	em, err := hash.New(64)
	if err != nil {
		t.Fatal(err)
	}
	return mneme.NewEngine(s, mneme.WithEmbedder(em))
}

// indexed is the text of the project's records, by source path.
func indexed(t *testing.T, eng *mneme.Engine, project string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := eng.Each(context.Background(), mneme.Filter{Project: project}, func(r *mneme.Record) error {
		out[r.Source.URI] = append(out[r.Source.URI], r.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runIndex runs cmd on root and indexes its envelope.
func runIndex(t *testing.T, s *Service, eng *mneme.Engine, cmd, root string) IndexResult {
	t.Helper()
	res, err := Index(context.Background(), eng, run(t, s, cmd, root, false), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// matchesDisk fails unless every file of root has records, each holding
// text of the file as it is on disk.
func matchesDisk(t *testing.T, step string, eng *mneme.Engine, project, root string, files []string) {
	t.Helper()
	got := indexed(t, eng, project)
	for _, f := range files {
		data, _ := os.ReadFile(filepath.Join(root, f))
		if len(got[f]) == 0 {
			t.Fatalf("%s: %s has no records", step, f)
		}
		for _, text := range got[f] {
			if !strings.Contains(string(data), text) {
				t.Fatalf("%s: %s's record %q is not its content %q", step, f, text, data)
			}
		}
	}
}

// TestIndexCatchesUp: the artifact moving on without the records (a code
// command without --index, or one killed between writing the artifact and
// storing the records) leaves nothing stale: the next Index stores every
// file whose content differs from what its records were made of.
func TestIndexCatchesUp(t *testing.T) {
	root := repo(t, map[string]string{"a.go": "package a\n\n// Alpha version one.\nfunc A() {}\n", "b.go": "package b\n\n// Bravo version one.\nfunc B() {}\n"})
	s, eng := New(Options{CacheDir: t.TempDir()}), newEngine(t)
	if res := runIndex(t, s, eng, CmdExplore, root); res.Files != 2 {
		t.Fatalf("first index: %+v", res)
	}
	write(t, root, "a.go", "package a\n\n// Alpha version two.\nfunc A() {}\n")
	os.Remove(filepath.Join(root, "b.go"))
	write(t, root, "c.go", "package c\n\n// Charlie version one.\nfunc C() {}\n")
	env := run(t, s, CmdDelta, root, false) // the artifact moves on; the records do not
	if env.Delta.Modified != 1 || env.Delta.Added != 1 || env.Delta.Removed != 1 {
		t.Fatalf("delta %+v", env.Delta)
	}
	res := runIndex(t, s, eng, CmdDelta, root) // an empty delta
	if res.Files != 2 || res.Removed != 1 {
		t.Fatalf("catch-up index: %+v", res)
	}
	matchesDisk(t, "after the catch-up", eng, ProjectID(mustCanonical(t, root)), root, []string{"a.go", "c.go"})
	if got := indexed(t, eng, ProjectID(mustCanonical(t, root))); len(got["b.go"]) != 0 {
		t.Fatalf("b.go's records were kept: %q", got["b.go"])
	}
	if res := runIndex(t, s, eng, CmdDelta, root); res.Files != 0 || res.Chunks != 0 {
		t.Fatalf("an index with nothing to catch up: %+v", res)
	}
}

func mustCanonical(t *testing.T, p string) string {
	t.Helper()
	c, err := canonical(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSwappedForSymlink: a file swapped for a symbolic link after the walk
// listed it (between the walk and the hash, or the scan and the index) is
// never read through the link: the outside file is not hashed, indexed or
// quoted in the slice.
func TestSwappedForSymlink(t *testing.T) {
	outside := repo(t, map[string]string{"secret.go": "package main\n\n// OUTSIDE the repository.\nfunc Outside() {}\n"})
	target := filepath.Join(outside, "secret.go")
	root := repo(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n", "lib/lib.go": "package lib\n"})
	swap := func(rel string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.Remove(p)
		if err := os.Symlink(target, p); err != nil {
			skips.Skip(t, "", "symlinks unsupported: "+err.Error())
		}
	}
	s, eng := New(Options{CacheDir: t.TempDir()}), newEngine(t)
	env := run(t, s, CmdExplore, root, false)
	swap("main.go")
	if _, err := Index(context.Background(), eng, env, nil); err != nil {
		t.Fatal(err)
	}
	for uri, texts := range indexed(t, eng, env.ProjectID) {
		for _, text := range texts {
			if strings.Contains(text, "OUTSIDE") {
				t.Fatalf("%s indexed the outside file: %q", uri, text)
			}
		}
	}
	if syms := symbolsOf(root, env.entries, EntryPoint{Kind: "go-main", Path: "."}, 10); len(syms) != 0 {
		t.Fatalf("the slice read through the link: %q", syms)
	}

	// Swapped between the walk and the hash: the file is left out.
	os.Remove(filepath.Join(root, "main.go"))
	write(t, root, "main.go", "package main\n\nfunc main() {}\n")
	files, _, err := walk.Files([]string{root}, walk.Options{})
	if err != nil || len(files) != 2 {
		t.Fatalf("walk: %+v %v", files, err)
	}
	swap("lib/lib.go")
	entries := make([]Entry, len(files))
	for i, f := range files {
		entries[i] = Entry{Path: f.Rel}
	}
	for _, e := range hashAll(files, entries, []int{0, 1}) {
		if e.Path == "lib/lib.go" {
			t.Fatalf("the swapped file was hashed: %+v", e)
		}
	}
}

// TestIndexProgress: Index says how many files are stale before it starts,
// then files done after each batch of indexBatch, ending at the total;
// an empty file counts as done; nothing stale reports 0 of 0 (a file of
// blanks stores nothing, so it is read again each time).
func TestIndexProgress(t *testing.T) {
	files := map[string]string{"empty.go": "   \n"}
	for i := range 2*indexBatch + 5 {
		files[fmt.Sprintf("p/f%03d.go", i)] = fmt.Sprintf("package p\n\nfunc F%d() {}\n", i)
	}
	root := repo(t, files)
	s, eng := New(Options{CacheDir: t.TempDir()}), newEngine(t)
	var got [][2]int
	report := func(done, total int) { got = append(got, [2]int{done, total}) }
	if _, err := Index(context.Background(), eng, run(t, s, "explore", root, false), report); err != nil {
		t.Fatal(err)
	}
	n := len(files)
	if len(got) != 4 || got[0] != [2]int{0, n} || got[len(got)-1] != [2]int{n, n} {
		t.Fatalf("progress %v, want 0/%d, two batches of %d, then %d/%d", got, n, indexBatch, n, n)
	}
	for i := 1; i < len(got); i++ {
		if got[i][0] <= got[i-1][0] || got[i][1] != n {
			t.Fatalf("progress goes back or changes its total: %v", got)
		}
	}
	got = nil
	os.Remove(filepath.Join(root, "empty.go"))
	if _, err := Index(context.Background(), eng, run(t, s, "explore", root, false), report); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != [2]int{0, 0} {
		t.Fatalf("nothing stale: progress %v", got)
	}
}
