package enginetest

import (
	"syscall"
	"time"
)

// ThreadCPU is the CPU time the calling OS thread has used, so a test
// that locks its goroutine to a thread can tell a bot's own work from the
// time it waited for a core on a busy machine. ok is false where it cannot
// be measured.
func ThreadCPU() (used time.Duration, ok bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
