package walk

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// writeTree creates files (slash paths relative to root) with the given contents.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rels(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Rel)
	}
	return out
}

func TestFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":        "*.log\n!keep.log\nout/\n!out/keep.txt\n/only-root.txt\n",
		".git/info/exclude": "excluded.txt\n",
		".git/HEAD":         "ref: refs/heads/main\n",
		"a.txt":             "hello\n",
		"app.log":           "log\n",
		"keep.log":          "kept\n",
		"only-root.txt":     "x",
		"excluded.txt":      "x",
		"out/keep.txt":      "parent excluded, cannot re-include",
		"sub/.gitignore":    "!app.log\n*.tmp\n",
		"sub/app.log":       "re-included by the deeper .gitignore",
		"sub/only-root.txt": "anchored pattern applies at the root only",
		"sub/x.tmp":         "x",
		"sub/deep/notes.md": "# notes\n",
		"node_modules/m.js": "noise",
		"sub/vendor/v.go":   "noise",
		"img.png":           "not even a png",
		"blob.dat":          "ab\x00cd",
		"big.txt":           strings.Repeat("x", 200),
		"go.sum":            "noise",
		"web/app.min.js":    "noise",
		"Cargo.lock":        "noise",
		"latin1.txt":        "caf\xe9 cr\xe8me br\xfbl\xe9e\n",
	})
	if err := os.Symlink("a.txt", filepath.Join(root, "link.txt")); err != nil {
		skips.Skip(t, "", "symlinks unsupported: "+err.Error())
	}
	if err := os.Symlink("sub", filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}

	files, skips, err := Files([]string{root}, Options{MaxFileSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.txt", "keep.log", "latin1.txt", "sub/app.log", "sub/deep/notes.md", "sub/only-root.txt"}
	if got := rels(files); !reflect.DeepEqual(got, want) {
		t.Errorf("files:\n got %q\nwant %q", got, want)
	}
	for _, f := range files {
		if !filepath.IsAbs(f.Path) || f.Path != filepath.Join(root, filepath.FromSlash(f.Rel)) {
			t.Errorf("bad Path %q for Rel %q", f.Path, f.Rel)
		}
		if f.Rel == "a.txt" && (f.Size != 6 || f.ModTime.IsZero()) {
			t.Errorf("a.txt: size %d, mtime %v", f.Size, f.ModTime)
		}
	}

	gotSkips := map[string]string{}
	for _, s := range skips {
		rel, _ := filepath.Rel(root, s.Path)
		gotSkips[filepath.ToSlash(rel)] = s.Reason
	}
	wantSkips := map[string]string{
		".gitignore": "hidden", "sub/.gitignore": "hidden",
		".git": "noise directory", "node_modules": "noise directory", "sub/vendor": "noise directory",
		"app.log": "ignored", "only-root.txt": "ignored", "excluded.txt": "ignored", "out": "ignored",
		"sub/x.tmp": "ignored", "go.sum": "ignored", "web/app.min.js": "ignored", "Cargo.lock": "ignored",
		"img.png": "binary", "blob.dat": "binary", "big.txt": "too large",
		"link.txt": "symlink", "linkdir": "symlink",
	}
	if !reflect.DeepEqual(gotSkips, wantSkips) {
		t.Errorf("skips:\n got %v\nwant %v", gotSkips, wantSkips)
	}
	for i := 1; i < len(skips); i++ {
		if skips[i-1].Path >= skips[i].Path {
			t.Errorf("skips not sorted and unique at %q", skips[i].Path)
		}
	}

	// Explicit files bypass .gitignore but not the binary check; overlapping
	// paths list a file once, with the first path's Rel.
	files, skips, err = Files([]string{
		filepath.Join(root, "sub", "app.log"), root, filepath.Join(root, "sub"),
		filepath.Join(root, "app.log"), filepath.Join(root, "blob.dat"),
	}, Options{MaxFileSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"a.txt", "app.log", "keep.log", "latin1.txt", "app.log", "sub/deep/notes.md", "sub/only-root.txt"}
	if got := rels(files); !reflect.DeepEqual(got, want) {
		t.Errorf("explicit files:\n got %q\nwant %q", got, want)
	}
	for _, s := range skips {
		if strings.HasSuffix(s.Path, "app.log") {
			t.Errorf("included file also reported skipped: %v", s)
		}
	}
}

func TestFilesDefaultsAndErrors(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"dist/x.txt": "x", "big.md": strings.Repeat("y", 1<<20)})
	// A noise directory given as the root is walked: the user asked for it.
	files, _, err := Files([]string{filepath.Join(root, "dist"), filepath.Join(root, "big.md")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rels(files); !reflect.DeepEqual(got, []string{"big.md", "x.txt"}) {
		t.Errorf("got %q", got)
	}

	_, _, err = Files([]string{root, "no/such/path"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "no/such/path") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing path: got %v", err)
	}
}

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"empty", "", false},
		{"ascii", "package main\n\tfunc main() {}\r\n\f", false},
		{"utf8", "héllo wörld ✓ 日本語", false},
		{"nul", "abc\x00def", true},
		{"nul late", strings.Repeat("a", 7000) + "\x00", true},
		{"nul past sniff", strings.Repeat("a", 8000) + "\x00", false},
		{"latin1", "caf\xe9 cr\xe8me br\xfbl\xe9e", false},
		{"cut rune", strings.Repeat("a", 100) + "\xe6\x97", false},
		{"junk", "\xff\xfe\x01\x02\x03\x04abc\x80\x81\x90", true},
		{"controls", "\x01\x02\x03\x04\x05\x06\x07\x08\xffabc", true},
	}
	for _, tt := range tests {
		if got := IsBinary([]byte(tt.head)); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
