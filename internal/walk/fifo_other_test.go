//go:build !unix

package walk

import "errors"

func mkfifoAt(string) error { return errors.New("no FIFOs here") }
