//go:build !windows

package cli

import (
	"os/exec"
	"syscall"
)

// credential is the user ringsideAs runs the binary as.
type credential = syscall.Credential

// asUser makes cmd run as cred's user.
func asUser(cmd *exec.Cmd, cred *credential) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
}
