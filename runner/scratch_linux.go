package runner

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

var sweepScratchOnce sync.Once

// sweepScratch removes the bots' scratch folders in dir that Ringside
// processes which no longer run left behind: one killed in the middle of
// a game (a crash, a closed laptop lid's power loss, kill -9) cannot
// remove its own, and a term of classes would pile them up in /tmp. The
// owner is the pid in the folder's name (scratchPattern); a folder whose
// owner still runs, or cannot be told, is left alone.
func sweepScratch(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "ringside-seat-")
		if !ok || !e.IsDir() {
			continue
		}
		owner, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(owner)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// processAlive reports whether a process numbered pid runs, as far as
// this process can tell: one of another user counts as running.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
