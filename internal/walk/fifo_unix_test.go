//go:build unix

package walk

import "syscall"

func mkfifoAt(p string) error { return syscall.Mkfifo(p, 0o644) }
