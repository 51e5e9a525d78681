//go:build !(linux || darwin || freebsd)

package sqlite

// diskFree cannot tell the free space here.
func diskFree(string) (uint64, bool) { return 0, false }
