//go:build !unix

package walk

import (
	"io/fs"
	"os"
	"path/filepath"
)

// openBelow opens root/parts… after checking that no element after root
// is a symbolic link (without openat, a check then an open).
func openBelow(root string, parts []string) (*os.File, error) {
	p := root
	for _, e := range parts {
		p = filepath.Join(p, e)
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
		}
	}
	return os.Open(p)
}

func openNonBlocking(path string, nofollow bool) (*os.File, error) {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return nil, err
	case nofollow && fi.Mode()&fs.ModeSymlink != 0:
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	case fi.Mode()&fs.ModeSymlink == 0 && !fi.Mode().IsRegular():
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return os.Open(path)
}
