package runnertest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// OutsideTmpEnv names a folder outside /tmp, /run and the other folders
// the sandbox hides, writable by the user the tests run as: AsNobody gives
// one, since user nobody cannot write the package's folder.
const OutsideTmpEnv = "RINGSIDE_TEST_OUTSIDE_TMP"

// UnprivilegedEnv is set in the environment of AsNobody's run.
const UnprivilegedEnv = "RINGSIDE_TEST_UNPRIVILEGED"

// OutsideTmp returns a new folder, named prefix and a random suffix,
// outside the session folders a contained process sees hidden anyway
// (under /tmp a stand-in home folder or another student's folder would be
// hidden whatever Landlock does, and the test would prove nothing about
// it): in OutsideTmpEnv's folder, or the package's. It is removed when the
// test ends, read-only folders in it (sealed revisions) too.
func OutsideTmp(t testing.TB, prefix string) (string, error) {
	t.Helper()
	base := os.Getenv(OutsideTmpEnv)
	if base == "" {
		base = "." // the package's folder: the test's working directory
	}
	dir, err := os.MkdirTemp(base, prefix)
	if err != nil {
		return "", err
	}
	dir, _ = filepath.Abs(dir)
	t.Cleanup(func() { RemoveAll(dir) })
	return dir, nil
}

// RemoveAll removes dir with what is in it, making its read-only folders
// writable first: a user other than root cannot empty them otherwise.
func RemoveAll(dir string) {
	MakeWritable(dir)
	os.RemoveAll(dir)
}

// MakeWritable makes every folder under dir writable by its owner (sealed
// revisions are read-only), so that t.TempDir's cleanup can remove them
// when the test is not root.
func MakeWritable(dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}

// Nobody is a run of the test binary again as user nobody, for tests of
// containment that must hold for a teacher without root.
type Nobody struct {
	Tests []string // run, each must pass
	// MaySkip are tests of Tests that may skip instead (a timing test
	// under the race detector).
	MaySkip []string
	// Files are more programs the tests need, copied beside the binary
	// (readable by nobody): their paths now → their names there.
	Files map[string]string
	// Env is more of the run's environment, given the folder that holds
	// the binary and Files (also the run's HOME) and the folder outside
	// /tmp (also OutsideTmpEnv).
	Env func(dir, outside string) []string
}

// AsNobody runs n's tests in a copy of the test binary as user nobody
// (uid and gid 65534, through setpriv) and fails t naming each that did
// not pass. It skips where the test is not root, is already that run, or
// setpriv or go is missing. It returns the run's output.
func AsNobody(t *testing.T, n Nobody) string {
	t.Helper()
	switch {
	case os.Getenv(UnprivilegedEnv) != "":
		t.Skip("already the unprivileged run")
	case os.Getuid() != 0:
		t.Skip("not root: every other test already runs unprivileged")
	case testing.Short():
		t.Skip("short")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv is not installed")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed")
	}
	dir, err := os.MkdirTemp("", "ringside-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { RemoveAll(dir) })
	outside, err := OutsideTmp(t, ".nobody-")
	if err != nil {
		t.Fatalf("no folder outside /tmp: %v", err)
	}
	for _, d := range []string{dir, outside} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := CopyGoSeeds(filepath.Join(dir, ".cache")); err != nil {
		t.Fatalf("give the run as nobody the Go seeds: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(self))
	files := map[string]string{self: filepath.Base(self)}
	for from, to := range n.Files {
		files[from] = to
	}
	for from, to := range files {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin,
		"-test.run", "^("+strings.Join(n.Tests, "|")+")$", "-test.v")
	cmd.Env = []string{UnprivilegedEnv + "=1", OutsideTmpEnv + "=" + outside, "HOME=" + dir, "LANG=C.UTF-8",
		"GOCACHE=" + filepath.Join(dir, "gocache"), "GOPATH=" + filepath.Join(dir, "gopath"), "GOTOOLCHAIN=local",
		"PATH=" + filepath.Dir(goTool) + ":/usr/local/bin:/usr/bin:/bin"}
	if n.Env != nil {
		cmd.Env = append(cmd.Env, n.Env(dir, outside)...)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	for _, name := range n.Tests {
		passed := strings.Contains(string(out), "--- PASS: "+name+" ")
		skipped := slices.Contains(n.MaySkip, name) && strings.Contains(string(out), "--- SKIP: "+name+" ")
		if !passed && !skipped {
			t.Errorf("%s did not pass as nobody:\n%s", name, out)
		}
	}
	return string(out)
}

// goSeeds is where runner/build keeps its seeds, below the user's cache
// folder: Go's standard library compiled once, given to each AI's first
// Go build (build.goStdSeed).
const goSeeds = "ringside/go-std"

// CopyGoSeeds gives a run as nobody, whose home (and so cache folder,
// cache) is new, a copy of this user's finished seeds, owned by nobody.
// Making one costs 16 to 27 s of CPU, and the run would make its own as
// a new teacher's first Go build does; TestGoBuildsStartFromTheStandardLibrary
// tests that making. A seed is only a head start: without one the run
// makes its own.
func CopyGoSeeds(cache string) error {
	root, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	seeds, err := os.ReadDir(filepath.Join(root, goSeeds))
	if err != nil {
		return nil // none made yet
	}
	for _, e := range seeds {
		from := filepath.Join(root, goSeeds, e.Name())
		if _, err := os.Stat(filepath.Join(from, "done")); err != nil || !e.IsDir() {
			continue // being made, or not a seed
		}
		to := filepath.Join(cache, goSeeds, e.Name())
		err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(from, path)
			if err != nil {
				return err
			}
			dst := filepath.Join(to, rel)
			switch {
			case d.IsDir():
				err = os.MkdirAll(dst, 0o700)
			case d.Type().IsRegular():
				var data []byte
				if data, err = os.ReadFile(path); err == nil {
					err = os.WriteFile(dst, data, 0o600)
				}
			default:
				return nil
			}
			if err != nil {
				return err
			}
			return os.Lchown(dst, 65534, 65534)
		})
		if err != nil {
			return err
		}
	}
	// The folders above the seeds, made by MkdirAll, are nobody's too.
	for d := filepath.Join(cache, goSeeds); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			if err := os.Lchown(d, 65534, 65534); err != nil {
				return err
			}
		}
		if d == cache {
			return nil
		}
	}
}
