package runnertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Build is a build of the ringside command that tests run.
type Build struct {
	name string   // of the binary
	args []string // of go build, before the package
	env  []string // more of go build's environment
}

var (
	// Desktop is the desktop app with Fyne's headless driver (-tags ci):
	// every command, and windows a test can look into.
	Desktop = Build{name: "ringside", args: []string{"-tags", "ci"}}
	// Bots is the command line build (-tags nogui) that tests start their
	// bots through (runner.BotsEnv). Without cgo, as .ci/run and
	// TestNoGUIBuild build it: Go's cache then holds it already.
	Bots = Build{name: "ringside-bots", args: []string{"-tags", "nogui"}, env: []string{"CGO_ENABLED=0"}}
)

// LinkRingside builds the given builds of the ringside command and
// returns hard links to them in a folder of this test binary's own,
// which done removes.
//
// The builds are kept in the user's cache and shared by the packages of
// a test run: go build leaves an up-to-date binary as it is (0.2 s)
// where linking a new one takes seconds of both cores, once per package.
// A lock keeps two packages from linking them at once. A binary in use
// is never written over: go build replaces the file, and each package
// runs its own links. Those give its processes paths of its own: tests
// find the processes they left running by their program's path, while
// another package's tests run the same binaries.
func LinkRingside(builds ...Build) (links []string, done func(), err error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		// No home (a bare CI environment): the temporary folder.
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "ringside-test")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("build ringside: %w", err)
	}
	built, err := buildRingside(dir, builds)
	if err != nil {
		return nil, nil, err
	}
	// Beside the binaries, on their file system, so a hard link works.
	own, err := os.MkdirTemp(dir, "run-")
	if err != nil {
		return nil, nil, fmt.Errorf("link ringside: %w", err)
	}
	done = func() { os.RemoveAll(own) }
	for _, b := range built {
		link := filepath.Join(own, filepath.Base(b))
		if err := os.Link(b, link); err != nil {
			done()
			return nil, nil, fmt.Errorf("link ringside: %w", err)
		}
		links = append(links, link)
	}
	return links, done, nil
}

// buildRingside builds builds into dir, under its lock.
func buildRingside(dir string, builds []Build) ([]string, error) {
	unlock, err := lockFile(filepath.Join(dir, "build.lock"))
	if err != nil {
		return nil, fmt.Errorf("build ringside: %w", err)
	}
	defer unlock()
	var built []string
	for _, b := range builds {
		exe := filepath.Join(dir, b.name)
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		args := append(append([]string{"build"}, b.args...), "-o", exe, "ringside")
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), b.env...)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("build %s: %w", b.name, err)
		}
		built = append(built, exe)
	}
	return built, nil
}
