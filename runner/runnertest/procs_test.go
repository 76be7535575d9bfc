package runnertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestProcesses finds a process by its command line while it runs, and
// neither it nor its zombie once it has been killed. The program is a
// copy of sleep of its own, so no other process on the machine matches.
func TestProcesses(t *testing.T) {
	data, err := os.ReadFile("/bin/sleep")
	if err != nil {
		t.Skipf("no sleep to copy: %v", err)
	}
	prog := filepath.Join(t.TempDir(), "procs-test-sleep")
	if err := os.WriteFile(prog, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := Start(t, exec.Command(prog, "30"))
	pid := cmd.Process.Pid
	if !Alive(pid) {
		t.Errorf("Alive(%d) = false for a running sleep", pid)
	}
	if got := Processes(prog, "30"); !slices.Equal(got, []int{pid}) {
		t.Errorf("Processes(%s 30) = %v, want [%d]", prog, got, pid)
	}
	if got := Processes(prog, "3"); len(got) != 0 {
		t.Errorf("Processes(%s 3) = %v: matched a part of an argument", prog, got)
	}
	cmd.Process.Kill()
	// Killed but not yet waited for, it is a zombie: gone for these helpers.
	AssertNoneLeft(t, prog)
	if Alive(pid) {
		t.Errorf("Alive(%d) = true for a killed sleep", pid)
	}
}
