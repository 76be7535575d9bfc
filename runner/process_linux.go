package runner

import (
	"os"
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

// unread returns how many bytes wait in the pipe f, not yet read.
func unread(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		// TIOCINQ is FIONREAD: the bytes waiting to be read.
		n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ)
	})
	if err != nil {
		return 0
	}
	return n
}
