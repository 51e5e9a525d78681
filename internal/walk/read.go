package walk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Files are read once they are listed (hashed, sniffed, ingested), and
// the tree may change in between: a file swapped for a symbolic link, a
// FIFO or a huge file must not be followed outside the root, block the
// reader or fill its memory. ReadFile and readIgnoreFile read that way.

// MaxIgnoreFile bounds an ignore file (.gitignore, .git/info/exclude) and
// git's pointer files (.git, commondir): a larger one is not read, and its
// patterns are not applied.
const MaxIgnoreFile = 1 << 20

// Why ReadFile refused a file (test with errors.Is).
var (
	ErrSymlink    = errors.New("is a symbolic link, not followed")
	ErrNotRegular = errors.New("is not a regular file")
	ErrTooLarge   = errors.New("is too large")
	ErrNotBelow   = errors.New("is not a path below the root")
)

// ReadFile reads rel (slash-separated, as File.Rel) under root the way a
// walk listed it: no symbolic link is followed, neither the file nor any
// directory between root and it; only a regular file is read (a FIFO or a
// device is refused without blocking); a file over max bytes is refused.
// The file is opened once: info is the opened file's.
func ReadFile(root, rel string, max int64) (data []byte, info fs.FileInfo, err error) {
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." {
			return nil, nil, &fs.PathError{Op: "open", Path: filepath.Join(root, filepath.FromSlash(rel)), Err: ErrNotBelow}
		}
	}
	f, err := openBelow(root, parts)
	if err != nil {
		return nil, nil, err
	}
	return readOpen(f, max)
}

// Read reads f as ReadFile does.
func (f File) Read(max int64) ([]byte, fs.FileInfo, error) { return ReadFile(f.Root, f.Rel, max) }

// readIgnoreFile reads an ignore file or a git pointer file by its path:
// a regular file of at most MaxIgnoreFile bytes, opened without blocking.
// Like git, it follows a link to info/exclude, but nofollow refuses one
// at the last element (an in-tree .gitignore).
func readIgnoreFile(path string, nofollow bool) ([]byte, error) {
	f, err := openNonBlocking(path, nofollow)
	if err != nil {
		return nil, err
	}
	data, _, err := readOpen(f, MaxIgnoreFile)
	return data, err
}

// readOpen reads an opened file, if it is regular and at most max bytes,
// and closes it.
func readOpen(f *os.File, max int64) ([]byte, fs.FileInfo, error) {
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, nil, err
	case !fi.Mode().IsRegular():
		return nil, nil, &fs.PathError{Op: "read", Path: f.Name(), Err: ErrNotRegular}
	case fi.Size() > max:
		return nil, nil, &fs.PathError{Op: "read", Path: f.Name(), Err: fmt.Errorf("%w: %d bytes, over %d", ErrTooLarge, fi.Size(), max)}
	}
	var b bytes.Buffer
	b.Grow(int(fi.Size()) + 1)
	if _, err := b.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, nil, err
	}
	if int64(b.Len()) > max { // it grew since the stat
		return nil, nil, &fs.PathError{Op: "read", Path: f.Name(), Err: fmt.Errorf("%w: over %d bytes", ErrTooLarge, max)}
	}
	return b.Bytes(), fi, nil
}

// skipReason is the Skip reason for an error of ReadFile or readIgnoreFile.
func skipReason(err error) string {
	switch {
	case errors.Is(err, ErrTooLarge):
		return reasonTooLarge
	case errors.Is(err, ErrSymlink):
		return reasonSymlink
	}
	return reasonUnreadable
}

// IgnoreNotes says which ignore files of a walk were not read, and why:
// their patterns were not applied, so more files may be listed. Paths
// under root are given relative to it.
func IgnoreNotes(root string, skips []Skip) []string {
	var notes []string
	for _, s := range skips {
		if !s.IgnoreFile {
			continue
		}
		p := s.Path
		if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
			p = filepath.ToSlash(rel)
		}
		why := map[string]string{reasonTooLarge: fmt.Sprintf("it is over %d MiB", MaxIgnoreFile>>20),
			reasonSymlink: "it is a symbolic link"}[s.Reason]
		if why == "" {
			why = "it is not a regular file"
		}
		notes = append(notes, fmt.Sprintf("%s was not read (%s): its ignore patterns were not applied", p, why))
	}
	return notes
}
