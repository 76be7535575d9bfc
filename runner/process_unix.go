//go:build !windows

package runner

import (
	"os/exec"
	"syscall"
)

// killGroup signals a process group; a variable so tests can see every
// group signal that is sent.
var killGroup = func(pgid int, sig syscall.Signal) error { return syscall.Kill(-pgid, sig) }

// killPid sends SIGKILL to one process.
func killPid(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

// startGroup starts cmd; trustedAttr already puts it in a process group of
// its own, which killGroup reaches.
func startGroup(cmd *exec.Cmd) error { return cmd.Start() }

// releaseGroup has nothing to release here: a process group ends with its
// last member.
func releaseGroup(pid int) {}
