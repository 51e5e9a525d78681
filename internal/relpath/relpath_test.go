package relpath

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	for p, ok := range map[string]bool{
		"a.go": true, "src/a.go": true, ".": true, "docs/../docs/a.md": false, "..": false, "../x": false, `src\..\..\x`: false,
		"/home/ann/a.go": false, "/etc/passwd": false, `C:\Users\ann\a.go`: false, "c:/x": false, `\\server\share`: false,
		"~/a.go": false, "~": false, "file:///home/ann/a": false, "": false, "a\x00b": false,
	} {
		if err := Check(p); (err == nil) != ok {
			t.Errorf("Check(%q) = %v, want ok %v", p, err, ok)
		}
	}
}

func TestHasHomePath(t *testing.T) {
	for s, want := range map[string]bool{
		"cat /home/ann/.netrc": true, "ls /Users/ann": true, `type C:\Users\ann\x`: true, "cd ~/src": true, "--out=/root/x": true,
		"go test ./...": false, "cat src/a.go": false, "a ~ b": false, "GET /v1/home/x": false,
	} {
		if got := HasHomePath(s); got != want {
			t.Errorf("HasHomePath(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSourceAndDisplay(t *testing.T) {
	repo := t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, "docs", "api"), 0o755)
	if got := Source(filepath.Join(repo, "docs", "api", "a.md"), filepath.Join(repo, "docs")); got != "docs/api/a.md" {
		t.Errorf("in a repository: %q", got)
	}
	plain := t.TempDir()
	if got := Source(filepath.Join(plain, "n.md"), plain); got != filepath.Base(plain)+"/n.md" {
		t.Errorf("outside a repository: %q", got)
	}
	for uri, want := range map[string]string{"docs/a.md": "docs/a.md", "/home/ann/notes/a.md": ".../a.md",
		`C:\Users\ann\a.md`: ".../a.md", "https://example.com/a": "https://example.com/a", "file:///home/ann/a.md": ".../a.md"} {
		if got := Display(uri); got != want {
			t.Errorf("Display(%q) = %q, want %q", uri, got, want)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"a.go", "../x", "/home/a", `C:\x`, "~/x", "a/./b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if Check(p) != nil {
			return
		}
		// An accepted path stays inside its root once joined.
		root := "/r"
		if rel, ok := Under(root, filepath.Join(root, filepath.FromSlash(p))); !ok || filepath.IsAbs(rel) {
			t.Fatalf("accepted %q leaves the root (%q)", p, rel)
		}
	})
}
