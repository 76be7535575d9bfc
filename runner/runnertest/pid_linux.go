package runnertest

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// StartAt starts an unrelated program (sleep for secs seconds, in a
// session of its own) as process pid, which must be free, by setting the
// kernel's last pid just below it: the test of a recycled process-group
// id. It returns nil when other programs took the pid first in 20 tries,
// and skips the test where the last pid cannot be set (it takes root).
func StartAt(t testing.TB, pid, secs int) *exec.Cmd {
	t.Helper()
	for range 20 {
		if err := os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte(strconv.Itoa(pid-1)), 0); err != nil {
			t.Skipf("cannot force the next pid: %v", err)
		}
		c := exec.Command("/bin/sleep", strconv.Itoa(secs))
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		if c.Process.Pid == pid {
			return c
		}
		c.Process.Kill()
		c.Wait()
	}
	return nil
}
