//go:build !unix

package main_test

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
