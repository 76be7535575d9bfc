//go:build !windows

package runner

import (
	"os/exec"
	"syscall"

	"ringside/runner/sandbox"
)

// killGroup signals a process group; a variable so tests can see every
// group signal that is sent.
var killGroup = func(pgid int, sig syscall.Signal) error { return syscall.Kill(-pgid, sig) }

// killPid sends SIGKILL to one process.
func killPid(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

// startGroup starts cmd; trustedAttr already puts it in a process group of
// its own, which killGroup reaches. caps and oneCPU are not held here: on
// Linux the sandbox holds a bot's limits (and a bot run outside it is
// trusted), and macOS and the BSDs have no process-tree caps Ringside
// sets.
func startGroup(cmd *exec.Cmd, caps sandbox.Limits, oneCPU bool) error { return cmd.Start() }

// uncontainedRemark is the replay's note on a bot that ran without the
// sandbox because this OS has none (macOS, the BSDs): nothing holds it.
const uncontainedRemark = "sandbox off: there is none on this system; the bot ran with your rights, files and network"

// uncontainedLevel is such a bot's Outcome.Sandbox: nothing holds it.
const uncontainedLevel = "off"

// releaseGroup has nothing to release here: a process group ends with its
// last member.
func releaseGroup(pid int) {}
