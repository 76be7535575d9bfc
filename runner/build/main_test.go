package build

import (
	"os"
	"testing"

	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// TestMain lets this test binary be runner.Executable: the revisions that
// play each other start sandboxed through it, as through the ringside
// binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.LauncherArg {
		sandbox.Main()
	}
	runnertest.PythonFirst()
	runnertest.ShareUserCache()
	os.Exit(m.Run())
}
