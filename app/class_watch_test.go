//go:build linux

package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/app/service"
	"ringside/runner"
	"ringside/runner/build"
	"ringside/runner/runnertest"
)

// TestAppWatcherHoldsTheClassAsNobody runs TestAppWatcherHoldsTheClass
// again as user nobody, as a teacher without root runs the app.
func TestAppWatcherHoldsTheClassAsNobody(t *testing.T) {
	t.Parallel()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := runnertest.AsNobody(t, runnertest.Nobody{Tests: []string{"TestAppWatcherHoldsTheClass"},
		Files: map[string]string{exe: "ringside"},
		Env:   func(dir, _ string) []string { return []string{fixture.ExeEnv + "=" + filepath.Join(dir, "ringside")} }})
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "class_watch_test.go") {
			t.Logf("as nobody: %s", strings.TrimSpace(l))
		}
	}
}

// TestAppWatcherHoldsTheClass is the class of issue 31 in the app: thirty
// students watched by the AIs screen's watcher, one of whom hands in a
// folder that would hold everyone's builds (a FIFO, a 1 TiB sparse file,
// twice the cap's files and a 2 GB file, all in one folder). That AI's build
// fails with a message naming a cap, and every one of the other 29
// students' saves is rebuilt, while the bad folder stays watched.
func TestAppWatcherHoldsTheClass(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("short: tens of thousands of files")
	}
	runnertest.NeedPython(t)
	_, u, s := newAIsTestUI(t)
	// Revisions are sealed read-only: as nobody the temporary folder's
	// cleanup could not remove them.
	t.Cleanup(func() { runnertest.MakeWritable(filepath.Dir(u.Svc.Path())) })
	root := t.TempDir()
	const students = 29
	for i := range students {
		name := fmt.Sprintf("student%02d", i+1)
		dir := filepath.Join(root, name)
		runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})
		if _, err := u.Svc.Register(service.NewAI{Name: name, Game: "grip", Dir: dir, Watch: true}); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(root, "mallory")
	runnertest.WriteFiles(t, bad, map[string]string{"bot.py": fixture.PyBot(1)})
	// Registered as an ordinary folder; what would hold the class comes
	// after (registering refuses such a folder at once).
	if _, err := u.Svc.Register(service.NewAI{Name: "mallory", Game: "grip", Dir: bad, Watch: true}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(bad, "notes.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	sparse, err := os.Create(filepath.Join(bad, "weights.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sparse.Truncate(1 << 40); err != nil {
		t.Fatal(err)
	}
	sparse.Close()
	// 2 GB of real blocks, without writing them.
	big, err := os.Create(filepath.Join(bad, "dataset.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Fallocate(int(big.Fd()), 0, 0, 2<<30); err != nil {
		t.Logf("no fallocate here (%v): a 2 GB sparse file instead", err)
		if err := big.Truncate(2 << 30); err != nil {
			t.Fatal(err)
		}
	}
	big.Close()
	if err := runnertest.ManyFiles(bad, 2*build.MaxSourceFiles, 1000); err != nil {
		t.Fatal(err)
	}

	// The screen's watcher started before these were registered: it
	// finds them at its next look at the database.
	revs := func(name string) (int, string) {
		st, err := u.Svc.AI(name)
		if err != nil || st.Last == nil {
			return 0, ""
		}
		n := 0
		if st.Current != nil {
			n = st.Current.Number
		}
		return n, st.Last.BuildLog
	}
	eventually(t, "mallory's build fails naming a cap", func() bool {
		_, log := revs("mallory")
		return strings.Contains(log, "over the") || strings.Contains(log, "more than")
	})
	_, log := revs("mallory")
	t.Logf("mallory's build log:\n%s", log)
	eventuallyEvery(t, 250*time.Millisecond, "every student has a first revision", func() bool {
		for i := range students {
			if n, _ := revs(fmt.Sprintf("student%02d", i+1)); n != 1 {
				return false
			}
		}
		return true
	})

	// Every student saves; mallory's folder is still watched (she saves
	// too) and costs nobody else a rebuild.
	saved := time.Now()
	for i := range students {
		runnertest.WriteFiles(t, filepath.Join(root, fmt.Sprintf("student%02d", i+1)), map[string]string{"bot.py": fixture.PyBot(2)})
	}
	runnertest.WriteFiles(t, bad, map[string]string{"bot.py": fixture.PyBot(2)})
	eventuallyEvery(t, 250*time.Millisecond, "every student's save is rebuilt", func() bool {
		for i := range students {
			if n, _ := revs(fmt.Sprintf("student%02d", i+1)); n != 2 {
				return false
			}
		}
		return true
	})
	t.Logf("29 saves rebuilt %v after they were made, with mallory's folder watched", time.Since(saved).Round(time.Millisecond))
	if n, _ := revs("mallory"); n != 0 {
		t.Errorf("mallory's folder built a revision %d", n)
	}
	// Her row says so and stays so: a failed build, not a message the
	// next student's build replaces.
	eventually(t, "the AIs screen shows mallory's build as failed", func() bool {
		r := rowText(s, "mallory")
		return r != nil && strings.Contains(r[4], "failed")
	})
	t.Logf("mallory's row: %q", rowText(s, "mallory"))
}
