//go:build !linux

package runner

import (
	"os"
	"syscall"
	"time"
)

// trustedAttr starts a trusted bot in its own process group.
func trustedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// waitUnreaped cannot wait without reaping here: the group is then not
// killed when its leader exits, only by stop while the leader lives.
func waitUnreaped(pid int) bool { return false }

// unread cannot tell what waits in a pipe here: 0.
func unread(f *os.File) int { return 0 }

// cpuWait cannot tell here how long a bot waited for a CPU: 0.
func (p *process) cpuWait() time.Duration { return 0 }
