package runner

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// trustedAttr starts a trusted bot in its own process group, killed if
// Ringside dies.
func trustedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// waitUnreaped waits until pid has exited but leaves it unreaped (a
// zombie still owns its number); it reports whether it could.
func waitUnreaped(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err == nil
		}
	}
}
