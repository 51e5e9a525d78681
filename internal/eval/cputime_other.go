//go:build !unix && !windows

package eval

import "time"

// CPUTime: no process times here, so CPU metrics read 0.
func CPUTime() time.Duration { return 0 }
