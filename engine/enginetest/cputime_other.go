//go:build !linux

package enginetest

import "time"

// ThreadCPU is not measured off Linux.
func ThreadCPU() (used time.Duration, ok bool) { return 0, false }
