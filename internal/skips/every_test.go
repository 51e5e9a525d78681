package skips_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rawSkip is a skip that does not go through skips.Skip.
var rawSkip = regexp.MustCompile(`\b[a-z]+\.Skip(f|Now)?\(`)

// TestEverySkipIsListed: in the whole module, no test skips except
// through skips.Skip (or a helper that uses it), and every package that
// can skip prints its list from TestMain; else a skip goes unseen again.
func TestEverySkipIsListed(t *testing.T) {
	helpers := []string{"skips.Skip(", "pgtest.", "benchdata.MiniLM(", "embeddedBin(", "storetest."}
	dirs := map[string]string{} // dir -> a file that can skip
	mains := map[string]bool{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasPrefix(filepath.ToSlash(path), "../../internal/skips/skips.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(data)
		for _, line := range strings.Split(src, "\n") {
			if rawSkip.MatchString(line) && !strings.Contains(line, "skips.Skip(") && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				t.Errorf("%s: %s: skip through skips.Skip(tb, enable, reason)", path, strings.TrimSpace(line))
			}
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.Dir(path)
		if strings.Contains(src, "skips.Main(") || strings.Contains(src, "skips.Run(") {
			mains[dir] = true
		}
		for _, h := range helpers {
			if strings.Contains(src, h) {
				dirs[dir] = path
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("found %d packages that can skip; the walk is broken", len(dirs))
	}
	for dir, file := range dirs {
		if !mains[dir] {
			t.Errorf("%s can skip but its package has no TestMain calling skips.Main (or skips.Run)", file)
		}
	}
}
