package runnertest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Alive tells whether pid is a live process: it exists and is not a
// zombie waiting to be reaped.
func Alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// Processes lists the live processes whose command line starts with cmd:
// the program, then as many of its arguments as given.
func Processes(cmd ...string) []int {
	prefix := strings.Join(cmd, "\x00") + "\x00"
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && strings.HasPrefix(string(cmdline), prefix) && Alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// AssertNoneLeft waits for the processes running prog, but for the
// spared pids, to end, and fails t naming those left after 30 seconds
// (a busy machine may take a while to reap what was killed; what was
// left running stays), with their command lines and parents.
func AssertNoneLeft(t testing.TB, prog string, spared ...int) {
	t.Helper()
	// Processes reads /proc: without it there would be nothing to find,
	// and the check would pass unchecked.
	if _, err := os.ReadDir("/proc"); err != nil {
		t.Fatalf("cannot look for processes left running: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		left := slices.DeleteFunc(Processes(prog), func(pid int) bool { return slices.Contains(spared, pid) })
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			var about []string
			for _, pid := range left {
				about = append(about, describe(pid))
			}
			t.Errorf("%d processes of %s left running:\n%s", len(left), filepath.Base(prog), strings.Join(about, "\n"))
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Start starts cmd, a process a test needs beside it, and kills and reaps
// it when the test ends.
func Start(t testing.TB, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// DeadAndLive returns the pid of a process that has exited and been
// reaped, and that of one that runs until the test ends: owners for the
// leftovers a test of a sweep makes up.
func DeadAndLive(t testing.TB) (dead, live int) {
	t.Helper()
	d := exec.Command("true")
	if err := d.Run(); err != nil {
		t.Fatal(err)
	}
	l := Start(t, exec.Command("sleep", "60"))
	return d.Process.Pid, l.Process.Pid
}

// describe is pid's command line and parent, as far as /proc still
// tells them.
func describe(pid int) string {
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	parent := "?"
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
		if f := strings.Fields(string(stat[i+1:])); len(f) > 1 {
			parent = f[1]
		}
	}
	return fmt.Sprintf("  pid %d (parent %s): %s", pid, parent, strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " "))
}
