//go:build linux && !amd64 && !arm64

package sandbox

// No filter here: the syscall numbers of this architecture are not
// listed (installSeccomp reports it, and the status names it).
const (
	syscallArch = 0
	x32Bit      = 0
)

var deniedSyscalls []int
