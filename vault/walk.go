package vault

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mneme-ai/mneme"
)

// MaxFileBytes bounds one vault file: a memory is short text.
const MaxFileBytes = 1 << 20

// ManifestName is the vault's index, at its top.
const ManifestName = "manifest.json"

type vfile struct {
	rel  string // slash-separated, relative to the vault
	data []byte
	// trusted: not read, because the manifest vouches for it (see
	// Export); sha, id and stamp are the manifest's.
	trusted        bool
	sha, id, stamp string
}

// fileError is a problem with one vault file: bad input, exit 2.
func fileError(rel string, err error) error {
	return mneme.Invalid("%s: %s: nothing was written", rel, mneme.ErrorMessage(err))
}

// readVault reads every Markdown file of the vault under root (dir is its
// path on disk, for symlink checks). strict (import) refuses what export
// skips: a symlink out of the folder, a file over MaxFileBytes, invalid
// UTF-8, a Markdown path that is not a regular file. Folders and files
// whose names start with a dot (.obsidian, .git, temporary files) are not
// part of the vault. Each folder is opened once, as a root of its own, so
// a file costs one open that cannot leave it.
func readVault(root *os.Root, dir string, strict bool) ([]vfile, error) {
	w := walker{dir: dir, strict: strict}
	err := w.walk(root, "")
	return w.out, err
}

// walker reads a vault; trust, when set, says which files need not be
// read (it fills in their sha and id).
type walker struct {
	dir    string
	strict bool
	trust  func(vf *vfile, info fs.FileInfo) bool
	out    []vfile
}

func (w *walker) walk(d *os.Root, prefix string) error {
	entries, err := fs.ReadDir(d.FS(), ".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		name, rel := e.Name(), path.Join(prefix, e.Name())
		switch {
		case strings.HasPrefix(name, ".") || rel == ManifestName:
			if leftover(name, tmpFile) {
				_ = d.Remove(name)
			}
			continue
		case e.Type()&fs.ModeSymlink != 0:
			if w.strict {
				if err := checkLink(w.dir, rel); err != nil {
					return err
				}
			}
		case e.IsDir():
			sub, err := d.OpenRoot(name)
			if err != nil {
				return err
			}
			err = w.walk(sub, rel)
			sub.Close()
			if err != nil {
				return err
			}
		case strings.HasSuffix(name, ".md"):
			vf := vfile{rel: rel}
			if w.trust != nil && e.Type().IsRegular() {
				if info, err := e.Info(); err == nil && w.trust(&vf, info) {
					w.out = append(w.out, vf)
					continue
				}
			}
			data, err := readOne(d, name, e)
			if err != nil && w.strict {
				return fileError(rel, err)
			}
			if err == nil {
				vf.data = data
				w.out = append(w.out, vf)
			}
		}
	}
	return nil
}

// checkLink refuses a symlink that leads out of the vault; one that stays
// inside is skipped (what it points to is read where it is).
func checkLink(dir, rel string) error {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	target, terr := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil || terr != nil {
		return fileError(rel, errors.New("a symbolic link that does not resolve"))
	}
	if inside, _ := filepath.Rel(abs, target); !filepath.IsLocal(inside) {
		return fileError(rel, errors.New("a symbolic link out of the vault folder"))
	}
	return nil
}

func readOne(root *os.Root, rel string, d fs.DirEntry) ([]byte, error) {
	if !d.Type().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	switch {
	case err != nil:
		return nil, err
	case len(data) > MaxFileBytes:
		return nil, fmt.Errorf("the file is over the limit of %d bytes (1 MiB)", MaxFileBytes)
	case !utf8.Valid(data):
		return nil, fmt.Errorf("line %d is not valid UTF-8", badLine(data))
	}
	return data, nil
}

func badLine(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return bytes.Count(data[:i], []byte("\n")) + 1
		}
		i += n
	}
	return 0
}

// folders writes files under a vault root, each folder opened once.
type folders struct {
	root *os.Root
	mu   sync.Mutex
	subs map[string]*os.Root
	// direct: write each file in place (a folder no one reads yet).
	direct bool
}

// writers is how many files are written at once: creating a file is a
// round trip to the file system, and they overlap.
const writers = 4

// writeAll writes every file, several at a time; it stops at the first
// error (or when ctx ends) and returns it.
func (f *folders) writeAll(ctx context.Context, files []vfile) error {
	jobs := make(chan vfile)
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for vf := range jobs {
				if err := f.write(vf.rel, vf.data); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for _, vf := range files {
		select {
		case jobs <- vf:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

func newFolders(root *os.Root) *folders { return &folders{root: root, subs: map[string]*os.Root{}} }

func (f *folders) at(dir string) (*os.Root, error) {
	if dir == "." {
		return f.root, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.subs[dir]; ok {
		return r, nil
	}
	if err := f.root.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r, err := f.root.OpenRoot(dir)
	if err == nil {
		f.subs[dir] = r
	}
	return r, err
}

func (f *folders) close() {
	for _, r := range f.subs {
		r.Close()
	}
}

// write replaces rel with data atomically (writeAtomic).
func (f *folders) write(rel string, data []byte) error {
	d, err := f.at(path.Dir(rel))
	if err != nil {
		return err
	}
	if f.direct {
		return d.WriteFile(path.Base(rel), data, 0o644)
	}
	return writeAtomic(d, path.Base(rel), data)
}

// tmpFile starts the name of a file being written (see leftover.go).
const tmpFile = ".tmp-"

// writeAtomic replaces name in d with data: written to a temporary file in
// the same folder, then renamed over, so a reader sees the old file or the
// new one, never half of one.
func writeAtomic(d *os.Root, name string, data []byte) error {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := tmpPrefix(tmpFile) + hex.EncodeToString(rnd[:]) + "-" + name
	f, err := d.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.Rename(tmp, name)
	}
	if err != nil {
		_ = d.Remove(tmp)
	}
	return err
}
