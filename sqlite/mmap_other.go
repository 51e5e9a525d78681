//go:build !unix

package sqlite

import "os"

// mapFile reads path into memory where memory maps are not available.
func mapFile(path string) ([]byte, func(), error) {
	data, err := os.ReadFile(path)
	return data, func() {}, err
}
