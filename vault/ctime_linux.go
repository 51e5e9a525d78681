//go:build linux

package vault

import (
	"io/fs"
	"syscall"
	"time"
)

// changedAt is when info's file last changed: its status change time,
// which every write moves and no tool can set back (a copy that keeps
// the modification time, touch -d), else its modification time.
func changedAt(info fs.FileInfo) time.Time {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	}
	return info.ModTime()
}
