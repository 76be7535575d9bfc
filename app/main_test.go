package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"ringside/runner"
)

// TestMain builds the ringside binary so built-in bots run as real
// processes, exactly as in production.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ringside-app-test")
	if err != nil {
		panic(err)
	}
	exe := filepath.Join(dir, "ringside")
	cmd := exec.Command("go", "build", "-tags", "ci", "-o", exe, "ringside")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		panic("build ringside: " + err.Error())
	}
	runner.Executable = func() (string, error) { return exe, nil }
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
