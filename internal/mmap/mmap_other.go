//go:build !unix

package mmap

import "os"

// File reads path into memory where memory maps are not available.
func File(path string) ([]byte, func(), error) {
	data, err := os.ReadFile(path)
	return data, func() {}, err
}
