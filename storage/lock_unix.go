//go:build unix

package storage

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processAlive reports whether a process with pid exists on this host.
func processAlive(pid int) (alive, known bool) {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		// A zombie has exited; only its parent has not collected it yet.
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && strings.HasPrefix(string(b[i+1:]), " Z") {
			return false, true
		}
	}
	err := syscall.Kill(pid, 0)
	// EPERM: it exists but belongs to another user.
	return err == nil || errors.Is(err, syscall.EPERM), true
}

// processStart returns when process pid started, in the system's clock
// ticks since boot (Linux /proc), or 0 where that is unknown.
func processStart(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) is in parentheses and may hold spaces;
	// the start time is field 22, the 20th after it.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return 0
	}
	v, err := strconv.ParseInt(f[19], 10, 64)
	if err != nil {
		return 0
	}
	return v
}
