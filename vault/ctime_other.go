//go:build !linux

package vault

import (
	"io/fs"
	"time"
)

// changedAt is when info's file was last modified (the status change
// time is read on Linux only).
func changedAt(info fs.FileInfo) time.Time { return info.ModTime() }
