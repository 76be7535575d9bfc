package cli

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/runner"
	"ringside/runner/runnertest"
	"ringside/storage"
)

// TestTwoWatchersMakeOneRevisionPerSource runs two "ringside watch" on one
// database while a student saves three versions: three revisions, each
// hash once, and no failed twins.
func TestTwoWatchersMakeOneRevisionPerSource(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	root := t.TempDir()
	db, src := filepath.Join(root, "w.db"), filepath.Join(root, "wes")
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(1)})
	mustRingside(t, "ai", "add", "--name", "wes", "--game", "grip", "--dir", src, "--db", db)
	exe, _ := runner.Executable()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var watchers []*exec.Cmd
	var outs []*lockedBuffer
	for range 2 {
		cmd := exec.CommandContext(ctx, exe, "watch", "--db", db, "--debounce", "100ms")
		cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
		out := &lockedBuffer{}
		cmd.Stdout = out
		outs = append(outs, out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		watchers = append(watchers, cmd)
	}
	defer func() {
		cancel()
		for _, w := range watchers {
			w.Wait()
		}
	}()
	// Both are watching once each has said so.
	waitOutputs(t, outs, "watching 1 AI(s): wes")
	for v := 2; v <= 4; v++ {
		runnertest.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(v)})
		waitRevisions(t, db, "wes", v)
	}
	// A new file is a new source: one more revision, built once.
	runnertest.WriteFiles(t, src, map[string]string{"corner.py": "CORNER = (0, 0)\n"})
	waitRevisions(t, db, "wes", 5)
	// Each watcher has handled the new source once it has said so: one
	// built revision 5, the other found it up to date (a twin it stored
	// would be there by then).
	waitOutputs(t, outs, "(revision 5)", "revision 5 ready")

	s, err := storage.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ai, err := s.AIByName("wes")
	if err != nil {
		t.Fatal(err)
	}
	revs, err := s.Revisions(ai.ID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range revs {
		seen[string(r.Status)+" "+r.Hash]++
		if seen[string(r.Status)+" "+r.Hash] > 1 {
			t.Errorf("hash %s stored twice (%s)", r.Hash, r.Status)
		}
	}
	numbers := 0
	for _, r := range revs {
		if r.Status == storage.BuildOK {
			numbers++
		}
	}
	if numbers != 5 {
		t.Errorf("%d successful revisions, want 5 (versions 1–4 and the one with notes.txt)", numbers)
	}
}

// waitOutputs waits until every output (a lockedBuffer of students_test.go)
// holds one of the texts.
func waitOutputs(t *testing.T, outs []*lockedBuffer, texts ...string) {
	t.Helper()
	deadline := time.Now().Add(runnertest.Patience(t))
	for i, out := range outs {
		for !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(out.String(), s) }) {
			if time.Now().After(deadline) {
				t.Fatalf("watcher %d never printed any of %q; it printed:\n%s", i+1, texts, out)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// waitRevisions waits until the AI has n successful revisions.
func waitRevisions(t *testing.T, db, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(runnertest.Patience(t))
	for time.Now().Before(deadline) {
		_, out, _ := ringside(t, "ai", "revisions", name, "--db", db)
		if strings.Count(out, " ok ") >= n {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s did not reach %d revisions", name, n)
}
