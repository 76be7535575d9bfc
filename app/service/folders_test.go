//go:build !windows

package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/runner/build"
	"ringside/runner/runnertest"
	"ringside/storage"
)

// TestHostileFolderCostsOnlyItsAI: a folder with a FIFO (named .gitignore
// too), a 1 TiB sparse file, a 2 GiB file and twice the cap's files fails its own
// AI's build with a message, while the other watched AIs' saves still
// become revisions.
func TestHostileFolderCostsOnlyItsAI(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	r := newWatchRig(t)
	_, aliceDir := r.add(t, "alice", "grip", map[string]string{"bot.py": fixture.PyBot(1)})
	_, bobDir := r.add(t, "bob", "grip", map[string]string{"bot.py": fixture.PyBot(1)})
	_, malDir := r.add(t, "mallory", "grip", map[string]string{"bot.py": fixture.PyBot(1)})

	for _, f := range []string{".gitignore", "pipe"} {
		if err := syscall.Mkfifo(filepath.Join(malDir, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, size := range map[string]int64{"huge.bin": 1 << 40, "bigfile.bin": 2 << 30} {
		f, err := os.Create(filepath.Join(malDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if err := runnertest.ManyFiles(filepath.Join(malDir, "many"), 2*build.MaxSourceFiles, 0); err != nil {
		t.Fatal(err)
	}

	s, err := r.s.NewWatcher(50*time.Millisecond, build.DefaultBuildTimeout)
	if err != nil {
		t.Fatal(err)
	}
	s.syncEvery = 200 * time.Millisecond
	s.OnBuild = func(ev BuildEvent) { r.events <- ev }
	var mu sync.Mutex
	var watchErrs []string
	s.OnError = func(err error) { mu.Lock(); watchErrs = append(watchErrs, err.Error()); mu.Unlock() }
	ctx, cancel := context.WithCancel(context.Background())
	r.stop = cancel
	go func() { r.done <- s.Run(ctx) }()

	// The catch-up builds: mallory's fails with the cap's message.
	got := map[string]BuildEvent{}
	for len(got) < 3 {
		select {
		case ev := <-r.events:
			got[ev.AI.Name] = ev
		case <-time.After(runnertest.Patience(t)):
			t.Fatalf("catch-up builds: only %v", got)
		}
	}
	// A failed build, kept, whose log says which cap: the AI's row and
	// "ai show" say why until the folder is fixed.
	if ev := got["mallory"]; ev.Err != nil || !ev.Out.Failed() || !strings.Contains(ev.Out.Rev.BuildLog, "more than 20000 files") {
		t.Fatalf("mallory's build: want a failed build naming the file count cap, got %v (%+v)", ev.Err, ev.Out.Rev)
	}
	t.Logf("mallory: %s", got["mallory"].Describe())

	// Saves of the others still rebuild, and mallory's folder goes on
	// failing on its own.
	runnertest.WriteFiles(t, aliceDir, map[string]string{"bot.py": fixture.PyBot(2)})
	runnertest.WriteFiles(t, bobDir, map[string]string{"bot.py": fixture.PyBot(2)})
	runnertest.WriteFiles(t, malDir, map[string]string{"bot.py": fixture.PyBot(2)})
	// Wait for both revisions and a failure of mallory (events of one
	// AI may arrive while another's are awaited).
	built, malFailed := map[string]bool{}, false
	deadline := time.After(runnertest.Patience(t))
	for len(built) < 2 || !malFailed {
		select {
		case ev := <-r.events:
			switch {
			case ev.AI.Name == "mallory":
				if ev.Err != nil || !ev.Out.Failed() {
					t.Fatalf("mallory after a save: want a failed build, got %+v (err %v)", ev.Out.Rev, ev.Err)
				}
				malFailed = true
			case ev.Out.Unchanged:
			case ev.Err != nil || ev.Out.Rev.Status != storage.BuildOK || ev.Out.Rev.Number != 2:
				t.Fatalf("%s after a save: want revision 2, got %+v (err %v)", ev.AI.Name, ev.Out.Rev, ev.Err)
			default:
				built[ev.AI.Name] = true
			}
		case <-deadline:
			t.Fatalf("after the saves: revisions of %v, mallory failed %v", built, malFailed)
		}
	}
	mu.Lock()
	t.Logf("watch errors: %q", watchErrs)
	mu.Unlock()
}

// TestTamperedRevisionIsRebuilt: a revision folder changed after its build
// (made writable first, as a program running as the teacher could) is
// refused before it plays and built again from the AI's sources.
func TestTamperedRevisionIsRebuilt(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	alice := registered(t, s, "alice")
	rev, err := s.db.CurrentRevision(alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rev.Digest == "" {
		t.Fatal("a new revision has no digest")
	}
	bot := filepath.Join(rev.ArtifactDir, "bot.py")
	want, err := os.ReadFile(bot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bot, []byte("x"), 0o644); err == nil && os.Geteuid() != 0 {
		t.Fatal("a sealed revision's file could be written")
	}
	if err := os.Chmod(rev.ArtifactDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(bot, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bot, []byte("import sys\nsys.exit(0)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := build.VerifyRevision(rev.ArtifactDir, rev.Digest); err == nil {
		t.Fatal("a tampered revision verifies")
	}

	e, err := s.ResolveEntry("alice", "grip")
	if err != nil {
		t.Fatalf("resolve alice: %v", err)
	}
	now, err := s.db.Revision(e.RevisionID)
	if err != nil {
		t.Fatal(err)
	}
	if err := build.VerifyRevision(now.ArtifactDir, now.Digest); err != nil {
		t.Fatalf("after the rebuild: %v", err)
	}
	if got, err := os.ReadFile(filepath.Join(now.ArtifactDir, "bot.py")); err != nil || string(got) != string(want) {
		t.Fatalf("the revision plays %q (%v), want the student's bot", got, err)
	}
	res, err := s.Check(context.Background(), alice.ID, CheckOptions{})
	if err != nil {
		t.Fatalf("check after the rebuild: %v", err)
	}
	if res.Revision.ID != rev.ID {
		t.Fatalf("check played revision %d, want %d rebuilt", res.Revision.ID, rev.ID)
	}

	// Tampered again: "ai build --force" builds it again rather than
	// calling the sources unchanged.
	bot = filepath.Join(now.ArtifactDir, "bot.py")
	if err := os.Chmod(now.ArtifactDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(bot); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bot, []byte("import sys\nsys.exit(0)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := s.Build(context.Background(), alice.ID, BuildOptions{Force: true})
	if err != nil || out.Unchanged || out.Rev.ID != rev.ID {
		t.Fatalf("forced build of a tampered revision: unchanged %v, revision %d (want %d rebuilt), err %v", out.Unchanged, out.Rev.ID, rev.ID, err)
	}
	if err := build.VerifyRevision(out.Rev.ArtifactDir, out.Rev.Digest); err != nil {
		t.Fatalf("after the forced build: %v", err)
	}
	if got, err := os.ReadFile(bot); err != nil || string(got) != string(want) {
		t.Fatalf("after the forced build the revision holds %q (%v)", got, err)
	}

	// An event made before the tampering verifies its entries before it
	// plays, and plays the rebuilt revision.
	ev, _, err := s.CreateEvent(EventSpec{Game: "grip", SeedSet: true,
		Entries: []string{"alice", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out.Rev.ArtifactDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out.Rev.ArtifactDir, "extra.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EventJob(ev.ID, 1); err != nil {
		t.Fatalf("event job: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out.Rev.ArtifactDir, "extra.py")); err == nil {
		t.Fatal("the event would play the tampered revision")
	}
	last, err := s.db.Revision(rev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := build.VerifyRevision(last.ArtifactDir, last.Digest); err != nil {
		t.Fatalf("before the event: %v", err)
	}
}
