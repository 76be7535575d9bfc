package web

import (
	"os"
	"os/exec"
	"testing"

	"ringside/app/internal/fixture"
)

// TestMain builds the ringside binary: a hand-in's check game plays the
// built-in bots as real processes, as in class.
func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }

// needPython skips a test whose students' bots are Python when there is
// no python3 (the class package imports nothing of the runner's, not even
// its test helpers).
func needPython(t testing.TB) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3: the students' bots are Python")
	}
}
