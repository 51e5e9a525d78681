//go:build !unix

package main

import "os/exec"

// detach leaves cmd as it is where sessions are a Unix notion.
func detach(*exec.Cmd) {}
