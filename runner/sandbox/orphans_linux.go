package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Orphans lists the folders in dir named prefix, a pid, "-" and more,
// whose process no longer runs: what a Ringside process killed before it
// could clean up left behind (a crash, a power cut, kill -9). A folder
// whose owner still runs, or may (a process of another user), is not
// listed, nor this process's own.
func Orphans(dir, prefix string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		owner, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(owner)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || running(pid) {
			continue
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}

// running reports whether a process numbered pid runs, as far as this
// process can tell: one of another user (EPERM) counts as running.
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
