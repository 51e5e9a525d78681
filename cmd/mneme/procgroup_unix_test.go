//go:build unix

package main_test

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so endGroup ends
// whatever it started too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// endGroup asks cmd's process group to stop.
func endGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
