package build

import (
	"os"
	"testing"

	"ringside/runner"
	"ringside/runner/runnertest"
	"ringside/runner/sandbox"
)

// TestMain lets this test binary be runner.Executable: a run as nobody
// (runnertest.AsNobody) starts builds and revisions sandboxed through it,
// as through the ringside binary. Others start them through the command
// line build (runner.BotsEnv), as the app's tests do: a start costs a
// third of this race-built binary's.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.LauncherArg {
		sandbox.Main()
	}
	runnertest.PythonFirst()
	runnertest.ShareUserCache()
	done := func() {}
	if os.Getenv(runnertest.UnprivilegedEnv) == "" && os.Getenv(runner.BotsEnv) == "" {
		links, linked, err := runnertest.LinkRingside(runnertest.Bots)
		if err != nil {
			panic(err)
		}
		os.Setenv(runner.BotsEnv, links[0])
		done = linked
	}
	// The tests that run side by side wait for watchers' debounce and
	// for the run as nobody.
	runnertest.ParallelWaiters(8)
	code := m.Run()
	done()
	os.Exit(code)
}
