//go:build !linux && !windows

package runner

import "syscall"

// trustedAttr starts a trusted bot in its own process group (macOS, the
// BSDs): killGroup ends it and whatever it started that stayed in the
// group. There is no parent-death signal here, so a Ringside killed
// outright leaves its bots to end at their closed stdin.
func trustedAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
