//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detach runs cmd in a session of its own, so the host ending the hook's
// process group does not end it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
