//go:build unix

// Package mmap maps files read-only into memory (reads them where maps are
// not available). Derived files (index snapshots, model caches) are read
// this way, so a cold process pays for the pages it touches, not a copy.
package mmap

import (
	"os"
	"syscall"
)

// File maps path read-only. The mapping outlives renames of the file, so
// another process replacing the snapshot never disturbs this one.
func File(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return nil, func() {}, nil
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
