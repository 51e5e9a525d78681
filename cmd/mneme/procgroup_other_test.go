//go:build !unix

package main_test

import "os/exec"

// ownGroup: without Unix process groups, cmd runs as it is.
func ownGroup(cmd *exec.Cmd) {}

// endGroup kills cmd (what it started may outlive it).
func endGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
