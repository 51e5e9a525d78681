//go:build !unix

package jobs

// alive cannot tell here: the lease alone ends a killed run.
func alive(int) bool { return true }
