//go:build unix

package walk

import (
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// openBelow opens root/parts… with every element after root opened by
// openat and O_NOFOLLOW, the last one also O_NONBLOCK (a FIFO opens at
// once, and readOpen refuses it).
func openBelow(root string, parts []string) (*os.File, error) {
	name := filepath.Join(root, filepath.Join(parts...))
	dir, err := openat(unix.AT_FDCWD, root, unix.O_DIRECTORY)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	for i, p := range parts {
		flags := unix.O_NOFOLLOW | unix.O_NONBLOCK
		if i < len(parts)-1 {
			flags = unix.O_NOFOLLOW | unix.O_DIRECTORY
		}
		fd, err := openat(dir, p, flags)
		unix.Close(dir)
		if err == unix.ELOOP || (err == unix.ENOTDIR && i < len(parts)-1 && isSymlinkAt(root, parts[:i+1])) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: ErrSymlink}
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		dir = fd
	}
	return os.NewFile(uintptr(dir), name), nil
}

// isSymlinkAt reports whether root/parts… is a symbolic link now (some
// systems answer ENOTDIR for O_DIRECTORY|O_NOFOLLOW on a link).
func isSymlinkAt(root string, parts []string) bool {
	fi, err := os.Lstat(filepath.Join(root, filepath.Join(parts...)))
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

func openNonBlocking(path string, nofollow bool) (*os.File, error) {
	flags := unix.O_NONBLOCK
	if nofollow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := openat(unix.AT_FDCWD, path, flags)
	if err == unix.ELOOP && nofollow {
		err = ErrSymlink
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_CLOEXEC|flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}
