//go:build unix

package jobs

import (
	"errors"
	"syscall"
)

// alive reports whether process pid exists (signal 0 checks without
// sending anything; EPERM: it exists, under another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
