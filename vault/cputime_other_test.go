//go:build !unix

package vault_test

import "time"

// cpuTime: no rusage here, so the CPU metric reads 0.
func cpuTime() time.Duration { return 0 }
