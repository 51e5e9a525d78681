package walk

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/skips"
)

// filesWithin runs Files on paths and fails the test if it has not
// returned within d (a FIFO read blocks forever).
func filesWithin(t *testing.T, d time.Duration, paths ...string) ([]File, []Skip) {
	t.Helper()
	type out struct {
		files []File
		skips []Skip
		err   error
	}
	done := make(chan out, 1)
	go func() {
		f, s, err := Files(paths, Options{})
		done <- out{f, s, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		return o.files, o.skips
	case <-time.After(d):
		t.Fatalf("Files(%q) still running after %v", paths, d)
	}
	return nil, nil
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := mkfifoAt(p); err != nil {
		skips.Skip(t, "", "mkfifo: "+err.Error())
	}
}

func skipOf(skips []Skip, p string) (Skip, bool) {
	for _, s := range skips {
		if s.Path == p {
			return s, true
		}
	}
	return Skip{}, false
}

// TestIgnoreFilesNotRegular: a FIFO (or any file that is not regular) at
// .git/info/exclude, .gitignore, .git or .git/commondir is not read, never
// blocks the walk, and is reported as an ignore file left unread.
func TestIgnoreFilesNotRegular(t *testing.T) {
	for _, fifo := range []string{".git/info/exclude", ".gitignore", "sub/.gitignore", ".git"} {
		t.Run(fifo, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n", ".git/HEAD": "ref: x\n"})
			if fifo == ".git" {
				os.RemoveAll(filepath.Join(root, ".git"))
			}
			p := filepath.Join(root, filepath.FromSlash(fifo))
			mkfifo(t, p)
			files, skips := filesWithin(t, 5*time.Second, root)
			if got := rels(files); len(got) != 2 {
				t.Fatalf("files %q", got)
			}
			if s, ok := skipOf(skips, p); !ok || !s.IgnoreFile || s.Reason != reasonUnreadable {
				t.Fatalf("skip of the FIFO %s: %+v in %+v", fifo, s, skips)
			}
		})
	}
	t.Run("commondir", func(t *testing.T) {
		root, gitdir := t.TempDir(), t.TempDir()
		writeTree(t, root, map[string]string{"a.txt": "a\n", ".git": "gitdir: " + gitdir + "\n"})
		mkfifo(t, filepath.Join(gitdir, "commondir"))
		files, skips := filesWithin(t, 5*time.Second, root)
		if len(files) != 1 {
			t.Fatalf("files %+v", files)
		}
		if s, ok := skipOf(skips, filepath.Join(gitdir, "commondir")); !ok || !s.IgnoreFile {
			t.Fatalf("skips %+v", skips)
		}
	})
}

// TestIgnoreFileTooLarge: an ignore file over MaxIgnoreFile (a sparse
// GiB) is not read: it costs no memory, and is reported.
func TestIgnoreFileTooLarge(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "a\n", "b.log": "b\n", ".git/info/exclude": "*.log\n"})
	for _, p := range []string{".gitignore", ".git/info/exclude"} {
		f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(p)), os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(1 << 30); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	files, skips := filesWithin(t, 10*time.Second, root)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("the walk allocated %d MiB", grew>>20)
	}
	if got := rels(files); len(got) != 2 { // b.log too: the exclude was not applied
		t.Fatalf("files %q", got)
	}
	for _, p := range []string{".gitignore", ".git/info/exclude"} {
		if s, ok := skipOf(skips, filepath.Join(root, filepath.FromSlash(p))); !ok || !s.IgnoreFile || s.Reason != reasonTooLarge {
			t.Fatalf("skip of %s: %+v in %+v", p, s, skips)
		}
	}
}

// TestReadFileNoFollow: ReadFile follows no symbolic link, neither the
// file nor a directory on its way, reads no FIFO, and refuses a file over
// its limit.
func TestReadFileNoFollow(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.txt": "outside\n", "d/a.go": "outside\n"})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "inside\n", "big.go": strings.Repeat("x", 100)})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.go")); err != nil {
		skips.Skip(t, "", "symlinks unsupported: "+err.Error())
	}
	os.Symlink(filepath.Join(outside, "d"), filepath.Join(root, "d"))
	mkfifo(t, filepath.Join(root, "fifo.go"))
	if data, fi, err := ReadFile(root, "a.go", 100); err != nil || string(data) != "inside\n" || fi.Size() != 7 {
		t.Fatalf("a.go: %q %v", data, err)
	}
	for rel, want := range map[string]error{"link.go": ErrSymlink, "d/a.go": ErrSymlink, "fifo.go": ErrNotRegular,
		"big.go": ErrTooLarge, "../x": ErrNotBelow, "": ErrNotBelow} {
		done := make(chan error, 1)
		go func() {
			data, _, err := ReadFile(root, rel, 99)
			if data != nil {
				t.Errorf("%s: read %q", rel, data)
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, want) {
				t.Errorf("%s: error %v, want %v", rel, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadFile blocked", rel)
		}
	}
}
