//go:build linux || darwin || freebsd

package sqlite

import "golang.org/x/sys/unix"

// diskFree is the space left to unprivileged writers on the file system
// holding dir; ok is false when it cannot be told.
func diskFree(dir string) (free uint64, ok bool) {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
